"""Run the benchmarks under CircuitPython's VM and print (or write) the table.

    python tools/bench.py [--heap 192K] [--runs 3] [--write-docs] [BENCH ...]

Every ``tests/bench/bench_*.py`` (or those named: ``engine``, ``ui``,
``heap``) runs under the VM named by ``CIRCUITPYTHON_VM`` (default
``../shared/vm/bin/circuitpython``) and prints JSON result lines (see
``tests/bench/benchlib.py``). With ``heap``, the game is then deployed with
``tools/deploy.py`` to a fake CIRCUITPY folder, compiled by ``MPY_CROSS``
(default ``../shared/vm/bin/mpy-cross``), and the heap bench runs again on
what a board would hold. All of it runs ``--runs`` times, one after another.
``latency`` runs ``tools/latency.py``: what each action a player takes
costs a SAMD51, from instructions counted under valgrind (exact, so once
is enough); ``--write-docs`` writes its table too.
``stress`` (only when named: it takes half an hour or more) runs
``tools/stress.py`` once: the smallest heap in which twenty long random
sessions play, collected as a board collects, and their peak live heap;
its outcomes are kept in ``build/stress-results.jsonl``, so that a run cut
short goes on where it stopped.

Costs are in empty-loop units; the table adds what each means on a 120 MHz
SAMD51 at 3.5 us per empty loop iteration. A cost is the median of its runs'
figures; "spread" is how widely one run's rounds ranged (the median over the
runs of benchlib's spread), "run to run" is (max - min) / min of the runs'
figures. Heap figures are the largest of the runs. ``--write-docs``
replaces the table in docs/benchmarks.md; the rows of benches that did not run are
kept as they were.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from const_inline import board_script

ROOT = Path(__file__).resolve().parents[1]
SAMD51_US_PER_LOOP = 3.5
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"
BOOT_OUT = "Adafruit CircuitPython 10.3.0 on 2026-11-01; Adafruit PyGamer with samd51j19\n"


def find_vm():
    vm = os.environ.get("CIRCUITPYTHON_VM") or str(SHARED_BIN / "circuitpython")
    if not os.access(vm, os.X_OK):
        sys.exit("bench: no CircuitPython VM at {!r} (set CIRCUITPYTHON_VM)".format(vm))
    return vm


def run_bench(vm, script, heap, path="lib:hw:tests/bench", env=None, cwd=ROOT):
    env = dict(os.environ, MICROPYPATH=path, **(env or {}))
    result = subprocess.run(
        [vm, "-X", "heapsize=" + heap, str(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        sys.exit("bench: {} failed:\n{}{}".format(script.name, result.stdout, result.stderr))
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def run_on_deployed(vm, heap):
    """The heap bench on the game as ``tools/deploy.py`` puts it on a PyGamer."""
    mpy_cross = os.environ.get("MPY_CROSS") or str(SHARED_BIN / "mpy-cross")
    if not os.access(mpy_cross, os.X_OK):
        print("bench: no mpy-cross (set MPY_CROSS): no .mpy heap figures", file=sys.stderr)
        return []
    with tempfile.TemporaryDirectory() as drive:
        Path(drive, "boot_out.txt").write_text(BOOT_OUT + "Board ID:pygamer\n")
        deploy = [sys.executable, str(ROOT / "tools" / "deploy.py"), "--drive", drive]
        subprocess.run(
            deploy + ["--mpy-cross", mpy_cross, "--no-fetch", "--json"],
            check=True,
            capture_output=True,
            text=True,
        )
        print("bench: running bench_heap.py on the deployed .mpy tree ...", file=sys.stderr)
        # beside its helper, rewritten as deploy rewrites the game (const_inline)
        bench = Path(drive, "bench")
        bench.mkdir()
        shutil.copy(ROOT / "tests" / "bench" / "benchpaths.py", bench)
        # the stand-ins for the board's C modules (audioio, neopixel_write ...)
        shutil.copytree(ROOT / "tests" / "vm" / "fakes", Path(drive, "vm", "fakes"))
        source = (ROOT / "tests" / "bench" / "bench_heap.py").read_text()
        script = bench / "bench_heap.py"
        script.write_text(board_script(source, ROOT))
        # from the drive's root by relative paths, as a board finds its modules:
        # an absolute path would intern each module's name a second time
        rows = run_bench(vm, Path("bench/bench_heap.py"), heap, "lib", {"BSQ_ROOT": "."}, drive)
    for row in rows:
        row["bench"] = "heap, deployed"
    return rows


IDLE_SECONDS = 10


def idle_run(vm, board, busy):
    """CPU seconds and loop turns of code.py under the VM resting on the cards
    for IDLE_SECONDS (``busy``: the loop as it was, never resting)."""
    import resource

    env = dict(os.environ, MICROPYPATH="")
    env.pop("BSQ_BUSY_LOOP", None)
    if busy:
        env["BSQ_BUSY_LOOP"] = "1"
    keys = "a wait:{}".format(IDLE_SECONDS * 1000)  # past the title, then no press
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [vm, "code.py", "--deal", "1", "--keys", keys],
        cwd=board, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    turns = int(result.stdout.split("turns:")[1].split()[0])
    return cpu, turns


def run_idle(vm):
    """Idle power: loop turns per idle second and CPU time per idle minute,
    resting as the boards do against the loop as it was (``BSQ_BUSY_LOOP``)."""
    mpy_cross = os.environ.get("MPY_CROSS") or str(SHARED_BIN / "mpy-cross")
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "tools"))
    from ui_runs import board_tree

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        board = board_tree(Path(folder) / "board", mpy_cross)
        print("bench: idle, {} s twice ...".format(IDLE_SECONDS), file=sys.stderr)
        for busy, name in ((False, "resting"), (True, "busy loop (before)")):
            cpu, turns = idle_run(vm, board, busy)
            rows.append(
                {
                    "bench": "idle",
                    "metric": "turns per idle second, " + name,
                    "value": round(turns / IDLE_SECONDS, 1),
                    "unit": "turns",
                    "note": "main-loop turns with no press, VM, {} s".format(IDLE_SECONDS),
                }
            )
            rows.append({"bench": "idle", "metric": "CPU per idle minute, " + name,
                         "value": round(cpu * 60 / IDLE_SECONDS, 2), "unit": "s",
                         "note": "VM process CPU (user + system), start-up included, "
                         "scaled from {} s".format(IDLE_SECONDS)})  # fmt: skip
    return rows


STRESS_RESULTS = ROOT / "build" / "stress-results.jsonl"


def run_stress():
    """tools/stress.py's result rows (its outcomes kept in STRESS_RESULTS)."""
    print("bench: stress, 20 long sessions in 128 KB and down ...", file=sys.stderr)
    STRESS_RESULTS.parent.mkdir(exist_ok=True)
    stress = [sys.executable, str(ROOT / "tools" / "stress.py"), "--json", "--jobs", "2"]
    result = subprocess.run(
        stress + ["--results", str(STRESS_RESULTS)], stdout=subprocess.PIPE, text=True
    )
    if result.returncode:
        sys.exit("bench: tools/stress.py failed")
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def combine(runs):
    """One row per metric from the rows of several runs (each a list of rows)."""
    by_metric = {}
    for rows in runs:
        for row in rows:
            by_metric.setdefault((row["bench"], row["metric"]), []).append(row)
    combined = []
    for seen in by_metric.values():
        values = [r["value"] for r in seen]
        middle = statistics.median(values)
        # the run nearest the median lends its note (a note may hold figures too)
        row = dict(min(seen, key=lambda r: abs(r["value"] - middle)))
        if "spread" in row:
            row["value"] = middle
            lows = [r["min"] for r in seen if "min" in r]
            if lows:
                row["min"] = min(lows)
            row["spread"] = statistics.median(r["spread"] for r in seen)
            if len(seen) > 1:
                row["run_to_run"] = (max(values) - min(values)) / min(values)
        elif row["unit"] == "bytes":
            row["value"] = max(values)
        combined.append(row)
    return combined


