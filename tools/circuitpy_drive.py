"""Finding the board's drive and reading what it says about the board.

Like circup's ``find_device``: a CIRCUITPY drive is a mount point named
CIRCUITPY (Linux, macOS) or the volume labelled CIRCUITPY (Windows). Unlike
it, several boards are an error, not the first one found, and a
``boot_out.txt`` without a ``Board ID`` line (CircuitPython before 7) still
names the board through its machine name.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import uf2
from deploy_shared import SUPPORTED_BOARDS, DeployError, quoted
from safe_writer import read_small

MIN_CIRCUITPYTHON = 9


def _octal_escape(match):
    return chr(int(match.group(1), 8))


def mount_points_from_proc(text: str) -> list[str]:
    """Mount points in /proc/self/mounts text (spaces come escaped as \\040)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [re.sub(r"\\([0-7]{3})", _octal_escape, line.split()[1]) for line in lines]


def mount_points_from_mount(text: str) -> list[str]:
    """Mount points in ``mount`` output: "/dev/disk4s1 on /Volumes/CIRCUITPY (msdos, ...)"
    on macOS, "/dev/sdb1 on /media/me/CIRCUITPY type vfat (...)" on Linux."""
    return re.findall(r" on (.+?)(?: type \S+)? \(", text)


def _posix_mount_points():
    try:
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            return mount_points_from_proc(mounts.read())
    except OSError:
        pass  # not Linux: ask mount(8), as circup does
    for command in ("mount", "/sbin/mount"):
        try:
            output = subprocess.run([command], capture_output=True, text=True).stdout
        except OSError:
            continue
        return mount_points_from_mount(output)
    return []


def _windows_volumes():
    import ctypes  # only on Windows: circup finds CIRCUITPY by volume label the same way

    kernel32 = ctypes.windll.kernel32
    old_mode = kernel32.SetErrorMode(1)  # no "insert a disk" dialogs for empty drives
    found = []
    try:
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            root = letter + ":\\"
            if not os.path.exists(root):
                continue
            name = ctypes.create_unicode_buffer(1024)
            kernel32.GetVolumeInformationW(
                ctypes.c_wchar_p(root), name, ctypes.sizeof(name), None, None, None, None, 0
            )
            found.append((Path(root), name.value))
    finally:
        kernel32.SetErrorMode(old_mode)
    return found


def mounted_volumes() -> list[tuple[Path, str]]:
    """Every mounted volume as (path, label)."""
    if os.name == "nt":
        return _windows_volumes()
    return [(Path(point), Path(point).name) for point in _posix_mount_points()]


def _label_matches(label, wanted):
    # A second board mounts as "CIRCUITPY1" (Linux) or "CIRCUITPY 1" (macOS).
    return any(re.fullmatch(re.escape(w) + r"( ?\d+)?", label) for w in wanted)


def find_drives(labels: Sequence[str]) -> list[Path]:
    """Mounted volumes whose label is one of ``labels``."""
    found = [path for path, label in mounted_volumes() if _label_matches(label, labels)]
    return list(dict.fromkeys(found))  # a drive mounted twice is still one drive


def pick_drive(explicit: str | Path | None, labels: Sequence[str], what: str) -> Path:
    """The drive to use: ``explicit`` or the only mounted one; DeployError otherwise."""
    if explicit:
        drive = Path(explicit)
        if not drive.is_dir():
            raise DeployError("--drive {}: no such folder".format(quoted(drive)))
        return drive
    drives = find_drives(labels)
    if not drives:
        raise DeployError(
            "no {} drive found: plug the board in with a data USB cable, "
            "or give --drive PATH".format(what)
        )
    if len(drives) > 1:
        raise DeployError(
            "several {} drives: {}; say which with --drive PATH".format(
                what, ", ".join(quoted(d) for d in drives)
            )
        )
    return drives[0]


@dataclass
class Board:
    """What boot_out.txt says about the board."""

    board_id: str
    version: str
    major: int
    machine: str = ""


# boot_out.txt holds a few lines (and what boot.py prints): anything bigger is not it.
BOOT_OUT_LIMIT = 1 << 16


def read_boot_out(drive: str | Path) -> Board:
    """Parse ``boot_out.txt``; DeployError when it is missing, unreadable, or says no
    CircuitPython version. Nothing in it is trusted: the version keeps only the
    characters a release name has (it names a download and a cached file)."""
    data, why = read_small(drive, "boot_out.txt", BOOT_OUT_LIMIT)
    if data is None:
        raise DeployError(
            "{} has no boot_out.txt ({}): is it the CIRCUITPY drive of a board running "
            "CircuitPython? Give --drive PATH if it is elsewhere".format(quoted(drive), why)
        )
    text = data.decode("utf-8", errors="replace")
    version = re.search(r"CircuitPython (\d{1,4})\.(\d{1,4})\.(\d{1,4})([-.+0-9A-Za-z]*)", text)
    if not version:
        raise DeployError(
            "{}: no CircuitPython version in its first line".format(
                quoted(Path(drive) / "boot_out.txt")
            )
        )
    machine = re.search(r" on [^;\n]*; ([^\n]+)", text)
    board_id = re.search(r"^Board ID:[ \t]*(\S+)", text, re.MULTILINE)
    machine_name = printable(machine.group(1).strip()) if machine else ""
    if board_id:
        board_id = printable(board_id.group(1))
    return Board(
        board_id=board_id or uf2.board_from_text(machine_name) or "",
        version=".".join(version.group(1, 2, 3)) + version.group(4)[:40],
        major=int(version.group(1)),
        machine=machine_name,
    )


def printable(text: str, limit: int = 80) -> str:
    """``text`` from the drive, safe to print on one line: no control characters
    (a terminal's escape sequences), at most ``limit`` characters."""
    return "".join(c if c.isprintable() else "?" for c in text[:limit])


def check_board(board: Board) -> None:
    """Refuse boards and CircuitPython versions the game does not run on."""
    if board.board_id not in SUPPORTED_BOARDS:
        raise DeployError(
            "this board is '{}' ({}): British Square runs on {}".format(
                board.board_id or "unknown", board.machine, " and ".join(SUPPORTED_BOARDS)
            )
        )
    if board.major < MIN_CIRCUITPYTHON:
        raise DeployError(
            "the board runs CircuitPython {}; the game needs {} or newer. Download the "
            "{} .uf2 from circuitpython.org, double-press reset, then run: "
            "tools/deploy.py firmware FILE.uf2".format(
                board.version, MIN_CIRCUITPYTHON, board.board_id
            )
        )
