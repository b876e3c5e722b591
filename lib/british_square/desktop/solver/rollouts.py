"""Nested rollouts (British Square): a nested Monte Carlo search of level one
whose rollouts are greedy dives on ``greedy.estimate``. They only find wins, each
line replayed like any other, and never report a loss, so they need no
soundness argument; the complete search still decides losses.

A pass walks from the start one move at a time. At each position it dives
from every move (``dive``: the move the estimate likes best, again and
again, to a dead end) and plays the first move of the best line any dive
has found so far, or, while no dive has beaten it, the move whose dive went
furthest. A best-first search on the same estimate (``greedy``) chooses
each move on what the position looks like one move on; a pass chooses it on
where a whole line from it ends. Passes after the first add noise to every
estimate, so each dives along other lines.
"""

from british_square.desktop.solver.greedy import estimate
from british_square.desktop.solver.moves import children, position_key
from british_square.desktop.solver.solution import UNKNOWN, WON, Setup, Solution, check_line, clock

# Noise of up to this much on each estimate after the first pass (a card home
# is 10). Full British layouts built winnable, 0-95 (94 of them), given
# 1.25 s each in PyPy: noise 10 won 47, 20 and 30 won 63, 60 won 58.
ROLLOUT_NOISE = 30.0
# A dive stops after this many moves: a winning line is about 200, and
# moves between columns could otherwise go on without repeating a position.
DIVE_LIMIT = 400


def dive(g, avoid, buffer, rng=None, noise=0.0):
    """From ``g`` (restored after), the move whose position ``greedy.estimate``
    likes best (plus up to ``noise`` from ``rng``), again, until no move
    leads to a position not met on the dive or in ``avoid``, or
    ``DIVE_LIMIT`` moves. The most cards home on the way, the moves to
    them, and the positions looked at."""
    met = set()
    path = []  # (move, undo flag)
    best = g.score()
    best_length = 0
    looked = 0
    total = g.score() + g.cards_left()
    while len(path) < DIVE_LIMIT and best < total:
        fresh = []  # the moves to positions not met
        for m in children(g, buffer, True, True):
            flag = g.apply(m)
            key = position_key(g)
            if key not in met and key not in avoid:
                fresh.append(m)
            g.retract(m, flag)
            looked += 1
        if not fresh:
            break
        chosen = fresh[0]
        if len(fresh) > 1:  # most often there is one: it needs no estimate
            chosen_value = None
            for m in fresh:
                flag = g.apply(m)
                value = estimate(g)
                if rng is not None:
                    value += rng.random() * noise
                if chosen_value is None or value > chosen_value:
                    chosen = m
                    chosen_value = value
                g.retract(m, flag)
        path.append((chosen, g.apply(chosen)))
        met.add(position_key(g))
        if g.score() > best:
            best = g.score()
            best_length = len(path)
    line = [m for m, _ in path[:best_length]]
    for m, flag in reversed(path):
        g.retract(m, flag)
    return best, line, looked


def nested_rollouts(game, seconds, max_nodes=0):
    """Passes of nested rollouts from ``game`` (not touched), the first
    without noise and each after it with the next seed, until a win,
    ``seconds``, or ``max_nodes`` positions looked at in all (0: no
    limit): the pass that brought the most cards home (None if no time)."""
    started = clock()
    best = None
    nodes = 0
    passes = 0
    while best is None or best.result != WON:
        left = seconds - (clock() - started)
        if left <= 0 or (max_nodes and nodes >= max_nodes):
            break
        seed = passes if passes else None  # the first pass: no noise
        found = rollout_pass(game, left, max_nodes - nodes if max_nodes else 0, seed)
        passes += 1
        nodes += found.nodes
        if best is None or found.home > best.home:
            best = found
        if not found.nodes:  # no move from the start: no pass finds more
            break
    if best is not None:
        best.nodes = nodes
        best.seconds = clock() - started
    return best


def rollout_pass(game, seconds, max_nodes=0, seed=None):
    """One pass from ``game`` (not touched), with noise from ``seed`` (None:
    none), for ``seconds`` or ``max_nodes`` positions looked at."""
    setup = Setup(game, seconds, max_nodes, seed)
    g, buffer, rng, total = setup.game, setup.buffer, setup.rng, setup.total
    walked = setup.seen  # the positions of the pass's own line: no dive comes back
    played = []
    best = g.score()
    line = []  # the best line any dive found, from the start
    on_line = True  # every move played so far is ``line``'s
    nodes = 0
    while best < total and not setup.spent(nodes):
        furthest_move = -1  # the move whose dive brought the most cards home
        furthest_home = -1
        for m in children(g, buffer, True, True):
            flag = g.apply(m)
            key = position_key(g)
            if key not in walked:
                walked.add(key)
                home, rest, looked = dive(g, walked, buffer, rng, ROLLOUT_NOISE)
                walked.discard(key)
                nodes += looked + 1
                if home > best:
                    best = home
                    line = played + [m] + rest
                    on_line = True
                if home > furthest_home:
                    furthest_move = m
                    furthest_home = home
            g.retract(m, flag)
            if best == total:
                break
        if best == total or furthest_move < 0:
            break
        if on_line and len(line) > len(played):
            m = line[len(played)]
        else:  # no dive has beaten the line played: the furthest dive's move
            m = furthest_move
            on_line = False
        g.apply(m)
        walked.add(position_key(g))
        played.append(m)
    check_line(game, line, best)
    return Solution(WON if best == total else UNKNOWN, best, line, nodes, setup.seconds())
