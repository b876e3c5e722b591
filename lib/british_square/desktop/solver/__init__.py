"""The solver: the most cards a position can still bring home, and whether all.

``solve(game, seconds)`` runs depth-first searches over the positions
reachable from ``game`` (on a copy, with ``Game.apply`` / ``Game.retract``)
and returns a ``Solution``: ``WON`` with a line of moves that brings every
card home, ``LOST`` when the search was complete and no line does (``home``
is then the exact maximum, except in British Square, where a search that
cuts dead ends decides and ``home`` is the best line found unless the
search for the best line finished too), or ``UNKNOWN`` when the budget ran
out first (``home`` is the best line found). Every line it returns is
replayed through ``Game.play`` from the start position before it is reported.

This module splits the budget among the searches (``solve``, ``best_line``)
and holds the depth-first one (``search``). The others are a module each:
``greedy`` (American: noisy best-first restarts, which only find wins),
``beam`` (American, past ``GREEDY_MOST`` positions of those: beam searches
along the stock, which only find wins too),
``rollouts`` (British Square: nested rollouts, which only find wins too),
``dead_ends`` (``cannot_win``, British Square), ``moves`` (the key of a
position and the moves tried from it), ``solution`` (what a search starts
from and returns: ``Solution``, the verdicts, ``check_line``).

Desktop code in the CircuitPython subset (no recursion, no dataclasses), but
nothing on the board imports it: its table of positions needs the desktop's
memory. Each pruning keeps the search exact: the verdict and the best
score are those of a plain search of every position (tests/test_solver.py
checks that on many small positions), and each says why next to its code.

1. Transposition table of exact keys (``position_key``), never a hash alone,
   so a "lost" never rests on a collision. A position met again adds nothing
   (``search`` skips it): if it is on the current path, everything
   reachable from it is reachable from its first visit, which is still
   being searched; if its search is done, every score below it was seen
   (but in dead ends ``won_only`` cut, which cannot win), and the best only
   grows.
2. Symmetry (``moves``): the key sorts the columns, and of several empty
   columns only the first is tried.
3. Safe foundation moves (``moves.safe_move``): a card its foundation wants
   while that foundation is going down (13 or more cards home) is sent home
   at once and no other move is tried.
4. Dead ends (``dead_ends.cannot_win``, British Square): a count of the cards
   that must be in the four columns at one moment of any winning line (the
   moment before a waste card leaves, for each number of stock cards dealt
   by then: those dealt count, those still in the stock block their suits),
   against what four columns can hold (three when it can only leave into a
   space), proves most British positions lost once a few cards are dealt;
   a search that cuts them (``won_only``) settles British deals in seconds.
   It decides won or lost, not the best score, so ``solve`` looks for the
   best line separately.
"""

from british_square.desktop.solver.beam import beam_restarts
from british_square.desktop.solver.dead_ends import cannot_win
from british_square.desktop.solver.greedy import GREEDY_MOST, GREEDY_SHARE, greedy, greedy_restarts
from british_square.desktop.solver.moves import (
    ENGINE_ORDER,
    ORDERS,
    SOLVER_ORDER,
    children,
    position_key,
)
from british_square.desktop.solver.rollouts import nested_rollouts
from british_square.desktop.solver.solution import (
    CLOCK_EVERY,
    LOST,
    UNKNOWN,
    VERDICTS,
    WON,
    Setup,
    Solution,
    check_line,
    clock,
)
from british_square.piles import BRITISH, STOCK

__all__ = [
    "ENGINE_ORDER",
    "LOST",
    "ORDERS",
    "PLAIN_LINE_NODES",
    "SOLVER_ORDER",
    "SOLVER_VERSION",
    "UNKNOWN",
    "VERDICTS",
    "WON",
    "Solution",
    "best_line",
    "cannot_win",
    "check_line",
    "greedy",
    "line_restarts",
    "position_key",
    "search",
    "solve",
    "solve_plain",
]

