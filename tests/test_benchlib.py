"""The benchmarks' measuring method (tests/bench/benchlib.py), on CPython.

Benchmarks report figures; these tests check how the figures are taken, never
what they come to on this machine.
"""

import json
import sys
import time

import pytest
from conftest import ROOT, grouped

sys.path.insert(0, str(ROOT / "tests" / "bench"))
sys.path.insert(0, str(ROOT / "tools"))
import bench  # noqa: E402
import benchlib  # noqa: E402


def work():
    """A fixed piece of Python work to measure."""
    total = 0
    for i in range(200):
        total += i
    return total


class SlowingClock:
    """``time.monotonic_ns`` of a machine that runs at full speed for the first
    ``reads`` clock reads, then at half speed: every nanosecond after that
    counts twice. Shared machines change speed like this under other load.
    ``cpu`` is the matching CPU clock: the process never loses the CPU."""

    def __init__(self, reads):
        self.reads_left = reads
        self.last = time.monotonic_ns()
        self.now = 0

    def __call__(self):
        real = time.monotonic_ns()
        factor = 1 if self.reads_left > 0 else 2
        self.now += (real - self.last) * factor
        self.last = real
        self.reads_left -= 1
        return self.now

    def cpu(self):
        return self.now


def test_cost_holds_when_the_machine_slows_after_calibration(monkeypatch):
    # the slow-down comes right after the first loop-unit batches: a unit
    # taken once up front then makes every later cost look twice as large
    steady = benchlib.measure(work, 20).value
    clock = SlowingClock(reads=6)
    monkeypatch.setattr(benchlib, "_now_ns", clock)
    monkeypatch.setattr(benchlib, "_cpu_ns", clock.cpu)
    slowed = benchlib.measure(work, 20).value
    assert 0.7 < slowed / steady < 1.4, (steady, slowed)


def test_rounds_that_lost_the_cpu_are_left_out():
    ms = 1000000
    rounds = [(10.0, 0), (11.0, ms), (30.0, 5 * ms), (12.0, -ms), (10.5, 0), (11.5, 2 * ms)]
    assert benchlib.undisturbed(rounds) == [10.0, 11.0, 12.0, 10.5, 11.5]
    # too few undisturbed rounds: all count (the spread shows the noise)
    assert benchlib.undisturbed(rounds[:3]) == [10.0, 11.0, 30.0]


def test_measure_reports_median_lowest_and_spread(monkeypatch):
    measured = benchlib.measure(work, 20, rounds=9)
    # nine rounds; on a busy machine more are taken (up to MORE_ROUNDS times) and
    # the disturbed ones are left out, keeping at least MIN_ROUNDS
    assert benchlib.MIN_ROUNDS <= len(measured.ratios) <= benchlib.MORE_ROUNDS * 9
    assert measured.low == min(measured.ratios)
    assert measured.low <= measured.value <= max(measured.ratios)
    assert measured.spread >= 0


@pytest.mark.parametrize(
    ("ratios", "value", "low", "spread"),
    [
        ([10.0], 10.0, 10.0, 0.0),
        ([12.0, 10.0, 11.0], 11.0, 10.0, 2 / 11),
        ([10.0, 11.0, 12.0, 13.0, 500.0], 12.0, 10.0, 2 / 12),  # an outlier moves nothing
        ([4.0, 1.0, 3.0, 2.0], 2.5, 1.0, 1 / 2.5),
    ],
)
def test_summary_is_median_and_quartile_spread(ratios, value, low, spread):
    measured = benchlib.Measured(ratios)
    assert measured.value == pytest.approx(value)
    assert measured.low == low
    assert measured.spread == pytest.approx(spread)


def test_measured_per_divides_the_figures_not_the_spread():
    measured = benchlib.Measured([30.0, 33.0, 36.0, 39.0, 42.0]).per(3)
    assert measured.value == pytest.approx(12.0)
    assert measured.low == pytest.approx(10.0)
    assert measured.spread == pytest.approx(6 / 36)


def test_mean_of_averages_rank_by_rank():
    measured = benchlib.mean_of(
        [benchlib.Measured([3.0, 1.0, 2.0]), benchlib.Measured([4.0, 5.0, 3.0, 9.0])]
    )
    # ranks 0, 1, 2 of each: (1, 2, 3) and (3, 4, 5) -> (2, 3, 4)
    assert measured.ratios == [2.0, 3.0, 4.0]
    assert measured.value == 3.0


