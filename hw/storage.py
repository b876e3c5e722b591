"""The storage object each machine gives ``british_square.store.Store``.

* Boards (PyGamer, PyBadge) and the CircuitPython VM: ``microcontroller.nvm``
  itself, 8 192 bytes (``board_nvm``). Under the VM it lives in memory, or in
  the file named by the environment variable ``CIRCUITPY_NVM_FILE``, which
  the VM rewrites whole on every write. A board adapter needs no more than
  ``import microcontroller`` and ``microcontroller.nvm``: it should not import
  this module, whose desktop half names ``platformdirs``.
* The desktop (CPython): ``FileNVM``, the same 8 192 bytes in a file
  (``--save PATH``, else ``save.nvm`` in the user's data folder from
  ``platformdirs``), written whole through a temporary file and a rename, so
  a crash leaves the old file or the new one, never a torn one. It keeps
  only a file this game wrote (``is_save``): anything else at the path is
  refused before the game starts, and never written.

The helpers below (``existing_file``, ``read_head``, ``check_folder``,
``replace_whole``) are how every file the desktop writes is checked and
written: the save, and the screenshots of ``hw/desktop.py``.
"""

import os
import stat
import sys
import tempfile

NVM_SIZE = 8192


def board_nvm():
    """``microcontroller.nvm`` (boards, VM), or ``None`` where the build has none."""
    import microcontroller

    return getattr(microcontroller, "nvm", None)


def default_save_path():
    """``save.nvm`` in the user's data folder (desktop)."""
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("british-square", appauthor=False), "save.nvm")


def _kind(mode):
    """What a file that is not a regular one is, for an error line."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"


def existing_file(path, what):
    """The ``os.lstat`` of the regular file at ``path``, or ``None`` when
    nothing is there; ``ValueError``, one line naming ``what``, for anything
    else: a folder, a link, a FIFO, a device, a path under a file. Nothing
    is opened, so a FIFO never blocks."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:  # under a file, no permission, a name too long
        raise ValueError("cannot use {!r} as {}: {}".format(path, what, error.strerror)) from None
    if not stat.S_ISREG(found.st_mode):
        raise ValueError("{!r} is {}, not {}".format(path, _kind(found.st_mode), what))
    return found


def read_head(path, size):
    """At most ``size`` bytes from the start of the regular file at ``path``;
    ``ValueError`` if it cannot be read, or is no longer a regular file."""
    try:
        # no link followed; a FIFO put there since the check opens without waiting
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with open(handle, "rb") as f:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                raise ValueError("{!r} is not a regular file".format(path))
            return f.read(size)
    except OSError as error:
        raise ValueError("cannot read {!r}: {}".format(path, error.strerror)) from None


def check_folder(path):
    """Make the folder that is to hold the file ``path``, if it is missing,
    and see that a file can be made in it (``ValueError`` if not): under a
    file, read-only, ``/proc``. Leaves the folder, nothing in it."""
    try:
        os.close(_temporary(path, remove=True))
    except OSError as error:
        raise ValueError("cannot write {!r}: {}".format(path, error.strerror)) from None


def _temporary(path, remove=False):
    """A new file beside ``path`` (its folder made if need be), named as no
    other file is: its descriptor, and its name unless ``remove``."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
    umask = os.umask(0o22)  # read, to give the file the mode open() would (mkstemp's: 0600)
    os.umask(umask)
    os.chmod(handle, 0o666 & ~umask)
    if remove:
        os.remove(name)
        return handle
    return handle, name


def replace_whole(path, write, check):
    """Put a new file at ``path`` in one step: ``write(f)`` fills a new file
    beside it (binary, never one of the user's names), ``check()`` looks at
    what is at ``path`` now (``ValueError`` to leave it), and a rename puts
    the new file in its place. A crash leaves the old file or the new one.
    ``ValueError``, one line, when it cannot be done; nothing is left behind."""
    try:
        handle, temporary = _temporary(path)
    except OSError as error:
        raise ValueError("cannot write {!r}: {}".format(path, error.strerror)) from None
    try:
        with open(handle, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        check()
        os.replace(temporary, path)
    except OSError as error:  # a full disk, a folder gone read-only
        os.remove(temporary)
        raise ValueError("cannot write {!r}: {}".format(path, error.strerror)) from None
    except BaseException:
        os.remove(temporary)
        raise


def is_save(head):
    """Did this game write a file that starts with ``head`` (at most 8 193
    bytes of it)? Empty, or 8 192 bytes with a record's magic in slot A or B
    (``british_square.store``), or all erased (0xFF)."""
    from british_square.store import MAGIC, SLOT_B

    if len(head) != NVM_SIZE:
        return not head
    return MAGIC in (head[:4], head[SLOT_B : SLOT_B + 4]) or head == b"\xff" * NVM_SIZE


class FileNVM:
    """8 192 bytes kept in a file, used like ``microcontroller.nvm``: ``len()``,
    ``nvm[i]``, ``nvm[a:b]`` (bytes) and slice assignment of the same length,
    which rewrites the whole file. A missing or empty file reads as erased
    flash (0xFF). ``ValueError`` (one line) at once, before anything is
    written, when ``path`` holds anything but a save of this game or its
    folder cannot take a file. Desktop only (CPython)."""

    def __init__(self, path):
        self.path = path
        self.data = bytearray(b"\xff" * NVM_SIZE)
        self.failed = False  # a write failed (said once; play goes on)
        held = self._held()
        self.data[: len(held)] = held
        check_folder(path)

    def _held(self):
        """What the file holds (``b""`` when there is none); ``ValueError``
        when it is not a save of this game."""
        if existing_file(self.path, "a save file") is None:
            return b""
        held = read_head(self.path, NVM_SIZE + 1)
        if not is_save(held):
            raise ValueError(
                "{!r} is not a save file of this game: left as it is".format(self.path)
            )
        return held

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytes(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self.data))
            if step != 1 or len(value) != stop - start:
                raise ValueError("nvm slice assignment must keep the length")
            self.data[start:stop] = value
        else:
            self.data[index] = value
        self._write()

    def _write(self):
        try:
            # what is there now is checked again: a file put there during play stays
            replace_whole(self.path, lambda f: f.write(self.data), self._held)
        except ValueError as error:  # a full disk, a folder gone read-only: play goes on
            if not self.failed:
                self.failed = True
                print("error: the game is not saved: {}".format(error), file=sys.stderr)
