"""What deploy may touch on the drive, and how it writes there safely.

Every path is checked (``path_problem``, ``drive_state``) before it is
read, written, renamed or removed; files go under temporary names, are
synced, then renamed into place with code.py last, so an interruption
never leaves a broken game.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from pathlib import Path

from deploy_shared import (
    ASSET_SUFFIXES,
    ENTRY,
    GAME_FOLDERS,
    MANIFEST,
    TEMP_SUFFIX,
    DeployError,
    Item,
    Plan,
    Reporter,
)

# FAT keeps at most 255 characters per name; Windows paths stop at 260 with "E:\\".
MAX_NAME = 255
MAX_PATH = 255

# Characters a FAT drive does not allow in a name (":" also makes "C:x" absolute
# on Windows, "\\" is Windows' separator) and control characters, NUL included.
_NOT_IN_FAT_NAMES = re.compile(r'[\x00-\x1f"*:<>?\\|\x7f]')

ABSENT, FILE, FOLDER, IN_THE_WAY = "absent", "file", "folder", "in the way"


def path_problem(path: object) -> str | None:
    """Why ``path`` is not a plain relative path to a file inside the drive, or None.

    Every path read from the drive (a manifest entry) and every path deploy
    writes, renames or removes passes this first: relative, "/"-separated,
    normalised (no "", "." or ".." parts), no character FAT refuses, no name
    FAT would change (a trailing dot or space), not longer than FAT allows.
    """
    if not isinstance(path, str):
        return "is not a string"
    if not path:
        return "is empty"
    if path.startswith("/") or re.match(r"[A-Za-z]:", path):
        return "is absolute"
    bad = _NOT_IN_FAT_NAMES.search(path)
    if bad:
        return "holds {!r}, which a FAT drive does not allow in names".format(bad.group())
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "is not a plain path inside the drive (it has an empty, '.' or '..' part)"
    if any(part.endswith((".", " ")) for part in parts):
        return "has a name ending in a dot or a space, which FAT drops"
    if len(path) > MAX_PATH or any(len(part) > MAX_NAME for part in parts):
        return "is longer than a FAT drive allows"
    return None


def is_game_path(path: object) -> bool:
    """A path deploy may write: code.py, or a module or asset under lib/ or hw/."""
    if path_problem(path) is not None:
        return False
    suffix = Path(path).suffix.lower()
    return path == ENTRY or (
        path.split("/")[0] in GAME_FOLDERS and suffix in {".py", ".mpy"} | ASSET_SUFFIXES
    )


def shown(path: object, limit: int = 80) -> str:
    """``path`` quoted for a message on one line, however long or odd it is."""
    text = repr(path)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


def drive_state(drive: str | Path, path: str) -> tuple[str, str | None]:
    """(state, why) for ``path`` (already checked by path_problem) on the drive.

    Each step is looked at without following links: a symbolic link anywhere
    on the way, a file where a folder must be, or a folder (or device) where
    a file must be is IN_THE_WAY, and ``why`` says which and what it is.
    """
    current = Path(drive)
    parts = path.split("/")
    for index, part in enumerate(parts):
        current = current / part
        step = "/".join(parts[: index + 1])
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return ABSENT, None
        except OSError as error:
            return IN_THE_WAY, "{} cannot be read ({})".format(step, error.strerror or error)
        if stat.S_ISLNK(mode):
            return IN_THE_WAY, "{} is a symbolic link (deploy never follows links)".format(step)
        if index < len(parts) - 1 and not stat.S_ISDIR(mode):
            return IN_THE_WAY, "{} is a file where {} needs a folder".format(step, path)
        if index == len(parts) - 1 and not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            return IN_THE_WAY, "{} is {} where deploy writes a file".format(step, kind)
    return FILE, None


def file_digest(drive: str | Path, path: str) -> str | None:
    """The sha256 of the regular file at ``path`` on the drive, or None if there is none
    (or it is reached through a link, or unreadable: then it is not the game's)."""
    if drive_state(drive, path)[0] != FILE:
        return None
    try:
        return hashlib.sha256((Path(drive) / path).read_bytes()).hexdigest()
    except OSError:
        return None


def write_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and push it to the device before returning.

    A link at ``path`` is refused (O_NOFOLLOW), never written through.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags, 0o666), "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def sync() -> None:
    if hasattr(os, "sync"):
        os.sync()


