"""The About screen's A: what a press costs on this board, printed to the serial console.

Under CircuitPython's VM the project counts what each action costs
(``tools/latency.py``, docs/benchmarks.md); only a board can say what it
really takes, the SPI bus and the flash included. So this plays the same
presses through the app, as the main loop does (``handle``, then its
``refresh``), ``_REPEATS`` times each, timed with the board's clock, and
prints a line for each of the bench's rows it has, the worst and the
mean, with the heap free and the largest block that can be allocated,
for an owner to send us (docs/handheld.md), and gives About its heap
figure. Loaded when asked for and let go after: a board does not hold
it while it plays.

The game is left as it was: the cursor goes there and back, a move is taken
back and played again (nothing is timed for it while the game has none),
and the caller opens the About screen again.
"""

import gc

from british_square.cards import const
from british_square.controls import DOWN, LEFT, RIGHT, SELECT, START, UP, A, B, ticks_diff

_REPEATS = const(8)


def _timed(app, action, took):
    """Press ``action`` as the main loop does (``handle``, then the turns
    that finish what it shows, each with its refresh) and add the ms it
    took to ``took`` (worst, total)."""
    ticks, view = app.ticks_ms, app.view
    start = ticks()
    app.handle(action)
    view.refresh()
    while not app.settled():  # a menu's page turning: a turn a frame, as the loop does
        app.tick(ticks())
        view.refresh()
    ms = ticks_diff(ticks(), start)
    took[0] = max(took[0], ms)
    took[1] += ms


def _pairs(app, name, there, name_back, back):
    """``_REPEATS`` presses of ``there`` then ``back``, each timed: the rows
    ``name`` and ``name_back`` (``name_back`` None: ``back`` not reported)."""
    went, came = [0, 0], [0, 0]
    for _ in range(_REPEATS):
        _timed(app, there, went)
        _timed(app, back, came)
    rows = [(name, went)]
    if name_back:
        rows.append((name_back, came))
    return rows


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
    """From the About screen: time each press and print the figures (the
    caller shows a screen again), named as the bench's rows
    (docs/benchmarks.md) so that an owner's can be set beside them: each
    the worst of ``_REPEATS`` and their mean. The heap free and in all, for
    About ("34K of 149K": a collection and two scans of the heap, 25 ms
    on a SAMD51, so About shows it only once asked)."""
    screens = app.screens
    figures = []
    app.handle(B)  # About to the menu, on its row
    app.view.refresh()
    figures += _pairs(app, "menu step", DOWN, "menu step up", UP)
    for line, there, back in (
        ("help", "menu to the help", "back from the help"),
        ("stats", "menu to the statistics", "back from the statistics"),
    ):
        screens.menu(line)
        app.view.refresh()
        figures += _pairs(app, there, A, back, B)
    figures += _pairs(app, "menu to the cards", B, "cards to the menu, again", START)
    app.show_play()  # the cards, the cursor where it was
    app.view.refresh()
    figures += _pairs(app, "cursor step", RIGHT, None, LEFT)
    # Select's undo, and the move played again untimed: none while there is no move
    if app.table.game.history_count:
        undone = [0, 0]
        for _ in range(_REPEATS):
            _timed(app, SELECT, undone)
            app.table.redo()
            app.view.refresh()
        figures.append(("undo", undone))
    say = app.console  # the serial console, or the desktop's standard error
    say("timing: ms a press, the worst of {} and their mean (the bench's rows)".format(_REPEATS))
    for name, (worst, total) in figures:
        tenths = total * 10 // _REPEATS
        say("timing: {}: {} worst, {}.{} mean".format(name, worst, tenths // 10, tenths % 10))
    largest = largest_block()  # collected first: what is free after a collection
    if not hasattr(gc, "mem_free"):  # CPython's, on the desktop: no board's heap
        say("timing: heap not counted here (a board's is)")
        return "no limit"
    free, used = gc.mem_free(), gc.mem_alloc()
    say("timing: heap free {} B, largest block {} B".format(free, largest))
    return "{}K of {}K".format(free // 1024, (free + used) // 1024)
