import sys

from registry.cli import main

sys.exit(main())
