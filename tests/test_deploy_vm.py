"""The deployed tree runs: tools/deploy.py puts the real repository on a fake
CIRCUITPY drive with CircuitPython's own mpy-cross, and the CircuitPython VM
runs the deployed ``.mpy`` files (never the sources) with a PyGamer's 192 KB heap.
"""

import json
import shutil
import subprocess
import sys
import urllib.request

import pytest
from conftest import LIB, ROOT
from drives import (
    UI_IMPORTS,
    UI_LIBRARIES,
    USER_FILES,
    cut_at_every_change,
    deploy_quietly,
    write_tree,
)
from drives import make_drive as make_fake_drive

sys.path.insert(0, str(ROOT / "tools"))
import board_imports  # noqa: E402
import const_inline  # noqa: E402
import deploy  # noqa: E402
import deploy_plan  # noqa: E402
import deploy_shared  # noqa: E402

BOARD_VERSION = "10.0.3"  # the VM's CircuitPython line

# Deterministic play through the engine's public API; prints one line per game
# and, last, where the modules came from and the free heap.
GAME_SCRIPT = """
import gc
import british_square
from british_square import engine
from british_square.engine import MAX_MOVES, Game
from british_square.piles import AMERICAN, BRITISH, UNION, move


def cards(game):
    # every card of the position, pile by pile, through the engine's readers
    # (the text formats stay off a board)
    out = []
    for c in range(game.columns):
        out.append(game.base_count(c))
        out += [game.card(c, i) for i in range(game.column_height(c))]
    out += [game.stock_card(k) for k in range(game.stock_count)]
    out += [game.waste_card(k) for k in range(game.waste_count)]
    return bytes(out + list(game.foundations)).hex()


def play(number, rules, buffer):
    game = Game.new_deal(number, rules)
    for step in range(150):
        count = game.legal_moves(buffer)
        if not count:
            break
        pick = (step * 5 + number) % count
        game.push(move(buffer[2 * pick], buffer[2 * pick + 1]))
        if step % 9 == 8:
            game.undo()
            game.undo()
            game.redo()
    return "{} {} {} {}".format(number, game.score(), game.status(), cards(game))


buffer = bytearray(2 * MAX_MOVES)
for rules in (BRITISH, AMERICAN, UNION):
    for number in (1, 617, 31999):
        print(play(number, rules, buffer))
print("FILES", british_square.__file__, engine.__file__)
gc.collect()
print("FREE", gc.mem_free() if hasattr(gc, "mem_free") else "-")
"""

# Imports every module deployed under lib/ (the game's and the libraries'),
# as the game's screens do on the board, and reports the free heap.
IMPORT_ALL = """
import gc
import os


def modules(folder, prefix):
    for name in sorted(os.listdir(folder)):
        path = folder + "/" + name
        if os.stat(path)[0] & 0x4000:
            yield from modules(path, prefix + name + ".")
        else:
            stem, _dot, suffix = name.rpartition(".")
            if suffix in ("mpy", "py") and stem != "__init__":
                yield prefix + stem


for name in modules(LIB, ""):
    __import__(name)
gc.collect()
print("IMPORTED", len(list(modules(LIB, ""))), "FREE", gc.mem_free())
"""


def make_drive(path):
    return make_fake_drive(path, version=BOARD_VERSION)


def deploy_to(drive, *argv):
    args = ["--drive", str(drive), "--source", str(ROOT), "--json", *map(str, argv)]
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "deploy.py"), *args],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(drive.parent)},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def deployed(mpy_cross, tmp_path_factory):
    """The repository deployed with CircuitPython's mpy-cross: (drive, summary)."""
    drive = make_drive(tmp_path_factory.mktemp("media") / "CIRCUITPY")
    return drive, deploy_to(drive, "--mpy-cross", mpy_cross)


