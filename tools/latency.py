"""What a press costs on a board: instructions counted under CircuitPython's VM.

    python tools/latency.py [--repeats 8] [--write-docs] [--json] [ACTION ...]

Wall-clock time on a shared machine moves up to 3x with its load, so this
counts instead. The game runs as deploy puts it on a PyGamer (``.mpy``, the
VM's adapter, no options, its save in a fresh NVM file) under valgrind's
callgrind, which counts the x86 instructions the VM executes; the adapter's
virtual clock (``BSQ_TURN_MS``) moves a fixed step at each reading and
never sleeps, so a run is the same instructions every time.

An action's cost is the difference between two key scripts, the same setup
followed by the action once and by the action ``1 + repeats`` times,
divided by ``repeats``: the setup, the start-up and the first time (a
module's first import, a first read of a file) cancel out, and what is left
is the action as a player repeats it, its redraw into the VM's framebuffer
included.

Instructions become SAMD51 time through pystone (``tests/bench/pystone.py``),
counted the same way in the same run: CircuitPython's published 1 521.6
passes/s on a Metro M4 (120 MHz) make a pass 657 us, so a SAMD51 takes
657 us / (instructions a pass) for an instruction (about 14 ns). The
estimate counts the VM's C rendering but not the SPI bus (at least 13.7 ms
for a full frame at 24 MHz) nor flash waits: a board is slower still.

Needs the VM (``CIRCUITPYTHON_VM``), its ``mpy-cross`` (``MPY_CROSS``) and
valgrind (Debian's ``valgrind``: installed with apt-get when missing and
this runs as root, else it says how). ``--write-docs`` puts the table in
docs/benchmarks.md; ``--json`` prints result lines for tools/bench.py.
"""

import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tools"))

from scripting import ScriptWriter, route  # noqa: E402
from sessions import long_game  # noqa: E402
from ui_runs import board_tree, kept_game  # noqa: E402
from words_text import body  # noqa: E402

from british_square.desktop.games import legal_moves  # noqa: E402
from british_square.desktop.notation import parse_position  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.layout import Layout  # noqa: E402
from british_square.piles import BRITISH, STOCK, move_source, move_target  # noqa: E402

SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"
PYSTONE = ROOT / "tests" / "bench" / "pystone.py"
PYSTONE_US = 1e6 / 1521.6  # a pass on a Metro M4 (SAMD51, 120 MHz)
HEAP = "150K"  # about what a PyGamer has free after boot
TURN_MS = 20  # the virtual clock's step at each reading
DEAL = 10
START, END = "<!-- latency:start -->", "<!-- latency:end -->"
MENU = [line.split("{")[0] for line in body("menu")]


def menu_row(name):
    return MENU.index(name)


class Case:
    """One action: ``setup`` words from the title, then ``action`` (the
    words of one repeat, which count as ``presses`` of it); ``game``: the
    game the NVM keeps at the start (``None``: a fresh NVM, the first
    start); ``target``: ms on a SAMD51, or ``None``."""

    def __init__(self, name, setup, action, target, what, presses=1, game="deal", turn_ms=TURN_MS):
        self.name = name
        self.setup = setup
        self.action = action
        self.target = target
        self.what = what
        self.presses = presses
        self.game = game
        self.turn_ms = turn_ms


def deal_game():
    return Game.new_deal(DEAL, BRITISH)


