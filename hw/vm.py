"""The CircuitPython VM (``board.board_id == "pygamer32d"``): its framebuffer
display and ``keypad.FakeKeys`` pressed from a key script.

The script comes from ``--keys``, a file named by ``--keys-file``, or the
``BSQ_KEYS`` environment variable (see ``keyscript``).
``shot:NAME`` saves the screen as raw little-endian RGB565 in the folder
given by ``--shot`` or ``BSQ_SHOTS``. Between presses it collects garbage
and notes the heap in use; at the end it prints that peak and the engine
position.
"""

import gc
import os

import board
import keypad
from adafruit_ticks import ticks_ms

from british_square.controls import KEY_ACTIONS, NONE, KeypadActions
from british_square.keyscript import ScriptPlayer, script_from_options


class ScriptedKeys:
    """Presses and releases ``FakeKeys`` one script word at a time, when the
    game has taken the last one, and reads them back as a board would."""

    def __init__(self, script, shot_folder):
        self.keys = keypad.FakeKeys(key_count=8, max_events=64)
        self.reader = KeypadActions(self.keys, keypad.Event())
        self.player = ScriptPlayer(script, self.save_shot)
        self.shot_folder = shot_folder
        self.peak_live = 0  # the most heap in use between presses
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
        action = self.player.next_action(now)
        if action == NONE:
            return NONE
        key = self.key_of[action]
        self.keys.press(key)
        self.keys.release(key)
        return self.reader.poll(now)


class Hardware:
    """The VM adapter: ``display``, ``actions``, ``ticks_ms``, ``idle`` and ``finish``."""

    def __init__(self, options):
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        script = script_from_options(options, os.getenv("BSQ_KEYS") or "")
        shots = options.get("shot") or os.getenv("BSQ_SHOTS") or "."
        self.actions = ScriptedKeys(script, shots)
        self.ticks_ms = ticks_ms
        self.idle = None

    def finish(self, app):
        gc.collect()
        print("peak_live:", self.actions.peak_live)
        print("live_at_end:", gc.mem_alloc())
        from british_square.notation import position_text

        print("position:", position_text(app.game))
