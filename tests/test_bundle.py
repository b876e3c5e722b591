"""tools/bundle.py: the Project Bundle zip is what a deploy writes, per
CircuitPython major version, and the game plays from one of its folders
under CircuitPython's VM.

The tree tests use the real repository and a stand-in mpy-cross (see
drives.py), so they run everywhere; the VM tier builds the bundle with
CircuitPython's own mpy-cross and plays it.
"""

import errno
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile

import pytest
from conftest import ROOT
from drives import PYGAMER, go_offline, make_compiler, make_drive, snapshot
from scripting import ScriptWriter
from ui_runs import kept_game, keys_file, reported

from british_square import files
from british_square.desktop.notation import position_text
from british_square.engine import Game
from british_square.piles import AMERICAN
from british_square.resume import load
from british_square.store import Store

sys.path.insert(0, str(ROOT / "tools"))
import board_imports  # noqa: E402
import bundle  # noqa: E402
import deploy  # noqa: E402
import deploy_docs  # noqa: E402
import deploy_plan  # noqa: E402
import deploy_shared  # noqa: E402
from mpy_compiler import compiler_info  # noqa: E402

PYBADGE = "Adafruit Pybadge with samd51j19"
FOLDERS = ["CircuitPython 9.x", "CircuitPython 10.x"]


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    go_offline(monkeypatch, tmp_path)


@pytest.fixture
def compiler(tmp_path):
    return make_compiler(tmp_path / "cp9")


