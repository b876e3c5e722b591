"""Adafruit PyBadge (and PyBadge LC, EdgeBadge): eight keys, the D-pad among them."""

import board
import keypad
import microcontroller
from adafruit_ticks import ticks_ms
from lights import Lights

from british_square.controls import KeypadActions, rest

try:
    from speaker import Speaker
except ImportError:  # a CircuitPython build without audioio: silent
    Speaker = None


class Hardware:
    """The PyBadge adapter: ``display``, ``actions``, ``ticks_ms``, ``idle``,
    ``sound`` and ``lights`` (speaker.py, lights.py) and ``finish``."""

    def __init__(self, options=None):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK,
            data=board.BUTTON_OUT,
            latch=board.BUTTON_LATCH,
            key_count=8,
            value_when_pressed=True,
            max_events=16,  # 8 presses: more than a hand makes in a turn (64: 350 bytes more)
        )
        self.actions = KeypadActions(keys, keypad.Event())
        self.ticks_ms = ticks_ms
        self.font = None  # the built-in font
        self.nvm = microcontroller.nvm  # the save: one 8 KB flash block (store.py)
        self.speaker = self.sound = None
        if Speaker is not None:
            self.speaker = Speaker(board.SPEAKER, board.SPEAKER_ENABLE)
            self.sound = self.speaker.play
        self.lights = Lights(board.NEOPIXEL).glow

    def idle(self, resting):
        if self.speaker is not None and self.speaker.busy:
            self.speaker.step()  # the tune's next note, the amplifier off
        rest(resting, self.actions.repeater)

    def facts(self):
        """The board, its NVM bytes, and no battery reading (PLATFORM.md knows
        of a voltage monitor on the PyGamer only)."""
        return "PyBadge", len(self.nvm), 0

    def backlight(self, percent):
        self.display.brightness = percent / 100

    def started(self, app):
        pass

    def finish(self, app):
        pass
