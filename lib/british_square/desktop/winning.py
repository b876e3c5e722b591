"""The desktop's hint, which follows a win: the board's hint (``hint.Hinter``)
with the solver in front of it.

A hint from a position the solver wins leads to that win. ``WinningHinter``
asks the solver first (``greedy.greedy_restarts``: best-first searches,
the first without noise and each next with noise of its own seed, the
solver's way to a win in American and Union Square) for a line that brings
every card home, looking at no more than ``HINT_NODES`` positions: a count,
so a position gets the same hint on any machine, however loaded.

The search runs in a process of its own (``python -m
british_square.desktop.winning POSITION NODES``: the engine keeps scratch
shared by every game, so it cannot run on a second thread beside the
window's), and the window stays live: the table shows the hint when the
search is done, a turn of the loop later, and a press stops waiting for it.
When it wins, the hint is the first move of its line, and the line is kept:
from any position the line passes through, the next hint is the line's next
move, at once, so a player who follows the hints plays the line to the end
and wins. When it does not win within the count, the hint is the board's,
as ever.

British Square asks no solver: the census proved every one of its deals
lost (docs/solver.md), so no position of a British game can be won, and
the board's hint comes at once.
"""

import os
import subprocess
import sys
import time

from british_square.desktop.games import copy_game
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver.moves import position_key
from british_square.hint import BUDGET, NO_HINT, Hinter
from british_square.piles import BRITISH

# Positions the solver looks at for a hint: 50 000 take a desktop about 3 s
# of CPython at most (55 us a position, the census's rate), and win most of
# the American and Union Square positions that can be won (docs/solver.md).
HINT_NODES = 50_000
# What ``Verdict`` says of the position on show.
LOOKING = "looking"
WINNABLE = "winnable"
NOT_WINNABLE = "not winnable"
NOT_KNOWN = "not known"
# Seconds only as an outer guard: the count ends a search long before.
_GUARD_SECONDS = 600.0
_LIB = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class WinningHinter(Hinter):
    """``hint.Hinter`` (the dead test's table and the board's hint), whose
    ``begin`` and ``step_hint`` ask the solver first; ``nodes``, its budget
    in positions."""

    def __init__(self, budget, buffer=None, nodes=HINT_NODES):
        super().__init__(budget, buffer)
        self.nodes = nodes
        self.line = {}  # the winning line found last: position key -> its next move
        self.unwon = None  # the key of the last position the solver found no win from
        self.asked = None  # the key of the position the solver looks at
        self.asked_game = None  # and that position (a copy)
        self.solver = None  # the solver's process
        self.board_hint = None  # the board's hint for the request, once it has one

    def begin(self, game, budget=BUDGET):
        """As ``Hinter.begin``: the line's next move at once, when ``game``
        is on a winning line found before; the board's hint when no solver
        is asked (British Square, or the position the solver last found no
        win from); else the solver starts (unless it already looks at this
        position) and ``step_hint`` waits for it."""
        key = line_key(game)
        m = self.line.get(key)
        if m is not None and game.is_legal(m):
            return m
        found = super().begin(game, budget)
        self.board_hint = found  # None: the board's search goes on in ``step_hint``
        if found == NO_HINT or game.rules == BRITISH or key == self.unwon:
            self.stop()
            return found
        if key != self.asked:
            self.stop()
            self.asked = key
            self.asked_game = copy_game(game)
            self.solver = solver_process(position_text(game), str(self.nodes))
        return None

    def step_hint(self, positions):
        """As ``Hinter.step_hint``: ``None`` while the solver looks (the
        board's search goes on meanwhile), then the line's first move, or
        the board's hint once the solver has found no win."""
        if self.board_hint is None:
            self.board_hint = super().step_hint(positions)
        solver = self.solver
        if solver is not None:
            if solver.poll() is None:
                return None
            moves = [int(word) for word in solver.stdout.read().split()[1:]]
            if moves:
                self._keep(moves)
            else:
                self.unwon = self.asked
            self.stop()
            if moves:
                return moves[0]
        return self.board_hint  # None: the board's search goes on

    def suggest(self, game, budget=BUDGET):
        """As ``Hinter.suggest``, a request made and waited for (the
        benchmark's), a look every 5 ms while the solver works."""
        found = self.begin(game, budget)
        while found is None:
            time.sleep(0.005)
            found = self.step_hint(budget)
        return found

    def _keep(self, moves):
        """Each position of the line from the position asked about, with the move played there."""
        line = {}
        game = self.asked_game
        for m in moves:
            line[line_key(game)] = m
            game.play(m)
        self.line = line

    def stop(self):
        """The solver's process, if any, ends (its answer is no longer wanted
        or has been read)."""
        end_process(self.solver)
        self.solver = None
        self.asked = None


