"""The CircuitPython VM (``board.board_id == "pygamer32d"``): its framebuffer
display and ``keypad.FakeKeys`` pressed from a key script.

The script comes from ``--keys``, a file named by ``--keys-file`` (read a
word at a time), or, when code.py is given no options (as a board runs
it), the environment variables ``BSQ_KEYS`` and ``BSQ_KEYS_FILE`` (see
``keyscript``): options load ``hw/options.py``, whose names (interned for
good) a board never holds. ``shot:NAME`` saves the screen as raw little-endian RGB565
in the folder given by ``--shot`` or ``BSQ_SHOTS``. It notes the screens
seen and, at the end, ``harness.report`` prints them with the presses and
the saves (the position is printed by ``code.py``). What it holds is on the
heap it measures, so it keeps to few names, and its start-up checks and its
report are ``harness``'s, loaded only when they run.

Collection: a board's adapter never calls ``gc.collect()``; the heap is
collected only where the game itself does (at start-up once the save and
the files are read, in the quiet turn after a change of screen, before a
new deal, on the About screen), where CircuitPython does (after each
module it loads from a file) and when an allocation finds no room. This adapter does the same,
so a run passes or fails in a heap as a board's would, with the heap in the
pieces a board's would be in. What is live (what a collection would leave)
can only be read by collecting, and collecting moves where later objects
land, so it is measured in a run of its own: with ``BSQ_MEASURE_LIVE=1``
the adapter collects at every turn of the loop with no press to handle
(between presses, and through waits while the game runs on) and reports
the most ``gc.mem_alloc()`` then shows as ``peak_live``. The same presses
make the same objects however often the collector runs, so that run's live
heap is the board-like run's; only how the free space lies differs, which
is what the board-like run tests. Without it ``peak_live`` is ``-``.
"""

import gc
import os

import board
import keypad
import microcontroller
from adafruit_ticks import ticks_add, ticks_ms
from keyscript import ScriptPlayer

from british_square import unload
from british_square.controls import KEY_ACTIONS, NONE, START, KeypadActions, sleep_if_resting


class Hardware(ScriptPlayer):
    """The VM adapter (docs/architecture.md, "The hardware adapter"): its
    ``actions`` are itself, pressing and releasing ``FakeKeys`` one script
    word at a time, when the game has taken the last one, and reading them
    back as a board would; no speaker or NeoPixels (tests fake them), the
    built-in font."""

    def __init__(self, options):
        import harness  # let go below: a board has no harness

        if not options:  # as a board runs: the script from the environment
            options = {"keys": os.getenv("BSQ_KEYS"), "keys-file": os.getenv("BSQ_KEYS_FILE")}
        super().__init__(harness.script_source(options), self.save_shot)
        self.display = board.DISPLAY
        self.display.auto_refresh = False
        self.folder = options.get("shot") or os.getenv("BSQ_SHOTS") or "."
        self.keys = keypad.FakeKeys(key_count=8, max_events=16)  # as the boards
        self.buttons = KeypadActions(self.keys, keypad.Event())
        self.actions = self
        self.ticks_ms = ticks_ms
        # BSQ_TURN_MS: a clock that moves that many ms at each reading and
        # never sleeps, so that a scripted hour of play runs in seconds
        self.turn_ms = harness.env_number("BSQ_TURN_MS", "milliseconds")
        if self.turn_ms:
            self.now = ticks_ms()
            self.ticks_ms = self.virtual_ms
        self.nvm = microcontroller.nvm  # in memory, or the file CIRCUITPY_NVM_FILE names
        self.turns = 0  # turns of the main loop
        self.backlight_level = 100  # the backlight level the game last set, percent
        # BSQ_SEED: the random numbers of a run (a new game's deal) the same
        # every time, for counted benchmarks (tools/latency.py)
        seed = harness.env_number("BSQ_SEED", "a seed")
        if seed:
            import random

            random.seed(seed)
        # a battery only as BSQ_BATTERY_MV fakes one, to test what the screens say
        self.battery_mv = harness.env_number("BSQ_BATTERY_MV", "millivolts")
        # BSQ_BUSY_LOOP: never rest, the loop as it was before it rested (to compare)
        self.busy_loop = bool(os.getenv("BSQ_BUSY_LOOP"))
        # BSQ_TURN_MARK: tools/board_cost.py's mark at the end of each turn
        # of the loop: "call" runs a C function the game never runs (where
        # callgrind and gdb cut the run into turns), "file" tries to open
        # /bsq-turn/TURN-PRESSES, which is not there (where strace does)
        self.mark = None
        mark = os.getenv("BSQ_TURN_MARK")
        if mark == "call":
            import bitmaptools
            import displayio

            self.mark_bitmap = displayio.Bitmap(1, 1, 2)
            self.mark_circle = bitmaptools.draw_circle
            self.mark = self.mark_call
        elif mark == "file":
            self.mark = self.mark_file
        self.font = None  # the built-in font
        self.sound = self.lights = None  # no audioio, no NeoPixels (tests fake them)
        self.app = None
        # BSQ_MEASURE_LIVE: collect at every turn with no press, to read the live heap
        self.measuring = bool(os.getenv("BSQ_MEASURE_LIVE"))
        self.peak = 0  # the most heap live between presses (measuring only)
        self.presses = 0
        self.seen = 0  # a bit per screen (screen_ids.SCREEN_NAMES)
        self.key_of = bytearray(8)  # the key number of each button's action
        for key, action in enumerate(KEY_ACTIONS):
            self.key_of[action] = key
        unload("harness")

    def virtual_ms(self):
        self.now = ticks_add(self.now, self.turn_ms)
        return self.now

    def idle(self, resting):
        """As a board rests, while the script waits (between presses it does not)."""
        self.turns += 1
        if self.mark is not None:
            self.mark()
        if not self.busy_loop and not self.turn_ms:
            sleep_if_resting(resting and self.wait_until is not None, self.buttons.repeater)

    def mark_call(self):
        self.mark_circle(self.mark_bitmap, 0, 0, 0, 1)  # allocates nothing

    def mark_file(self):
        try:
            open("/bsq-turn/{}-{}".format(self.turns, self.presses)).close()
        except OSError:
            pass

    def facts(self):
        """The VM's NVM (a file with CIRCUITPY_NVM_FILE), and the fake battery."""
        return "VM (pygamer32d)", len(self.nvm), self.battery_mv

    def backlight(self, percent):
        """The VM's display has no adjustable backlight: the level is kept, to report."""
        self.backlight_level = percent

    def started(self, app):
        self.app = app
        self.settled = app.settled  # a script presses once a press is all shown

    def save_shot(self, name):
        with open(self.folder + "/" + name + ".rgb565", "wb") as f:
            f.write(self.display.framebuffer)

    def poll(self, now):
        action = self.buttons.poll(now)
        if action != NONE:
            return action
        if self.measuring:  # the game has handled and drawn the last press: what is live?
            gc.collect()
            self.peak = max(self.peak, gc.mem_alloc())
        if self.app is not None:
            self.seen |= 1 << self.app.screens.current
        action = self.next_action(now)
        if action == NONE:
            return NONE
        self.presses += 1
        if action > START:  # quit, and the desktop's direct keys: no button has them
            return action
        key = self.key_of[action]
        self.keys.press(key)
        self.keys.release(key)
        return self.buttons.poll(now)

    def stopped(self, app):
        peak = live = "-"
        if self.measuring:
            gc.collect()
            peak, live = self.peak, gc.mem_alloc()
        import harness  # the report's code, only now

        harness.report(self, app, peak, live)
