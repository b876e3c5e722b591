"""What the PyGamer's and PyBadge's adapters share: the buttons on their
shift register, the display, the save in NVM, the speaker (silent on a
build without ``audioio``) and the NeoPixels, the loop's rest and the
backlight. Each board's own adapter adds its key count (and the PyGamer
its joystick) and its ``facts``."""

import board
import keypad
import microcontroller
from adafruit_ticks import ticks_ms
from lights import Lights

from british_square.controls import KeypadActions, sleep_if_resting

SCAN_S = 0.005  # the buttons' scan interval

try:
    from speaker import Speaker
except ImportError:  # a CircuitPython build without audioio: silent
    Speaker = None


def button_actions(key_count):
    """The board's ``key_count`` buttons on its shift register, read as actions."""
    keys = keypad.ShiftRegisterKeys(
        clock=board.BUTTON_CLOCK,
        data=board.BUTTON_OUT,
        latch=board.BUTTON_LATCH,
        key_count=key_count,
        value_when_pressed=True,
        # a scan every 5 ms: a press waits for the scan, then at most a
        # resting loop's sleep (controls.SLEEP_S, 15 ms), 20 ms in all (the
        # default scan, 20 ms, made it 35)
        interval=SCAN_S,
        max_events=16,  # 8 presses: more than a hand makes in a turn (64: 350 bytes more)
    )
    return KeypadActions(keys, keypad.Event())


class Handheld:
    """A board's adapter (docs/architecture.md, "The hardware adapter")
    around ``actions`` (with its ``repeater``): the save in NVM, the
    speaker and NeoPixels (speaker.py, lights.py) and the backlight; each
    board adds its ``facts``."""

    def __init__(self, actions):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        self.actions = actions
        self.ticks_ms = ticks_ms
        self.font = None  # the built-in font
        self.nvm = microcontroller.nvm  # the save: one 8 KB flash block (store.py)
        self.speaker = self.sound = None
        if Speaker is not None:
            self.speaker = Speaker(board.SPEAKER, board.SPEAKER_ENABLE)
            self.sound = self.speaker.sound
        self.lights = Lights(board.NEOPIXEL).glow

    def idle(self, resting):
        if self.speaker is not None and self.speaker.busy:
            self.speaker.step()  # the tune's next note, the amplifier off
        sleep_if_resting(resting, self.actions.repeater)

    def backlight(self, percent):
        self.display.brightness = percent / 100

    def started(self, app):
        pass

    def stopped(self, app):
        pass
