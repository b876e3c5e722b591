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

Exit status: 0 done, 1 refused or failed (the message says why), 2 bad usage, or
this computer lacks what the deploy needs: a library the board would import, or
CircuitPython's mpy-cross (the message says how to get it). The game is never
deployed as ``.py`` sources: the board would run out of memory compiling them.

The work is split by job, as circup's is: ``circuitpy_drive`` finds the
drive and reads boot_out.txt, ``mpy_compiler`` finds and runs mpy-cross,
``board_imports`` walks the imports, ``deploy_plan`` decides what goes on
the drive and what changes (``deploy_plan.build_board_tree`` writes a
board's tree into a plain folder, for tests), ``safe_writer`` checks paths
and writes; ``deploy_shared`` holds the names they share. This module is
the command.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import uf2
from circuitpy_drive import Board, check_board, pick_drive, read_boot_out
from deploy_plan import (
    Plan,
    board_modules,
    build_items,
    check_free_space,
    game_version,
    manifest_data,
    plan_changes,
    read_manifest,
)
from deploy_shared import ENTRY, DeployError, Reporter, quoted, run_command
from mpy_compiler import (
    MPY_FORMAT,
    Compiler,
    add_build_options,
    find_compiler,
    no_compiler,
    would_fetch,
)
from safe_writer import VANISHED, apply_plan, explain, write_file, write_manifest

# CircuitPython runs the first of these it finds.
ENTRY_PRIORITY = ("code.txt", "code.py", "main.txt", "main.py")


def deploy(args: argparse.Namespace, reporter: Reporter) -> dict:
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
    root = Path(args.source)
    modules = board_modules(root, board.board_id, reporter)  # the libraries first
    compiler = choose_compiler(board, args, reporter)
    items = build_items(root, modules, compiler)
    manifest = read_manifest(drive, reporter)
    plan = plan_changes(drive, items, manifest, replace=args.replace)
    check_plan(drive, plan, reporter)
    summary = _summary(drive, board, compiler, plan, args.dry_run)
    version = game_version(root)
    final = manifest_data(board, version, plan.items, summary["format"])
    pending = manifest_data(board, version, plan.items, summary["format"], plan.writes, plan.owned)
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


def choose_compiler(board: Board, args: argparse.Namespace, reporter: Reporter) -> Compiler | None:
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
    if compiler is None and not (
        args.dry_run and would_fetch(board.version, args.cache_dir, not args.no_fetch)
    ):
        # From .py sources the board compiles the game at import time and runs
        # out of heap: .py is never deployed.
        raise no_compiler(
            reporter, "the board needs the game as .mpy (from .py it runs out of memory)"
        )
    return compiler


def check_plan(drive: Path, plan: Plan, reporter: Reporter) -> None:
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


def has_changes(plan: Plan) -> bool:
    return bool(plan.writes or plan.removals or plan.leftovers)


def carry_out(
    drive: Path, plan: Plan, manifest: dict, pending: bytes, final: bytes, reporter: Reporter
) -> None:
    """Write the plan (nothing at all when the drive is up to date)."""
    if has_changes(plan):
        apply_plan(drive, plan, manifest, final, pending, reporter)
    elif "pending" in manifest or manifest["files"] != {i.path: i.digest for i in plan.items}:
        # Files identical to ours were already there: record them as the game's.
        try:
            write_manifest(drive, final)
        except OSError as error:
            raise DeployError(
                "the game on the drive is up to date, but its manifest could not be "
                "written: {}".format(explain(error))
            ) from None


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


def flash_firmware(args: argparse.Namespace, reporter: Reporter) -> dict:
    """Copy a CircuitPython UF2 onto the board's bootloader drive after checking it fits."""
    path = Path(args.file)
    try:
        data = uf2.read_firmware(path)
    except OSError as error:
        raise DeployError("{}: {}".format(quoted(path), error.strerror or error)) from None
    except uf2.UF2Error as error:
        raise DeployError("{}: {}".format(quoted(path), error)) from None
    try:
        info = uf2.read_uf2(data)
    except uf2.UF2Error as error:
        raise DeployError("{}: {}".format(quoted(path), error)) from None
    if info.families - {uf2.SAMD51_FAMILY}:
        raise DeployError(
            "{} is for another chip (UF2 family {}), not the SAMD51 of a PyGamer or PyBadge".format(
                quoted(path), ", ".join("0x%08x" % f for f in sorted(info.families))
            )
        )
    drive = pick_drive(args.drive, uf2.BOOT_DRIVE_LABELS, "bootloader (PYGAMERBOOT/PYBADGEBOOT)")
    info_txt = uf2.read_info_uf2(drive)
    if not info_txt:
        raise DeployError(
            "{} has no INFO_UF2.TXT: not a UF2 bootloader drive".format(quoted(drive))
        )
    drive_board = uf2.drive_board(info_txt, drive.name)
    intended, how = uf2.intended_board(path, info)
    if intended is None:
        reporter.warn("cannot tell which board {} is for: {}".format(quoted(path.name), how))
    elif intended != drive_board and not args.force:
        raise DeployError(
            "{} is for '{}' ({}), but the board is '{}' (Board-ID {}): not flashed. "
            "Use --force if you are sure".format(
                path.name, intended, how, drive_board, info_txt.get("Board-ID", "?")
            )
        )
    if not info.families:
        reporter.warn("{} declares no UF2 family id".format(quoted(path.name)))
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


def deploy_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="deploy.py",
        description="Put British Square on a PyGamer or PyBadge (CIRCUITPY drive).",
        epilog="Also: deploy.py firmware FILE.uf2 flashes CircuitPython (see --help there).",
    )
    add = parser.add_argument
    add("--drive", help="the CIRCUITPY drive (default: find it)")
    add_build_options(parser)
    add("--replace", action="store_true", help="overwrite files this game did not deploy")
    _add_common_options(parser, "list what would change; write nothing")
    return parser


def firmware_parser() -> argparse.ArgumentParser:
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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["firmware"]:
        return run_command(flash_firmware, firmware_parser().parse_args(argv[1:]))
    return run_command(deploy, deploy_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
