"""The figures docs/deploy.md gives of what the bundle and a deploy hold,
made from the files deploy's own plan builds: the bundle's tree
(``bundle-tree``) and the sizes (``sizes``), between their marks
(``docs_marks``). ``bundle.py --write-docs`` writes them, with the time a
deploy with nothing to change takes; ``tests/test_bundle.py`` checks the
counts and sizes against a build of today's tree."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

from deploy_shared import GAME_PACKAGE, Item
from docs_marks import marked, marks, write_marked
from mpy_compiler import Compiler

PAGE = Path("docs") / "deploy.md"
TREE, SIZES = "bundle-tree", "sizes"
KB = 1024
TOLERANCE = 0.02  # a size in the docs may differ this much from today's tree's

# The sizes, as the page says them: each {name} a whole number (seconds: tenths).
SIZES_TEXT = (
    "A deploy to a PyGamer writes {files} files, about {kb} KB: {modules} `.mpy` modules "
    "({mpy_kb} KB: {game} of the game's, {adapters} of the board's adapter (`hw/`), {libraries} of "
    "Adafruit's libraries); `code.py`, the sprite sheet and the words ({other_kb} KB); "
    "{par_files} par files ({par_kb} KB: one byte per deal and rule set, read by seeking); "
    "and {lines_files} files of winning lines ({lines_kb} KB: the deals New game deals under "
    "American and Union Square rules, two bytes a move, read by seeking). "
    "Each folder of the bundle holds {bundle_files} files, about {bundle_kb} KB (both "
    "boards' adapters); the zip of both folders is about {zip_kb} KB. A second deploy with "
    "nothing changed writes nothing and takes {seconds} s, most of it compiling every module "
    "again to compare."
)
CHECKED_EXACTLY = ("files", "modules", "game", "adapters", "libraries", "par_files", "lines_files")
NOT_CHECKED = ("seconds",)  # the machine's, when the figures were written


def kb(size: int) -> int:
    return round(size / KB)


def sizes(board_items: Sequence[Item], bundle_items: Sequence[Item], zip_bytes: int) -> dict:
    """The figures of ``SIZES_TEXT`` but the seconds: a PyGamer's deploy
    (``board_items``), a folder of the bundle (``bundle_items``), the zip."""
    modules = [item for item in board_items if item.path.endswith(".mpy")]
    data = [item for item in board_items if item.kind == "asset" and item.path.endswith(".bin")]
    par = [item for item in data if "/par_" in item.path]
    lines = [item for item in data if "/lines_" in item.path]
    other = [item for item in board_items if item not in modules and item not in data]

    def total(items):
        return sum(len(item.data) for item in items)

    return {
        "files": len(board_items),
        "kb": kb(total(board_items)),
        "modules": len(modules),
        "mpy_kb": kb(total(modules)),
        "game": sum(1 for item in modules if item.kind == "game"),
        "adapters": sum(1 for item in modules if item.kind == "adapter"),
        "libraries": sum(1 for item in modules if item.kind == "library"),
        "other_kb": kb(total(other)),
        "par_files": len(par),
        "par_kb": kb(total(par)),
        "lines_files": len(lines),
        "lines_kb": kb(total(lines)),
        "bundle_files": len(bundle_items),
        "bundle_kb": kb(total(bundle_items)),
        "zip_kb": kb(zip_bytes),
    }


def sizes_text(figures: dict) -> str:
    """The paragraph between the ``sizes`` marks, on lines of the page's
    width (a size and its unit on one line)."""
    text = SIZES_TEXT.replace(" KB", "\0KB").format(**figures)
    return "\n" + textwrap.fill(text, 76).replace("\0", " ") + "\n"


def figures_in(text: str) -> dict:
    """The figures a ``sizes`` paragraph says, by name; ValueError if it is
    not one ``sizes_text`` writes."""
    pattern = re.escape(" ".join(SIZES_TEXT.split()))
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[0-9.]+)", pattern)
    found = re.fullmatch(pattern, " ".join(text.split()))
    if not found:
        raise ValueError("not the sizes paragraph bundle.py --write-docs writes")
    return {name: float(value) for name, value in found.groupdict().items()}


def differences(said: dict, now: dict) -> list[str]:
    """The figures the page says (``said``) that today's tree (``now``) no
    longer bears out: the counts exactly, the sizes within ``TOLERANCE``."""
    wrong = []
    for name, value in now.items():
        exact = name in CHECKED_EXACTLY
        if abs(said[name] - value) > (0 if exact else max(1, TOLERANCE * value)):
            wrong.append("{} {:g}, now {}".format(name, said[name], value))
    return wrong


def tree_text(items: Sequence[Item], majors: Sequence[int], folder_name, readme: str) -> str:
    """The bundle's shape, as a code block: the first folder's files (the
    libraries a line each, the game's modules counted, its data named), then
    the others, which hold the same."""
    paths = [item.path for item in items]
    game = "lib/{}/".format(GAME_PACKAGE)
    lines = [readme, folder_name(majors[0]) + "/"]
    lines += ["  " + path for path in paths if "/" not in path]
    lines.append("  " + "  ".join(path for path in paths if path.startswith("hw/")))
    libraries = {}
    for path in paths:
        if path.startswith("lib/") and not path.startswith(game):
            libraries.setdefault(path.split("/")[1].removesuffix(".mpy"), []).append(path)
    for group in libraries.values():
        lines += textwrap.wrap("  ".join(group), 88, initial_indent="  ", subsequent_indent="    ")
    modules = sum(1 for path in paths if path.startswith(game) and path.endswith(".mpy"))
    data = [path[len(game) :] for path in paths if path.startswith(game) and path[-4:] != ".mpy"]
    head = "  {}  ".format(game)
    lines += textwrap.wrap(
        "{} modules (.mpy), {}".format(modules, ", ".join(data)),
        90,
        initial_indent=head,
        subsequent_indent=" " * len(head),
    )
    for major in majors[1:]:
        lines += [folder_name(major) + "/", "  the same files"]
    return "\n\n```\n" + "\n".join(lines) + "\n```\n\n"


def redeploy_seconds(root: Path, compiler: Compiler, version: str) -> float:
    """How long ``tools/deploy.py`` takes, as a command, onto a PyGamer drive
    that already holds the game (a folder standing in for it)."""
    with tempfile.TemporaryDirectory(prefix="bsq-drive-") as folder:
        drive = Path(folder) / "CIRCUITPY"
        drive.mkdir()
        (drive / "boot_out.txt").write_text(
            "Adafruit CircuitPython {} on 2025-01-01; Adafruit PyGamer with samd51j19\n"
            "Board ID:pygamer\n".format(version)
        )
        command = [sys.executable, str(Path(__file__).with_name("deploy.py"))]
        command += ["--drive", str(drive), "--source", str(root), "--mpy-cross", compiler.path]
        subprocess.run(command, check=True, capture_output=True)
        started = time.monotonic()
        subprocess.run(command, check=True, capture_output=True)
        return time.monotonic() - started


def write_docs(root: Path, tree: str, figures: dict, seconds: float) -> Path:
    """Put the bundle's tree and the sizes between their marks in the page."""
    page = Path(root) / PAGE
    write_marked(page, TREE, tree)
    write_marked(page, SIZES, sizes_text(dict(figures, seconds="{:.1f}".format(seconds))))
    return page


def check_page(root: Path) -> None:
    """ValueError (or OSError) unless the page has the marks to write between."""
    page = Path(root) / PAGE
    for name in (TREE, SIZES):
        if len(marked(page, name)) != 1:
            raise ValueError("{}: not one pair of {} ... {} marks".format(page, *marks(name)))


def said(root: Path) -> tuple[list[str], dict]:
    """What the page says: (the bundle's trees, the sizes' figures)."""
    check_page(root)
    page = Path(root) / PAGE
    return marked(page, TREE), figures_in(marked(page, SIZES)[0])
