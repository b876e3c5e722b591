"""What the board knows of each deal, read from flash: its par, and for the
deals New game deals where the board ships them, a winning line.

``par_<rules>.bin`` beside this module holds one byte per deal number (deal
N at offset N - 1, 31999 bytes): 104 for a deal the solver won, else the
most cards home it found, 0 for a deal not surveyed. The board reads one
byte by seeking and never loads a file: a read allocates only the file
object and its path, freed as soon as it returns.

``lines_<rules>.bin`` (written by tools/ship_lines.py) holds a desktop
search's win of each deal New game deals under a rule set that has them
(American and Union Square: ``LINE_DEALS`` counts them), so that a hint
on the line is its next move and hints alone win the deal. A deal's entry
is found by its number, so a hint reads its line with two seeks and no
search, into the hint's own scratch:

    magic     4  b"BSL2"
    deals     2  N: deals 1 to N have an entry; little-endian, as every number here
    entries   6  each, deal 1 to N: its line's moves (2; 0 for none), where they start (4)
    moves     2  each: its source and its target pile (a save's layout)

Nothing read is trusted: an entry out of the file, or a line longer than
``MAX_LINE``, is no line, and a move of the line is a hint only where it is
legal.
"""

from british_square.cards import const

_DEALS = const(31999)
_WON = const(104)
_CHUNK = const(64)
_DRAWS = const(64)  # random deals tried before the file is counted out
# piles.RULE_NAMES, as the files are named: par stands without the engine
# (tests/test_par.py reads it alone in 20 KB and checks the names agree)
_RULE_FILES = ("british", "american", "union")
_one = bytearray(1)
_last = [0, 0]  # the deal last asked for (its rule set and number) and its par
LINES_MAGIC = b"BSL2"
LINES_HEAD = const(6)
LINES_ENTRY = const(6)
# A line's moves at most: two bytes each, they fill a buffer of
# 2 * engine.MAX_MOVES bytes, the legal moves' scratch that a hint borrows.
MAX_LINE = const(306)
NO_LINE = const(-1)


