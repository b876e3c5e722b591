"""What a start-up runs once, before any sprite is made: the save loaded and
the game's files checked (``App.__init__`` imports this module and lets it
go once both have run, so its code leaves the heap with them). A file that
is missing, cut short or not the game's raises ``words.DamagedFile``,
which names it: better one line saying so than a traceback, or garbage on
the screen, when the file is used.
"""

import binascii
import os

from british_square import sheet, unload
from british_square.cards import const
from british_square.stats import read_number
from british_square.store import (
    HALF_SEQUENCE,
    HEADER_SIZE,
    LAST_SEQUENCE,
    MAGIC,
    SEQUENCE_AT,
    SLOT_B,
)
from british_square.view import sheet_path
from british_square.words import FILE, DamagedFile, Words, place, words_path

_CHUNK = const(512)  # bytes of a file read at a time for its CRC: a sector

# The words.txt this version ships, as tools/words_index.py finds it (and
# tests/test_words.py checks): its size and CRC-32, and where each text
# starts and how many body lines it has. A file of that size and CRC is that
# file, checked all through when it was made, so the start-up takes this
# index instead of reading it through again (a board's 120 ms, the most of
# any step of its start-up, and the checker's import); any other file, a
# translation or a damaged one, is read through and checked. No defence
# against a file made to match: whoever can write the drive can write the code.
# words-index:start
SHIPPED_WORDS = (
    5960,
    0x89EE8AD2,
    (
        ("rule_names", 1263, 3), ("panel", 1322, 4), ("panel_stuck", 1387, 4),
        ("panel_over", 1442, 4), ("title", 1488, 8), ("menu", 1590, 17), ("on_off", 1982, 4),
        ("autoplay_modes", 2047, 3), ("deal", 2087, 8), ("deal_refused", 2178, 0),
        ("rules_british", 2216, 8), ("rules_american", 2484, 7), ("rules_union", 2709, 6),
        ("help_keys", 2905, 8), ("help_keys_union", 3160, 8), ("help_marks", 3409, 8),
        ("help_marks_piles", 3666, 8), ("won", 3937, 8), ("over", 4019, 7), ("finish", 4193, 7),
        ("confirm_abandon", 4354, 6), ("confirm_restart", 4495, 7), ("confirm_end", 4677, 6),
        ("about", 4804, 7), ("about_words", 4979, 1), ("stats", 5019, 8), ("first_start", 5289, 8),
        ("title_words", 5511, 5), ("end_words", 5647, 10),
    ),
)
# words-index:end


def load_save(app, store):
    """The game ``store`` keeps, or ``None``; its loader let go. A function of
    its own, so that no name holds the loader once it returns (a local of
    ``App.__init__`` would keep its code, 5 KB, through the start-up). A
    loader that cannot load (a copy cut short) ends the program, saying
    so: the save is the player's, and kept as it is for the mended game."""
    if not store.may_hold_a_save():
        return None  # a new board, or another program's bytes: nothing to load
    try:
        from british_square import resume

        return resume.load(store)
    except Exception as error:  # MemoryError too: no record may stop the board
        if not isinstance(error, MemoryError):
            damaged(app, error)
        store.forget()
        _past_every_record(store)
        store.caught("loading the save", error, app.console)
        return None
    finally:
        unload("british_square.resume", "british_square.position")


def _past_every_record(store):
    """Number the next save past every record in the block, as ``forget``
    says, where the loader did not get as far as counting them."""
    nvm = store.nvm
    for at in (0, SLOT_B):
        number = read_number(nvm[at : at + HEADER_SIZE], SEQUENCE_AT, 4)
        if nvm[at : at + len(MAGIC)] == MAGIC and 0 < number <= LAST_SEQUENCE:
            last = store.sequence
            if not last or 0 < (number - last) % LAST_SEQUENCE <= HALF_SEQUENCE:
                store.sequence = number


def damaged(app, error):
    """If ``error`` says the install is damaged (``damage``: a data file, a
    module missing), say so on the screen and the console and end the
    program (status 2), before anything is saved."""
    from british_square import damage

    text = damage.line(error)
    if text is not None:
        damage.say(text, app.hardware.display, app.console)
        raise SystemExit(2) from None
    unload("british_square.damage")  # none: the game goes on without it


def open_files(app, hardware):
    """The game's files on the drive, checked once (their checker let go as
    ``load_save``'s loader is): the words, named with ``hardware``'s keys. A
    damaged file ends the program, on the screen and the console."""
    try:
        check_sheet(sheet_path())
        words = open_words()
    except DamagedFile as error:
        damaged(app, error)
    finally:
        unload("british_square.files")
    keys = getattr(hardware, "key_names", None)  # the desktop's; a board's are the file's
    if keys:
        words.keys = keys
    return words


def open_words(path=None):
    """``words.txt`` (at ``path``, else beside the game's modules) as a
    ``Words``, its texts found: from ``SHIPPED_WORDS`` for the file this
    version ships, else by reading it all through (``files.check_words``,
    imported for that, and let go by ``open_files``). Any ``OSError``
    reading it (a folder in its place opens, then fails: EISDIR) is damage."""
    _regular(path or words_path(), FILE)
    words = Words(path)
    try:
        if _size_and_crc(words.file) == SHIPPED_WORDS[:2]:
            for name, at, rows in SHIPPED_WORDS[2]:
                words.texts[name] = place(at, rows)
        else:
            from british_square import files

            files.check_words(words)
    except OSError:
        raise DamagedFile(FILE) from None
    return words


def _size_and_crc(file):
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
    pixels = read_number(header, 10, 4)
    width, height = read_number(header, 18, 4), read_number(header, 22, 4)
    bits, compression = read_number(header, 28, 2), read_number(header, 30, 4)
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
