"""The desktop's mouse: a click becomes the presses a player would make.

On the cards, a click moves the cursor to the pile under it, a step at a
time along the layout's own links (``Layout.neighbour``), then presses A:
on a card it picks the card up (the places it may go light green), on a
lit place it puts the held card down, on the stock it deals. A double click
on a card sends it home (B, the held card put back first); a card dragged
from its pile and let go on another place is put down there (``dragged``:
the let-go is a click there). A right click puts a held card back (B) and
does nothing else there. On the menu a click
chooses the row under it; on the other screens of text a click is A and a
right click B, but the question before a game is left takes only the keys
and a right click ("no"): a stray click never throws a game away. A click
on a dimmed screen wakes it, as a key does, and does nothing else.

A click waits in the keyboard's queue, in order with the keys, and is
turned into presses when its turn comes, from what the screen shows then.
The steps of the way there (the cursor's, or the menu bar's) go to the app
at once (``App.handle``, as the loop gives it a press), so that the window
redraws once a click rather than once a step; the last press, A or B, is
the action the keyboard's ``poll`` returns.
Desktop only: nothing a board runs imports this; the game needs nothing
for it but what a player's keys already do.
"""

from british_square.controls import DOWN, LEFT, NONE, RIGHT, UP, A, B
from british_square.layout import BODY_ROWS, BODY_Y, NO_STOP, TEXT_LINE
from british_square.screen_ids import SCREEN_CONFIRM, SCREEN_MENU, SCREEN_PLAY
from british_square.sheet import CARD_H, CARD_W

LEFT_BUTTON = 1  # pygame's numbers of the mouse buttons
RIGHT_BUTTON = 3
PILE_ROW_H = 32  # 16 piles: a row of them, a card and its strip (layout.Layout.arrange)
MOST_PRESSES = 40  # more than any way across the cards or the menu takes


def stop_at(layout, x, y):
    """The stop (``Layout``'s numbering) of the pile drawn at screen pixel
    (``x``, ``y``), or ``NO_STOP``. A British column is its whole strip of
    screen, from its direction mark down; one of 16 piles is its card and
    the strip under it; the waste includes the card peeking out under it."""
    for column in range(layout.columns):
        left, top = layout.pile_x[column], layout.pile_y[column]
        if left <= x < left + CARD_W and (layout.british or top <= y < top + PILE_ROW_H):
            return column
    places = [
        (layout.stock_stop, layout.stock_x, layout.stock_x + CARD_W, layout.stock_y),
        (layout.waste_stop, layout.waste_under_x, layout.waste_x + CARD_W, layout.waste_y),
    ]
    for suit in range(4):
        left, top = layout.foundation_x[suit], layout.foundation_y[suit]
        places.append((layout.foundation_stop + suit, left, left + CARD_W, top))
    for stop, left, right, top in places:
        if left <= x < right and top <= y < top + CARD_H:
            return stop
    return NO_STOP


def step_toward(layout, start, goal):
    """The first direction of a shortest way from stop ``start`` to stop
    ``goal`` along the layout's links; ``NONE`` if ``start`` is ``goal``
    or no way leads there."""
    first = {start: NONE}  # each stop reached: the direction that set out for it
    frontier = [start]
    while frontier and goal not in first:
        reached = []
        for stop in frontier:
            for direction in (UP, DOWN, LEFT, RIGHT):
                other = layout.neighbour(stop, direction)
                if other not in first:
                    first[other] = direction if stop == start else first[stop]
                    reached.append(other)
        frontier = reached
    return first.get(goal, NONE)


def menu_row_at(screens, y):
    """The menu row (of all its rows, ``screens.rows.row``'s numbering) drawn at
    screen row ``y``, or -1."""
    if y < BODY_Y:
        return -1
    row = (y - BODY_Y) // TEXT_LINE
    if row >= BODY_ROWS or screens.rows.top + row >= screens.rows.count:
        return -1
    return screens.rows.top + row


def dragged(app, start, end):
    """Is a left press at screen pixel ``start`` let go at ``end`` a drag on
    ``app``'s cards: from a pile to another place?"""
    if app.screens.current != SCREEN_PLAY:
        return False
    layout = app.table.layout
    source = stop_at(layout, *start)
    return source != NO_STOP and stop_at(layout, *end) not in (NO_STOP, source)


class Click:
    """A click waiting in the queue: its button, where on the 160x128 screen
    it landed, and whether it was a double click; ``press`` plays it, once
    its turn in the queue comes."""

    def __init__(self, button, x, y, double=False):
        self.button = button
        self.x = x
        self.y = y
        self.double = double
        self.goal = None  # once its turn comes: what it aims at (``_aim``)
        self.target = -1  # the stop or the menu row aimed at
        self.count = 0  # presses given so far

    def press(self, app):
        """The press this click ends with on ``app`` (A or B), its way there
        handled first; ``NONE``: the click is done."""
        action = self._next(app)
        while action <= RIGHT:  # a step of the way: handled now, drawn with the last press
            app.handle(action)
            action = self._next(app)
        return action

    def _next(self, app):
        """The next press this click makes on ``app`` as it stands, or
        ``NONE``: the click is done."""
        self.count += 1
        if self.count > MOST_PRESSES or self.goal == "done":
            return NONE
        if self.goal is None:
            self.goal = self._aim(app)
            if app.dimmed:  # the press that wakes the screen does nothing else
                self.goal = "done"
                return A
        if self.goal == "stop":
            if app.screens.current != SCREEN_PLAY:  # the cards went meanwhile
                return NONE
            way = step_toward(app.table.layout, app.table.cursor, self.target)
            if way != NONE:
                return way
            if app.table.cursor != self.target:
                return NONE
            if self.double and app.table.held == self.target:  # the first click picked it up
                self.goal = "home"  # put back, then B sends it home
                return B
            return self._last(A)
        if self.goal == "home":
            return self._last(B)
        if self.goal == "row":
            screens = app.screens
            if screens.current != SCREEN_MENU:
                return NONE
            if screens.rows.row != self.target:
                return DOWN if self.target > screens.rows.row else UP
            return self._last(A)
        if self.goal == "key":
            return self._last(self.target)
        return NONE

    def _last(self, action):
        self.goal = "done"
        return action

    def _aim(self, app):
        """What this click is for, on the screen on show: "stop" (a pile of
        the cards), "row" (a menu row), "key" (an action) or "done" (nothing)."""
        screens = app.screens
        if self.button == RIGHT_BUTTON:
            self.target = B
            return "key" if screens.current != SCREEN_PLAY or app.table.held != NO_STOP else "done"
        if self.button != LEFT_BUTTON:
            return "done"
        if screens.current == SCREEN_PLAY:
            self.target = stop_at(app.table.layout, self.x, self.y)
            return "stop" if self.target != NO_STOP else "done"
        if screens.current == SCREEN_MENU:
            self.target = menu_row_at(screens, self.y)
            return "row" if self.target >= 0 else "done"
        if screens.current == SCREEN_CONFIRM:
            return "done"
        self.target = A
        return "key"
