"""A hint on the board: a legal move that helps, whenever there is one to hint.

``Hinter(budget)`` is made once (its memory, as the dead test's: a copy of
the game, a table of position hashes and a path: about 3 KB for the
default budget); ``suggest(game)`` works on the copy (``game`` is never
touched) and returns, in this order of preference:

0. on a deal whose winning line the board ships (``par.line_move``:
   American's that New game deals), while the game has played that line,
   its next move: hints alone then win the deal;
1. a card that can go home: one that is safe to send (``search.safe_move``)
   before any other;
2. the first move of the shortest line of up to ``DEPTH`` forward moves that
   brings the most cards home, after looking at no more than ``budget``
   positions;
3. the first forward move (the deal comes after every other: good play
   deals late);
4. when there is no forward move (the stock is out), a move that changes
   more than the order of the columns;
5. ``NO_HINT`` when there is none of these: no legal move at all, or none
   but the one that takes back the last move (Undo does that) or ones
   that only put a column's card into another space.

After ``STALL_HINTS`` hints in a row that sent no card home and took none
from the stock or the waste, the hint is the deal while the stock lasts,
and then ``NO_HINT``, until a move does one of those.

A forward move (``forward``) is one of: a card home; a card from the stock
(a deal, or a fill of a space); the waste's card played; a base card taken
off a British Square column (uncovering the one under it, or leaving a
space); the one card of one of the sixteen piles, or a card built on a
card that goes home before it, moved onto a card that goes home after it;
and in Union Square such a built card moved into a space. Each lowers, in
this order of importance, the cards not yet home, the stock, the waste,
then a count of cards out of order (built cards over a card that goes home
before them, and base cards: in British Square the first count once and
the second twice, with sixteen piles the other way round), so no line of
forward moves comes back to a position, and hints followed one after
another never go round in circles while the stock lasts (there is always
a forward move then: the deal).

**Following the hints always ends.** No hint takes back the move before
it. Every hint either sends a card home or takes one from the stock or the
waste, which lowers the cards not yet home, then the stock, then the waste
(taken in that order: a deal lowers the stock and raises the waste), or
moves a card between columns, which leaves all three as they were; and
after ``STALL_HINTS`` hints of the second kind in a row the next is of
the first kind (the deal) or there is none. Those three counts cannot go
down for ever, so a
player who plays nothing but hints comes to a won game or to ``NO_HINT``
(the stock out and no hint: the dead test's "no more moves", or the
player's own moves, or End game).

It is a heuristic, not the desktop solver: lines are cut at ``DEPTH`` moves
and repeats are pruned by two hashes (``search.position_hashes``), so a hint
is a good move, not a proof. Every suggestion is a legal move of ``game``.
"""

from british_square.cards import const
from british_square.par import LINE_DEALS, NO_LINE, line_move
from british_square.piles import (
    COLUMN_CAPACITY,
    DEALT,
    FOUNDATION,
    STOCK,
    WASTE,
    move,
    move_source,
    move_target,
)
from british_square.search import NEW_POSITION, DeadSearch, safe_move

NO_HINT = const(-1)
DEPTH = const(8)
# Well under a second of a SAMD51 (285 000 empty-loop units): on the VM the
# costliest request of tests/vm/hint_cost.py's 60 positions took about
# 105 000 units of processor time (Union Square; British Square's, at most
# 40 000); tests/test_hint.py holds every request to under 260 000.
BUDGET = const(60)
# Hints in a row that send no card home and take none from the stock or the
# waste, before the hint says there is none: enough for the longest such
# run hints alone made in deals 1-100 of American and Union Square
# (tools/hint_quality.py --follow), and an end to any run.
STALL_HINTS = const(40)


def forward(game, m):
    """Is the legal move ``m`` a forward move (see the module's docstring)?
    Of moves into a space, only those into the first empty column are: the
    others lead to the same position with its columns in another order."""
    source = move_source(m)
    target = move_target(m)
    if target == FOUNDATION:
        return True
    height = game.height
    if target < STOCK and not height[target]:
        for c in range(target):
            if not height[c]:
                return False
    if source >= STOCK:
        return True  # a deal, or the stock's or the waste's card played
    h = height[source]
    cells = game.cells
    i = source * COLUMN_CAPACITY + h - 1  # the card moved
    f = game.foundations
    when = _home_at(cells[i], f)
    lands_over = False  # on a card that goes home before it
    if height[target]:
        lands_over = _home_at(cells[target * COLUMN_CAPACITY + height[target] - 1], f) < when
    if h <= game.base[source]:  # a dealt card, or the one that filled a space
        # (where a column was dealt several cards, moving one shows the next)
        return game.columns < DEALT or (height[target] > 0 and not lands_over)
    # built on a card of its own suit
    return _home_at(cells[i - 1], f) < when and not lands_over


