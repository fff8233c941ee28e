"""Emulated rp2 tiles: the official MicroPython firmware on emulated RP2040 boards (`blinks emu`)."""
