"""UI costs under the CircuitPython VM: redraw after a move, Python work per press, heap.

    MICROPYPATH=lib:hw circuitpython -X heapsize=192K tests/bench/bench_ui.py

Redraw costs are fractions of a full-screen redraw measured in the same run;
press costs are in empty-loop units (benchlib): at about 3.5 us per unit on a
120 MHz SAMD51, 8 500 units is the 30 ms a press may take there.
"""

import gc
import sys
import time

_here = __file__.replace("\\", "/").rpartition("/")[0] or "."
sys.path.append(_here)
from benchlib import (  # noqa: E402
    add_game_paths,
    allocated,
    measure,
    measure_sample,
    report,
    report_cost,
)

add_game_paths(_here + "/../..")

import board  # noqa: E402
import keypad  # noqa: E402

from british_square import app as app_module  # noqa: E402
from british_square.controls import LEFT, RIGHT, SELECT, A, KeypadActions  # noqa: E402
from british_square.engine import MAX_MOVES, Game  # noqa: E402
from british_square.piles import BRITISH, RULE_NAMES, STOCK, UNION, WASTE  # noqa: E402
from british_square.table import PROBE_STEP  # noqa: E402

BENCH = "ui"


def now_ns():
    return time.monotonic_ns()


def full_redraw_sample(display, root):
    """A sample: one redraw of the whole screen (setting the root group
    dirties all of it), in nanoseconds."""

    def sample_ns():
        display.root_group = None
        display.root_group = root
        t0 = now_ns()
        display.refresh()
        return now_ns() - t0

    return sample_ns


def move_redraw_sample(app, m):
    """A sample: the refresh after move ``m`` (the move itself, and its undo,
    not timed), in nanoseconds."""
    display = app.view.display

    def sample_ns():
        app.table.make_move(m)
        t0 = now_ns()
        display.refresh()
        taken = now_ns() - t0
        app.table.undo()
        display.refresh()
        return taken

    return sample_ns


def typical_move(game):
    """A column-to-column move if the deal has one, else the deal from the stock."""
    buffer = bytearray(2 * MAX_MOVES)
    for i in range(game.legal_moves(buffer)):
        m = buffer[2 * i] << 8 | buffer[2 * i + 1]
        if m >> 8 < STOCK and m & 0xFF < STOCK:
            return m
    return STOCK << 8 | WASTE


def move_name(m):
    """Source and target pile numbers (16 stock, 17 waste, 18 foundation); the
    notation module stays unimported so that the heap figures are the game's."""
    return "{}->{}".format(m >> 8, m & 0xFF)


class Parts:
    """The adapter as the app sees it (docs/architecture.md): a display,
    actions and a clock, and nothing else."""

    font = facts = backlight = sound = lights = None

    def __init__(self, display, actions, ticks_ms):
        self.display = display
        self.actions = actions
        self.ticks_ms = ticks_ms


