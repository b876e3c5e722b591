"""A solver: the most cards a position can still bring home, and whether all.

``solve(game, seconds)`` runs a depth-first branch and bound over the
positions reachable from ``game`` (on a copy, with ``Game.apply`` /
``Game.retract``) and returns a ``Solution``: ``WON`` with a line of moves that
brings every card home, ``LOST`` when the search was complete and no line
does (``home`` is then the exact maximum, except in British Square, where a
search that cuts dead ends decides and ``home`` is the best line found unless
the search for the best line finished too), or ``UNKNOWN`` when the budget
ran out first (``home`` is the best line found). Every line it returns is
replayed through ``Game.play`` from the start position before it is reported.

For American, ``greedy`` searches first: short best-first restarts guided by a
guess of how promising a position is (``_estimate``), with noise. They only
find wins (each replayed like any line) and never report a loss, so they need
no soundness argument; the complete search below still decides losses.

Desktop code in the CircuitPython subset (no recursion, no dataclasses), but
nothing on the board imports it: its table of positions needs the desktop's
memory. Each pruning below keeps the search exact: the verdict and the best
score are those of a plain search of every position (tests/test_solver.py
checks that on many small positions), and each says why in a comment.

1. Transposition table of exact keys (``position_key``), never a hash alone,
   so a "lost" never rests on a collision. A position met again adds nothing:
   if it is on the current path, everything reachable from it is reachable
   from its first visit, which is still being searched; if its search is done,
   every score below it was seen or cut by a bound at most the best score
   then, and the best only grows.
2. Symmetry. The columns (British Square's four, the sixteen piles) obey the
   same rules, so permuting them changes nothing reachable but the letters:
   the key sorts the columns. Of several empty columns a card may go to, only
   the first is tried, for the same reason. The two decks are merged at the
   root: a card is one value for both copies (cards.py), so positions that
   differ only by which copy lies where are one position.
3. Safe foundation moves (``_safe_move``): a card its foundation wants while
   that foundation is going down (13 or more cards home) is sent home at once
   and no other move is tried; the argument is at ``_safe_move``.
4. A bound (``home_bound``): an upper limit on the cards the position can
   still bring home, from an over-approximation of which cards can ever go
   home (stacks give cards back only from the top; a foundation takes its
   cards in one order; a card that can never be put on a column must go home
   before anything under it moves). A position whose bound, or an
   ancestor's, is at most the best score found is not expanded. It is off
   by default (``bound=True`` turns it on): on British Square positions it
   cuts the positions searched 1.4-16 times, but costs 15-25 positions' time
   in CPython, so the plain search proves the same losses sooner. Cutting
   every position whose bound is below a win (not below the best score)
   does not change that: on British deals 1-10 played (the survey's lines)
   until 60 cards are left in the stock, the bound after every move cut
   deal 9's positions 3 times but ran at 3,000 positions a second against
   90,000; computed only after the deal that empties the stock, it never
   cut on deal 1's position. Its escape is
   the empty column: once one can come, every waste card may move.
5. Dead ends (``cannot_win``, British Square): a count of the cards that
   must be in the four columns at one moment of any winning line, against
   what four columns can hold, proves most British positions lost once the
   waste has grown; a search that cuts them (``won_only``) settles British
   deals in seconds. It decides won or lost, not the best score, so
   ``solve`` looks for the best line separately.
"""

import heapq
import time

from british_square.engine import (
    AMERICAN,
    BRITISH,
    COLUMN_CAPACITY,
    FOUNDATION,
    MAX_MOVES,
    STOCK,
    UNION,
    WASTE,
    Game,
)

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"

# Time is read once per this many positions: a clock call costs more than a position.
_CLOCK_EVERY = 256

# Budgets are in seconds of this thread's processor time where the platform
# counts it (CPython): a busy machine then does not cut a search short.
_clock = getattr(time, "thread_time", time.monotonic)


class Solution:
    """What ``solve`` found: ``result`` (``WON``, ``LOST`` or ``UNKNOWN``),
    ``home`` (cards on the foundations at the end of ``moves``), ``moves``
    (move ints from the start position), ``nodes`` (positions expanded) and
    ``seconds``."""

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


def position_key(game, symmetric=True):
    """Exact bytes naming the position of ``game`` up to what cannot matter.

    Each column is its height, its base count and its cards; the waste is its
    length and its cards, after the stock count (the stock's cards follow
    from it: they are dealt in a fixed order and never come back). The
    foundations follow from the rest. Every part starts with its length, so
    two different positions never join to the same bytes. ``symmetric``
    sorts the columns (pruning 2)."""
    cells = game.cells
    height = game.height
    base = game.base
    parts = []
    for c in range(game.columns):
        h = height[c]
        start = c * COLUMN_CAPACITY
        parts.append(bytes((h, base[c])) + cells[start : start + h])
    if symmetric:
        parts.sort()
    wc = game.waste_count
    parts.append(bytes((game.stock_count, wc)) + game.waste[:wc])
    return b"".join(parts)


