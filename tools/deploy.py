"""Put British Square on a PyGamer or PyBadge over USB, safely.

Usage::

    python tools/deploy.py [--drive PATH] [--mpy-cross PATH] [--dry-run] [--json]
    python tools/deploy.py firmware FILE.uf2 [--drive PATH] [--dry-run] [--json]

The first form finds the board's CIRCUITPY drive, compiles the game to
CircuitPython ``.mpy`` files, and copies the game, the libraries it imports
(from the installed Python packages) and ``code.py`` (last). Files already
on the drive are skipped, every file is written under a temporary name and
renamed, and a manifest on the drive records what this game put there, so a
later deploy removes only its own stale files. The second form flashes
CircuitPython onto a board in its UF2 bootloader (double-press reset).

Exit status: 0 done, 1 refused or failed (the message says why), 2 bad usage.
"""

import argparse
import ast
import errno
import functools
import hashlib
import importlib.machinery
import importlib.metadata
import json
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import uf2

ROOT = Path(__file__).resolve().parents[1]
GAME_PACKAGE = "british_square"
SUPPORTED_BOARDS = tuple(uf2.UF2_BOARDS)
MIN_CIRCUITPYTHON = 9
# .mpy format per CircuitPython major version: a compiler of another major
# version is fine when the format is the same.
MPY_FORMAT = {9: 6, 10: 6}
MPY_HEADER = b"C\x06"
MANIFEST = ".british_square_manifest.json"
TEMP_SUFFIX = ".bsq-new"
ENTRY = "code.py"
# Files a fresh board ships as code.py: replacing them loses nothing.
FACTORY_CODE = {b"", b'print("Hello World!")', b"print('Hello World!')"}
# CircuitPython runs the first of these it finds.
ENTRY_PRIORITY = ("code.txt", "code.py", "main.txt", "main.py")
ASSET_SUFFIXES = {".bmp", ".pcf", ".bdf", ".wav"}
# Top folders deploy writes into (besides code.py at the root): a manifest
# entry anywhere else was not written by this tool.
GAME_FOLDERS = ("lib", "hw")
# FAT keeps at most 255 characters per name; Windows paths stop at 260 with "E:\\".
MAX_NAME = 255
MAX_PATH = 255
MPY_CROSS_URL = "https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross"
# Modules compiled into CircuitPython (or frozen) on SAMD51 boards, so never copied.
CIRCUITPYTHON_BUILTINS = frozenset(
    """__future__ _asyncio _pixelmap _stage adafruit_bus_device adafruit_pixelbuf aesio
    analogio array atexit audiobusio audiocore audioio audiomixer audiomp3 binascii
    bitbangio bitmapfilter bitmaptools board builtins busdisplay busio collections countio
    digitalio displayio epaperdisplay errno fontio fourwire framebufferio frequencyio gc
    getpass gifio hashlib i2cdisplaybus i2ctarget io jpegio json keypad keypad_demux locale
    lvfontio math microcontroller micropython msgpack neopixel_write nvm onewireio os
    paralleldisplaybus floppyio ps2io pulseio pwmio rainbowio random re rgbmatrix rotaryio rtc samd
    sdcardio select sharpdisplay stage storage struct supervisor synthio sys terminalio
    tilepalettemapper time touchio traceback ugame ulab usb usb_cdc usb_hid usb_midi
    vectorio warnings watchdog zlib""".split()
)
# Modules CircuitPython has on other boards that the PyGamer and PyBadge builds
# turn off (ports/atmel-samd/boards/{pygamer,pybadge}/mpconfigboard.mk): code
# importing one passes on the VM and on Blinka, then fails on the board.
SAMD51_HANDHELD_LACKS = frozenset(
    "vectorio framebufferio gifio jpegio aesio i2cdisplaybus paralleldisplaybus floppyio".split()
)
BOARD_LACKS = {"pygamer": SAMD51_HANDHELD_LACKS, "pybadge": SAMD51_HANDHELD_LACKS}
TYPING_MODULES = {"typing", "circuitpython_typing", "typing_extensions"}
NON_BOARD_ADAPTERS = ("desktop", "vm")


class DeployError(Exception):
    """A refusal or a failure, with a message that says what to do."""


# --------------------------------------------------------------- reporting


class Reporter:
    """Progress and warnings: printed for people, collected for --json."""

    def __init__(self, as_json=False, stream=None):
        self.as_json = as_json
        self.stream = stream or sys.stdout
        self.warnings = []
        self.notes = []

    def say(self, message):
        if not self.as_json:
            print(message, file=self.stream, flush=True)

    def note(self, message):
        self.notes.append(message)
        self.say("note: " + message)

    def warn(self, message):
        self.warnings.append(message)
        self.say("warning: " + message)


# ---------------------------------------------------------- finding drives


def _octal_escape(match):
    return chr(int(match.group(1), 8))


