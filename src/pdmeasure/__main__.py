"""``python -m pdmeasure``: the ``pdmeasure`` command (see :mod:`pdmeasure.cli`)."""
from .cli import main

raise SystemExit(main())
