"""The serial port of an emulated tile: a pseudo-terminal whose other end is the tile's USB CDC.

A stable path (like /dev/ttyACM0) points at the terminal's host end, which `blinks flash`,
`blinks monitor`, mpremote or any program opens as it opens a board's port. The emulator writes
the device's output into the terminal itself (js/usb_host.mjs), so that a host process that
does not read fills it and the device's USB stops sending, as on a board; this side reads what
host processes write, and says whether any of them has the port open, which is the USB host's
DTR.
"""

import os
import select
import termios
import tty


class TilePort:
    def __init__(self, path):
        self.path = path
        self.master = None
        self.holder = None  # hold(): a host end opened here and never read
        self.plug()

    def plug(self):
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes as they are, like a USB CDC port
        os.set_blocking(master, False)
        target = os.ttyname(slave)
        os.close(slave)  # the host opens it; while nobody has it open, poll says POLLHUP
        self.master = master
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.remove(tmp)
        os.symlink(target, tmp)
        os.replace(tmp, self.path)

    def host_open(self):
        """Whether any process has the host end open."""
        poll = select.poll()
        poll.register(self.master, select.POLLOUT)
        return not any(ev & select.POLLHUP for _, ev in poll.poll(0))

    def drop_unread(self):
        """Forget device output nobody read (written while a host was closing the port): a host
        that opens the port next must not read it, as it would not from a board."""
        try:
            termios.tcflush(self.master, termios.TCOFLUSH)
        except (OSError, termios.error):
            pass

    def hold(self):
        """Open the host end and never read it: a host that connects (DTR) and does not read."""
        if self.holder is None:
            self.holder = os.open(self.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)

    def release(self):
        if self.holder is not None:
            os.close(self.holder)
            self.holder = None

    def close(self):
        self.release()
        try:
            os.close(self.master)
        except OSError:
            pass
        if os.path.lexists(self.path):
            os.remove(self.path)
