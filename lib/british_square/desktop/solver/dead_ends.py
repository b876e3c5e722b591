"""Dead ends (British Square): ``cannot_win`` proves a position lost by a
count of the cards that must wait in its four columns at one moment of any
winning line, against what four columns can hold (the argument is at
``cannot_win``)."""

from british_square.piles import BRITISH, COLUMN_CAPACITY

# Copies of card ``r`` (1-13) of a suit on its foundation when it has ``n``
# cards: one in the up half once ``n >= r``, the other once ``n >= 27 - r``.
_HOME_COPIES = [bytes((n >= r) + (n >= 27 - r) for r in range(1, 14)) for n in range(27)]

_NEVER = 255  # no way out that a deal makes


def cannot_win(game):
    """True when no line from ``game`` (British Square) brings every card
    home, by a count of what its four columns can hold; False proves nothing.

    Take Y, a card in the waste, F the waste from its bottom up to Y, T the
    moment before Y leaves the waste in some winning line, and k the stock
    cards dealt from now to T: the others, U, are still in the stock at T,
    and every card of F is still in the waste (under Y). A card X of suit s
    and rank a outside F and U cannot be home by T when, with s's
    foundation at n:
    * its up-half place is gone: ``a <= n`` (that copy went home), or some
      rank b with n < b < a has both copies in F or U (the up half stops
      at b);
    * and its down-half place too: that needs the whole up half (no such b)
      and every card of s above rank a home first (none in F or U).
    When only its down-half place is gone, one copy of X can take the up
    half's place by T, not both: if both are counted below, one of them is
    stuck like the others.
    Such a card X that is above Y in the waste now, one of the k dealt, or
    a built card of a column now, is at T in a column (it left the waste, or
    never comes back to it; nothing returns to the stock). In a column it is
    either a built card or, having filled an empty column from the waste or
    the stock, its base; never a dealt base, and a built card never becomes
    a base: in British Square only the waste and the stock fill a space. A
    column's base top and its built cards are one suit, one rank apart
    each, in one direction: so the X cards in one column share a suit,
    differ in rank, and lie in one *segment* of that suit, ranks not split
    by a rank whose copies are all home, in F or in U (each rank between two
    of them is a card in that column). Both copies of a rank in a segment
    need two columns.
    A column whose base holds such cards B1 (the topmost), B2, ... either
    keeps some Bi at T, having let B1 to Bi-1 go to other columns (home they
    cannot: they count like X), and then holds only the segment of its base
    top at T, a base card from Bi up to the one under Bi-1; or lets them
    all go, and may hold anything or be empty.
    At T+1 Y leaves: home, onto a column's top card of its suit one rank
    away, or into an empty column. Home needs its up-half place (``n < r``,
    no rank between with both copies in F or U) and a copy of each rank
    between home by T, or its down-half place (as for X). Onto a card Z, a
    copy of Z is a column top at T: not in F or U, not home.
    So for some k the columns hold the count: four of them, if with k dealt
    Y has a way home or onto a Z; else three, one left empty for Y. If no
    choice of k and of what each column keeps gives each needed column its
    own column, there is no winning line. tests/test_solver.py checks this
    against complete searches of small positions, and tests/test_dead_ends.py
    against positions built winnable.

    Each Y is tried, from the top down (one that cannot leave is most often
    near the top), first with the k that let the Y above it leave, then for
    k from 0 up (``_first_k``): a card dealt leaves U, so what is stuck
    changes only when it was a copy of a rank that stopped its suit's up
    half, of its suit's top rank in F and U, or of a card with both copies
    home, in F or in U (a segment's edge). Between such cards each k has
    one more card to hold than the one before, so three columns are tried
    at the stretch's first k, and four at its first k with a way out."""
    n = game.waste_count
    if not n or game.rules != BRITISH:
        return False
    f = game.foundations
    home = _HOME_COPIES[f[0]] + _HOME_COPIES[f[1]] + _HOME_COPIES[f[2]] + _HOME_COPIES[f[3]]
    stock = game.stock
    top = game.stock_count
    in_stock = bytearray(52)
    first_dealt = bytearray(52)  # per value: stock cards dealt to reach a copy there
    for i in range(top - 1, -1, -1):
        x = stock[i]
        in_stock[x] += 1
        if not first_dealt[x]:
            first_dealt[x] = top - i
    built = _built_cards(game)
    waste = game.waste
    gone = bytearray(home)  # per value: copies home or in F
    for j in range(n):
        gone[waste[j]] += 1
    # per value: stock cards dealt by T for a copy out of F and not home
    dealt_for = bytearray(_dealt_for(x, gone, in_stock, first_dealt) for x in range(52))
    k = 0  # the k that let the Y above leave: it often lets this one too
    for j in range(n - 1, -1, -1):
        if not (k and _leaves_at(game, j, k, home, gone, in_stock, built, dealt_for)):
            k = _first_k(game, j, home, gone, in_stock, built, dealt_for)
            if k < 0:
                return True
        y = waste[j]
        gone[y] -= 1
        dealt_for[y] = _dealt_for(y, gone, in_stock, first_dealt)
    return False


