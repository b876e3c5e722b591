"""``words.txt`` read all through and checked (``check_words``), where it is
not the file this version ships (``start.open_words`` knows that one by
its size and CRC): a line at a time, each of a known kind, printable and
named as ``NEEDED`` says. A file that is cut short or not the game's raises
``words.DamagedFile``, which names it: better one line saying so than a
traceback, or garbage on the screen, when the file is used.
"""

from british_square.cards import const
from british_square.menu import ENTRY_SIZE, MENU_ROWS
from british_square.piles import RULE_NAMES
from british_square.stats import AUTOPLAY_NAMES
from british_square.words import (
    BODY,
    CENTRED,
    END,
    FILE,
    KINDS,
    ROW_BITS,
    ROWS_MOST,
    TEXT,
    DamagedFile,
    place,
)

TEXTS_AT_MOST = const(40)  # a file with more "@" lines is not ours

# The files beside the modules that the game opens, and the only ones of its
# folder that deploy and the bundle ship (tools/deploy_plan.py reads this
# literal; tests/test_deploy.py checks that each is a name the code opens:
# sheet.SHEET_FILE, words.FILE, par.par_path's, par.lines_path's).
SHIPPED = (
    "cards.bmp",
    "words.txt",
    "par_british.bin",
    "par_american.bin",
    "par_union.bin",
    "lines_american.bin",
    "lines_union.bin",
)
_COMMENT = const(35)  # "#": before the first text only

# Every text the game shows, with the lines it picks from it by name
# (tests/test_words.py checks that the code asks for these and no others).
NEEDED = (
    ("rule_names", RULE_NAMES),
    ("panel", ("stock", "home", "moves", "deal")),
    ("panel_stuck", ("home",)),
    ("panel_over", ("home",)),
    ("title", ()),
    ("menu", ("title",) + tuple(MENU_ROWS[at] for at in range(0, len(MENU_ROWS), ENTRY_SIZE))
             + ("footer",)),
    ("on_off", ("off", "on", "none", "no_backlight")),
    ("autoplay_modes", AUTOPLAY_NAMES),
    ("deal", ()),
    ("deal_refused", ()),
) + tuple(("rules_" + name, ()) for name in RULE_NAMES) + (  # a page for each rule set
    ("help_keys", ()),
    ("help_keys_union", ()),
    ("help_marks", ("up", "down", "free", "king", "done")),
    ("help_marks_piles", ("up", "down", "free", "king", "done", "count")),
    ("won", ()),
    ("over", ()),
    ("finish", ()),
    ("confirm_abandon", ()),
    ("confirm_restart", ()),
    ("confirm_end", ()),
    ("about", ()),
    ("about_words", ("measuring",)),
    ("stats", ()),
    ("first_start", RULE_NAMES),
    ("title_words", ("play", "continue", "unreadable", "earlier", "skip")),
    ("end_words", ("stuck", "ended", "first", "moves_time", "moves", "time", "streak", "home",
                   "par_beaten", "won_all")),
)  # fmt: skip


def _needed(name):
    """The name as ``NEEDED`` has it (one string for the file's and the
    code's), and the names of the lines wanted from it; None, () if unknown."""
    for text, lines in NEEDED:
        if text == name:
            return text, lines
    return None, ()


def check_words(words):
    """Read ``words`` (a ``Words`` just opened) all through: each line of a
    known kind, printable, not too long; each text and named line in
    ``NEEDED``, in its order, and nothing else; "@end" last, so that a file
    cut short shows. Where each text starts goes into its ``texts``."""
    name, missing, rows, count = None, (), 0, 0
    texts = words.texts
    raw = words.raw
    while True:
        size = words.read()
        if size < 0:
            raise DamagedFile(FILE)  # no "@end": cut short
        kind = raw[0] if size else 0
        if kind == TEXT:
            count += 1
            if count > TEXTS_AT_MOST or missing:
                raise DamagedFile(FILE)
            if name is not None:
                if rows > ROWS_MOST:
                    raise DamagedFile(FILE)
                texts[name] = place(texts[name] >> ROW_BITS, rows)
            if raw[:size] == END:
                break
            name, missing = _needed(words.decoded(1, size))
            if name is None or name in texts:
                raise DamagedFile(FILE)
            missing = list(missing)
            texts[name] = place(words.at, 0)
            rows = 0
        elif name is None and kind == _COMMENT:
            continue
        elif name is None or not size or kind not in KINDS or not _printable(raw, size):
            raise DamagedFile(FILE)
        else:
            end = words.name_end_at(size)  # its "[name]", if it has one
            line = words.decoded(2, end) if end else ""
            if line:  # in ``NEEDED``'s order (the menu's rows are found by it)
                if not missing or line != missing[0]:
                    raise DamagedFile(FILE)
                missing.pop(0)
            if kind == BODY or kind == CENTRED:
                rows += 1
    if words.read() >= 0 or len(texts) != len(NEEDED):
        raise DamagedFile(FILE)  # more after "@end", or a text missing


def _printable(raw, size):
    """Are the first ``size`` bytes of ``raw`` plain ASCII the font has, with
    braces only in pairs, none inside another: "{}" or "{A}"? (Searched in
    C: a byte at a time in Python, the whole file cost a board 0.1 s.)"""
    line = raw[:size]
    if min(line) < 32 or max(line) > 126:
        return False
    at = 0
    while True:
        opened, closed = line.find(b"{", at), line.find(b"}", at)
        if opened < 0:
            return closed < 0
        inner = line.find(b"{", opened + 1)
        if closed < opened or 0 <= inner < closed:
            return False
        at = closed + 1