def _safe_move(game, buffer, count):
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
                return source << 8 | FOUNDATION
    return -1


def _ordered_moves(game, buffer, count, first_empty_only, rng=None):
    """The moves in the order tried: home first, then builds that uncover a
    card, then other builds, then fills, and the deal last. Of the moves of one
    source into empty columns only the first empty column is kept (pruning 2)."""
    home = []
    uncover = []
    build = []
    fill = []
    deal = []
    height = game.height
    base = game.base
    for i in range(count):
        source = buffer[2 * i]
        target = buffer[2 * i + 1]
        m = source << 8 | target
        if target == FOUNDATION:
            home.append(m)
        elif target == WASTE:
            deal.append(m)
        elif not height[target]:
            if first_empty_only and _earlier_empty(height, target):
                continue
            fill.append(m)
        elif source < STOCK and height[source] <= base[source]:
            uncover.append(m)  # a base card leaves: the card under it comes free
        else:
            build.append(m)
    if rng is not None:
        for moves in (home, uncover, build, fill):
            _shuffle(moves, rng)
    return home + uncover + build + fill + deal


def _shuffle(moves, rng):
    """Fisher-Yates, in place (CircuitPython's random has no shuffle)."""
    for i in range(len(moves) - 1, 0, -1):
        j = rng.randrange(i + 1)
        moves[i], moves[j] = moves[j], moves[i]


def _earlier_empty(height, target):
    for c in range(target):
        if not height[c]:
            return True
    return False


# ------------------------------------------------------------------ bound


def home_bound(game):
    """At least as many cards as any line from ``game`` can have home.

    The set of cards that can ever go home is over-approximated by the least
    fixpoint of conditions each card needs, met strictly earlier in time:

    * to leave its stack (column or waste) a card needs every card above it
      to have left before, home or onto a column (the stock is treated as
      free: dealing it only buries more);
    * to go home it needs the cards its foundation wants before it: one copy
      of each lower rank left in the up half, and for a card that can only go
      home in the down half, every card of its suit left above it;
    * to go onto a column it needs an empty column (any card from the waste
      or stock; from a column only in Union Square), or a same-suit card one
      rank away as a column top: one in a column now (not under it in its own
      column), or one that itself can go onto a column from the waste or
      stock first. An empty column needs one now, or a column whose bottom
      card can leave. A card in a column is a top only once every card
      above it has left: it must come free first.

    Any event of a real line meets its condition through earlier events, so
    by induction on time it is in the least fixpoint; cards in a cycle of
    "must come first" (a 3 over the last 2 in the waste, the 3 with nowhere
    to go but home) never enter it. The bound is what the foundations can
    reach, in their one order, with those cards. Directions of building are
    ignored: that only lets more in."""
    ncols = game.columns
    cells = game.cells
    height = game.height
    f = game.foundations
    # occurrences: card value and stack (column, ncols = waste, ncols + 1 = stock)
    card_of = []
    stacks = []  # per stack: occurrence indices, bottom first
    for c in range(ncols):
        start = c * COLUMN_CAPACITY
        first = len(card_of)
        card_of.extend(cells[start : start + height[c]])
        stacks.append(range(first, len(card_of)))
    first = len(card_of)
    card_of.extend(game.waste[: game.waste_count])
    stacks.append(range(first, len(card_of)))
    talon = first  # waste and stock occurrences start here
    card_of.extend(game.stock[: game.stock_count])
    n = len(card_of)
    union = game.rules == UNION
    # the same-suit neighbours in columns a card could be put on: not those
    # under it in its own column (they are never tops while it is there);
    # each needs to come free first
    at = [[] for _ in range(52)]
    column_of = [-1] * n
    for c in range(ncols):
        for o in stacks[c]:
            at[card_of[o]].append(o)
            column_of[o] = c
    near = []  # per value: the column occurrences of its neighbours
    for v in range(52):
        r = v % 13
        near.append((at[v - 1] if r else []) + (at[v + 1] if r < 12 else []))
    targets = [near[v] for v in card_of]
    for c in range(ncols):
        for o in stacks[c]:
            targets[o] = [p for p in targets[o] if column_of[p] != c or p > o]
    left = bytearray(52)
    for o in range(n):
        left[card_of[o]] += 1
    can_home = bytearray(n)
    can_move = bytearray(n)
    free = bytearray(n)
    for o in range(talon + game.waste_count, n):
        free[o] = 1  # the stock: dealt whenever wanted
    movable = bytearray(52)  # copies of a value that can go onto a column from waste or stock
    homeable = bytearray(52)
    up_limit = bytearray(4)
    down_limit = bytearray(4)
    for s in range(4):
        _suit_limits(s, f[s], homeable, left, up_limit, down_limit)
    order = sorted(range(n), key=card_of.__getitem__)
    sweep = order + order[::-1]
    empty_ever = False
    for c in range(ncols):
        if not height[c]:
            empty_ever = True
    state = [empty_ever, False]  # an empty column can come; something changed

    def settle(o):
        """Decide what the free card ``o`` can do, given what is known so far."""
        v = card_of[o]
        if not can_home[o]:
            s = v // 13
            q = v % 13 + 1
            # a rank the up half has still to pass must wait for it; any
            # other card for the down half, after every card left above it
            if q <= up_limit[s] if (q > f[s] and f[s] < 13) else q >= down_limit[s]:
                can_home[o] = 1
                homeable[v] += 1
                state[1] = True
                # the limits move only when this card was the one holding them
                if q == up_limit[s] or (q == down_limit[s] and homeable[v] == left[v]):
                    _suit_limits(s, f[s], homeable, left, up_limit, down_limit)
        if not can_move[o]:
            r = v % 13
            if (
                (state[0] and (o >= talon or union))
                or _any_free(targets[o], free)
                or (r and movable[v - 1])
                or (r < 12 and movable[v + 1])
            ):
                can_move[o] = 1
                state[1] = True
                if o >= talon:
                    movable[v] += 1

    state[1] = True
    while state[1]:
        state[1] = False
        # down each stack while the cards above can leave, deciding as it goes
        for stack in stacks:
            for k in range(len(stack) - 1, -1, -1):
                o = stack[k]
                free[o] = 1
                if not (can_home[o] and can_move[o]):
                    settle(o)
                    if not (can_home[o] or can_move[o]):
                        break
        if not state[0]:
            for c in range(ncols):
                o = stacks[c][0]
                if can_home[o] or can_move[o]:
                    state[0] = state[1] = True
                    break
        # up the ranks, then down: a chain along a foundation or along
        # neighbours is followed in one pass, not one pass per card
        for o in sweep:
            if free[o] and not (can_home[o] and can_move[o]):
                settle(o)
    total = 0
    for s in range(4):
        total += _foundation_reach(s, f[s], homeable, left)
    return total