def _state_at(game, j, k, home, gone_f, in_stock, built):
    """What ``cannot_win`` counts with Y the waste's card ``j`` and ``k``
    stock cards dealt: per value the copies home, in F or in U, the suits'
    ``_limits``, the ``_segments``, and the cards in a column at T if stuck.
    ``gone_f``: per value, the copies home or in F."""
    stock = game.stock
    top = game.stock_count
    gone = bytearray(52)
    for x in range(52):
        gone[x] = gone_f[x] + in_stock[x]
    dealt = stock[top - k : top]
    for x in dealt:
        gone[x] -= 1
    top_rank, stop = _limits(game.foundations, home, gone)
    cards = bytearray(game.waste[j + 1 : game.waste_count]) + built + dealt
    return gone, top_rank, stop, _segments(gone), cards


def _leaves_at(game, j, k, home, gone_f, in_stock, built, dealt_for):
    """Do the columns hold the count (``cannot_win``) with Y the waste's
    card ``j`` and ``k`` stock cards dealt? ``dealt_for``: what
    ``_dealt_for`` says of each value."""
    f = game.foundations
    gone, top_rank, stop, segment, cards = _state_at(game, j, k, home, gone_f, in_stock, built)
    held = bytearray(52)
    need = bytearray(53)
    total = _count_stuck(cards, f, stop, top_rank, segment, held, need, 0, bytearray(52))
    if total > 4:
        return False
    choices = _stuck_bases(game, f, stop, top_rank, segment)
    if total <= 3 and _fits(choices, segment, held, need, total, 3):
        return True
    y = game.waste[j]
    return _fewest_dealt(y, f, stop, top_rank, dealt_for) <= k and _fits(
        choices, segment, held, need, total, 4
    )


def _first_k(game, j, home, gone_f, in_stock, built, dealt_for):
    """The first k for which the columns hold the count (``cannot_win``),
    Y being the waste's card ``j``, or -1 if none does (``_leaves_at``
    for each k, with the count carried on from k to k + 1)."""
    f = game.foundations
    stock = game.stock
    top = game.stock_count
    y = game.waste[j]
    gone, top_rank, stop, segment, cards = _state_at(game, j, 0, home, gone_f, in_stock, built)
    k = 0
    fresh = True  # what is stuck changed: count again
    while True:
        if fresh:
            fresh = False
            held = bytearray(52)
            need = bytearray(53)
            seen = bytearray(52)
            total = _count_stuck(cards, f, stop, top_rank, segment, held, need, 0, seen)
            way_out = _fewest_dealt(y, f, stop, top_rank, dealt_for)
            joined = True
        else:
            total = _count_stuck(cards[-1:], f, stop, top_rank, segment, held, need, total, seen)
        if joined:  # a new stretch: what the columns can hold changed
            joined = False
            try_four = True
            choices = None
            if total <= 3:
                choices = _stuck_bases(game, f, stop, top_rank, segment)
                if _fits(choices, segment, held, need, total, 3):
                    return k
        if try_four and way_out <= k and total <= 4:
            if choices is None:
                choices = _stuck_bases(game, f, stop, top_rank, segment)
            if _fits(choices, segment, held, need, total, 4):
                return k
            try_four = False  # each later k of the stretch holds more
        if k == top:
            return -1
        k += 1
        x = stock[top - k]
        cards.append(x)
        edge = gone[x] == 2  # both copies were home, in F or in U
        gone[x] -= 1
        if _lift(x, f, home, gone, top_rank, stop):
            fresh = True
            if edge:
                segment = _segments(gone)
        elif edge:  # only two segments become one: so do their columns
            joined = True
            into = _join(segment, gone, x)
            if x % 13 < 12:
                total -= min(need[into], need[x + 1])
                need[into] = max(need[into], need[x + 1])
                need[x + 1] = 0


