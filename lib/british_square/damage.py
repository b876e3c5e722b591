"""A damaged install, said in one line: a file of the game that cannot be
read (a copy to the drive cut short, a file deleted), named with what mends
it, on the console and the screen. The program then ends (status 2) before
it saves anything, so the save is left as it was. Loaded only when that
happens (``start`` for the save's loader and the data files, ``code.py``
for any other module: ``said``).

What counts: a data file ``files`` finds damaged (``words.DamagedFile``); a
module that is missing (``ImportError``: on a board and the VM any module,
as deploy put every one there; on the desktop one of the game's package,
its libraries being its own install's); one that CircuitPython cannot read
("incompatible .mpy file": the file is found by its header, which no
module it reads has). Anything else is no damage: ``line`` gives ``None``
and the caller raises it again. (A module cut short after a good header
is beyond saying: CircuitPython's loader waits for its missing bytes for
ever, on the VM as on a board.)
"""

import os
import sys

DESKTOP = sys.implementation.name == "cpython"
_UNREADABLE = "incompatible .mpy file"  # CircuitPython's ValueError for such a module


def mend(folder="lib"):
    """What mends a damaged file here: a board's is a deploy; the desktop
    runs from a clone, whose ``folder`` git puts back."""
    if DESKTOP:
        return "git checkout {} mends it".format(folder)
    return "make deploy mends it"


def cannot_load(error):
    """Was ``error`` raised by a module that cannot load (missing, or not one
    the interpreter reads), not by the code it runs?"""
    if isinstance(error, ImportError):
        return bool(_missing(error))
    return isinstance(error, ValueError) and str(error) == _UNREADABLE


def _missing(error):
    """The module (dotted) the ``ImportError`` ``error`` says is not there, or ""."""
    text = str(error)
    if text.lower().startswith("no module named '"):  # CircuitPython's; CPython's "No module"
        return text[17 : text.find("'", 17)]
    # CPython's, for ``from british_square import resume`` with resume.py gone
    if text.startswith("cannot import name '") and " from 'british_square' " in text + " ":
        return "british_square." + text[20 : text.find("'", 20)]
    return ""


def line(error):
    """The line for ``error`` if it says the install is damaged (see above),
    else ``None``."""
    # words.txt, cards.bmp (``words.DamagedFile``, known by its name: this
    # module imports none of the game's, any of which may be what is gone)
    if type(error).__name__ == "DamagedFile":
        return "{}: {}".format(error, mend())
    if not cannot_load(error):
        return None
    if isinstance(error, ImportError):
        name = _missing(error)
        if DESKTOP and not name.startswith("british_square."):
            return None  # a library of the desktop's install, not the game's files
        if name.startswith("british_square.") and not _here():
            name = "british_square.__init__"  # the package's own: a name it holds is "missing"
        file = name.replace(".", "/") + (".py" if DESKTOP else _suffix())
        return "{} is missing: {}".format(_short(file), mend())
    return "{} is damaged: {}".format(_short(_unreadable_file() or "a module"), mend())


def said(error):
    """``code.py``'s: ``error`` said (``line``, ``say``), and status 2, if it
    is a damaged install; anything else raised again, as it came."""
    text = line(error)
    if text is None:
        raise error
    say(text)
    return 2


def say(text, display=None, console=None):
    """``text`` on the ``console`` (a board's serial console: ``print``;
    the desktop's standard error) and on ``display`` (a board's own when
    none is given), in the built-in font."""
    if console is None:
        console = _stderr if DESKTOP else print
    console(text)
    if display is None and not DESKTOP:
        import board

        display = board.DISPLAY
    if display is None:
        return
    try:  # the screen is a nicety: the view may be what is damaged
        from british_square.view import show_damage

        show_damage(display, text, _silent)
    except Exception:  # the console has said it
        pass


def _stderr(text):
    print(text, file=sys.stderr)


def _silent(text):
    pass


def _short(path):
    """A module's file as the player finds it beside the others."""
    return path[len("british_square/") :] if path.startswith("british_square/") else path


def _here():
    """The file of the game's package (its ``__init__``), "" without one."""
    return getattr(sys.modules.get("british_square"), "__file__", "") or ""


def _suffix():
    """The suffix of the game's modules here: ``.mpy`` as deployed, ``.py`` as sources."""
    here = _here()
    return here[here.rfind(".") :] if "." in here else ".mpy"


def _unreadable_file():
    """The first ``.mpy`` on the module path (two folders deep) whose header
    is not the one every module this interpreter read has, or ``None``."""
    here = _here()
    good = _head(here) if here.endswith(".mpy") else b"C\x06"
    for root in sys.path:
        found = _walk(root or ".", "", good, 2)
        if found:
            return found
    return None


def _walk(root, inner, good, depth):
    try:
        names = os.listdir(root + "/" + inner if inner else root)
    except OSError:
        return None
    for name in sorted(names):
        path = inner + "/" + name if inner else name
        if name.endswith(".mpy"):
            if _head(root + "/" + path) != good:
                return path
        elif depth and "." not in name:  # a package's folder
            found = _walk(root, path, good, depth - 1)
            if found:
                return found
    return None


def _head(path):
    try:
        with open(path, "rb") as f:
            return f.read(2)
    except OSError:
        return b""