def mount_points_from_proc(text):
    """Mount points in /proc/self/mounts text (spaces come escaped as \\040)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [re.sub(r"\\([0-7]{3})", _octal_escape, line.split()[1]) for line in lines]


def mount_points_from_mount(text):
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


def mounted_volumes():
    """Every mounted volume as (path, label)."""
    if os.name == "nt":
        return _windows_volumes()
    return [(Path(point), Path(point).name) for point in _posix_mount_points()]


def _label_matches(label, wanted):
    # A second board mounts as "CIRCUITPY1" (Linux) or "CIRCUITPY 1" (macOS).
    return any(re.fullmatch(re.escape(w) + r"( ?\d+)?", label) for w in wanted)


def find_drives(labels):
    """Mounted volumes whose label is one of ``labels``."""
    found = [path for path, label in mounted_volumes() if _label_matches(label, labels)]
    return list(dict.fromkeys(found))  # a drive mounted twice is still one drive


def pick_drive(explicit, labels, what):
    """The drive to use: ``explicit`` or the only mounted one; DeployError otherwise."""
    if explicit:
        drive = Path(explicit)
        if not drive.is_dir():
            raise DeployError("--drive {}: no such folder".format(drive))
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
                what, ", ".join(str(d) for d in drives)
            )
        )
    return drives[0]


# ------------------------------------------------------------ the board


@dataclass
class Board:
    """What boot_out.txt says about the board."""

    board_id: str
    version: str
    major: int
    machine: str = ""


def read_boot_out(drive):
    """Parse ``boot_out.txt``; DeployError when it is missing or unreadable."""
    path = Path(drive) / "boot_out.txt"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise DeployError(
            "{} has no boot_out.txt ({}): is it the CIRCUITPY drive of a board running "
            "CircuitPython? Give --drive PATH if it is elsewhere".format(
                drive, error.strerror or error
            )
        ) from None
    version = re.search(r"CircuitPython (\d+)\.(\d+)\.(\d+)([^\s;]*)", text)
    if not version:
        raise DeployError("{}: no CircuitPython version in its first line".format(path))
    machine = re.search(r" on [^;]*; (.+)", text)
    board_id = re.search(r"^Board ID:\s*(\S+)", text, re.MULTILINE)
    machine_name = machine.group(1).strip() if machine else ""
    return Board(
        board_id=board_id.group(1) if board_id else uf2.board_from_text(machine_name) or "",
        version=".".join(version.group(1, 2, 3)) + version.group(4),
        major=int(version.group(1)),
        machine=machine_name,
    )


def check_board(board):
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


# ----------------------------------------------------------- the compiler


@dataclass
class Compiler:
    path: str
    version: str
    major: int


def compiler_info(path):
    """A Compiler for a CircuitPython mpy-cross at ``path``, or a string saying why not."""
    try:
        result = subprocess.run(
            [str(path), "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return "{} does not run: {}".format(path, error)
    match = re.search(r"CircuitPython (\d+)\.\d+\.\d+\S*", result.stdout)
    if not match:
        if "MicroPython" in result.stdout:
            return "{} is MicroPython's mpy-cross; boards reject its .mpy".format(path)
        return "{} is not CircuitPython's mpy-cross".format(path)
    return Compiler(str(path), match.group(0).split()[1], int(match.group(1)))


def fits_board(compiler, board):
    formats = MPY_FORMAT.get(compiler.major), MPY_FORMAT.get(board.major)
    return compiler.major == board.major or (formats[0] is not None and formats[0] == formats[1])


def cache_dir():
    """Where fetched compilers are kept, per the platform's convention."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home()))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "british-square" / "mpy-cross"


def mpy_cross_url(version):
    """Adafruit's download of mpy-cross ``version`` for this machine (as
    circuitpython-build-tools fetches it), or None if none is built for it."""
    system, machine = platform.system(), platform.machine().lower()
    if system == "Linux" and machine in ("amd64", "x86_64"):
        return "{}/linux-amd64/mpy-cross-linux-amd64-{}.static".format(MPY_CROSS_URL, version)
    if system == "Linux" and machine in ("aarch64", "arm64"):
        return "{}/linux-aarch64/mpy-cross-linux-aarch64-{}.static".format(MPY_CROSS_URL, version)
    if system == "Linux" and machine == "armv7l":
        return "{}/linux-raspbian/mpy-cross-linux-raspbian-{}.static-raspbian".format(
            MPY_CROSS_URL, version
        )
    if system == "Darwin":
        return "{}/macos-11/mpy-cross-macos-11-{}-universal".format(MPY_CROSS_URL, version)
    if system == "Windows" and machine in ("amd64", "x86_64"):
        return "{}/windows/mpy-cross-windows-{}.static.exe".format(MPY_CROSS_URL, version)
    return None


def fetch_mpy_cross(version, cache, reporter, download=True):
    """The cached mpy-cross for CircuitPython ``version``, downloading it once
    (never when ``download`` is false: a dry run does not use the network)."""
    suffix = ".exe" if os.name == "nt" else ""
    target = Path(cache) / "mpy-cross-{}{}".format(version, suffix)
    if target.is_file():
        return compiler_info(target)
    url = mpy_cross_url(version)
    if url is None:
        return "no pre-built mpy-cross for {} {}".format(platform.system(), platform.machine())
    if not download:
        return (
            "mpy-cross {} is not cached and a dry run downloads nothing: the deploy fetches "
            "it from {} and writes .mpy files where this lists .py".format(version, url)
        )
    reporter.say("fetching mpy-cross {} from {}".format(version, url))
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            data = response.read()
    except (urllib.error.URLError, OSError) as error:
        return "could not fetch mpy-cross {} ({})".format(version, getattr(error, "reason", error))
    try:
        return _store_compiler(data, target)
    except OSError as error:
        return "could not keep mpy-cross in {} ({})".format(target.parent, error)


