"""Winning lines the board ships: for each deal New game deals under a rule
set that has them (``par.LINE_DEALS`` counts them), the desktop solver's
win, a move after another, so that a hint on the line is its next move and
hints alone win the deal.

``lines_<rules>.bin`` beside this module (written by tools/ship_lines.py):

    magic     4  b"BSQL"
    count     2  entries, little-endian, as every number here
    entries   8  each: the deal (2), its line's moves (2), where they start (4),
                 in order of deal number
    moves     2  each: its source and its target pile (a save's layout)

The hint loads this module when it is asked for and lets it go after, so a
game in play does not hold its code. Nothing read is trusted: an entry out
of order or out of the file, or a line longer than ``MAX_LINE``, is no
line, and a move of the line is a hint only where it is legal.
"""

from british_square.cards import const

MAGIC = b"BSQL"
HEADER = const(6)
ENTRY = const(8)
# A line's moves at most: two bytes each, they fill a buffer of
# 2 * engine.MAX_MOVES bytes, the legal moves' scratch that a hint borrows.
MAX_LINE = const(306)
NO_LINE = const(-1)
_RULE_FILES = ("british", "american", "union")  # piles.RULE_NAMES, as the files are named


def lines_path(rules):
    """The lines file of rule set ``rules`` (``/lib/british_square/lines_american.bin``)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + "lines_" + _RULE_FILES[rules] + ".bin"


def _number(data, at, count):
    value = 0
    for i in range(count - 1, -1, -1):
        value = value << 8 | data[at + i]
    return value


def _count(f, size):
    """How many entries the open file of ``size`` bytes says it holds (0: not a lines file)."""
    head = f.read(HEADER)
    if len(head) != HEADER or head[:4] != MAGIC:
        return 0
    count = _number(head, 4, 2)
    return count if HEADER + ENTRY * count <= size else 0


def _entry(f, index, size):
    """Entry ``index``: (deal, moves, where they start), or None if it points
    out of the file or is longer than ``MAX_LINE``."""
    f.seek(HEADER + ENTRY * index)
    data = f.read(ENTRY)
    if len(data) != ENTRY:
        return None
    deal, moves, start = _number(data, 0, 2), _number(data, 2, 2), _number(data, 4, 4)
    if not 0 < moves <= MAX_LINE or start + 2 * moves > size:
        return None
    return deal, moves, start


def _open(rules):
    """The lines file of ``rules`` open, its size and entry count; None
    where the file is missing or not one (asked only of a rule set that
    ships one: ``par.LINE_DEALS``)."""
    try:
        f = open(lines_path(rules), "rb")
    except OSError:
        return None
    size = f.seek(0, 2)
    f.seek(0)
    count = _count(f, size)
    if not count:
        f.close()
        return None
    return f, size, count


def random_deal(rules):
    """A deal with a shipped line under ``rules``, picked at random; 0 if none."""
    import random

    opened = _open(rules)
    if opened is None:
        return 0
    f, size, count = opened
    with f:
        found = _entry(f, random.randrange(count), size)
    return found[0] if found else 0


def next_move(game, buffer):
    """The next move of ``game``'s deal's line when ``game`` has played the
    line so far, its moves from the deal each the line's; else ``NO_LINE``.
    ``buffer``: a bytearray of ``2 * MAX_LINE`` bytes or more, for the line."""
    opened = _open(game.rules) if game.deal_number else None
    if opened is None:
        return NO_LINE
    f, size, count = opened
    with f:
        low, high = 0, count
        found = None
        while low < high:  # the entries are in order of deal number
            middle = (low + high) // 2
            found = _entry(f, middle, size)
            if found is None:
                return NO_LINE
            if found[0] < game.deal_number:
                low = middle + 1
            else:
                high = middle
        if low == count:
            return NO_LINE
        found = _entry(f, low, size)
        played = game.history_count
        if found is None or found[0] != game.deal_number or played >= found[1]:
            return NO_LINE
        f.seek(found[2])
        if f.readinto(memoryview(buffer)[: 2 * played + 2]) != 2 * played + 2:
            return NO_LINE
    for k in range(played):
        if game.history_move(k) != buffer[2 * k] << 8 | buffer[2 * k + 1]:
            return NO_LINE  # off the line
    m = buffer[2 * played] << 8 | buffer[2 * played + 1]
    return m if game.is_legal(m) else NO_LINE
