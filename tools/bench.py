"""Run the benchmarks under CircuitPython's VM and print (or write) the table.

    python tools/bench.py [--heap 192K] [--write-readme]

Every ``tests/bench/bench_*.py`` runs under the VM named by
``CIRCUITPYTHON_VM`` (default ``../shared/vm/bin/circuitpython``) and prints
JSON result lines (see ``tests/bench/benchlib.py``). Then the game is
deployed with ``tools/deploy.py`` to a fake CIRCUITPY folder, compiled by
``MPY_CROSS`` (default ``../shared/vm/bin/mpy-cross``), and the heap bench
runs again on what a board would hold. Costs are in empty-loop units; the
table adds what each means on a 120 MHz SAMD51 at 3.5 us per empty loop
iteration. ``--write-readme`` replaces the table in README.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMD51_US_PER_LOOP = 3.5
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"
BOOT_OUT = "Adafruit CircuitPython 10.3.0 on 2026-11-01; Adafruit PyGamer with samd51j19\n"


def find_vm():
    vm = os.environ.get("CIRCUITPYTHON_VM") or str(SHARED_BIN / "circuitpython")
    if not os.access(vm, os.X_OK):
        sys.exit("bench: no CircuitPython VM at {} (set CIRCUITPYTHON_VM)".format(vm))
    return vm


def run_bench(vm, script, heap, path="lib:hw:tests/bench", env=None):
    env = dict(os.environ, MICROPYPATH=path, **(env or {}))
    result = subprocess.run(
        [vm, "-X", "heapsize=" + heap, str(script)],
        cwd=ROOT,
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
        script = ROOT / "tests" / "bench" / "bench_heap.py"
        rows = run_bench(vm, script, heap, drive + "/lib", {"BSQ_ROOT": drive})
    for row in rows:
        row["bench"] = "heap, deployed"
    return rows


def on_board(row):
    if row["unit"] != "loops":
        return ""
    ms = row["value"] * SAMD51_US_PER_LOOP / 1000
    return "{:.2f} ms".format(ms) if ms < 100 else "{:.1f} s".format(ms / 1000)


def table(rows):
    lines = [
        "| bench | metric | value | on a SAMD51 | what |",
        "|---|---|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            "| {bench} | {metric} | {value} {unit} | {board} | {note} |".format(
                board=on_board(row), **row
            )
        )
    return "\n".join(lines)


def write_readme(text):
    readme = ROOT / "README.md"
    content = readme.read_text()
    if START not in content or END not in content:
        sys.exit("bench: README.md has no {} ... {} block".format(START, END))
    head, rest = content.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(head + START + "\n" + text + "\n" + END + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap", default="192K", help="VM heap size (default 192K)")
    parser.add_argument("--write-readme", action="store_true", help="update README.md's table")
    args = parser.parse_args()
    vm = find_vm()
    rows = []
    for script in sorted((ROOT / "tests" / "bench").glob("bench_*.py")):
        print("bench: running {} ...".format(script.name), file=sys.stderr)
        rows += run_bench(vm, script, args.heap)
    rows += run_on_deployed(vm, args.heap)
    text = table(rows)
    print(text)
    if args.write_readme:
        write_readme(text)


if __name__ == "__main__":
    main()
