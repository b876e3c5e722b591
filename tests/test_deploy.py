"""tools/deploy.py against fake CIRCUITPY and bootloader drives (temporary folders).

A small game tree made here stands in for the repository, so these tests do
not depend on what the other modules look like today; a stand-in mpy-cross
(a shell script that writes CircuitPython's header before the source) lets
the .mpy path run without the real compiler. The real compiler and the real
tree are tested in test_deploy_vm.py.
"""

import builtins
import collections
import errno
import hashlib
import importlib.metadata
import io
import json
import modulefinder
import os
import platform
import re
import shutil
import socket
import struct
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own dependency
    import tomli as tomllib

import pytest
from conftest import ROOT
from drives import (
    BOOT_OUT,
    CP9_BANNER,
    PYGAMER,
    UI_IMPORTS,
    UI_LIBRARIES,
    USER_FILES,
    USER_TEMP_NAMES,
    as_deploys_before_issue_50,
    cut_at_every_change,
    deploy_quietly,
    go_offline,
    make_compiler,
    make_drive,
    sha256,
    snapshot,
    write_tree,
)
from packaging.requirements import Requirement  # pytest's own dependency
from packaging.utils import canonicalize_name

sys.path.insert(0, str(ROOT / "tools"))
import board_imports  # noqa: E402
import circuitpy_drive  # noqa: E402
import deploy  # noqa: E402
import deploy_plan  # noqa: E402
import deploy_shared  # noqa: E402
import mpy_compiler  # noqa: E402
import safe_writer  # noqa: E402
import uf2  # noqa: E402

GAME = {
    "lib/british_square/__init__.py": '__version__ = "1.2.3"\n',
    "lib/british_square/cards.py": 'RANKS = "A23456789TJQK"\n',
    "lib/british_square/engine.py": "from british_square.cards import RANKS\nENGINE = 1\n",
    "lib/british_square/view.py": (
        "try:\n"
        "    from typing import Optional\n"
        "    from circuitpython_typing import ReadableBuffer\n"
        "except ImportError:\n"
        "    pass\n"
        "import displayio\n"
        "from adafruit_display_text import label\n"
        "from . import engine\n"
    ),
    "lib/british_square/__main__.py": "import argparse\n",
    "lib/british_square/files.py": 'SHIPPED = ("cards.bmp",)  # what the game opens\n',
    "hw/pygamer.py": "import keypad\nfrom hw import buttons\n",
    "hw/buttons.py": "KEYS = 4\n",
    "hw/pybadge.py": "import keypad\nfrom hw import buttons\n",
    "hw/desktop.py": "import pygame\n",
    "code.py": (
        "import board\n"
        "from british_square import view\n"
        'if board.board_id == "pygamer":\n'
        "    import hw.pygamer as hw\n"
        "else:\n"
        "    import hw.desktop as hw\n"
    ),
}
SPRITES = b"BM" + bytes(range(62))
DEPLOYED_MPY = {
    "lib/adafruit_display_text/__init__.mpy",
    "lib/adafruit_display_text/label.mpy",
    "lib/british_square/__init__.mpy",
    "lib/british_square/cards.mpy",
    "lib/british_square/engine.mpy",
    "lib/british_square/view.mpy",
    "lib/british_square/cards.bmp",
    "hw/pygamer.mpy",
    "hw/buttons.mpy",
    "code.py",
}


def game_files(drive):
    return set(snapshot(drive)) - {"boot_out.txt", deploy_shared.MANIFEST}


@pytest.fixture
def game(tmp_path):
    root = write_tree(tmp_path / "game", GAME)
    (root / "lib/british_square/cards.bmp").write_bytes(SPRITES)
    return root


@pytest.fixture
def drive(tmp_path):
    return make_drive(tmp_path / "media" / "CIRCUITPY")


@pytest.fixture
def compiler(tmp_path):
    return make_compiler(tmp_path / "cp9")


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    go_offline(monkeypatch, tmp_path)


@pytest.fixture
def run(capsys, game, drive, compiler, tmp_path):
    """Run deploy.py's main(); return (exit status, stdout, stderr)."""

    def run(*argv, target=drive, source=game, mpy_cross=compiler):
        args = ["--drive", target, "--source", source, "--cache-dir", tmp_path / "cache"]
        args += ["--mpy-cross", mpy_cross] if mpy_cross else []
        code = deploy.main([str(a) for a in args + list(argv)])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def run_json(run, *argv, **kwargs):
    code, out, _err = run("--json", *argv, **kwargs)
    return code, json.loads(out)


# ------------------------------------------------------------------ deploying


def test_first_deploy_copies_what_the_game_imports_and_code_py_last(run, drive, monkeypatch):
    renamed = []
    real_replace = os.replace

    def recording_replace(source, target):
        renamed.append(os.path.relpath(target, drive))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", recording_replace)
    code, out, err = run()
    assert code == 0, err
    assert game_files(drive) == DEPLOYED_MPY
    files = snapshot(drive)
    assert all(files[p].startswith(b"C\x06") for p in files if p.endswith(".mpy"))
    assert files["lib/british_square/cards.bmp"] == SPRITES
    assert files["code.py"] == GAME["code.py"].encode()
    # code.py is the last game file to land; only the manifest follows it
    assert renamed[-2:] == ["code.py", deploy_shared.MANIFEST]
    assert "[ 10/10]" in out and "wrote 10" in out
    manifest = json.loads(files[deploy_shared.MANIFEST])
    assert manifest["board"] == "pygamer" and manifest["version"] == "1.2.3"
    assert set(manifest["files"]) == DEPLOYED_MPY
    assert manifest["files"]["code.py"] == hashlib.sha256(files["code.py"]).hexdigest()


def test_only_modules_really_imported_are_copied(run, drive, game):
    (game / "lib/british_square/view.py").write_text(
        "from adafruit_display_text.bitmap_label import Label\n"
        "from adafruit_bitmap_font import bdf\n"
    )
    assert run()[0] == 0
    libraries = {p for p in game_files(drive) if p.startswith("lib/adafruit")}
    assert libraries == {
        "lib/adafruit_display_text/__init__.mpy",
        "lib/adafruit_display_text/bitmap_label.mpy",
        "lib/adafruit_ticks.mpy",  # bitmap_label imports it
        "lib/adafruit_bitmap_font/__init__.mpy",
        "lib/adafruit_bitmap_font/bdf.mpy",
        "lib/adafruit_bitmap_font/glyph_cache.mpy",  # bdf imports it
    }


def test_display_text_and_grid_layout_go_as_the_modules_imported(run, drive, game):
    (game / "lib/british_square/view.py").write_text(UI_IMPORTS)
    code, result = run_json(run)
    assert code == 0 and result["warnings"] == []
    assert {p for p in game_files(drive) if p.startswith("lib/adafruit")} == UI_LIBRARIES
    assert all(snapshot(drive)[p].startswith(b"C\x06") for p in UI_LIBRARIES)


def pin_lines(requirements):
    """(normalised distribution name, version) of each ``name==version`` line of
    ``requirements`` and of the files it takes in with ``-r``."""
    found = []
    for line in requirements.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            found += pin_lines(requirements.parent / line[3:].strip())
            continue
        name, sep, version = line.partition("==")
        if sep:
            found.append((canonicalize_name(name.split("[")[0]), version))
    return found


def pins(requirements):
    """{normalised distribution name: version} that ``requirements`` pins."""
    return dict(pin_lines(requirements))


def test_the_libraries_deployed_are_the_pinned_wheels(game):
    (game / "lib/british_square/view.py").write_text(UI_IMPORTS)
    closure = board_imports.import_closure(game, "pygamer")
    tops = {m.name.split(".")[0] for m in closure.modules if m.kind == "library"}
    owners = importlib.metadata.packages_distributions()
    pinned = pins(ROOT / "requirements-dev.txt")
    for top in tops:
        (dist,) = {canonicalize_name(d) for d in owners[top]}
        assert importlib.metadata.version(dist) == pinned[dist], "make setup installs the pins"
    assert {"adafruit-circuitpython-display-text", "adafruit-circuitpython-displayio-layout"} <= {
        canonicalize_name(d) for top in tops for d in owners[top]
    }


def test_adapter_imported_by_name_with_hw_on_sys_path(run, drive, game):
    # code.py may put hw/ on sys.path and import the adapter by board id at run time
    (game / "code.py").write_text(
        "import sys\nimport board\nsys.path.append('hw')\n"
        "hardware = __import__(board.board_id)\nimport desktop\n"
    )
    (game / "hw/pygamer.py").write_text("import buttons\n")
    assert run()[0] == 0
    assert {p for p in game_files(drive) if p.startswith("hw/")} == {
        "hw/pygamer.mpy",
        "hw/buttons.mpy",
    }


def test_second_deploy_copies_nothing(run, drive):
    assert run()[0] == 0
    before = {p: p.stat().st_mtime_ns for p in drive.rglob("*")}
    code, result = run_json(run)
    assert code == 0
    assert result["written"] == [] and result["removed"] == []
    assert result["unchanged"] == result["files"] == len(DEPLOYED_MPY)
    assert {p: p.stat().st_mtime_ns for p in drive.rglob("*")} == before


def test_a_changed_source_file_is_written_with_code_py_only(run, game):
    assert run()[0] == 0
    (game / "lib/british_square/engine.py").write_text(GAME["lib/british_square/engine.py"] + "#\n")
    code, result = run_json(run)
    assert code == 0
    # code.py, unchanged, is taken away before engine.mpy changes and put back after
    assert result["written"] == ["lib/british_square/engine.mpy", "code.py"]
    assert result["unchanged"] == len(DEPLOYED_MPY) - 2
    (game / "code.py").write_text(GAME["code.py"] + "#\n")
    code, result = run_json(run)
    assert code == 0 and result["written"] == ["code.py"]  # alone, it is just replaced


