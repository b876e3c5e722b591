"""Build British Square's Project Bundle: a zip an owner without a toolchain
unpacks and copies onto the board's CIRCUITPY drive.

Usage::

    python tools/bundle.py [--out FILE.zip] [--mpy-cross PATH] [--no-fetch] [--json]
                           [--write-docs]

The zip (``dist/british-square-<version>.zip`` unless ``--out`` says) has the
shape of the Project Bundles of Adafruit's Learn guides: one folder per
CircuitPython major version (``CircuitPython 9.x/``, ``CircuitPython 10.x/``),
each holding what a deploy writes onto a PyGamer's drive and onto a PyBadge's
(code.py, both boards' hw adapters, the game's and the libraries' ``.mpy``,
the assets), and nothing else; ``README.txt`` beside the folders says how to
copy them. The files are planned and built by deploy's own code (``deploy_plan``), so
the bundle ships exactly what a deploy would. ``--write-docs`` also puts the
bundle's tree and the sizes of it and of a deploy into docs/deploy.md
(``deploy_docs``).

Exit status: 0 built, 1 refused or failed (the message says why), 2 bad usage,
or this computer lacks what the bundle needs (a library the board would import,
CircuitPython's mpy-cross).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

import deploy_docs
from circuitpy_drive import MIN_CIRCUITPYTHON, Board
from deploy_plan import board_modules, build_items, game_items, game_version
from deploy_shared import SUPPORTED_BOARDS, DeployError, Item, Reporter, quoted, run_command
from mpy_compiler import (
    MPY_FORMAT,
    Compiler,
    add_build_options,
    find_compiler,
    fits_major,
    no_compiler,
)

# The release whose mpy-cross is fetched when none is given: any of 9.x and
# 10.x writes the .mpy format (6) both load.
MPY_CROSS_RELEASE = "10.0.3"

# The same tree makes the same zip byte for byte, on any day and machine (as
# Adafruit's bundle builders do): entries in one order, each with this time,
# made on Unix (create_system 3) with mode 0644, whatever the files' own.
ENTRY_TIME = (1980, 1, 1, 0, 0, 0)
ENTRY_MODE = 0o644
UNIX = 3

README_NAME = "README.txt"


def bundle_items(root: str | Path, compiler: Compiler, reporter: Reporter) -> list[Item]:
    """The files of one folder of the bundle, in path order: those a deploy
    writes onto each supported board, together (code.py, the game and the
    libraries are the same for both; each board adds its adapter), planned
    and built by deploy's own code."""
    modules = {}
    for board_id in SUPPORTED_BOARDS:
        for module in board_modules(root, board_id, reporter):
            modules.setdefault(module.drive_path, module)
    items = build_items(root, list(modules.values()), compiler)
    return sorted(items, key=lambda item: item.path)


def bundle_majors(compiler: Compiler) -> list[int]:
    """The CircuitPython major versions the bundle has a folder for: every one
    the game runs on (9 and later, as far as MPY_FORMAT knows them); DeployError
    if ``compiler``'s .mpy would not load on one of them."""
    majors = sorted(major for major in MPY_FORMAT if major >= MIN_CIRCUITPYTHON)
    unfit = [major for major in majors if not fits_major(compiler, major)]
    if unfit:
        raise DeployError(
            "mpy-cross {} writes .mpy that CircuitPython {} cannot load; a bundle needs one "
            "mpy-cross per .mpy format".format(
                compiler.version, " and ".join("{}.x".format(m) for m in unfit)
            )
        )
    return majors


def folder_name(major: int) -> str:
    return "CircuitPython {}.x".format(major)


def readme_text(version: str, majors: Sequence[int]) -> str:
    """README.txt: which boards, which CircuitPython, how to copy, and the saves."""
    folders = " or ".join('"{}"'.format(folder_name(major)) for major in majors)
    return """\
British Square {version}: a two-deck patience for the Adafruit PyGamer and
PyBadge (PyBadge LC and EdgeBadge too), on CircuitPython {majors}.

1. Plug the board in with a data USB cable: its CIRCUITPY drive appears.
   The first line of boot_out.txt on it names the CircuitPython it runs
   ("Adafruit CircuitPython 10.0.3 ..."). Older than {oldest}, or no
   CIRCUITPY drive? Install CircuitPython for your board from
   circuitpython.org first.
2. Open the folder for that version: {folders}.
3. Copy everything in it (code.py and the folders hw and lib) onto CIRCUITPY,
   replacing files of the same names. Your other files stay. If you copied
   an older version of the game as .py files, delete lib/british_square
   and hw from the drive first: a .py file beside a .mpy of the same name
   is the one that runs.
4. The board restarts into the game once the copy is done (or press reset).

Your game in progress, settings and statistics are kept in the board's own
memory (NVM), not in a file on CIRCUITPY: copying a new version over the
old one, or deleting the game's files, leaves them as they are, and the new
version continues your game.

Other routes (make deploy, circup) and details: docs/deploy.md in the
game's repository.
""".format(
        version=version,
        majors=" and ".join("{}.x".format(m) for m in majors),
        oldest=majors[0],
        folders=folders,
    )


def bundle_entries(items: Sequence[Item], majors: Sequence[int], readme: str) -> list:
    """(name in the zip, bytes) for every file of the bundle, in zip order."""
    entries = [(README_NAME, readme.encode())]
    for major in majors:
        entries += [(folder_name(major) + "/" + item.path, item.data) for item in items]
    return entries


