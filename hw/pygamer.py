"""Adafruit PyGamer: four buttons on a shift register and an analog joystick."""

import analogio
import board
import keypad
import microcontroller
from adafruit_ticks import ticks_ms
from lights import Lights

from british_square.controls import DOWN, LEFT, NONE, RIGHT, UP, KeypadActions, Repeater, rest

try:
    from speaker import Speaker
except ImportError:  # a CircuitPython build without audioio: silent
    Speaker = None

# Joystick readings run 0-65535 and rest near the middle (adafruit_pybadger's thresholds).
LOW = 15000
HIGH = 50000


class GamerActions:
    """Buttons first, then the joystick as four directions with its own auto-repeat."""

    finished = False

    def __init__(self):
        # Written out here as in pybadge.py: each adapter is the one hw/ file its board gets.
        keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK,
            data=board.BUTTON_OUT,
            latch=board.BUTTON_LATCH,
            key_count=4,
            value_when_pressed=True,
            max_events=16,  # 8 presses: more than a hand makes in a turn (64: 350 bytes more)
        )
        self.buttons = KeypadActions(keys, keypad.Event())
        self.x = analogio.AnalogIn(board.JOYSTICK_X)
        self.y = analogio.AnalogIn(board.JOYSTICK_Y)
        self.stick = NONE
        self.repeater = Repeater()

    def poll(self, now):
        action = self.buttons.poll(now)
        if action != NONE:
            return action
        x, y = self.x.value, self.y.value
        if x < LOW:
            way = LEFT
        elif x > HIGH:
            way = RIGHT
        elif y < LOW:
            way = UP
        elif y > HIGH:
            way = DOWN
        else:
            way = NONE
        if way != self.stick:
            self.repeater.release(self.stick)
            self.stick = way
            if way != NONE:
                self.repeater.press(way, now)
                return way
        return self.repeater.poll(now)


class Hardware:
    """The PyGamer adapter: ``display``, ``actions``, ``ticks_ms``, ``idle``,
    ``sound`` and ``lights`` (speaker.py, lights.py) and ``finish``."""

    def __init__(self, options=None):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        self.actions = GamerActions()
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
        """The board, its NVM bytes and the battery in mV, for the About screen."""
        with analogio.AnalogIn(board.A6) as battery:  # half the battery's voltage
            millivolts = battery.value * 6600 // 65535
        return "PyGamer", len(self.nvm), millivolts

    def backlight(self, percent):
        self.display.brightness = percent / 100

    def started(self, app):
        pass

    def finish(self, app):
        pass