def _store_compiler(data, target):
    """Keep a downloaded compiler if it runs and is CircuitPython's (checked before renaming)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(data)
    partial.chmod(partial.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    found = compiler_info(partial)
    if isinstance(found, Compiler):
        os.replace(partial, target)
        found.path = str(target)
    else:
        partial.unlink()
    return found


def find_compiler(board, explicit, fetch, cache, reporter, download=True):
    """CircuitPython's mpy-cross for ``board``, or None (then .py is deployed).

    Order: --mpy-cross, $MPY_CROSS (both must work: asked for by name), then
    mpy-cross on PATH, then a cached copy of the board's version, or (if
    ``fetch``, and ``download`` allows the network) one fetched into the cache.
    """
    for path, origin in ((explicit, "--mpy-cross"), (os.environ.get("MPY_CROSS"), "MPY_CROSS")):
        if not path:
            continue
        found = compiler_info(path)
        if isinstance(found, str):
            raise DeployError("{}: {}".format(origin, found))
        if not fits_board(found, board):
            raise DeployError(
                "{}: mpy-cross {} makes .mpy files CircuitPython {} cannot load; use the "
                "mpy-cross of CircuitPython {}".format(
                    origin, found.version, board.version, board.major
                )
            )
        return found
    reasons = []
    on_path = shutil.which("mpy-cross")
    if on_path:
        found = compiler_info(on_path)
        if isinstance(found, Compiler) and fits_board(found, board):
            return found
        if isinstance(found, Compiler):
            found = "mpy-cross on PATH is CircuitPython {}, not {}".format(
                found.version, board.major
            )
        reasons.append(found)
    if fetch:
        found = fetch_mpy_cross(board.version, cache, reporter, download)
        if isinstance(found, Compiler):
            return found
        reasons.append(found)
    for reason in reasons:
        reporter.note(reason)
    return None


def compile_module(compiler, source, name, workdir):
    """The .mpy bytes of ``source``; DeployError when mpy-cross fails or writes the wrong format."""
    output = Path(workdir) / (name.replace("/", "__") + ".mpy")
    result = subprocess.run(
        [compiler.path, "-o", str(output), "-s", name, str(source)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise DeployError("mpy-cross failed on {}:\n{}".format(name, result.stderr.strip()))
    data = output.read_bytes()
    if data[:2] != MPY_HEADER:
        raise DeployError(
            "{}: mpy-cross wrote a header {!r}, not CircuitPython's {!r}".format(
                name, data[:2], MPY_HEADER
            )
        )
    return data


def compile_modules(compiler, modules):
    """{drive path: .mpy bytes} for ``modules``, compiled side by side (one process each)."""
    with tempfile.TemporaryDirectory(prefix="bsq-mpy-") as workdir:
        with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
            compiled = pool.map(
                lambda m: compile_module(compiler, m.source, m.drive_path, workdir), modules
            )
            return {m.drive_path: data for m, data in zip(modules, compiled)}


# ----------------------------------------------- what the game needs on the board


@dataclass(frozen=True)
class Module:
    """A module the board needs: its dotted name, source file and path on the drive."""

    name: str
    source: Path
    drive_path: str  # posix, relative to the drive root, ending in .py
    kind: str  # "game", "library", "adapter" or "entry"

    @property
    def is_package(self):
        return self.source.name == "__init__.py"


@dataclass(frozen=True)
class ImportRef:
    names: tuple  # dotted names that may be modules, parents first
    optional: bool  # inside try/except ImportError: a miss is not an error
    required: int  # how many of ``names`` must be modules (the rest may be attributes)


def _catches_import_error(handler):
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    caught = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")
    return any(getattr(k, "id", "") in caught for k in kinds)


def _is_typing_block(statements):
    """True for Adafruit's idiom ``try: from typing import ...`` (annotations only)."""
    for node in statements:
        if isinstance(node, ast.Import) and any(a.name in TYPING_MODULES for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in TYPING_MODULES:
            return True
    return False


def _is_type_checking(test):
    return getattr(test, "id", getattr(test, "attr", "")) == "TYPE_CHECKING"


def _absolute(module, level, package):
    if not level:
        return module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (level - 1)])
    return base + "." + module if module else base


def _parents(name):
    parts = name.split(".")
    return tuple(".".join(parts[: i + 1]) for i in range(len(parts)))


def imports_of(module):
    """The imports in ``module``'s source that matter on a board."""
    try:
        tree = ast.parse(module.source.read_bytes(), str(module.source))
    except SyntaxError as error:
        raise DeployError(
            "{} line {}: syntax error: {}".format(module.drive_path, error.lineno, error.msg)
        ) from None
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    found = []

    def visit(nodes, optional):
        for node in nodes:
            if isinstance(node, ast.Try):
                if _is_typing_block(node.body):
                    visit(node.handlers + node.orelse + node.finalbody, optional)
                    continue
                guarded = any(_catches_import_error(h) for h in node.handlers)
                visit(node.body, optional or guarded)
                visit(node.handlers + node.orelse + node.finalbody, optional)
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse, optional)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    names = _parents(alias.name)
                    found.append(ImportRef(names, optional, len(names)))
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node.module, node.level, package)
                names = _parents(base)
                extra = tuple(base + "." + a.name for a in node.names if a.name != "*")
                found.append(ImportRef(names + extra, optional, len(names)))
            else:  # imports are statements: only statement lists can hold them
                for block in ("body", "orelse", "handlers", "finalbody", "cases"):
                    visit(getattr(node, block, ()), optional)

    visit(tree.body, False)
    return found