# Written into every survey record, so results of a better solver can be
# told from older ones in the same file (records without it are version 1).
# 2: a deal not won also gets the plain search's line (PLAIN_LINE_NODES).
# 3: ``cannot_win`` also tries each waste card's way out (``dead_ends``).
# 4: ``cannot_win`` counts the stock cards not yet dealt like those under Y,
#    for every number of cards dealt before Y leaves, and tries every Y.
# 5: British lines get the whole budget left after the proof, in restarts of
#    several move orders (``line_restarts``); the plain line runs in each order.
# 6: British wins are hunted by nested rollouts (``rollouts``) between a short
#    proof and the proof with its whole share; their line, when longer, is
#    where the line search starts. No proof changed.
# 7: American greedy restarts stop at ``GREEDY_MOST`` positions and beam
#    searches (``beam``) get the rest of their share. Budgets below about
#    2.2 million positions search as version 6 did. No proof changed.
SOLVER_VERSION = 7

# Par is a target the board shows, so it must be at least what a plain
# depth-first search finds in a few seconds: the searches here order moves
# to find wins and proofs, and a British line search that gets what the
# proof leaves of a short budget can still fall short of a plain search in
# another order. A survey
# therefore also runs ``solve_plain`` on each deal it does not win, for this
# many positions (about 4 s; a count, not seconds, so the same on every
# machine and every run), and keeps the better line.
PLAIN_LINE_NODES = 600_000

# Before the complete search, short searches hunt for a win among lines that
# never move cards between columns more than ``limit`` times in a row (a
# 16-pile game otherwise wanders for ever among rearrangements). A depth-first
# search that buried a card it needed early on never comes back to that
# choice in time, so the hunts are many short restarts (the first with the
# plain move order, then with shuffled ties) rotating through the limits.
# They prove nothing. British Square is (almost) never won: it hunts briefly
# and gives the complete search, which can prove a loss, most of its time.
HUNT_LIMITS = (12, 6, 16, 8, 24, 4)
HUNT_FIRST_SECONDS = 0.15  # each limit once, in the plain order
HUNT_SECONDS = 0.05  # each shuffled restart
# The same as counts, for a budget of positions (``nodes``): what those
# seconds look at, about 20 000 positions a second on CPython.
HUNT_FIRST_NODES = 3000
HUNT_NODES = 1000
HUNT_SHARE = 0.7
# British Square is settled first by a search that cuts every position
# ``cannot_win`` proves lost (it proves deals lost in seconds that the plain
# search needs minutes for); then everything left goes to ``line_restarts``
# for the best line (the exact best when one of its searches finishes, as on
# small positions). Before solver version 5 the line got only 5% of the
# budget, and a plain search in another order beat it (deal 12102: 18 cards
# against 25).
BRITISH_HUNT_SHARE = 0.1  # of a line search left with no verdict
# A British position the proof has not settled in a short first search
# (``BRITISH_QUICK_PROOF_SHARE`` of the budget: 0.5 s of ``solve``'s default
# 10 s settles about two deals in three on CPython, and small positions) is
# more likely winnable than a deal the proof
# settles (deals take 0.01-11 s at 1 400-3 500 positions a second). Nested
# rollouts (``rollouts``) then hunt for its win for ``BRITISH_ROLLOUT_SHARE``:
# on a winnable position they mostly win in a second or two, where the proof
# search can wander for its whole share without the win. Then the proof
# starts again with its whole share, ``BRITISH_PROOF_SHARE``, as it had
# before the rollouts came; the first search costs it nothing but its own
# share. ``proof_only`` (the census) gives one proof the whole budget.
BRITISH_QUICK_PROOF_SHARE = 0.05
BRITISH_ROLLOUT_SHARE = 0.2
BRITISH_PROOF_SHARE = 0.7

# ``line_restarts``: depth-first searches in turn in the solver's order, the
# engine's and the solver's with shuffled ties, each for this many positions
# in the first round and twice as many in each round after, keeping the best
# line. Which order finds the longer line differs from deal to deal, and a
# search that took a poor turn early never comes back to it: restarts do.
LINE_FIRST_NODES = 20_000
LINE_ORDERS = ((SOLVER_ORDER, False), (ENGINE_ORDER, False), (SOLVER_ORDER, True))


