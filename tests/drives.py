"""Fake CIRCUITPY drives for the deploy tests: a drive as a fresh board
ships it, a stand-in mpy-cross, the user's files a deploy must leave, and
deploys cut at every drive change (``cut_at_every_change``).
"""

import builtins
import hashlib
import io
import json
import os
import shutil
import sys
import urllib.error
import urllib.request

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import deploy  # noqa: E402
import deploy_plan  # noqa: E402
import deploy_shared  # noqa: E402

BOOT_OUT = "Adafruit CircuitPython {version} on 2025-01-01; {machine}\nBoard ID:{board}\nUID:C7F1\n"


PYGAMER = "Adafruit PyGamer with samd51j19"


# mpy-cross's command line: --version, or -O3 -o OUT -s NAME SOURCE
FAKE_MPY_CROSS = """#!/bin/sh
PATH=/usr/bin:/bin
if [ "$1" = "--version" ]; then echo "{banner}"; exit 0; fi
[ "$1" = "-O3" ] || {{ echo "deploy compiles with -O3" >&2; exit 1; }}
shift
printf '{header}' > "$2"
cat "$5" >> "$2"
"""


CP9_BANNER = "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3"


def go_offline(monkeypatch, tmp_path):
    """No compiler but the ones a test names (no MPY_CROSS, nothing on PATH),
    and no network."""
    monkeypatch.delenv("MPY_CROSS", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))

    def no_network(url, timeout=None):
        raise urllib.error.URLError("offline in tests")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)


def write_tree(root, files):
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())
    return root


def make_drive(path, version="9.2.1", board="pygamer", machine=PYGAMER):
    path.mkdir(parents=True)
    (path / "boot_out.txt").write_text(
        BOOT_OUT.format(version=version, machine=machine, board=board)
    )
    (path / "code.py").write_text('print("Hello World!")\n')  # as a fresh board ships
    return path


