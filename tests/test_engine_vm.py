"""The engine behaves identically under CircuitPython and CPython."""

import subprocess
import sys

from conftest import LIB, ROOT

PLAYOUT = ROOT / "tests" / "vm" / "playout.py"
DEALS = 30


def cpython_lines(*args):
    result = subprocess.run(
        [sys.executable, str(PLAYOUT), *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(LIB)},
    )
    return result.stdout.splitlines()


def test_playouts_identical_under_circuitpython_with_64k_heap(vm):
    vm_lines = vm.run(PLAYOUT, 1, DEALS, heap="64K").stdout.splitlines()
    cpython = cpython_lines(1, DEALS)
    assert len(cpython) == 3 * DEALS
    for rules in ("british", "american", "union"):
        assert sum(line.startswith(rules + " ") for line in cpython) == DEALS
    # every game moved, and the games differ from each other
    assert all(int(line.split()[2]) > 0 for line in cpython)
    assert len(set(cpython)) == len(cpython)
    assert vm_lines == cpython


ENGINE_API = ROOT / "tests" / "vm" / "engine_api.py"
BENCH = ROOT / "tests" / "bench"  # benchlib, for its heap measure
ENGINE_MODULES = (
    "__init__",
    "cards",
    "deal",
    "piles",
    "engine",
    "search",
    "desktop/__init__",
    "desktop/notation",
)


def check_engine_api(lines):
    assert len(lines) == 10, lines
    # a shuffle is small-int arithmetic: its talon alone, not 14 KB of long ints
    assert int(lines[-1].split()[1]) <= 160, lines[-1]
    for rules in range(3):
        assert "readers_alloc {} 0".format(rules) in lines  # a redraw's reads cost no heap
        assert "refused {} 9 True".format(rules) in lines  # bools included: no int subclass here
        assert "played {} True".format(rules) in lines


def test_the_readers_allocate_nothing_and_play_refuses_non_moves_on_the_vm(vm):
    check_engine_api(vm.run(ENGINE_API, heap="64K", path=(LIB, BENCH)).stdout.splitlines())


def test_the_type_hinted_engine_compiles_with_mpy_cross_and_runs_from_mpy(vm, mpy_cross, tmp_path):
    package = tmp_path / "british_square"
    for name in ENGINE_MODULES:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                mpy_cross,
                "-o",
                str(package / (name + ".mpy")),
                str(LIB / "british_square" / (name + ".py")),
            ],
            check=True,
        )
    result = vm.run(ENGINE_API, heap="64K", path=(tmp_path, BENCH))
    check_engine_api(result.stdout.splitlines())
    files = vm.run_code(
        "import british_square.engine as e\nprint(e.__file__)\n", tmp_path, path=(tmp_path,)
    ).stdout
    assert files.strip().endswith("engine.mpy")
