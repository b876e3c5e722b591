"""Searches over positions: the dead-position test (and, later, the solver).

Searches move on the game itself with ``Game.apply`` / ``Game.retract`` and
keep their own path, so they never touch its history. Kept out of the engine
module so that a game in play does not carry this code until it needs it.
"""

from british_square.engine import ALIVE, COLUMN_CAPACITY, DEAD, FOUNDATION, MAX_MOVES, UNKNOWN


def dead_search(game, budget=1000, buffer=None, every=0):
    """Can no sequence of moves put another card on a foundation of ``game``?

    A generator: it yields ``None`` after each ``every`` new positions (never,
    if 0) and finally its verdict: ``DEAD`` if none of the positions reachable
    without a foundation move allows one, ``ALIVE`` once one does (a won game
    is ``ALIVE``), ``UNKNOWN`` once ``budget`` positions are seen. Iterative,
    no recursion; its memory is one set of position hashes and five bytes per
    level. Repeats are pruned by a 30-bit hash: at the default budget the odds
    that a collision hides a line are about 1 in 2 000.

    Run to its end it leaves ``game`` as it found it; while suspended the
    position is somewhere inside the search, so a caller that steps it (to
    stay responsive) runs it on ``game.copy()``. It reads ``buffer`` only
    between steps, so that caller may use the same buffer meanwhile.
    """
    if game.is_won():
        yield ALIVE
        return
    if buffer is None:
        buffer = bytearray(2 * MAX_MOVES)
    # With the stock out the waste can only shrink from the top, so its
    # length names it; with cards to deal its order must be hashed.
    whole_waste = game.stock_count > 0
    seen = set()
    seen.add(position_key(game, whole_waste))
    path = bytearray(budget * 5)  # per level: source, target, undo flag, next move index (2)
    depth = 0
    next_index = 0
    while True:
        count = game.legal_moves(buffer)
        for i in range(count):
            if buffer[2 * i + 1] == FOUNDATION:
                result = ALIVE
                break
        else:
            result = None
        if result is not None:
            break
        # the next move from here that reaches a position not seen yet
        while next_index < count:
            m = buffer[2 * next_index] << 8 | buffer[2 * next_index + 1]
            next_index += 1
            flag = game.apply(m)
            key = position_key(game, whole_waste)
            if key not in seen:
                break
            game.retract(m, flag)
        else:  # all explored: back to the parent
            if not depth:
                result = DEAD
                break
            depth -= 1
            p = depth * 5
            game.retract(path[p] << 8 | path[p + 1], path[p + 2])
            next_index = path[p + 3] << 8 | path[p + 4]
            continue
        if len(seen) >= budget:
            game.retract(m, flag)
            result = UNKNOWN
            break
        seen.add(key)
        p = depth * 5
        path[p] = m >> 8
        path[p + 1] = m & 0xFF
        path[p + 2] = flag
        path[p + 3] = next_index >> 8
        path[p + 4] = next_index & 0xFF
        depth += 1
        next_index = 0
        if every and not len(seen) % every:
            yield None
    while depth:  # put the position back as it was
        depth -= 1
        p = depth * 5
        game.retract(path[p] << 8 | path[p + 1], path[p + 2])
    yield result


def position_key(game, whole_waste=True):
    """A 30-bit hash of the position, kept in small ints so that it allocates
    nothing: ``h * 127`` modulo ``127 * 2**23 - 1``, one step per byte.
    Foundations follow from the rest, so they are left out; the waste is
    hashed by its length alone unless ``whole_waste``."""
    h = game.stock_count * 89 + game.waste_count
    if whole_waste:
        waste = game.waste
        for i in range(game.waste_count):
            h = (h & 0x7FFFFF) * 127 + (h >> 23) + waste[i] + 1
    cells = game.cells
    height = game.height
    base = game.base
    for c in range(game.columns):
        h = (h & 0x7FFFFF) * 127 + (h >> 23) + base[c] * 17 + height[c] + 1
        start = c * COLUMN_CAPACITY
        for i in range(start, start + height[c]):
            h = (h & 0x7FFFFF) * 127 + (h >> 23) + cells[i] + 1
    return h
