"""`python -m host_tools.virtual_tile DIR [DIR ...]`: virtual tiles on pseudo-terminals."""

import sys

from host_tools.virtual_tile import main

sys.exit(main())
