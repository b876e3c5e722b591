"""Buttons as actions: the same few actions from every board, with auto-repeat.

A board adapter turns its keys, joystick or keyboard into these action
numbers; the app never sees a key number. Directions repeat while held
(``Repeater``). ``KeypadActions`` reads any ``keypad`` object through one
reused ``Event`` so polling allocates nothing. Key scripts, for tests and
headless runs, are in ``keyscript``, which a board never loads (it names
the actions: ``keyscript.ACTION_NAMES``).
"""

import time

from adafruit_ticks import ticks_add, ticks_diff

from british_square.cards import const

# Actions; the four directions share their numbers with ``layout``.
UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)
SELECT = const(6)
START = const(7)
QUIT = const(8)  # desktop window closed
# The desktop's direct keys (a board's buttons have none): what the menu's
# Hint, Redo, New game and Restart deal rows do, and a digit of a deal number.
HINT = const(9)
REDO = const(10)
NEW_GAME = const(11)
RESTART = const(12)
DIGIT_0 = const(13)  # 13-22: the digits 0-9
NONE = const(255)

# keypad key numbers of the PyGamer and PyBadge shift register (see PLATFORM.md)
KEY_ACTIONS = bytes((B, A, START, SELECT, RIGHT, DOWN, UP, LEFT))

REPEAT_DELAY_MS = const(350)
REPEAT_EVERY_MS = const(110)


# A resting main loop (no press, nothing timed under way) sleeps this long a
# turn: under one 16 ms frame, so a press is read within 20 ms, at about 65
# turns a second rather than thousands (a turn's work is 0.6 ms on a SAMD51:
# 4% of the processor, docs/benchmarks.md). keypad scans in the background
# and queues presses meanwhile, so none is lost.
SLEEP_S = 0.015


def sleep_if_resting(resting, repeater):
    """A board's ``idle``: sleep ``SLEEP_S`` when the loop rests and no
    direction is held (a held direction needs its repeats on time)."""
    if resting and repeater.held == NONE:
        time.sleep(SLEEP_S)


class Repeater:
    """Auto-repeat for one held direction: once at the press, then every
    ``every`` ms after ``delay`` ms (a board's: ``REPEAT_EVERY_MS`` after
    ``REPEAT_DELAY_MS``)."""

    def __init__(self, delay=REPEAT_DELAY_MS, every=REPEAT_EVERY_MS):
        self.held = NONE
        self.due = 0
        self.delay = delay
        self.every = every

    def press(self, action, now):
        self.held = action
        self.due = ticks_add(now, self.delay)

    def release(self, action):
        if self.held == action:
            self.held = NONE

    def release_all(self):
        """Forget the held direction (its release may have been lost)."""
        self.held = NONE

    def poll(self, now):
        """The held direction when its repeat is due, else ``NONE``."""
        if self.held != NONE and ticks_diff(now, self.due) >= 0:
            self.due = ticks_add(now, self.every)
            return self.held
        return NONE


class KeypadActions:
    """Actions from a ``keypad`` object (``Keys``, ``ShiftRegisterKeys``, ``FakeKeys``).

    ``event`` is a ``keypad.Event`` made once by the adapter and filled in
    place by ``events.get_into``; ``key_actions[key_number]`` maps keys.
    """

    finished = False  # a board's buttons never run out

    def __init__(self, keys, event, key_actions=KEY_ACTIONS):
        self.keys = keys
        self.event = event
        self.key_actions = key_actions
        self.repeater = Repeater()
        self.overflows = 0  # times the event queue overflowed (see ``poll``)

    def poll(self, now):
        """The next action, or ``NONE``.

        When the queue overflowed (a long redraw or search left it unread),
        presses and releases were lost: a lost release would leave a
        direction repeating for ever. So the queue is dropped, the scanner
        is reset (a key still held then reports a new press) and nothing is
        taken as held."""
        keys = self.keys
        events = keys.events
        if events.overflowed:
            events.clear()
            keys.reset()
            self.repeater.release_all()
            self.overflows += 1
            return NONE
        event = self.event
        while events.get_into(event):
            action = self.key_actions[event.key_number]
            if event.pressed:
                if action <= RIGHT:
                    self.repeater.press(action, now)
                return action
            self.repeater.release(action)
        return self.repeater.poll(now)
