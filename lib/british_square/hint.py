"""A hint on the board: a short, bounded search for a move that helps.

``Hinter(budget)`` is made once (its memory, as the dead test's: a copy of
the game, a table of position hashes and a path: about 3 KB for the
default budget); ``suggest(game)`` searches the lines of up to ``DEPTH``
moves from ``game``'s position (on the copy: ``game`` is never touched), looks at no
more than ``budget`` positions, and returns the first move of the line that
brought the most cards home (the shortest of those), or ``NO_HINT`` when no
line it saw brought one home: then it has found nothing useful, and says so.

It is a heuristic, not the desktop solver: lines are cut at ``DEPTH`` moves
and repeats are pruned by two hashes (``search.position_keys``), so a hint
is a good move, not a proof. Every suggestion is a legal move of ``game``.
"""

from british_square.cards import const
from british_square.piles import FOUNDATION, move, move_target
from british_square.search import NEW_POSITION, DeadSearch

NO_HINT = const(-1)
DEPTH = const(8)
# About one second of a SAMD51 (285 000 empty-loop units): on the VM a
# request looked at its 60 positions in at most about 220 000 units
# (British Square requests stop far sooner), see tests/vm/hint_cost.py.
BUDGET = const(60)


class Hinter(DeadSearch):
    """Finds a hint; made once, reused for every request (no heap churn).
    It is the dead test's search turned round: the same table of position
    hashes and path, a depth limit, and a score to beat."""

    def __init__(self, budget=BUDGET, buffer=None):
        super().__init__(max(budget, DEPTH), buffer)
        self.positions = 0  # positions looked at by the last request

    def suggest(self, game, budget=BUDGET):
        """The hinted move for ``game`` (a move int), or ``NO_HINT``, after at
        most ``budget`` positions (the game's dead test is a ``Hinter`` with a
        larger table: a hint borrows it between two of its runs)."""
        budget = min(budget, self.budget)
        self.start(game)  # a copy, its hash noted
        probe = self.game
        buffer = self.buffer
        start = probe.score()
        best_gain = 0
        best_depth = DEPTH + 1
        best_move = NO_HINT
        depth = 0
        next_index = 0
        while True:
            count = probe.legal_moves(buffer) if depth < DEPTH else 0
            moved = False
            while next_index < count and self.seen < budget:
                i = 2 * next_index
                m = buffer[i] << 8 | buffer[i + 1]  # move(), inlined: the hot loop (see engine)
                next_index += 1
                flag = probe.apply(m)
                if self._add(probe) != NEW_POSITION:  # seen, or the budget is spent
                    probe.retract(m, flag)
                    continue
                depth = self._down(depth, m, flag, next_index)
                next_index = 0
                gain = probe.score() - start
                if gain > best_gain or (gain == best_gain and gain and depth < best_depth):
                    best_gain, best_depth = gain, depth
                    path = self.path  # its first level: the line's first move (see _down)
                    best_move = move(path[0] & 0x1F, (path[0] >> 5 | path[1] << 3) & 0x1F)
                    if depth == 1 and move_target(m) == FOUNDATION:
                        break  # nothing beats a card home now: stop looking
                moved = True
                break
            if moved:
                if best_depth == 1:
                    break
                continue
            if not depth:
                break
            depth -= 1
            next_index = self._back(probe, depth)
        self.positions = self.seen
        return best_move
