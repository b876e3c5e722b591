"""Adafruit PyBadge (and PyBadge LC, EdgeBadge): eight keys, the D-pad among them."""

import board
import keypad
from adafruit_ticks import ticks_ms

from british_square.controls import KeypadActions


def button_keys(count):
    """The buttons on the shift register: 4 on a PyGamer, 8 on a PyBadge (see PLATFORM.md)."""
    return keypad.ShiftRegisterKeys(
        clock=board.BUTTON_CLOCK,
        data=board.BUTTON_OUT,
        latch=board.BUTTON_LATCH,
        key_count=count,
        value_when_pressed=True,
    )


class Hardware:
    """The PyBadge adapter: ``display``, ``actions``, ``ticks_ms``, ``idle`` and ``finish``."""

    def __init__(self, options=None):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        self.actions = KeypadActions(button_keys(8), keypad.Event())
        self.ticks_ms = ticks_ms
        self.idle = None

    def finish(self, app):
        pass