def percent(fraction):
    return "" if fraction is None else "{:.0f}%".format(100 * fraction)


def on_board(row):
    if row["unit"] != "loops":
        return ""
    ms = row["value"] * SAMD51_US_PER_LOOP / 1000
    return "{:.2f} ms".format(ms) if ms < 100 else "{:.1f} s".format(ms / 1000)


COLUMNS = ("bench", "metric", "value", "spread", "run to run", "on a SAMD51", "what")


def table(rows):
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        value = row["value"]
        if isinstance(value, float) and value == int(value) and row["unit"] != "ratio":
            value = int(value)
        cells = (
            row["bench"],
            row["metric"],
            "{} {}".format(value, row["unit"]),
            percent(row.get("spread")),
            percent(row.get("run_to_run")),
            on_board(row),
            row["note"],
        )
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
    return "\n".join(lines)


def number(text):
    return float(text) if "." in text else int(text)


def parse_table(text):
    """The rows of a table written by ``table``, spread and run to run included
    (as the whole percents the table shows), so that a partial run rewrites
    the rows it did not measure as they were."""
    rows = []
    for line in text.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        value, unit = cells[2].split(" ", 1)
        row = {
            "bench": cells[0],
            "metric": cells[1],
            "value": number(value),
            "unit": unit,
            "note": cells[-1],
        }
        for key, cell in (("spread", cells[3]), ("run_to_run", cells[4])):
            if cell:
                row[key] = int(cell.rstrip("%")) / 100
        rows.append(row)
    return rows


