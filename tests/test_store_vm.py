"""The store under CircuitPython's VM: a save allocates nothing, and a VM
killed at random moments while saving resumes the last save that completed."""

import importlib.util
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import LIB, ROOT

from british_square.engine import Game
from british_square.notation import position_text

MEASURE = ROOT / "tests" / "vm" / "store_measure.py"
CRASH = ROOT / "tests" / "vm" / "store_crash.py"
BENCH = ROOT / "tests" / "bench"
TICKS = Path(importlib.util.find_spec("adafruit_ticks").origin)
LINE = 40  # as store_crash.py


def mpy_tree(mpy_cross, folder):
    """The game package and adafruit_ticks compiled to .mpy, as a board holds them."""
    package = folder / "british_square"
    package.mkdir(parents=True)
    for source in (LIB / "british_square").glob("*.py"):
        target = package / (source.stem + ".mpy")
        subprocess.run([mpy_cross, "-o", str(target), str(source)], check=True)
    subprocess.run([mpy_cross, "-o", str(folder / "adafruit_ticks.mpy"), str(TICKS)], check=True)
    return folder


@pytest.mark.vm
def test_a_save_allocates_nothing_and_the_store_fits_its_heap(vm, mpy_cross, tmp_path):
    tree = mpy_tree(mpy_cross, tmp_path / "board")
    out = vm.run(MEASURE, heap="192K", path=(tree, BENCH)).stdout
    figures = dict(line.split(" ", 1) for line in out.splitlines())
    for case in ("none", "typical", "longest", "beyond"):
        assert figures["alloc_save_" + case] == "0", out
    assert figures["alloc_policy_due"] == "0"
    assert figures["dropped_beyond"] == "1112"  # 1500 moves, 388 kept
    assert figures["resumed"] == "True 7 2"
    # about 7 KB in this plain tree, where its record layout's constants are
    # public names (deploy makes them private: about 3.6 KB in the game), a
    # qstr pool chunk of about 2.4 KB included (it lands on whichever module needs it)
    assert int(figures["heap_store_module"]) < 10000, out
    assert int(figures["heap_store_object"]) < 1600, out  # the 1 KB record buffer and its kin


def expected_positions():
    """Position text of save id k is ``positions[k % LINE]``."""
    game = Game.new_deal(9)
    buf = bytearray(612)
    positions = []
    for _ in range(LINE):
        positions.append(position_text(game))
        game.legal_moves(buf)
        game.play(buf[0] << 8 | buf[1])
    return positions


@pytest.mark.vm
def test_a_vm_killed_at_random_while_saving_resumes_the_last_completed_save(vm, tmp_path):
    """200 short runs, each killed (SIGKILL) at a random moment of a loop of
    saves; each run first loads what the last one left. It must be the last
    save that completed, the one under way (finished, not yet reported), or,
    when the kill caught the VM between truncating its NVM file and writing
    it (the VM's erase), a fresh start from an empty file."""
    # In memory where the machine has it (/dev/shm): on a disk, truncating the
    # file takes the VM so long that most kills would land in that window.
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    nvm_file = folder / "nvm.bin"
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join((str(LIB), str(TICKS.parent)))
    env["CIRCUITPY_NVM_FILE"] = str(nvm_file)
    positions = expected_positions()
    rng = random.Random(10)
    last_saved = 0  # the id of the last save a run reported complete (0: none yet)
    size_after_kill = 0
    outcomes = {"last": 0, "under way": 0, "fresh": 0}
    started = time.monotonic()
    runs = 200
    for run in range(runs):
        process = subprocess.Popen(
            [vm.binary, "-X", "heapsize=192K", str(CRASH)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        time.sleep(rng.uniform(0.05, 0.2))
        process.kill()
        out, err = process.communicate()
        lines = out.split("\n")[:-1]  # whole lines: the kill may cut the last one short
        if not lines:  # killed before it had even loaded: it wrote nothing
            outcomes["before loading"] = outcomes.get("before loading", 0) + 1
            continue
        assert lines[0].startswith("loaded "), (run, out, err)
        _, found, notice, position = lines[0].split(" ", 3)
        found = int(found)
        if found == -1:
            assert last_saved == 0 or size_after_kill < 8192, (run, last_saved)
            assert notice == "0"  # an emptied file reads as a new board
            outcomes["fresh"] += run > 0
        else:
            assert found in (last_saved, last_saved + 1), (run, found, last_saved)
            assert notice == "0"
            assert position == positions[found % LINE]
            outcomes["last" if found == last_saved else "under way"] += 1
        saved = [int(line.split()[1]) for line in lines[1:] if line.startswith("saved ")]
        last_saved = saved[-1] if saved else max(found, 0)
        size_after_kill = nvm_file.stat().st_size if nvm_file.exists() else 0
    if folder != tmp_path:
        shutil.rmtree(folder)
    assert outcomes["last"] + outcomes["under way"] >= runs // 4, outcomes
    assert time.monotonic() - started < 120
    print("outcomes of", runs, "kills:", outcomes)


@pytest.mark.vm
def test_the_crash_script_runs_from_mpy_like_a_board(vm, mpy_cross, tmp_path):
    tree = mpy_tree(mpy_cross, tmp_path / "board")
    shutil.copy(CRASH, tmp_path / "crash.py")
    env = {"CIRCUITPY_NVM_FILE": str(tmp_path / "nvm.bin")}
    process = subprocess.Popen(
        [vm.binary, "-X", "heapsize=64K", str(tmp_path / "crash.py")],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "MICROPYPATH": str(tree), **env},
    )
    time.sleep(0.5)
    process.kill()
    lines = process.communicate()[0].splitlines()
    assert lines[0] == "loaded -1 0 -" and len(lines) > 5
