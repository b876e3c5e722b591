"""What every search of the solver starts from and ends with: a ``Setup``
(its copy of the position, its budget, its noise, the positions met) and a
``Solution`` (a verdict, the cards home, the line that brings them, which
``check_line`` has replayed)."""

import random
import time

from british_square.desktop.solver.moves import position_key
from british_square.engine import MAX_MOVES, Game

# A solve's verdict, as ``--json`` and the survey's results files
# (docs/survey/*.jsonl, kept for good) spell it: words, never changed, and
# not the engine's WON and LOST (``Game.status()``'s numbers).
WON = "won"
LOST = "lost"
UNKNOWN = "unknown"
VERDICTS = (WON, LOST, UNKNOWN)

# Time is read once per this many positions: a clock call costs more than a position.
CLOCK_EVERY = 256

# Budgets are in seconds of this thread's processor time where the platform
# counts it (CPython): a busy machine then does not cut a search short.
clock = getattr(time, "thread_time", time.monotonic)


class Solution:
    """What ``solve`` found: ``result`` (``WON``, ``LOST`` or ``UNKNOWN``),
    ``home`` (cards on the foundations at the end of ``moves``), ``moves``
    (move ints from the start position), ``nodes`` (positions met: those
    the depth-first and greedy searches expanded, and every one the
    rollouts looked at, each far cheaper) and ``seconds``."""

    def __init__(self, result, home, moves, nodes, seconds, exhausted=False):
        self.exhausted = exhausted  # the search ran out of moves, not of time
        self.result = result
        self.home = home
        self.moves = moves
        self.nodes = nodes
        self.seconds = seconds

    def __repr__(self):
        return "<Solution {} home {} in {} moves, {} nodes, {:.2f} s>".format(
            self.result, self.home, len(self.moves), self.nodes, self.seconds
        )


class Setup:
    """What a search sets up before its first move: ``game``, a copy of the
    position it plays on (the caller's is never touched); ``total``, the
    score with every card home; ``buffer`` for ``Game.legal_moves``;
    ``seen``, the keys of the positions met (``symmetric`` as
    ``position_key``), the start's already; ``rng``, noise from ``seed``
    (None: none); and its budget of ``seconds`` and ``max_nodes`` positions
    (0: no limit)."""

    def __init__(self, game, seconds, max_nodes=0, seed=None, symmetric=True):
        self.started = clock()
        self.deadline = self.started + seconds
        self.max_nodes = max_nodes
        self.rng = None if seed is None else random.Random(seed)
        g = Game(game.rules)
        g.copy_position_from(game)
        self.game = g
        self.total = g.score() + g.cards_left()
        self.buffer = bytearray(2 * MAX_MOVES)
        self.seen = {position_key(g, symmetric)}

    def spent(self, nodes):
        """Is the budget gone, ``nodes`` positions in?"""
        return clock() > self.deadline or (self.max_nodes and nodes >= self.max_nodes)

    def seconds(self):
        """Processor seconds since the start."""
        return clock() - self.started


def check_line(game, moves, home):
    """Replay ``moves`` from ``game``'s position through ``Game.play`` (the
    checked path) and fail loudly unless it ends with ``home`` cards home:
    no line leaves the solver unchecked."""
    replay = Game(game.rules)
    replay.copy_position_from(game)
    for m in moves:
        replay.play(m)
    if replay.score() != home:
        raise AssertionError(
            "solver line ends with {} cards home, not {}".format(replay.score(), home)
        )
    return replay


def snapshot(g):
    """The position of ``g`` as one bytes, for a search that keeps many (the
    stock's cards never change: its count is enough; ``restore`` puts it back)."""
    wc = g.waste_count
    return (
        bytes(g.cells)
        + bytes(g.height)
        + bytes(g.base)
        + bytes(g.foundations)
        + bytes((g.stock_count, wc))
        + g.waste[:wc]
    )


def restore(g, snap):
    """Put the position ``snapshot`` took back into ``g`` (a game of the same rules)."""
    n = len(g.cells)
    k = g.columns
    g.cells[:] = snap[:n]
    g.height[:] = snap[n : n + k]
    g.base[:] = snap[n + k : n + 2 * k]
    i = n + 2 * k
    g.foundations[:] = snap[i : i + 4]
    g.stock_count = snap[i + 4]
    wc = snap[i + 5]
    g.waste[:wc] = snap[i + 6 :]
    g.waste_count = wc
