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