def test_deployed_tree_is_mpy_only_with_circuitpythons_header(deployed):
    drive, summary = deployed
    assert summary["format"] == "mpy" and summary["board"] == "pygamer"
    sources = sorted(p.relative_to(drive).as_posix() for p in drive.rglob("*.py"))
    assert sources == ["code.py"]  # the board runs code.py, never code.mpy
    compiled = sorted(drive.rglob("*.mpy"))
    assert compiled and all(p.read_bytes()[:2] == b"C\x06" for p in compiled)
    on_drive = {p.relative_to(drive).as_posix() for p in compiled}
    closure = board_imports.import_closure(ROOT, "pygamer")
    game_modules = {m.drive_path[:-3] + ".mpy" for m in closure.modules if m.kind == "game"}
    assert game_modules == {p for p in on_drive if p.startswith("lib/british_square/")}
    # nothing on the board imports the desktop's command line or its key scripts
    desktop_only = {"lib/british_square/{}.mpy".format(n) for n in ("__main__", "keyscript")}
    assert not desktop_only & on_drive
    hw_modules = {
        "hw/pygamer.mpy",
        "hw/handheld.mpy",
        "hw/speaker.mpy",
        "hw/lights.mpy",
    }
    assert {p for p in on_drive if p.startswith("hw/")} == hw_modules
    manifest = json.loads((drive / deploy_shared.MANIFEST).read_text())
    assert set(manifest["files"]) == on_drive | {"code.py"} | {
        p.relative_to(drive).as_posix()
        for p in (*drive.rglob("*.bmp"), *drive.rglob("*.txt"), *drive.rglob("*.bin"))
        if p.name != "boot_out.txt"
    }


def test_deployed_engine_plays_a_scripted_game_like_cpython(vm, deployed, tmp_path):
    drive, _summary = deployed
    # On the drive's root, as on a board: the script's folder and lib/ are the path.
    script = drive / "play_check.py"
    script.write_text(const_inline.board_script(GAME_SCRIPT, ROOT))
    try:
        out = vm.run(script, heap="192K", path=(drive / "lib",)).stdout.splitlines()
    finally:
        script.unlink()
    reference = tmp_path / "play_check.py"
    reference.write_text(GAME_SCRIPT)
    cpython = subprocess.run(
        [sys.executable, str(reference)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(LIB)},
    ).stdout.splitlines()
    assert len(out) == 9 + 2 and out[:9] == cpython[:9]
    assert len(set(out[:9])) == 9  # nine different games
    files = out[9].split()[1:]
    assert all(f.startswith(str(drive / "lib")) and f.endswith(".mpy") for f in files)
    print("engine game from .mpy, free heap of 192K:", out[10].split()[1])


def test_every_deployed_module_imports_within_192k(vm, deployed, tmp_path):
    drive, _summary = deployed
    out = vm.run_code(
        "LIB = {!r}\n".format(str(drive / "lib")) + IMPORT_ALL,
        tmp_path,
        heap="192K",
        path=(drive / "lib",),
    ).stdout.split()
    print("imported", out[1], "deployed modules (.mpy), free heap:", out[3])
    assert int(out[1]) >= 10


def test_a_deploy_of_the_real_tree_cut_anywhere_leaves_a_whole_game_or_no_code_py(
    mpy_cross, tmp_path, monkeypatch, capsys
):
    # the repository, then a version of it with three modules and the words changed
    v2 = tmp_path / "v2"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in ("lib", "hw"):
        shutil.copytree(ROOT / part, v2 / part, ignore=ignore)
    shutil.copy(ROOT / "code.py", v2)
    package = v2 / "lib" / "british_square"
    changed = ("app.py", "engine.py", "store.py", "words.txt")
    for name in changed:
        extra = "\n" if name.endswith(".txt") else "\nV2 = 2\n"
        (package / name).write_text((package / name).read_text() + extra)
    v1 = make_drive(tmp_path / "v1" / "CIRCUITPY")
    write_tree(v1, USER_FILES)
    deploy_quietly(v1, ROOT, mpy_cross, tmp_path / "cache", capsys)
    calls = cut_at_every_change(v1, v2, mpy_cross, tmp_path, monkeypatch, capsys)
    touched = {call.split()[1].removesuffix(deploy_shared.TEMP_SUFFIX) for call in calls}
    on_drive = {"lib/british_square/" + n.replace(".py", ".mpy") for n in changed}
    assert touched == on_drive | {"code.py", deploy_shared.MANIFEST}


