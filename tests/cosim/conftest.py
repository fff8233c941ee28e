"""The tile host's modules are top-level names under MicroPython (MICROPYPATH has
simulator/cosim); give CPython the same view so their unit tests run on both."""

import os
import sys

COSIM = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "simulator", "cosim")
if COSIM not in sys.path:
    sys.path.append(COSIM)
