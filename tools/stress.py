"""Long random sessions under CircuitPython's VM, and the smallest heap that plays them.

    python tools/stress.py [--seeds 20] [--presses 3000] [--heaps 128,120,112,104,96,88] [--json]

Builds the game as deploy puts it on a PyGamer (``.mpy``, with the VM
adapter), then plays ``--seeds`` random sessions (tests/sessions.py: deals
of each rule set in turn, one in five winning an American deal first) in each heap
of ``--heaps``, largest first, until one fails. Prints each session's peak
live heap (``gc.mem_alloc()`` between presses, from an empty heap) and the
smallest heap in which every session played through. The CI runs four such
sessions at 128 KB (tests/test_stress_vm.py); this is the longer run the
README's figures come from.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tools"))

from sessions import session_args, session_script  # noqa: E402
from ui_runs import board_tree, reported  # noqa: E402

SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"


def run_session(vm, board, folder, seed, presses, heap):
    """One session; its outcome as a dict."""
    keys = Path(folder) / "keys-{}.txt".format(seed)
    if not keys.exists():
        keys.write_text(session_script(seed, presses))
    result = subprocess.run(
        [vm, "-X", "heapsize=" + heap, "code.py", *session_args(seed), "--keys-file", str(keys)],
        cwd=board,
        capture_output=True,
        text=True,
        env=dict(os.environ, MICROPYPATH=""),
        timeout=1800,
    )
    out = {"seed": seed, "heap": heap, "ok": result.returncode == 0}
    if out["ok"]:
        out["peak_live"] = int(reported(result.stdout, "peak_live"))
        out["presses"] = int(reported(result.stdout, "presses"))
        out["screens"] = reported(result.stdout, "screens").split()
    else:
        out["error"] = (
            result.stderr.strip().splitlines() or ["exit {}".format(result.returncode)]
        )[-1]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--presses", type=int, default=3000)
    parser.add_argument("--heaps", default="128,120,112,104,96,88", help="KB, largest first")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="result lines for tools/bench.py")
    args = parser.parse_args()
    vm = os.environ.get("CIRCUITPYTHON_VM") or str(SHARED_BIN / "circuitpython")
    mpy_cross = os.environ.get("MPY_CROSS") or str(SHARED_BIN / "mpy-cross")
    for tool in (vm, mpy_cross):
        if not os.access(tool, os.X_OK):
            sys.exit("stress: no {} (set CIRCUITPYTHON_VM and MPY_CROSS)".format(tool))
    rows = []
    smallest = None
    with tempfile.TemporaryDirectory() as folder:
        board = board_tree(Path(folder) / "board", mpy_cross)
        for kb in args.heaps.split(","):
            heap = kb.strip() + "K"
            with ThreadPoolExecutor(args.jobs) as pool:
                outcomes = list(
                    pool.map(
                        lambda seed, heap=heap: run_session(
                            vm, board, folder, seed, args.presses, heap
                        ),
                        range(args.seeds),
                    )
                )
            failed = [o for o in outcomes if not o["ok"]]
            peaks = [o["peak_live"] for o in outcomes if o["ok"]]
            print(
                "stress: {} sessions in {}: {} failed; peak live {}".format(
                    args.seeds, heap, len(failed), max(peaks) if peaks else "-"
                ),
                file=sys.stderr,
            )
            for o in failed:
                print("  seed {}: {}".format(o["seed"], o["error"]), file=sys.stderr)
            if failed:
                break
            smallest = heap
            rows = outcomes
    if not rows:
        sys.exit("stress: sessions failed even in the largest heap")
    deals = [o["peak_live"] for o in rows if o["seed"] % 5 != 4]
    winning = [o["peak_live"] for o in rows if o["seed"] % 5 == 4]
    screens = set().union(*(o["screens"] for o in rows))
    summary = [
        ("smallest_heap", int(smallest[:-1]) * 1024, "bytes",
         "every one of {} sessions of {} presses plays through".format(args.seeds, args.presses)),
        ("peak_live_deals", max(deals), "bytes",
         "most heap in use between presses, sessions of a random deal"),
        ("peak_live_won", max(winning) if winning else 0, "bytes",
         "sessions that first win American deal 113 (the survey's line)"),
        ("screens_seen", len(screens), "screens", " ".join(sorted(screens))),
    ]  # fmt: skip
    for metric, value, unit, note in summary:
        if args.json:
            print(json.dumps({"bench": "stress", "metric": metric, "value": value,
                              "unit": unit, "note": note}))  # fmt: skip
        else:
            print("{:<20} {:>8} {:<8} {}".format(metric, value, unit, note))


if __name__ == "__main__":
    main()