def solve(
    game, seconds=10.0, max_nodes=0, hunt_share=None, proof_only=False, nodes=0, **switches
):
    """The most cards ``game``'s position (not touched) can bring home.

    For British Square a search that cuts what ``cannot_win`` proves lost
    decides won or lost: for ``BRITISH_QUICK_PROOF_SHARE`` of the budget,
    then, unsettled, after nested rollouts have hunted for a win for
    ``BRITISH_ROLLOUT_SHARE``, again from the start for
    ``BRITISH_PROOF_SHARE`` (``proof_only``: one proof for all of the
    budget, and nothing after: the census's par comes later).
    ``line_restarts`` then looks for the best line for the rest of the
    budget (``best_line`` while the verdict is still open). The other rule
    sets go to ``best_line`` at once.

    The budget is ``seconds``, or with ``nodes`` that many positions, split
    in the same shares, and ``seconds`` only an outer guard: the same
    verdict and line on any machine. ``max_nodes`` caps each proof's
    positions and, apart, the rollouts' and the line search's (0: no
    limit); ``switches`` turn prunings off for the tests (see ``search``)."""
    if game.rules != BRITISH:
        return best_line(game, seconds, max_nodes, hunt_share, nodes=nodes, **switches)
    started = clock()

    def share(fraction):  # (seconds, positions) of a share of the budget
        if not nodes:
            return seconds * fraction, max_nodes
        count = max(1, int(nodes * fraction))
        return seconds - (clock() - started), min(count, max_nodes) if max_nodes else count

    if proof_only:
        return search(game, *share(1.0), won_only=True, **switches)
    settled = search(game, *share(BRITISH_QUICK_PROOF_SHARE), won_only=True, **switches)
    if settled.result == UNKNOWN:
        hunted = nested_rollouts(game, *share(BRITISH_ROLLOUT_SHARE))
        if hunted is not None and hunted.result == WON:
            hunted.nodes += settled.nodes
            hunted.seconds = clock() - started
            return hunted
        whole, cap = share(BRITISH_PROOF_SHARE)
        if not (cap and settled.nodes >= cap):  # else it would only repeat
            first = settled.nodes
            settled = search(game, whole, cap, won_only=True, **switches)
            settled.nodes += first
        if hunted is not None:
            settled.nodes += hunted.nodes
            if hunted.home > settled.home:  # the line search starts from the longer line
                settled.home = hunted.home
                settled.moves = hunted.moves
    left = max(0.0, seconds - (clock() - started))
    cap = max_nodes
    if nodes:  # what the searches so far left of the positions
        cap = nodes - settled.nodes
        if cap <= 0:
            left, cap = 0.0, 1  # none: no search (with no time, each returns at once)
    used = settled.nodes  # line_restarts with no time left returns ``settled`` itself
    if settled.result == WON:
        best = settled
    elif settled.result == LOST:
        best = line_restarts(game, left, cap, settled, **switches)
        if best.result == WON:  # cannot_win was wrong: never let it pass
            raise AssertionError("cannot_win cut a won position")
        best.result = LOST  # the verdict stands; the line is the best of all
        best.nodes += used
    else:  # no verdict: a win may still be found without the cut
        counted = cap if nodes else 0
        best = best_line(game, left, max_nodes, hunt_share, nodes=counted, **switches)
        if settled.home > best.home:
            best.home = settled.home
            best.moves = settled.moves
        best.nodes += used
    best.seconds = clock() - started
    return best


