"""The VM tier's plumbing: our package imports and runs under CircuitPython."""

import os
import subprocess

from british_square import cards

SCRIPT = """
import gc
import sys
import british_square
from british_square import cards
print(sys.implementation.name)
print(british_square.__version__)
print(" ".join(cards.card_name(c) for c in (0, 12, 13, 38, 51)))
print(cards.parse_card("10h"))
gc.collect()
print(gc.mem_free() + gc.mem_alloc())
"""


def test_cards_module_runs_under_circuitpython(vm, tmp_path):
    out = vm.run_code(SCRIPT, tmp_path, heap="192K").stdout.split()
    assert out[0] == "circuitpython"
    assert out[2:7] == ["AC", "KC", "AS", "KH", "KD"]
    assert out[2:7] == [cards.card_name(c) for c in (0, 12, 13, 38, 51)]
    assert int(out[7]) == cards.parse_card("TH") == 35
    # the heap we asked for, less the allocator's own bookkeeping
    assert 180 * 1024 < int(out[8]) <= 192 * 1024


def test_the_vm_and_its_mpy_cross_run_from_any_folder(vm, mpy_cross, tmp_path):
    """docs/testing.md names them by paths relative to the repository
    (``../shared/vm/bin/...``); tests start them from other folders (a
    board's tree, a scratch one), and so do the tools that read
    ``MPY_CROSS``: conftest made the paths absolute once (issue 50.4)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert vm.run_code('print("ran")', tmp_path, cwd=elsewhere).stdout.split() == ["ran"]
    for tool in (vm.binary, mpy_cross, os.environ["MPY_CROSS"]):
        assert os.path.isabs(tool), tool
    version = subprocess.run(
        [os.environ["MPY_CROSS"], "--version"], cwd=elsewhere, capture_output=True, text=True
    )
    assert "CircuitPython" in version.stdout
