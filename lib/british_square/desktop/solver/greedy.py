"""Greedy restarts (American): best-first searches on a guess of how
promising a position is (``estimate``), each short and, after the first,
with noise. They only find wins, each line replayed like any other, and
never report a loss, so they need no soundness argument; the complete
search still decides losses. British Square's win hunt, nested rollouts
(``rollouts``), dives on the same estimate."""

import heapq

from british_square.desktop.solver.moves import ordered_moves, position_key
from british_square.desktop.solver.solution import (
    UNKNOWN,
    WON,
    Setup,
    Solution,
    check_line,
    clock,
    restore,
    snapshot,
)
from british_square.piles import AMERICAN, COLUMN_CAPACITY, FOUNDATION, STOCK, WASTE
from british_square.search import safe_move

# American is won far more often by a noisy greedy search than by the
# depth-first hunts: a best-first search on ``estimate`` that, after
# ``GREEDY_NODES`` positions, starts again with a little random noise added to
# every score (``GREEDY_NOISE``; a card home scores 10). A wrong early
# choice then costs one short restart, not the rest of the budget. It proves
# nothing: it only finds won lines, replayed like every other line.
# On American deals 1-50 they alone won in 10 s every deal the depth-first
# hunts had won (19) and all 31 they had not, so they get most of the budget.
# Restarts of 1000 positions with noise 15 won 34 of those deals in 0.32 M
# positions; 2000 and 10 needed 0.42 M for 7 of the hardest 8; without
# noise (and without the stock term), one long run won 1 of 5.
# ``HUNT_SHARE`` counts from the start, so American's depth-first hunts get
# no time and its complete search the last tenth.
GREEDY_SHARE = {AMERICAN: 0.9}  # of the budget, by rule set; others skip it
GREEDY_NODES = 1000
GREEDY_NOISE = 15.0
# Past this many positions the restarts have stopped winning (the dearest
# American win they found took 1 988 105, deal 8394): what is left of their
# share goes to the beam search (``beam``), which looks along the stock.
GREEDY_MOST = 2_000_000


def estimate(g):
    """How promising a position looks (higher is better): cards home first;
    less a card for each card lying over a same-suit card its foundation
    wants earlier (it must find a column before that card can go home);
    plus empty columns (only they take a waste card freely) and cards dealt
    (a line that never deals never wins). ``greedy`` keeps the count of
    such cards up to date column by column instead."""
    blocked = _blocked(g.waste, 0, g.waste_count, g.foundations)
    for c in range(g.columns):
        blocked += _column_blocked(g, c)
    return _weigh(g, blocked)


def _weigh(g, blocked):
    """``estimate`` of ``g`` given its count of ``blocked`` cards. Weights
    from American deals 201-300: block 3 and stock 3 needed a median of
    3900 positions to win (98 won), 4 and 2 a median of 1160 (all 100)."""
    f = g.foundations
    home = f[0] + f[1] + f[2] + f[3]
    return 10 * home - 4 * blocked + 2 * g.height.count(0) - 2 * g.stock_count


def _column_blocked(g, c):
    h = g.height[c]
    if h < 2:
        return 0
    start = c * COLUMN_CAPACITY
    return _blocked(g.cells, start, start + h, g.foundations)


def _blocked(stack, start, end, f):
    """Cards of ``stack[start:end]`` (bottom first) over a same-suit card
    that goes home before them: by rank in the up half while the foundation
    has not passed it, else in the down half (the earlier time of the two
    copies, so it is a guess, not a bound)."""
    low = [99, 99, 99, 99]  # per suit: the earliest time under the card
    count = 0
    for i in range(start, end):
        v = stack[i]
        s = v // 13
        r = v % 13 + 1
        t = r if f[s] < r else 27 - r
        if t > low[s]:
            count += 1
        elif t < low[s]:
            low[s] = t
    return count