def _built_cards(game):
    """The built cards of ``game``'s columns."""
    cells = game.cells
    built = bytearray()
    for c in range(4):
        start = c * COLUMN_CAPACITY
        if game.height[c] > game.base[c]:
            built += cells[start + game.base[c] : start + game.height[c]]
    return built


def _limits(f, home, gone):
    """Per suit, the highest rank in F and U and the up half's lowest rank
    with both copies there (``cannot_win``; 14: none), from ``gone``, the
    copies per value home, in F or in U."""
    top_rank = [0, 0, 0, 0]
    stop = [14, 14, 14, 14]
    for x in range(52):
        if gone[x] > home[x]:
            s = x // 13
            r = x % 13 + 1
            top_rank[s] = r
            if gone[x] - home[x] == 2 and f[s] < r < stop[s]:
                stop[s] = r
    return top_rank, stop


def _lift(x, f, home, gone, top_rank, stop):
    """A copy of ``x`` has left U (``gone`` counts it no more): raise its
    suit's ``stop`` or lower its ``top_rank`` (``_limits``) if they were
    ``x``'s rank; whether either moved."""
    s = x // 13
    r = x % 13 + 1
    moved = False
    if r == stop[s]:  # both its copies were in F or U
        stop[s] = 14
        for b in range(r + 1, 14):
            v = s * 13 + b - 1
            if gone[v] - home[v] == 2:
                stop[s] = b
                break
        moved = True
    if r == top_rank[s] and gone[x] == home[x]:
        top_rank[s] = 0
        for b in range(r - 1, 0, -1):
            v = s * 13 + b - 1
            if gone[v] > home[v]:
                top_rank[s] = b
                break
        moved = True
    return moved


def _segments(gone):
    """Per card value, the first value of its segment (``cannot_win``):
    ``gone`` counts per value the copies home, in F or in U."""
    segment = bytearray(52)
    for x in range(52):
        if gone[x] == 2:
            segment[x] = x + 1
        elif x % 13:
            segment[x] = segment[x - 1]
        else:
            segment[x] = x
    return segment


def _join(segment, gone, x):
    """``x`` splits its suit no more (``gone[x] < 2``): give it and the
    segment after it (``_segments``) the segment before it; that segment."""
    into = segment[x - 1] if x % 13 else x
    end = x - x % 13 + 13
    v = x
    while v < end and (v == x or gone[v] < 2):
        segment[v] = into
        v += 1
    return into


