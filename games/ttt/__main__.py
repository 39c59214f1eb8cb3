"""``python -m games.ttt [--list] [--canonical] RULES...``: validate rule sets."""

from games.ttt.cli import main

raise SystemExit(main())
