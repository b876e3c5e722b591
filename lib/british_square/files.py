"""The game's files on the drive, checked once at start-up (then let go):
``words.txt`` (``open_words``) and the sprite sheet ``cards.bmp``
(``check_sheet``). A file that is missing, cut short or not the game's
raises ``words.DamagedFile``, which names it: better one line saying so
than a traceback, or garbage on the screen, when the file is used.
"""

import binascii
import os

from british_square import sheet
from british_square.cards import const
from british_square.menu import MENU_LINES
from british_square.piles import RULE_NAMES
from british_square.stats import AUTOPLAY_NAMES
from british_square.words import (
    BODY,
    CENTRED,
    END,
    FILE,
    KINDS,
    TEXT,
    DamagedFile,
    Words,
    words_path,
)

TEXTS_AT_MOST = const(40)  # a file with more "@" lines is not ours

# The files beside the modules that the game opens, and the only ones of its
# folder that deploy and the bundle ship (tools/deploy_plan.py reads this
# literal; tests/test_deploy.py checks that each is a name the code opens:
# sheet.SHEET_FILE, words.FILE, par.par_path's).
SHIPPED = ("cards.bmp", "words.txt", "par_british.bin", "par_american.bin", "par_union.bin")
_COMMENT = const(35)  # "#": before the first text only
_CHUNK = const(512)  # bytes of the file read at a time for its CRC: a sector

# The words.txt this version ships, as tools/words_index.py finds it (and
# tests/test_words.py checks): its size and CRC-32, and, in ``NEEDED``'s
# order, where each text starts and how many body lines it has. A file of
# that size and CRC is that file, checked when it was made, so the start-up
# takes this index and skips the read all through (a board's 120 ms, the
# most of any step of its start-up); any other file, a translation or a
# damaged one, is read all through and checked. Not a defence against a
# file made to match: whoever can write the drive can write the code.
# words-index:start
SHIPPED_WORDS = (
    5518,
    0x603AE605,
    (
        (1063, 3), (1122, 4), (1187, 4), (1242, 4), (1288, 8), (1367, 17), (1750, 4), (1815, 3),
        (1855, 8), (1946, 0), (1984, 8), (2252, 7), (2477, 6), (2673, 8), (2928, 8), (3177, 8),
        (3434, 8), (3679, 8), (3748, 7), (3885, 7), (4041, 6), (4173, 7), (4350, 6), (4468, 7),
        (4605, 1), (4645, 8), (4844, 8), (5069, 5), (5205, 10),
    ),
)
# words-index:end

# Every text the game shows, with the lines it picks from it by name
# (tests/test_words.py checks that the code asks for these and no others).
NEEDED = (
    ("rule_names", RULE_NAMES),
    ("panel", ("stock", "home", "moves", "deal")),
    ("panel_stuck", ("home",)),
    ("panel_over", ("home",)),
    ("title", ()),
    ("menu", ("title",) + MENU_LINES + ("footer",)),
    ("on_off", ("off", "on", "none", "no_backlight")),
    ("autoplay_modes", AUTOPLAY_NAMES),
    ("deal", ()),
    ("deal_refused", ()),
    ("rules_british", ()),
    ("rules_american", ()),
    ("rules_union", ()),
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


def open_words(path=None):
    """``words.txt`` (at ``path``, else beside the game's modules) as a
    ``Words``, read all through once: each line of a known kind, printable,
    not too long; each text and named line in ``NEEDED``, in its order, and nothing else;
    "@end" last, so that a file cut short shows. Where each text starts
    goes into its ``texts``. Any ``OSError`` reading it (a folder in its
    place opens, then fails: EISDIR) is damage too."""
    _regular(path or words_path(), FILE)
    words = Words(path)
    try:
        if _crc(words.file) == SHIPPED_WORDS[:2]:
            for (name, _), place in zip(NEEDED, SHIPPED_WORDS[2]):
                words.texts[name] = place
        else:
            _check_words(words)
    except OSError:
        raise DamagedFile(FILE) from None
    return words


def _crc(file):
    """The size and the CRC-32 of the open ``file``, read from its start."""
    file.seek(0)
    chunk = bytearray(_CHUNK)
    size = crc = 0
    while True:
        got = file.readinto(chunk)
        if not got:
            return size, crc
        size += got
        crc = binascii.crc32(chunk if got == _CHUNK else memoryview(chunk)[:got], crc)


def _check_words(words):
    """Read ``words`` all through, as ``open_words`` says."""
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
                texts[name] = (texts[name][0], rows)
            if raw[:size] == END:
                break
            name, missing = _needed(words.decoded(1, size))
            if name is None or name in texts:
                raise DamagedFile(FILE)
            missing = list(missing)
            texts[name] = (words.at, 0)
            rows = 0
        elif name is None and kind == _COMMENT:
            continue
        elif name is None or not size or kind not in KINDS or not _printable(raw, size):
            raise DamagedFile(FILE)
        else:
            line = words.line_name(size)
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


def check_sheet(path):
    """``DamagedFile`` unless ``path`` is the sprite sheet: a 4-bit BMP of
    ``sheet.SHEET_W`` x ``sheet.SHEET_H`` pixels, its rows from
    ``sheet.SHEET_PIXELS_AT`` and all there (the view reads them whole at
    start-up: a short file would stop it, another layout show garbage)."""
    _regular(path, sheet.SHEET_FILE)
    try:
        with open(path, "rb") as f:
            header = f.read(34)
            size = f.seek(0, 2)
    except OSError:
        raise DamagedFile(sheet.SHEET_FILE) from None
    if len(header) < 34 or header[:2] != b"BM":
        raise DamagedFile(sheet.SHEET_FILE)
    pixels = _number(header, 10, 4)
    width, height = _number(header, 18, 4), _number(header, 22, 4)
    bits, compression = _number(header, 28, 2), _number(header, 30, 4)
    row_bytes = (width * bits + 31) // 32 * 4
    if (width, height, bits, compression) != (sheet.SHEET_W, sheet.SHEET_H, 4, 0):
        raise DamagedFile(sheet.SHEET_FILE)
    if pixels != sheet.SHEET_PIXELS_AT or size < pixels + row_bytes * height:
        raise DamagedFile(sheet.SHEET_FILE)


def _regular(path, name):
    """``DamagedFile`` (``name``) unless ``path`` is a regular file, before it
    is opened: a FIFO there would wait for a writer for ever (the desktop's
    start-up hung), a folder opens and then fails."""
    try:
        regular = os.stat(path)[0] & 0o170000 == 0o100000  # S_IFMT, S_IFREG
    except OSError:
        regular = False
    if not regular:
        raise DamagedFile(name)


def _number(data, at, count):
    """The little-endian unsigned number of ``count`` bytes at ``data[at]``."""
    value = 0
    for i in range(count - 1, -1, -1):
        value = value << 8 | data[at + i]
    return value
