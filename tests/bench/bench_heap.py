"""Heap the game holds on a board, screen by screen, under CircuitPython's VM.

Holds what a PyGamer would: the game's modules (``.mpy`` when ``BSQ_ROOT``
names a deployed tree), the app on ``board.DISPLAY`` with its save in
``microcontroller.nvm``, a keypad reader (``FakeKeys`` in place of the
shift register), and the speaker with its waves and the NeoPixels
(``hw/speaker.py``, ``hw/lights.py``) over the stand-ins in
``tests/vm/fakes`` for ``audioio``, ``audiocore``, ``digitalio`` and
``neopixel_write``. Those are C on a board: the
stand-ins' own bytes are reported apart, and counted in (an upper bound).
On a deployed tree it runs rewritten as deploy rewrites the game
(``const_inline.board_script``): the board's modules keep no public
constants. No key script and no test harness are loaded until the figures are
taken. It walks every screen and reports the heap live on each (collected
first, then ``gc.mem_alloc()``) from an empty heap, nothing subtracted (the
interpreter's own start and this script count, as the board's own start
would), the peak, and what ``code.py`` itself adds,
compiled from source as a board does (imported last: importing it first
pins memory in this VM).
"""

import gc
import os
import sys

_here = __file__.replace("\\", "/").rpartition("/")[0] or "."
sys.path.append(_here)
from benchpaths import add_game_paths, report  # noqa: E402

# the game's tree: this repository, or a deployed copy named by BSQ_ROOT
add_game_paths(os.getenv("BSQ_ROOT") or _here + "/../..")
sys.path.insert(0, _here + "/../vm/fakes")  # before the venv, whose digitalio is Blinka
gc.collect()
_before_fakes = gc.mem_alloc()
import audiocore  # noqa: E402, F401
import audioio  # noqa: E402, F401
import digitalio  # noqa: E402, F401
import neopixel_write  # noqa: E402, F401

gc.collect()
FAKES = gc.mem_alloc() - _before_fakes
import board  # noqa: E402
import keypad  # noqa: E402
import microcontroller  # noqa: E402
from adafruit_ticks import ticks_ms  # noqa: E402
from lights import Lights  # noqa: E402
from speaker import Speaker  # noqa: E402

from british_square.app import App  # noqa: E402
from british_square.controls import DOWN, A, KeypadActions  # noqa: E402
from british_square.controls import START as START_BUTTON  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.sounds import FANFARE  # noqa: E402
from british_square.store import Store  # noqa: E402


class Parts:
    """A board's adapter as the app sees it (docs/architecture.md), its
    parts given: no facts or backlight, as the VM's display has none."""

    nvm = font = facts = backlight = None

    def __init__(self, display, actions, ticks_ms, sound, lights):
        self.display = display
        self.actions = actions
        self.ticks_ms = ticks_ms
        self.sound = sound
        self.lights = lights


def main():
    display = board.DISPLAY
    display.auto_refresh = False
    keys = keypad.FakeKeys(key_count=8, max_events=16)  # as the boards' queues
    actions = KeypadActions(keys, keypad.Event())
    store = Store(microcontroller.nvm)
    speaker = Speaker("SPEAKER", "SPEAKER_ENABLE")  # the pins, as names
    lights = Lights("NEOPIXEL")
    game = Game.new_deal(7)
    hardware = Parts(display, actions, ticks_ms, speaker.sound, lights.glow)
    app = App(hardware, store, game)
    screens = app.screens
    in_use = []

    def note(screen):
        display.refresh()
        gc.collect()
        in_use.append((screen, gc.mem_alloc()))

    note("title")
    app.handle(A)
    note("play")
    for _ in range(30):  # some play: deal from the stock
        app.table.make_move(16 << 8 | 17)
    note("play, 30 cards dealt")
    app.handle(START_BUTTON)
    note("menu")
    app.handle(DOWN)  # the menu's second row
    note("menu, a row down")
    app.save()
    note("menu, saved")
    screens.help(0)
    note("help")
    screens.help(1)
    note("help, marks")
    for rules in range(3):
        screens.rules(rules)
        note("rules {}".format(rules))
    for rules in range(3):
        screens.results.statistics(rules)
        note("statistics {}".format(rules))
    screens.about()
    note("about")
    screens.deal(7)
    note("deal number")
    screens.ask(0, 2)  # "Abandon this game?" before a new deal
    note("confirm")
    screens.results.won(app.table.game)
    app.beep(FANFARE)
    for _ in range(20):  # the tune's notes, the lights' frames
        app.tick(ticks_ms())
        speaker.step()
    note("won")
    screens.results.over(app.table.game, False)
    note("game over")
    app.show_play()
    while app.table.game.stock_count:
        app.table.make_move(16 << 8 | 17)
    for _ in range(200):  # the dead test runs, a step per turn
        app.tick(ticks_ms())
    note("play, stock out, dead test")
    app.start_game(Game.new_deal(7, 2))
    app.show_play()
    note("play, Union Square")

    modules = "mpy" if _from_mpy() else "py"
    report("heap", "stand-ins", FAKES, "bytes", "C modules on a board, counted in every figure")
    for screen, used in in_use:
        note = "from zero; game modules from ." + modules
        report("heap", "in_use " + screen, used, "bytes", note)
    gc.collect()
    before_code = gc.mem_alloc()
    import code  # noqa: F401

    gc.collect()
    code_py = gc.mem_alloc() - before_code
    report("heap", "code.py", code_py, "bytes", "code.py's own bytecode, compiled on the board")
    peak = max(used for _, used in in_use) + code_py
    target = " (<= 122880, the budget for peak live)"
    if modules == "py":
        target = " (a board compiles no .py: .mpy only)"
    note = "every screen, with code.py, from zero; modules from .{}{}".format(modules, target)
    report("heap", "peak", peak, "bytes", note)


def _from_mpy():
    return sys.modules["british_square.app"].__file__.endswith(".mpy")


main()
