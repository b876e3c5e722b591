"""Long random sessions under CircuitPython's VM: the smallest heap that plays them, and their peak.

    nice python tools/stress.py [--seeds 20] [--presses 3000] [--heaps 128,120,...]
        [--pass-runs 1] [--peak-runs 3] [--peak-heap KB] [--collect board|measuring]
        [--jobs 1] [--keep-going] [--results FILE] [--json]

Builds the game as deploy puts it on a PyGamer (``.mpy``, with the VM
adapter) and plays ``--seeds`` random sessions (tests/sessions.py: deals of
each rule set, some winning American deal 113 first, some resuming the
longest saves) in each heap of ``--heaps``, largest first, until one fails:
the smallest heap in which every session played through, and every larger
one in the list (``--pass-runs`` times each, to see that a heap's outcome
holds from run to run). In a heap where a session fails, the sessions not
yet begun are not run (with ``--jobs 2`` two fail and the rest go unrun):
``--keep-going`` runs them all, to count how many fail. Those runs collect
as a board does (hw/vm.py: only where the game itself collects, and when
an allocation finds no room); with
``--collect measuring`` they collect at every turn instead, as the harness
did before (to compare). Then every session plays ``--peak-runs`` times
more in the largest heap (or ``--peak-heap``) with ``BSQ_MEASURE_LIVE=1``,
which collects between presses to read the live heap: the peak live
figures, the most of those runs and how far apart they lay (the waits run
on the real clock, so what the game does in them could vary). The heap is
``gc.mem_alloc()`` from an empty VM heap, nothing subtracted.

``--results FILE`` makes a run resumable: each session's outcome is added
to FILE (JSON lines) as it ends, keyed by a digest of what it ran (the
board tree, the VM, the options, the key script, the save, the heap, the
collection, the run), and a later run with the same FILE reuses the
outcomes whose digest it finds. A session of 3 000 presses takes about
10 s of CPU time; twenty, on two busy cores with ``--jobs 2``, about six
minutes a heap.

Prints a summary table, or with ``--json`` result lines for tools/bench.py.
The CI runs a handful of these sessions at 128 KB (tests/test_stress_vm.py).
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tools"))

from sessions import session_env, session_kind, session_script  # noqa: E402
from ui_runs import board_tree, reported  # noqa: E402

SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"
HEAPS = "128,120,112,104,96,88,80,72"
BOARD_FREE = 150 * 1024  # about what a PyGamer has free after boot
COLLECTIONS = ("board", "measuring")
# The engine's legal moves share one scratch array across games (a board
# holds one, not one a game), so the sessions' games are played out one
# thread at a time: two threads at once made an illegal move.
_PLAYING = threading.Lock()


def file_digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tree_digest(folder):
    """One digest of every file of a tree, names and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class Sessions:
    """Runs sessions in one board tree, and keeps their outcomes (in the
    results file, when there is one)."""

    def __init__(self, vm, board, folder, presses, results=None, known=None):
        self.vm = vm
        self.board = board
        self.folder = Path(folder)
        self.presses = presses
        self.results = results
        self.known = known or {}
        self.base = tree_digest(board) + file_digest(vm)

    def run(self, seed, heap, collection, repeat=0):
        """One session (``repeat``: the how-manieth time it plays in the same
        heap and collection, from 0); its outcome as a dict, from the results
        file if it has it."""
        keys = self.folder / "keys-{}.txt".format(seed)
        nvm = self.folder / "nvm-{}-{}-{}".format(seed, heap, collection)
        nvm.mkdir(exist_ok=True)
        with _PLAYING:
            if not keys.exists():
                keys.write_text(session_script(seed, self.presses))
            # no options, as a board runs; the script's path from the drive's
            # root is the same string on the heap in every run, wherever the folder is
            env = session_env(seed, nvm, os.path.relpath(keys, self.board))  # a fresh save
        saved = Path(env["CIRCUITPY_NVM_FILE"]).read_bytes()
        what = " ".join([self.base, heap, collection, str(self.presses), env["BSQ_KEYS_FILE"]])
        if repeat:
            what += " repeat {}".format(repeat)
        key = hashlib.sha256(what.encode() + keys.read_bytes() + saved).hexdigest()
        if key in self.known:
            return self.known[key]
        if collection == "measuring":
            env["BSQ_MEASURE_LIVE"] = "1"
        started = time.monotonic()
        result = subprocess.run(
            [self.vm, "-X", "heapsize=" + heap, "code.py"],
            cwd=self.board,
            capture_output=True,
            text=True,
            env=dict(os.environ, MICROPYPATH="", **env),
            timeout=1800,
        )
        out = outcome(result, self.presses, collection)
        out.update(key=key, seed=seed, heap=heap, collection=collection, repeat=repeat)
        out["seconds"] = round(time.monotonic() - started, 1)
        if self.results is not None:
            with self.results.open("a") as f:
                f.write(json.dumps(out) + "\n")
        self.known[key] = out
        return out

    def batch(self, seeds, heap, collection, jobs, repeat=0, keep_going=False):
        """Every seed in ``heap``; after a failure, the sessions not yet begun
        are not run, unless ``keep_going`` (to count how many fail)."""
        failed = []

        def one(seed):
            if failed and not keep_going:
                return None
            out = self.run(seed, heap, collection, repeat)
            if not out["ok"]:
                failed.append(out)
            return out

        with ThreadPoolExecutor(jobs) as pool:
            return [out for out in pool.map(one, seeds) if out is not None]


