"""What goes on the drive and what changes there: the files the game needs
on a board, the manifest of what an earlier deploy wrote, the plan that
compares the two, and the space that plan takes on a FAT drive."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from board_imports import Module, import_closure
from const_inline import board_sources
from deploy_shared import (
    ASSET_SUFFIXES,
    ENTRY,
    GAME_PACKAGE,
    MANIFEST,
    ROOT,
    TEMP_SUFFIX,
    DeployError,
    Item,
    MissingLibraryError,
    Plan,
    Reporter,
    quoted,
)
from mpy_compiler import Compiler, compile_modules, compiler_info
from safe_writer import (
    ABSENT,
    FILE,
    IN_THE_WAY,
    drive_state,
    file_digest,
    is_game_path,
    path_problem,
    read_small,
    shown,
)

if TYPE_CHECKING:
    from circuitpy_drive import Board

# Files a fresh board ships as code.py: replacing them loses nothing.
FACTORY_CODE = {b"", b'print("Hello World!")', b"print('Hello World!')"}


# The game's module that names the data files it opens, and the name there.
FILES_MODULE = "files.py"
SHIPPED = "SHIPPED"


def shipped_names(root: str | Path) -> list[str]:
    """The data files the game at ``root`` opens beside its modules, as
    ``lib/british_square/files.py`` names them in ``SHIPPED`` (a tuple of
    plain names, read as text: nothing of the tree runs here); none when
    the tree has no such module. DeployError if the tuple is not there or
    not plain names."""
    module = Path(root) / "lib" / GAME_PACKAGE / FILES_MODULE
    if not module.is_file():
        return []
    where = "lib/{}/{}".format(GAME_PACKAGE, FILES_MODULE)
    try:
        tree = ast.parse(module.read_bytes(), where)
    except (SyntaxError, ValueError) as error:
        raise DeployError("{} does not parse: {}".format(where, error)) from None
    for node in tree.body:
        targets = [getattr(target, "id", None) for target in getattr(node, "targets", ())]
        if isinstance(node, ast.Assign) and targets == [SHIPPED]:
            try:
                names = ast.literal_eval(node.value)
            except ValueError:
                break
            if isinstance(names, tuple) and all(_plain_name(name) for name in names):
                return list(names)
            break
    raise DeployError(
        '{} names no files in {} = ("NAME", ...): deploy ships only the files the game '
        "names there".format(where, SHIPPED)
    )


def _plain_name(name: object) -> bool:
    return (
        isinstance(name, str)
        and Path(name).suffix.lower() in ASSET_SUFFIXES
        and is_game_path("lib/{}/{}".format(GAME_PACKAGE, name))
    )


def asset_files(root: str | Path) -> list[Path]:
    """The data files of the game package that ship (sprite sheet, words, par
    files): those ``shipped_names`` gives, and nothing else of the folder (a
    ``notes.txt`` or ``cache.bin`` left there stays). DeployError when one is
    missing or is not a plain file of the tree (``tree_file``)."""
    package_dir = Path(root) / "lib" / GAME_PACKAGE
    return sorted(tree_file(root, package_dir / name) for name in shipped_names(root))


def tree_file(root: str | Path, path: Path) -> Path:
    """``path``, a file of the game's tree at ``root`` to ship, if it is a plain
    file there; DeployError if it is missing, not a regular file (a folder, a
    FIFO) or a link that leaves the tree: nothing from outside the tree ships."""
    try:
        shown_path = quoted(Path(path).relative_to(root).as_posix())
    except ValueError:
        shown_path = quoted(path)
    try:
        real = Path(path).resolve(strict=True)
    except (OSError, RuntimeError):
        raise DeployError("{} is missing from {}".format(shown_path, quoted(root))) from None
    if not real.is_relative_to(Path(root).resolve()):
        raise DeployError(
            "{} is a link to {}, outside the game's tree: nothing from outside it ships".format(
                shown_path, quoted(real)
            )
        )
    if not stat.S_ISREG(real.stat().st_mode):
        raise DeployError("{} is not a plain file".format(shown_path))
    return Path(path)


KIND_ORDER = {"library": 0, "game": 1, "asset": 2, "adapter": 3, "entry": 4}
TREE_KINDS = ("game", "adapter", "entry")  # modules read from the game's tree


def build_items(
    root: str | Path, modules: Sequence[Module], compiler: Compiler | None
) -> list[Item]:
    """The files to deploy, in write order: libraries, game, assets, adapter, code.py last.

    code.py stays source (the board only runs code.py, never code.mpy) but
    is compiled too, to catch a syntax error before it reaches the board.
    The game's and adapters' modules are compiled with their shared
    constants made private (``const_inline``).
    """
    root = Path(root)
    for module in modules:
        if module.kind in TREE_KINDS:
            tree_file(root, module.source)
    compiled = {}
    if compiler:
        ours = [m for m in modules if m.kind in ("game", "adapter")]
        texts = {m.drive_path: (m.name, m.source.read_text(encoding="utf-8")) for m in ours}
        entries = {
            m.drive_path: m.source.read_text(encoding="utf-8") for m in modules if m.kind == "entry"
        }
        compiled = compile_modules(compiler, modules, board_sources(texts, root, entries))
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


def game_version(root: str | Path) -> str:
    init = Path(root) / "lib" / GAME_PACKAGE / "__init__.py"
    match = (
        re.search(r"__version__\s*=\s*[\"']([^\"']+)", init.read_text()) if init.exists() else None
    )
    return match.group(1) if match else "unknown"


def board_modules(
    root: str | Path, board_id: str, reporter: Reporter, adapters: Sequence[str] = ()
) -> list[Module]:
    """The modules a ``board_id`` board imports from the game at ``root`` (with the
    hw modules named in ``adapters`` too); DeployError if it cannot run there: a
    module the board lacks, or one nobody provides (MissingLibraryError)."""
    root = Path(root)
    if not (root / ENTRY).is_file():
        reporter.warn("{} has no {}: the board keeps the one it has".format(root, ENTRY))
    if not (root / "hw" / (board_id + ".py")).is_file():
        reporter.warn("no hw/{}.py adapter in {}".format(board_id, root))
    closure = import_closure(root, board_id, adapters)
    if closure.lacking:
        raise DeployError(closure.lacking_message(board_id))
    if closure.unresolved:
        raise MissingLibraryError(closure.unresolved_message())
    return closure.modules


def game_items(
    root: str | Path,
    board_id: str,
    compiler: Compiler | None,
    reporter: Reporter,
    adapters: Sequence[str] = (),
) -> list[Item]:
    """Every file the game needs on a ``board_id`` board (with the hw modules named
    in ``adapters`` too), built and in write order; DeployError if it cannot run there."""
    return build_items(root, board_modules(root, board_id, reporter, adapters), compiler)


def build_board_tree(
    board_id: str,
    target: str | Path,
    *,
    source: str | Path = ROOT,
    mpy_cross: str | Path | None = None,
    adapters: Sequence[str] = (),
    reporter: Reporter | None = None,
) -> list[Item]:
    """Write into folder ``target`` the files a deploy puts on a ``board_id`` board.

    The same files as a deploy of ``source``: code.py, the board's hw adapter
    and what they import, the sprite sheet, the libraries; as .mpy when
    ``mpy_cross`` names CircuitPython's compiler, else as .py. ``adapters``
    adds hw modules by name and what they import (("vm",) for the
    CircuitPython VM, which no board needs). No drive, manifest or
    free-space check: ``target`` is a plain folder, made if missing; files
    in it are overwritten. DeployError as for a deploy (a module the board
    lacks, a syntax error, a compiler that is not CircuitPython's).
    Returns the items written.
    """
    compiler = None
    if mpy_cross is not None:
        compiler = compiler_info(mpy_cross)
        if isinstance(compiler, str):
            raise DeployError(compiler)
    reporter = reporter or Reporter(as_json=True)  # warnings collected, nothing printed
    items = game_items(source, board_id, compiler, reporter, adapters)
    target = Path(target)
    for item in items:
        path = target / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(item.data)
    return items


_SHA256 = re.compile(r"[0-9a-f]{64}")


def manifest_problem(manifest: object) -> str | None:
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


# The manifest deploy writes for thousands of files is far smaller than this.
MANIFEST_LIMIT = 1 << 20


def read_manifest(drive: str | Path, reporter: Reporter) -> dict:
    """What an earlier deploy of this game wrote: {"files": {path: sha256}, ...}.

    A manifest that is not exactly what this tool writes (not JSON, wrong
    types, a path outside the game's files, nested too deep to parse, too
    big) is damaged or was not written by this tool, so none of it is
    trusted: it is ignored whole, with one warning. Then only files
    identical to the game's count as its own, so nothing is removed and
    nothing else is overwritten without --replace.
    """
    empty = {"files": {}}
    if drive_state(drive, MANIFEST)[0] == ABSENT:
        return empty
    data, problem = read_small(drive, MANIFEST, MANIFEST_LIMIT)
    if data is not None:
        try:
            manifest = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError) as error:
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


def manifest_data(
    board: Board,
    version: str,
    items: Sequence[Item],
    formats: str,
    pending: Sequence[Item] | None = None,
    owned: dict[str, str] | None = None,
) -> bytes:
    """The manifest: the deployed ``items``; or, mid-deploy, the game's files on the
    drive now (``owned``) and the ``pending`` ones being written, all of them ours."""
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
        manifest["files"] = dict(owned or {})
        manifest["pending"] = {i.path: i.digest for i in pending}
    return (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()


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


def plan_changes(
    drive: str | Path, items: Sequence[Item], manifest: dict, replace: bool = False
) -> Plan:
    """Compare the wanted files with the drive; nothing is written.

    Everything in the way of a file deploy must write (a folder or a link
    where a file goes, a file where a folder goes, at the final or the
    temporary name) is found here, before anything is written. When
    anything but code.py changes, code.py is written too: the switch takes
    the old one away first and puts the new one last (``switch_over``).
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
            plan.owned[item.path] = current
            continue
        plan.writes.append(item)
        if current is None:
            continue
        plan.existing.add(item.path)
        if _ours(manifest, item.path, current):
            plan.owned[item.path] = current
        else:
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
                plan.owned[twin] = digest
                _add_removal(plan, twin)
            else:
                _foreign(plan, twin, drive, replace, "would shadow " + item.path, remove=True)
    # FAT ignores case: a manifest entry that differs from a wanted path only in
    # case names that same file, which is not stale.
    wanted_names = {path.casefold() for path in wanted}
    for path in dict.fromkeys(_known(manifest)):
        if path.casefold() in wanted_names:
            continue
        digest = file_digest(drive, path)  # None behind a link: never ours
        if digest is None:
            continue
        if _ours(manifest, path, digest):
            plan.owned[path] = digest
            _add_removal(plan, path)
        else:
            plan.kept.append(path)
    entry = [item for item in plan.unchanged if item.path == ENTRY]
    if entry and (plan.removals or any(item.path != ENTRY for item in plan.writes)):
        plan.unchanged.remove(entry[0])
        plan.writes.append(entry[0])  # last, as items are in write order
        plan.existing.add(ENTRY)
    plan.leftovers = find_leftovers(drive, [MANIFEST, *wanted, *_known(manifest)])
    return plan


def _known(manifest):
    """Every path the manifest says the game wrote (a finished or interrupted deploy)."""
    return list(manifest["files"]) + list(manifest.get("pending", {}))


def _foreign(plan, path, drive, replace, why, remove=False):
    """A file this game did not write is in the way: replace it only if asked to."""
    if path == ENTRY and _is_factory_code(drive):
        return  # a fresh board's hello-world
    if replace:
        plan.replaced.append(path)
        if remove:
            _add_removal(plan, path)
    else:
        plan.conflicts.append("{} {}".format(path, why))


def _is_factory_code(drive):
    data, _why = read_small(drive, ENTRY, 100)
    return data is not None and data.strip() in FACTORY_CODE


def _add_removal(plan, path):
    if path not in plan.removals:
        plan.removals.append(path)


def find_leftovers(drive: str | Path, paths: Iterable[str]) -> list[str]:
    """The temporary files of ``paths`` (files the plan or the manifest names) an
    interrupted deploy left: regular files, no link on the way. Nothing else
    is taken for the game's, whatever its name."""
    temps = dict.fromkeys(path + TEMP_SUFFIX for path in paths)
    return [temp for temp in temps if drive_state(drive, temp)[0] == FILE]


def cluster_size(drive: str | Path) -> int:
    try:
        return max(512, os.statvfs(drive).f_frsize)
    except (AttributeError, OSError):
        return 4096


FAT_ENTRY = 32  # bytes of one FAT directory entry

LONG_NAME_CHARS = 13  # characters one long-name (VFAT) entry holds


def _clusters(size, cluster):
    return -(-size // cluster)


def entry_bytes(name: str) -> int:
    """Directory bytes a name takes on FAT: its 8.3 entry and its long-name entries
    (counted always: a lower-case name gets them too)."""
    return FAT_ENTRY * (1 + _clusters(len(name), LONG_NAME_CHARS))


def space_needed(drive: str | Path, plan: Plan, manifest_sizes: Iterable[int]) -> int:
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


def check_free_space(
    drive: str | Path, plan: Plan, manifest_sizes: Iterable[int]
) -> dict[str, int]:
    """{"space_needed", "space_free"}; DeployError if the drive has too little."""
    free = shutil.disk_usage(drive).free
    needed = space_needed(drive, plan, manifest_sizes)
    if needed > free:
        raise DeployError(
            "{} has {} bytes free, the deploy needs {}: delete files you do not need from "
            "it and run again. Nothing was changed.".format(quoted(drive), free, needed)
        )
    return {"space_needed": needed, "space_free": free}
