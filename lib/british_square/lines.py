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
game in play does not hold its code. Its load is most of a frame's work on
a board: CircuitPython collects the heap after an import, and looks up
each name of the module in all the names it knows, so the module has few
of them. Nothing read is trusted: an entry out of order or out of the
file, or a line longer than ``_MAX_LINE``, is no line, and a move of the
line is a hint only where it is legal.
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
    here = __file__
    return here[: here.rfind("lines")] + "lines_" + ("british", "american", "union")[rules] + ".bin"


def find(f, deal, index=-1):
    """The entry of ``deal`` in the open lines file ``f`` (or, with
    ``index`` 0 or more, entry ``index`` modulo their count: a deal at
    random for New game, ``par.random_line_deal``): (deal, moves, where
    they start), or None where there is none or ``f`` is not a lines file.
    Each read is checked, and not the file's size: on a board that is a
    walk of its clusters."""
    head = f.read(_HEADER)
    count = head[4] | head[5] << 8 if head[:4] == MAGIC and len(head) == _HEADER else 0
    if not count:
        return None
    low, high = (index % count, index % count + 1) if index >= 0 else (0, count)
    while low < high:  # the entries are in order of deal number
        middle = (low + high) // 2
        f.seek(_HEADER + _ENTRY * middle)
        data = f.read(_ENTRY)
        if len(data) != _ENTRY:
            return None
        found = (data[0] | data[1] << 8, data[2] | data[3] << 8,
                 data[4] | data[5] << 8 | data[6] << 16 | data[7] << 24)  # fmt: skip
        if not 0 < found[1] <= _MAX_LINE:
            return None
        if index >= 0 or found[0] == deal:
            return found
        if found[0] < deal:
            low = middle + 1
        else:
            high = middle
    return None


def next_move(game, buffer):
    """The next move of ``game``'s shipped line when ``game`` has played
    the line so far, its moves from the deal each the line's; else
    ``_NO_LINE``. ``buffer``: a bytearray of ``2 * _MAX_LINE`` bytes or
    more, for the line. The file is opened once: on a board each open
    looks its path up, a directory at a time."""
    played = game.history_count
    try:
        with open(lines_path(game.rules), "rb") as f:
            found = find(f, game.deal_number)
            if found is None or played >= found[1]:
                return _NO_LINE
            f.seek(found[2])
            if f.readinto(memoryview(buffer)[: 2 * played + 2]) != 2 * played + 2:
                return _NO_LINE  # the line runs out of the file
    except OSError:
        return _NO_LINE
    for k in range(played):
        if game.history_move(k) != buffer[2 * k] << 8 | buffer[2 * k + 1]:
            return _NO_LINE  # off the line
    m = buffer[2 * played] << 8 | buffer[2 * played + 1]
    return m if game.is_legal(m) else _NO_LINE