def line_restarts(game, seconds=10.0, max_nodes=0, start=None, **switches):
    """The best line from ``game`` by restarts (``LINE_ORDERS``, each
    round's searches twice as long as the last's) for ``seconds`` or
    ``max_nodes`` positions in all (0: no limit), starting from ``start``'s
    line if given. A search that finishes is complete: its verdict and best
    are exact, and the restarts stop there."""
    started = clock()
    best = start
    nodes = 0
    size = LINE_FIRST_NODES
    round_number = 0
    while True:
        for order, shuffled in LINE_ORDERS:
            left = seconds - (clock() - started)
            cap = size if not max_nodes else min(size, max_nodes - nodes)
            if left <= 0 or cap <= 0:
                return _line_found(best, game, nodes, started)
            seed = round_number if shuffled else None
            found = search(game, left, cap, best, order=order, seed=seed, **switches)
            nodes += found.nodes
            best = found  # it started from the best line so far: never worse
            if found.result != UNKNOWN:
                return _line_found(best, game, nodes, started)
        size *= 2
        round_number += 1


def _line_found(best, game, nodes, started):
    if best is None:  # no search ran: the start position is the line
        best = Solution(UNKNOWN, game.score(), [], 0, 0)
    best.nodes = nodes
    best.seconds = clock() - started
    return best


def best_line(game, seconds=10.0, max_nodes=0, hunt_share=None, nodes=0, **switches):
    """The best line from ``game`` without ``cannot_win``: the most cards
    home, exact when its complete search finishes within the budget.

    For American, noisy greedy restarts first hunt for a win for
    ``GREEDY_SHARE`` of the budget, at most ``GREEDY_MOST`` positions, and
    beam searches (``beam_restarts``) for the rest of that share. Short
    depth-first restarts then hunt for a win until ``hunt_share`` of it
    has gone (default by rule set, ``HUNT_SHARE``); then a complete
    search, starting from the best line found, runs for the rest (or
    ``max_nodes`` positions; 0: no limit). The budget is ``seconds``, or
    with ``nodes`` that many positions (``HUNT_FIRST_NODES`` and
    ``HUNT_NODES`` a hunt), ``seconds`` then only
    an outer guard: the same line on any machine."""
    started = clock()
    if hunt_share is None:
        hunt_share = BRITISH_HUNT_SHARE if game.rules == BRITISH else HUNT_SHARE

    def left_of(fraction, spent):  # (seconds, positions) left of a share of the budget
        if not nodes:
            return seconds * fraction - (clock() - started), max_nodes
        count = int(nodes * fraction) - spent
        return (seconds - (clock() - started) if count > 0 else 0.0), max(1, count)

    greedy_share = GREEDY_SHARE.get(game.rules, 0.0)
    best = None
    if greedy_share:  # (``max_nodes`` caps the depth-first searches alone)
        left, count = left_of(greedy_share, 0) if nodes else (seconds * greedy_share, 0)
        best = greedy_restarts(game, left, min(count, GREEDY_MOST) if count else GREEDY_MOST)
    used = best.nodes if best is not None else 0
    if best is not None and best.result != WON and used >= GREEDY_MOST:
        beamed = beam_restarts(game, search, *left_of(greedy_share, used))
        used += beamed.nodes
        if beamed.home > best.home:
            best = beamed
    if best is not None and best.result == WON:
        best.nodes = used
        best.seconds = clock() - started
        return best
    hunt = 0
    spent = []  # limits whose whole (limited) space a hunt has searched
    while len(spent) < len(HUNT_LIMITS):
        left, cap = left_of(hunt_share, used)
        if left <= 0:
            break
        first = hunt < len(HUNT_LIMITS)
        limit = HUNT_LIMITS[hunt % len(HUNT_LIMITS)]
        if limit in spent:
            hunt += 1
            continue
        if nodes:
            cap = min(cap, HUNT_FIRST_NODES if first else HUNT_NODES)
        else:
            left = min(HUNT_FIRST_SECONDS if first else HUNT_SECONDS, left)
        found = search(
            game, left, cap, best, shuffle_limit=limit, seed=None if first else hunt, **switches
        )
        hunt += 1
        used += found.nodes
        best = found if best is None or found.home > best.home else best
        if found.result != UNKNOWN:  # won, or lost without the limit ever cutting
            best = found
            break
        if found.exhausted:
            spent.append(limit)
    if best is None or best.result == UNKNOWN:
        left, cap = left_of(1.0, used)
        found = search(game, max(0.0, left), cap, best, **switches)
        used += found.nodes
        if best is None or found.home >= best.home:
            best = found
        else:  # the hunt's line stays the best; the complete search's verdict counts
            best = Solution(found.result, best.home, best.moves, 0, 0)
    best.nodes = used
    best.seconds = clock() - started
    return best


