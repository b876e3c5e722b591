"""What a search expands: the key that names a position, and the moves
tried from it, in the order tried.

Two of the solver's prunings live here; each keeps the search exact.
Symmetry: the columns (British Square's four, the sixteen piles) obey the
same rules, so permuting them changes nothing reachable but the letters:
the key sorts the columns. Of several empty columns a card may go to, only
the first is tried, for the same reason. The two decks are merged at the
root: a card is one value for both copies (cards.py), so positions that
differ only by which copy lies where are one position. Safe foundation
moves: ``search.safe_move``, whose docstring argues it (board code: the
board's hint sends the same cards home first).
"""

from british_square.piles import BRITISH, COLUMN_CAPACITY, FOUNDATION, STOCK, WASTE
from british_square.search import safe_move


def position_key(game, symmetric=True):
    """Exact bytes naming the position of ``game`` up to what cannot matter.

    Each column is its height, its base count and its cards; the waste is its
    length and its cards, after the stock count (the stock's cards follow
    from it: they are dealt in a fixed order and never come back). The
    foundations follow from the rest. Every part starts with its length, so
    two different positions never join to the same bytes. ``symmetric``
    sorts the columns (symmetry)."""
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


def ordered_moves(game, buffer, count, first_empty_only, rng=None):
    """The moves in the order tried: home first, then builds that uncover a
    card, then other builds, then fills, and the deal last. Of the moves of one
    source into empty columns only the first empty column is kept (symmetry)."""
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


# The move orders a search can take (``children``'s ``order``). A
# depth-first search for the best line commits to its first moves for good,
# so two orders find different lines in the same number of positions, and
# neither is always the better: on British deal 12102 the solver's order
# brings 18 cards home in 600 000 positions, the engine's 25 in 25 000.
SOLVER_ORDER = "solver"  # ``ordered_moves``: home, uncover, build, fill, deal
ENGINE_ORDER = "engine"  # ``Game.legal_moves``: column by column, then the deal
ORDERS = (SOLVER_ORDER, ENGINE_ORDER)


def engine_moves(g, buffer, count, first_empty_only):
    """The moves in ``buffer`` in the engine's order; of the moves of one
    source into empty columns only the first empty column's (symmetry)."""
    height = g.height
    found = []
    for i in range(count):
        target = buffer[2 * i + 1]
        if first_empty_only and target < STOCK and not height[target]:
            if _earlier_empty(height, target):
                continue
        found.append(buffer[2 * i] << 8 | target)
    return found


def children(g, buffer, symmetric, safe_moves, rng=None, order=SOLVER_ORDER):
    """The moves a search tries from ``g``: a safe move alone when there is
    one (``safe_moves``), else all of them in ``order`` (``rng``: the
    solver's order with its ties shuffled; ``symmetric``: the first empty
    column only)."""
    if g.rules == BRITISH and rng is None and order == SOLVER_ORDER:
        return _british_children(g, symmetric, safe_moves)
    count = g.legal_moves(buffer)
    if safe_moves:
        m = safe_move(g, buffer, count)
        if m >= 0:
            return [m]
    if order == ENGINE_ORDER:
        return engine_moves(g, buffer, count, symmetric)
    return ordered_moves(g, buffer, count, symmetric, rng)


def _british_children(g, first_empty_only, safe_moves):
    """``children`` for British Square's four columns, in one pass: the same
    moves in the same order as ``legal_moves`` then ``safe_move`` and
    ``ordered_moves`` give (tests/test_solver.py compares them), without
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
                return [source << 8 | FOUNDATION]  # as ``safe_move``
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
