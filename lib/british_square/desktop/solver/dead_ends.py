"""Dead ends (British Square): ``cannot_win`` proves a position lost by a
count of the cards that must wait in its four columns at one moment of any
winning line, against what four columns can hold (the argument is at
``cannot_win``). ``dead_end`` is the same count carried on from the
position before a card was dealt, as the search calls it after each deal."""

from british_square.piles import BRITISH, COLUMN_CAPACITY

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
    card or, having filled an empty column from the waste or the stock, its
    base; never a dealt base, and a built card never becomes a base: in
    British Square only the waste and the stock fill a space. A column's
    base top and its built cards are one suit, one rank apart each, in one
    direction: so the X cards in one column share a suit, differ in rank,
    and lie in one *segment* of that suit, ranks not split by a rank whose
    copies are all in F or home (each rank between two of them is a card in
    that column). Both copies of a rank in a segment need two columns.
    A column whose base holds such cards B1 (the topmost), B2, ... either
    keeps some Bi at T, having let B1 to Bi-1 go to other columns (home they
    cannot: they count like X), and then holds only the segment of its base
    top at T, a base card from Bi up to the one under Bi-1; or lets them
    all go, and may hold anything or be empty. If no choice of what each
    column keeps gives each needed column its own column of the four, there
    is no winning line.

    Y's way out: at T+1 Y goes home, onto a column's top card of its suit
    one rank away, or into an empty column. Home needs its up-half place
    (``n < r``, no rank between with both copies in F) and a copy of each
    rank between home by T, or its down-half place (as for X). Onto a card
    Z, a copy of Z is a column top at T: not in F, not home. A card so
    needed with no copy outside F, home and the stock is dealt by T, with
    every stock card above it; each of those has left the waste by T too
    (or gone straight into a space), so counts like X. With k the fewest
    stock cards a way home or onto a Z needs dealt, either the count with
    the top k stock cards fits the four columns, or the count without them
    fits three, one left empty for Y. tests/test_solver.py checks both
    arguments against complete searches of small positions, and
    tests/test_dead_ends.py against positions built winnable.

    Only Ys where F gains a rank whose copies are all in F or home, or gains
    both copies of an up-half rank, are tried for the count alone: between
    two of those the cards to hold only get fewer. Ys whose way out needs
    the stock are tried each (``_no_way_out``)."""
    return dead_end(game, None)[0]


def dead_end(game, before):
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
        stopped = _into_f(v, f, home, gone, top_rank, stop)[1]
        if gone[v] == 2:
            segment = None
        elif not stopped:
            continue
        if segment is None:
            segment = _segments(gone)
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
    if _no_way_out(game, home, built):
        return True, None
    return False, (built, home, gone, top_rank, stop, segment, tried)


def _into_f(v, f, home, gone, top_rank, stop):
    """Take waste card ``v`` into F: count it in ``gone``, and raise its
    suit's ``top_rank`` or lower its ``stop`` (``dead_end``) if it does;
    whether it raised the one and whether it lowered the other."""
    s = v // 13
    r = v % 13 + 1
    gone[v] += 1
    raised = r > top_rank[s]
    if raised:
        top_rank[s] = r
    stopped = gone[v] - home[v] == 2 and f[s] < r < stop[s]
    if stopped:
        stop[s] = r
    return raised, stopped


def _segments(gone):
    """Per card value, the first value of its segment (``cannot_win``):
    ``gone`` counts per value the copies home or in F."""
    segment = bytearray(52)
    for x in range(52):
        if gone[x] == 2:
            segment[x] = x + 1
        elif x % 13:
            segment[x] = segment[x - 1]
        else:
            segment[x] = x
    return segment


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
    columns' stuck base cards, each column keeping one or letting all go
    (``cannot_win``)?"""
    choices = _stuck_bases(game, f, stop, top_rank, segment)
    return _fits(choices, segment, held, need, total, 4)


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
    way = [0] * len(choices)  # the way each column takes, counted through
    while True:
        wanted = units
        kept = []  # per column keeping a base card: the segments it can hold
        added = []  # base cards let go
        free = columns - len(choices)  # columns holding anything
        for i in range(len(choices)):
            let_go, segments = choices[i][way[i]]
            for x in let_go:
                # one more column for its segment when it is a further copy
                copies = held[x] + 1 + added.count(x)
                added.append(x)
                if copies > wanted.count(segment[x]):  # wanted holds need, so this is past it
                    if wanted is units:
                        wanted = units[:]
                    wanted.append(segment[x])
            if segments < 0:
                free += 1
            else:
                kept.append(segments)
        if 0 <= free and len(wanted) <= len(kept) + free:
            if not kept or _matched(wanted, kept) >= len(wanted) - free:
                return True
        i = 0
        while i < len(choices) and way[i] == len(choices[i]) - 1:
            way[i] = 0
            i += 1
        if i == len(choices):
            return False
        way[i] += 1