VANISHED = (errno.ENOENT, errno.EIO, errno.ENODEV, errno.ENXIO)


def explain(error: OSError) -> str:
    """A sentence for an OSError met while writing to the drive."""
    if error.errno == errno.ENOSPC:
        return "the drive is full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (
            "the drive is read-only to this computer (a boot.py that remounts CIRCUITPY "
            "for the board's own use does this; remove it or press reset, and check the board "
            "is not in safe mode)"
        )
    if error.errno in VANISHED:
        return "the drive went away (unplugged or reset?)"
    return str(error)


def _remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _prune_empty_dirs(drive, path):
    """Remove folders left empty by our removals, up to (not including) the root and lib/."""
    folder = (Path(drive) / path).parent
    while folder != Path(drive) and folder.name != "lib" and folder.is_dir():
        if any(folder.iterdir()):
            return
        folder.rmdir()
        folder = folder.parent


def stage_files(
    drive: str | Path, plan: Plan, staged: list[tuple[Path, Item]], reporter: Reporter
) -> None:
    """Write every changed file under a temporary name, adding (temp, item) to ``staged``
    before each write so that a failure can clean up even the half-written one."""
    done_bytes = 0
    total = len(plan.writes)
    for number, item in enumerate(plan.writes, 1):
        target = Path(drive) / item.path
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(target.name + TEMP_SUFFIX)
        staged.append((temp, item))
        write_file(temp, item.data)
        done_bytes += len(item.data)
        reporter.say(
            "[{:>3}/{}] {:>8} / {} bytes  {}".format(
                number, total, done_bytes, plan.bytes_to_write, item.path
            )
        )


def switch_over(drive: str | Path, staged: list[tuple[Path, Item]], plan: Plan) -> None:
    """Rename the new files into place, drop stale ones, then code.py last."""
    entries = [pair for pair in staged if pair[1].path == ENTRY]
    for temp, item in staged:
        if item.path != ENTRY:
            os.replace(temp, Path(drive) / item.path)
    for path in plan.removals:
        _remove_quietly(Path(drive) / path)
        _prune_empty_dirs(drive, path)
    for temp, item in entries:
        os.replace(temp, Path(drive) / item.path)


def apply_plan(
    drive: str | Path,
    plan: Plan,
    old_manifest: dict,
    new_manifest: bytes,
    pending_manifest: bytes,
    reporter: Reporter,
) -> None:
    """Write the plan to the drive so that an interruption never breaks the old game."""
    drive = Path(drive)
    for leftover in plan.leftovers:
        _remove_quietly(leftover)
    staged = []
    try:
        write_manifest(drive, pending_manifest)
        stage_files(drive, plan, staged, reporter)
        sync()
    except OSError as error:
        for temp, item in staged:
            _remove_quietly(temp)
            _prune_empty_dirs(drive, item.path)  # folders made for the new files
        _restore_manifest(drive, old_manifest)
        raise DeployError(
            "copying stopped: {}. The game already on the board is untouched (code.py was "
            "not replaced); fix that and run the deploy again.".format(explain(error))
        ) from None
    try:
        switch_over(drive, staged, plan)
        write_manifest(drive, new_manifest)
        sync()
    except OSError as error:
        raise DeployError(
            "the drive failed while switching to the new files: {}. The board may hold a "
            "mix of old and new files; plug it back in and run the deploy again.".format(
                explain(error)
            )
        ) from None


def _restore_manifest(drive, old_manifest):
    try:
        if old_manifest["files"]:
            write_manifest(
                drive, (json.dumps(old_manifest, indent=1, sort_keys=True) + "\n").encode()
            )
        else:
            os.remove(Path(drive) / MANIFEST)
    except OSError:
        pass  # the pending manifest lists old and new files: still right for the next deploy


def write_manifest(drive: str | Path, data: bytes) -> None:
    target = Path(drive) / MANIFEST
    temp = target.with_name(target.name + TEMP_SUFFIX)
    try:
        write_file(temp, data)
        os.replace(temp, target)
    except OSError:
        _remove_quietly(temp)
        raise
