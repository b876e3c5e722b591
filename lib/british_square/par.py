"""Par: the most cards home the solver found on each deal, read from flash.

``par_<rules>.bin`` beside this module holds one byte per deal number (deal
N at offset N - 1, 31999 bytes): 104 for a deal the solver won, else the
most cards home it found, 0 for a deal not surveyed. The board reads one
byte by seeking and never loads a file: a read allocates only the file
object and its path, freed as soon as it returns.
"""

from british_square.cards import const

_DEALS = const(31999)
_WON = const(104)
_CHUNK = const(64)
_DRAWS = const(64)  # random deals tried before the file is counted out
# piles.RULE_NAMES, as the files are named: par stands without the engine
# (tests/test_par.py reads it alone in 16 KB and checks the names agree)
_RULE_FILES = ("british", "american", "union")
_one = bytearray(1)
_last = [0, 0]  # the deal last asked for (its rule set and number) and its par


def par_path(rules):
    """The par file of rule set ``rules`` (``/lib/british_square/par_union.bin`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + "par_" + _RULE_FILES[rules] + ".bin"


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
WON_DEALS = (0, 31952, 31997)


# How many deals of each rule set have a winning line shipped (lines.py;
# tests/test_lines.py counts them): American's; Union Square's solver wins
# run to a thousand moves and more, past what a board's save keeps (451).
# Their reader is loaded only for a rule set with some.
LINE_DEALS = (0, 500, 0)


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


def random_line_deal(rules):
    """A deal whose winning line the board ships (``lines``), at random; 0
    where ``rules`` ships none, or its file is missing. Hints alone win it."""
    if not LINE_DEALS[rules]:
        return 0
    from british_square import unload

    try:
        import random

        from british_square import lines  # for the deal, and let go

        with open(lines.lines_path(rules), "rb") as f:
            found = lines.find(f, 0, random.getrandbits(30))
        return found[0] if found else 0
    except (MemoryError, OSError):  # a heap too broken up to load it, or no file: a surveyed deal
        return 0
    finally:
        unload("british_square.lines")