def test_mpy_cross_fetched_into_the_cache_is_used(mpy_cross, tmp_path, monkeypatch, capsys):
    # what the download would bring, served from the local copy: there is no network here
    served = []

    def serve(url, timeout=None):
        served.append(url)
        return open(mpy_cross, "rb")

    monkeypatch.setattr(urllib.request, "urlopen", serve)
    monkeypatch.delenv("MPY_CROSS", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    drive = make_drive(tmp_path / "CIRCUITPY")
    cache = tmp_path / "cache"
    argv = ["--drive", str(drive), "--source", str(ROOT), "--cache-dir", str(cache), "--json"]
    assert deploy.main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    expected = cache / "mpy-cross-{}".format(BOARD_VERSION)
    assert summary["format"] == "mpy" and summary["mpy_cross"] == str(expected)
    assert all(p.read_bytes()[:2] == b"C\x06" for p in drive.rglob("*.mpy"))
    assert len(served) == 1 and BOARD_VERSION in served[0]


def smallest_heap_kb(vm, tmp_path, lib):
    """The smallest heap (in KB, to 1 KB) in which every module under ``lib`` imports."""
    script = tmp_path / "import_all.py"
    script.write_text("LIB = {!r}\n".format(str(lib)) + IMPORT_ALL)
    low, high = 16, 192
    while low < high:
        middle = (low + high) // 2
        result = vm.run(script, heap="{}K".format(middle), path=(lib,), check=False)
        if result.returncode == 0:
            high = middle
        else:
            low = middle + 1
    return low


def test_mpy_deploy_needs_less_heap_than_py_sources(vm, deployed, tmp_path):
    """Why deploy refuses without mpy-cross: the same tree as .py sources,
    compiled by the board at import, needs more heap."""
    drive, _summary = deployed
    py_drive = tmp_path / "py"
    deploy_plan.build_board_tree("pygamer", py_drive)
    assert not list(py_drive.rglob("*.mpy"))
    mpy_kb = smallest_heap_kb(vm, tmp_path, drive / "lib")
    py_kb = smallest_heap_kb(vm, tmp_path, py_drive / "lib")
    print("import everything: .mpy needs {} KB of heap, .py needs {} KB".format(mpy_kb, py_kb))
    assert mpy_kb < py_kb <= 192


# A small game whose package imports the UI's libraries as the game does; its
# code.py shows a grid of both labels and says where each module came from.
UI_GAME = {
    "code.py": (
        "import sys\n"
        'sys.path.insert(0, "lib")  # as on a board, where /lib is on the path\n'
        "from british_square import ui\n"
        "ui.show()\n"
        'for name in ("adafruit_display_text.label", "adafruit_display_text.bitmap_label",\n'
        '             "adafruit_displayio_layout.layouts.grid_layout"):\n'
        "    print(name, sys.modules[name].__file__)\n"
    ),
    "hw/pygamer.py": "",
    "lib/british_square/__init__.py": '__version__ = "0"\n',
    "lib/british_square/ui.py": UI_IMPORTS
    + (
        "import board\n"
        "import terminalio\n"
        "\n"
        "\n"
        "def show():\n"
        "    grid = GridLayout(x=0, y=0, width=160, height=128, grid_size=(2, 1))\n"
        '    grid.add_content(label.Label(terminalio.FONT, text="A"), (0, 0), (1, 1))\n'
        '    grid.add_content(Label(terminalio.FONT, text="B"), (1, 0), (1, 1))\n'
        "    board.DISPLAY.root_group = grid\n"
        "    board.DISPLAY.refresh()\n"
    ),
}


def test_deployed_ui_libraries_import_on_the_boards_path(vm, mpy_cross, tmp_path):
    game = write_tree(tmp_path / "game", UI_GAME)
    tree = tmp_path / "board"
    items = deploy_plan.build_board_tree("pygamer", tree, source=game, mpy_cross=mpy_cross)
    libraries = {item.path for item in items if item.kind == "library"}
    assert libraries == UI_LIBRARIES
    out = vm.run_board(tree, heap="128K").stdout.splitlines()
    files = dict(line.split() for line in out)
    assert files == {
        "adafruit_display_text.label": "lib/adafruit_display_text/label.mpy",
        "adafruit_display_text.bitmap_label": "lib/adafruit_display_text/bitmap_label.mpy",
        "adafruit_displayio_layout.layouts.grid_layout": (
            "lib/adafruit_displayio_layout/layouts/grid_layout.mpy"
        ),
    }
