"""``python -m pdmeasure``: the ``pdmeasure`` command (see :mod:`pdmeasure.cli`)."""

from pdmeasure.cli import main

raise SystemExit(main())
