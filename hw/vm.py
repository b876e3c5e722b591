"""The CircuitPython VM (``board.board_id == "pygamer32d"``): its framebuffer
display and ``keypad.FakeKeys`` pressed from a key script.

The script comes from ``--keys``, a file named by ``--keys-file`` (read a
word at a time), or the ``BSQ_KEYS`` environment variable (see
``keyscript``). ``shot:NAME`` saves the screen as raw little-endian RGB565
in the folder given by ``--shot`` or ``BSQ_SHOTS``. Between presses it
collects garbage and notes the heap in use and the screens seen; at the end
it prints them (the position is printed by ``code.py``).
"""

import gc
import os

import board
import keypad
from adafruit_ticks import ticks_ms
from keyscript import ScriptPlayer, script_source

from british_square.controls import KEY_ACTIONS, NONE, KeypadActions


class ScriptedKeys:
    """Presses and releases ``FakeKeys`` one script word at a time, when the
    game has taken the last one, and reads them back as a board would."""

    def __init__(self, source, shot_folder):
        self.keys = keypad.FakeKeys(key_count=8, max_events=64)
        self.reader = KeypadActions(self.keys, keypad.Event())
        self.player = ScriptPlayer(source[0], source[1], self.save_shot)
        self.shot_folder = shot_folder
        self.peak_live = 0  # the most heap in use between presses
        self.presses = 0
        self.screens_seen = 0  # a bit per screen (screens.SCREEN_NAMES)
        self.app = None  # set by ``Hardware.started``
        self.key_of = bytearray(9)
        for key, action in enumerate(KEY_ACTIONS):
            self.key_of[action] = key

    @property
    def finished(self):
        return self.player.finished

    def save_shot(self, name):
        with open("{}/{}.rgb565".format(self.shot_folder, name), "wb") as f:
            f.write(board.DISPLAY.framebuffer)

    def poll(self, now):
        action = self.reader.poll(now)
        if action != NONE:
            return action
        # the game has handled and drawn the last press: how much heap is live now?
        gc.collect()
        used = gc.mem_alloc()
        if used > self.peak_live:
            self.peak_live = used
        if self.app is not None:
            self.screens_seen |= 1 << self.app.screens.current
        action = self.player.next_action(now)
        if action == NONE:
            return NONE
        self.presses += 1
        key = self.key_of[action]
        self.keys.press(key)
        self.keys.release(key)
        return self.reader.poll(now)


class Hardware:
    """The VM adapter: ``display``, ``actions``, ``ticks_ms``, ``idle`` and ``finish``."""

    def __init__(self, options):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        source = script_source(options, os.getenv("BSQ_KEYS") or "")
        shots = options.get("shot") or os.getenv("BSQ_SHOTS") or "."
        self.actions = ScriptedKeys(source, shots)
        self.ticks_ms = ticks_ms
        self.idle = None
        self.font = None  # the built-in font

    def started(self, app):
        self.actions.app = app

    def finish(self, app):
        from british_square.screens import SCREEN_NAMES

        gc.collect()
        actions = self.actions
        print("presses:", actions.presses)
        print("peak_live:", actions.peak_live)
        print("live_at_end:", gc.mem_alloc())
        seen = [n for i, n in enumerate(SCREEN_NAMES) if actions.screens_seen >> i & 1]
        print("screens:", " ".join(seen))
        print("overflows:", actions.reader.overflows)