def make_bundle(capsys, tmp_path, *argv, mpy_cross=None):
    """bundle.main() with --json: (exit status, its summary or error, stderr)."""
    args = ["--out", tmp_path / "out" / "bundle.zip", "--cache-dir", tmp_path / "cache"]
    args += ["--mpy-cross", mpy_cross] if mpy_cross else []
    code = bundle.main([str(a) for a in args + list(argv)] + ["--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def zip_tree(path):
    """{name in the zip: bytes}."""
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def folder(tree, name):
    """The files of one of the zip's folders, by their path inside it."""
    prefix = name + "/"
    return {path[len(prefix) :]: data for path, data in tree.items() if path.startswith(prefix)}


def deployed_files(tmp_path, board, machine, compiler):
    """What a deploy of the repository writes onto a fresh ``board`` drive, less
    the manifest (and the drive's own boot_out.txt)."""
    drive = make_drive(tmp_path / board / "CIRCUITPY", board=board, machine=machine)
    argv = ["--drive", drive, "--source", ROOT, "--mpy-cross", compiler, "--json"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", io.StringIO())  # the deploy's summary
        assert deploy.main([str(a) for a in argv]) == 0
    files = snapshot(drive)
    del files["boot_out.txt"], files[deploy_shared.MANIFEST]
    return files


def test_each_folder_is_exactly_what_deploys_write_to_a_pygamer_and_a_pybadge(
    capsys, tmp_path, compiler
):
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 0, summary
    tree = zip_tree(summary["zip"])
    pygamer = deployed_files(tmp_path, "pygamer", PYGAMER, compiler)
    pybadge = deployed_files(tmp_path, "pybadge", PYBADGE, compiler)
    shared = pygamer.keys() & pybadge.keys()
    assert all(pygamer[path] == pybadge[path] for path in shared)
    assert pygamer.keys() - shared == {"hw/pygamer.mpy"}
    assert pybadge.keys() - shared == {"hw/pybadge.mpy"}
    assert summary["folders"] == FOLDERS
    for name in FOLDERS:
        assert folder(tree, name) == {**pygamer, **pybadge}, name
    # beside the folders only the README: nothing else is in the zip
    assert set(tree) == {"README.txt"} | {
        name + "/" + path for name in FOLDERS for path in {**pygamer, **pybadge}
    }
    assert summary["files"] == sorted({**pygamer, **pybadge})


def test_the_folders_hold_only_what_a_board_runs(capsys, tmp_path, compiler):
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 0, summary
    files = folder(zip_tree(summary["zip"]), FOLDERS[-1])
    assert [path for path in files if path.endswith(".py")] == ["code.py"]
    assert all(files[path][:2] == b"C\x06" for path in files if path.endswith(".mpy"))
    closure = board_imports.import_closure(ROOT, "pygamer")
    assert {m.drive_path[:-3] + ".mpy" for m in closure.modules if m.kind == "game"} == {
        path for path in files if path.startswith("lib/british_square/") and path.endswith(".mpy")
    }
    # nothing of the desktop's, the VM's or the tests'
    assert not [path for path in files if "desktop" in path or path.startswith("hw/vm")]
    assert {path.split("/")[0] for path in files} == {"code.py", "hw", "lib"}


def test_the_readme_says_which_board_which_circuitpython_how_to_copy_and_the_saves(
    capsys, tmp_path, compiler
):
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 0, summary
    readme = zip_tree(summary["zip"])["README.txt"].decode()
    version = deploy_plan.game_version(ROOT)
    assert readme.startswith("British Square {}".format(version))
    for words in ("PyGamer", "PyBadge", "CIRCUITPY", "boot_out.txt", *FOLDERS, "NVM"):
        assert words in readme, words
    assert len(readme.splitlines()) <= 30
    assert summary["zip"].endswith("bundle.zip")


def test_the_default_zip_is_named_after_the_games_version(capsys, tmp_path, compiler):
    source = game_copy(tmp_path / "game")
    argv = ["--source", source, "--mpy-cross", compiler, "--cache-dir", tmp_path / "cache"]
    assert bundle.main([str(a) for a in argv]) == 0
    out = capsys.readouterr().out
    expected = source / "dist" / "british-square-{}.zip".format(deploy_plan.game_version(ROOT))
    assert out.startswith(str(expected)) and zipfile.is_zipfile(expected)


def game_copy(folder):
    """A copy of the repository's game (code.py, hw/, lib/) in ``folder``."""
    for part in ("lib", "hw"):
        shutil.copytree(ROOT / part, folder / part)
    shutil.copy(ROOT / "code.py", folder)
    return folder


def test_only_the_files_the_game_names_go_into_the_zip(capsys, tmp_path, compiler):
    """Issue 50.9: files left in the package's folder stay out of the zip; a
    named file that is a link out of the tree is refused."""
    source = game_copy(tmp_path / "game")
    package = source / "lib" / "british_square"
    (package / "desktop" / "notes.txt").write_text("my notes")
    (package / "desktop" / "solver" / "cache.bin").write_bytes(b"\0" * 64)
    (package / "jingle.wav").write_bytes(b"RIFF")
    code, summary, _err = make_bundle(capsys, tmp_path, "--source", source, mpy_cross=compiler)
    assert code == 0, summary
    assert [p for p in summary["files"] if not p.endswith((".mpy", ".py"))] == [
        "lib/british_square/" + name for name in sorted(files.SHIPPED)
    ]
    secret = tmp_path / "secret.txt"
    secret.write_text("my secret")
    (package / "words.txt").unlink()
    (package / "words.txt").symlink_to(secret)
    code, result, _err = make_bundle(
        capsys, tmp_path / "again", "--source", source, mpy_cross=compiler
    )
    assert code == 1 and "outside the game's tree" in result["error"]
    assert not (tmp_path / "again" / "out").exists()


def test_the_same_tree_makes_the_same_zip(capsys, tmp_path, compiler):
    first = make_bundle(capsys, tmp_path / "one", mpy_cross=compiler)[1]["zip"]
    second = make_bundle(capsys, tmp_path / "two", mpy_cross=compiler)[1]["zip"]
    assert open(first, "rb").read() == open(second, "rb").read()


# Two machines on two days: another checkout's file times, umask, hash seed,
# time zone and folder.
MACHINES = [
    {"mtime": 1_000_000_000, "umask": 0o022, "PYTHONHASHSEED": "1", "TZ": "UTC"},
    {"mtime": 1_900_000_000, "umask": 0o077, "PYTHONHASHSEED": "2", "TZ": "Asia/Tokyo"},
]


def test_the_zip_is_the_same_byte_for_byte_on_another_day_and_machine(tmp_path, compiler):
    """Issue 50.7: ``make bundle`` from the same commit anywhere gives the same
    zip, so that an owner or a store can check what they were given: fixed
    entry times, order and modes; the zip itself is made as any build
    artifact (0644 under the usual umask 022, not 0600)."""
    zips = []
    for number, machine in enumerate(MACHINES):
        source = game_copy(tmp_path / "machine{}".format(number) / "game")
        for path in [source, *source.rglob("*")]:
            os.utime(path, (machine["mtime"], machine["mtime"]))
        out = source.parent / "dist" / "bundle.zip"
        argv = ["--source", source, "--out", out, "--mpy-cross", compiler, "--no-fetch"]
        env = {name: machine[name] for name in ("PYTHONHASHSEED", "TZ")}
        subprocess.run(
            [sys.executable, ROOT / "tools" / "bundle.py", *argv],
            env=dict(env, PATH="/usr/bin:/bin", HOME=str(source.parent)),
            cwd=source.parent,
            preexec_fn=lambda umask=machine["umask"]: os.umask(umask),
            check=True,
            capture_output=True,
        )
        zips.append(out)
    assert zips[0].read_bytes() == zips[1].read_bytes()
    assert [stat.S_IMODE(path.stat().st_mode) for path in zips] == [0o644, 0o600]  # the umask's
    with zipfile.ZipFile(zips[0]) as zf:
        infos = zf.infolist()
    names = [info.filename for info in infos]
    in_folders = [sorted(n for n in names if n.startswith(name + "/")) for name in FOLDERS]
    assert names == ["README.txt", *in_folders[0], *in_folders[1]]  # 9.x, then 10.x
    for info in infos:
        assert info.date_time == bundle.ENTRY_TIME and info.create_system == 3  # Unix
        assert info.external_attr == 0o644 << 16 and info.compress_type == zipfile.ZIP_DEFLATED


def test_without_a_circuitpython_mpy_cross_no_bundle_is_made(capsys, tmp_path):
    # status 2, as deploy's: the computer needs setting up
    code, result, _err = make_bundle(capsys, tmp_path, "--no-fetch")
    assert code == 2 and "mpy-cross" in result["error"] and ".mpy" in result["error"]
    assert not (tmp_path / "out").exists()
    code = bundle.main(["--out", str(tmp_path / "b.zip"), "--no-fetch"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ")


@pytest.mark.parametrize(
    ("banner", "why"),
    [
        ("MicroPython v1.24.0 on 2024-10-25; mpy-cross emitting mpy v6.3", "MicroPython"),
        ("CircuitPython 11.0.0 on 2026-11-01; mpy-cross emitting mpy v7", "cannot load"),
    ],
)
def test_a_compiler_whose_mpy_a_folder_cannot_load_is_refused(capsys, tmp_path, banner, why):
    other = make_compiler(tmp_path / "other", banner=banner)
    code, result, _err = make_bundle(capsys, tmp_path, mpy_cross=other)
    assert code == 1 and why in result["error"]
    assert not (tmp_path / "out").exists()


def test_a_folder_or_link_where_the_zip_goes_is_left_alone(capsys, tmp_path, compiler):
    (tmp_path / "out" / "bundle.zip").mkdir(parents=True)
    code, result, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 1 and "not a plain file" in result["error"]
    assert (tmp_path / "out" / "bundle.zip").is_dir()
    target = tmp_path / "mine.txt"
    target.write_text("mine")
    (tmp_path / "out" / "bundle.zip").rmdir()
    (tmp_path / "out" / "bundle.zip").symlink_to(target)
    code, result, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 1 and target.read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bundle.zip"]


def bundle_error(capsys, *argv):
    """bundle.main() as the command runs it: (exit status, stderr)."""
    code = bundle.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.err


def test_a_dist_that_is_a_file_is_one_error_line(capsys, tmp_path, compiler):
    """Issue 50.10: the default dist/ a file, or --out under a file: one line
    naming it, before any work (it was a traceback)."""
    source = game_copy(tmp_path / "game")
    (source / "dist").write_text("mine")
    code, err = bundle_error(capsys, "--source", source, "--mpy-cross", compiler)
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("error: cannot write the bundle ") and "dist' is not a folder" in err
    (tmp_path / "afile").write_text("mine")
    code, err = bundle_error(
        capsys, "--out", tmp_path / "afile" / "b" / "x.zip", "--mpy-cross", compiler
    )
    assert code == 1 and err.count("\n") == 1 and "afile' is not a folder" in err, err
    assert (source / "dist").read_text() == (tmp_path / "afile").read_text() == "mine"


def test_a_dist_that_may_not_be_written_is_one_error_line(capsys, tmp_path, compiler, monkeypatch):
    """Issue 50.10: a read-only dist (os.access says so, as for any user but
    root) is refused before any work; a write that fails all the same (a
    read-only file system) is one line too, and leaves nothing behind."""
    out = tmp_path / "dist" / "x.zip"
    out.parent.mkdir()
    real_access = os.access
    with monkeypatch.context() as patch:
        patch.setattr(
            os, "access", lambda path, mode: path != out.parent and real_access(path, mode)
        )
        patch.setattr(bundle, "find_compiler", lambda *a: pytest.fail("work before the check"))
        code, err = bundle_error(capsys, "--out", out, "--mpy-cross", compiler)
    assert code == 1 and err.count("\n") == 1 and "dist' may not be written" in err, err

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    code, err = bundle_error(capsys, "--out", out, "--mpy-cross", compiler)
    assert code == 1 and err.count("\n") == 1 and "Read-only file system" in err, err
    assert list(out.parent.iterdir()) == []


def test_an_old_zip_is_replaced_whole(capsys, tmp_path, compiler):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "bundle.zip").write_bytes(b"an older bundle")
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 0 and zipfile.is_zipfile(summary["zip"])
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bundle.zip"]


def test_without_the_board_libraries_no_bundle_is_made(capsys, tmp_path, compiler, monkeypatch):
    monkeypatch.setattr(board_imports, "library_paths", lambda: [])
    code, result, _err = make_bundle(capsys, tmp_path, mpy_cross=compiler)
    assert code == 2 and "requirements-device.txt" in result["error"]
    assert not (tmp_path / "out").exists()


def test_write_docs_puts_the_tree_and_the_sizes_between_the_marks(capsys, tmp_path, compiler):
    source = game_copy(tmp_path / "game")
    (source / "docs").mkdir()
    page = source / "docs" / "deploy.md"
    page.write_text("# Size\n\n<!-- bundle-tree:start -->x<!-- bundle-tree:end -->\n\n"
                    "<!-- sizes:start -->y<!-- sizes:end -->\nmine\n")  # fmt: skip
    code, summary, _err = make_bundle(capsys, tmp_path, "--source", source, "--write-docs",
                                      mpy_cross=compiler)  # fmt: skip
    assert code == 0, summary
    trees, said = deploy_docs.said(source)
    assert trees[0].startswith("\n\n```\nREADME.txt\nCircuitPython 9.x/\n  code.py\n")
    assert said["files"] == len(summary["files"]) - 1  # a PyGamer's: not the PyBadge's adapter
    assert said["bundle_files"] == len(summary["files"]) and said["seconds"] > 0
    assert page.read_text().startswith("# Size\n") and page.read_text().endswith("\nmine\n")
    page.write_text("# Size, no marks\n")
    out = tmp_path / "again.zip"
    code = bundle.main(["--source", str(source), "--mpy-cross", str(compiler), "--write-docs",
                        "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "<!-- bundle-tree:start -->" in err, err
    assert not out.exists()  # refused before any work


# ------------------------------------------------------------------ the VM


@pytest.mark.vm
def test_the_docs_say_what_the_bundle_and_a_deploy_hold(mpy_cross, capsys, tmp_path):
    """Issue 50.5: docs/deploy.md's tree of the bundle and its sizes are
    what ``bundle.py --write-docs`` writes of today's tree, with
    CircuitPython's mpy-cross: the tree and the counts exactly, the sizes
    within 2% (it said 44 files, 196 159 bytes where the bundle had 50 files,
    202 852 bytes)."""
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=mpy_cross)
    assert code == 0, summary
    compiler = compiler_info(mpy_cross)
    reporter = deploy_shared.Reporter(as_json=True)
    items = bundle.bundle_items(ROOT, compiler, reporter)
    board = deploy_plan.game_items(ROOT, "pygamer", compiler, reporter)
    trees, said = deploy_docs.said(ROOT)
    tree = deploy_docs.tree_text(items, [9, 10], bundle.folder_name, bundle.README_NAME)
    now = deploy_docs.sizes(board, items, summary["zip_bytes"])
    redo = "; run .venv/bin/python tools/bundle.py --write-docs"
    assert trees == [tree], "docs/deploy.md's tree of the bundle is not today's" + redo
    assert not deploy_docs.differences(said, now), (
        "docs/deploy.md's sizes: {}".format(deploy_docs.differences(said, now)) + redo
    )


@pytest.mark.vm
def test_the_bundle_plays_under_the_vm_from_its_own_folder(vm, mpy_cross, capsys, tmp_path):
    """The 10.x folder as an owner copies it, plus the VM's adapter (which no
    board has: it presses keys from a script), runs as a board runs: an
    American game kept in NVM is continued, a dozen moves are played, and the
    save holds where they lead."""
    code, summary, _err = make_bundle(capsys, tmp_path, mpy_cross=mpy_cross)
    assert code == 0, summary
    board = tmp_path / "CIRCUITPY"
    with zipfile.ZipFile(summary["zip"]) as zf:
        zf.extractall(tmp_path / "unzipped")
    (tmp_path / "unzipped" / FOLDERS[-1]).rename(board)
    bundled = snapshot(board)
    assert all(bundled[p][:2] == b"C\x06" for p in bundled if p.endswith(".mpy"))
    compiler = compiler_info(mpy_cross)
    reporter = deploy_shared.Reporter(as_json=True)
    with_vm = deploy_plan.game_items(ROOT, "pygamer", compiler, reporter, adapters=("vm",))
    for item in with_vm:
        if item.path not in bundled:
            assert item.path.startswith("hw/") and item.path.endswith(".mpy"), item.path
            (board / item.path).write_bytes(item.data)
    game = Game.new_deal(2, AMERICAN)
    env = kept_game(tmp_path / "nvm", game)
    writer = ScriptWriter(game)  # A on the title continues the kept game
    writer.play_some(12)
    env["BSQ_KEYS_FILE"] = str(keys_file(tmp_path, writer.text()))
    result = vm.run_board(board, heap="128K", env=env)
    assert "Traceback" not in result.stdout + result.stderr
    assert int(reported(result.stdout, "presses")) == len(writer.words)
    saved = load(Store(bytearray((tmp_path / "nvm").read_bytes())))
    assert position_text(saved) == position_text(writer.game)
    assert saved.history_end == writer.game.history_end > 0
