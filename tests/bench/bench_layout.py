"""The layout library under the CircuitPython VM: what its ``GridLayout``
would cost the game's heap (docs/memory.md, "The layout library").

    MICROPYPATH=lib:hw:tests/bench circuitpython -X heapsize=192K tests/bench/bench_layout.py

The design names ``adafruit_displayio_layout`` for laying out the screens.
The grid a screen of the game could be is the statistics by rule set side
by side: a column of the figures' names and one of figures for each rule
set, a row for each figure. This measures the heap the library's import
holds (``grid_layout`` and what it imports that the game does not), and the
heap a ``GridLayout`` of that grid holds, each cell a text grid of its
own (a ``TileGrid`` over the font's glyphs, as the game's are), where the
page is one text grid for the whole body now.
"""

import gc
import sys

_here = __file__.replace("\\", "/").rpartition("/")[0] or "."
sys.path.append(_here)
from benchpaths import add_game_paths, report  # noqa: E402

add_game_paths(_here + "/../..")

import displayio  # noqa: E402  (the game's already: not the library's cost)
import vectorio  # noqa: E402, F401

from british_square.layout import BODY_Y, FONT_W, SCREEN_W, TEXT_LINE  # noqa: E402
from british_square.piles import RULE_SETS  # noqa: E402
from british_square.stats import FIELDS  # noqa: E402

BENCH = "layout"
COLUMNS = RULE_SETS + 1  # the figures' names, then a column a rule set
ROWS = FIELDS


def held_by(make):
    """What ``make()`` returns, and the heap it holds once collected."""
    gc.collect()
    before = gc.mem_alloc()
    made = make()
    gc.collect()
    return made, gc.mem_alloc() - before


def statistics_grid(grid_layout, glyphs, palette):
    grid = grid_layout.GridLayout(0, BODY_Y, SCREEN_W, ROWS * TEXT_LINE, (COLUMNS, ROWS))
    columns = SCREEN_W // COLUMNS // FONT_W
    for row in range(ROWS):
        for column in range(COLUMNS):
            cell = displayio.TileGrid(glyphs, pixel_shader=palette, width=columns, height=1,
                                      tile_width=FONT_W, tile_height=TEXT_LINE)  # fmt: skip
            grid.add_content(cell, (column, row), (1, 1))
    return grid


def main():
    grid_layout, module_heap = held_by(
        lambda: __import__("adafruit_displayio_layout.layouts.grid_layout", None, None, ["x"])
    )
    note = "heap the import of GridLayout holds (the library's package and module, from source)"
    report(BENCH, "GridLayout module", module_heap, "bytes", note)
    glyphs = displayio.Bitmap(FONT_W * 16, TEXT_LINE, 2)  # (held apart: the game has its font)
    palette = displayio.Palette(2)
    _, grid_heap = held_by(lambda: statistics_grid(grid_layout, glyphs, palette))
    note = "held by a GridLayout of the statistics side by side, {} x {} cells, a text grid each"
    report(BENCH, "statistics grid", grid_heap, "bytes", note.format(COLUMNS, ROWS))


main()
