"""tools/latency.py: counted, so the same run to run, and calibrated by pystone.

Runs the VM under valgrind's callgrind, strace and gdb (the VM tier;
skipped, saying so, without the VM, its mpy-cross or those tools, unless
the tool can install them itself: it does as root, with apt-get).
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

TOOL = ROOT / "tools" / "latency.py"
sys.path.insert(0, str(ROOT / "tools"))
import board_cost  # noqa: E402
import latency  # noqa: E402


@pytest.fixture
def counted(vm, mpy_cross):
    """``counted(*rows)``: the tool's JSON lines for the scripts of those rows."""
    if os.geteuid() != 0 and not all(shutil.which(t) for t in ("valgrind", "strace", "gdb")):
        pytest.skip("no valgrind, strace or gdb (apt-get install them): latency counts skipped")
    env = dict(os.environ, CIRCUITPYTHON_VM=vm.binary, MPY_CROSS=mpy_cross)

    def run(*rows):
        result = subprocess.run(
            [sys.executable, str(TOOL), "--json", *rows],
            capture_output=True, text=True, env=env, timeout=900,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return {line["metric"]: line for line in map(json.loads, result.stdout.splitlines())}

    return run


def test_a_press_is_counted_the_same_every_run_and_calibrated(counted):
    first, again = counted("first undo after resuming"), counted("first undo after resuming")
    calibration = first["pystone pass"]
    # a pystone pass: tens of thousands of instructions, 657 us on a SAMD51
    assert 30_000 < calibration["value"] < 80_000
    assert calibration["value"] == again["pystone pass"]["value"]
    undo = first["first undo after resuming"]
    assert undo["target"] == latency.PRESS and undo["instructions"] > 100_000
    # the board's total is the VM's, the flash's and the display's
    parts = undo["vm_ms"] + undo["flash_ms"] + undo["spi_ms"]
    assert abs(undo["value"] - parts) <= 0.2
    assert undo["pixels"] > 0 and undo["spi_ms"] > 0
    start = first["start-up, the longest game kept from its deal"]
    assert start["sectors"] > 100 and start["flash_ms"] > 1  # the imports read the flash
    assert start["pixels"] >= 160 * 128  # the title, every pixel
    # counted, not timed: the same instructions, sectors and pixels on an idle
    # machine; under load the VM's background ticks follow the wall clock and
    # move a count by a few hundred instructions (0.02%)
    for name, row in first.items():
        if name == "pystone pass":
            continue
        assert abs(row["instructions"] - again[name]["instructions"]) <= row["instructions"] // 1000
        assert row["sectors"] == again[name]["sectors"] and row["pixels"] == again[name]["pixels"]


def test_the_display_bus_is_priced_at_24_mhz_with_a_window_a_piece():
    turn = board_cost.Turn()
    turn.pixels, turn.pieces = 160 * 128, 128  # a full frame, a row a piece
    assert round(turn.spi_ms(), 2) == 14.12  # 13.65 ms of pixels, 0.47 of windows


def test_the_flash_is_what_fatfs_runs_beyond_the_vms_wrappers_and_its_sector_reads():
    turn = board_cost.Turn()
    turn.file = {"reads": 10, "seeks": 10, "fatfs_instructions": 10 * 85 + 1000,
                 "sector_reads": 2}  # fmt: skip
    assert turn.flash_ms(10.0) == pytest.approx(1000 * 10 / 1e6 + 2 * 0.030)


def test_every_row_is_a_press_of_its_script_and_every_script_starts_with_no_press():
    for script in latency.scripts():
        assert script.writer.words[0].startswith("wait:")
        numbers = [number for number, row in script.rows if not row.frames]
        assert len(set(numbers)) == len(numbers)
        assert all(0 <= number <= script.presses() for number in numbers)


# A callgrind dump as the counting run writes it (--dump-instr=no): the VM's
# call of a function (0x10) takes a frame from the heap (0x20, allocation
# 0x30 and the free 0x40 under it), once setting off a collection (0x50).
DUMP = """events: Ir
fn=(1) 0x10
0 100
cfn=(2) 0x20
calls=3 0
0 900
cfn=(3) 0x40
calls=3 0
0 60
cfn=(6) 0x60
calls=1 0
0 500
fn=(2)
0 30
cfn=(4) 0x30
calls=3 0
0 870
fn=(4)
0 270
cfn=(5) 0x50
calls=1 0
0 600
fn=(6)
0 200
cfn=(5)
calls=1 0
0 300
fn=(5)
0 900
summary: 1560
"""
FRAMES = ["0x10", "0x20", "0x40", "0x30", "0x20", "0x40"]  # caller, its two calls, then the heap's
COLLECT = ["0x50"]


def test_the_heap_frames_only_the_vm_takes_are_counted_out_but_not_the_collections(tmp_path):
    dump = tmp_path / "t.callgrind"
    dump.write_text(DUMP)
    edges = board_cost.call_edges(dump)
    assert edges[("0x10", "0x20")] == [3, 900] and edges[("0x30", "0x50")] == [1, 600]
    # the frames' allocations and frees (900 + 60), less the collection one
    # of them set off (600, kept in: a board collects at another allocation),
    # less the pystack's 20 instructions for each of the 3 frames; the
    # collection under another call (0x60's) is no frame's
    hidden = board_cost.frame_instructions(dump, FRAMES, COLLECT)
    assert hidden == 900 + 60 - 600 - 3 * board_cost.PYSTACK_INSTRUCTIONS
    assert board_cost.frame_instructions(dump, ["0x10", "0x99", "0x98"], COLLECT) == 0


def test_the_docs_figures_are_the_last_runs_written_by_the_tool():
    # benchmarks.md's tables and the README's summary come from
    # docs/bench/latency.jsonl (``--write-docs`` writes all three): no figure
    # typed by hand, none left from an earlier run
    results = [json.loads(line) for line in latency.RESULTS.read_text().splitlines()]
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for doc, (start, end), text in (
        (benchmarks, (latency.START, latency.END), latency.table(results)),
        (benchmarks, (latency.BEFORE_START, latency.BEFORE_END), latency.before_after(results)),
        (readme, (latency.SUMMARY_START, latency.SUMMARY_END), latency.summary(results)),
    ):
        assert doc[doc.index(start) + len(start) : doc.index(end)] == "\n" + text + "\n"
