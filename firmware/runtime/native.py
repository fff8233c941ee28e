"""Native code on a tile, plain Python everywhere else, decided in this one place.

The firmware's hot loops (a pass's frames, faces, the game's loop) are marked
`@micropython.native`: on a tile the compiler turns them into machine code, about twice as
fast as bytecode on the M0+ (`blinks flash` compiles them for the tile's CPU). CPython, which
runs the same firmware in the simulator and the host tests, has no `micropython` module: a
module that marks code imports this one in its place, and there a mark leaves the function
as it is. So the behaviour is the same everywhere; only the speed differs.

    try:
        import micropython
    except ImportError:  # CPython
        from runtime import native as micropython

MicroPython's `const()` is the same: on a tile the compiler folds `X = const(1)` into the
code (it knows the name, whatever imported it); elsewhere `const` here returns its value:

    try:
        from micropython import const
    except ImportError:  # CPython
        from runtime.native import const
"""


def native(function):
    return function


def viper(function):
    return function


def const(value):
    return value
