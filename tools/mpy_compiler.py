"""CircuitPython's mpy-cross: finding one that fits the board, fetching it once
(as circuitpython-build-tools does), and compiling modules to ``.mpy``."""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deploy_shared import ROOT, DeployError, Reporter, SetupError, quoted

if TYPE_CHECKING:
    from board_imports import Module
    from circuitpy_drive import Board

# .mpy format per CircuitPython major version: a compiler of another major
# version is fine when the format is the same.
MPY_FORMAT = {9: 6, 10: 6}
MPY_HEADER = b"C\x06"
MPY_CROSS_URL = "https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross"


@dataclass
class Compiler:
    """A CircuitPython mpy-cross: where it is and which CircuitPython it comes from."""

    path: str
    version: str
    major: int


def compiler_info(path: str | Path) -> Compiler | str:
    """A Compiler for a CircuitPython mpy-cross at ``path``, or a string saying why not."""
    try:
        result = subprocess.run(
            [str(path), "--version"], capture_output=True, text=True, timeout=30
        )
    except OSError as error:
        return "{} does not run: {}".format(quoted(path), error.strerror or error)
    except subprocess.TimeoutExpired:
        return "{} does not run: no answer to --version in 30 s".format(quoted(path))
    match = re.search(r"CircuitPython (\d+)\.\d+\.\d+\S*", result.stdout)
    if not match:
        if "MicroPython" in result.stdout:
            return "{} is MicroPython's mpy-cross; boards reject its .mpy".format(quoted(path))
        return "{} is not CircuitPython's mpy-cross".format(quoted(path))
    return Compiler(str(path), match.group(0).split()[1], int(match.group(1)))


def fits_major(compiler: Compiler, major: int) -> bool:
    """Does CircuitPython ``major`` load what ``compiler`` writes?"""
    formats = MPY_FORMAT.get(compiler.major), MPY_FORMAT.get(major)
    return compiler.major == major or (formats[0] is not None and formats[0] == formats[1])


def fits_board(compiler: Compiler, board: Board) -> bool:
    return fits_major(compiler, board.major)


def cache_dir() -> Path:
    """Where fetched compilers are kept, per the platform's convention."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home()))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "british-square" / "mpy-cross"


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command that builds the game's files: the compiler, its
    cache, the source tree (deploy, bundle)."""
    add = parser.add_argument
    add("--mpy-cross", help="CircuitPython's mpy-cross (default: $MPY_CROSS, PATH, cache)")
    add("--no-fetch", action="store_true", help="never download mpy-cross")
    add("--cache-dir", default=str(cache_dir()), help="where fetched mpy-cross is kept")
    add("--source", default=str(ROOT), help="the game's source tree (default: this repository)")


def mpy_cross_url(version: str) -> str | None:
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


def cached_path(version: str, cache: str | Path) -> Path:
    """Where the fetched mpy-cross of CircuitPython ``version`` is kept."""
    return Path(cache) / "mpy-cross-{}{}".format(version, ".exe" if os.name == "nt" else "")


def would_fetch(version: str, cache: str | Path, fetch: bool) -> bool:
    """Would a deploy fetch mpy-cross ``version`` (none cached, one built for
    this machine)? What a dry run, which downloads nothing, cannot try."""
    return fetch and not cached_path(version, cache).is_file() and bool(mpy_cross_url(version))


def no_compiler(reporter: Reporter, needs: str) -> SetupError:
    """The refusal when no CircuitPython mpy-cross was found or given (where
    it was looked for is in ``reporter``'s notes); ``needs`` says why the
    command needs one."""
    return SetupError(
        "no CircuitPython mpy-cross ({}): {}; give --mpy-cross PATH or set MPY_CROSS".format(
            "; ".join(reporter.notes) or "none found", needs
        )
    )


def fetch_mpy_cross(
    version: str, cache: str | Path, reporter: Reporter, download: bool = True
) -> Compiler | str:
    """The cached mpy-cross for CircuitPython ``version``, downloading it once
    (never when ``download`` is false: a dry run does not use the network)."""
    target = cached_path(version, cache)
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


def find_compiler(
    board: Board,
    explicit: str | None,
    fetch: bool,
    cache: str | Path,
    reporter: Reporter,
    download: bool = True,
) -> Compiler | None:
    """CircuitPython's mpy-cross for ``board``, or None (where it looked is in
    ``reporter``'s notes; ``no_compiler`` is the refusal that follows).

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


def compile_module(
    compiler: Compiler, source: Path, name: str, workdir: str | Path, text: str | None = None
) -> bytes:
    """The .mpy bytes of ``source`` (or of ``text``, a rewritten copy of it:
    ``const_inline``); DeployError when mpy-cross fails or writes the wrong format."""
    output = Path(workdir) / (name.replace("/", "__") + ".mpy")
    if text is not None:
        source = Path(workdir) / (name.replace("/", "__") + ".src.py")
        source.write_text(text, encoding="utf-8")
    # The name tracebacks give is the module's own path on the board: the
    # ``__file__`` the board gives it (code.py puts "lib" first on the path),
    # so the two are one interned string there, not two.
    shown = name[:-3] + ".mpy" if name.endswith(".py") else name
    # -O3: no line-number tables (and no asserts, which the game has none
    # of): about 3 KB of the board's heap. A traceback there still names
    # the file and the function, not the line.
    result = subprocess.run(
        [compiler.path, "-O3", "-o", str(output), "-s", shown, str(source)],
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


def compile_modules(
    compiler: Compiler, modules: Sequence[Module], texts: dict[str, str] | None = None
) -> dict[str, bytes]:
    """{drive path: .mpy bytes} for ``modules``, compiled side by side (one
    process each); ``texts`` gives the source to compile instead of the file,
    by drive path."""
    texts = texts or {}
    with tempfile.TemporaryDirectory(prefix="bsq-mpy-") as workdir:
        with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
            compiled = pool.map(
                lambda m: compile_module(
                    compiler, m.source, m.drive_path, workdir, texts.get(m.drive_path)
                ),
                modules,
            )
            return {m.drive_path: data for m, data in zip(modules, compiled)}
