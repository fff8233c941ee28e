"""The tile runtime: what a game is written against (tile.py), and what it needs of a board's
HAL (hal_contract.py).

tile.py (the game-facing API), colors.py, timer.py, button.py (gestures), faces.py (values,
probes, datagrams), link.py (frame encoding). Pure MicroPython; imports no hardware.
"""