def outcome(result, presses, collection):
    """What a session's VM run says: played through (every press, in the
    collection asked for), with its peak and screens, or the error."""
    out = {"ok": False}
    if result.returncode:
        # the exception and the innermost frame it came from (the VM prints
        # a traceback on standard output; code.py's error lines go to stderr)
        lines = (result.stdout + result.stderr).strip().splitlines()
        frames = [line.strip() for line in lines if line.strip().startswith("File ")]
        last = lines[-1:] or ["exit {}".format(result.returncode)]
        out["error"] = " / ".join(last + frames[-1:])
        return out
    try:
        played = int(reported(result.stdout, "presses"))
        mode = reported(result.stdout, "collection")
        peak = reported(result.stdout, "peak_live")
        screens = reported(result.stdout, "screens").split()
    except AssertionError:
        out["error"] = "no report at the end"
        return out
    if played < presses or mode != collection:
        out["error"] = "{} presses, collection {}".format(played, mode)
        return out
    out.update(ok=True, screens=screens)
    if collection == "measuring":
        out["peak_live"] = int(peak)
    return out


def read_results(path):
    """The outcomes the results file ``path`` holds, by key (a new file is
    made empty). Exits with one line when it cannot be read or made, or is
    not a results file: it is never written to then."""
    try:
        with path.open("a+") as f:  # made if missing, never truncated
            f.seek(0)
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        fail("cannot use {!r} as a results file: {}".format(str(path), error))
    known = {}
    for number, line in enumerate(text.splitlines(), 1):
        try:
            out = json.loads(line)
            fields = (out["key"], out["ok"], out["seed"], kb(out["heap"]))
            if list(map(type, fields)) != [str, bool, int, int]:
                raise ValueError
            known[out["key"]] = out
        except (ValueError, KeyError, TypeError):
            fail("{!r} line {} is not a stress result".format(str(path), number))
    return known


def fail(message, status=2):
    print("error: " + message, file=sys.stderr)
    sys.exit(status)


def kb(heap):
    return int(heap[:-1])


PEAK_GROUPS = (
    ("peak_live", ("british", "american", "union", "won", "resume-deal", "resume-start"),
     "all sessions"),
    ("peak_live_deals", ("british", "american", "union"), "sessions of a random deal"),
    ("peak_live_won", ("won",), "sessions that first win American deal 113 (the survey's line)"),
    ("peak_live_resumed", ("resume-deal", "resume-start"),
     "sessions that resume a 400-move save or a start-position save"),
)  # fmt: skip


def summary(seeds, presses, collection, passing, failing, peak_runs, tried=0):
    """The result rows (tools/bench.py's): the smallest heap, and the peak
    live heap of each kind of session, the most of ``peak_runs`` (lists of
    outcomes) with how far apart the runs' figures lay."""
    how = "collecting as a board" if collection == "board" else "collecting every turn"
    smallest = kb(passing[0]["heap"]) * 1024
    failure = "all pass in the smallest heap tried"
    if failing:
        first = min(failing, key=lambda o: o["seed"])
        failure = "in {}B {} of the {} sessions run fail, first seed {} ({}): {}".format(
            first["heap"], len(failing), tried or len(failing), first["seed"],
            session_kind(first["seed"]), first["error"],
        )  # fmt: skip
    name = "smallest_heap" if collection == "board" else "smallest_heap, collecting every turn"
    note = "each of {} sessions of {} presses plays, {}; {}".format(seeds, presses, how, failure)
    rows = [row(name, smallest, "bytes", note)]
    if collection == "board":
        note = "a PyGamer's ~150 KB free after boot, less the smallest heap"
        rows.append(row("board_margin", BOARD_FREE - smallest, "bytes", note))
    for metric, kinds, what in PEAK_GROUPS:
        figures = [
            max((o["peak_live"] for o in run if session_kind(o["seed"]) in kinds), default=0)
            for run in peak_runs
        ]
        if figures and min(figures):
            note = "live heap between presses (BSQ_MEASURE_LIVE), {}, in {}B, most of {} runs"
            rows.append(row(metric, max(figures), "bytes",
                            note.format(what, peak_runs[0][0]["heap"], len(figures))))  # fmt: skip
            if len(figures) > 1:
                rows[-1]["run_to_run"] = (max(figures) - min(figures)) / min(figures)
    screens = set().union(*(o["screens"] for o in passing + peak_runs[0]))
    rows.append(row("screens_seen", len(screens), "screens", " ".join(sorted(screens))))
    return rows