TABLE_PAGE = ROOT / "docs" / "benchmarks.md"  # where --write-docs puts the table


def docs_table():
    content = TABLE_PAGE.read_text()
    if START not in content or END not in content:
        sys.exit("bench: docs/benchmarks.md has no {} ... {} block".format(START, END))
    head, rest = content.split(START, 1)
    body, tail = rest.split(END, 1)
    return head, body.strip(), tail


def merged(old_rows, new_rows):
    """``new_rows``, and the old rows of every bench they do not cover, in the
    old order (the new rows where the first replaced one stood)."""
    covered = {row["bench"] for row in new_rows}
    rows = []
    for row in old_rows:
        if row["bench"] not in covered:
            rows.append(row)
        elif new_rows:
            rows += new_rows
            new_rows = []
    return rows + new_rows


def write_docs(rows):
    head, body, tail = docs_table()
    text = table(merged(parse_table(body), rows))
    TABLE_PAGE.write_text(head + START + "\n" + text + "\n" + END + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap", default="192K", help="VM heap size (default 192K)")
    parser.add_argument("--runs", type=int, default=3, help="runs of every bench (default 3)")
    parser.add_argument(
        "--write-docs", action="store_true", help="update the table in docs/benchmarks.md"
    )
    parser.add_argument(
        "benches",
        nargs="*",
        help="engine, text, ui, heap, layout, idle, latency (default: all), stress (only by name)",
    )
    args = parser.parse_args()
    scripts = sorted((ROOT / "tests" / "bench").glob("bench_*.py"))
    names = [script.stem[len("bench_") :] for script in scripts]
    extra = ["idle", "latency", "stress"]
    unknown = [name for name in args.benches if name not in names + extra]
    if unknown or args.runs < 1:
        every = ", ".join(names + extra)
        parser.error("benches are {}; --runs at least 1".format(every))
    if args.benches:
        scripts = [s for s, name in zip(scripts, names) if name in args.benches]
    vm = find_vm()
    runs = []
    for run in range(args.runs):
        rows = []
        for script in scripts:
            print(
                "bench: run {} of {}: {} ...".format(run + 1, args.runs, script.name),
                file=sys.stderr,
            )
            rows += run_bench(vm, script, args.heap)
        if any(script.stem == "bench_heap" for script in scripts):
            rows += run_on_deployed(vm, args.heap)
        if not args.benches or "idle" in args.benches:
            rows += run_idle(vm)
        runs.append(rows)
    rows = combine(runs)
    if "stress" in args.benches:  # the same sessions each time: run once
        rows += run_stress()
    print(table(rows))
    if args.write_docs:
        write_docs(rows)
    if not args.benches or "latency" in args.benches:  # counted, not timed: one run is exact
        print("bench: latency, instructions counted under callgrind ...", file=sys.stderr)
        latency = [sys.executable, str(ROOT / "tools" / "latency.py")]
        if args.write_docs:
            latency.append("--write-docs")
        if subprocess.run(latency).returncode:
            sys.exit("bench: tools/latency.py failed")


if __name__ == "__main__":
    main()
