"""Lazy product grids of preference vectors (paper 000, Section 5.1).

Paper 000 evaluates the preference-driven measure on every vector of
``values x values x ... x values`` (one factor per class): 11**4 = 14,641 vectors for car,
7**5 for nursery, 5**6 for dermatology and 2**18 = 262,144 for krkopt. :func:`kappa_grid`
yields that grid in chunks, in :func:`itertools.product` order (the last class varies
fastest), so memory never exceeds one chunk, whatever the size of the grid.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

#: The measure that takes a kappa vector, and the names written in a table's ``kappa`` column:
#: ``default`` for the actual-class shares (paper 000, eq. 31), empty for measures without one.
PD = "preference_driven"
DEFAULT_KAPPA = "default"
NO_KAPPA = ""

DEFAULT_CHUNK_SIZE = 65536


class KappaGrid:
    """The product grid ``values ** n_classes``, iterated lazily in chunks.

    Iterating yields float64 arrays of shape ``(<= chunk_size, n_classes)`` (column-major,
    a fresh array per chunk); concatenated,
    they are ``np.array(list(itertools.product(values, repeat=n_classes)))``. ``len()``
    is the number of vectors (``len(values) ** n_classes``). The grid can be iterated more
    than once. Use :func:`kappa_grid` to build one.

    Attributes
    ----------
    values : numpy.ndarray
        The distinct weights of one class, in the given order.
    n_classes : int
        Length of each vector.
    chunk_size : int
        Maximum number of vectors per chunk.
    n_vectors : int
        Exact number of vectors (a Python int, also for grids too large for ``len()``).
    """

    def __init__(self, values: np.ndarray, n_classes: int, chunk_size: int) -> None:
        self.values = values
        self.n_classes = n_classes
        self.chunk_size = chunk_size
        self.n_vectors = len(values) ** n_classes

    def __len__(self) -> int:
        return self.n_vectors

    @property
    def n_chunks(self) -> int:
        """Number of chunks that iteration yields."""
        return -(-self.n_vectors // self.chunk_size)

    def __repr__(self) -> str:
        return (
            f"KappaGrid(values={self.values.tolist()}, n_classes={self.n_classes}, "
            f"chunk_size={self.chunk_size}, n_vectors={self.n_vectors})"
        )

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.chunks()

    def chunks(self, start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
        """Yield the vectors with flat indices in ``[start, stop)``, in chunks.

        Parameters
        ----------
        start, stop : int
            Flat positions in product order; ``stop=None`` means the end of the grid.

        Yields
        ------
        numpy.ndarray
            Float64 arrays of shape ``(<= chunk_size, n_classes)``.
        """
        stop = self.n_vectors if stop is None else min(int(stop), self.n_vectors)
        start = int(start)
        if start < 0:
            raise ValueError(f"start must be >= 0, got {start}")
        position = start
        while position < stop:
            length = min(self.chunk_size, stop - position)
            yield self._chunk(position, length)
            position += length

    def _chunk(self, start: int, length: int) -> np.ndarray:
        """Vectors ``start .. start + length - 1`` of the product order, as one array.

        Column j (counted from the left) takes value ``(r // V**p) % V`` in row r, with
        ``p = C - 1 - j``: runs of ``V**p`` equal values. Each column is filled from that
        periodic pattern (a tile of ``np.repeat(values, V**p)``) or, for runs at least as
        long as the chunk, from at most two slices. Positions are Python integers, so there
        is no overflow for any grid size, and no index array is built.
        """
        base = len(self.values)
        # Filled column by column into a (C, length) buffer and returned transposed: an
        # (length, C) Fortran-ordered array, which also makes the dot products over classes
        # in preference_driven several times faster than a C-ordered chunk.
        columns = np.empty((self.n_classes, length), dtype=np.float64)
        for column in range(self.n_classes):
            run = base ** (self.n_classes - 1 - column)
            if run >= length:
                row = start
                while row < start + length:
                    end = min((row // run + 1) * run, start + length)
                    columns[column, row - start : end - start] = self.values[(row // run) % base]
                    row = end
            else:
                pattern = np.repeat(self.values, run)
                _fill_periodic(columns[column], pattern, start % len(pattern))
        return columns.T


def _fill_periodic(dest: np.ndarray, pattern: np.ndarray, offset: int) -> None:
    """Fill ``dest`` with ``pattern`` repeated, starting at ``pattern[offset]``, in place.

    (``np.tile`` would allocate the whole repetition first; this writes through a reshaped
    view of ``dest``.)
    """
    period = len(pattern)
    head = min(period - offset, len(dest))
    dest[:head] = pattern[offset : offset + head]
    rest = dest[head:]
    whole = len(rest) // period
    rest[: whole * period].reshape(whole, period)[...] = pattern
    tail = len(rest) - whole * period
    rest[whole * period :] = pattern[:tail]


def kappa_grid(
    values: Sequence[float], n_classes: int, chunk_size: int = DEFAULT_CHUNK_SIZE
) -> KappaGrid:
    """Every preference vector with entries from ``values`` (paper 000, Section 5.1).

    The grid is the Cartesian product ``values ** n_classes`` in :func:`itertools.product`
    order (first class slowest, last class fastest), produced lazily in chunks.

    Parameters
    ----------
    values : sequence of float
        The weights each class may take, each in [0, 1] (e.g. ``[0, 0.1, ..., 1]``).
    n_classes : int
        Number of classes C (length of each vector), at least 1.
    chunk_size : int, default 65536
        Maximum number of vectors per chunk; memory is ``chunk_size * C`` floats.

    Returns
    -------
    KappaGrid
        Iterable of float64 arrays of shape ``(<= chunk_size, C)``, with ``len()`` equal to
        ``len(values) ** C``.

    Raises
    ------
    ValueError
        If ``values`` is empty, not one-dimensional, holds NaN or a value outside [0, 1],
        or if ``n_classes`` or ``chunk_size`` is not a positive integer.

    Examples
    --------
    >>> grid = kappa_grid([0, 1], 3, chunk_size=3)
    >>> len(grid)
    8
    >>> [chunk.shape for chunk in grid]
    [(3, 3), (3, 3), (2, 3)]
    """
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"kappa grid values must be numbers: {exc}") from exc
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"kappa grid values must be a non-empty 1-D sequence, got shape {arr.shape}"
        )
    if np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any():
        raise ValueError(f"kappa grid values must lie in [0, 1] (no NaN), got {arr.tolist()}")
    for name, number in (("n_classes", n_classes), ("chunk_size", chunk_size)):
        if isinstance(number, bool) or not isinstance(number, (int, np.integer)) or number < 1:
            raise ValueError(f"{name} must be a positive integer, got {number!r}")
    arr.setflags(write=False)
    return KappaGrid(arr, int(n_classes), int(chunk_size))


def format_kappa(vector: Sequence[float] | np.ndarray) -> str:
    """Write a preference vector as ``0;0.8;0.6;1`` (shortest round-tripping decimals).

    Parameters
    ----------
    vector : sequence of float
        The kappa vector, one value per class in the configured class order.

    Returns
    -------
    str
        Values joined by ``;``; integers lose their ``.0`` (``0``, ``1``).
    """
    values = np.asarray(vector, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"a kappa vector must be a non-empty 1-d sequence, got {vector!r}")
    return ";".join(np.format_float_positional(v, trim="-") for v in values)


def parse_kappa(text: str) -> np.ndarray:
    """Inverse of :func:`format_kappa`: ``"0;0.8;0.6;1"`` -> ``array([0., 0.8, 0.6, 1.])``."""
    try:
        return np.array([float(part) for part in str(text).split(";")])
    except ValueError:
        raise ValueError(f"{text!r} is not a kappa vector written like '0;0.8;0.6;1'") from None
