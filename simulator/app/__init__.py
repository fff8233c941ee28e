"""The pygame front end (`blinks sim`). pygame greets on import; the simulator does not."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