def make_compiler(folder, banner=CP9_BANNER, header=b"C\x06"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mpy-cross"
    octal = "".join(chr(b) if 32 < b < 127 else "\\%03o" % b for b in header)
    path.write_text(FAKE_MPY_CROSS.format(banner=banner, header=octal))
    path.chmod(0o755)
    return path


def snapshot(drive):
    """Every file on the drive with its content."""
    return {
        p.relative_to(drive).as_posix(): p.read_bytes()
        for p in sorted(drive.rglob("*"))
        if p.is_file()
    }


# The UI's libraries as the game imports them: only these modules of theirs go.
UI_IMPORTS = (
    "from adafruit_display_text import label\n"
    "from adafruit_display_text.bitmap_label import Label\n"
    "from adafruit_displayio_layout.layouts.grid_layout import GridLayout\n"
)


UI_LIBRARIES = {
    "lib/adafruit_display_text/__init__.mpy",
    "lib/adafruit_display_text/label.mpy",
    "lib/adafruit_display_text/bitmap_label.mpy",
    "lib/adafruit_ticks.mpy",  # bitmap_label imports it
    "lib/adafruit_displayio_layout/__init__.mpy",
    "lib/adafruit_displayio_layout/layouts/__init__.mpy",
    "lib/adafruit_displayio_layout/layouts/grid_layout.mpy",
}


# Files of the user's whose names end as deploy's temporary files do.
USER_TEMP_NAMES = {
    "data/x.bsq-new": b"mine",
    "lib/british_square/notes.bsq-new": b"my notes",
    "lib/my_lib.mpy.bsq-new": b"C\x06 mine",
    "notes.txt.bsq-new": b"mine too",
}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


class Killed(BaseException):
    """The deploy's process killed, or the board unplugged, between two drive changes."""


class DriveCutter:
    """Counts the calls that change ``drive`` (a file opened for writing, a rename, a
    removal, a folder made or removed) in ``calls``, and kills the deploy at call
    number ``cut_at``: what the call would have done is not done, except that a file
    opened for writing is left as it is just after the open (created, or emptied)."""

    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def __init__(self, drive, cut_at=None):
        self.drive = os.path.abspath(drive) + os.sep
        self.cut_at = cut_at
        self.calls = []

    def changes(self, name, path):
        """Count the call; True if it is the one to cut at."""
        if not isinstance(path, (str, os.PathLike)):
            return False  # a file descriptor: opened (and counted) before
        path = os.path.abspath(os.fspath(path))
        if not path.startswith(self.drive):
            return False
        if name != "open" and os.path.lexists(path) == (name == "mkdir"):
            return False  # a folder already there, a file already gone: no change
        self.calls.append("{} {}".format(name, path[len(self.drive) :]))
        return len(self.calls) == self.cut_at

    def install(self, monkeypatch):
        for name in ("replace", "rename", "remove", "unlink", "mkdir", "rmdir"):
            monkeypatch.setattr(os, name, self._cutting(name, getattr(os, name)))
        real_os_open, real_open = os.open, open

        def os_open(path, flags, *args, **kwargs):
            if flags & self.WRITE_FLAGS and self.changes("open", path):
                os.close(real_os_open(path, flags, *args, **kwargs))
                raise Killed(self.calls[-1])
            return real_os_open(path, flags, *args, **kwargs)

        def file_open(file, mode="r", *args, **kwargs):
            if set(mode) & set("wax+") and self.changes("open", file):
                real_open(file, mode, *args, **kwargs).close()
                raise Killed(self.calls[-1])
            return real_open(file, mode, *args, **kwargs)

        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(io, "open", file_open)  # pathlib's
        monkeypatch.setattr(builtins, "open", file_open)

    def _cutting(self, name, real):
        def call(path, *args, **kwargs):
            if self.changes(name, path):
                raise Killed(self.calls[-1])
            return real(path, *args, **kwargs)

        return call


USER_FILES = {**USER_TEMP_NAMES, "notes.txt": b"mine", "lib/my_lib.py": b"X = 1\n"}


def as_deploys_before_issue_50(monkeypatch):
    """Make deploy copy the game's ``.py`` sources when it has no compiler, as
    deploys did before issue 50 (now they refuse): a drive such a deploy left
    holds them, and the next deploy must clear them away."""
    monkeypatch.setattr(deploy, "choose_compiler", lambda board, args, reporter: None)


def deploy_quietly(drive, game, compiler, cache, capsys):
    """deploy.main() on ``drive``: its JSON summary (or Killed). Without a
    ``compiler``, a deploy of ``.py`` sources as before issue 50."""
    argv = ["--drive", drive, "--source", game, "--cache-dir", cache, "--json"]
    argv += ["--mpy-cross", compiler] if compiler else ["--no-fetch"]
    try:
        with pytest.MonkeyPatch.context() as patch:
            if not compiler:
                as_deploys_before_issue_50(patch)
            code = deploy.main([str(a) for a in argv])
    finally:
        out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def game_state(drive):
    """({path: content} of the game's files on the drive, [the game's temporary files])."""
    files = {
        path: data
        for path, data in snapshot(drive).items()
        if path not in USER_FILES and path != "boot_out.txt"
    }
    temps = sorted(p for p in files if p.endswith(deploy_shared.TEMP_SUFFIX))
    files = {p: data for p, data in files.items() if p not in temps and p != deploy_shared.MANIFEST}
    return files, temps


def assert_manifest_names_the_games_files(drive):
    """The manifest is whole, names every file of the game's on the drive with its
    content, and every temporary file (a pending file's name, or the manifest's)."""
    files, temps = game_state(drive)
    reporter = deploy_shared.Reporter(as_json=True)
    manifest = deploy_plan.read_manifest(drive, reporter)
    assert reporter.warnings == []
    pending = manifest.get("pending", {})
    for path, data in files.items():
        assert sha256(data) in (manifest["files"].get(path), pending.get(path)), path
    for temp in temps:
        named = temp[: -len(deploy_shared.TEMP_SUFFIX)]
        assert named == deploy_shared.MANIFEST or named in pending, temp


def cut_at_every_change(v1, game, compiler, tmp_path, monkeypatch, capsys):
    """Deploy ``game`` over copies of drive ``v1`` (a deployed game and USER_FILES),
    cut at each drive-changing call in turn, then once more uncut; check that
    each cut leaves the old game, the new one or no code.py, with a manifest
    that names the game's files, and that the next deploy finishes the job
    with the user's files untouched. Returns the calls of an uncut deploy."""
    cache = tmp_path / "cache"
    old = game_state(v1)[0]

    def fresh_v1(name):
        drive = tmp_path / name / "CIRCUITPY"
        shutil.copytree(v1, drive, symlinks=True)
        return drive

    counted = fresh_v1("counted")
    cutter = DriveCutter(counted)
    with monkeypatch.context() as patch:
        cutter.install(patch)
        deploy_quietly(counted, game, compiler, cache, capsys)
    new = game_state(counted)[0]
    assert new != old
    temp_manifest = deploy_shared.MANIFEST + deploy_shared.TEMP_SUFFIX
    assert cutter.calls[-3:] == [  # the new code.py, then the final manifest
        "replace code.py" + deploy_shared.TEMP_SUFFIX,
        "open " + temp_manifest,
        "replace " + temp_manifest,
    ]
    for number in range(1, len(cutter.calls) + 1):
        drive = fresh_v1("cut-{}".format(number))
        with monkeypatch.context() as patch:
            DriveCutter(drive, number).install(patch)
            with pytest.raises(Killed):
                deploy_quietly(drive, game, compiler, cache, capsys)
        where = "cut at {}: {}".format(number, cutter.calls[number - 1])
        left = game_state(drive)[0]
        assert left in (old, new) or "code.py" not in left, where
        assert_manifest_names_the_games_files(drive)
        summary = deploy_quietly(drive, game, compiler, cache, capsys)
        assert summary["replaced"] == [] and summary["warnings"] == [], where
        assert game_state(drive) == (new, []), where
        manifest = json.loads((drive / deploy_shared.MANIFEST).read_text())
        assert "pending" not in manifest, where
        assert manifest["files"] == {path: sha256(data) for path, data in new.items()}, where
        assert {p: data for p, data in snapshot(drive).items() if p in USER_FILES} == USER_FILES
    return cutter.calls
