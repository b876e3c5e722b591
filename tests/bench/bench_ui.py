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
from benchlib import add_game_paths, allocated, cost, loop_unit, report  # noqa: E402

add_game_paths(_here + "/../..")

import board  # noqa: E402
import keypad  # noqa: E402

from british_square import app as app_module  # noqa: E402
from british_square.controls import LEFT, RIGHT, SELECT, A, KeypadActions  # noqa: E402
from british_square.engine import BRITISH, RULE_NAMES, STOCK, UNION, WASTE, Game  # noqa: E402

BENCH = "ui"
REPEAT = 20


def now_ns():
    return time.monotonic_ns()


def full_redraw_ns(display, root):
    """One redraw of the whole screen (setting the root group dirties all of it)."""
    best = None
    for _ in range(REPEAT):
        display.root_group = None
        display.root_group = root
        t0 = now_ns()
        display.refresh()
        t = now_ns() - t0
        best = t if best is None or t < best else best
    return best


def move_redraw_ns(app, m):
    """The refresh after move ``m`` (the move itself not timed), best of REPEAT."""
    display = app.view.display
    best = None
    for _ in range(REPEAT):
        app.play(m)
        t0 = now_ns()
        display.refresh()
        t = now_ns() - t0
        best = t if best is None or t < best else best
        app.undo()
        display.refresh()
    return best


def typical_move(game):
    """A column-to-column move if the deal has one, else the deal from the stock."""
    for m in game.moves():
        if m >> 8 < STOCK and m & 0xFF < STOCK:
            return m
    return STOCK << 8 | WASTE


def move_name(m):
    """Source and target pile numbers (16 stock, 17 waste, 18 foundation); the
    notation module stays unimported so that the heap figures are the game's."""
    return "{}->{}".format(m >> 8, m & 0xFF)


def main():
    unit = loop_unit()
    display = board.DISPLAY
    display.auto_refresh = False
    actions = KeypadActions(keypad.FakeKeys(key_count=8), keypad.Event())
    gc.collect()
    before = gc.mem_alloc()
    game = Game.new_deal(7)
    from adafruit_ticks import ticks_ms

    app = app_module.App(display, actions, ticks_ms, game)
    app.handle(A)  # title -> cards
    display.refresh()
    gc.collect()
    report(BENCH, "scene_heap", gc.mem_alloc() - before, "bytes", "App, play scene and game")
    source = "mpy" if app_module.__file__.endswith(".mpy") else "py"
    report(
        BENCH, "heap_live", gc.mem_alloc(), "bytes", "whole heap in use, modules from ." + source
    )

    full = full_redraw_ns(display, app.view.root)
    m = typical_move(app.game)
    moved = move_redraw_ns(app, m)
    report(
        BENCH,
        "redraw_fraction",
        round(moved / full, 3),
        "ratio",
        "refresh after move {} / full redraw (<= 0.25)".format(move_name(m)),
    )
    report(
        BENCH,
        "full_redraw",
        round(full / unit),
        "render loops",
        "whole 160x128 screen, framebuffer",
    )
    # a card from one column onto another (deal 10 opens with one)
    app.start_game(Game.new_deal(10))
    app.show_play()
    display.refresh()
    column_move = typical_move(app.game)
    moved = move_redraw_ns(app, column_move)
    note = "refresh after move {} / full redraw (<= 0.25)".format(move_name(column_move))
    report(BENCH, "redraw_fraction_column", round(moved / full, 3), "ratio", note)
    app.start_game(Game.new_deal(7))
    display.refresh()

    # one turn of the main loop with no key pressed: nothing may be allocated
    ticks_ms = app.ticks_ms

    def idle_frame():
        now = ticks_ms()
        actions.poll(now)
        app.tick(now)

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

    press_cursor = round(cost(cursor_pair, REPEAT, unit) / 2)
    report(BENCH, "press_cursor", press_cursor, "loops", "a cursor step, Python only")

    # a move as the player makes it: pick up, walk to the target, drop; then undo
    source_stop = app.layout.pile_stop(m >> 8)
    target_stop = app.layout.pile_stop(m & 0xFF)

    def move_cycle():
        app.cursor = source_stop
        app.handle(A)
        app.cursor = target_stop
        app.handle(A)
        app.handle(SELECT)

    per_press = round(cost(move_cycle, REPEAT, unit) / 3)
    report(BENCH, "press_cost", per_press, "loops", "pick up / drop / undo, Python only (< 30 ms)")

    def move_cycle_drawn():
        move_cycle()
        display.refresh()

    drawn = round(cost(move_cycle_drawn, REPEAT, unit) / 3)
    report(
        BENCH, "press_cost_drawn", drawn, "render loops", "same, with each refresh (VM framebuffer)"
    )

    # the dead test once the stock is out: the loop runs it a step per turn
    for rules in (BRITISH, UNION):
        step, steps = probe_step_cost(rules, app.moves, unit)
        report(
            BENCH,
            "dead_probe_step_" + RULE_NAMES[rules],
            step,
            "loops",
            "one loop turn of the dead test ({} positions); loop turns to its verdict: {}".format(
                app_module.PROBE_STEP, steps
            ),
        )


def probe_step_cost(rules, buffer, unit):
    """Mean cost of one step of the app's dead test on deal 7 with the stock dealt out."""
    from british_square.search import dead_search  # after the heap figures, as in the game

    game = Game.new_deal(7, rules)
    while game.stock_count:
        game.push(STOCK << 8 | WASTE)
    steps = 0
    start = time.monotonic_ns()
    for _ in dead_search(game, app_module.DEAD_BUDGET, buffer, app_module.PROBE_STEP):
        steps += 1
    return round((time.monotonic_ns() - start) / steps / unit), steps


main()