def search(
    game,
    seconds=10.0,
    max_nodes=0,
    start=None,
    symmetric=True,
    safe_moves=True,
    shuffle_limit=0,
    seed=None,
    won_only=False,
    order=SOLVER_ORDER,
):
    """One depth-first search from ``game`` (not touched) for the line
    bringing the most cards home; stop at a win, after ``seconds``, or after
    ``max_nodes`` positions (0: no limit). ``start``, a ``Solution`` found
    before, is the best to beat. ``shuffle_limit``
    makes it a hunt: at most that many moves between columns in a row (if
    the limit ever cut a move, its "lost" proves nothing: ``UNKNOWN``).
    ``won_only`` cuts every position ``cannot_win`` proves lost, tried after
    each card from the stock (the waste grows only then): a complete search
    then proves "no win", but its ``home`` is the best found, not the most
    possible. The pruning switches exist for the tests that compare each
    with the plain search (all off, ``solve_plain``). ``order`` is one of
    ``ORDERS`` (``seed`` shuffles the solver's order's ties instead)."""
    setup = Setup(game, seconds, max_nodes, seed, symmetric)
    g, total, buffer, seen, rng = setup.game, setup.total, setup.buffer, setup.seen, setup.rng
    best = g.score()
    line = []
    if start is not None and start.home > best:
        best = start.home
        line = start.moves
    path = []  # (move, undo flag) from the start
    frames = []  # per expanded position: [moves, next index]
    nodes = 1
    complete = True
    limited = False  # the shuffle limit cut a move: no proof of a loss
    if best < total and not (won_only and cannot_win(g)):
        frames.append([children(g, buffer, symmetric, safe_moves, rng, order), 0])
    shuffles = [0]  # per depth: column-to-column moves in a row up to it
    while frames:
        frame = frames[-1]
        moves = frame[0]
        if frame[1] == len(moves):
            frames.pop()
            if path:
                m, flag = path.pop()
                g.retract(m, flag)
                shuffles.pop()
            continue
        m = moves[frame[1]]
        frame[1] += 1
        in_a_row = shuffles[-1] + 1 if (m >> 8) < STOCK and (m & 0xFF) < STOCK else 0
        if shuffle_limit and in_a_row > shuffle_limit:
            limited = True
            continue
        flag = g.apply(m)
        key = position_key(g, symmetric)
        if key in seen:  # pruning 1
            g.retract(m, flag)
            continue
        seen.add(key)
        nodes += 1
        path.append((m, flag))
        shuffles.append(in_a_row)
        score = g.score()
        if score > best:
            best = score
            line = [step[0] for step in path]
            if best == total:
                break
        if nodes % CLOCK_EVERY == 0 and setup.spent(nodes):
            complete = False
            break
        if won_only and (m >> 8) == STOCK and cannot_win(g):  # pruning 4
            path.pop()
            shuffles.pop()
            g.retract(m, flag)
            continue
        frames.append([children(g, buffer, symmetric, safe_moves, rng, order), 0])
    if best == total:
        result = WON
    elif complete and not limited:
        result = LOST
    else:
        result = UNKNOWN
    check_line(game, line, best)
    return Solution(result, best, line, nodes, setup.seconds(), complete)


def solve_plain(game, seconds=10.0, max_nodes=0, order=SOLVER_ORDER):
    """The plain search every pruning is checked against: exact keys of the
    position as it is (no symmetry), every legal move, in ``order``."""
    return search(game, seconds, max_nodes, symmetric=False, safe_moves=False, order=order)
