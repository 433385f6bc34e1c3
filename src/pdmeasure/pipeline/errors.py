"""The pipeline's two error types, below every module that raises them.

:class:`ConfigError` is a problem of ``config.yaml`` (the message names the key and the fix);
:class:`DataFetchError` is a dataset that could not be read or fetched (the message names the
dataset, the file, the reason and the fix).
"""

from __future__ import annotations


class ConfigError(ValueError):
    """The configuration is invalid; the message names the key and the fix."""


class DataFetchError(RuntimeError):
    """A dataset could not be fetched; the message names the dataset, the reason and the fix."""