def _home_at(card, foundations):
    """How many cards of its suit are home once ``card`` goes there: its rank
    on the way up, 27 less its rank on the way down (its foundation past it)."""
    rank = card % 13 + 1
    return rank if foundations[card // 13] < rank else 27 - rank


def ships_line(game):
    """Might ``game`` follow a shipped line? (Its rule set ships some, and
    it has a deal: a game set up from a position has none.)"""
    return LINE_DEALS[game.rules] > 0 and game.deal_number > 0


class Hinter(DeadSearch):
    """Finds a hint; made once, reused for every request (no heap churn).
    It is the dead test's search turned round: the same table of position
    hashes and path, a depth limit, and a score to beat. A request is
    ``begin`` then ``step`` over turns of the game's loop, a few positions
    each (a whole search is a quarter of a second on a SAMD51), or
    ``suggest`` at once (the desktop, the tests)."""

    def __init__(self, budget=BUDGET, buffer=None):
        super().__init__(max(budget, DEPTH), buffer)
        self.positions = 0  # positions looked at by the last request
        # the request under way: the move it falls back on, its budget, and
        # the search's score to beat (cards home at the start, the best gain,
        # at what depth, by which first move)
        self.fallback = NO_HINT
        self.limit = 0
        self.origin = None  # the game begun, until the first step copies it
        self.start_score = 0
        self.best_gain = 0
        self.best_depth = 0
        self.best_move = NO_HINT
        self.back = NO_HINT  # the move that takes back the game's last one: never hinted
        # what hints have not changed yet (``progress``), how many positions
        # in a row have been asked about since, and the last (its move count)
        self.progress = -1
        self.stalled = 0
        self.asked_at = -1

    def suggest(self, game, budget=BUDGET):
        """The hinted move for ``game`` (a move int), or ``NO_HINT`` when it
        has no legal move, after at most ``budget`` positions (the game's
        dead test is a ``Hinter`` with a larger table: a hint borrows it
        between two of its runs)."""
        found = self.begin(game, budget)
        while found is None:
            found = self.step_hint(budget)
        return found

    def begin(self, game, budget=BUDGET):
        """Start a request for ``game`` (not touched: the search works on a
        copy): its answer when it needs no search (a card home, no forward
        move, no move at all: ``NO_HINT``), else ``None``, and ``step_hint``
        goes on with it."""
        self.positions = 0
        self.limit = min(budget, self.budget)
        m = self.line_next(game)
        return m if m >= 0 else self._answer(game)

    def line_next(self, game):
        """The next move of the shipped winning line ``game`` has followed
        so far (its rule set ships them), else ``par.NO_LINE``: the line read
        from flash and the history compared, 11 ms of a board at a line's end."""
        return line_move(game, self.buffer) if ships_line(game) else NO_LINE

    def _answer(self, game):
        """``begin``'s answer for ``game`` by the board's own hint: a move,
        ``NO_HINT``, or ``None`` with its search begun."""
        progress = (game.score() << 16) | (game.stock_count << 8) | game.waste_count
        if progress != self.progress:
            self.progress, self.stalled = progress, 0
        elif game.history_count != self.asked_at:  # another position: a move since
            self.stalled += 1
        if self.stalled >= STALL_HINTS:  # cards moved about long enough: see the docstring
            return move(STOCK, WASTE) if game.stock_count else NO_HINT
        self.asked_at = game.history_count
        buffer = self.buffer
        count = game.legal_moves(buffer)
        if not count:
            return NO_HINT
        m = safe_move(game, buffer, count)
        if m >= 0:
            return m
        last = game.peek()
        self.back = NO_HINT if last is None else move(move_target(last), move_source(last))
        first_forward = other = NO_HINT
        for i in range(count):
            m = move(buffer[2 * i], buffer[2 * i + 1])
            if buffer[2 * i + 1] == FOUNDATION:
                return m
            if m == self.back:
                continue  # a hint never takes back the move before it
            if forward(game, m):
                if first_forward == NO_HINT:
                    first_forward = m
            elif other == NO_HINT and not _reorders(game, m):
                other = m
        if first_forward == NO_HINT:
            return other
        self.fallback = first_forward
        self.origin = game  # copied at the first step: the press's turn shows the cards sooner
        return None

    def step_hint(self, positions):
        """Look at up to ``positions`` more positions of the request begun:
        ``None`` while it goes on, then the hint: the first move of the
        shortest line of forward moves that brings the most cards home, or
        the first forward move if none seen does. The first step of a
        search copies the game begun (4 ms on a SAMD51) and looks at
        nothing yet."""
        if self.origin is not None:
            self.start(self.origin)  # a copy, its hash noted
            self.origin = None
            self.start_score = self.game.score()
            self.best_gain = 0
            self.best_depth = DEPTH + 1
            self.best_move = NO_HINT
            self.depth = self.next_index = 0
            return None
        probe, buffer, limit = self.game, self.buffer, self.limit
        depth, next_index = self.depth, self.next_index
        stop_at = self.seen + positions
        while self.seen < stop_at:
            count = probe.legal_moves(buffer) if depth < DEPTH else 0
            moved = False
            while next_index < count and self.seen < limit:
                i = 2 * next_index
                m = buffer[i] << 8 | buffer[i + 1]  # move(), inlined: the hot loop (see engine)
                next_index += 1
                if not forward(probe, m) or (not depth and m == self.back):
                    continue
                flag = probe.apply(m)
                if self._add(probe) != NEW_POSITION:  # seen, or the budget is spent
                    probe.retract(m, flag)
                    continue
                depth = self._down(depth, m, flag, next_index)
                next_index = 0
                gain = probe.score() - self.start_score
                if gain > self.best_gain or (
                    gain == self.best_gain and gain and depth < self.best_depth
                ):
                    self.best_gain, self.best_depth = gain, depth
                    self.best_move = self.path_move(0)  # the line's first move
                moved = True
                break
            if moved:
                continue
            if not depth:
                self.positions = self.seen
                return self.best_move if self.best_move != NO_HINT else self.fallback
            depth -= 1
            next_index = self._back(probe, depth)
        self.depth, self.next_index = depth, next_index
        return None


def _reorders(game, m):
    """Does ``m`` only put a column's one card into a space: the same
    position, its columns in another order?"""
    source = move_source(m)
    target = move_target(m)
    height = game.height
    return source < STOCK and target < STOCK and height[source] == 1 and not height[target]