def _any_free(occurrences, free):
    for p in occurrences:
        if free[p]:
            return True
    return False


def _suit_limits(s, n, homeable, left, up_limit, down_limit):
    """For suit ``s`` at foundation count ``n``: the highest rank the up half
    can come to want (``up_limit``), and the lowest rank above which every
    card left can go home (``down_limit``: a card of that rank or higher can
    be wanted by the down half)."""
    base = s * 13
    up = 14
    if n < 13:
        for r in range(n + 1, 14):
            if not homeable[base + r - 1]:
                up = r
                break
    up_limit[s] = up
    down = 1
    for r in range(13, 0, -1):
        if homeable[base + r - 1] < left[base + r - 1]:
            down = r  # every rank above it is complete: it may be wanted next
            break
    down_limit[s] = down


def _foundation_reach(s, start, homeable, left):
    """How many cards suit ``s``'s foundation (at ``start``) can reach."""
    base = s * 13
    n = start
    while n < 26:
        r = n + 1 if n < 13 else 26 - n
        value = base + r - 1
        # the up half takes one copy; by the end of the down half every copy
        # left at the start must have gone home
        need = 1 if n < 13 else left[value]
        if homeable[value] < need:
            break
        n += 1
    return n


# ------------------------------------------------------------------ dead ends


# Copies of card ``r`` (1-13) of a suit on its foundation when it has ``n``
# cards: one in the up half once ``n >= r``, the other once ``n >= 27 - r``.
_HOME_COPIES = [bytes((n >= r) + (n >= 27 - r) for r in range(1, 14)) for n in range(27)]


