"""Published numbers against reproduced ones (pipeline step 8).

Modules: :mod:`~pdmeasure.paper.reproduction.verdicts` (statuses, known causes, errata),
:mod:`~pdmeasure.paper.reproduction.no_data` (tables that need no data),
:mod:`~pdmeasure.paper.reproduction.data_tables` (paper 000 Tables 6-9) and
:mod:`~pdmeasure.paper.reproduction.table` (the whole table and its summary); the Markdown
summary is rendered by :mod:`pdmeasure.render.reproduction_markdown`.

One row per published number (:func:`pdmeasure.paper.published.load`) and engine::

    paper, table, row, column, engine, published, reproduced, abs_diff, status, reason

``status`` is

* ``match``: the published number is a correct rounding of the reproduced value at the printed
  precision, ``|reproduced - published| <= 0.5 * 10**-decimals`` (the same as
  ``round(reproduced, decimals) == published`` except that an exact tie at the half accepts
  either rounding); NaN matches a printed NaN;
* ``erratum``: the printed number is wrong; the value the formulas give equals the erratum's
  ``correct`` value (:func:`pdmeasure.paper.published.errata`), and ``reason`` points to its entry in
  ``docs/errata.md``. A printed kappa vector that reproduces no classifier (paper 000 Table 9,
  footnote 3) is searched for in the dataset's configured grid with
  :mod:`pdmeasure.paper.kappa_search`; when a grid vector reproduces the printed row, the row's cells
  are errata and ``reason`` names that vector;
* ``differs``: this run computed the number and it differs, for a known cause named in
  ``reason`` (see :data:`REASONS`);
* ``not_run``: this run did not compute the number -- its engine or its dataset is not in the
  config, the engine has no counterpart of the paper's classifier, the table row's kappa
  vector is not configured, or the results lack the value. ``reproduced`` is empty and
  ``reason`` starts ``not run`` and says which.

Engines: tables that need no data (paper 000 Tables 3 and 4, the Pacc tables) are reproduced
once, with engine :data:`NO_DATA_ENGINE` (``"none"``). The data tables (paper 000 Tables 6-9)
get one row per published number and engine: the configured engines, then every other
registered engine (:data:`pdmeasure.pipeline.engines.ENGINES`) with ``not_run`` rows. Nothing is
skipped, so every run reports every published number, and ``differs`` counts only numbers
that were computed.
"""

from pdmeasure.paper.reproduction.data_tables import compare_data_tables
from pdmeasure.paper.reproduction.no_data import compare_no_data
from pdmeasure.paper.reproduction.table import (
    engines_not_run,
    read_reproduction,
    reproduction_table,
    status_counts,
    summary_tables,
)
from pdmeasure.paper.reproduction.verdicts import (
    COUNTERPARTS,
    ERRATA_DOC,
    NO_DATA_ENGINE,
    NOT_RUN,
    REASONS,
    REPRODUCTION_COLUMNS,
    STATUSES,
    Reason,
    is_match,
    known_cause,
    paper_columns,
)

__all__ = [
    "COUNTERPARTS",
    "ERRATA_DOC",
    "NOT_RUN",
    "NO_DATA_ENGINE",
    "REASONS",
    "REPRODUCTION_COLUMNS",
    "STATUSES",
    "Reason",
    "compare_data_tables",
    "compare_no_data",
    "engines_not_run",
    "is_match",
    "known_cause",
    "paper_columns",
    "read_reproduction",
    "reproduction_table",
    "status_counts",
    "summary_tables",
]