def run_rows(deal_cost, spread, heap):
    return [
        {
            "bench": "b",
            "metric": "deal",
            "value": deal_cost,
            "unit": "loops",
            "note": "n{}".format(deal_cost),
            "min": deal_cost - 10,
            "spread": spread,
        },
        {"bench": "b", "metric": "heap", "value": heap, "unit": "bytes", "note": "n"},
    ]


def test_runs_combine_to_median_cost_and_largest_heap():
    rows = bench.combine(
        [run_rows(100, 0.1, 700), run_rows(130, 0.3, 720), run_rows(110, 0.2, 690)]
    )
    assert [row["metric"] for row in rows] == ["deal", "heap"]
    assert rows[0]["value"] == 110
    assert rows[0]["note"] == "n110"  # the median run's note
    assert rows[0]["min"] == 90
    assert rows[0]["spread"] == 0.2
    assert rows[0]["run_to_run"] == pytest.approx(0.3)
    assert rows[1]["value"] == 720


def test_a_ratio_may_carry_a_spread_without_a_lowest_round():
    ratio = {"bench": "b", "metric": "r", "value": 0.08, "unit": "ratio", "note": "", "spread": 0.1}
    rows = bench.combine([[ratio], [dict(ratio, value=0.1)]])
    assert "min" not in rows[0]
    assert rows[0]["value"] == pytest.approx(0.09)


def test_table_shows_spread_for_timed_rows_only():
    rows = bench.combine([run_rows(100, 0.123, 704), run_rows(104, 0.1, 704)])
    lines = bench.table(rows).splitlines()
    cells = [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines]
    assert cells[0][2:5] == ["value", "spread", "run to run"]
    assert cells[2][2:5] == ["102 loops", "11%", "4%"]
    assert cells[3][2:5] == ["704 bytes", "", ""]


def test_readme_table_reads_back_and_keeps_the_benches_that_did_not_run():
    written = bench.table(bench.combine([run_rows(100, 0.1, 704), run_rows(104, 0.2, 704)]))
    old = bench.parse_table(written)
    assert bench.table(old) == written  # a row kept is written back as it was, spreads too
    assert old[1] == {"bench": "b", "metric": "heap", "value": 704, "unit": "bytes", "note": "n"}
    other = [dict(row, bench="other") for row in old]
    new = [dict(old[0], value=90)]
    rows = bench.merged(other[:1] + old + other[1:], new)
    assert [(row["bench"], row["value"]) for row in rows] == [
        ("other", 102),
        ("b", 90),
        ("other", 704),
    ]


def test_engine_bench_reports_every_cost_with_its_rounds(vm):
    result = vm.run(
        ROOT / "tests/bench/bench_engine.py",
        path=(ROOT / "lib", ROOT / "tests/bench"),
        cwd=ROOT,
    )
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    timed = [row for row in rows if row["unit"] in ("loops", "ns")]
    # the loop unit; deal, moves, apply+undo, reading the position, dead test
    assert len(timed) == 1 + 3 * 5
    for row in timed:
        assert 0 < row["min"] <= row["value"], row
        assert row["spread"] >= 0, row


def test_memory_md_weighs_the_layout_library_with_the_benchmarks_figures():
    # issue 48.5: the library goes, argued with figures; these are the table's
    _, table, _ = bench.docs_table()
    rows = {(row["bench"], row["metric"]): row["value"] for row in bench.parse_table(table)}
    module = rows[("layout", "GridLayout module")]
    grid = rows[("layout", "statistics grid")]
    peak = rows[("heap, deployed", "peak")]
    text = " ".join((ROOT / "docs" / "memory.md").read_text().split())

    left = 122880 - peak
    assert left < module, "the library would fit now: give it the statistics grid"
    assert "holds {} B, and a `GridLayout` of that grid".format(grouped(module)) in text
    assert "{} B more".format(grouped(grid)) in text
    weighed = "deployed peak is {} B of the 122 880 B budget, {} B left, where the import alone "
    weighed += "needs {} B"
    assert weighed.format(grouped(peak), grouped(left), grouped(module)) in text


@pytest.mark.vm
def test_the_layout_bench_runs_on_the_vm_and_reports_both_rows(vm):
    out = vm.run(ROOT / "tests" / "bench" / "bench_layout.py", cwd=ROOT).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [row["metric"] for row in rows] == ["GridLayout module", "statistics grid"]
    assert all(row["bench"] == "layout" and row["value"] > 1000 for row in rows)