def cannot_win(game):
    """True when no line from ``game`` (British Square) brings every card
    home, by a count of what its four columns can hold; False proves nothing.

    Take Y, a card in the waste, F the waste from its bottom up to Y, and T
    the moment before Y leaves the waste in some winning line. At T every
    card of F is still in the waste (under Y). A card X of suit s and rank a
    outside F cannot be home by T when, with s's foundation at n:
    * its up-half place is gone: ``a <= n`` (that copy went home), or some
      rank b with n < b < a has both copies in F (the up half stops at b);
    * and its down-half place too: that needs the whole up half (no such b)
      and every card of s above rank a home first (none in F).
    When only its down-half place is gone, one copy of X can take the up
    half's place by T, not both: if both are counted below (above Y or
    built), one of them is stuck like the others.
    Such a card X that is above Y in the waste now, or a built card of a
    column now, is at T in a column (it left the waste, or never comes back
    to it; nothing returns to the stock). In a column it is either a built
    card or, having filled an empty column from the waste, its base; never
    a dealt base, and a built card never becomes a base: in British Square
    only the waste and the stock fill a space. A column's base top and its
    built cards are one suit, one rank apart each, in one direction: so the
    X cards in one column share a suit, differ in rank, and lie in one
    *segment* of that suit, ranks not split by a rank whose copies are all
    in F or home (each rank between two of them is a card in that column).
    Both copies of a rank in a segment need two columns. A column whose base
    holds such a card B (the topmost, if several) either keeps B in its
    base at T, and then can hold only the segment of its base top, B or a
    base card above it, or lets B go to a column (home it cannot): B then
    counts like X, and the column may hold anything. If no choice of keep
    or let go gives each needed column its own column of the four, there is
    no winning line. tests/test_solver.py checks this against complete
    searches of small positions.

    Only Ys where F gains a rank whose copies are all in F or home, or gains
    both copies of an up-half rank, are tried: between two of those the
    cards to hold only get fewer."""
    return _dead_end(game, None)[0]


def _dead_end(game, before):
    """``cannot_win``'s answer, and when it is False what a check of the
    position one card dealt later can start from. ``before`` is that of the
    position before the last card was dealt (the same columns and
    foundations): then the Ys tried there only gain that card above them,
    and the count goes on from the new top instead of the waste's bottom.
    None: count from the bottom."""
    n = game.waste_count
    if not n or game.rules != BRITISH:
        return False, None
    f = game.foundations
    waste = game.waste
    if before is None:
        cells = game.cells
        base = game.base
        height = game.height
        built = bytearray()
        for c in range(4):
            start = c * COLUMN_CAPACITY
            if height[c] > base[c]:
                built += cells[start + base[c] : start + height[c]]
        home = _HOME_COPIES[f[0]] + _HOME_COPIES[f[1]] + _HOME_COPIES[f[2]] + _HOME_COPIES[f[3]]
        gone = bytearray(home)  # per card value: copies home or in F
        top_rank = [0, 0, 0, 0]  # per suit: the highest rank in F
        stop = [14, 14, 14, 14]  # per suit: the up half's lowest rank with both copies in F
        segment = None
        tried = []  # per Y tried: its stop, top_rank, segment, held, need, total
        first = 0
    else:
        built, home, gone, top_rank, stop, segment, earlier = before
        gone = bytearray(gone)
        top_rank = top_rank[:]
        stop = stop[:]
        x = waste[n - 1]
        tried = []
        for y in earlier:
            y_stop, y_top, y_segment, held, need, total, seen = y
            if _down_half_waits(x, y_stop, y_top):  # else neither stuck nor seen
                held = bytearray(held)
                need = bytearray(need)
                seen = bytearray(seen)
                total = _count_stuck((x,), f, y_stop, y_top, y_segment, held, need, total, seen)
                if total > 4:
                    return True, None
                if total > 1 and not _columns_hold(
                    game, f, y_stop, y_top, y_segment, held, need, total
                ):
                    return True, None
                y = (y_stop, y_top, y_segment, held, need, total, seen)
            tried.append(y)
        first = n - 1
    for j in range(first, n):
        v = waste[j]
        s = v // 13
        r = v % 13 + 1
        gone[v] += 1
        if r > top_rank[s]:
            top_rank[s] = r
        changed = False
        if gone[v] - home[v] == 2 and f[s] < r < stop[s]:
            stop[s] = r
            changed = True
        if gone[v] == 2:
            changed = True
            segment = None
        if not changed:
            continue
        if segment is None:
            # per card value: the first value of its segment
            segment = bytearray(52)
            for x in range(52):
                if gone[x] == 2:
                    segment[x] = x + 1
                elif x % 13:
                    segment[x] = segment[x - 1]
                else:
                    segment[x] = x
        held = bytearray(52)
        need = bytearray(53)
        seen = bytearray(52)
        total = _count_stuck(
            waste[j + 1 : n] + built, f, stop, top_rank, segment, held, need, 0, seen
        )
        if total > 4:
            return True, None
        if total > 1 and not _columns_hold(game, f, stop, top_rank, segment, held, need, total):
            return True, None
        tried.append((stop[:], top_rank[:], segment, held, need, total, seen))
    return False, (built, home, gone, top_rank, stop, segment, tried)


