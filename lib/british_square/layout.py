"""Where everything sits on the 160x128 screen, for each rule set. Pure numbers.

The view places its sprites with these numbers and the tests find the cards
on a screenshot with the same ones. The cursor moves between *stops*: the
columns (``0 .. columns-1``), then the stock, the waste and the four
foundations; ``neighbour(stop, direction)`` is precomputed once per layout.
"""

from british_square.cards import const
from british_square.controls import DOWN, LEFT, RIGHT, UP  # the cursor's directions
from british_square.piles import FOUNDATION, STOCK, WASTE
from british_square.sheet import CARD_H, CARD_W

SCREEN_W = const(160)
SCREEN_H = const(128)
# Where a sprite not on show waits: past the right edge of the screen. A
# hidden sprite displayio has never drawn keeps, through a full redraw, the
# area it would cover, and redraws it at the next refresh (TileGrid's
# finish_refresh); an area off the screen is nothing to draw.
OFF_SCREEN = const(SCREEN_W)

COLUMN_PITCH = const(25)  # column to column: five small glyph cells, so a row's strips are one grid
STRIP_CELLS = const(5)  # small glyph cells a column's strip spans: the way (two), two digits, gap
STRIP_ROW = const(4 * STRIP_CELLS)  # cells of a row's strip grid
_BRITISH_TOP = const(7)  # first card row under the direction strip
OVERLAP_STEP = const(9)  # rows of an overlapped card that show: its rank and suit
# Cards of a British column drawn at most: 11 fit in 128 rows at OVERLAP_STEP.
# A taller column leaves out the middle of its built run (see ``shown_card``).
BRITISH_ROWS = const(11)
GAP = const(254)  # ``shown_card``: this row stands for the cards left out
_PANEL_X = const(100)  # stock, waste, foundations and text on the right
FOUNDATION_PITCH = const(30)  # room for a mark beside each foundation; six glyph cells
MARK_CELLS = const(7)  # a row of two foundations' marks, cells 0 and 6
NO_STOP = const(255)
# The most columns a layout has (American and Union Square's; the engine's
# STOCK is numbered after them), and so the most stops: the columns, then
# the stock, the waste and the four foundations (``Layout``'s stops).
MAX_COLUMNS = const(16)
_PANEL_STOPS = const(6)
MAX_STOPS = const(MAX_COLUMNS + _PANEL_STOPS)
# The play scene's card sprites, a slot each (``Layout.slot``): a column's
# top card in the slot of its number, then the stock, the card under the
# waste's top (seen as the top one moves), the waste and one a foundation.
STOCK_SLOT = const(MAX_COLUMNS)
WASTE_UNDER_SLOT = const(MAX_COLUMNS + 1)
WASTE_SLOT = const(MAX_COLUMNS + 2)
FOUNDATION_SLOT = const(MAX_COLUMNS + 3)
SLOTS = const(FOUNDATION_SLOT + 4)
_PANEL_SLOTS = bytes(  # by stop, from the stock's
    (
        STOCK_SLOT,
        WASTE_SLOT,
        FOUNDATION_SLOT,
        FOUNDATION_SLOT + 1,
        FOUNDATION_SLOT + 2,
        FOUNDATION_SLOT + 3,
    )
)

