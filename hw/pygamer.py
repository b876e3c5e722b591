"""Adafruit PyGamer: four buttons on a shift register and an analog joystick."""

import analogio
import board
import keypad
from adafruit_ticks import ticks_ms
from pybadge import button_keys  # the same shift register, four keys of it

from british_square.controls import DOWN, LEFT, NONE, RIGHT, UP, KeypadActions, Repeater

# Joystick readings run 0-65535 and rest near the middle (adafruit_pybadger's thresholds).
LOW = 15000
HIGH = 50000


class GamerActions:
    """Buttons first, then the joystick as four directions with its own auto-repeat."""

    finished = False

    def __init__(self):
        self.buttons = KeypadActions(button_keys(4), keypad.Event())
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
    """The PyGamer adapter: ``display``, ``actions``, ``ticks_ms``, ``idle`` and ``finish``."""

    def __init__(self, options=None):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        self.actions = GamerActions()
        self.ticks_ms = ticks_ms
        self.idle = None

    def finish(self, app):
        pass
