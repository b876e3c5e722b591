"""Searches over positions: the dead-position test, the foundation moves
that no other move can beat (``safe_move``: the desktop solver's rule, which
the board's hint follows too), and the cards the game sends home by itself
(auto-play's, Finish's).

Searches move on a copy of the game with ``Game.apply`` / ``Game.retract``
and keep their own path, so they never touch the game or its history. Kept
out of the engine module so that a game in play does not carry this code
until it needs it.
"""

from array import array

from british_square.cards import NO_CARD, const
from british_square.engine import FLAG_SHIFT, MAX_MOVES, Game
from british_square.piles import COLUMN_CAPACITY, FOUNDATION, WASTE, move

# The dead test's verdicts (``DeadSearch.step``).
ALIVE = const(0)
DEAD = const(1)
UNDECIDED = const(2)

# What ``DeadSearch._add`` says of a position.
NEW_POSITION = const(0)  # not seen before: noted
_SEEN = const(1)
_FULL = const(2)


class DeadSearch:
    """Can no sequence of moves put another card on a foundation?

    ``start(game)`` sets up the test on a copy of ``game``; ``step(n)`` looks
    at up to ``n`` more positions and returns ``None`` while it goes on, then
    its verdict: ``DEAD`` if none of the positions reachable without a
    foundation move allows one, ``ALIVE`` once one does (a won game is
    ``ALIVE``), ``UNDECIDED`` once ``budget`` positions are seen. Iterative (no
    recursion), and its memory is made once, in ``__init__``: a table of
    position keys (six bytes a slot, at most four fifths full) and a path of
    three bytes per level: about 2 KB for the game's budget of 200. A game
    can run it after every move without the heap moving.

    Repeats are pruned by two independent hashes of the position
    (``position_hashes``: two bases and moduli): a new position is skipped
    only when its 30-bit first hash and 16 bits of its second equal those of
    one already seen. A false ``DEAD`` needs two different positions among
    at most ``budget`` to agree on all 46 bits: for a budget of 200 a chance
    below 200**2 / 2**47, about 1 in 3.5 billion searches (one 30-bit hash
    alone, as before, was about 1 in 24 000 at a budget of 300).
    """

    def __init__(self, budget=200, buffer=None):
        size = 2
        while size * 4 < budget * 5:  # at most four fifths full
            size <<= 1
        self.budget = budget
        self.mask = size - 1
        # the first hash as its low 16 bits and its high 14 bits + 1 (0: an
        # empty slot), then 16 bits of the second: six bytes a slot
        self.keys_low = array("H", range(size))
        self.keys_high = array("H", range(size))
        self.keys_b = array("H", range(size))
        # per level: source 5 bits, target 5, undo flag 3, next move index 9
        self.path = bytearray(budget * 3)
        self.buffer = buffer if buffer is not None else bytearray(2 * MAX_MOVES)
        self.game = None  # the copy searched
        self.second = [0]  # where ``position_hashes`` leaves the second hash
        self.seen = 0
        self.depth = 0
        self.next_index = 0
        self.whole_waste = False
        self.verdict = UNDECIDED
        self.running = False

    def copy_of(self, game):
        """The search's copy of the game, set to ``game``'s position: made
        once for each rule set, and lent between two runs (a save walks it
        back to its start position; the search under way is over)."""
        probe = self.game
        if probe is None or probe.rules != game.rules:
            probe = self.game = Game(game.rules)
        probe.copy_position_from(game)
        self.running = False
        return probe

    def start(self, game):
        """Set up the test on a copy of ``game``'s position (``game`` is not touched)."""
        probe = self.copy_of(game)
        keys_high = self.keys_high
        for i in range(self.mask + 1):
            keys_high[i] = 0
        self.seen = 0
        self.depth = 0
        self.next_index = 0
        # With the stock out the waste can only shrink from the top, so its
        # length names it; with cards to deal its order must be hashed.
        self.whole_waste = probe.stock_count > 0
        self.running = True
        if probe.is_won():
            self._finish(ALIVE)
        else:
            self._add(probe)

    def _finish(self, verdict):
        self.verdict = verdict
        self.running = False
        return verdict

    def _add(self, game):
        """Note the position of ``game``: ``NEW_POSITION``, ``_SEEN`` (both its hashes
        were), or ``_FULL`` (new, but ``budget`` positions are seen already)."""
        a = position_hashes(game, self.whole_waste, self.second)
        b = self.second[0] & 0xFFFF
        low = a & 0xFFFF
        high = (a >> 16) + 1
        # (one by one: MicroPython builds a tuple to unpack four at once)
        keys_low = self.keys_low
        keys_high = self.keys_high
        keys_b = self.keys_b
        mask = self.mask
        i = a & mask
        while True:
            there = keys_high[i]
            if not there:
                if self.seen >= self.budget:
                    return _FULL
                keys_low[i] = low
                keys_high[i] = high
                keys_b[i] = b
                self.seen += 1
                return NEW_POSITION
            if there == high and keys_low[i] == low and keys_b[i] == b:
                return _SEEN
            i = (i + 1) & mask

    def step(self, positions):
        """Look at up to ``positions`` new positions: ``None`` while the search
        goes on, then its verdict (again on every later call)."""
        if not self.running:
            return self.verdict
        game, buffer = self.game, self.buffer
        depth, next_index = self.depth, self.next_index
        stop_at = self.seen + positions
        while True:
            count = game.legal_moves(buffer)
            for i in range(count):
                if buffer[2 * i + 1] == FOUNDATION:
                    return self._finish(ALIVE)
            # the next move from here that reaches a position not seen yet
            while next_index < count:
                m = buffer[2 * next_index] << 8 | buffer[2 * next_index + 1]
                next_index += 1
                flag = game.apply(m)
                added = self._add(game)
                if added == NEW_POSITION:
                    break
                if added == _FULL:
                    return self._finish(UNDECIDED)
                game.retract(m, flag)
            else:  # all explored: back to the parent
                if not depth:
                    return self._finish(DEAD)
                depth -= 1
                next_index = self._back(game, depth)
                continue
            depth = self._down(depth, m, flag, next_index)
            next_index = 0
            if self.seen >= stop_at:
                self.depth, self.next_index = depth, next_index
                return None

    def _down(self, depth, m, flag, next_index):
        """Note at level ``depth`` the move ``m`` just applied (undo ``flag``)
        and where the moves after it resume; return the next level."""
        path = self.path
        p = depth * 3
        level = m >> 8 | (m & 0x1F) << 5 | (flag >> FLAG_SHIFT) << 10 | next_index << 13
        path[p] = level & 0xFF
        path[p + 1] = level >> 8 & 0xFF
        path[p + 2] = level >> 16
        return depth + 1

    def _back(self, game, depth):
        """Take back the move noted at level ``depth``; return where the moves
        after it resume."""
        path = self.path
        p = depth * 3
        level = path[p] | path[p + 1] << 8 | path[p + 2] << 16
        game.retract((level & 0x1F) << 8 | level >> 5 & 0x1F, (level >> 10 & 7) << FLAG_SHIFT)
        return level >> 13

    def path_move(self, depth):
        """The move noted at level ``depth`` of the path (``_down``'s)."""
        path = self.path
        p = depth * 3
        level = path[p] | path[p + 1] << 8
        return move(level & 0x1F, level >> 5 & 0x1F)


