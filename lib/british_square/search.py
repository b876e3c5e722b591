"""Searches over positions: the dead-position test (and, later, the solver).

Searches move on a copy of the game with ``Game.apply`` / ``Game.retract``
and keep their own path, so they never touch the game or its history. Kept
out of the engine module so that a game in play does not carry this code
until it needs it.
"""

from array import array

from british_square.cards import const
from british_square.engine import ALIVE, COLUMN_CAPACITY, DEAD, FOUNDATION, MAX_MOVES, UNKNOWN, Game

_NEW = const(0)
_SEEN = const(1)
_FULL = const(2)


class DeadSearch:
    """Can no sequence of moves put another card on a foundation?

    ``start(game)`` sets up the test on a copy of ``game``; ``step(n)`` looks
    at up to ``n`` more positions and returns ``None`` while it goes on, then
    its verdict: ``DEAD`` if none of the positions reachable without a
    foundation move allows one, ``ALIVE`` once one does (a won game is
    ``ALIVE``), ``UNKNOWN`` once ``budget`` positions are seen. Iterative (no
    recursion), and its memory is made once, in ``__init__``: a table of
    position keys and a path of five bytes per level. A game can run it after
    every move without the heap moving.

    Repeats are pruned by two independent hashes of the position
    (``position_keys``: two bases and moduli): a new position is skipped
    only when its 30-bit first hash and 16 bits of its second equal those of
    one already seen. A false ``DEAD`` needs two different positions among
    at most ``budget`` to agree on all 46 bits: for a budget of 300 a chance
    below 300**2 / 2**47, about 1 in 1.5 billion searches (one 30-bit hash
    alone, as before, was about 1 in 24 000).
    """

    def __init__(self, budget=300, buffer=None):
        size = 1
        while size <= budget + budget // 2:  # at most two thirds full: short probe runs
            size <<= 1
        self.budget = budget
        self.mask = size - 1
        self.keys_a = array("l", range(size))  # first hash + 1; 0 is an empty slot
        self.keys_b = array("H", range(size))  # 16 bits of the second hash
        self.path = bytearray(budget * 5)  # per level: source, target, undo flag, next move (2)
        self.buffer = buffer if buffer is not None else bytearray(2 * MAX_MOVES)
        self.game = None  # the copy searched
        self.second = [0]  # where ``position_keys`` leaves the second hash
        self.seen = 0
        self.depth = 0
        self.next_index = 0
        self.whole_waste = False
        self.verdict = UNKNOWN
        self.running = False

    def start(self, game):
        """Set up the test on a copy of ``game``'s position (``game`` is not touched)."""
        probe = self.game
        if probe is None or probe.rules != game.rules:
            probe = self.game = Game(game.rules)
        probe.copy_position_from(game)
        keys_a = self.keys_a
        for i in range(self.mask + 1):
            keys_a[i] = 0
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
        """Note the position of ``game``: ``_NEW``, ``_SEEN`` (both its hashes
        were), or ``_FULL`` (new, but ``budget`` positions are seen already)."""
        a = position_keys(game, self.whole_waste, self.second)
        b = self.second[0] & 0xFFFF
        keys_a, keys_b, mask = self.keys_a, self.keys_b, self.mask
        i = a & mask
        a += 1
        while True:
            there = keys_a[i]
            if not there:
                if self.seen >= self.budget:
                    return _FULL
                keys_a[i] = a
                keys_b[i] = b
                self.seen += 1
                return _NEW
            if there == a and keys_b[i] == b:
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
                if added == _NEW:
                    break
                if added == _FULL:
                    return self._finish(UNKNOWN)
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
        p = depth * 5
        path[p] = m >> 8
        path[p + 1] = m & 0xFF
        path[p + 2] = flag
        path[p + 3] = next_index >> 8
        path[p + 4] = next_index & 0xFF
        return depth + 1

    def _back(self, game, depth):
        """Take back the move noted at level ``depth``; return where the moves
        after it resume."""
        path = self.path
        p = depth * 5
        game.retract(path[p] << 8 | path[p + 1], path[p + 2])
        return path[p + 3] << 8 | path[p + 4]

    def run(self, game):
        """The verdict for ``game``, in one go."""
        self.start(game)
        return self.step(self.budget + 1)  # it never sees more than its budget


def dead_search(game, budget=1000, buffer=None, every=0):
    """The dead test (``DeadSearch``) as a generator: it yields ``None`` after
    each ``every`` new positions (never, if 0) and finally its verdict. It
    searches a copy: ``game`` is never touched."""
    search = DeadSearch(budget, buffer)
    search.start(game)
    while True:
        verdict = search.step(every or budget + 1)
        if verdict is not None:
            yield verdict
            return
        yield None


def position_keys(game, whole_waste=True, second=None):
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
