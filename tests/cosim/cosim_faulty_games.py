"""Games that misbehave on purpose, to check that co-simulation reports faults clearly."""

from runtime import colors


class Crasher:
    """Raises on its third pass."""

    def __init__(self, tile):
        self.tile = tile
        self.passes = 0

    def setup(self):
        pass

    def loop(self):
        self.passes += 1
        if self.passes == 3:
            raise ZeroDivisionError("the third pass divides by zero")
        self.tile.set_color(colors.GREEN)


class Hog:
    """Keeps 300 KB alive: fine on a desktop, more than a tile's 192 KB heap."""

    def __init__(self, tile):
        self.tile = tile
        self.hoard = []

    def setup(self):
        for _ in range(300):
            self.hoard.append(bytearray(1024))

    def loop(self):
        self.tile.set_color(colors.BLUE)


class Printer:
    """Prints instead of logging (a real tile would send it to the serial port)."""

    def __init__(self, tile):
        self.tile = tile

    def setup(self):
        print("hello from setup")

    def loop(self):
        self.tile.set_color(colors.YELLOW)


class Spinner:
    """Never returns from its second pass."""

    def __init__(self, tile):
        self.tile = tile
        self.passes = 0

    def setup(self):
        pass

    def loop(self):
        self.passes += 1
        while self.passes > 1:
            pass
