"""Which modules the board imports: a walk of the import graph from code.py
and the board's hw adapter, read with ``ast`` (imports inside functions
too), through the game's tree and the installed CircuitPython libraries.

An import is optional when it sits in the body of a ``try`` one of whose
handlers catches ImportError (or ModuleNotFoundError, Exception,
BaseException, or is bare): a module missing there is no error.
"""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import importlib.metadata
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deploy_shared import ENTRY, ROOT, SUPPORTED_BOARDS, DeployError

# Modules compiled into CircuitPython (or frozen in), so never copied; BOARD_LACKS
# says which of them the handhelds' builds leave out.
CIRCUITPYTHON_BUILTINS = frozenset(
    """__future__ _asyncio _pixelmap _stage adafruit_bus_device adafruit_pixelbuf aesio
    analogio array atexit audiobusio audiocore audioio audiomixer audiomp3 binascii
    bitbangio bitmapfilter bitmaptools board builtins busdisplay busio collections countio
    digitalio displayio epaperdisplay errno fontio fourwire framebufferio frequencyio gc
    getpass gifio hashlib i2cdisplaybus i2ctarget io jpegio json keypad keypad_demux locale
    lvfontio math microcontroller micropython msgpack neopixel_write nvm onewireio os
    paralleldisplaybus floppyio ps2io pulseio pwmio rainbowio random re rgbmatrix rotaryio rtc samd
    sdcardio select sharpdisplay spitarget stage storage struct supervisor synthio sys terminalio
    tilepalettemapper time touchio traceback ugame ulab usb usb_cdc usb_hid usb_midi
    vectorio warnings watchdog zlib""".split()
)

# Modules CircuitPython has on other boards that the PyGamer and PyBadge builds
# turn off (ports/atmel-samd/boards/{pygamer,pybadge}/mpconfigboard.mk, as
# shared/PLATFORM.md lists them): code importing one may pass on Blinka, then
# fails on the board. vectorio is on them (displayio turns it on).
SAMD51_HANDHELD_LACKS = frozenset(
    "framebufferio gifio jpegio aesio i2cdisplaybus paralleldisplaybus floppyio spitarget".split()
)
BOARD_LACKS = {"pygamer": SAMD51_HANDHELD_LACKS, "pybadge": SAMD51_HANDHELD_LACKS}
TYPING_MODULES = {"typing", "circuitpython_typing", "typing_extensions"}
NON_BOARD_ADAPTERS = ("desktop", "vm")


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


def imports_of(module: Module) -> list[ImportRef]:
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


def board_libraries(paths: Iterable[str | Path]) -> dict[str, Path]:
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


def library_paths() -> list[Path]:
    """Where installed packages live: this interpreter's, then the repository's .venv."""
    paths = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    paths += sorted(ROOT.glob(".venv/lib/python3*/site-packages"))
    paths += [ROOT / ".venv" / "Lib" / "site-packages"]
    return [p for p in dict.fromkeys(paths) if p.is_dir()]


class Resolver:
    """Finds a dotted module name in the game's tree or in an installed library."""

    def __init__(self, source_root: str | Path, lib_paths: Iterable[str | Path]) -> None:
        self.root = Path(source_root)
        # code.py puts lib/ and hw/ on sys.path, as the board has / and /lib.
        self.local = [self.root / "lib", self.root, self.root / "hw"]
        self.libraries = board_libraries(lib_paths)

    def find(self, name: str) -> Module | None:
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

    def is_namespace(self, name: str) -> bool:
        """A folder without __init__.py, importable on CircuitPython as a package."""
        path_parts = name.split(".")
        return any(base.joinpath(*path_parts).is_dir() for base in self.local)


def other_adapters(board_id: str, adapters: Sequence[str] = ()) -> set[str]:
    """hw/ adapters of the other boards and the desktop, by either import name
    (``hw.pygamer`` or ``pygamer`` with hw/ on sys.path): code.py picks one by
    board id at run time, so its imports of the others are not followed."""
    names = set(SUPPORTED_BOARDS + NON_BOARD_ADAPTERS) - {board_id, *adapters}
    return names | {"hw." + name for name in names}


def start_modules(
    root: str | Path, board_id: str, resolver: Resolver, adapters: Sequence[str] = ()
) -> list[Module]:
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

    def unresolved_message(self) -> str:
        """One line naming each module no one provides, who imports it, and the fix."""
        return (
            "not deployed: the board would fail to import {}: not built into CircuitPython, "
            "not in the game's tree and not installed for {}. Install the board's libraries, "
            "as `make deploy` does (or `{} -m pip install -r requirements-device.txt`; a "
            "library new to the game goes in that file first), then run again".format(
                ", ".join(_with_importers(self.unresolved)),
                sys.executable or "this Python",
                Path(sys.executable).name or "python3",
            )
        )

    def lacking_message(self, board_id: str) -> str:
        """One line naming each module the board lacks and who imports it."""
        return (
            "not deployed: the {}'s CircuitPython has no {}; guard the import with "
            "try/except ImportError or remove it".format(
                board_id, ", no ".join(_with_importers(self.lacking))
            )
        )


def _with_importers(imports):
    """'module (imported by a, b)' for each module of (importer, module) pairs, by name."""
    importers = {}
    for importer, name in imports:
        importers.setdefault(name, []).append(importer)
    return [
        "{} (imported by {})".format(name, ", ".join(importers[name])) for name in sorted(importers)
    ]


def import_closure(
    root: str | Path,
    board_id: str,
    adapters: Sequence[str] = (),
    resolver: Resolver | None = None,
) -> Closure:
    """Every module the board needs: the start modules and what they import,
    transitively, imports inside functions included (the game imports some
    modules only when a screen needs them). ``resolver`` defaults to the
    tree at ``root`` and the installed libraries."""
    resolver = resolver or Resolver(root, library_paths())
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