def _module_file(base, name):
    """The source of module ``name`` under folder ``base`` (package or module), or None."""
    path = Path(base).joinpath(*name.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    return None


def _normalize(dist_name):
    return re.sub(r"[-_.]+", "-", dist_name).lower()


def _top_levels(dist):
    text = dist.read_text("top_level.txt")
    if text:
        return set(text.split())
    # wheels without top_level.txt: the first part of each installed file
    return {
        str(f).split("/")[0].removesuffix(".py")
        for f in dist.files or ()
        if ".dist-info" not in str(f) and not str(f).startswith("__pycache__")
    }


def board_libraries(paths):
    """{top-level module: folder holding it} for installed CircuitPython libraries.

    Only Adafruit's and the community's CircuitPython library distributions
    count: Blinka's desktop stand-ins (``displayio``, ``board``...) are built
    into the board and must never be copied.
    """
    return dict(_board_libraries(tuple(str(p) for p in paths)))


@functools.lru_cache(maxsize=4)
def _board_libraries(paths):
    found = {}
    for dist in importlib.metadata.distributions(path=list(paths)):
        name = _normalize(dist.metadata["Name"] or "")
        if not name.startswith(("adafruit-circuitpython-", "circuitpython-")):
            continue
        for top in _top_levels(dist):
            spec = importlib.machinery.PathFinder.find_spec(top, list(paths))
            if spec is None or not spec.origin or top in found:
                continue
            origin = Path(spec.origin)
            found[top] = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    return found


def library_paths():
    """Where installed packages live: this interpreter's, then the repository's .venv."""
    paths = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    paths += sorted(ROOT.glob(".venv/lib/python3*/site-packages"))
    paths += [ROOT / ".venv" / "Lib" / "site-packages"]
    return [p for p in dict.fromkeys(paths) if p.is_dir()]


class Resolver:
    """Finds a dotted module name in the game's tree or in an installed library."""

    def __init__(self, source_root, lib_paths):
        self.root = Path(source_root)
        # code.py puts lib/ and hw/ on sys.path, as the board has / and /lib.
        self.local = [self.root / "lib", self.root, self.root / "hw"]
        self.libraries = board_libraries(lib_paths)

    def find(self, name):
        """The Module for ``name``, or None (a built-in, an attribute, or missing)."""
        top = name.split(".")[0]
        if top in CIRCUITPYTHON_BUILTINS:
            return None
        for base in self.local:
            source = _module_file(base, name)
            if source is not None:
                drive_path = source.relative_to(self.root).as_posix()
                kind = "adapter" if drive_path.startswith("hw/") else "game"
                return Module(name, source, drive_path, kind)
        if top in self.libraries:
            base = self.libraries[top]
            source = _module_file(base, name)
            if source is not None:
                drive_path = "lib/" + source.relative_to(base).as_posix()
                return Module(name, source, drive_path, "library")
        return None

    def is_namespace(self, name):
        """A folder without __init__.py, importable on CircuitPython as a package."""
        path_parts = name.split(".")
        return any(base.joinpath(*path_parts).is_dir() for base in self.local)


def other_adapters(board_id, adapters=()):
    """hw/ adapters of the other boards and the desktop, by either import name
    (``hw.pygamer`` or ``pygamer`` with hw/ on sys.path): code.py picks one by
    board id at run time, so its imports of the others are not followed."""
    names = set(SUPPORTED_BOARDS + NON_BOARD_ADAPTERS) - {board_id, *adapters}
    return names | {"hw." + name for name in names}


def start_modules(root, board_id, resolver, adapters=()):
    """code.py and the board's hw adapter (plus ``adapters``, other hw modules by name):
    the roots of the import graph. Nothing else of the game is copied unless they
    import it, so desktop-only modules stay off the board without a list of them."""
    root = Path(root)
    modules = []
    for adapter in (board_id, *adapters):
        for name in _parents("hw." + adapter):
            found = resolver.find(name)
            if found:
                modules.append(found)
    if (root / ENTRY).is_file():
        modules.append(Module("__main__", root / ENTRY, ENTRY, "entry"))
    return modules


@dataclass
class Closure:
    """What the board imports: the modules to copy, and the imports that will fail."""

    modules: list
    lacking: list = field(default_factory=list)  # (importer's drive path, module) not on board
    unresolved: list = field(default_factory=list)  # (importer's drive path, module) not found

    def lacking_message(self, board_id):
        """One line naming each module the board lacks and who imports it."""
        importers = {}
        for importer, name in self.lacking:
            importers.setdefault(name, []).append(importer)
        return (
            "not deployed: the {}'s CircuitPython has no {}; guard the import with "
            "try/except ImportError or remove it".format(
                board_id,
                ", no ".join(
                    "{} (imported by {})".format(name, ", ".join(importers[name]))
                    for name in sorted(importers)
                ),
            )
        )


def import_closure(root, board_id, resolver, adapters=()):
    """Every module the board needs: the start modules and what they import,
    transitively, imports inside functions included (the game imports some
    modules only when a screen needs them)."""
    queue = start_modules(root, board_id, resolver, adapters)
    skipped = other_adapters(board_id, adapters)
    lacks = BOARD_LACKS.get(board_id, frozenset())
    closure = Closure([])
    seen = {}
    while queue:
        module = queue.pop(0)
        if module.drive_path in seen:
            continue
        seen[module.drive_path] = module
        for ref in imports_of(module):
            queue.extend(_resolve_ref(ref, module, resolver, skipped, lacks, closure))
    closure.modules = list(seen.values())
    return closure


def _resolve_ref(ref, importer, resolver, skipped, lacks, closure):
    found = []
    for index, name in enumerate(ref.names):
        if name in skipped and importer.kind != "adapter":
            continue
        if name in lacks and not ref.optional:
            closure.lacking.append((importer.drive_path, name))
            return found
        module = resolver.find(name)
        if module is not None:
            found.append(module)
        elif index < ref.required and not ref.optional and not resolver.is_namespace(name):
            if name.split(".")[0] not in CIRCUITPYTHON_BUILTINS:
                closure.unresolved.append((importer.drive_path, name))
            return found
    return found


def asset_files(root):
    """Data files of the game package (sprite sheets, fonts, sounds)."""
    package_dir = Path(root) / "lib" / GAME_PACKAGE
    return sorted(
        p for p in package_dir.rglob("*") if p.is_file() and p.suffix.lower() in ASSET_SUFFIXES
    )


# ------------------------------------------------------------------- build


@dataclass
class Item:
    """One file to have on the drive."""

    path: str  # posix, relative to the drive root
    data: bytes
    kind: str

    @property
    def digest(self):
        return hashlib.sha256(self.data).hexdigest()


KIND_ORDER = {"library": 0, "game": 1, "asset": 2, "adapter": 3, "entry": 4}


def build_items(root, modules, compiler):
    """The files to deploy, in write order: libraries, game, assets, adapter, code.py last.

    code.py stays source (the board only runs code.py, never code.mpy) but
    is compiled too, to catch a syntax error before it reaches the board.
    """
    root = Path(root)
    compiled = compile_modules(compiler, modules) if compiler else {}
    items = []
    for module in modules:
        if module.kind != "entry" and compiler:
            path = module.drive_path[:-3] + ".mpy"
            items.append(Item(path, compiled[module.drive_path], module.kind))
        else:
            items.append(Item(module.drive_path, module.source.read_bytes(), module.kind))
    for asset in asset_files(root):
        items.append(Item(asset.relative_to(root).as_posix(), asset.read_bytes(), "asset"))
    items.sort(key=lambda item: (KIND_ORDER[item.kind], item.path))
    return items


def game_version(root):
    init = Path(root) / "lib" / GAME_PACKAGE / "__init__.py"
    match = (
        re.search(r"__version__\s*=\s*[\"']([^\"']+)", init.read_text()) if init.exists() else None
    )
    return match.group(1) if match else "unknown"


# -------------------------------------------------------- paths on the drive

# Characters a FAT drive does not allow in a name (":" also makes "C:x" absolute
# on Windows, "\\" is Windows' separator) and control characters, NUL included.
_NOT_IN_FAT_NAMES = re.compile(r'[\x00-\x1f"*:<>?\\|\x7f]')
ABSENT, FILE, FOLDER, IN_THE_WAY = "absent", "file", "folder", "in the way"


def path_problem(path):
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


def is_game_path(path):
    """A path deploy may write: code.py, or a module or asset under lib/ or hw/."""
    if path_problem(path) is not None:
        return False
    suffix = Path(path).suffix.lower()
    return path == ENTRY or (
        path.split("/")[0] in GAME_FOLDERS and suffix in {".py", ".mpy"} | ASSET_SUFFIXES
    )


def shown(path, limit=80):
    """``path`` quoted for a message on one line, however long or odd it is."""
    text = repr(path)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


def drive_state(drive, path):
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


def file_digest(drive, path):
    """The sha256 of the regular file at ``path`` on the drive, or None if there is none
    (or it is reached through a link, or unreadable: then it is not the game's)."""
    if drive_state(drive, path)[0] != FILE:
        return None
    try:
        return hashlib.sha256((Path(drive) / path).read_bytes()).hexdigest()
    except OSError:
        return None


# ---------------------------------------------------- comparing with the drive

_SHA256 = re.compile(r"[0-9a-f]{64}")


def manifest_problem(manifest):
    """Why ``manifest`` (parsed JSON) is not one this tool writes, or None."""
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        return "it is not an object with a 'files' table"
    if not isinstance(manifest.get("pending", {}), dict):
        return "its 'pending' is not a table"
    for table in (manifest["files"], manifest.get("pending", {})):
        for path, digest in table.items():
            if not is_game_path(path):
                why = path_problem(path) or "is not a file deploy writes"
                return "entry {} {}".format(shown(path), why)
            if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
                return "entry {} has no sha256 checksum".format(shown(path))
    return None


def read_manifest(drive, reporter):
    """What an earlier deploy of this game wrote: {"files": {path: sha256}, ...}.

    A manifest that is not exactly what this tool writes (not JSON, wrong
    types, a path outside the game's files) is damaged or was not written by
    this tool, so none of it is trusted: it is ignored whole, with one warning.
    Then only files identical to the game's count as its own, so nothing is
    removed and nothing else is overwritten without --replace.
    """
    empty = {"files": {}}
    state, why = drive_state(drive, MANIFEST)
    if state == ABSENT:
        return empty
    problem = why
    if state == FILE:
        try:
            manifest = json.loads((Path(drive) / MANIFEST).read_bytes().decode("utf-8"))
        except (OSError, ValueError) as error:
            problem = "it is unreadable ({})".format(str(error).splitlines()[0][:100])
        else:
            problem = manifest_problem(manifest)
    if problem is None:
        return manifest
    reporter.warn(
        "ignoring {}: {}; only files identical to the game's count as its own".format(
            MANIFEST, problem
        )
    )
    return empty


def _ours(manifest, path, digest):
    """Was this exact content put at ``path`` by this game (a finished or interrupted deploy)?"""
    return digest is not None and digest in (
        manifest["files"].get(path),
        manifest.get("pending", {}).get(path),
    )


def _twin(path):
    """The file that would shadow or be shadowed by ``path`` (.py beside .mpy)."""
    if path == ENTRY:
        return None
    if path.endswith(".mpy"):
        return path[:-4] + ".py"
    if path.endswith(".py"):
        return path[:-3] + ".mpy"
    return None


@dataclass
class Plan:
    items: list
    writes: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    removals: list = field(default_factory=list)  # drive paths
    replaced: list = field(default_factory=list)  # not ours, overwritten or removed (--replace)
    kept: list = field(default_factory=list)  # stale files of ours the user changed
    conflicts: list = field(default_factory=list)  # files not ours: --replace overwrites them
    blocked: list = field(default_factory=list)  # folders, links...: never touched, even so
    existing: set = field(default_factory=set)  # writes that replace a file
    leftovers: list = field(default_factory=list)  # temporary files of an interrupted deploy

    @property
    def bytes_total(self):
        return sum(len(i.data) for i in self.items)

    @property
    def bytes_to_write(self):
        return sum(len(i.data) for i in self.writes)


def plan_changes(drive, items, manifest, replace=False):
    """Compare the wanted files with the drive; nothing is written.

    Everything in the way of a file deploy must write (a folder or a link
    where a file goes, a file where a folder goes, at the final or the
    temporary name) is found here, before anything is written.
    """
    drive = Path(drive)
    plan = Plan(items)
    for item in items:
        if not is_game_path(item.path):
            raise DeployError(
                "{} {}: not a file deploy may write".format(
                    shown(item.path), path_problem(item.path) or "is outside lib/ and hw/"
                )
            )
    wanted = {item.path for item in items}
    for path in [MANIFEST, *wanted]:
        for candidate in (path, path + TEMP_SUFFIX):
            state, why = drive_state(drive, candidate)
            if state == IN_THE_WAY:
                plan.blocked.append(why)
    for item in items:
        current = file_digest(drive, item.path)
        if current == item.digest:
            plan.unchanged.append(item)
            continue
        plan.writes.append(item)
        if current is not None:
            plan.existing.add(item.path)
        if current is not None and not _ours(manifest, item.path, current):
            _foreign(
                plan,
                item.path,
                drive,
                replace,
                "is on the drive but was not put there by this game",
            )
    for item in items:
        twin = _twin(item.path)
        if twin and twin not in wanted:
            digest = file_digest(drive, twin)
            if digest is None:
                continue  # nothing there, or a folder or link: nothing that shadows
            if _ours(manifest, twin, digest):
                _add_removal(plan, twin)
            else:
                _foreign(plan, twin, drive, replace, "would shadow " + item.path, remove=True)
    known = list(manifest["files"]) + list(manifest.get("pending", {}))
    for path in dict.fromkeys(known):
        if path in wanted:
            continue
        digest = file_digest(drive, path)  # None behind a link: never ours
        if digest is None:
            continue
        if _ours(manifest, path, digest):
            _add_removal(plan, path)
        else:
            plan.kept.append(path)
    plan.leftovers = find_leftovers(drive)
    return plan


def _foreign(plan, path, drive, replace, why, remove=False):
    """A file this game did not write is in the way: replace it only if asked to."""
    if path == ENTRY and (drive / ENTRY).read_bytes().strip() in FACTORY_CODE:
        return  # a fresh board's hello-world
    if replace:
        plan.replaced.append(path)
        if remove:
            _add_removal(plan, path)
    else:
        plan.conflicts.append("{} {}".format(path, why))


def _add_removal(plan, path):
    if path not in plan.removals:
        plan.removals.append(path)


def find_leftovers(drive):
    """Temporary files of an interrupted deploy (only this tool uses the suffix): regular
    files only, in real folders of the drive (os.walk does not follow links)."""
    found = []
    for folder, dirs, files in os.walk(drive):
        dirs[:] = [d for d in dirs if not d.startswith(".")]  # .Trashes, .fseventsd...
        for name in files:
            path = Path(folder) / name
            if name.endswith(TEMP_SUFFIX) and stat.S_ISREG(os.lstat(path).st_mode):
                found.append(path)
    return sorted(found)


# ------------------------------------------------------------------ writing


def write_file(path, data):
    """Write ``data`` to ``path`` and push it to the device before returning.

    A link at ``path`` is refused (O_NOFOLLOW), never written through.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags, 0o666), "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def sync():
    if hasattr(os, "sync"):
        os.sync()


def cluster_size(drive):
    try:
        return max(512, os.statvfs(drive).f_frsize)
    except (AttributeError, OSError):
        return 4096


FAT_ENTRY = 32  # bytes of one FAT directory entry
LONG_NAME_CHARS = 13  # characters one long-name (VFAT) entry holds


def _clusters(size, cluster):
    return -(-size // cluster)


def entry_bytes(name):
    """Directory bytes a name takes on FAT: its 8.3 entry and its long-name entries
    (counted always: a lower-case name gets them too)."""
    return FAT_ENTRY * (1 + _clusters(len(name), LONG_NAME_CHARS))


def space_needed(drive, plan, manifest_sizes):
    """Bytes of free space the deploy needs, in the whole clusters FAT allocates:

    - each file written, rounded up (the old copy is freed only once the new
      one is in place), and each manifest written (``manifest_sizes``: the
      pending one, then the final one);
    - each folder deploy creates: at least one cluster, more if its entries
      (".", "..", every temporary and final name) fill it;
    - each existing folder that gets new names: the clusters those entries
      may take (its last cluster may be full).
    """
    drive = Path(drive)
    cluster = cluster_size(drive)
    total = sum(_clusters(len(item.data), cluster) for item in plan.writes)
    total += sum(_clusters(size, cluster) for size in manifest_sizes)
    new_names = {}  # folder (posix, "" for the root) -> names it gains
    for path in [item.path for item in plan.writes] + [MANIFEST]:
        parts = path.split("/")
        for depth, name in enumerate(parts):
            names = new_names.setdefault("/".join(parts[:depth]), set())
            names.update((name, name + TEMP_SUFFIX) if depth == len(parts) - 1 else (name,))
    for folder, names in new_names.items():
        entries = sum(entry_bytes(n) for n in names if not os.path.lexists(drive / folder / n))
        if os.path.isdir(drive / folder):
            total += _clusters(entries, cluster)
        else:
            total += max(1, _clusters(entries + 2 * FAT_ENTRY, cluster))
    return total * cluster


def check_free_space(drive, plan, manifest_sizes):
    """{"space_needed", "space_free"}; DeployError if the drive has too little."""
    free = shutil.disk_usage(drive).free
    needed = space_needed(drive, plan, manifest_sizes)
    if needed > free:
        raise DeployError(
            "{} has {} bytes free, the deploy needs {}: delete files you do not need from "
            "it and run again. Nothing was changed.".format(drive, free, needed)
        )
    return {"space_needed": needed, "space_free": free}


def manifest_data(board, version, items, formats, pending=None, old=None):
    manifest = {
        "game": GAME_PACKAGE,
        "version": version,
        "board": board.board_id,
        "circuitpython": board.version,
        "format": formats,
        "deployed": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "files": {i.path: i.digest for i in items},
    }
    if pending is not None:
        # Mid-deploy: the old files and the new ones are both ours.
        manifest["files"] = dict(old["files"])
        manifest["pending"] = {i.path: i.digest for i in pending}
    return (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()


def write_manifest(drive, data):
    target = Path(drive) / MANIFEST
    temp = target.with_name(target.name + TEMP_SUFFIX)
    try:
        write_file(temp, data)
        os.replace(temp, target)
    except OSError:
        _remove_quietly(temp)
        raise


VANISHED = (errno.ENOENT, errno.EIO, errno.ENODEV, errno.ENXIO)


def explain(error):
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


def stage_files(drive, plan, staged, reporter):
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


def switch_over(drive, staged, plan):
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


def apply_plan(drive, plan, old_manifest, new_manifest, pending_manifest, reporter):
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


# --------------------------------------------------------------------- deploy


def deploy(args, reporter):
    """Deploy the game; return the summary dict (also what --json prints)."""
    started = time.monotonic()
    drive = pick_drive(args.drive, ("CIRCUITPY",), "CIRCUITPY")
    board = read_boot_out(drive)
    check_board(board)
    reporter.say(
        "board: {} ({}), CircuitPython {} at {}".format(
            board.board_id, board.machine, board.version, drive
        )
    )
    compiler = choose_compiler(board, args, reporter)
    root = Path(args.source)
    items = game_items(root, board, compiler, reporter)
    manifest = read_manifest(drive, reporter)
    plan = plan_changes(drive, items, manifest, replace=args.replace)
    check_plan(drive, plan, reporter)
    summary = _summary(drive, board, compiler, plan, args.dry_run)
    version = game_version(root)
    final = manifest_data(board, version, plan.items, summary["format"])
    pending = manifest_data(board, version, plan.items, summary["format"], plan.writes, manifest)
    if has_changes(plan):
        summary.update(check_free_space(drive, plan, (len(pending), len(final))))
    if args.dry_run:
        _print_plan(plan, reporter)
    else:
        carry_out(drive, plan, manifest, pending, final, reporter)
    summary["seconds"] = round(time.monotonic() - started, 3)
    summary["warnings"] = reporter.warnings
    summary["notes"] = reporter.notes
    reporter.say(_summary_line(summary))
    return summary


def choose_compiler(board, args, reporter):
    compiler = find_compiler(
        board,
        args.mpy_cross,
        not args.no_fetch,
        Path(args.cache_dir),
        reporter,
        download=not args.dry_run,
    )
    if compiler and compiler.major != board.major:
        reporter.note(
            "mpy-cross {} for CircuitPython {}: both use .mpy format {}".format(
                compiler.version, board.version, MPY_FORMAT[board.major]
            )
        )
    if compiler is None:
        reporter.warn(
            "no CircuitPython mpy-cross: deploying .py files, which the board compiles at "
            "import time using RAM the game needs (risk of MemoryError); give --mpy-cross"
        )
    return compiler


def game_items(root, board, compiler, reporter):
    """Every file the game needs on this board, built and in write order."""
    if not (root / ENTRY).is_file():
        reporter.warn("{} has no {}: the board keeps the one it has".format(root, ENTRY))
    if not (root / "hw" / (board.board_id + ".py")).is_file():
        reporter.warn("no hw/{}.py adapter in {}".format(board.board_id, root))
    closure = import_closure(root, board.board_id, Resolver(root, library_paths()))
    if closure.lacking:
        raise DeployError(closure.lacking_message(board.board_id))
    for importer, name in closure.unresolved:
        reporter.warn(
            "{} imports {}, which is not built into CircuitPython, not in the game's "
            "tree and not an installed library (make setup installs them): the board "
            "will fail to import it".format(importer, name)
        )
    return build_items(root, closure.modules, compiler)


def check_plan(drive, plan, reporter):
    """Refuse to touch files that are not ours; warn about what will not work."""
    if plan.blocked:
        raise DeployError(
            "these are in the way of the game's files; deploy never removes folders or "
            "follows links, so nothing was changed:\n  "
            + "\n  ".join(dict.fromkeys(plan.blocked))
            + "\nMove or rename them on the drive, then run again."
        )
    if plan.conflicts:
        raise DeployError(
            "these files on the drive were not put there by this game (or were changed since):\n  "
            + "\n  ".join(plan.conflicts)
            + "\nMove them off the drive, or run again with --replace to overwrite them."
        )
    for path in plan.kept:
        reporter.warn("{} was changed on the drive; left in place".format(path))
    for name in ENTRY_PRIORITY[: ENTRY_PRIORITY.index(ENTRY)]:
        if (Path(drive) / name).exists():
            reporter.warn(
                "{} on the drive runs instead of {}: rename or delete it".format(name, ENTRY)
            )


def has_changes(plan):
    return bool(plan.writes or plan.removals or plan.leftovers)


def carry_out(drive, plan, manifest, pending, final, reporter):
    """Write the plan (nothing at all when the drive is up to date)."""
    if has_changes(plan):
        apply_plan(drive, plan, manifest, final, pending, reporter)
    elif "pending" in manifest or manifest["files"] != {i.path: i.digest for i in plan.items}:
        # Files identical to ours were already there: record them as the game's.
        write_manifest(drive, final)


def _summary(drive, board, compiler, plan, dry_run):
    return {
        "ok": True,
        "dry_run": dry_run,
        "drive": str(drive),
        "board": board.board_id,
        "circuitpython": board.version,
        "format": "mpy" if compiler else "py",
        "mpy_cross": compiler.path if compiler else None,
        "files": len(plan.items),
        "bytes": plan.bytes_total,
        "written": [i.path for i in plan.writes],
        "bytes_written": plan.bytes_to_write,
        "unchanged": len(plan.unchanged),
        "removed": list(plan.removals),
        "replaced": list(plan.replaced),
        "kept": list(plan.kept),
    }


def _print_plan(plan, reporter):
    for item in plan.writes:
        mark = "~" if item.path in plan.existing else "+"
        reporter.say("{} {} ({} bytes)".format(mark, item.path, len(item.data)))
    for path in plan.removals:
        reporter.say("- {}".format(path))
    for path in plan.leftovers:
        reporter.say("- {} (left by an interrupted deploy)".format(path))


def _summary_line(s):
    verb = "would write" if s["dry_run"] else "wrote"
    return (
        "{} files, {} bytes ({}) for {}: {} {} ({} bytes), {} unchanged, {} removed, in {:.2f} s"
    ).format(
        s["files"],
        s["bytes"],
        s["format"],
        s["board"],
        verb,
        len(s["written"]),
        s["bytes_written"],
        s["unchanged"],
        len(s["removed"]),
        s["seconds"],
    )


# ------------------------------------------------------------------- firmware


def flash_firmware(args, reporter):
    """Copy a CircuitPython UF2 onto the board's bootloader drive after checking it fits."""
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DeployError("{}: {}".format(path, error.strerror or error)) from None
    try:
        info = uf2.read_uf2(data)
    except uf2.UF2Error as error:
        raise DeployError("{}: {}".format(path, error)) from None
    if info.families - {uf2.SAMD51_FAMILY}:
        raise DeployError(
            "{} is for another chip (UF2 family {}), not the SAMD51 of a PyGamer or PyBadge".format(
                path, ", ".join("0x%08x" % f for f in sorted(info.families))
            )
        )
    drive = pick_drive(args.drive, uf2.BOOT_DRIVE_LABELS, "bootloader (PYGAMERBOOT/PYBADGEBOOT)")
    info_txt = uf2.read_info_uf2(drive)
    if not info_txt:
        raise DeployError("{} has no INFO_UF2.TXT: not a UF2 bootloader drive".format(drive))
    drive_board = uf2.drive_board(info_txt, drive.name)
    intended, how = uf2.intended_board(path, info)
    if intended is None:
        reporter.warn("cannot tell which board {} is for: {}".format(path.name, how))
    elif intended != drive_board and not args.force:
        raise DeployError(
            "{} is for '{}' ({}), but the board is '{}' (Board-ID {}): not flashed. "
            "Use --force if you are sure".format(
                path.name, intended, how, drive_board, info_txt.get("Board-ID", "?")
            )
        )
    if not info.families:
        reporter.warn("{} declares no UF2 family id".format(path.name))
    summary = {
        "ok": True,
        "dry_run": args.dry_run,
        "drive": str(drive),
        "board_id": info_txt.get("Board-ID"),
        "board": drive_board,
        "file": str(path),
        "intended_board": intended,
        "circuitpython": info.version or None,
        "bytes": len(data),
        "blocks": info.blocks,
    }
    if args.dry_run:
        reporter.say("would copy {} ({} bytes) to {}".format(path.name, len(data), drive))
    else:
        _copy_uf2(drive, path.name, data, reporter)
    summary["warnings"] = reporter.warnings
    return summary


def _copy_uf2(drive, name, data, reporter):
    reporter.say("flashing {} ({} bytes) onto {}".format(name, len(data), drive))
    try:
        write_file(Path(drive) / name, data)
    except OSError as error:
        if error.errno not in VANISHED:
            raise DeployError("flashing failed: {}".format(explain(error))) from None
        # The bootloader resets the board once the last block lands, so the
        # drive may vanish before the file is closed.
        reporter.warn(
            "the drive went away during the copy: if a CIRCUITPY drive appears, it worked; "
            "if the bootloader drive comes back, run this again"
        )
        return
    reporter.say("done: the board restarts; its CIRCUITPY drive appears in a few seconds")


# ------------------------------------------------------------------------ CLI


def deploy_parser():
    parser = argparse.ArgumentParser(
        prog="deploy.py",
        description="Put British Square on a PyGamer or PyBadge (CIRCUITPY drive).",
        epilog="Also: deploy.py firmware FILE.uf2 flashes CircuitPython (see --help there).",
    )
    add = parser.add_argument
    add("--drive", help="the CIRCUITPY drive (default: find it)")
    add("--mpy-cross", help="CircuitPython's mpy-cross (default: $MPY_CROSS, PATH, cache)")
    add("--no-fetch", action="store_true", help="never download mpy-cross")
    add("--cache-dir", default=str(cache_dir()), help="where fetched mpy-cross is kept")
    add("--source", default=str(ROOT), help="the game's source tree (default: this repository)")
    add("--replace", action="store_true", help="overwrite files this game did not deploy")
    _add_common_options(parser, "list what would change; write nothing")
    return parser


def firmware_parser():
    parser = argparse.ArgumentParser(
        prog="deploy.py firmware",
        description="Flash CircuitPython: copy a .uf2 onto PYGAMERBOOT/PYBADGEBOOT/BADGELCBOOT.",
    )
    add = parser.add_argument
    add("file", help="the CircuitPython .uf2 for the board")
    add("--drive", help="the bootloader drive (default: find it)")
    add("--force", action="store_true", help="flash even if the UF2 names another board")
    _add_common_options(parser, "check everything; copy nothing")
    return parser


def _add_common_options(parser, dry_run_help):
    parser.add_argument("--dry-run", action="store_true", help=dry_run_help)
    parser.add_argument("--json", action="store_true", help="print one JSON object, for scripts")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["firmware"]:
        args, action = firmware_parser().parse_args(argv[1:]), flash_firmware
    else:
        args, action = deploy_parser().parse_args(argv), deploy
    reporter = Reporter(as_json=args.json)
    try:
        result = action(args, reporter)
    except DeployError as error:
        if args.json:
            print(json.dumps({"ok": False, "error": str(error), "warnings": reporter.warnings}))
        else:
            print("deploy: " + str(error), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