def cases():
    """The actions measured, on British deal 10 unless said."""
    layout = Layout(4)
    steps = route(layout, 0, layout.stock_stop)
    stock = " ".join(("up", "down", "left", "right")[d] for d in steps)
    writer = ScriptWriter(deal_game(), title=False)
    game = writer.game
    while not any(move_target(m) < 4 and move_source(m) < 4 for m in legal_moves(game)):
        writer.move(next(m for m in legal_moves(game) if move_source(m) == STOCK))
    setup = "a " + writer.text()
    writer.words = []
    writer.move(next(m for m in legal_moves(game) if move_target(m) < 4 and move_source(m) < 4))
    writer.undo()
    writer.go(layout.stock_stop)
    move_undo = writer.text()
    return [
        Case("cursor move", "a", "right left", 16, "a step of the cursor on the cards", 2),
        Case("deal from the stock", "a " + stock, "a", 16, "A on the stock: a card to the waste"),
        Case("undo", "a {} a*9".format(stock), "select", 16, "Select: the last deal taken back"),
        Case("pick up, put back", "a", "a b", 16, "A on a column's card, B puts it back", 2),
        Case("a move and its undo, a press", setup, move_undo, 16,
             "a card to another column (A, walk, A), Select, back to the stock: "
             "the mean of its {} presses".format(len(move_undo.split())),
             len(move_undo.split())),
        Case("menu step (no scroll)", "a start", "down up", 16, "the bar a row down, a row up", 2),
        Case("menu step, scrolling", "a start", "down*16 up*16", 30,
             "a walk down and up all 17 rows (8 show), a step", 32),
        Case("cards, menu, cards", "a", "start b", 200, "Start, then B: back to the cards"),
        Case("menu, help, menu", "a start down*{}".format(menu_row("Help")), "a a", 200,
             "A on Help, A back to the menu"),
        Case("menu, statistics, menu", "a start down*{}".format(menu_row("Statistics")), "a b",
             200, "A on Statistics, B back to the menu"),
        Case("menu, about, menu", "a start down*{}".format(menu_row("About")), "a b", 200,
             "A on About, B back to the menu"),
        Case("new game, back to the menu", "a start down", "a start down", 300,
             "A on New game (a surveyed deal), Start, a step to New game"),
        Case("hint", "a", "start down*{} a b".format(menu_row("Hint")), None,
             "Start, down to Hint, A (the card is picked up, its target lit), B"),
        Case("won screen, a frame", "a b", "wait:1000", 16,
             "the kings' celebration, a 50 ms frame: the mean of 20 in a second",
             1000 // 50, game="won", turn_ms=50),
        Case("a resting turn", "a", "wait:1000", None,
             "the main loop with nothing to do, before its 15 ms sleep: a turn of 50 in a"
             " second of the virtual clock", 1000 // TURN_MS),
        Case("start-up, first start", "", "", 1000,
             "code.py to its first screen, fresh NVM (less the VM's own start)", game=None),
        Case("resume a 400-move save", "", "", None,
             "start-up with a British game of 400 moves kept, over one with none", game="long"),
    ]


def find_tool(env_name, default):
    tool = os.environ.get(env_name) or str(default)
    if not os.access(tool, os.X_OK):
        sys.exit("latency: no {} (set {})".format(tool, env_name))
    return tool


def find_valgrind():
    """valgrind's path, installed from Debian's packages when missing and root."""
    found = shutil.which("valgrind")
    if found:
        return found
    if shutil.which("apt-get") and os.geteuid() == 0:
        print("latency: installing valgrind (apt-get) ...", file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], check=False, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "valgrind"], check=False,
                       capture_output=True)  # fmt: skip
        found = shutil.which("valgrind")
        if found:
            return found
    sys.exit("latency: needs valgrind: apt-get install valgrind (Debian, Ubuntu)")


class Counter:
    """Runs the VM under callgrind and returns the instructions it executed."""

    def __init__(self, valgrind, vm, folder):
        self.valgrind = valgrind
        self.vm = vm
        self.folder = Path(folder)
        self.runs = itertools.count(1)

    def count(self, args, cwd, env=None):
        run = next(self.runs)
        out = self.folder / "callgrind-{}.out".format(run)
        result = subprocess.run(
            [self.valgrind, "--tool=callgrind", "--callgrind-out-file=" + str(out),
             self.vm, "-X", "heapsize=" + HEAP, *args],
            cwd=cwd, env=dict(os.environ, MICROPYPATH="", **(env or {})),
            capture_output=True, text=True,
        )  # fmt: skip
        if result.returncode:
            sys.exit("latency: {} failed:\n{}{}".format(args, result.stdout, result.stderr[-3000:]))
        found = re.search(r"^summary: (\d+)", out.read_text(), re.M)
        out.unlink()
        return int(found.group(1))


def pystone_instructions(counter):
    """Instructions of one pystone pass."""
    few, many = 200, 1200
    low = counter.count([str(PYSTONE), str(few)], PYSTONE.parent)
    high = counter.count([str(PYSTONE), str(many)], PYSTONE.parent)
    return (high - low) / (many - few)


def make_saves(folder, kinds):
    """The NVM files the runs start from, one for each kind of kept game
    (``Case.game``), made before any run: runs at once must not race to
    write one. Each run copies its own, since the game saves into it."""
    games = {
        "deal": deal_game,
        "won": lambda: parse_position("british AC/-/-/- - - 25,26,26,26"),
        "long": lambda: long_game(BRITISH, 8, 400),
        "empty": lambda: Game.new_deal(8, BRITISH),  # the long one's deal, no moves
    }
    if "long" in kinds:  # measured over the same deal with nothing kept
        kinds = kinds | {"empty"}
    saves = {}
    for kind in sorted(kinds):
        saves[kind] = Path(folder) / "kept-{}.nvm".format(kind)
        kept_game(saves[kind], games[kind]())
    return saves