def solver_process(*args):
    """This module run with ``args`` (``main``) in a process of its own, its
    standard output piped: the engine keeps scratch shared by every game,
    so a search cannot run on a second thread beside the window's."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__] + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, PYTHONPATH=_LIB),
        text=True,
    )


def end_process(process):
    """``process`` (``solver_process``'s, or None) ended, its pipe closed."""
    if process is not None:
        process.kill()
        process.wait()
        process.stdout.close()


def line_key(game):
    """The exact position of ``game``, its rule set included (American's and
    Union Square's sixteen piles could read alike)."""
    return bytes((game.rules,)) + position_key(game, symmetric=False)


class Verdict:
    """Can the position on show still be won? ``look`` at a game after each
    move; ``state`` is then ``LOOKING`` while the solver (the hint's hunt
    for a win, then a complete search that proves none, each at most
    ``nodes`` positions: a count, so the same verdict on any machine) looks
    in a process of its own, the window live, and then ``WINNABLE``,
    ``NOT_WINNABLE`` (the solver proved it) or ``NOT_KNOWN`` (the count ran
    out first). A British Square game from a deal is never winnable: the
    census proved every deal lost (docs/solver.md), so no solver is asked."""

    def __init__(self, nodes=HINT_NODES):
        self.nodes = nodes
        self.state = NOT_KNOWN
        self.asked = None  # the position (``line_key``) the state is about
        self.solver = None

    def look(self, game):
        """The verdict on ``game``'s position: kept if it was asked about
        last, else a new one begun (and the one under way given up)."""
        key = line_key(game)
        if key == self.asked:
            return
        self.stop()
        self.asked = key
        if game.rules == BRITISH and game.deal_number:
            self.state = NOT_WINNABLE
            return
        self.state = LOOKING
        self.solver = solver_process("--verdict", position_text(game), str(self.nodes))

    def poll(self):
        """Take the solver's verdict if it has one; the state."""
        solver = self.solver
        if solver is not None and solver.poll() is not None:
            said = solver.stdout.read().split()
            self.state = {"won": WINNABLE, "lost": NOT_WINNABLE}.get(said[0] if said else "")
            self.state = self.state or NOT_KNOWN
            self.stop()
        return self.state

    def stop(self):
        """The solver's process, if any, ends."""
        end_process(self.solver)
        self.solver = None


def main(argv):
    """``POSITION NODES``: print "won" and the winning line's moves (ints),
    or "none" when the solver finds no win within ``NODES`` positions.
    ``--verdict POSITION NODES``: print "won", "lost" (proved: a complete
    search) or "unknown", each search within ``NODES`` positions."""
    from british_square.desktop.solver.greedy import greedy_restarts
    from british_square.desktop.solver.solution import LOST, WON

    if argv[0] == "--verdict":  # a win hunted as the hint hunts it, then a complete search
        from british_square.desktop.solver import search

        game, nodes = parse_position(argv[1]), int(argv[2])
        found = greedy_restarts(game, _GUARD_SECONDS, nodes)
        if found.result != WON:
            found = search(game, _GUARD_SECONDS, nodes, won_only=True)
        print({WON: "won", LOST: "lost"}.get(found.result, "unknown"))
        return

    found = greedy_restarts(parse_position(argv[0]), _GUARD_SECONDS, int(argv[1]))
    if found.result == WON and found.moves:
        print("won", " ".join(str(m) for m in found.moves))
    else:
        print("none")


if __name__ == "__main__":
    main(sys.argv[1:])
