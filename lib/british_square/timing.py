"""The About screen's A: what a press costs on this board, printed to the serial console.

Under CircuitPython's VM the project counts what each action costs
(``tools/latency.py``, docs/benchmarks.md); only a board can say what it
really takes, the SPI bus and the flash included. So this plays the same
actions through the app, as the main loop does for a press (``handle``, then
one ``refresh``), ``_REPEATS`` times each, timed with the board's clock, and
prints a line each, with the heap free and the largest block that can be
allocated, for an owner to send us (docs/handheld.md), and gives About its
heap figure. Loaded when asked for and let go after: a board does not hold
it while it plays.

The game is left as it was: the cursor goes there and back, a move is taken
back and played again (nothing is timed for it while the game has none),
and the caller opens the About screen again.
"""

import gc

from british_square.cards import const
from british_square.controls import DOWN, LEFT, RIGHT, START, UP, A, B, ticks_diff

_REPEATS = const(8)


def _timed(app, steps):
    """Mean ms of one of ``steps`` (functions, called in turn, ``_REPEATS``
    times over), each with its refresh, in tenths."""
    ticks, view = app.ticks_ms, app.view
    start = ticks()
    for _ in range(_REPEATS):
        for step in steps:
            step()
            view.refresh()
    return ticks_diff(ticks(), start) * 10 // (_REPEATS * len(steps))


def _presses(app, *actions):
    """A step for each of ``actions``: pressing it, as the main loop does."""
    return tuple(lambda action=action: app.handle(action) for action in actions)


def largest_block():
    """The largest block the heap can give now, in bytes (0 without ``gc.mem_free``)."""
    if not hasattr(gc, "mem_free"):
        return 0
    gc.collect()
    low, high = 0, gc.mem_free()
    while low < high:
        size = (low + high + 1) // 2
        try:
            bytearray(size)  # made and let go at once
        except MemoryError:
            high = size - 1
        else:
            low = size
    return low


def run(app):
    """From the About screen: time each action and print the figures (the
    caller shows a screen again); the heap free and in all, for About
    ("34K of 149K": a collection and two scans of the heap, 25 ms on a
    SAMD51, so About shows it only once asked)."""
    screens = app.screens
    figures = []
    app.handle(B)  # About to the menu, on its row
    app.view.refresh()
    figures.append(("menu step (no scroll)", _timed(app, _presses(app, UP, DOWN))))
    for name, line, there_back in (
        ("menu, help, menu", "help", (A, A)),
        ("menu, statistics, menu", "stats", (A, B)),
    ):
        screens.menu(line)
        app.view.refresh()
        figures.append((name, _timed(app, _presses(app, *there_back))))
    figures.append(("menu, cards, menu", _timed(app, _presses(app, START, START))))
    app.show_play()  # the cards, the cursor where it was
    app.view.refresh()
    figures.append(("cursor move", _timed(app, _presses(app, RIGHT, LEFT))))
    # Select's undo, then the menu's redo: -1 while there is no move to take back
    table = app.table
    undo_redo = _timed(app, (table.undo, table.redo)) if table.game.history_count else -1
    figures.append(("undo, redo", undo_redo))
    say = app.console  # the serial console, or the desktop's standard error
    say("timing: ms a press, the mean of {} (refresh included)".format(_REPEATS))
    for name, tenths in figures:
        shown = "-" if tenths < 0 else "{}.{}".format(tenths // 10, tenths % 10)
        say("timing: {}: {}".format(name, shown))
    largest = largest_block()  # collected first: what is free after a collection
    counted = hasattr(gc, "mem_free")  # not CPython's, on the desktop
    free, used = (gc.mem_free(), gc.mem_alloc()) if counted else (0, 0)
    say("timing: heap free {} B, largest block {} B".format(free, largest))
    return "{}K of {}K".format(free // 1024, (free + used) // 1024) if counted else "no limit"
