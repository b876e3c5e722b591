"""What a start-up runs once, before any sprite is made: the save loaded and
the game's files checked (``App.__init__`` imports this module and lets it
go once both have run, so its code leaves the heap with them).
"""

from british_square import unload
from british_square.view import sheet_path, show_damage
from british_square.words import DamagedFile


def load_save(app, store):
    """The game ``store`` keeps, or ``None``; its loader let go. A function of
    its own, so that no name holds the loader once it returns (a local of
    ``App.__init__`` would keep its code, 5 KB, through the start-up)."""
    try:
        from british_square import resume

        return resume.load(store)
    except Exception as error:  # MemoryError too: no record may stop the board
        store.forget()
        store.caught("loading the save", error, app.console)
        return None
    finally:
        unload("british_square.resume", "british_square.position")


def open_files(app, hardware):
    """The game's files on the drive, checked once (their checker let go as
    ``load_save``'s loader is): the words, named with ``hardware``'s keys. A
    damaged file ends the program, on the screen and the console."""
    from british_square import files

    try:
        files.check_sheet(sheet_path())
        words = files.open_words()
    except DamagedFile as damage:
        show_damage(hardware.display, damage, app.console)
        raise SystemExit(2) from None
    finally:
        unload("british_square.files")
    keys = getattr(hardware, "key_names", None)  # the desktop's; a board's are the file's
    if keys:
        words.keys = keys
    return words
