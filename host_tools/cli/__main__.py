"""`python -m host_tools.cli ...`: the `blinks` command, for a checkout that was never installed."""

import sys

from host_tools.cli import main

sys.exit(main())