def _beside(prefix, rules):
    """The data file ``prefix`` + the name of ``rules`` + ``.bin`` beside this module."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + prefix + _RULE_FILES[rules] + ".bin"


def par_path(rules):
    """The par file of rule set ``rules`` (``/lib/british_square/par_union.bin`` on a board)."""
    return _beside("par_", rules)


def lines_path(rules):
    """The lines file of rule set ``rules`` (``/lib/british_square/lines_union.bin``)."""
    return _beside("lines_", rules)


def par(rules, deal):
    """Par of ``deal`` (0-104); 0 when it was not surveyed, the number is out
    of range, or the file is missing or damaged (nothing from flash is trusted)."""
    if not 1 <= deal <= _DEALS:
        return 0
    asked = rules << 15 | deal
    if _last[0] == asked:  # the title, Won and Game over ask for the game's own (1 ms)
        return _last[1]
    try:
        with open(par_path(rules), "rb") as f:
            f.seek(deal - 1)
            if f.readinto(_one) != 1:
                return 0
    except OSError:
        return 0
    value = _one[0] if _one[0] <= _WON else 0
    _last[0], _last[1] = asked, value
    return value


def _deals(rules, wanted, least):
    """Count the deals whose par is at least ``least``, or with ``wanted`` >= 0
    return the number of the ``wanted``-th of them (from 0); reads the file in
    small chunks."""
    chunk = bytearray(_CHUNK)
    seen = 0
    deal = 1
    try:
        with open(par_path(rules), "rb") as f:
            while deal <= _DEALS:
                count = f.readinto(chunk)
                if not count:
                    break
                for i in range(min(count, _DEALS - deal + 1)):
                    if least <= chunk[i] <= _WON:
                        if seen == wanted:
                            return deal + i
                        seen += 1
                deal += count
    except OSError:
        return 0
    return seen if wanted < 0 else 0


def _random_deal(rules, least):
    """A deal picked at random, every deal whose par is at least ``least``
    as likely as another: deals drawn at random until one has it (one
    byte read each), and only when ``_DRAWS`` draws found none (few such
    deals, or none), one of them counted out of the whole file (a scan of
    31 999 bytes in Python: a quarter of a second on a board)."""
    import random

    try:
        with open(par_path(rules), "rb") as f:
            for _ in range(_DRAWS):
                deal = random.randrange(_DEALS) + 1
                f.seek(deal - 1)
                if f.readinto(_one) == 1 and least <= _one[0] <= _WON:
                    return deal
    except OSError:
        return 0
    count = _deals(rules, -1, least)
    return _deals(rules, random.randrange(count), least) if count else 0


# How many deals of each rule set the solver won, in the par files shipped
# (tests/test_par.py counts them): the menu says "none" for a rule set
# with none, where counting the file out took a board a third of a second.
WON_DEALS = (0, 31999, 31999)


# How many deals of each rule set have a winning line shipped
# (tests/test_lines.py counts them): none of British Square's (every deal
# is lost). A lines file is opened only for a rule set with some.
LINE_DEALS = (0, 500, 500)


def has_won_deal(rules):
    """Has the solver won any deal of ``rules``?"""
    return WON_DEALS[rules] > 0


def random_won_deal(rules):
    """A deal number picked at random among the won deals of ``rules``, or 0
    when there is none: for "winnable deals only". One whose winning line
    the board ships, where ``rules`` has them (``random_line_deal``)."""
    return random_line_deal(rules) or _random_deal(rules, _WON)


def random_par_deal(rules):
    """A deal number picked at random among the deals of ``rules`` that have
    par (surveyed), or 0 when there is none: a new game's target is known.
    One whose winning line the board ships, where ``rules`` has them."""
    return random_line_deal(rules) or _random_deal(rules, 1)


def _line_deals(f, view):
    """N, the last deal with an entry in the lines file ``f`` (just
    opened), its header read into ``view``; 0 for a file that is not one."""
    if f.readinto(view[:LINES_HEAD]) != LINES_HEAD or view[:4] != LINES_MAGIC:
        return 0
    return view[4] | view[5] << 8


def _line_moves(f, deal, view):
    """The moves of ``deal``'s line (1 to N) in the lines file ``f``, its
    entry read into ``view``; 0 for none, an entry out of the file, or a
    line longer than ``MAX_LINE``."""
    f.seek(LINES_HEAD + LINES_ENTRY * (deal - 1))
    if f.readinto(view[:LINES_ENTRY]) != LINES_ENTRY:
        return 0
    moves = view[0] | view[1] << 8
    return moves if moves <= MAX_LINE else 0


def random_line_deal(rules):
    """A deal whose winning line the board ships, at random, every such deal
    as likely as another (deals up to the last with a line drawn until one
    has it: most have); 0 where ``rules`` ships none, or its file is
    missing or not one. Hints alone win it."""
    if not LINE_DEALS[rules]:
        return 0
    import random

    entry = memoryview(bytearray(LINES_HEAD))
    try:
        with open(lines_path(rules), "rb") as f:
            last = _line_deals(f, entry)
            for _ in range(_DRAWS if last else 0):
                deal = random.randrange(last) + 1
                if _line_moves(f, deal, entry):
                    return deal
    except OSError:
        pass
    return 0


def line_move(game, buffer):
    """The next move of the shipped line of ``game``'s deal, when the game
    has played that line so far (each of its moves from the deal the
    line's); else ``NO_LINE``. Read into ``buffer``, a bytearray of
    ``2 * MAX_LINE`` bytes or more (the hint's scratch): the file object
    and its path are all it allocates."""
    played, deal = game.history_count, game.deal_number
    view = memoryview(buffer)
    try:
        with open(lines_path(game.rules), "rb") as f:
            if not 0 < deal <= _line_deals(f, view):
                return NO_LINE
            if not played < _line_moves(f, deal, view):
                return NO_LINE  # no line, or played out
            f.seek(buffer[2] | buffer[3] << 8 | buffer[4] << 16 | buffer[5] << 24)
            size = 2 * played + 2
            if f.readinto(view[:size]) != size:
                return NO_LINE  # the line runs out of the file
    except OSError:
        return NO_LINE
    if not game.history_is(buffer, played):
        return NO_LINE  # off the line
    m = buffer[2 * played] << 8 | buffer[2 * played + 1]
    return m if game.is_legal(m) else NO_LINE
