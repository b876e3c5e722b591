"""Adafruit PyGamer: four buttons on a shift register and an analog joystick."""

import analogio
import board
from handheld import Handheld, button_actions

from british_square.controls import DOWN, LEFT, NONE, RIGHT, UP, Repeater

# Joystick readings run 0-65535 and rest near the middle (adafruit_pybadger's thresholds).
LOW = 15000
HIGH = 50000


class GamerActions:
    """Buttons first, then the joystick as four directions with its own auto-repeat."""

    finished = False

    def __init__(self):
        self.buttons = button_actions(4)
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


class Hardware(Handheld):
    """The PyGamer adapter: its buttons and joystick, and what ``Handheld`` gives."""

    def __init__(self, options=None):
        super().__init__(GamerActions())

    def facts(self):
        """The board, its NVM bytes and the battery in mV, for the About screen."""
        with analogio.AnalogIn(board.A6) as battery:  # half the battery's voltage
            millivolts = battery.value * 6600 // 65535
        return "PyGamer", len(self.nvm), millivolts
