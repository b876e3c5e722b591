"""What deploy may touch on the drive, and how it writes there safely.

Every path is checked (``path_problem``, ``drive_state``) before it is
read, written, renamed or removed; files go under temporary names, are
synced, then renamed into place between taking the old code.py away and
putting the new one last, so an interruption leaves the old game, the new
one, or no code.py (``switch_over``), never a mix that runs.
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


# What file_digest gives for a file it cannot read: no file of the game's has it.
UNREADABLE = "unreadable"


def file_digest(drive: str | Path, path: str) -> str | None:
    """The sha256 of the regular file at ``path`` on the drive; None if there is none
    (or only a link, a folder...); UNREADABLE if it cannot be read (then it is not
    the game's, and not nothing either)."""
    if drive_state(drive, path)[0] != FILE:
        return None
    digest = hashlib.sha256()
    try:
        with open(Path(drive) / path, "rb") as source:
            for block in iter(lambda: source.read(1 << 16), b""):
                digest.update(block)
    except OSError:
        return UNREADABLE
    return digest.hexdigest()


def read_small(drive: str | Path, path: str, limit: int) -> tuple[bytes | None, str | None]:
    """(bytes, None) for the regular file at ``path`` on the drive, or (None, why) when
    it is absent, not a regular file, behind a link, unreadable, or longer than
    ``limit`` (deploy reads only small files of the drive: boot_out.txt, the manifest)."""
    state = drive_state(drive, path)[0]
    if state == ABSENT:
        return None, "it is not there"
    if state != FILE:
        return None, "it is not a plain file: a folder, a link or a device"
    try:
        with open(Path(drive) / path, "rb") as source:
            data = source.read(limit + 1)
    except OSError as error:
        return None, "it cannot be read ({})".format(error.strerror or error)
    if len(data) > limit:
        return None, "it is over {} bytes".format(limit)
    return data, None


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
    """Put the staged files in place so that the board, reset at any moment, finds
    the old game, the new one, or no code.py at all (it then waits for the next deploy):

    1. the old code.py goes first, if anything else changes (plan_changes
       then always writes code.py too);
    2. the new modules, assets and libraries are renamed into place, and the
       game's stale files removed;
    3. the new code.py comes last.
    """
    drive = Path(drive)
    entry = [temp for temp, item in staged if item.path == ENTRY]
    others = [(temp, item) for temp, item in staged if item.path != ENTRY]
    stale = [path for path in plan.removals if path != ENTRY]
    if ENTRY in plan.removals or (entry and (others or stale)):
        if drive_state(drive, ENTRY)[0] == FILE:
            os.remove(drive / ENTRY)
            sync()
    for temp, item in others:
        os.replace(temp, drive / item.path)
    for path in stale:
        _remove_quietly(drive / path)
        _prune_empty_dirs(drive, path)
    sync()
    for temp in entry:
        os.replace(temp, drive / ENTRY)


def remove_leftovers(drive: str | Path, plan: Plan) -> None:
    """Remove the temporary files an interrupted deploy left (plan.leftovers: only
    names the plan or the manifest gives), and folders they leave empty."""
    for path in plan.leftovers:
        _remove_quietly(Path(drive) / path)
        _prune_empty_dirs(drive, path)


def apply_plan(
    drive: str | Path,
    plan: Plan,
    old_manifest: dict,
    new_manifest: bytes,
    pending_manifest: bytes,
    reporter: Reporter,
) -> None:
    """Write the plan to the drive so that an interruption never leaves a mix of
    old and new files with a code.py to run them.

    The pending manifest (the game's files on the drive now, and the new ones)
    is written before any new file, the final one after code.py: whenever the
    deploy stops, the manifest names every file of the game's on the drive,
    and every temporary file (a new file's name plus TEMP_SUFFIX).
    """
    drive = Path(drive)
    staged = []
    try:
        remove_leftovers(drive, plan)
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
    except OSError as error:
        raise DeployError(
            "the drive failed while switching to the new files: {}. Until the deploy is run "
            "again the board runs the old game, or waits with no code.py; plug it back in "
            "and run the deploy again.".format(explain(error))
        ) from None
    try:
        write_manifest(drive, new_manifest)
        sync()
    except OSError as error:
        # Every new file and code.py are in place: only the record of them is old.
        raise DeployError(
            "the new game is on the drive, whole, and the board runs it, but its final "
            "manifest could not be written: {}. The pending one there still names every "
            "file of the game's; run the deploy again to finish it.".format(explain(error))
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
