"""What a start-up runs once, before any sprite is made: the save loaded and
the game's files checked (``App.__init__`` imports this module and lets it
go once both have run, so its code leaves the heap with them).
"""

from british_square import unload
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
from british_square.words import DamagedFile


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
    from british_square import files

    try:
        files.check_sheet(sheet_path())
        words = files.open_words()
    except DamagedFile as error:
        damaged(app, error)
    finally:
        unload("british_square.files")
    keys = getattr(hardware, "key_names", None)  # the desktop's; a board's are the file's
    if keys:
        words.keys = keys
    return words