def _count_stuck(cards, f, stop, top_rank, segment, held, need, total, seen):
    """Count the stuck ones of ``cards`` into ``held`` (copies per card) and
    ``need`` (columns per segment: the most copies of one card in it); the
    columns needed in all, from ``total`` (stops past 4). ``seen`` marks the
    cards met once whose up-half place is open but not their down-half one:
    of two such copies one is stuck."""
    for x in cards:
        t = x // 13  # _down_half_waits and more, inline: the check's hot spot
        a = x % 13 + 1
        b = stop[t]
        if b < 14 or top_rank[t] > a:
            if f[t] < a <= b and not seen[x]:
                seen[x] = 1
                continue
            k = held[x] + 1
            held[x] = k
            i = segment[x]
            if k > need[i]:
                total += k - need[i]
                need[i] = k
                if total > 4:
                    return total
    return total


def _down_half_waits(x, stop, top_rank):
    """Does card ``x``'s down-half place need a card of F (``cannot_win``)?
    Only such a card can be stuck, or the first of two copies seen."""
    t = x // 13
    return stop[t] < 14 or top_rank[t] > x % 13 + 1


def _columns_hold(game, f, stop, top_rank, segment, held, need, total):
    """Can the four columns hold ``need`` (columns per segment) and the
    columns' stuck base cards, keeping or letting go each (``cannot_win``)?"""
    cells = game.cells
    base = game.base
    keepers = []  # (stuck base card, bit set of the segments kept it can hold)
    for c in range(4):
        start = c * COLUMN_CAPACITY
        segments = 0
        for i in range(start + base[c] - 1, start - 1, -1):
            x = cells[i]
            segments |= 1 << segment[x]
            t = x // 13  # stuck (cannot_win's two conditions), inline
            a = x % 13 + 1
            b = stop[t]
            if (a <= f[t] or b < a) and (b < 14 or top_rank[t] > a):
                keepers.append((x, segments))
                break
    if total <= 4 - len(keepers):
        return True  # the columns with nothing stuck in their bases hold it all
    units = []  # one entry per column needed: its segment
    for k in range(53):
        if need[k]:
            units.append(k)
            if need[k] == 2:
                units.append(k)
    # the choice that lets every stuck base card go first: no matching to do
    for choice in range((1 << len(keepers)) - 1, -1, -1):
        wanted = units
        kept = []
        added = []  # base cards let go
        for i in range(len(keepers)):
            x, segments = keepers[i]
            if choice >> i & 1:
                # one more column for its segment when it is a further copy
                copies = held[x] + 1 + added.count(x)
                added.append(x)
                if copies > wanted.count(segment[x]):  # wanted holds need, so this is past it
                    if wanted is units:
                        wanted = units[:]
                    wanted.append(segment[x])
            else:
                kept.append(segments)
        if len(wanted) > 4:
            continue
        if not kept or _matched(wanted, kept) >= len(wanted) - (4 - len(kept)):
            return True
    return False


def _matched(columns, kept):
    """How many of ``columns`` (segments) the ``kept`` columns (bit sets of
    segments each can hold, one each) can take at most: augmenting paths."""
    owner = [-1] * len(columns)
    count = 0
    for h in range(len(kept)):
        tried = bytearray(len(columns))
        # an augmenting path, depth-first without recursion
        path = [(h, 0)]
        while path:
            holder, u = path[-1]
            while u < len(columns) and (tried[u] or not kept[holder] >> columns[u] & 1):
                u += 1
            if u == len(columns):
                path.pop()
                continue
            path[-1] = (holder, u + 1)
            tried[u] = 1
            if owner[u] < 0:
                # flip the path: each holder takes the column it reached
                for holder, next_u in path:
                    owner[next_u - 1] = holder
                count += 1
                break
            path.append((owner[u], 0))
    return count


# ------------------------------------------------------------------ greedy


# American is won far more often by a noisy greedy search than by the
# depth-first hunts: a best-first search on ``_estimate`` that, after
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


