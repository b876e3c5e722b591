"""Where everything sits on the 160x128 screen, for each rule set. Pure numbers.

The view places its sprites with these numbers and the tests find the cards
on a screenshot with the same ones. The cursor moves between *stops*: the
columns (``0 .. columns-1``), then the stock, the waste and the four
foundations; ``neighbour(stop, direction)`` is precomputed once per layout.
"""

from british_square.cards import const
from british_square.engine import FOUNDATION, STOCK, WASTE
from british_square.sheet import CARD_H

SCREEN_W = const(160)
SCREEN_H = const(128)

# Directions, as the input actions number them.
UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)

PITCH = const(24)  # column to column
BRITISH_TOP = const(7)  # first card row under the direction strip
OVERLAP_STEP = const(9)  # rows of an overlapped card that show: its rank and suit
PANEL_X = const(97)  # stock, waste, foundations and text on the right
TEXT_Y = const(80)  # first text line of the panel
TEXT_LINE = const(12)
NO_STOP = const(255)


class Layout:
    """Positions for a game with ``columns`` columns (4: British, 16: American/Union)."""

    def __init__(self, columns):
        self.columns = columns
        self.british = columns == 4
        self.stops = columns + 6
        self.stock_stop = columns
        self.waste_stop = columns + 1
        self.foundation_stop = columns + 2  # one per suit from here
        # top-left of each column's first card, and of its small info strip
        self.pile_x = bytearray(columns)
        self.pile_y = bytearray(columns)
        self.strip_x = bytearray(columns)
        self.strip_y = bytearray(columns)
        for c in range(columns):
            if self.british:
                self.pile_x[c] = 2 + PITCH * c
                self.pile_y[c] = BRITISH_TOP
                self.strip_x[c] = self.pile_x[c] + 7  # the arrow centred above
                self.strip_y[c] = 0
            else:
                self.pile_x[c] = 2 + PITCH * (c % 4)
                self.pile_y[c] = 1 + 32 * (c // 4)
                self.strip_x[c] = self.pile_x[c]
                self.strip_y[c] = self.pile_y[c] + CARD_H + 1
        self.stock_x, self.stock_y = PANEL_X, 1
        self.waste_under_x = PANEL_X + 21  # the card under the top one peeks out
        self.waste_x, self.waste_y = PANEL_X + 29, 1
        self.foundation_x = bytearray(4)
        self.foundation_y = bytearray(4)
        for suit in range(4):
            self.foundation_x[suit] = PANEL_X + 22 * (suit % 2)
            self.foundation_y[suit] = 27 + 26 * (suit // 2)
        self.text_x = PANEL_X
        self.neighbours = bytearray(self.stops * 4)
        self._link_stops()

    # ---------------------------------------------------------------- piles

    def card_y(self, column, index, height):
        """Top row of card ``index`` (0 = bottom) in a British column of ``height`` cards:
        ``OVERLAP_STEP`` apart, closer together when the column would run off the screen."""
        top = self.pile_y[column]
        if index == 0 or not self.british:
            return top
        span = min(OVERLAP_STEP * (height - 1), SCREEN_H - top - CARD_H)
        return top + index * span // (height - 1)

    def stop_pile(self, stop):
        """The engine pile a stop stands for: a column, ``STOCK``, ``WASTE`` or ``FOUNDATION``."""
        if stop < self.columns:
            return stop
        if stop == self.stock_stop:
            return STOCK
        if stop == self.waste_stop:
            return WASTE
        return FOUNDATION

    def pile_stop(self, pile, suit=0):
        """The stop of an engine pile (``suit`` picks the foundation)."""
        if pile < self.columns:
            return pile
        if pile == STOCK:
            return self.stock_stop
        if pile == WASTE:
            return self.waste_stop
        return self.foundation_stop + suit

    def stop_position(self, stop):
        """Top-left of the card place a stop stands for (British columns: the first card)."""
        if stop < self.columns:
            return self.pile_x[stop], self.pile_y[stop]
        if stop == self.stock_stop:
            return self.stock_x, self.stock_y
        if stop == self.waste_stop:
            return self.waste_x, self.waste_y
        suit = stop - self.foundation_stop
        return self.foundation_x[suit], self.foundation_y[suit]

    # ------------------------------------------------------------- movement

    def _link_stops(self):
        # Two grids side by side: the tableau (4 wide, 1 or 4 rows) and the
        # panel (2 wide: stock and waste, then the foundations two by two).
        rows = 1 if self.british else 4
        for stop in range(self.stops):
            links = [NO_STOP, NO_STOP, NO_STOP, NO_STOP]
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