def check_zip_path(path: Path) -> None:
    """DeployError unless the zip can go at ``path``: above it a folder this
    process may write in, or none yet and a place to make it (not a file);
    at it a regular file or nothing (a folder, a link or a device there is
    someone else's)."""
    for folder in (path.parent, *path.parent.parents):
        if not os.path.lexists(folder):
            continue  # made when the zip is written
        if not os.path.isdir(folder):
            raise cannot_write(path, "{} is not a folder".format(quoted(folder)))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise cannot_write(path, "{} may not be written".format(quoted(folder)))
        break
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise cannot_write(path, error) from None
    if not stat.S_ISREG(mode):
        raise DeployError(
            "{} is not a plain file: the bundle is not written there".format(quoted(path))
        )


def cannot_write(path: Path, why: OSError | str) -> DeployError:
    """The one line that says the zip cannot be written at ``path``, and ``why``."""
    if isinstance(why, OSError):
        why = why.strerror or str(why)
    return DeployError("cannot write the bundle {}: {}".format(quoted(path), why))


def current_umask() -> int:
    """The process's umask (read by setting it, and setting it back)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def write_zip(path: Path, entries: Sequence[tuple[str, bytes]]) -> None:
    """Write the zip beside ``path`` under a temporary name, then rename it into
    place: a zip at ``path`` is always whole."""
    check_zip_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=path.name + ".", suffix=".part", dir=path.parent)
    except OSError as error:  # read-only, full, or changed since the check
        raise cannot_write(path, error) from None
    try:
        with os.fdopen(handle, "wb") as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in entries:
                info = zipfile.ZipInfo(name, ENTRY_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = UNIX
                info.external_attr = ENTRY_MODE << 16
                zf.writestr(info, data)
        # mkstemp makes it 0600: the zip is made as any build artifact (0644
        # under the usual umask 022)
        os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, path)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise cannot_write(path, error) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def build_bundle(args: argparse.Namespace, reporter: Reporter) -> dict:
    """Build the zip; return the summary (what --json prints)."""
    started = time.monotonic()
    root = Path(args.source)
    version = game_version(root)
    out = Path(args.out or root / "dist" / "british-square-{}.zip".format(version))
    check_zip_path(out)  # before any work
    if args.write_docs:
        try:
            deploy_docs.check_page(root)
        except (OSError, ValueError) as error:
            raise DeployError("no figures can be written: {}".format(error)) from None
    # No board to ask: the compiler is looked for as a deploy to a board
    # running MPY_CROSS_RELEASE would look for it.
    stand_in = Board("", MPY_CROSS_RELEASE, int(MPY_CROSS_RELEASE.split(".")[0]))
    compiler = find_compiler(
        stand_in, args.mpy_cross, not args.no_fetch, Path(args.cache_dir), reporter
    )
    if compiler is None:
        raise no_compiler(reporter, "a bundle holds .mpy files only")
    majors = bundle_majors(compiler)
    items = bundle_items(root, compiler, reporter)
    write_zip(out, bundle_entries(items, majors, readme_text(version, majors)))
    if args.write_docs:
        write_figures(root, compiler, items, majors, out.stat().st_size, reporter)
    summary = {
        "ok": True,
        "zip": str(out),
        "zip_bytes": out.stat().st_size,
        "version": version,
        "folders": [folder_name(major) for major in majors],
        "files": [item.path for item in items],
        "bytes": sum(len(item.data) for item in items),
        "mpy_cross": compiler.path,
        "warnings": reporter.warnings,
        "seconds": round(time.monotonic() - started, 3),
    }
    reporter.say(
        "{}: {} bytes; {}, each {} files, {} bytes; {}".format(
            summary["zip"],
            summary["zip_bytes"],
            " and ".join(name + "/" for name in summary["folders"]),
            len(items),
            summary["bytes"],
            README_NAME,
        )
    )
    return summary


def write_figures(root, compiler, items, majors, zip_bytes, reporter):
    """docs/deploy.md's figures (``deploy_docs``): the bundle's tree, what it
    and a PyGamer's deploy hold, and how long a deploy with nothing to change
    takes."""
    board = game_items(root, "pygamer", compiler, reporter)
    figures = deploy_docs.sizes(board, items, zip_bytes)
    tree = deploy_docs.tree_text(items, majors, folder_name, README_NAME)
    seconds = deploy_docs.redeploy_seconds(root, compiler, MPY_CROSS_RELEASE)
    try:
        page = deploy_docs.write_docs(root, tree, figures, seconds)
    except OSError as error:
        raise DeployError("the figures were not written: {}".format(error)) from None
    reporter.say("{}: the bundle's tree and the sizes written".format(page))


def bundle_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bundle.py",
        description="Build the Project Bundle zip: the game for CIRCUITPY, per CircuitPython "
        "major version.",
    )
    parser.add_argument("--out", help="the zip to write (default: dist/british-square-VERSION.zip)")
    add_build_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object, for scripts")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="also write docs/deploy.md's figures of the bundle and a deploy (in --source)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(
        build_bundle, bundle_parser().parse_args(sys.argv[1:] if argv is None else argv)
    )


if __name__ == "__main__":
    sys.exit(main())