# Text: terminalio.FONT, characters 6 wide and a line 12 tall.
FONT_W = const(6)
TEXT_LINE = const(12)
# The panel beside the cards: four lines of 10 characters; a number ends its line.
TEXT_Y = const(80)  # first text line of the panel
PANEL_COLUMNS = const(10)
PANEL_ROWS = const(4)
# The text screens: a title line, a body and a footer line of 26 characters;
# a body row's figure (a table's right column) is right-aligned in its last 16.
TEXT_COLUMNS = const(26)
FIGURE_COLUMNS = const(16)
BODY_X = const(2)
TITLE_Y = const(1)
BODY_Y = const(16)
BODY_ROWS = const(8)
FOOTER_Y = const(SCREEN_H - TEXT_LINE - 1)
# The menu's bar: text columns 2 to 21 of the body, whole (page.Bar): a
# column before its rows' text (from column 3) and as far as the longest
# ends ("Winnable only: none"); each column more is 24 pixels a menu step
# draws and sends twice
MENU_BAR_FIRST = const(2)
MENU_BAR_END = const(22)
# Title screen: the four aces in a row.
ACES_X = const(32)
ACES_PITCH = const(25)
ACES_Y = const(52)
# Title screen: "British" and "Square" at scale 2, centred, their tops here.
TITLE_BIG_Y = const(2)
TITLE_BIG_PITCH = const(24)
# Deal number entry: five digits at scale 3 (18 pixels each) from
# DEAL_DIGITS_X; under the digit being set, a mark at scale 2 (12 wide).
DEAL_DIGITS = const(5)  # 1 to 31999
DEAL_DIGITS_X = const(32)
DEAL_DIGITS_Y = const(40)
DEAL_DIGIT_W = const(3 * FONT_W)
DEAL_MARK_Y = const(DEAL_DIGITS_Y + 38)
# The celebration: "You won!" at scale 2, then the kings bounce in the band
# between it and the line of text at body row WON_LINE_ROW.
WON_BIG_Y = const(14)
WON_LINE_ROW = const(6)
KINGS_TOP = const(WON_BIG_Y + 26)
KINGS_BOTTOM = BODY_Y + TEXT_LINE * WON_LINE_ROW - CARD_H - 1


