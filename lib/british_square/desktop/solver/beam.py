"""Beam search by cards dealt (American): the deal that greedy restarts and
the complete search leave unknown is a deal where the order of the stock
decides, so this search looks along it. From each of the ``width`` most
promising positions with k cards dealt it walks up to ``BEAM_DEPTH`` moves
between deals (at most ``BEAM_CLOSURE`` positions), then deals the next
card; the ``width`` most promising of those positions are the next layer.
With the stock dealt, the complete search (the solver's ``search``, passed
in: it imports this module) looks for the end of each of the first
``BEAM_ENDS`` for ``BEAM_END_NODES`` positions.

"Promising" (``_Estimate``) knows the stock: a card's time is the number of
cards dealt before its foundation can take it, the latest of the times its
copy and the cards under it on the foundation come to hand. A card lying over
a card whose time is earlier must move to a column first, so each such card
costs. It finds only wins, each replayed like every other line, and never
reports a loss: it needs no soundness argument.
"""

import random

from british_square.desktop.solver.moves import position_key
from british_square.desktop.solver.solution import (
    CLOCK_EVERY,
    UNKNOWN,
    WON,
    Setup,
    Solution,
    check_line,
    clock,
    restore,
    snapshot,
)
from british_square.piles import COLUMN_CAPACITY, STOCK, WASTE
from british_square.search import safe_move

# The one American deal of 31 999 nothing else won, 5632, was won by the
# third search these give (10 000 wide: 12.8 million positions in all, with
# the greedy restarts' 2 million).
BEAM_FIRST_WIDTH = 2500
BEAM_SEED = 1
BEAM_DEPTH = 8
BEAM_CLOSURE = 2000
BEAM_ENDS = 30
BEAM_END_NODES = 100_000
BEAM_NOISE = 3.0  # a card home scores 10
BEAM_WASTE_WEIGHT = 4  # each waste card over one due earlier
BEAM_COLUMN_WEIGHT = 4  # each column card over one due earlier
BEAM_SPACE_WEIGHT = 2  # each empty column


class _Estimate:
    """How promising a position is, knowing when each card comes to hand:
    ``due[suit][n]`` is the number of cards dealt (from the position it was
    made for) before the ``n``-th card of ``suit``'s foundation can go home,
    each rank's copies taken earliest first."""

    def __init__(self, game, noise, seed):
        arrive = [[] for _ in range(52)]  # per card value: when each copy comes to hand
        for c in range(game.columns):
            start = c * COLUMN_CAPACITY
            for i in range(start, start + game.height[c]):
                arrive[game.cells[i]].append(0)
        for i in range(game.waste_count):
            arrive[game.waste[i]].append(0)
        for k in range(game.stock_count):
            arrive[game.stock_card(k)].append(k + 1)
        self.due = []
        for suit in range(4):
            due = [0] * 27
            taken = [0] * 13
            for n in range(game.foundations[suit] + 1, 27):
                rank = n - 1 if n <= 13 else 26 - n
                copies = sorted(arrive[suit * 13 + rank])
                when = copies[taken[rank]] if taken[rank] < len(copies) else 999
                taken[rank] += 1
                due[n] = max(due[n - 1], when)
            self.due.append(due)
        self.rng = random.Random(seed) if noise else None
        self.noise = noise

    def _over_earlier(self, cards, start, end, f):
        """Cards of ``cards[start:end]`` (bottom first) over one due earlier."""
        count = 0
        earliest = 999
        due = self.due
        for i in range(start, end):
            v = cards[i]
            suit = v // 13
            rank = v % 13 + 1
            when = due[suit][rank if f[suit] < rank else 27 - rank]
            if when > earliest:
                count += 1
            elif when < earliest:
                earliest = when
        return count

    def __call__(self, g):
        f = g.foundations
        value = 10 * (f[0] + f[1] + f[2] + f[3])
        value -= BEAM_WASTE_WEIGHT * self._over_earlier(g.waste, 0, g.waste_count, f)
        height = g.height
        for c in range(g.columns):
            start = c * COLUMN_CAPACITY
            value -= BEAM_COLUMN_WEIGHT * self._over_earlier(g.cells, start, start + height[c], f)
        value += BEAM_SPACE_WEIGHT * height.count(0)
        if self.rng is not None:
            value += self.rng.random() * self.noise
        return value


def _split(g, buffer):
    """The moves of ``g`` between deals, and its deals (the stock to the
    waste, or to the first empty column); a safe move alone when there is one."""
    count = g.legal_moves(buffer)
    safe = safe_move(g, buffer, count)
    if safe >= 0:
        return [safe], [], True
    between = []
    deals = []
    filled = False
    for i in range(count):
        source = buffer[2 * i]
        target = buffer[2 * i + 1]
        if source != STOCK:
            between.append(source << 8 | target)
        elif target == WASTE or not filled:
            deals.append(source << 8 | target)
            filled = filled or target != WASTE
    return between, deals, False


