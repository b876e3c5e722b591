"""The PyGamer's and PyBadge's five NeoPixels: dark, but for a win.

``glow(frame, percent)`` shows a frame of the celebration (a rainbow
turning along the five) at ``percent`` of the game's brightness, or goes
dark for a negative ``frame`` or a zero ``percent``. The game calls it on
the celebration's frames only, so lights add no work to other frames.

The five pixels are 15 bytes sent with CircuitPython's built-in
``neopixel_write``, which the ``neopixel`` library wraps: the library costs
1.7 KB of heap and two dozen interned names (measured under the VM), where
the game with its speaker has only a few KB to spare in 80 KB.
"""

import digitalio
from neopixel_write import neopixel_write
from rainbowio import colorwheel

from british_square.cards import const

_PIXELS = const(5)
# Full brightness on the pixels is glaring a hand's length from the eyes:
# the game's 100% is a quarter of theirs (64 of 256).
_FULL = const(64)


class Lights:
    """The NeoPixels on ``pin``: ``glow(frame, percent)``."""

    def __init__(self, pin):
        self.pin = digitalio.DigitalInOut(pin)
        self.pin.switch_to_output(value=False)
        self.grb = bytearray(3 * _PIXELS)  # green, red, blue: the pixels' order
        self.lit = True  # until the first glow: a reset may have left them on
        self.glow(-1, 0)

    def glow(self, frame, percent):
        grb = self.grb
        if frame < 0 or not percent:
            if self.lit:
                self.lit = False
                for i in range(3 * _PIXELS):
                    grb[i] = 0
                neopixel_write(self.pin, grb)
            return
        self.lit = True
        level = _FULL * percent // 100
        for i in range(_PIXELS):
            colour = colorwheel(((frame & 31) * 8 + i * 51) & 255)  # small ints only
            grb[3 * i] = (colour >> 8 & 255) * level >> 8
            grb[3 * i + 1] = (colour >> 16) * level >> 8
            grb[3 * i + 2] = (colour & 255) * level >> 8
        neopixel_write(self.pin, grb)
