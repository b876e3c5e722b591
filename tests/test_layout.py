"""Where things sit on the 160x128 screen: pure numbers, the same on a board."""

import pytest
from scripting import route

from british_square import sheet
from british_square.layout import (
    BRITISH_ROWS,
    COLUMN_PITCH,
    FOUNDATION_PITCH,
    GAP,
    MARK_CELLS,
    MAX_COLUMNS,
    MAX_STOPS,
    OVERLAP_STEP,
    SCREEN_H,
    SCREEN_W,
    STRIP_CELLS,
    STRIP_ROW,
    WASTE_UNDER_SLOT,
    Layout,
)
from british_square.piles import STOCK
from british_square.sheet import CARD_H, CARD_W


@pytest.mark.parametrize("columns", [4, 16])
def test_every_stop_is_reachable_and_maps_to_its_pile(columns):
    layout = Layout(columns)
    for stop in range(layout.stops):
        for direction in range(4):
            assert 0 <= layout.neighbour(stop, direction) < layout.stops
        steps = route(layout, 0, stop)  # raises if the cursor cannot get there
        here = 0
        for direction in steps:
            here = layout.neighbour(here, direction)
        assert here == stop
        suit = max(0, stop - layout.foundation_stop)
        assert layout.pile_stop(layout.stop_pile(stop), suit) == stop
    assert layout.stop_pile(layout.stock_stop) == STOCK


def shown(layout, height, base):
    return [layout.shown_card(row, height, base) for row in range(layout.shown_rows(height))]


@pytest.mark.parametrize("base", [1, 2, 3, 4])
def test_british_columns_show_every_rank_at_full_overlap(base):
    layout = Layout(4)
    for height in range(base, base + 13):  # up to 12 cards built on the base
        rows = layout.shown_rows(height)
        ys = [layout.card_y(0, row) for row in range(rows)]
        assert all(b - a == OVERLAP_STEP for a, b in zip(ys, ys[1:]))  # rank and suit show
        assert ys[-1] + CARD_H <= SCREEN_H
        cards = shown(layout, height, base)
        assert cards[-1] == height - 1  # the playable card, whole
        if height <= BRITISH_ROWS:
            assert cards == list(range(height))
        else:
            # the base, the first card built, a gap, then the top of the run
            gap = cards.index(GAP)
            assert cards[:gap] == list(range(base + 1))
            after = cards[gap + 1 :]
            assert after == list(range(height - len(after), height))
            assert after[0] > base + 1  # the gap stands for at least one card
            assert GAP not in after


def test_sixteen_piles_show_their_top_card():
    layout = Layout(16)
    assert shown(layout, 0, 0) == []
    assert shown(layout, 7, 1) == [6]


@pytest.mark.parametrize("columns", [4, 16])
def test_everything_fits_on_the_screen_without_overlap(columns):
    layout = Layout(columns)
    boxes = []
    for c in range(columns):
        bottom = layout.card_y(c, layout.shown_rows(16) - 1) + CARD_H
        boxes.append(
            ("column", layout.pile_x[c], layout.pile_y[c], CARD_W, bottom - layout.pile_y[c])
        )
    boxes.append(("stock", layout.stock_x, layout.stock_y, CARD_W, CARD_H))
    boxes.append(
        (
            "waste",
            layout.waste_under_x,
            layout.waste_y,
            layout.waste_x + CARD_W - layout.waste_under_x,
            CARD_H,
        )
    )
    for suit in range(4):
        boxes.append(
            ("foundation", layout.foundation_x[suit], layout.foundation_y[suit], CARD_W, CARD_H)
        )
        row, cell = divmod(layout.mark_cell(suit), MARK_CELLS)
        x = layout.mark_x + cell * sheet.SMALL_W
        boxes.append(("mark", x, layout.mark_y[row], sheet.SMALL_W, sheet.SMALL_H))
    # each column's way, two cells wide, and on 16 piles its count: beside
    # the cards, never over them
    for c in range(columns):
        for k in (0,) if layout.british else (0, 2):  # two cells from each
            row, cell = divmod(layout.strip_cell(c, k), STRIP_ROW)
            x = layout.strip_x[row] + cell * sheet.SMALL_W
            name = "way" if k == 0 else "count"
            boxes.append((name, x, layout.strip_y[row], 2 * sheet.SMALL_W, sheet.SMALL_H))
    for name, x, y, w, h in boxes:
        assert 0 <= x and x + w <= SCREEN_W and 0 <= y and y + h <= SCREEN_H, name
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1 :]:
            apart = ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
            assert apart, (a, b)


def test_strips_and_marks_are_grids_of_whole_glyph_cells():
    # a row of columns' strips is one grid, and so is a row of foundations'
    # marks: their pitches must be whole numbers of small glyph cells
    assert STRIP_CELLS * sheet.SMALL_W == COLUMN_PITCH
    assert (MARK_CELLS - 1) * sheet.SMALL_W == FOUNDATION_PITCH
    for columns in (4, 16):
        layout = Layout(columns)
        cells = {layout.strip_cell(c, k) for c in range(columns) for k in range(4)}
        assert len(cells) == 4 * columns  # no two glyphs share a cell
        assert len({layout.mark_cell(suit) for suit in range(4)}) == 4


def test_a_british_columns_way_is_centred_above_it():
    layout = Layout(4)
    for c in range(4):
        row, cell = divmod(layout.strip_cell(c, 0), STRIP_ROW)
        x = layout.strip_x[row] + cell * sheet.SMALL_W
        inked = 2 * sheet.SMALL_W - 1  # its last column blank
        assert abs((2 * x + inked) - (2 * layout.pile_x[c] + CARD_W)) <= 1
        assert layout.strip_y[row] + sheet.SMALL_H < layout.pile_y[c]  # a row of felt between


@pytest.mark.parametrize("columns", [4, 16])
def test_the_layout_owns_the_places_numberings(columns):
    # its stops, the engine's piles and the scene's sprites: one owner, one count
    assert MAX_COLUMNS == STOCK  # the engine numbers its piles after the most columns
    layout = Layout(columns)
    assert layout.stops <= MAX_STOPS and len(layout.neighbours) == 4 * MAX_STOPS
    slots = [layout.slot(stop) for stop in range(layout.stops)]
    assert len(set(slots)) == layout.stops and WASTE_UNDER_SLOT not in slots  # seen, never a stop
    for stop in range(layout.stops):
        pile = layout.stop_pile(stop)
        suit = stop - layout.foundation_stop if stop >= layout.foundation_stop else 0
        assert layout.pile_stop(pile, suit) == stop
