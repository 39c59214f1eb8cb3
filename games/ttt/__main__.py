"""``python -m games.ttt [--list] [--canonical] RULES...``: validate rule sets."""
from games.ttt.rules import main

raise SystemExit(main())