def safe_move(game, buffer, count):
    """A foundation move among the ``count`` moves in ``buffer`` that no other
    move can beat, or -1.

    Why it is safe: say suit s has 13 or more cards home, so it is going
    down and wants rank r = 26 - count; of suit s only one copy of each rank
    r, r-1, ..., A is left (the positions never hold a third copy). Let X be
    the playable r. Take any line L from here and build a line L' from the
    position with X home: drop every move of a card L' already has home; when
    L puts a card on a card L' has home (it can only be the next lower card of
    suit s: every higher one is home), send it home instead; play every other
    move as L does. Suit s cannot advance in L before X goes home, and what
    L' has home of suit s is always a run from the top of what is left, so
    each card L' sends home is the one its foundation wants. Columns in L'
    are those of L less cards L' has home, which lie at their tops (only
    suit s cards are ever put on suit s cards) or are X on its original card
    (nothing of suit s can go on X there: r+1 is home, r-1 is that card), so
    every other move has the same source card, target and direction in L'.
    L' therefore brings home at least as many cards as L, at every step.

    The up half has no such rule: a 2 parked on an ace can beat sending the
    ace home when the other ace is needed elsewhere, so those moves are
    searched like the rest."""
    f = game.foundations
    for i in range(count):
        if buffer[2 * i + 1] == FOUNDATION:
            source = buffer[2 * i]
            card = game.top(source)
            if f[card // 13] >= 13:
                return move(source, FOUNDATION)
    return -1


def home_move(game):
    """A move sending a playable card of ``game`` home (a column's first,
    then the waste's), or -1 when none can go."""
    for source in range(game.columns + 1):
        if source == game.columns:
            source = WASTE
        m = move(source, FOUNDATION)
        if game.is_legal(m):
            return m
    return -1


def plays_out(game):
    """Is ``game`` won by sending its playable cards home, one after another
    (Finish's test: then no choice is left that can go wrong)? Plays them on
    ``game``: give it a copy. At most 104 moves, none allocating."""
    m = home_move(game)
    while m >= 0:
        game.apply(m)
        m = home_move(game)
    return game.is_won()


def autoplay_move(game, buffer, safe):
    """The next card auto-play sends home (``stats.AUTOPLAY_*``), or -1: an
    ace that starts or finishes a foundation, and with ``safe`` a card no
    other move can beat (``safe_move``, ``buffer`` the scratch its legal
    moves are listed in). Neither can cost a card home: nothing can be built
    on such an ace that its foundation could not take as well. Other cards
    might still be wanted in the tableau, and stay."""
    for source in range(game.columns + 1):
        if source == game.columns:
            source = WASTE
        card = game.top(source)
        if card != NO_CARD and card % 13 == 0 and game.foundations[card // 13] in (0, 25):
            return move(source, FOUNDATION)
    if safe:
        return safe_move(game, buffer, game.legal_moves(buffer))
    return -1


def position_hashes(game, whole_waste=True, second=None):
    """Two independent 30-bit polynomial hashes of the position, in one pass
    and in small ints, so that nothing is allocated: ``h * 127`` modulo
    ``127 * 2**23 - 1`` (returned) and ``h * 251`` modulo ``251 * 2**22 - 1``
    (left in ``second[0]`` when given), one step per byte. Foundations follow
    from the rest, so they are left out; the waste is hashed by its length
    alone unless ``whole_waste``. Lengths come before the cards they count, so
    two different positions give different byte sequences."""
    a = b = game.stock_count * 89 + game.waste_count
    if whole_waste:
        waste = game.waste
        for i in range(game.waste_count):
            v = waste[i] + 1
            a = (a & 0x7FFFFF) * 127 + (a >> 23) + v
            b = (b & 0x3FFFFF) * 251 + (b >> 22) + v
    cells = game.cells
    height = game.height
    base = game.base
    for c in range(game.columns):
        v = base[c] * 17 + height[c] + 1
        a = (a & 0x7FFFFF) * 127 + (a >> 23) + v
        b = (b & 0x3FFFFF) * 251 + (b >> 22) + v
        start = c * COLUMN_CAPACITY
        for i in range(start, start + height[c]):
            v = cells[i] + 1
            a = (a & 0x7FFFFF) * 127 + (a >> 23) + v
            b = (b & 0x3FFFFF) * 251 + (b >> 22) + v
    if second is not None:
        second[0] = b
    return a