def test_stale_files_of_the_game_go_and_user_files_stay(run, game, drive):
    user_files = {
        "lib/my_lib.py": b"X = 1\n",
        "notes.txt": b"mine",
        "lib/british_square/x.txt": b"!",
    }
    write_tree(drive, user_files)
    assert run()[0] == 0
    (game / "hw/buttons.py").unlink()
    (game / "hw/pygamer.py").write_text("import keypad\n")
    code, result = run_json(run)
    assert code == 0
    assert result["removed"] == ["hw/buttons.mpy"]
    files = snapshot(drive)
    assert "hw/buttons.mpy" not in files
    assert all(files[p] == data for p, data in user_files.items())


def test_a_stale_file_the_user_changed_is_kept(run, game, drive):
    assert run()[0] == 0
    (drive / "hw/buttons.mpy").write_bytes(b"C\x06 edited on the board")
    (game / "hw/buttons.py").unlink()
    (game / "hw/pygamer.py").write_text("import keypad\n")
    code, result = run_json(run)
    assert code == 0 and result["removed"] == [] and result["kept"] == ["hw/buttons.mpy"]
    assert (drive / "hw/buttons.mpy").exists()


def test_files_the_game_did_not_write_are_not_overwritten_without_replace(run, drive):
    (drive / "code.py").write_text("print('my own program')\n")
    write_tree(drive, {"lib/adafruit_display_text/label.mpy": b"C\x06 another version"})
    before = snapshot(drive)
    code, _out, err = run()
    assert code == 1
    assert "code.py is on the drive but was not put there by this game" in err
    assert "lib/adafruit_display_text/label.mpy" in err and "--replace" in err
    assert snapshot(drive) == before
    code, result = run_json(run, "--replace")
    assert code == 0
    assert set(result["replaced"]) == {"code.py", "lib/adafruit_display_text/label.mpy"}
    assert game_files(drive) == DEPLOYED_MPY


def test_a_fresh_boards_hello_world_is_replaced_without_asking(run, drive):
    code, result = run_json(run)
    assert code == 0 and result["replaced"] == [] and "code.py" in result["written"]


def test_a_user_py_that_would_shadow_a_deployed_mpy_is_a_conflict(run, drive):
    write_tree(drive, {"lib/adafruit_display_text/label.py": b"# circup installed me\n"})
    code, _out, err = run()
    assert code == 1 and "label.py would shadow lib/adafruit_display_text/label.mpy" in err
    assert run("--replace")[0] == 0
    assert not (drive / "lib/adafruit_display_text/label.py").exists()


def test_a_py_deploy_of_old_then_mpy_never_leaves_py_beside_mpy(run, drive, monkeypatch):
    with monkeypatch.context() as patch:
        as_deploys_before_issue_50(patch)
        code, out, err = run("--no-fetch", mpy_cross=None)
    assert code == 0, err
    assert game_files(drive) == {p[:-4] + ".py" if p.endswith(".mpy") else p for p in DEPLOYED_MPY}
    code, result = run_json(run)
    assert code == 0 and result["format"] == "mpy"
    assert game_files(drive) == DEPLOYED_MPY
    assert len(result["removed"]) == len(DEPLOYED_MPY) - 2  # all .py but code.py; not the .bmp


def test_dry_run_lists_changes_and_writes_nothing(run, drive):
    before = snapshot(drive)
    code, out, _err = run("--dry-run")
    assert code == 0
    assert "+ lib/british_square/engine.mpy" in out
    assert "~ code.py" in out  # the hello-world is replaced
    assert "would write 10" in out
    assert snapshot(drive) == before


def test_dry_run_never_uses_the_network(run, drive, tmp_path, monkeypatch):
    def no_network(*args, **kwargs):
        pytest.fail("a dry run used the network")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    before = snapshot(drive)
    code, out, _err = run("--dry-run", mpy_cross=None)
    assert code == 0 and "a dry run downloads nothing" in out
    assert snapshot(drive) == before and not (tmp_path / "cache").exists()


def test_json_reports_the_deploy_and_errors(run, drive):
    code, result = run_json(run)
    assert code == 0 and result["ok"] and result["board"] == "pygamer"
    assert result["circuitpython"] == "9.2.1" and result["format"] == "mpy"
    assert result["files"] == len(DEPLOYED_MPY) and result["bytes_written"] == result["bytes"]
    (drive / "boot_out.txt").unlink()
    code, result = run_json(run)
    assert code == 1 and not result["ok"] and "boot_out.txt" in result["error"]


def test_a_missing_library_refuses_the_deploy_naming_the_importer(run, game, drive):
    (game / "lib/british_square/view.py").write_text("import adafruit_not_installed\n")
    before = snapshot(drive)
    code, out, err = run()
    assert code == 2 and "warning" not in out
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "adafruit_not_installed (imported by lib/british_square/view.py)" in err
    assert snapshot(drive) == before


