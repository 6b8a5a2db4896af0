"""``python -m cardlogic`` runs the command line."""

from cardlogic.cli import main

raise SystemExit(main())