def _count_stuck(cards, f, stop, top_rank, segment, held, need, total, seen):
    """Count the stuck ones of ``cards`` into ``held`` (copies per card) and
    ``need`` (columns per segment: the most copies of one card in it); the
    columns needed in all, from ``total``. ``seen`` marks the
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
    return total


def _down_half_waits(x, stop, top_rank):
    """Does card ``x``'s down-half place need a card of F or U (``cannot_win``)?
    Only such a card can be stuck, or the first of two copies seen."""
    t = x // 13
    return stop[t] < 14 or top_rank[t] > x % 13 + 1


def _stuck_bases(game, f, stop, top_rank, segment):
    """Per column whose base holds stuck cards (``cannot_win``), the ways it
    can stand at T: (the stuck base cards it let go, the bit set of the
    segments it can hold then, or -1 for any)."""
    cells = game.cells
    choices = []
    for c in range(4):
        start = c * COLUMN_CAPACITY
        ways = []
        let_go = []
        segments = 0
        for i in range(start + game.base[c] - 1, start - 1, -1):
            x = cells[i]
            segments |= 1 << segment[x]
            t = x // 13  # stuck (cannot_win's two conditions), inline
            a = x % 13 + 1
            b = stop[t]
            if (a <= f[t] or b < a) and (b < 14 or top_rank[t] > a):
                ways.append((tuple(let_go), segments))
                let_go.append(x)
                segments = 0
        if ways:
            ways.append((tuple(let_go), -1))
            choices.append(ways)
    return choices


def _fits(choices, segment, held, need, total, columns):
    """Can ``columns`` of the four, the others empty, hold ``need`` and the
    stuck base cards, the columns standing as ``choices`` (``_stuck_bases``)
    allows?"""
    if total <= columns - len(choices):
        return True  # the columns with nothing stuck in their bases hold it all
    units = []  # one entry per column needed: its segment
    for k in range(53):
        if need[k]:
            units.append(k)
            if need[k] == 2:
                units.append(k)
    # depth first through the ways each column can stand: (columns decided,
    # units wanted, segments each kept column can hold, columns holding
    # anything, base cards let go); a column holds one unit, so a choice
    # wanting more than ``columns`` is cut at once
    stack = [(0, units, (), columns - len(choices), ())]
    while stack:
        i, wanted, kept, free, added = stack.pop()
        if i == len(choices):
            if 0 <= free and len(wanted) <= len(kept) + free:
                if len(wanted) <= free or _matched(wanted, kept) >= len(wanted) - free:
                    return True
            continue
        # the units no kept column can hold need a column still to decide
        # or one holding anything
        if kept:
            alone = 0
            for u in wanted:
                for segments in kept:
                    if segments >> u & 1:
                        break
                else:
                    alone += 1
            if alone > free + len(choices) - i:
                continue
        for let_go, segments in reversed(choices[i]):
            more = wanted
            also = added
            for x in let_go:
                # one more column for its segment when it is a further copy
                copies = held[x] + 1 + also.count(x)
                also += (x,)
                if copies > more.count(segment[x]):  # more holds need, so this is past it
                    more = more + [segment[x]]
            if len(more) > columns:
                continue
            if segments < 0:
                stack.append((i + 1, more, kept, free + 1, also))
            else:
                stack.append((i + 1, more, kept + (segments,), free, also))
    return False


def _dealt_for(x, gone, in_stock, first_dealt):
    """Stock cards dealt by T to have a copy of ``x`` out of F and not home,
    ``gone`` counting per value the copies home or in F."""
    if gone[x] + in_stock[x] < 2:
        return 0  # a copy is above Y or in a column
    return first_dealt[x] if in_stock[x] else _NEVER


def _fewest_dealt(y, f, stop, top_rank, dealt_for):
    """The fewest stock cards dealt by T for a way out of ``y`` home or onto
    a card (``cannot_win``): 0 when none need be, ``_NEVER`` when no deal
    makes one."""
    if not _down_half_waits(y, stop, top_rank):
        return 0
    s = y // 13
    r = y % 13 + 1
    fewest = _NEVER
    if f[s] < r <= stop[s]:  # home on the up half: one copy of each rank between
        lowest = s * 13 + f[s]
        fewest = max(dealt_for[lowest:y]) if lowest < y else 0
    if r > 1:
        fewest = min(fewest, dealt_for[y - 1])
    if r < 13:
        fewest = min(fewest, dealt_for[y + 1])
    return fewest


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