def test_a_python_without_the_board_libraries_refuses_and_leaves_the_drive(drive, tmp_path):
    """tools/deploy.py run by a Python that lacks the board's libraries (no
    site-packages, no .venv beside the tools): one error line naming the fix,
    status 2, nothing written."""
    tools = shutil.copytree(ROOT / "tools", tmp_path / "bare" / "tools")
    before = snapshot(drive)
    result = subprocess.run(
        [sys.executable, "-S", str(tools / "deploy.py"), "--drive", str(drive)]
        + ["--source", str(ROOT), "--no-fetch"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "warning" not in result.stdout and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ")
    assert "adafruit_ticks" in result.stderr  # the game's one library
    assert "pip install -r requirements-device.txt" in result.stderr
    assert "make deploy" in result.stderr
    assert snapshot(drive) == before


def test_an_unreadable_manifest_is_rebuilt_from_identical_files(run, drive):
    assert run()[0] == 0
    (drive / deploy_shared.MANIFEST).write_text("{ not json")
    code, result = run_json(run)
    assert code == 0 and result["written"] == [] and "unreadable" in result["warnings"][0]
    assert set(json.loads((drive / deploy_shared.MANIFEST).read_text())["files"]) == DEPLOYED_MPY


UNPARSABLE_MANIFESTS = {
    "nested 5000 deep": (b'{"files": ' + b"[" * 5000 + b"]" * 5000 + b"}", "unreadable"),
    "over a megabyte": (b'{"files": {}}' + b" " * (1 << 20), "over 1048576 bytes"),
    "a 5000-digit number": (b'{"files": {}, "n": ' + b"7" * 5000 + b"}", "unreadable"),
    "not UTF-8": (b'{"files": {"\xff": 1}}', "unreadable"),
}


@pytest.mark.parametrize("case", sorted(UNPARSABLE_MANIFESTS))
def test_a_manifest_that_cannot_be_parsed_is_ignored_with_one_warning(run, drive, case):
    assert run()[0] == 0
    data, why = UNPARSABLE_MANIFESTS[case]
    (drive / deploy_shared.MANIFEST).write_bytes(data)
    code, result = run_json(run)
    assert code == 0 and result["written"] == [] and result["removed"] == []
    assert len(result["warnings"]) == 1 and why in result["warnings"][0]
    assert set(json.loads((drive / deploy_shared.MANIFEST).read_text())["files"]) == DEPLOYED_MPY


def refuse_writes(monkeypatch, errno_code=errno.EROFS):
    def refused(path, data):
        raise OSError(errno_code, os.strerror(errno_code))

    monkeypatch.setattr(safe_writer, "write_file", refused)


@pytest.mark.parametrize("manifest", ["lost", "nested"])
def test_a_read_only_drive_holding_the_game_is_one_error_line(run, drive, monkeypatch, manifest):
    assert run()[0] == 0
    if manifest == "lost":
        (drive / deploy_shared.MANIFEST).unlink()
    else:
        (drive / deploy_shared.MANIFEST).write_bytes(b'{"files": ' + b"[" * 5000)
    before = snapshot(drive)
    refuse_writes(monkeypatch)
    code, out, err = run()
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: ")
    assert "up to date" in err and "read-only" in err
    assert out.count("warning: ") == (manifest == "nested")
    assert snapshot(drive) == before


def test_a_file_deploy_cannot_read_is_not_taken_for_nothing(run, drive, monkeypatch):
    (drive / "code.py").write_text("print('mine, unreadable here')\n")
    real_open = open

    def unreadable_code_py(file, *args, **kwargs):
        if str(file) == str(drive / "code.py"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(file, *args, **kwargs)

    before = snapshot(drive)
    with monkeypatch.context() as patch:
        patch.setattr(io, "open", unreadable_code_py)  # pathlib's
        patch.setattr(builtins, "open", unreadable_code_py)
        code, _out, err = run()
    assert code == 1 and "code.py is on the drive but was not put there by this game" in err
    assert snapshot(drive) == before


def test_a_manifest_entry_naming_a_game_file_in_other_case_is_not_stale(run, drive, game):
    # FAT ignores case: lib/british_square/ENGINE.mpy is engine.mpy there
    assert run()[0] == 0
    shutil.copy(drive / "lib/british_square/engine.mpy", drive / "lib/british_square/ENGINE.mpy")
    digest = sha256((drive / "lib/british_square/engine.mpy").read_bytes())
    rewrite_manifest(drive, add_entry("lib/british_square/ENGINE.mpy", digest))
    (game / "lib/british_square/engine.py").write_text(GAME["lib/british_square/engine.py"] + "#\n")
    code, result = run_json(run)
    assert code == 0 and result["removed"] == []


BOOT_OUTS = {
    "a folder": ("folder", "no boot_out.txt (it is not a plain file"),
    "a link to a boot_out.txt elsewhere": ("link", "no boot_out.txt (it is not a plain file"),
    "a named pipe": ("fifo", "no boot_out.txt (it is not a plain file"),
    "too big": (BOOT_OUT.format(version="9.2.1", machine=PYGAMER, board="pygamer") * 2000, "over"),
    "a version of 5000 digits": ("Adafruit CircuitPython " + "9" * 5000 + ".0.0 on x; y\n", "no"),
    "escape sequences": (
        "Adafruit CircuitPython 9.2.1 on 2025; \x1b[2J\x1b[31mRed board\nBoard ID:\x1b[0mx\n",
        "this board is '?[0mx' (?[2J?[31mRed board)",
    ),
}


@pytest.mark.parametrize("case", sorted(BOOT_OUTS))
def test_a_strange_boot_out_is_one_error_line(run, drive, tmp_path, case):
    content, message = BOOT_OUTS[case]
    boot_out = drive / "boot_out.txt"
    boot_out.unlink()
    if content == "folder":
        boot_out.mkdir()
    elif content == "link":
        elsewhere = make_drive(tmp_path / "elsewhere" / "CIRCUITPY")
        boot_out.symlink_to(elsewhere / "boot_out.txt")
    elif content == "fifo":
        os.mkfifo(boot_out)  # reading it would wait for ever
    else:
        boot_out.write_text(content)
    before = snapshot(drive) if content != "fifo" else None
    code, out, err = run()
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err and "\x1b" not in err and "Traceback" not in err
    assert content == "fifo" or snapshot(drive) == before


def test_a_boot_out_version_names_no_other_file(run, drive, tmp_path):
    # The version names the cached mpy-cross: with "/../" in it, deploy would run
    # a program elsewhere as the compiler.
    cache = tmp_path / "cache"
    (cache / "mpy-cross-9.2.1").mkdir(parents=True)
    make_compiler(tmp_path / "evil")
    (drive / "boot_out.txt").write_text(
        BOOT_OUT.format(version="9.2.1/../../evil/mpy-cross", machine=PYGAMER, board="pygamer")
    )
    assert circuitpy_drive.read_boot_out(drive).version == "9.2.1"
    code, result = run_json(run, mpy_cross=None)
    # no mpy-cross-9.2.1 in the cache (a folder there), none fetched offline
    assert code == 2 and "could not fetch mpy-cross 9.2.1 (offline" in result["error"]


def test_leftovers_of_an_interrupted_deploy_are_cleaned(run, drive):
    assert run()[0] == 0
    write_tree(drive, {"lib/british_square/engine.mpy" + deploy_shared.TEMP_SUFFIX: b"half"})
    code, out, _err = run()
    assert code == 0
    assert not list(drive.rglob("*" + deploy_shared.TEMP_SUFFIX))


def test_only_temporary_files_the_plan_or_manifest_names_are_removed(run, game, drive):
    write_tree(drive, USER_TEMP_NAMES)
    assert run()[0] == 0
    # An interrupted deploy's: named by the manifest (a file of v1), by the plan (v2's).
    ours = {
        "hw/buttons.mpy" + deploy_shared.TEMP_SUFFIX: b"half",
        "lib/british_square/rules.mpy" + deploy_shared.TEMP_SUFFIX: b"half",
        deploy_shared.MANIFEST + deploy_shared.TEMP_SUFFIX: b"{",
    }
    write_tree(drive, ours)
    deploy_v2(game)
    code, out, _err = run("--dry-run")
    assert code == 0 and all("{} (left by".format(path) in out for path in ours)
    assert run()[0] == 0
    files = snapshot(drive)
    assert {p: files.get(p) for p in USER_TEMP_NAMES} == USER_TEMP_NAMES
    assert not set(ours) & set(files)
    assert not any(path in out for path in USER_TEMP_NAMES)  # nor listed as to remove


# ------------------------------------------- nothing outside the game's files


def outside_files(tmp_path):
    """Files beside the drive and elsewhere that a crafted drive may point at."""
    files = {
        tmp_path / "media" / "outside.txt": b"not the game's",
        tmp_path / "media" / "x": b"nor this",
        tmp_path / "elsewhere" / "engine.mpy": b"C\x06 someone else's",
    }
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return files


def rewrite_manifest(drive, change):
    """Let ``change`` edit the manifest in place, or return another JSON value."""
    manifest = json.loads((drive / deploy_shared.MANIFEST).read_text())
    replacement = change(manifest)
    (drive / deploy_shared.MANIFEST).write_text(
        json.dumps(manifest if replacement is None else replacement)
    )


def add_entry(path, digest):
    return lambda manifest: manifest["files"].update({path: digest})


OUTSIDE_DIGEST = sha256(b"not the game's")
BAD_MANIFESTS = {
    "parent": (add_entry("../outside.txt", OUTSIDE_DIGEST), "'../outside.txt' is not a plain"),
    "through lib": (add_entry("lib/../../x", sha256(b"nor this")), "'lib/../../x' is not a plain"),
    "windows parent": (add_entry("..\\outside.txt", OUTSIDE_DIGEST), "which a FAT drive"),
    "nul byte": (add_entry("lib/a\x00.mpy", OUTSIDE_DIGEST), "'\\x00', which a FAT drive"),
    "long name": (add_entry("lib/" + "a" * 300 + ".mpy", OUTSIDE_DIGEST), "longer than a FAT"),
    "not a game file": (add_entry("boot_out.txt", OUTSIDE_DIGEST), "is not a file deploy writes"),
    "bad checksum": (add_entry("lib/x.mpy", 12), "'lib/x.mpy' has no sha256"),
    "files not a table": (lambda m: m.update(files=["code.py"]), "not an object with a 'files'"),
    "no files table": (lambda m: m.clear(), "not an object with a 'files'"),
    "a list": (lambda m: list(m["files"]), "not an object with a 'files'"),
    "pending not a table": (lambda m: m.update(pending=3), "'pending' is not a table"),
}


@pytest.mark.parametrize("case", sorted(BAD_MANIFESTS))
def test_a_crafted_manifest_is_ignored_whole_and_nothing_outside_is_touched(
    run, drive, tmp_path, case
):
    outside = outside_files(tmp_path)
    write_tree(drive, {"notes.txt": b"mine", "..\\outside.txt": b"a name with a backslash"})
    assert run()[0] == 0
    change, why = BAD_MANIFESTS[case]
    rewrite_manifest(drive, change)
    on_drive = snapshot(drive)
    code, result = run_json(run)
    assert code == 0
    assert all(path.exists() for path in outside) and snapshot(drive).keys() == on_drive.keys()
    assert result["written"] == [] and result["removed"] == []
    assert len(result["warnings"]) == 1
    assert result["warnings"][0].startswith("ignoring " + deploy_shared.MANIFEST + ": ")
    assert why in result["warnings"][0]
    assert set(json.loads((drive / deploy_shared.MANIFEST).read_text())["files"]) == DEPLOYED_MPY


def test_an_absolute_path_in_the_manifest_is_ignored(run, drive, tmp_path):
    outside = outside_files(tmp_path)
    assert run()[0] == 0
    target = tmp_path / "media" / "outside.txt"
    rewrite_manifest(drive, add_entry(str(target), OUTSIDE_DIGEST))
    code, result = run_json(run)
    assert code == 0 and all(path.exists() for path in outside)
    assert "is absolute" in result["warnings"][0]


def test_with_the_manifest_ignored_a_changed_file_needs_replace(run, game, drive):
    assert run()[0] == 0
    rewrite_manifest(drive, add_entry("../outside.txt", OUTSIDE_DIGEST))
    (game / "lib/british_square/engine.py").write_text(GAME["lib/british_square/engine.py"] + "#\n")
    before = snapshot(drive)
    code, result = run_json(run)
    assert code == 1 and "lib/british_square/engine.mpy is on the drive" in result["error"]
    assert snapshot(drive) == before
    assert run("--replace")[0] == 0


def test_a_stale_entry_behind_a_symlinked_folder_is_not_removed(run, game, drive, tmp_path):
    outside = outside_files(tmp_path)
    assert run()[0] == 0
    (drive / "lib" / "old").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    digest = sha256(outside[tmp_path / "elsewhere" / "engine.mpy"])
    rewrite_manifest(drive, add_entry("lib/old/engine.mpy", digest))
    code, result = run_json(run)
    assert code == 0 and result["removed"] == [] and result["warnings"] == []
    assert all(path.read_bytes() == data for path, data in outside.items())


IN_THE_WAY = {
    "a folder named code.py": ("code.py/", "code.py is a folder where deploy writes a file"),
    "a file where a folder goes": (
        "lib/british_square",
        "lib/british_square is a file where lib/british_square/",
    ),
    "a folder at a module's place": ("hw/pygamer.mpy/", "hw/pygamer.mpy is a folder"),
    "a folder at a temporary name": ("code.py.bsq-new/", "code.py.bsq-new is a folder"),
    "a folder at the manifest": (
        deploy_shared.MANIFEST + "/",
        deploy_shared.MANIFEST + " is a folder",
    ),
    "a symlinked folder": ("lib@", "lib is a symbolic link"),
    "a symlinked code.py": ("code.py@", "code.py is a symbolic link"),
    "a symlinked temporary file": ("code.py.bsq-new@", "code.py.bsq-new is a symbolic link"),
}


def put_in_the_way(drive, tmp_path, spec):
    """'name/' makes a folder, 'name@' a link to a folder outside (to a file outside
    for a name with a suffix), 'name' a file; what the fresh drive had there goes."""
    place = drive / spec.rstrip("/@")
    if place.is_file():
        place.unlink()  # the fresh board's code.py
    place.parent.mkdir(parents=True, exist_ok=True)
    if spec.endswith("/"):
        place.mkdir()
        (place / "user.txt").write_bytes(b"mine")
    elif spec.endswith("@") and place.suffix:
        place.symlink_to(tmp_path / "media" / "outside.txt")
    elif spec.endswith("@"):
        place.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    else:
        place.write_bytes(b"mine")


@pytest.mark.parametrize("case", sorted(IN_THE_WAY))
def test_anything_in_the_way_is_found_before_anything_is_written(run, drive, tmp_path, case):
    outside = outside_files(tmp_path)
    spec, message = IN_THE_WAY[case]
    put_in_the_way(drive, tmp_path, spec)
    before, before_folders = snapshot(drive), folders(drive)
    for argv in ((), ("--replace",)):  # --replace overwrites files, never folders or links
        code, _out, err = run(*argv)
        assert code == 1 and message in err and "nothing was changed" in err
        assert snapshot(drive) == before and folders(drive) == before_folders
        assert not list(drive.rglob("*" + deploy_shared.TEMP_SUFFIX)) or spec.startswith(
            "code.py.bsq"
        )
    assert all(path.read_bytes() == data for path, data in outside.items())


def test_in_the_way_after_an_earlier_deploy_keeps_the_old_game(run, game, drive):
    assert run()[0] == 0
    before = snapshot(drive)
    deploy_v2(game)
    (drive / "lib/british_square/rules.mpy").mkdir()  # where v2 writes its new module
    code, _out, err = run()
    assert code == 1 and "lib/british_square/rules.mpy is a folder" in err
    assert snapshot(drive) == before


@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        "/etc/passwd",
        "C:/x",
        "lib/../../x",
        "..\\x",
        "lib\\x.mpy",
        "lib/./x.mpy",
        "lib//x.mpy",
        "lib/x.mpy/",
        "",
        "lib/a\x00b.mpy",
        "lib/a\nb.mpy",
        "lib/x.mpy.",
        "lib/x ",
        "lib/" + "a" * 256,
        "/".join(["lib"] * 64) + "/x.mpy",
        None,
        3,
    ],
)
def test_unsafe_paths_are_named(path):
    assert safe_writer.path_problem(path) is not None


@pytest.mark.parametrize(
    "path", ["code.py", "lib/british_square/engine.mpy", "hw/pygamer.mpy", "lib/a b.bmp"]
)
def test_game_paths_pass(path):
    assert safe_writer.path_problem(path) is None and safe_writer.is_game_path(path)


# ----------------------------------------------------------- failing half way


def deploy_v2(game):
    """A new version of the game: two files change, one is new, one needs a new library."""
    (game / "lib/british_square/engine.py").write_text(GAME["lib/british_square/engine.py"] + "#\n")
    (game / "lib/british_square/rules.py").write_text("from adafruit_bitmap_font import bdf\n")
    (game / "code.py").write_text(
        GAME["code.py"] + "from british_square import rules\nprint('v2')\n"
    )


def folders(drive):
    return sorted(p for p in drive.rglob("*") if p.is_dir())


def v2_changing_everything(game):
    """code.py, two modules, a new library (a new folder), an asset, a stale module."""
    deploy_v2(game)
    (game / "hw/pygamer.py").write_text("import keypad\n")  # hw/buttons.mpy goes stale
    (game / "lib/british_square/cards.bmp").write_bytes(SPRITES[::-1])


def v2_changing_modules_only(game):
    """A module changes and imports a new one; code.py stays as it was."""
    (game / "lib/british_square/engine.py").write_text(
        GAME["lib/british_square/engine.py"] + "from british_square import rules\n"
    )
    (game / "lib/british_square/rules.py").write_text("RULES = 2\n")


# (deploy v1 compiled?, what v2 changes)
CUT_DEPLOYS = {
    "v1 to v2": (True, v2_changing_everything),
    "modules only": (True, v2_changing_modules_only),
    ".py to .mpy": (False, lambda game: None),
}


@pytest.mark.parametrize("case", sorted(CUT_DEPLOYS))
def test_a_deploy_cut_at_any_drive_change_leaves_a_whole_game_or_no_code_py(
    case, game, compiler, tmp_path, monkeypatch, capsys
):
    v1_compiled, change = CUT_DEPLOYS[case]
    v1 = make_drive(tmp_path / "v1" / "CIRCUITPY")
    write_tree(v1, USER_FILES)
    deploy_quietly(v1, game, compiler if v1_compiled else None, tmp_path / "cache", capsys)
    change(game)
    calls = cut_at_every_change(v1, game, compiler, tmp_path, monkeypatch, capsys)
    assert len(calls) >= 10


def test_drive_filling_up_half_way_leaves_the_previous_game(run, game, drive, monkeypatch):
    assert run()[0] == 0
    before, before_folders = snapshot(drive), folders(drive)
    deploy_v2(game)
    staged = []
    real_write = safe_writer.write_file

    def filling_write(path, data):
        if deploy_shared.MANIFEST not in str(path):
            if len(staged) == 3:  # the drive is full at the fourth new file
                with open(path, "wb") as half:
                    half.write(data[: len(data) // 2])  # what a full drive keeps of it
                raise OSError(errno.ENOSPC, "No space left on device")
            staged.append(os.path.relpath(path, drive))
        real_write(path, data)

    monkeypatch.setattr(safe_writer, "write_file", filling_write)
    code, _out, err = run()
    assert code == 1
    # three new files had been written, one of them into a new folder
    assert staged[0] == "lib/adafruit_bitmap_font/__init__.mpy" + deploy_shared.TEMP_SUFFIX
    assert "the drive is full" in err and "untouched" in err and "code.py was not replaced" in err
    assert snapshot(drive) == before  # no temporary files, old manifest, old code.py
    assert folders(drive) == before_folders


REAL_WRITE_FILE = safe_writer.write_file


class FakeFat:
    """A drive that fills up as FAT does: every file takes whole clusters, and so does
    every folder (at least one). ``free`` bytes are left when it is made."""

    def __init__(self, drive, free, cluster=512):
        self.drive, self.cluster = drive, cluster
        self.capacity = self.used() + free
        self.writes = []

    def used(self):
        total = 0
        for folder, dirs, files in os.walk(self.drive):
            total += len(dirs) * self.cluster
            total += sum(self.round(os.path.getsize(os.path.join(folder, f))) for f in files)
        return total

    def round(self, size):
        return -(-size // self.cluster) * self.cluster

    def disk_usage(self, path):
        used = self.used()
        return collections.namedtuple("usage", "total used free")(
            self.capacity, used, self.capacity - used
        )

    def install(self, monkeypatch):
        def write_file(path, data):
            self.writes.append(path)
            if self.used() + self.round(len(data)) > self.capacity:
                raise OSError(errno.ENOSPC, "No space left on device")
            REAL_WRITE_FILE(path, data)

        monkeypatch.setattr(safe_writer, "write_file", write_file)
        monkeypatch.setattr(shutil, "disk_usage", self.disk_usage)
        monkeypatch.setattr(deploy_plan, "cluster_size", lambda drive: self.cluster)


def old_space_estimate(files, cluster=512):
    """What deploy counted before folders and the real manifest size: the files
    and twice a manifest estimate, each rounded up to clusters."""
    manifest = 200 + sum(len(path) + 72 for path in files)
    sizes = [len(data) for data in files.values()] + [manifest] * 2
    return sum(-(-size // cluster) * cluster for size in sizes)


def test_free_space_counts_new_folders_and_the_manifest_in_clusters(
    run, drive, tmp_path, monkeypatch
):
    scratch = make_drive(tmp_path / "scratch" / "CIRCUITPY")
    assert run(target=scratch)[0] == 0
    deployed = {p: data for p, data in snapshot(scratch).items() if p in DEPLOYED_MPY}
    old_estimate = old_space_estimate(deployed)
    # A drive with exactly the old estimate free: the four new folders do not fit.
    fat = FakeFat(drive, old_estimate)
    fat.install(monkeypatch)
    before = snapshot(drive)
    code, result = run_json(run)
    assert code == 1 and "{} bytes free".format(old_estimate) in result["error"]
    assert "Nothing was changed" in result["error"]
    assert fat.writes == [] and snapshot(drive) == before
    needed = int(result["error"].split("the deploy needs ")[1].split(":")[0])
    assert needed > old_estimate
    # Exactly what deploy now asks for is enough, on a drive that counts like FAT.
    fat = FakeFat(drive, needed)
    fat.install(monkeypatch)
    code, result = run_json(run)
    assert code == 0, result
    assert result["space_needed"] == needed
    assert game_files(drive) == DEPLOYED_MPY


def test_not_enough_free_space_is_refused_before_writing(run, game, drive, monkeypatch):
    assert run()[0] == 0
    before = snapshot(drive)
    deploy_v2(game)
    FakeFat(drive, 1000).install(monkeypatch)
    code, _out, err = run()
    assert code == 1 and "1000 bytes free" in err and "Nothing was changed" in err
    assert snapshot(drive) == before
    code, result = run_json(run, "--dry-run")  # a dry run says so too
    assert code == 1 and "1000 bytes free" in result["error"]


def test_space_needed_counts_clusters(tmp_path, monkeypatch):
    monkeypatch.setattr(deploy_plan, "cluster_size", lambda drive: 512)
    drive = make_drive(tmp_path / "CIRCUITPY")
    (drive / "lib").mkdir()
    items = [
        deploy_plan.Item("lib/a/b/long_module_name.mpy", bytes(600), "game"),
        deploy_plan.Item("lib/c.mpy", bytes(10), "game"),
    ]
    plan = deploy_plan.Plan(items, writes=items)
    files, manifests, new_folders = 2 + 1, 1 + 1, 2  # lib/a and lib/a/b
    # lib gains "a", "c.mpy", "c.mpy.bsq-new"; the root the manifest's two names: a
    # cluster each, in case their last cluster is full
    grown_folders = 2
    assert deploy_plan.space_needed(drive, plan, (100, 1)) == 512 * (
        files + manifests + new_folders + grown_folders
    )
    many = [
        deploy_plan.Item("lib/new/m{:03}_long_name.mpy".format(i), b"", "game") for i in range(40)
    ]
    plan = deploy_plan.Plan(many, writes=many)
    # lib/new holds ".", ".." and 80 names of 18 or 26 characters (3 entries of 32 bytes)
    new_folder = -(-(2 * 32 + 80 * 3 * 32) // 512)
    assert new_folder == 16
    assert deploy_plan.space_needed(drive, plan, (1, 1)) == 512 * (2 + new_folder + grown_folders)


def test_read_only_drive_changes_nothing_and_says_why(run, drive, monkeypatch):
    before = snapshot(drive)

    def read_only(path, data):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(safe_writer, "write_file", read_only)
    code, _out, err = run()
    assert code == 1 and "read-only" in err and "boot.py" in err
    assert snapshot(drive) == before


def test_unplugged_while_switching_over_leaves_no_code_py_and_recovers(
    run, game, drive, monkeypatch
):
    assert run()[0] == 0
    deploy_v2(game)
    real_replace = os.replace
    renames = []

    def unplugged_after_one(source, target):
        if str(source).endswith(deploy_shared.TEMP_SUFFIX) and not str(target).endswith(
            deploy_shared.MANIFEST
        ):
            if renames:
                raise OSError(errno.EIO, "Input/output error")
            renames.append(target)
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", unplugged_after_one)
    code, _out, err = run()
    assert code == 1 and "went away" in err and "run the deploy again" in err
    # one new module is in place: the old code.py went before it, the new one is not there
    assert "waits with no code.py" in err and not (drive / "code.py").exists()
    monkeypatch.setattr(os, "replace", real_replace)
    code, result = run_json(run)  # plugged back in: the next deploy finishes the job
    assert code == 0 and result["replaced"] == []
    assert "print('v2')" in (drive / "code.py").read_text()
    assert not list(drive.rglob("*" + deploy_shared.TEMP_SUFFIX))


def test_a_final_manifest_that_cannot_be_written_says_the_new_game_is_there(
    run, game, drive, monkeypatch
):
    assert run()[0] == 0
    deploy_v2(game)
    real_write_manifest = safe_writer.write_manifest
    written = []

    def the_last_one_fails(drive_path, data):
        if json.loads(data).get("pending") is None:  # the final manifest, after code.py
            raise OSError(errno.EIO, "Input/output error")
        written.append(data)
        real_write_manifest(drive_path, data)

    monkeypatch.setattr(safe_writer, "write_manifest", the_last_one_fails)
    code, _out, err = run()
    assert written and code == 1 and err.count("\n") == 1
    # what is on the drive: the whole new game, its code.py in place
    assert "print('v2')" in (drive / "code.py").read_text()
    assert not list(drive.rglob("*" + deploy_shared.TEMP_SUFFIX))
    assert "the new game is on the drive" in err and "old game" not in err
    assert "no code.py" not in err and "run the deploy again" in err
    monkeypatch.setattr(safe_writer, "write_manifest", real_write_manifest)
    code, result = run_json(run)  # the next deploy only writes the manifest
    assert code == 0 and result["written"] == [] and result["replaced"] == []
    manifest = json.loads((drive / deploy_shared.MANIFEST).read_text())
    assert "pending" not in manifest and "code.py" in manifest["files"]


# ------------------------------------------------------- refusing the board


@pytest.mark.parametrize(
    ("version", "board", "machine", "message"),
    [
        ("9.2.1", "feather_m4_express", "Adafruit Feather M4 Express", "'feather_m4_express'"),
        ("8.2.10", "pygamer", PYGAMER, "CircuitPython 8.2.10; the game needs 9"),
    ],
)
def test_wrong_board_or_old_circuitpython_is_refused(
    run, tmp_path, version, board, machine, message
):
    other = make_drive(tmp_path / "other" / "CIRCUITPY", version, board, machine)
    before = snapshot(other)
    code, _out, err = run(target=other)
    assert code == 1 and message in err
    assert snapshot(other) == before


def test_missing_boot_out_is_refused(run, drive):
    (drive / "boot_out.txt").unlink()
    code, _out, err = run()
    assert code == 1 and "no boot_out.txt" in err


def test_boot_out_is_parsed(tmp_path):
    (tmp_path / "boot_out.txt").write_text(
        "Adafruit CircuitPython 10.0.0-beta.2 on 2025-06-01; Adafruit Pybadge with samd51j19\n"
        "Board ID:pybadge\nUID:ABCD\n"
    )
    board = circuitpy_drive.read_boot_out(tmp_path)
    assert (board.board_id, board.version, board.major) == ("pybadge", "10.0.0-beta.2", 10)
    assert board.machine == "Adafruit Pybadge with samd51j19"
    # CircuitPython before 7 wrote no Board ID line: the machine name tells
    (tmp_path / "boot_out.txt").write_text(
        "Adafruit CircuitPython 6.3.0 on 2021-06-01; Adafruit PyGamer with samd51j19\n"
    )
    assert circuitpy_drive.read_boot_out(tmp_path).board_id == "pygamer"


# ------------------------------------------------------------ finding drives


def test_two_drives_ask_for_drive(run, tmp_path, monkeypatch):
    first = make_drive(tmp_path / "a" / "CIRCUITPY")
    second = make_drive(tmp_path / "b" / "CIRCUITPY1")
    volumes = [(first, "CIRCUITPY"), (second, "CIRCUITPY1"), (tmp_path, "DATA")]
    monkeypatch.setattr(circuitpy_drive, "mounted_volumes", lambda: volumes)
    code, _out, err = run(target="")
    assert code == 1 and "several CIRCUITPY drives" in err and "--drive" in err
    assert str(first) in err and str(second) in err


def test_the_only_circuitpy_drive_is_found(run, drive, tmp_path, monkeypatch):
    monkeypatch.setattr(
        circuitpy_drive, "mounted_volumes", lambda: [(tmp_path, "DATA"), (drive, "CIRCUITPY")]
    )
    code, result = run_json(run, target="")
    assert code == 0 and result["drive"] == str(drive)
    monkeypatch.setattr(circuitpy_drive, "mounted_volumes", lambda: [(tmp_path, "DATA")])
    code, result = run_json(run, target="")
    assert code == 1 and "no CIRCUITPY drive found" in result["error"]


@pytest.mark.parametrize(
    ("label", "found"),
    [("CIRCUITPY", True), ("CIRCUITPY1", True), ("CIRCUITPY 2", True), ("CIRCUITPYX", False)],
)
def test_volume_labels(monkeypatch, label, found):
    volume = Path("/media") / label
    monkeypatch.setattr(circuitpy_drive, "mounted_volumes", lambda: [(volume, label)])
    assert circuitpy_drive.find_drives(("CIRCUITPY",)) == ([volume] if found else [])


def test_mount_tables_are_read_like_circup():
    proc = "/dev/sdb1 /media/me/CIRCUITPY\\0401 vfat rw 0 0\nproc /proc proc rw 0 0\n"
    assert circuitpy_drive.mount_points_from_proc(proc) == ["/media/me/CIRCUITPY 1", "/proc"]
    mount = (
        "/dev/disk4s1 on /Volumes/CIRCUITPY 1 (msdos, local, nodev)\n"
        "/dev/sdb1 on /run/media/me/CIRCUITPY type vfat (rw,nosuid)\n"
    )
    assert circuitpy_drive.mount_points_from_mount(mount) == [
        "/Volumes/CIRCUITPY 1",
        "/run/media/me/CIRCUITPY",
    ]


# ------------------------------------------------------------------ compiler


@pytest.mark.parametrize("given", ["--mpy-cross", "MPY_CROSS", "--drive"])
def test_a_path_the_user_gave_is_quoted_in_the_error(run, drive, tmp_path, monkeypatch, given):
    """Issue 50.10: a path in an error is quoted as Python writes it, so that
    a space or a line break in it shows, and the error stays one line."""
    odd = tmp_path / "my tools\nold"
    odd.mkdir()
    if given == "--mpy-cross":
        code, _out, err = run(mpy_cross=odd / "mpy-cross")
    elif given == "MPY_CROSS":
        monkeypatch.setenv("MPY_CROSS", str(odd / "mpy-cross"))
        code, _out, err = run(mpy_cross=None)
    else:
        code, _out, err = run(target=odd)  # a folder with no boot_out.txt
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: "), err
    shown = repr(str(odd if given == "--drive" else odd / "mpy-cross"))
    assert shown in err and "Errno" not in err
    if given != "--drive":
        assert err.startswith("error: {}: {} does not run: ".format(given, shown))


def test_micropython_mpy_cross_is_refused(run, tmp_path):
    micropython = make_compiler(
        tmp_path / "mp", "MicroPython v1.24.1 on 2024-11-29; mpy-cross emitting mpy v6.3", b"M\x06"
    )
    code, _out, err = run(mpy_cross=micropython)
    assert code == 1 and "MicroPython's mpy-cross" in err


def test_an_output_without_circuitpythons_header_is_refused(run, drive, tmp_path):
    wrong = make_compiler(tmp_path / "wrong", CP9_BANNER, b"M\x06")
    before = snapshot(drive)
    code, _out, err = run(mpy_cross=wrong)
    assert code == 1 and "not CircuitPython's b'C\\x06'" in err
    assert snapshot(drive) == before


def test_compiler_of_another_major_version_only_with_the_same_mpy_format(run, tmp_path):
    ten = make_drive(tmp_path / "ten" / "CIRCUITPY", version="10.0.3")
    code, result = run_json(run, target=ten)
    assert code == 0 and result["format"] == "mpy"
    assert result["notes"] == ["mpy-cross 9.2.1 for CircuitPython 10.0.3: both use .mpy format 6"]
    newer = make_drive(tmp_path / "eleven" / "CIRCUITPY", version="11.0.0")
    code, _out, err = run(target=newer)
    assert code == 1 and "cannot load" in err


def test_mpy_cross_env_and_path_are_used(run, compiler, tmp_path, monkeypatch):
    monkeypatch.setenv("MPY_CROSS", str(compiler))
    code, result = run_json(run, mpy_cross=None)
    assert code == 0 and result["mpy_cross"] == str(compiler)
    monkeypatch.delenv("MPY_CROSS")
    monkeypatch.setenv("PATH", str(compiler.parent))
    code, result = run_json(run, mpy_cross=None)
    assert code == 0 and result["mpy_cross"] == str(compiler) and result["format"] == "mpy"


@pytest.mark.parametrize("how", ["offline", "--no-fetch"])
def test_without_a_circuitpython_mpy_cross_the_deploy_is_refused(run, drive, how):
    """Issue 50.1: from .py sources the game stops with MemoryError at import
    on a board, so with no compiler found, given or fetched nothing is written:
    one error line, status 2 (the computer needs setting up), as the bundle."""
    before = snapshot(drive)
    code, out, err = run(*([how] if how == "--no-fetch" else []), mpy_cross=None)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("error: no CircuitPython mpy-cross (")
    assert "--mpy-cross PATH" in err and "MPY_CROSS" in err and "warning" not in out
    assert ("could not fetch mpy-cross 9.2.1 (offline in tests)" in err) == (how == "offline")
    assert snapshot(drive) == before
    code, result = run_json(run, "--no-fetch", mpy_cross=None)
    assert code == 2 and not result["ok"] and "mpy-cross" in result["error"]
    assert snapshot(drive) == before


def test_the_deploy_command_without_mpy_cross_refuses_in_one_line(drive, tmp_path):
    """tools/deploy.py as make deploy runs it, with no mpy-cross anywhere and
    no network to fetch one: one error line, status 2, the drive untouched."""
    before = snapshot(drive)
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "deploy.py"), "--drive", str(drive), "--no-fetch"],
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path / "no-bin"), "HOME": str(tmp_path)},
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "mpy-cross" in result.stderr and "Traceback" not in result.stderr
    assert snapshot(drive) == before


def test_fetched_compiler_is_cached(run, compiler, tmp_path, monkeypatch):
    fetched = []

    class Response:
        def __init__(self, data):
            self.data = data

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self):
            return self.data

    def serve(url, timeout=None):
        fetched.append(url)
        return Response(compiler.read_bytes())

    monkeypatch.setattr(urllib.request, "urlopen", serve)
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    for _ in range(2):
        code, result = run_json(run, mpy_cross=None)
        assert code == 0 and result["format"] == "mpy"
    assert fetched == [
        mpy_compiler.MPY_CROSS_URL + "/linux-amd64/mpy-cross-linux-amd64-9.2.1.static"
    ]
    assert result["mpy_cross"] == str(tmp_path / "cache" / "mpy-cross-9.2.1")


def test_a_syntax_error_stops_the_deploy_before_writing(run, game, drive):
    before = snapshot(drive)
    (game / "code.py").write_text("def broken(:\n")
    code, _out, err = run()
    assert code == 1 and "code.py line 1: syntax error" in err
    assert snapshot(drive) == before


# ------------------------------------------------------- what the game names


def test_only_the_files_the_game_names_ship(run, game, drive):
    """Issue 50.9: files.py's SHIPPED names the data files; whatever else sits
    in the package's folder (untracked notes, a solver's cache) stays."""
    write_tree(
        game,
        {
            "lib/british_square/desktop/notes.txt": "my notes",
            "lib/british_square/solver/cache.bin": b"\0" * 64,
            "lib/british_square/jingle.wav": b"RIFF",
            "lib/british_square/words.txt": "@end\n",  # not named by this game
        },
    )
    code, result = run_json(run)
    assert code == 0 and game_files(drive) == DEPLOYED_MPY, result


@pytest.mark.parametrize(
    "case", ["a named file missing", "a named file is a folder", "no SHIPPED", "not names"]
)
def test_files_the_game_names_wrongly_are_refused_in_one_line(run, game, drive, case):
    files_py = game / "lib/british_square/files.py"
    if case == "a named file missing":
        (game / "lib/british_square/cards.bmp").unlink()
    elif case == "a named file is a folder":
        files_py.write_text('SHIPPED = ("cards.bmp", "sounds.wav")\n')
        (game / "lib/british_square/sounds.wav").mkdir()
    elif case == "no SHIPPED":
        files_py.write_text("SHIPPED = FILES\n")
    else:
        files_py.write_text('SHIPPED = ("../../code.py",)\n')
    before = snapshot(drive)
    code, _out, err = run()
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: "), err
    assert snapshot(drive) == before


@pytest.mark.parametrize("linked", ["lib/british_square/cards.bmp", "lib/british_square/cards.py"])
def test_a_link_that_leaves_the_tree_is_refused_in_one_line(run, game, drive, tmp_path, linked):
    """Issue 50.9: a link is followed only inside the game's tree: the content
    of a file outside it never goes onto the board (or into the bundle)."""
    outside = tmp_path / "private" / "secret"
    write_tree(outside.parent, {"secret": "RANKS = 'my secret'\n"})
    (game / linked).unlink()
    (game / linked).symlink_to(outside)
    before = snapshot(drive)
    code, _out, err = run()
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: "), err
    assert repr(linked) in err and "outside the game's tree" in err
    assert snapshot(drive) == before


def test_a_link_inside_the_tree_is_followed(run, game, drive):
    art = game / "art" / "cards-v2.bmp"
    art.parent.mkdir()
    (game / "lib/british_square/cards.bmp").rename(art)
    (game / "lib/british_square/cards.bmp").symlink_to(art)
    code, _result = run_json(run)
    assert code == 0 and (drive / "lib/british_square/cards.bmp").read_bytes() == SPRITES


def test_the_files_the_game_ships_are_the_ones_its_code_opens():
    from british_square import files, par, sheet, words
    from british_square.piles import RULE_NAMES

    opened = {sheet.SHEET_FILE, words.FILE}
    opened |= {Path(par.par_path(rules)).name for rules in range(len(RULE_NAMES))}
    opened |= {Path(par.lines_path(rules)).name for rules in range(3) if par.LINE_DEALS[rules]}
    assert sorted(files.SHIPPED) == sorted(opened)
    assert deploy_plan.shipped_names(ROOT) == list(files.SHIPPED)


# --------------------------------------------------------------- import graph


def test_imports_skip_type_hints_and_mark_optional_imports(tmp_path):
    source = tmp_path / "pkg" / "mod.py"
    write_tree(
        tmp_path,
        {
            "pkg/mod.py": (
                "import a.b\n"
                "from . import sibling\n"
                "from .sub import thing\n"
                "try:\n    from typing import List\n    import hinted\n"
                "except ImportError:\n    pass\n"
                "try:\n    import fast\nexcept ImportError:\n    fast = None\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    import only_for_mypy\n"
                "def later():\n    import lazy\n"
            )
        },
    )
    refs = board_imports.imports_of(board_imports.Module("pkg.mod", source, "pkg/mod.py", "game"))
    names = {ref.names[-1]: ref for ref in refs}
    assert set(names) == {
        "a.b",
        "pkg.sibling",
        "pkg.sub.thing",
        "fast",
        "typing.TYPE_CHECKING",
        "lazy",
    }
    assert names["fast"].optional and not names["lazy"].optional
    assert names["pkg.sub.thing"].names == ("pkg", "pkg.sub", "pkg.sub.thing")
    assert names["pkg.sub.thing"].required == 2


PYBADGE = "Adafruit Pybadge with samd51j19"


@pytest.mark.parametrize(("board", "machine"), [("pygamer", PYGAMER), ("pybadge", PYBADGE)])
def test_a_module_the_board_lacks_is_refused_in_one_line(run, game, tmp_path, board, machine):
    target = make_drive(tmp_path / board / "CIRCUITPY", board=board, machine=machine)
    (game / "lib/british_square/view.py").write_text(
        "import framebufferio\nimport vectorio\nfrom . import engine\n"
    )
    (game / "lib/british_square/engine.py").write_text("def later():\n    import gifio\n")
    before = snapshot(target)
    code, _out, err = run(target=target)
    assert code == 1 and err.count("\n") == 1
    assert (
        "the {}'s CircuitPython has no framebufferio (imported by lib/british_square/view.py), "
        "no gifio (imported by lib/british_square/engine.py); guard".format(board)
    ) in err  # gifio is imported inside a function; vectorio is on the boards
    assert snapshot(target) == before


@pytest.mark.parametrize(("board", "machine"), [("pygamer", PYGAMER), ("pybadge", PYBADGE)])
def test_a_tree_importing_vectorio_deploys(run, game, tmp_path, board, machine):
    target = make_drive(tmp_path / board / "CIRCUITPY", board=board, machine=machine)
    (game / "lib/british_square/view.py").write_text(
        "import vectorio\nfrom vectorio import Rectangle\nfrom . import engine\n"
    )
    code, result = run_json(run, target=target)
    assert code == 0 and result["warnings"] == []
    assert "lib/british_square/view.mpy" in result["written"]


def platform_md_lacks():
    """The modules shared/PLATFORM.md says the PyGamer's and PyBadge's builds turn off."""
    platform_md = ROOT.parent / "shared" / "PLATFORM.md"
    if not platform_md.is_file():
        pytest.skip("no {}".format(platform_md))
    text = " ".join(platform_md.read_text().split())
    section = text.split("**Modules the boards do not have.**")[1]
    turned_off = section.split(" turn off ")[1].split("(and turn on")[0]
    return set(re.findall(r"`(\w+)`", turned_off))


def test_the_modules_the_boards_lack_are_those_platform_md_names():
    lacks = platform_md_lacks()
    assert "spitarget" in lacks and "vectorio" not in lacks  # what this page says today
    assert board_imports.SAMD51_HANDHELD_LACKS == lacks
    assert board_imports.BOARD_LACKS == {"pygamer": lacks, "pybadge": lacks}
    assert lacks <= board_imports.CIRCUITPYTHON_BUILTINS  # on other boards, never copied


def fake_library(site, dist, files):
    """An installed CircuitPython library ``dist`` in folder ``site``: its ``files``."""
    write_tree(site, files)
    info = site / "{}-1.0.dist-info".format(dist.replace("-", "_"))
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: {}\nVersion: 1.0\n".format(dist))
    tops = sorted({path.split("/")[0].removesuffix(".py") for path in files})
    (info / "top_level.txt").write_text("\n".join(tops) + "\n")


def test_a_library_importing_a_module_the_board_lacks_is_refused(game, tmp_path):
    site = tmp_path / "site-packages"
    fake_library(
        site,
        "adafruit-circuitpython-gif-player",
        {"adafruit_gif_player/__init__.py": "", "adafruit_gif_player/player.py": "import gifio\n"},
    )
    (game / "lib/british_square/view.py").write_text("from adafruit_gif_player import player\n")
    resolver = board_imports.Resolver(game, [site])
    closure = board_imports.import_closure(game, "pygamer", resolver=resolver)
    assert closure.lacking == [("lib/adafruit_gif_player/player.py", "gifio")]
    assert "lib/adafruit_gif_player/player.py" in {m.drive_path for m in closure.modules}


def test_imports_guarded_by_except_import_error_are_optional(run, game, drive):
    (game / "lib/british_square/view.py").write_text(
        "try:\n    import vectorio\nexcept ImportError:\n    vectorio = None\n"
        "try:\n    import gifio\nexcept (AttributeError, ImportError):\n    gifio = None\n"
        "def later():\n    try:\n        import jpegio\n    except Exception:\n        pass\n"
    )
    code, result = run_json(run)
    assert code == 0 and result["warnings"] == []


def test_only_what_code_py_and_the_adapter_import_is_copied(run, game, drive):
    write_tree(
        game,
        {
            "lib/british_square/view.py": GAME["lib/british_square/view.py"]
            + "def show_menu():\n    from british_square import screens\n",
            "lib/british_square/screens.py": "from british_square import texts\n",
            "lib/british_square/texts.py": "TITLE = 'British Square'\n",
            "lib/british_square/keyscript.py": "KEYS = ()\n",
            "lib/british_square/survey.py": "import argparse\n",
            "hw/desktop.py": "import pygame\nfrom british_square import keyscript\n",
        },
    )
    code, result = run_json(run)
    assert code == 0 and result["warnings"] == []
    package = {p for p in game_files(drive) if p.startswith("lib/british_square/")}
    assert package == {
        "lib/british_square/__init__.mpy",
        "lib/british_square/cards.mpy",
        "lib/british_square/engine.mpy",
        "lib/british_square/view.mpy",
        "lib/british_square/screens.mpy",  # imported inside a function
        "lib/british_square/texts.mpy",  # by screens
        "lib/british_square/cards.bmp",
    }


def test_a_board_tree_is_built_into_a_folder_with_extra_adapters(game, compiler, tmp_path):
    write_tree(
        game,
        {
            "hw/vm.py": "import keypad\nfrom british_square import keyscript\n",
            "lib/british_square/keyscript.py": "KEYS = ()\n",
        },
    )
    items = deploy_plan.build_board_tree(
        "pygamer", tmp_path / "tree", source=game, mpy_cross=compiler, adapters=("vm",)
    )
    written = set(snapshot(tmp_path / "tree"))
    assert written == {item.path for item in items}
    assert written == DEPLOYED_MPY | {"hw/vm.mpy", "lib/british_square/keyscript.mpy"}
    plain = deploy_plan.build_board_tree("pybadge", tmp_path / "plain", source=game)
    assert {item.path for item in plain} == {
        (p[:-4] + ".py" if p.endswith(".mpy") else p).replace("pygamer", "pybadge")
        for p in DEPLOYED_MPY
    }
    (game / "hw/vm.py").write_text("import framebufferio\n")
    with pytest.raises(deploy_shared.DeployError, match="has no framebufferio"):
        deploy_plan.build_board_tree("pygamer", tmp_path / "bad", source=game, adapters=("vm",))


@pytest.mark.parametrize("board", deploy_shared.SUPPORTED_BOARDS)
def test_the_real_tree_imports_only_modules_the_board_has(board):
    closure = board_imports.import_closure(ROOT, board)
    assert closure.lacking == []


@pytest.mark.parametrize("board", deploy_shared.SUPPORTED_BOARDS)
def test_the_real_tree_copies_exactly_the_game_modules_its_entry_points_import(board):
    closure = board_imports.import_closure(ROOT, board)
    assert closure.unresolved == []
    # CPython's own import scanner (it reads the bytecode, functions included) agrees
    finder = modulefinder.ModuleFinder(path=[str(ROOT / "lib"), str(ROOT / "hw"), str(ROOT)])
    finder.run_script(str(ROOT / "code.py"))
    finder.run_script(str(ROOT / "hw" / (board + ".py")))
    expected = {
        Path(m.__file__).relative_to(ROOT).as_posix()
        for m in finder.modules.values()
        if m.__file__ and Path(m.__file__).is_relative_to(ROOT / "lib" / "british_square")
    }
    copied = {m.drive_path for m in closure.modules if m.kind == "game"}
    assert copied == expected
    desktop_only = {"__main__", "keyscript", "scripting"}
    assert not {"lib/british_square/{}.py".format(name) for name in desktop_only} & copied
    adapters = {m.drive_path for m in closure.modules if m.kind == "adapter"}
    shared = {"hw/handheld.py", "hw/speaker.py", "hw/lights.py"}
    assert adapters == {"hw/{}.py".format(board)} | shared


def board_libraries_of_the_real_tree():
    """The top-level library modules the deploy's import closure of the real tree
    takes, for every board."""
    found = set()
    for board in deploy_shared.SUPPORTED_BOARDS:
        closure = board_imports.import_closure(ROOT, board)
        found |= {m.name.split(".")[0] for m in closure.modules if m.kind == "library"}
    return found


def test_requirements_device_lists_the_libraries_the_board_imports():
    """requirements-device.txt pins the distributions whose modules the deploy's
    import closure of the real tree takes, for every board."""
    libraries = board_libraries_of_the_real_tree()
    listed = pin_lines(ROOT / "requirements-device.txt")
    assert len(listed) == len(dict(listed))
    owners = importlib.metadata.packages_distributions()
    assert {canonicalize_name(d) for top in libraries for d in owners[top]} == set(dict(listed)), (
        "requirements-device.txt should pin the distributions of: {}".format(
            ", ".join(sorted(libraries))
        )
    )


def test_every_route_to_a_board_brings_the_library_versions_the_game_is_tested_with():
    device = pins(ROOT / "requirements-device.txt")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    # the tests run with requirements-dev.txt's pins (the pyproject extras
    # pin the survey's too): one version of each distribution everywhere
    everywhere = pin_lines(ROOT / "requirements-dev.txt") + [
        (canonicalize_name(Requirement(line).name), str(Requirement(line).specifier)[2:])
        for extra in pyproject["project"]["optional-dependencies"].values()
        for line in extra
    ]
    versions = collections.defaultdict(set)
    for name, version in everywhere:
        versions[name].add(version)
    assert {name: v for name, v in versions.items() if len(v) > 1} == {}
    assert {name: versions[name].pop() for name in device} == device
    # make deploy and make bundle copy the modules of the installed distributions
    assert {name: importlib.metadata.version(name) for name in device} == device, "make setup"


# The releases of Adafruit's library bundle that [tool.circup] may name, with
# the versions of the board's libraries each holds, read from the bundle
# repository's history (its libraries/helpers submodules at the release's tag,
# each commit a release tag of its library). Another pin needs the bundle
# release that holds it, added here.
BUNDLE_RELEASES = {
    "20260724": {
        "adafruit-circuitpython-display-text": "5.0.4",
        "adafruit-circuitpython-displayio-layout": "3.1.5",
        "adafruit-circuitpython-ticks": "1.1.7",
    },
}

# What circup's own code makes of the repository's files, as `circup install
# -r requirements-device.txt` run in the repository reads them.
CIRCUP_READS = """
import json
from circup.command_utils import (
    clean_library_name, find_pyproject, libraries_from_requirements, pyproject_bundle_versions
)
with open("requirements-device.txt") as requirements:
    names = libraries_from_requirements(requirements.read())
print(json.dumps({
    "libraries": [clean_library_name(name) for name in names],
    "bundles": pyproject_bundle_versions(find_pyproject()),
}))
"""


def test_circup_takes_the_board_libraries_from_the_pinned_bundle_release(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", CIRCUP_READS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path)),  # its log
    )
    read = json.loads(result.stdout)
    assert sorted(read["libraries"]) == sorted(board_libraries_of_the_real_tree())
    assert list(read["bundles"]) == ["adafruit/Adafruit_CircuitPython_Bundle"]
    (release,) = read["bundles"].values()
    held = BUNDLE_RELEASES.get(release, {})
    assert {name: held.get(name) for name in pins(ROOT / "requirements-device.txt")} == pins(
        ROOT / "requirements-device.txt"
    ), "[tool.circup] should name a bundle release holding requirements-device.txt's pins"


def test_blinka_stand_ins_are_never_libraries():
    libraries = board_imports.board_libraries(board_imports.library_paths())
    assert {"adafruit_display_text", "adafruit_displayio_layout", "adafruit_ticks"} <= set(
        libraries
    )
    assert not {"displayio", "board", "micropython", "keypad", "pygame"} & set(libraries)


# ------------------------------------------------------------------ firmware


def make_uf2(payload, family=uf2.SAMD51_FAMILY, flags=uf2.FLAG_FAMILY_ID):
    chunks = [payload[i : i + 256] for i in range(0, len(payload), 256)]
    blocks = []
    for number, chunk in enumerate(chunks):
        header = struct.pack(
            "<8I",
            uf2.MAGIC_START0,
            uf2.MAGIC_START1,
            flags,
            0x4000 + 256 * number,
            len(chunk),
            number,
            len(chunks),
            family,
        )
        blocks.append(header + chunk.ljust(476, b"\0") + struct.pack("<I", uf2.MAGIC_END))
    return b"".join(blocks)


def firmware_for(machine, version="9.2.1"):
    # the banner straddles a block boundary, as it may in a real build
    banner = "Adafruit CircuitPython {} on 2024-11-20; {}".format(version, machine).encode()
    return make_uf2(bytes(200) + banner + bytes(300))


INFO_UF2 = "UF2 Bootloader v3.15.0 SFHWRO\nModel: {}\nBoard-ID: {}\n"


def make_boot_drive(path, model="PyGamer", board_id="SAMD51J19A-PyGamer-M4"):
    path.mkdir(parents=True)
    (path / "INFO_UF2.TXT").write_text(INFO_UF2.format(model, board_id))
    (path / "CURRENT.UF2").write_bytes(b"")
    return path


@pytest.fixture
def flash(capsys, tmp_path):
    def flash(data, name="firmware.uf2", *argv, drive=None):
        file = tmp_path / name
        file.write_bytes(data)
        args = ["firmware", str(file), "--json", *argv]
        args += ["--drive", str(drive)] if drive else []
        code = deploy.main(args)
        return code, json.loads(capsys.readouterr().out)

    return flash


def test_firmware_is_copied_to_the_matching_bootloader_drive(flash, tmp_path, monkeypatch):
    boot = make_boot_drive(tmp_path / "PYGAMERBOOT")
    monkeypatch.setattr(circuitpy_drive, "mounted_volumes", lambda: [(boot, "PYGAMERBOOT")])
    data = firmware_for(PYGAMER)
    code, result = flash(data, "adafruit-circuitpython-pygamer-en_US-9.2.1.uf2")
    assert code == 0 and result["board"] == "pygamer" and result["circuitpython"] == "9.2.1"
    assert (boot / "adafruit-circuitpython-pygamer-en_US-9.2.1.uf2").read_bytes() == data


def test_firmware_for_another_board_is_refused_unless_forced(flash, tmp_path):
    boot = make_boot_drive(tmp_path / "PYGAMERBOOT")
    data = firmware_for("Adafruit Pybadge with samd51j19")
    code, result = flash(data, drive=boot)
    assert (
        code == 1
        and "is for 'pybadge'" in result["error"]
        and "SAMD51J19A-PyGamer-M4" in result["error"]
    )
    assert not (boot / "firmware.uf2").exists()
    code, result = flash(data, "firmware.uf2", "--force", drive=boot)
    assert code == 0 and (boot / "firmware.uf2").exists()


def test_firmware_board_from_file_name_when_the_firmware_does_not_say(flash, tmp_path):
    badge_lc = make_boot_drive(tmp_path / "BADGELCBOOT", "PyBadge LC", "SAMD51J19A-PyBadgeLC-M4")
    nameless = make_uf2(bytes(1000))
    code, result = flash(nameless, "adafruit-circuitpython-pybadge-en_US-9.2.1.uf2", drive=badge_lc)
    assert code == 0 and result["intended_board"] == "pybadge" and result["board"] == "pybadge"
    code, result = flash(nameless, "adafruit-circuitpython-pygamer-fr-9.2.1.uf2", drive=badge_lc)
    assert code == 1 and "'pygamer'" in result["error"]
    code, result = flash(nameless, "anything.uf2", drive=badge_lc)
    assert code == 0 and "cannot tell which board" in result["warnings"][0]


def test_firmware_for_another_chip_or_not_uf2_is_refused(flash, tmp_path):
    boot = make_boot_drive(tmp_path / "PYBADGEBOOT", "PyBadge", "SAMD51J19A-PyBadge-M4")
    code, result = flash(make_uf2(bytes(600), family=0xE48BFF56), drive=boot)  # an RP2040's
    assert code == 1 and "0xe48bff56" in result["error"]
    code, result = flash(b"not a uf2" * 100, drive=boot)
    assert code == 1 and "not a UF2 file" in result["error"]
    broken = bytearray(firmware_for(PYGAMER))
    broken[512 + 508] ^= 0xFF  # the second block's end magic
    code, result = flash(bytes(broken), drive=boot)
    assert code == 1 and "block 1 has bad magic" in result["error"]
    assert {p.name for p in boot.iterdir()} == {"INFO_UF2.TXT", "CURRENT.UF2"}


def test_a_firmware_path_with_a_line_break_is_named_quoted_in_one_line(flash, tmp_path):
    boot = make_boot_drive(tmp_path / "PYBADGEBOOT", "PyBadge", "SAMD51J19A-PyBadge-M4")
    code, result = flash(b"not a uf2" * 100, "two\nlines.uf2", drive=boot)
    assert code == 1 and "\n" not in result["error"] and "two\\nlines.uf2'" in result["error"]


def test_firmware_dry_run_and_drive_checks(flash, tmp_path, monkeypatch):
    boot = make_boot_drive(tmp_path / "PYGAMERBOOT")
    code, result = flash(firmware_for(PYGAMER), "fw.uf2", "--dry-run", drive=boot)
    assert code == 0 and result["dry_run"] and not (boot / "fw.uf2").exists()
    not_boot = tmp_path / "stick"
    not_boot.mkdir()
    code, result = flash(firmware_for(PYGAMER), drive=not_boot)
    assert code == 1 and "no INFO_UF2.TXT" in result["error"]
    second = make_boot_drive(tmp_path / "x" / "PYBADGEBOOT", "PyBadge", "SAMD51J19A-PyBadge-M4")
    monkeypatch.setattr(
        circuitpy_drive, "mounted_volumes", lambda: [(boot, "PYGAMERBOOT"), (second, "PYBADGEBOOT")]
    )
    code, result = flash(firmware_for(PYGAMER))
    assert code == 1 and "several bootloader" in result["error"]


def test_uf2_reader_finds_family_machine_and_version():
    info = uf2.read_uf2(firmware_for(PYGAMER, "10.0.3"))
    assert info.families == {uf2.SAMD51_FAMILY}
    assert info.machine == "PyGamer with samd51j19" and info.version == "10.0.3"
    assert info.blocks == 3 and info.payload_bytes == 200 + 300 + len(
        "Adafruit CircuitPython 10.0.3 on 2024-11-20; " + PYGAMER
    )


def test_firmware_that_is_not_a_plain_file_is_refused_before_any_read(tmp_path, capsys):
    """A pipe or a folder as the firmware, or a pipe as the drive's INFO_UF2.TXT,
    would hang the read: refused in one line (a link to a firmware file is fine)."""
    boot = make_boot_drive(tmp_path / "PYGAMERBOOT")
    pipe = tmp_path / "fw.uf2"
    os.mkfifo(pipe)
    for bad in (pipe, tmp_path):
        code = deploy.main(["firmware", str(bad), "--json", "--drive", str(boot)])
        assert code == 1 and "not a plain file" in json.loads(capsys.readouterr().out)["error"]
    real = tmp_path / "real.uf2"
    real.write_bytes(firmware_for(PYGAMER))
    link = tmp_path / "latest.uf2"
    link.symlink_to(real)
    code = deploy.main(["firmware", str(link), "--json", "--drive", str(boot), "--dry-run"])
    assert code == 0 and json.loads(capsys.readouterr().out)["ok"]
    (boot / "INFO_UF2.TXT").unlink()
    os.mkfifo(boot / "INFO_UF2.TXT")
    code = deploy.main(["firmware", str(real), "--json", "--drive", str(boot)])
    assert code == 1 and "no INFO_UF2.TXT" in json.loads(capsys.readouterr().out)["error"]
    assert {p.name for p in boot.iterdir()} == {"INFO_UF2.TXT", "CURRENT.UF2"}
