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
game in play does not hold its code (a few lines: its load is a frame's
work). Nothing read is trusted: an entry out of order or out of the file,
or a line longer than ``_MAX_LINE``, is no line, and a move of the line is
a hint only where it is legal.
"""

from british_square.cards import const

# The layout's numbers are private: a board then keeps no name for them
# (tools/ship_lines.py and the tests read them all the same).
MAGIC = b"BSQL"
_HEADER = const(6)
_ENTRY = const(8)
# A line's moves at most: two bytes each, they fill a buffer of
# 2 * engine.MAX_MOVES bytes, the legal moves' scratch that a hint borrows.
_MAX_LINE = const(306)
_NO_LINE = const(-1)


def lines_path(rules):
    """The lines file of rule set ``rules`` (``/lib/british_square/lines_american.bin``)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + "lines_" + ("british", "american", "union")[rules] + ".bin"


def find(rules, deal, index=-1):
    """The entry of ``deal`` in the lines file of ``rules`` (or, with
    ``index`` 0 or more, entry ``index`` modulo their count: a deal at
    random for New game, ``par.random_line_deal``): (deal,
    moves, where they start), or None where there is none or the file is
    missing, not one, or points out of itself."""
    try:
        f = open(lines_path(rules), "rb")
    except OSError:
        return None
    with f:
        size = f.seek(0, 2)
        f.seek(0)
        head = f.read(_HEADER)
        count = int.from_bytes(head[4:], "little") if head[:4] == MAGIC else 0
        if not count or _HEADER + _ENTRY * count > size:
            return None
        low, high = (index % count, index % count + 1) if index >= 0 else (0, count)
        found = None
        while low < high:  # the entries are in order of deal number
            middle = (low + high) // 2
            f.seek(_HEADER + _ENTRY * middle)
            data = f.read(_ENTRY)
            found = (int.from_bytes(data[:2], "little"), int.from_bytes(data[2:4], "little"),
                     int.from_bytes(data[4:], "little"))  # fmt: skip
            if not 0 < found[1] <= _MAX_LINE or found[2] + 2 * found[1] > size:
                return None
            if index >= 0 or found[0] == deal:
                return found
            if found[0] < deal:
                low = middle + 1
            else:
                high = middle
    return None


def next_move(game, buffer, found):
    """The next move of the line ``found`` (``find``'s entry for
    ``game``'s deal) when ``game`` has played the line so far, its moves
    from the deal each the line's; else ``_NO_LINE``. ``buffer``: a
    bytearray of ``2 * _MAX_LINE`` bytes or more, for the line."""
    played = game.history_count
    if found is None or found[0] != game.deal_number or played >= found[1]:
        return _NO_LINE
    try:
        with open(lines_path(game.rules), "rb") as f:
            f.seek(found[2])
            if f.readinto(memoryview(buffer)[: 2 * played + 2]) != 2 * played + 2:
                return _NO_LINE
    except OSError:
        return _NO_LINE
    for k in range(played):
        if game.history_move(k) != buffer[2 * k] << 8 | buffer[2 * k + 1]:
            return _NO_LINE  # off the line
    m = buffer[2 * played] << 8 | buffer[2 * played + 1]
    return m if game.is_legal(m) else _NO_LINE