def run_script(counter, board, folder, case, words, save, run="once"):
    """Instructions of code.py playing ``words`` from the NVM file ``save``
    (``None``: a fresh one). Its files are named for the case and the run:
    the VM reads their paths, and the same strings make the same instructions."""
    name = "{}-{}".format(case.name.replace(" ", "-").replace(",", ""), run)
    keys = Path(folder) / (name + ".keys")
    keys.write_text(words)
    nvm = Path(folder) / (name + ".nvm")
    if save is not None:
        shutil.copy(save, nvm)
    env = {"CIRCUITPY_NVM_FILE": str(nvm), "BSQ_KEYS_FILE": os.path.relpath(keys, board),
           "BSQ_TURN_MS": str(case.turn_ms), "BSQ_SEED": "1"}  # fmt: skip
    return counter.count(["code.py"], board, env)


def measure(counter, board, folder, saves, case, repeats):
    """Instructions of one ``case`` action (``saves``: ``make_saves``')."""
    if case.game is None:  # start-up: the whole run, less the VM's own start
        empty = Path(folder) / "empty.py"
        empty.write_text("")
        whole = run_script(counter, board, folder, case, "", None)
        return whole - counter.count([str(empty)], folder)
    if case.game == "long":
        long_one = run_script(counter, board, folder, case, "", saves["long"], run="long")
        return long_one - run_script(counter, board, folder, case, "", saves["empty"], run="none")
    once = " ".join(w for w in (case.setup, case.action) if w)
    more = " ".join(w for w in (case.setup, " ".join([case.action] * (1 + repeats))) if w)
    low = run_script(counter, board, folder, case, once, saves[case.game])
    high = run_script(counter, board, folder, case, more, saves[case.game], run="more")
    return (high - low) / (repeats * case.presses)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("actions", nargs="*", help="names (or a word of them) of the actions")
    args = parser.parse_args()
    vm = find_tool("CIRCUITPYTHON_VM", SHARED_BIN / "circuitpython")
    mpy_cross = find_tool("MPY_CROSS", SHARED_BIN / "mpy-cross")
    valgrind = find_valgrind()
    chosen = [c for c in cases() if not args.actions or any(a in c.name for a in args.actions)]
    # a folder of its own, the same path every time (the VM reads paths in it)
    folder = ROOT / "build" / "latency"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        board = board_tree(Path(folder) / "board", mpy_cross)
        counter = Counter(valgrind, vm, folder)
        saves = make_saves(folder, {case.game for case in chosen} - {None})
        per_pass = pystone_instructions(counter)
        ns = PYSTONE_US * 1000 / per_pass

        def one(case):
            return measure(counter, board, folder, saves, case, args.repeats)

        with ThreadPoolExecutor(args.jobs) as pool:
            counts = list(pool.map(one, chosen))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = [{"bench": "latency", "metric": "pystone pass", "value": round(per_pass),
             "unit": "instructions", "ns": round(ns, 2)}]  # fmt: skip
    for case, count in zip(chosen, counts):
        rows.append({"bench": "latency", "metric": case.name, "value": round(count),
                     "unit": "instructions", "ms": round(count * ns / 1e6, 1),
                     "target": case.target, "note": case.what})  # fmt: skip
    if args.json:
        for row in rows:
            print(json.dumps(row))
    text = table(rows)
    if not args.json:
        print(text)
    if args.write_docs:
        write_docs(text)


def table(rows):
    calibration, actions = rows[0], rows[1:]
    lines = [
        "Calibration: a pystone pass is {:,} instructions here, so a SAMD51 instruction is"
        " about {} ns (657 us a pass).".format(calibration["value"], calibration["ns"]),
        "",
        "| action | instructions | est. SAMD51 ms | target ms | what |",
        "|---|---:|---:|---:|---|",
    ]
    for row in actions:
        target = "" if row["target"] is None else str(row["target"])
        lines.append("| {} | {:,} | {} | {} | {} |".format(
            row["metric"], row["value"], row["ms"], target, row["note"]))  # fmt: skip
    return "\n".join(lines)


def write_docs(text):
    path = ROOT / "docs" / "benchmarks.md"
    doc = path.read_text()
    start, end = doc.index(START), doc.index(END)
    path.write_text(doc[: start + len(START)] + "\n" + text + "\n" + doc[end:])


if __name__ == "__main__":
    main()