_NEVER = 255  # no way out that a deal makes


def _no_way_out(game, home, built):
    """Is there a Y whose way out (``cannot_win``) needs stock cards dealt,
    and neither the count with them fits four columns nor the count without
    them three? ``home`` and ``built``: as ``dead_end`` makes them."""
    f = game.foundations
    waste = game.waste
    n = game.waste_count
    stock = game.stock
    top = game.stock_count
    in_stock = bytearray(52)
    first_dealt = bytearray(52)  # per value: stock cards dealt to reach a copy there
    for k in range(top - 1, -1, -1):
        x = stock[k]
        in_stock[x] += 1
        if not first_dealt[x]:
            first_dealt[x] = top - k
    gone = bytearray(home)
    # per value: stock cards dealt by T for a copy out of F and not home
    dealt_for = bytearray(_dealt_for(x, gone, in_stock, first_dealt) for x in range(52))
    top_rank = [0, 0, 0, 0]
    stop = [14, 14, 14, 14]
    segment = None
    choices = None
    # what fitted since stop, top_rank and segment last changed: it fits
    # again for a higher Y, with fewer cards above it
    fits_three = False
    fits_four = 0  # the most stock cards dealt that fitted four columns
    for j in range(n):
        v = waste[j]
        raised, stopped = _into_f(v, f, home, gone, top_rank, stop)
        dealt_for[v] = _dealt_for(v, gone, in_stock, first_dealt)
        if gone[v] == 2:
            segment = None
        if raised or stopped or gone[v] == 2:
            choices = None
            fits_three = False
            fits_four = 0
        k = _fewest_dealt(v, f, stop, top_rank, dealt_for)
        if not k or fits_three or k <= fits_four:
            continue  # k = 0: the count alone covers it
        if segment is None:
            segment = _segments(gone)
        if choices is None:
            choices = _stuck_bases(game, f, stop, top_rank, segment)
        cards = waste[j + 1 : n] + built
        if _holds(choices, cards, f, stop, top_rank, segment, 3):
            fits_three = True
        elif k < _NEVER and _holds(
            choices, cards + stock[top - k : top], f, stop, top_rank, segment, 4
        ):
            fits_four = k
        else:
            return True
    return False


def _dealt_for(x, gone, in_stock, first_dealt):
    """Stock cards dealt by T to have a copy of ``x`` out of F and not home."""
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


def _holds(choices, cards, f, stop, top_rank, segment, columns):
    """Do ``columns`` of the four hold the stuck ones of ``cards``, the
    columns standing as ``choices`` (``_stuck_bases``) allows?"""
    held = bytearray(52)
    need = bytearray(53)
    total = _count_stuck(cards, f, stop, top_rank, segment, held, need, 0, bytearray(52))
    if total > columns:
        return False
    return _fits(choices, segment, held, need, total, columns)


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
