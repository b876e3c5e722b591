"""Reading UF2 firmware files and UF2 bootloader drives, for ``deploy.py firmware``.

A UF2 file is a run of 512-byte blocks, each carrying up to 476 bytes of
flash contents plus its address (https://github.com/microsoft/uf2). The
bootloader drive's ``INFO_UF2.TXT`` names the board it belongs to. This
module tells which board a UF2 was built for, so a PyBadge is never flashed
with a PyGamer's firmware.
"""

import os
import re
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path

BLOCK_SIZE = 512
MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x0001
FLAG_FAMILY_ID = 0x2000
SAMD51_FAMILY = 0x55114460
MAX_PAYLOAD = 476

# CircuitPython board id -> what its bootloader and firmware call it.
UF2_BOARDS = {
    "pygamer": {
        "board_ids": ("SAMD51J19A-PyGamer-M4",),
        "keywords": ("pygamer",),
        "drives": ("PYGAMERBOOT",),
    },
    "pybadge": {
        "board_ids": ("SAMD51J19A-PyBadge-M4",),
        # The PyBadge LC has its own bootloader drive but runs the pybadge build.
        "keywords": ("pybadge", "badgelc"),
        "drives": ("PYBADGEBOOT", "BADGELCBOOT"),
    },
}
BOOT_DRIVE_LABELS = tuple(label for board in UF2_BOARDS.values() for label in board["drives"])

_HEADER = struct.Struct("<8I")
# MICROPY_HW_BOARD_NAME + " with " + chip, as in boot_out.txt and os.uname().machine
_MACHINE = re.compile(rb"Adafruit ([ -~]{2,40}?) with (samd\w+)")
_VERSION = re.compile(rb"Adafruit CircuitPython (\d+\.\d+\.\d+[\w.+-]*)")
# adafruit-circuitpython-BOARD-LANGUAGE-VERSION.uf2; board ids have no "-"
_FILE_NAME = re.compile(r"adafruit-circuitpython-([a-z0-9_]+)-")


class UF2Error(ValueError):
    """The file is not a UF2 this tool can flash."""


@dataclass
class UF2Info:
    """What a UF2 file says about itself."""

    blocks: int
    payload_bytes: int
    families: set = field(default_factory=set)
    machine: str = ""  # e.g. "PyGamer with samd51j19"
    version: str = ""  # CircuitPython version found inside, if any
    payload: bytes = b""


def read_uf2(data):
    """Check every block of ``data`` and return a ``UF2Info``; ``UF2Error`` if malformed."""
    if not data or len(data) % BLOCK_SIZE:
        raise UF2Error(
            "not a UF2 file: {} bytes is not a whole number of 512-byte blocks".format(len(data))
        )
    count = len(data) // BLOCK_SIZE
    families = set()
    chunks = []
    for index in range(count):
        block = data[index * BLOCK_SIZE : (index + 1) * BLOCK_SIZE]
        magic0, magic1, flags, _address, size, number, total, family = _HEADER.unpack_from(block)
        (magic_end,) = struct.unpack_from("<I", block, BLOCK_SIZE - 4)
        if (magic0, magic1, magic_end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error("not a UF2 file: block {} has bad magic numbers".format(index))
        if size > MAX_PAYLOAD or number >= total:
            raise UF2Error(
                "corrupt UF2: block {} has size {} and number {}/{}".format(
                    index, size, number, total
                )
            )
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        if flags & FLAG_FAMILY_ID:
            families.add(family)
        chunks.append(block[32 : 32 + size])
    payload = b"".join(chunks)
    info = UF2Info(count, len(payload), families, payload=payload)
    machines = {m.group(0).decode("ascii")[len("Adafruit ") :] for m in _MACHINE.finditer(payload)}
    if len(machines) == 1:
        info.machine = machines.pop()
    version = _VERSION.search(payload)
    if version:
        info.version = version.group(1).decode("ascii")
    return info


def board_from_text(text):
    """Our board id named in ``text`` (a machine name, a Board-ID, a file name), or None."""
    lowered = text.lower().replace("_", "").replace("-", "")
    found = {
        board for board, facts in UF2_BOARDS.items() if any(k in lowered for k in facts["keywords"])
    }
    return found.pop() if len(found) == 1 else None


def intended_board(path, info):
    """(board id, how we know) for a UF2, or (None, why not).

    The machine name compiled into CircuitPython is the most reliable sign;
    Adafruit's download names (``adafruit-circuitpython-pygamer-en_US-9.2.1.uf2``)
    come next. A name of another board is returned as it is, so it can be refused.
    """
    if info.machine:
        board = board_from_text(info.machine)
        return board or info.machine, "the firmware names itself '{}'".format(info.machine)
    match = _FILE_NAME.search(Path(path).name)
    if match:
        name = match.group(1)
        return board_from_text(name) or name, "the file name says '{}'".format(name)
    return None, "neither the file name nor the firmware names a board"


# A bootloader's INFO_UF2.TXT is a few lines; a real firmware file under 2 MB
# (the SAMD51's 512 KB of flash, at 256 bytes a 512-byte block, is 1 MB).
INFO_LIMIT = 4096
FIRMWARE_LIMIT = 2 << 20


def read_plain(path, limit, follow_links=True):
    """The bytes of the plain file ``path``; ``UF2Error`` for anything else (a
    folder, a pipe or a device, whose read could hang or never end; a link, unless
    ``follow_links``) or for a file over ``limit`` bytes. ``OSError`` as ``open``."""
    info = os.stat(path) if follow_links else os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise UF2Error("not a plain file (a folder, a link, a pipe or a device)")
    if info.st_size > limit:
        raise UF2Error("{} bytes: larger than {}".format(info.st_size, limit))
    with open(path, "rb") as source:
        return source.read(limit + 1)


def read_firmware(path):
    """The firmware file the user named (a link to one is followed)."""
    return read_plain(path, FIRMWARE_LIMIT)


def read_info_uf2(drive):
    """The ``Key: value`` lines of the drive's INFO_UF2.TXT as a dict ({} if it is
    missing, or not a plain file of at most ``INFO_LIMIT`` bytes: a folder, a link
    or a pipe, whose read could hang, is not a bootloader's)."""
    try:
        data = read_plain(Path(drive) / "INFO_UF2.TXT", INFO_LIMIT, follow_links=False)
    except (OSError, UF2Error):
        return {}
    text = data.decode("ascii", errors="replace")
    info = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            info[key.strip()] = value.strip()
    return info


def drive_board(info_txt, label):
    """Our board id for a bootloader drive, from its Board-ID, else its label."""
    board_id = info_txt.get("Board-ID", "")
    for board, facts in UF2_BOARDS.items():
        if board_id in facts["board_ids"]:
            return board
    return board_from_text(board_id) or board_from_text(label)