def greedy(game, seconds=10.0, max_nodes=0, seed=None, noise=GREEDY_NOISE):
    """One best-first search from ``game`` (not touched) on ``estimate``,
    with up to ``noise`` from ``seed`` (None: none), for ``seconds`` or
    ``max_nodes`` expanded positions. ``WON``
    with its line, or ``UNKNOWN`` with the line bringing the most cards
    home: it never proves a loss."""
    setup = Setup(game, seconds, max_nodes, seed)
    g, total, buffer, seen, rng = setup.game, setup.total, setup.buffer, setup.seen, setup.rng
    # the tree of positions met: parent and move per node; a node's position
    # is kept (``snapshot``) only once it is expanded
    parents = [-1]
    moves_of = [0]
    snaps = [snapshot(g)]
    heap = [(0, 0, 0)]  # (-score, -order met, node): ties go to the newest
    met = 0
    best = g.score()
    best_node = 0
    nodes = 0
    won = best == total
    while heap and not won:
        node = heapq.heappop(heap)[2]
        if node:
            restore(g, snaps[parents[node]])
            g.apply(moves_of[node])
            snaps[node] = snapshot(g)
        nodes += 1
        if nodes % 64 == 0 and setup.spent(nodes):
            break
        count = g.legal_moves(buffer)
        safe = safe_move(g, buffer, count)
        # the blocked cards of this position, by column and in the waste: a
        # move changes only its source's and target's (all, when a card goes
        # home: the foundation changes which cards are blocked)
        f = g.foundations
        per_column = [_column_blocked(g, c) for c in range(g.columns)]
        blocked_here = sum(per_column)
        waste_blocked = _blocked(g.waste, 0, g.waste_count, f)
        blocked_here += waste_blocked
        for m in [safe] if safe >= 0 else ordered_moves(g, buffer, count, True):
            flag = g.apply(m)
            key = position_key(g)
            if key not in seen:
                seen.add(key)
                parents.append(node)
                moves_of.append(m)
                snaps.append(None)
                score = g.score()
                if score > best:
                    best = score
                    best_node = len(parents) - 1
                    won = best == total
                met += 1
                source = m >> 8
                target = m & 0xFF
                if target == FOUNDATION:
                    value = estimate(g)
                else:
                    blocked = blocked_here
                    if source < STOCK:
                        blocked += _column_blocked(g, source) - per_column[source]
                    if target < STOCK:
                        blocked += _column_blocked(g, target) - per_column[target]
                    if source == WASTE or target == WASTE:
                        blocked += _blocked(g.waste, 0, g.waste_count, f) - waste_blocked
                    value = _weigh(g, blocked)
                if rng is not None:
                    value += rng.random() * noise
                heapq.heappush(heap, (-value, -met, len(parents) - 1))
            g.retract(m, flag)
            if won:
                break
    line = []
    node = best_node
    while node > 0:
        line.append(moves_of[node])
        node = parents[node]
    line.reverse()
    check_line(game, line, best)
    # no position left unexpanded: every restart would search the same space
    exhausted = not heap and not won
    return Solution(WON if won else UNKNOWN, best, line, nodes, setup.seconds(), exhausted)


def greedy_restarts(game, seconds, max_nodes=0):
    """``greedy`` runs of ``GREEDY_NODES`` positions, the first without noise,
    until a win, ``seconds``, ``max_nodes`` positions in all (0: no limit),
    or a run that met every position; the best of them (None if no time)."""
    started = clock()
    best = None
    nodes = 0
    restart = 0
    while True:
        left = seconds - (clock() - started)
        if left <= 0 or (max_nodes and nodes >= max_nodes):
            break
        found = greedy(game, left, GREEDY_NODES, restart if restart else None)
        restart += 1
        nodes += found.nodes
        if best is None or found.home > best.home:
            best = found
        if found.result == WON or found.exhausted:
            break
    if best is not None:
        best.nodes = nodes
    return best
