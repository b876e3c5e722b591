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
  a crash leaves the old file or the new one, never a torn one.
"""

NVM_SIZE = 8192


def board_nvm():
    """``microcontroller.nvm`` (boards, VM), or ``None`` where the build has none."""
    import microcontroller

    return getattr(microcontroller, "nvm", None)


def default_save_path():
    """``save.nvm`` in the user's data folder (desktop)."""
    import os

    import platformdirs

    return os.path.join(platformdirs.user_data_dir("british-square", appauthor=False), "save.nvm")


class FileNVM:
    """8 192 bytes kept in a file, used like ``microcontroller.nvm``: ``len()``,
    ``nvm[i]``, ``nvm[a:b]`` (bytes) and slice assignment of the same length,
    which rewrites the whole file. A missing file reads as erased flash (0xFF),
    a short one as its bytes then 0xFF, a long one as its first 8 192 bytes.
    Desktop only (CPython)."""

    def __init__(self, path, size=NVM_SIZE):
        self.path = path
        self.data = bytearray(b"\xff" * size)
        self.failed = False  # a write failed (said once; play goes on)
        try:
            with open(path, "rb") as f:
                held = f.read(size)
        except FileNotFoundError:
            held = b""
        except OSError as error:  # a folder, no permission: one line from code.py
            raise OSError("cannot read the save file {}: {}".format(path, error.strerror)) from None
        self.data[: len(held)] = held

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
        import os

        try:
            folder = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(folder, exist_ok=True)
            temporary = self.path + ".tmp"
            with open(temporary, "wb") as f:
                f.write(self.data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, self.path)
        except OSError as error:  # a full disk, a folder gone read-only: play goes on
            if not self.failed:
                self.failed = True
                print("error: cannot save to {}: {}".format(self.path, error.strerror))