def beam_search(game, finish, seconds=10.0, max_nodes=0, width=1000, seed=None, noise=BEAM_NOISE):
    """One beam search from ``game`` (not touched), keeping ``width``
    positions for each number of cards dealt, with up to ``noise`` from
    ``seed`` (None: none) on each estimate, for ``seconds`` or ``max_nodes``
    positions (0: no limit); ``finish(position, seconds, max_nodes)``, the
    solver's complete search, looks for the ends. ``WON`` with its line, or
    ``UNKNOWN`` with the line bringing the most cards home."""
    setup = Setup(game, seconds, max_nodes)
    g, total, buffer = setup.game, setup.total, setup.buffer
    estimate = _Estimate(g, noise, seed)
    most = max_nodes or -1  # positions: never equal to a count when 0 (no limit)
    layer = [(snapshot(g), ())]  # (position, its line from ``game``), best first
    best_home, best_line = g.score(), ()
    nodes = 0
    while g.stock_count:  # every position of a layer has as many cards dealt
        seen = set()
        dealt = {}  # key of a position after a deal: (estimate, -order met, kept, moves)
        met = 0
        for kept, (position, line) in enumerate(layer):
            restore(g, position)
            path = []  # (move, flag) from ``position``
            stack = [(0, 0, None)]  # (depth, moves of ``path`` it follows, move)
            closure = 0
            while stack and closure < BEAM_CLOSURE:
                depth, keep, m = stack.pop()
                while len(path) > keep:
                    g.retract(*path.pop())
                if m is not None:
                    path.append((m, g.apply(m)))
                key = position_key(g)
                if key in seen:
                    continue
                seen.add(key)
                closure += 1
                nodes += 1
                if nodes == most or nodes % CLOCK_EVERY == 0 and clock() > setup.deadline:
                    return _found(game, best_home, best_line, nodes, setup)
                if g.score() > best_home:
                    best_home, best_line = g.score(), line + tuple(p[0] for p in path)
                    if best_home == total:
                        return _found(game, best_home, best_line, nodes, setup)
                between, deals, safe = _split(g, buffer)
                for d in deals:
                    flag = g.apply(d)
                    key = position_key(g)
                    value = estimate(g)
                    met += 1
                    if key not in dealt or dealt[key][0] < value:  # ties: the first met
                        moves = tuple(p[0] for p in path) + (d,)
                        dealt[key] = (value, -met, kept, moves)
                    g.retract(d, flag)
                if depth < BEAM_DEPTH or safe:  # a safe move does not count past the depth
                    for m in between:
                        stack.append((depth + 1 if depth < BEAM_DEPTH else depth, len(path), m))
            while path:
                g.retract(*path.pop())
        if not dealt:
            return _found(game, best_home, best_line, nodes, setup)
        chosen = sorted(dealt.values(), reverse=True)[:width]
        following = []
        for _, _, kept, moves in chosen:
            position, line = layer[kept]
            restore(g, position)
            for m in moves:
                g.apply(m)
            following.append((snapshot(g), line + moves))
        layer = following
    for position, line in layer[:BEAM_ENDS]:  # the stock is dealt: search each end
        if setup.spent(nodes):
            break
        restore(g, position)
        cap = min(max_nodes - nodes, BEAM_END_NODES) if max_nodes else BEAM_END_NODES
        end = finish(g, setup.deadline - clock(), cap)  # on a copy: ``g`` is not touched
        nodes += end.nodes
        if end.home > best_home:
            best_home, best_line = end.home, line + tuple(end.moves)
            if end.result == WON:
                break
    return _found(game, best_home, best_line, nodes, setup)


def _found(game, home, line, nodes, setup):
    """The ``Solution`` of a line bringing ``home`` cards home, replayed first."""
    line = list(line)
    check_line(game, line, home)
    return Solution(WON if home == setup.total else UNKNOWN, home, line, nodes, setup.seconds())


def beam_restarts(game, finish, seconds, max_nodes=0):
    """``beam_search`` (its ends searched by ``finish``) of
    ``BEAM_FIRST_WIDTH`` positions a layer, then twice as wide each time,
    with noise from ``BEAM_SEED``, until a win, ``seconds``, or
    ``max_nodes`` positions in all (0: no limit); the best of them. A
    narrow search costs a fraction of a wider one, and most positions need
    no wide one."""
    started = clock()
    best = None
    nodes = 0
    width = BEAM_FIRST_WIDTH
    while True:
        left = seconds - (clock() - started)
        if left <= 0 or (max_nodes and nodes >= max_nodes):
            break
        budget = max_nodes - nodes if max_nodes else 0
        found = beam_search(game, finish, left, budget, width, BEAM_SEED)
        nodes += found.nodes
        if best is None or found.home > best.home:
            best = found
        if found.result == WON:
            break
        width *= 2
    if best is None:
        best = Solution(UNKNOWN, game.score(), [], 0, 0)
    best.nodes = nodes
    best.seconds = clock() - started
    return best