def main():
    display = board.DISPLAY
    display.auto_refresh = False
    actions = KeypadActions(keypad.FakeKeys(key_count=8), keypad.Event())
    gc.collect()
    before = gc.mem_alloc()
    game = Game.new_deal(7)
    from adafruit_ticks import ticks_ms

    app = app_module.App(Parts(display, actions, ticks_ms), None, game)
    app.handle(A)  # title -> cards
    display.refresh()
    gc.collect()
    report(BENCH, "scene_heap", gc.mem_alloc() - before, "bytes", "App, play scene and game")
    source = "mpy" if app_module.__file__.endswith(".mpy") else "py"
    report(
        BENCH, "heap_live", gc.mem_alloc(), "bytes", "whole heap in use, modules from ." + source
    )

    full = measure_sample(full_redraw_sample(display, app.view.root))
    m = typical_move(app.table.game)
    moved = measure_sample(move_redraw_sample(app, m))
    note = "refresh after move {} / full redraw (<= 0.25)".format(move_name(m))
    spread = max(moved.spread, full.spread)
    fraction = round(moved.value / full.value, 3)
    report(BENCH, "redraw_fraction", fraction, "ratio", note, None, spread)
    report_cost(BENCH, "full_redraw", full, "whole 160x128 screen, framebuffer", "render loops")
    # a card from one column onto another (deal 10 opens with one)
    app.start_game(Game.new_deal(10))
    app.show_play()
    display.refresh()
    column_move = typical_move(app.table.game)
    moved = measure_sample(move_redraw_sample(app, column_move))
    note = "refresh after move {} / full redraw (<= 0.25)".format(move_name(column_move))
    spread = max(moved.spread, full.spread)
    fraction = round(moved.value / full.value, 3)
    report(BENCH, "redraw_fraction_column", fraction, "ratio", note, None, spread)
    app.start_game(Game.new_deal(7))
    display.refresh()

    # one turn of the main loop with no key pressed: nothing may be allocated
    ticks_ms = app.ticks_ms

    def idle_frame():
        now = ticks_ms()
        actions.poll(now)
        app.tick(now)

    for _ in range(4):  # the one-off work first: the menu's first page, written hidden
        idle_frame()
    report(BENCH, "idle_frame_alloc", allocated(idle_frame), "bytes", "main loop, no key")

    def cursor_press():
        app.handle(RIGHT)
        app.handle(LEFT)

    cursor_press()
    report(BENCH, "cursor_press_alloc", allocated(cursor_press) / 2, "bytes", "per cursor step")

    # cursor: right and back, per press
    def cursor_pair():
        app.handle(RIGHT)
        app.handle(LEFT)

    report_cost(BENCH, "press_cursor", measure(cursor_pair).per(2), "a cursor step, Python only")

    # a move as the player makes it: pick up, walk to the target, drop; then undo
    source_stop = app.table.layout.pile_stop(m >> 8)
    target_stop = app.table.layout.pile_stop(m & 0xFF)

    def move_cycle():
        app.table.cursor = source_stop
        app.handle(A)
        app.table.cursor = target_stop
        app.handle(A)
        app.handle(SELECT)

    note = "pick up / drop / undo, Python only (< 30 ms)"
    report_cost(BENCH, "press_cost", measure(move_cycle).per(3), note)

    def move_cycle_drawn():
        move_cycle()
        display.refresh()

    note = "same, with each refresh (VM framebuffer)"
    report_cost(BENCH, "press_cost_drawn", measure(move_cycle_drawn).per(3), note, "render loops")

    # from one screen of text to another (help, then rules): their words
    # read from words.txt and drawn into the text page's labels
    screens = app.screens

    def screen_pair():
        screens.help(0)
        screens.rules(0)

    note = "help to rules and back: words read, the page's text grids written (per screen)"
    report_cost(BENCH, "screen_change", measure(screen_pair).per(2), note)

    def screen_pair_drawn():
        screens.help(0)
        display.refresh()
        screens.rules(0)
        display.refresh()

    note = "same, with each refresh (VM framebuffer)"
    report_cost(
        BENCH, "screen_change_drawn", measure(screen_pair_drawn).per(2), note, "render loops"
    )
    page = measure_sample(full_redraw_sample(display, app.view.root))
    report_cost(BENCH, "page_full_redraw", page, "whole screen, rules on show", "render loops")
    app.show_play()
    display.refresh()

    # the dead test once the stock is out: the loop runs it a step per turn
    for rules in (BRITISH, UNION):
        step, steps, alloc = probe_step_cost(rules, app.table.move_buffer)
        note = "heap one loop turn of the dead test allocates (0)"
        report(BENCH, "dead_probe_step_alloc_" + RULE_NAMES[rules], alloc, "bytes", note)
        note = "one loop turn of the dead test ({} positions); loop turns to its verdict: {}"
        note = note.format(PROBE_STEP, steps)
        report_cost(BENCH, "dead_probe_step_" + RULE_NAMES[rules], step, note)


def probe_step_cost(rules, buffer):
    """Cost of one step of the app's dead test on deal 7 with the stock dealt
    out (a ``Measured``), and how many steps it takes to its verdict."""
    from british_square.hint import Hinter  # after the heap figures; the game's dead test

    game = Game.new_deal(7, rules)
    while game.stock_count:
        game.push(STOCK << 8 | WASTE)
    search = Hinter(app_module.DEAD_BUDGET, buffer)
    search.start(game)
    steps = 1
    while search.step(PROBE_STEP) is None:
        steps += 1

    def sample_ns():
        search.start(game)  # untimed: the set-up happens once per move
        t0 = now_ns()
        search.step(PROBE_STEP)
        return now_ns() - t0

    search.start(game)
    alloc = allocated(lambda: search.step(PROBE_STEP))
    return measure_sample(sample_ns), steps, alloc


main()