class Layout:
    """Positions for a game with ``columns`` columns (4: British, 16: American/Union).

    The game makes one and ``arrange``s it again for another rule set: its
    tables are made once, at their largest, so changing rules allocates
    nothing that stays."""

    def __init__(self, columns):
        self.pile_x = bytearray(MAX_COLUMNS)  # top-left of each column's first card
        self.pile_y = bytearray(MAX_COLUMNS)
        self.strip_x = bytearray(4)
        self.strip_y = bytearray(4)
        self.foundation_x = bytearray(4)
        self.foundation_y = bytearray(4)
        self.mark_y = bytearray(2)
        self.neighbours = bytearray(MAX_STOPS * 4)  # four per stop
        self.arrange(columns)

    def arrange(self, columns):
        """Lay out a game of ``columns`` columns."""
        self.columns = columns
        self.british = columns == 4
        self.stops = columns + _PANEL_STOPS
        self.stock_stop = columns
        self.waste_stop = columns + 1
        self.foundation_stop = columns + 2  # one per suit from here
        for c in range(columns):
            if self.british:
                self.pile_x[c] = 2 + COLUMN_PITCH * c
                self.pile_y[c] = _BRITISH_TOP
            else:
                self.pile_x[c] = 2 + COLUMN_PITCH * (c % 4)
                self.pile_y[c] = 1 + 32 * (c // 4)
        # the small strips: one grid of glyph cells per row of columns, the
        # direction (and on 16 piles the count) of each column in its cells
        self.strip_rows = 1 if self.british else 4
        for row in range(self.strip_rows):
            if self.british:  # the way (two cells) centred above each column
                self.strip_x[row], self.strip_y[row] = self.pile_x[0] + 5, 0
            else:  # under each pile
                self.strip_x[row] = self.pile_x[0]
                self.strip_y[row] = self.pile_y[4 * row] + CARD_H + 1
        self.stock_x, self.stock_y = _PANEL_X, 1
        self.waste_under_x = _PANEL_X + 21  # the card under the top one peeks out
        self.waste_x, self.waste_y = _PANEL_X + FOUNDATION_PITCH, 1
        for suit in range(4):
            self.foundation_x[suit] = _PANEL_X + FOUNDATION_PITCH * (suit % 2)
            self.foundation_y[suit] = 27 + 26 * (suit // 2)
        # the way each foundation goes next, beside it: a grid per row of two
        self.mark_x = _PANEL_X + CARD_W + 2
        for row in range(2):
            self.mark_y[row] = self.foundation_y[2 * row] + 9
        self.text_x = _PANEL_X
        self._link_stops()

    # ---------------------------------------------------------------- piles

    def shown_rows(self, height):
        """How many card rows a column of ``height`` cards is drawn with."""
        if not self.british:
            return 1 if height else 0
        return height if height < BRITISH_ROWS else BRITISH_ROWS

    def shown_card(self, row, height, base):
        """Which card of a column (0 = bottom) row ``row`` shows, or ``GAP``.

        Up to ``BRITISH_ROWS`` cards each show their rank and suit. A taller
        British column shows its base cards, the first card built on them, a
        gap, then the top of its built run: the run is one suit in steps of
        one, so the cards left out follow from the two on either side.
        Piles (16 of them) show their top card only."""
        if not self.british:
            return height - 1
        if height <= BRITISH_ROWS or row <= base:
            return row
        if row == base + 1:
            return GAP
        return height - BRITISH_ROWS + row

    def card_y(self, column, row):
        """Top pixel row of card row ``row`` of ``column``."""
        return self.pile_y[column] + (OVERLAP_STEP * row if self.british else 0)

    def strip_cell(self, column, k):
        """Where small glyph ``k`` of ``column``'s strip goes, counting cells
        through the row grids (``STRIP_ROW`` cells a row; an int, so that
        asking allocates nothing)."""
        if self.british:
            return STRIP_CELLS * column + k
        return STRIP_ROW * (column // 4) + STRIP_CELLS * (column % 4) + k

    def mark_cell(self, suit):
        """Where the mark beside the foundation of ``suit`` goes, counting cells
        through the two row grids (``MARK_CELLS`` a row)."""
        return MARK_CELLS * (suit // 2) + (MARK_CELLS - 1) * (suit % 2)

    def stop_pile(self, stop):
        """The engine pile a stop stands for: a column, ``STOCK``, ``WASTE`` or ``FOUNDATION``."""
        if stop < self.columns:
            return stop
        if stop == self.stock_stop:
            return STOCK
        if stop == self.waste_stop:
            return WASTE
        return FOUNDATION

    def slot(self, stop):
        """The play scene's card sprite for ``stop``: a column's top card, the
        stock, the waste or a foundation."""
        return stop if stop < self.columns else _PANEL_SLOTS[stop - self.columns]

    def pile_stop(self, pile, suit=0):
        """The stop of an engine pile (``suit`` picks the foundation)."""
        if pile < self.columns:
            return pile
        if pile == STOCK:
            return self.stock_stop
        if pile == WASTE:
            return self.waste_stop
        return self.foundation_stop + suit

    # ------------------------------------------------------------- movement

    def _link_stops(self):
        # Two grids side by side: the tableau (4 wide, 1 or 4 rows) and the
        # panel (2 wide: stock and waste, then the foundations two by two).
        rows = 1 if self.british else 4
        links = bytearray(4)
        for stop in range(self.stops):
            for direction in range(4):
                links[direction] = NO_STOP
            if stop < self.columns:
                row, col = stop // 4, stop % 4
                if row:
                    links[UP] = stop - 4
                elif self.british:
                    links[UP] = self.stock_stop  # the deal is one push away
                if row < rows - 1:
                    links[DOWN] = stop + 4
                if col:
                    links[LEFT] = stop - 1
                if col < 3:
                    links[RIGHT] = stop + 1
                else:  # into the panel row beside this one
                    panel_row = 1 if self.british else min(row, 2)
                    links[RIGHT] = self.stock_stop + 2 * panel_row
            else:
                index = stop - self.stock_stop
                row, col = index // 2, index % 2
                if row:
                    links[UP] = stop - 2
                if row < 2:
                    links[DOWN] = stop + 2
                if col:
                    links[LEFT] = stop - 1
                else:  # back to the tableau row beside this one
                    links[LEFT] = 3 if self.british else 4 * row + 3
                if not col:
                    links[RIGHT] = stop + 1
            for direction in range(4):
                self.neighbours[stop * 4 + direction] = links[direction]

    def neighbour(self, stop, direction):
        """The stop reached from ``stop`` going ``direction``, or ``stop`` at an edge."""
        other = self.neighbours[stop * 4 + direction]
        return stop if other == NO_STOP else other