def _estimate(g):
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
    """``_estimate`` of ``g`` given its count of ``blocked`` cards. Weights
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


def _snapshot(g):
    """The position of ``g`` as one bytes (the stock's cards never change: its count is enough)."""
    wc = g.waste_count
    return (
        bytes(g.cells)
        + bytes(g.height)
        + bytes(g.base)
        + bytes(g.foundations)
        + bytes((g.stock_count, wc))
        + g.waste[:wc]
    )


def _restore(g, snap):
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


def greedy(game, seconds=10.0, max_nodes=0, seed=None):
    """One best-first search from ``game`` (not touched) on ``_estimate``,
    with noise from ``seed`` (None: none), for ``seconds`` or ``max_nodes``
    expanded positions. ``WON`` with its line, or ``UNKNOWN`` with the line
    bringing the most cards home: it never proves a loss."""
    started = _clock()
    deadline = started + seconds
    rng = None
    if seed is not None:
        import random

        rng = random.Random(seed)
    g = Game(game.rules)
    g.copy_position_from(game)
    total = g.score() + g.cards_left()
    buffer = bytearray(2 * MAX_MOVES)
    seen = set()
    seen.add(position_key(g))
    # the tree of positions met: parent and move per node; a node's position
    # is kept (``_snapshot``) only once it is expanded
    parents = [-1]
    moves_of = [0]
    snaps = [_snapshot(g)]
    heap = [(0, 0, 0)]  # (-score, -order met, node): ties go to the newest
    met = 0
    best = g.score()
    best_node = 0
    nodes = 0
    won = best == total
    while heap and not won:
        node = heapq.heappop(heap)[2]
        if node:
            _restore(g, snaps[parents[node]])
            g.apply(moves_of[node])
            snaps[node] = _snapshot(g)
        nodes += 1
        if nodes % 64 == 0 and (_clock() > deadline or (max_nodes and nodes >= max_nodes)):
            break
        count = g.legal_moves(buffer)
        safe = _safe_move(g, buffer, count)
        # the blocked cards of this position, by column and in the waste: a
        # move changes only its source's and target's (all, when a card goes
        # home: the foundation changes which cards are blocked)
        f = g.foundations
        per_column = [_column_blocked(g, c) for c in range(g.columns)]
        blocked_here = sum(per_column)
        waste_blocked = _blocked(g.waste, 0, g.waste_count, f)
        blocked_here += waste_blocked
        for m in [safe] if safe >= 0 else _ordered_moves(g, buffer, count, True):
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
                    value = _estimate(g)
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
                    value += rng.random() * GREEDY_NOISE
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
    return Solution(WON if won else UNKNOWN, best, line, nodes, _clock() - started, exhausted)


def _greedy_restarts(game, seconds):
    """``greedy`` runs of ``GREEDY_NODES`` positions, the first without noise,
    until a win, ``seconds``, or a run that met every position; the best of
    them (None if no time)."""
    started = _clock()
    best = None
    nodes = 0
    run = 0
    while True:
        left = seconds - (_clock() - started)
        if left <= 0:
            break
        found = greedy(game, left, GREEDY_NODES, run if run else None)
        run += 1
        nodes += found.nodes
        if best is None or found.home > best.home:
            best = found
        if found.result == WON or found.exhausted:
            break
    if best is not None:
        best.nodes = nodes
    return best


# ------------------------------------------------------------------ search


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
HUNT_SHARE = 0.7
# British Square is settled first by a search that cuts every position
# ``cannot_win`` proves lost (it proves deals lost in seconds that the plain
# search needs minutes for); then ``BRITISH_LINE_SHARE`` of the budget goes
# to the hunts and the complete search for the best line (the exact best
# when that search finishes too, as on small positions).
BRITISH_LINE_SHARE = 0.05
BRITISH_HUNT_SHARE = 0.1  # of that line search


def solve(game, seconds=10.0, max_nodes=0, hunt_share=None, **switches):
    """The most cards ``game``'s position (not touched) can bring home.

    For British Square a search that cuts what ``cannot_win`` proves lost
    first decides won or lost, for all but ``BRITISH_LINE_SHARE`` of
    ``seconds``; ``best_line`` then looks for the best line for that share
    (or what is left of ``seconds``, if less). The other rule sets go to
    ``best_line`` at once. ``max_nodes`` caps each search (0: no limit);
    ``switches`` turn prunings off for the tests (see ``search``)."""
    if game.rules != BRITISH:
        return best_line(game, seconds, max_nodes, hunt_share, **switches)
    started = _clock()
    settled = search(game, seconds * (1 - BRITISH_LINE_SHARE), max_nodes, won_only=True, **switches)
    if settled.result == WON:
        return settled
    # settled, the line search gets its share; unsettled, what is left
    left = max(0.0, min(seconds - (_clock() - started), seconds * BRITISH_LINE_SHARE))
    best = best_line(game, left, max_nodes, hunt_share, **switches)
    if settled.result == LOST:
        if best.result == WON:  # cannot_win was wrong: never let it pass
            raise AssertionError("cannot_win cut a won position")
        best.result = LOST  # the verdict stands; the line is the best of both
    if settled.home > best.home:
        best.home = settled.home
        best.moves = settled.moves
    best.nodes += settled.nodes
    best.seconds = _clock() - started
    return best


def best_line(game, seconds=10.0, max_nodes=0, hunt_share=None, **switches):
    """The best line from ``game`` without ``cannot_win``: the most cards
    home, exact when its complete search finishes in ``seconds``.

    For American, noisy greedy restarts first hunt for a win for
    ``GREEDY_SHARE`` of ``seconds``. Short depth-first restarts then hunt for
    a win until ``hunt_share`` of ``seconds`` has gone (default by rule set,
    ``HUNT_SHARE``); then a complete search, starting from the best line
    found, runs for the rest (or ``max_nodes`` positions; 0: no limit)."""
    started = _clock()
    if hunt_share is None:
        hunt_share = BRITISH_HUNT_SHARE if game.rules == BRITISH else HUNT_SHARE
    best = _greedy_restarts(game, seconds * GREEDY_SHARE.get(game.rules, 0.0))
    nodes = best.nodes if best is not None else 0
    if best is not None and best.result == WON:
        best.seconds = _clock() - started
        return best
    hunt = 0
    spent = []  # limits whose whole (limited) space a hunt has searched
    while len(spent) < len(HUNT_LIMITS):
        left = seconds * hunt_share - (_clock() - started)
        if left <= 0:
            break
        first = hunt < len(HUNT_LIMITS)
        limit = HUNT_LIMITS[hunt % len(HUNT_LIMITS)]
        if limit in spent:
            hunt += 1
            continue
        found = search(
            game,
            min(HUNT_FIRST_SECONDS if first else HUNT_SECONDS, left),
            max_nodes,
            best,
            shuffle_limit=limit,
            seed=None if first else hunt,
            **dict(switches, bound=False),  # a hunt wants speed: the bound costs
        )
        hunt += 1
        nodes += found.nodes
        best = found if best is None or found.home > best.home else best
        if found.result != UNKNOWN:  # won, or lost without the limit ever cutting
            best = found
            break
        if found.exhausted:
            spent.append(limit)
    if best is None or best.result == UNKNOWN:
        left = max(0.0, seconds - (_clock() - started))
        found = search(game, left, max_nodes, best, **switches)
        nodes += found.nodes
        if best is None or found.home >= best.home:
            best = found
        else:  # the hunt's line stays the best; the complete search's verdict counts
            best = Solution(found.result, best.home, best.moves, 0, 0)
    best.nodes = nodes
    best.seconds = _clock() - started
    return best


def search(
    game,
    seconds=10.0,
    max_nodes=0,
    start=None,
    symmetric=True,
    safe_moves=True,
    bound=False,
    bound_every=False,
    shuffle_limit=0,
    seed=None,
    won_only=False,
):
    """One depth-first search from ``game`` (not touched) for the line
    bringing the most cards home; stop at a win, after ``seconds``, or after
    ``max_nodes`` positions (0: no limit). ``start``, a ``Solution`` found
    before, is the best to beat (the bound cuts more). ``shuffle_limit``
    makes it a hunt: at most that many moves between columns in a row (if
    the limit ever cut a move, its "lost" proves nothing: ``UNKNOWN``).
    ``won_only`` cuts every position ``cannot_win`` proves lost, tried after
    each card from the stock (the waste grows only then): a complete search
    then proves "no win", but its ``home`` is the best found, not the most
    possible. The pruning switches exist for the tests that compare each
    with the plain search (all off, ``solve_plain``)."""
    started = _clock()
    deadline = started + seconds
    rng = None
    if seed is not None:
        import random

        rng = random.Random(seed)
    g = Game(game.rules)
    g.copy_position_from(game)
    total = g.score() + g.cards_left()
    buffer = bytearray(2 * MAX_MOVES)
    seen = set()
    seen.add(position_key(g, symmetric))
    best = g.score()
    best_line = []
    if start is not None and start.home > best:
        best = start.home
        best_line = start.moves
    path = []  # (move, undo flag) from the start
    # per expanded position: [moves, next index, what its next deal's
    # dead-end check starts from (``_dead_end``; None: from scratch)]
    frames = []
    nodes = 1
    complete = True
    limited = False  # the shuffle limit cut a move: no proof of a loss
    dead, counted = _dead_end(g, None) if won_only else (False, None)
    if best < total and not (bound and home_bound(g) <= best) and not dead:
        frames.append([_children(g, buffer, symmetric, safe_moves, rng), 0, counted])
    shuffles = [0]  # per depth: column-to-column moves in a row up to it
    # per depth: the least bound of the position or an ancestor. Every line
    # from a position continues a line from each of its ancestors, so an
    # ancestor's bound holds for it too: computed where the policy says,
    # inherited elsewhere, and checked against a best that keeps growing.
    bounds = [total]
    while frames:
        frame = frames[-1]
        moves = frame[0]
        if frame[1] == len(moves):
            frames.pop()
            if path:
                m, flag = path.pop()
                g.retract(m, flag)
                shuffles.pop()
                bounds.pop()
            continue
        m = moves[frame[1]]
        frame[1] += 1
        run = shuffles[-1] + 1 if (m >> 8) < STOCK and (m & 0xFF) < STOCK else 0
        if shuffle_limit and run > shuffle_limit:
            limited = True
            continue
        flag = g.apply(m)
        key = position_key(g, symmetric)
        if key in seen:
            g.retract(m, flag)
            continue
        seen.add(key)
        nodes += 1
        path.append((m, flag))
        shuffles.append(run)
        bounds.append(bounds[-1])
        score = g.score()
        if score > best:
            best = score
            best_line = [step[0] for step in path]
            if best == total:
                break
        if nodes % _CLOCK_EVERY == 0:
            if _clock() > deadline or (max_nodes and nodes >= max_nodes):
                complete = False
                break
        # A shuffle between columns changes the bound least: computed after
        # other moves only (a bound left out only prunes less).
        if bound and _bound_here(m, bound_every):
            limit = home_bound(g)
            if limit < bounds[-1]:
                bounds[-1] = limit
        counted = None
        if won_only and (m >> 8) == STOCK:
            dead, counted = _dead_end(g, frame[2] if (m & 0xFF) == WASTE else None)
        else:
            dead = False
        if bounds[-1] <= best or dead:
            path.pop()
            shuffles.pop()
            bounds.pop()
            g.retract(m, flag)
            continue
        frames.append([_children(g, buffer, symmetric, safe_moves, rng), 0, counted])
    if best == total:
        result = WON
    elif complete and not limited:
        result = LOST
    else:
        result = UNKNOWN
    check_line(game, best_line, best)
    return Solution(result, best, best_line, nodes, _clock() - started, complete)


def _bound_here(m, every):
    """Is the bound computed after move ``m``? After a deal from the stock
    (the moments the waste changes most), or after every move when ``every``."""
    return every or (m >> 8) == STOCK


def _children(g, buffer, symmetric, safe_moves, rng=None):
    if g.columns == 4 and rng is None:
        return _british_children(g, symmetric, safe_moves)
    count = g.legal_moves(buffer)
    if safe_moves:
        m = _safe_move(g, buffer, count)
        if m >= 0:
            return [m]
    return _ordered_moves(g, buffer, count, symmetric, rng)


def _british_children(g, first_empty_only, safe_moves):
    """``_children`` for British Square's four columns, in one pass: the same
    moves in the same order as ``legal_moves`` then ``_safe_move`` and
    ``_ordered_moves`` give (tests/test_solver.py compares them), without
    the 104-byte table and the three passes: the search then expands
    10-30% more positions a second on British positions. Only the waste
    and the stock fill an empty column in British Square."""
    cells = g.cells
    height = g.height
    base = g.base
    f = g.foundations
    takes = {}  # card value: the columns it may be built on, in order
    empties = []
    tops = []  # (column, card, uncovers) of each non-empty column
    for t in (0, 1, 2, 3):
        h = height[t]
        if not h:
            empties.append(t)
            continue
        i = t * COLUMN_CAPACITY + h - 1
        top = cells[i]
        b = base[t]
        tops.append((t, top, h <= b))
        step = top - cells[i - 1] if h > b else 0
        r = top % 13
        if r != 12 and step != -1:
            if top + 1 in takes:
                takes[top + 1].append(t)
            else:
                takes[top + 1] = [t]
        if r and step != 1:
            if top - 1 in takes:
                takes[top - 1].append(t)
            else:
                takes[top - 1] = [t]
    wc = g.waste_count
    if wc:
        tops.append((WASTE, g.waste[wc - 1], False))
    home = []
    uncover = []
    build = []
    for source, card, uncovers in tops:
        done = f[card // 13]
        if card % 13 + 1 == (done + 1 if done < 13 else 26 - done):
            if safe_moves and done >= 13:
                return [source << 8 | FOUNDATION]  # pruning 3, as ``_safe_move``
            home.append(source << 8 | FOUNDATION)
        targets = takes.get(card)
        if targets:
            moves = uncover if uncovers else build
            for t in targets:
                moves.append(source << 8 | t)
    if empties:
        targets = empties[:1] if first_empty_only else empties
        if wc:
            for t in targets:
                build.append(WASTE << 8 | t)  # after every build: fills come last
        if g.stock_count:
            for t in targets:
                build.append(STOCK << 8 | t)
    if g.stock_count:
        build.append(STOCK << 8 | WASTE)
    if uncover:
        home += uncover
    if build:
        home += build
    return home


def solve_plain(game, seconds=10.0, max_nodes=0):
    """The plain search every pruning is checked against: exact keys of the
    position as it is (no symmetry), every legal move, no bound."""
    return search(game, seconds, max_nodes, symmetric=False, safe_moves=False, bound=False)


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