def row(metric, value, unit, note):
    return {"bench": "stress", "metric": metric, "value": value, "unit": unit, "note": note}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--presses", type=int, default=3000)
    parser.add_argument("--heaps", default=HEAPS, help="KB, largest first (default %(default)s)")
    parser.add_argument("--peak-heap", type=int, help="KB of the measuring runs (default: largest)")
    parser.add_argument("--jobs", type=int, default=1, help="sessions at once (default 1)")
    parser.add_argument("--results", type=Path, help="JSON lines file: keep and reuse outcomes")
    parser.add_argument("--collect", choices=COLLECTIONS, default="board",
                        help="how the pass/fail runs collect (default: as a board)")  # fmt: skip
    parser.add_argument("--pass-runs", type=int, default=1,
                        help="runs of each session in each heap (default 1)")  # fmt: skip
    parser.add_argument("--peak-runs", type=int, default=3,
                        help="measuring runs of each session (default 3)")  # fmt: skip
    parser.add_argument("--keep-going", action="store_true",
                        help="where a session fails, run the others too (to count)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="result lines for tools/bench.py")
    args = parser.parse_args()
    try:
        heaps = [str(int(h)) + "K" for h in args.heaps.split(",")]
    except ValueError:
        parser.error("--heaps takes KB numbers, e.g. 128,120,112")
    peak_heap = "{}K".format(args.peak_heap or kb(heaps[0]))
    counts = (args.seeds, args.presses, args.jobs, args.pass_runs, args.peak_runs)
    if min(counts) < 1 or heaps != sorted(heaps, key=kb)[::-1]:
        parser.error("--seeds, --presses, --jobs and runs at least 1; --heaps largest first")
    known = read_results(args.results) if args.results else {}
    vm = os.environ.get("CIRCUITPYTHON_VM") or str(SHARED_BIN / "circuitpython")
    mpy_cross = os.environ.get("MPY_CROSS") or str(SHARED_BIN / "mpy-cross")
    for tool in (vm, mpy_cross):
        if not os.access(tool, os.X_OK):
            fail("no {} (set CIRCUITPYTHON_VM and MPY_CROSS)".format(tool))
    seeds = range(args.seeds)
    started = time.monotonic()
    passing, failing, tried = [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        board = board_tree(Path(folder) / "board", mpy_cross)
        runs = Sessions(vm, board, folder, args.presses, args.results, known)
        for heap in heaps:
            failed = []
            for repeat in range(args.pass_runs):
                outcomes = runs.batch(
                    seeds, heap, args.collect, args.jobs, repeat, args.keep_going
                )
                failed = [o for o in outcomes if not o["ok"]]
                # after a failure the sessions not yet begun are not run: say how many were
                print("stress: {} sessions in {}B, collecting {}, run {}: {}".format(
                    args.seeds, heap, args.collect, repeat + 1,
                    "{} of the {} run failed".format(len(failed), len(outcomes))
                    if failed else "all played through",
                ), file=sys.stderr)  # fmt: skip
                for o in failed:
                    print("  seed {}: {}".format(o["seed"], o["error"]), file=sys.stderr)
                if failed:
                    break
            if failed:
                failing, tried = failed, len(outcomes)
                break
            passing = outcomes
        if not passing:
            fail("sessions fail even in {}B".format(heaps[0]), 1)
        peak_runs = []
        for repeat in range(args.peak_runs):
            peaks = runs.batch(seeds, peak_heap, "measuring", args.jobs, repeat)
            broken = [o for o in peaks if not o["ok"]]
            if broken:
                fail("measuring in {}B, seed {}: {}".format(
                    peak_heap, broken[0]["seed"], broken[0]["error"]), 1)  # fmt: skip
            peak_runs.append(peaks)
    lines = summary(args.seeds, args.presses, args.collect, passing, failing, peak_runs, tried)
    for line in lines:
        if args.json:
            print(json.dumps(line))
        else:
            spread = line.get("run_to_run")
            spread = "" if spread is None else "(runs {:.2%} apart) ".format(spread)
            print("{metric:<20} {value:>8} {unit:<8} ".format(**line) + spread + line["note"])
    print("stress: {:.0f} s".format(time.monotonic() - started), file=sys.stderr)


if __name__ == "__main__":
    main()
