"""What each press costs a PyGamer, at its dearest: the VM, the flash and the display bus.

    python tools/latency.py [--write-docs] [--json] [--jobs 2] [--from-json FILE] [ROW ...]

Every kind of press and every change of screen, each measured on its own
in the turn of the game's loop that answers it, in the state where it
costs most: the first time after the title, after resuming a long game,
after the menu, on a long column, with a cascade behind it. Each is a
press in a key script (``Script``), played by the game as deploy puts it
on a PyGamer, and ``board_cost.BoardRuns`` counts the turn three ways:
the VM's instructions (callgrind), the board's file system that the VM
does not run (../shared/vm/flash's replay through CircuitPython's FatFs),
and the display bus (the pixels and windows the refresh sends at 24 MHz).
Work a press starts that goes on after it (a cascade, the dead test, a
flash's end, Finish, the celebration) runs one turn a frame, and each
of those turns is measured too: the row's "later" figures are the dearest
frame (target 16 ms) and the dearest change of screen among them (every
pixel sent: the won screen after Finish, Game over after the dead test;
target 100 ms).

Instructions become SAMD51 time through pystone (``tests/bench/pystone.py``),
counted the same way: CircuitPython's published 1 521.6 passes/s on a
Metro M4 (120 MHz) make a pass 657 us. Counts are exact: the same run to
run on an idle machine, where wall-clock time on these shared machines
moves up to 3x.

Needs the VM (``CIRCUITPYTHON_VM``), its ``mpy-cross`` (``MPY_CROSS``),
valgrind, strace, gdb and gcc-multilib (``board_cost``). ``--write-docs``
puts the table in docs/benchmarks.md; ``--json`` prints result lines for
tools/bench.py; ``--from-json`` takes such lines instead of a run. It
takes about fifteen minutes on two cores.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "hw"))

import board_cost  # noqa: E402
import deploy_plan  # noqa: E402
from scripting import ScriptWriter, route  # noqa: E402
from sessions import long_game  # noqa: E402
from ship_lines import shipped  # noqa: E402
from storage import FileNVM  # noqa: E402
from ui_runs import VM_ADAPTERS  # noqa: E402
from words_text import body  # noqa: E402

from british_square.desktop.games import copy_game, legal_moves  # noqa: E402
from british_square.desktop.notation import RULE_TITLES, parse_position  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.layout import BODY_ROWS, LEFT, RIGHT  # noqa: E402
from british_square.par import MAX_LINE, line_move  # noqa: E402
from british_square.piles import (  # noqa: E402
    AMERICAN,
    BRITISH,
    RULE_NAMES,
    STOCK,
    UNION,
    WASTE,
    move,
    move_source,
    move_target,
)
from british_square.search import plays_out  # noqa: E402
from british_square.stats import AUTOPLAY_SAFE  # noqa: E402
from british_square.store import DEAL_MOVES_MOST, START_MOVES_MOST, Store  # noqa: E402

SHARED_BIN = ROOT.parent / "shared" / "vm" / "bin"
PYSTONE = ROOT / "tests" / "bench" / "pystone.py"
PYSTONE_US = 1e6 / 1521.6  # a pass on a Metro M4 (SAMD51, 120 MHz)
START, END = "<!-- latency:start -->", "<!-- latency:end -->"
BEFORE_START, BEFORE_END = "<!-- latency-before:start -->", "<!-- latency-before:end -->"
SUMMARY_START, SUMMARY_END = "<!-- latency-summary:start -->", "<!-- latency-summary:end -->"
# The table as it stood when issue 46 began (commit 18929e8, this tool's
# first run), and the last run --write-docs wrote: the docs' before and after
BEFORE = ROOT / "docs" / "bench" / "latency-before-issue46.jsonl"
RESULTS = ROOT / "docs" / "bench" / "latency.jsonl"
MENU = [line.split("{")[0] for line in body("menu")]
DEAL = 10  # British deal 10, as the table always measured

# Targets, ms on a board (issue 46)
PRESS = 16  # every press: the screen answers within a frame
SCREEN = 100  # a change of screen
NEW_GAME = 300
START_UP = 1000
FRAME = 16  # each turn of work that goes on after a press
SCREEN_PIXELS = 160 * 128  # a later turn that sends as many is a change of screen


class Row:
    """One press measured: its ``name`` (a row of the table), its
    ``target`` in ms, and ``what`` it is."""

    def __init__(self, name, target, what):
        self.name = name
        self.target = target
        self.what = what
        self.answer = None  # the turn that answers it (board_cost.Turn)
        self.later = []  # the turns after it, before the next press
        self.frames = False  # no press: the dearest of the turns after the last press


class Script:
    """A key script played from a kept game (``game``; ``None``: a new
    board's fresh NVM), some of its presses measured (``measure``); its
    first turn presses nothing, so that turn 0 is the start-up alone."""

    def __init__(self, name, game=None, autoplay=0):
        self.name = name
        self.game = game
        self.autoplay = autoplay
        self.writer = ScriptWriter(copy_game(game) if game else Game.new_deal(1), title=False)
        self.writer.words.append("wait:{}".format(board_cost.TURN_MS))
        self.rows = []  # (press number, Row); press 0 is the start-up

    @property
    def playing(self):
        return self.writer.game

    def presses(self):
        count = 0
        for word in self.writer.words:
            if word.startswith(("wait:", "shot:")):
                continue
            count += int(word.split("*")[1]) if "*" in word else 1
        return count

    def start_up(self, name, what):
        self.rows.append((0, Row(name, START_UP, what)))

    def measure(self, name, target, what, *words):
        """Measure the first of ``words``: the press ``name``."""
        row = Row(name, target, what)
        self.rows.append((self.presses() + 1, row))
        self.writer.press(*words)
        return row

    def frames(self, name, ms, what):
        """Measure the turns of a wait of ``ms`` after the last press (a
        row of their own: that press is not measured)."""
        row = Row(name, FRAME, what)
        row.frames = True
        self.rows.append((self.presses(), row))
        self.wait(ms)

    def press(self, *words):
        self.writer.press(*words)

    def wait(self, ms):
        self.writer.words.append("wait:{}".format(ms))

    def go(self, stop):
        self.writer.go(stop)

    def step(self, direction):
        """One step of the cursor, ``direction`` (``layout``'s), kept in step."""
        writer = self.writer
        writer.cursor = writer.layout.neighbour(writer.cursor, direction)
        return ("up", "down", "left", "right")[direction]

    def stop_of(self, pile):
        return self.writer.layout.pile_stop(pile)

    def text(self):
        return self.writer.text()

    def save(self, path):
        """The NVM file this script starts from (a game kept as a board keeps it)."""
        if self.game is None:
            return None
        store = Store(FileNVM(str(path)))
        store.settings.rules = self.game.rules
        store.settings.autoplay = self.autoplay
        store.save(self.game, 0, 0)
        return path


def kept(game):
    """``game`` with a move played and taken back: a game in progress, as
    a record keeps one (the title offers to continue it)."""
    game.play(legal_moves(game)[0])
    game.undo()
    return game


def deal_game():
    return kept(Game.new_deal(DEAL, BRITISH))


def column_move(game, legal=True):
    """A move between two columns (or, ``legal=False``, a column's top card
    and a column it may not go on)."""
    for source in range(game.columns):
        if not game.column_height(source):
            continue
        for target in range(game.columns):
            if target != source and game.is_legal(move(source, target)) == legal:
                return move(source, target)
    return None


def cards_script():
    """British deal 10: the title, the cards, and every press on them."""
    s = Script("cards", deal_game())
    s.start_up("start-up, a game kept", "code.py to the title, a British game kept in the NVM")
    s.measure("title to the cards", SCREEN, "A on the title: continue", "a")
    s.measure("first press on the cards", PRESS, "a cursor step, the first after the title",
              s.step(RIGHT))  # fmt: skip
    s.measure("cursor step", PRESS, "a step of the cursor on the cards", s.step(LEFT))
    game = s.playing
    s.go(s.stop_of(STOCK))
    s.measure("deal from the stock", PRESS, "A on the stock: a card to the waste", "a")
    game.push(move(STOCK, WASTE))
    s.measure("undo", PRESS, "Select: the deal taken back", "select")
    game.undo()
    while column_move(game) is None:  # deal until two columns can build
        s.press("a")
        game.push(move(STOCK, WASTE))
    m = column_move(game)
    s.go(s.stop_of(move_source(m)))
    s.measure("pick up", PRESS, "A on a column's card: it and the places it may go lit", "a")
    steps = route(s.writer.layout, s.writer.cursor, s.stop_of(move_target(m)))
    for direction in steps[:-1]:
        s.press(s.step(direction))
    s.measure("cursor step, a card held", PRESS, "a step of the cursor with a card held",
              s.step(steps[-1]))  # fmt: skip
    s.measure("put down: a move", PRESS, "A on a lit place: the card moves", "a")
    game.push(m)
    s.measure("undo a move", PRESS, "Select: the card back where it was", "select")
    game.undo()
    refused = column_move(game, legal=False)
    s.go(s.stop_of(move_source(refused)))
    s.press("a")
    s.go(s.stop_of(move_target(refused)))
    s.measure("a drop refused", PRESS, "A where the card may not go: the red flash, and its end",
              "a")  # fmt: skip
    s.wait(600)
    s.measure("put back", PRESS, "B: the card held goes back", "b")
    return s


def menu_script():
    """British deal 10: the menu, its steps and its rows, and the screens they open."""
    s = Script("menu", deal_game())
    s.press("a")  # the cards, then a deal: a game with a move
    s.go(s.stop_of(STOCK))
    s.press("a")
    s.playing.push(move(STOCK, WASTE))
    s.measure("cards to the menu", SCREEN, "Start on the cards, the first time", "start")
    s.measure("menu step", PRESS, "the bar a row down", "down")
    s.measure("menu step up", PRESS, "the bar a row up", "up")
    s.measure("menu to the cards", SCREEN, "B: back to the cards", "b")
    s.measure("cards to the menu, again", SCREEN, "Start on the cards", "start")
    s.press("down*{}".format(len(MENU) - 2))
    s.measure("menu step, a new page", PRESS, "down past the rows on show: all rows anew", "down")
    s.press("up*{}".format(BODY_ROWS - 1))  # the first row on show
    s.measure("menu step, the page before", PRESS, "up past the rows on show: all rows anew",
              "up")  # fmt: skip
    for row, name, what in (
        ("Brightness: ", "menu: Brightness", "A on Brightness: the next level"),
        ("Sound: ", "menu: Sound", "A on Sound: on or off"),
        ("4-colour suits: ", "menu: 4-colour suits", "A on 4-colour suits: on or off"),
        ("Auto-play: ", "menu: Auto-play", "A on Auto-play: aces"),
        ("Winnable only: ", "menu: Winnable only", "A on Winnable only: none, a buzz"),
    ):
        s.press("start", "start")  # back at the menu's first row
        s.press("down*{}".format(MENU.index(row)))
        s.measure(name, PRESS, what, "a")
    for row, name, what, back in (
        ("Help", "menu to the help", "A on Help", "b"),
        ("Statistics", "menu to the statistics", "A on Statistics", "b"),
        ("About", "menu to About", "A on About", "b"),
        ("Rules: ", "menu to the rules", "A on Rules", "b"),
    ):
        s.press("start", "start")
        s.press("down*{}".format(MENU.index(row)))
        s.measure(name, SCREEN, what, "a")
        if row == "Help":
            s.measure("help, the next page", SCREEN, "right: the marks", "right")
        if row == "Rules: ":
            s.measure("rules, the next rule set", SCREEN, "right: American", "right")
        s.measure(name.replace("menu to", "back from"), SCREEN, "B: back to the menu", back)
    s.press("start", "start")
    s.press("down*{}".format(MENU.index("Deal number")))
    s.measure("menu to the deal number", SCREEN, "A on Deal number", "a")
    s.measure("deal number: a digit up", PRESS, "up: the digit under the mark", "up")
    s.measure("deal number: the next digit", PRESS, "left: the mark a digit along", "left")
    s.measure("deal a number: a game in progress?", SCREEN, "A: Abandon this game?", "a")
    s.measure("new game, a number", NEW_GAME, "A: the deal typed, on the cards", "a")
    s.press("start", "down")
    s.measure("new game", NEW_GAME, "A on New game, no move yet: a surveyed deal on the cards",
              "a")  # fmt: skip
    game = s.writer.game = Game.new_deal(1, BRITISH)  # a deal: the cursor on its first column
    s.writer.start(game)
    s.go(s.stop_of(STOCK))
    s.press("a", "select")  # a move, taken back
    s.press("start", "down*{}".format(MENU.index("Redo")))
    s.measure("menu: Redo", SCREEN, "A on Redo: back to the cards, the move played again", "a")
    s.press("start", "down*{}".format(MENU.index("Hint")))
    s.measure("menu: Hint", SCREEN, "A on Hint: the cards, the hint's card held and its place lit",
              "a")  # fmt: skip
    s.wait(1000)
    s.press("b", "start", "down*{}".format(MENU.index("Restart deal")))
    s.measure("menu: Restart deal", SCREEN, "A on Restart deal: Restart this deal?", "a")
    s.measure("restart", SCREEN, "A: the deal from its start, on the cards", "a")
    s.press("start", "down*{}".format(MENU.index("End game")))
    s.measure("menu: End game", SCREEN, "A on End game: End this game?", "a")
    s.measure("end a game: Game over", SCREEN, "A: the game scored, Game over", "a")
    s.measure("game over to a new game", NEW_GAME, "A on Game over: a new deal", "a")
    return s


def resumed_script():
    """The longest game a record keeps from its deal (``DEAL_MOVES_MOST``,
    400 moves: each played again at start-up), an American one, the
    dearest rule set to replay: the first undo after resuming it."""
    s = Script("resumed", long_game(AMERICAN, 5, DEAL_MOVES_MOST))
    s.start_up("start-up, the longest game kept from its deal",
               "code.py to the title, its save loaded: American, the most moves a record keeps "
               "from a deal")  # fmt: skip
    s.measure("title to the cards, a long game", SCREEN, "A on the title: continue", "a")
    s.measure("first undo after resuming", PRESS, "Select: the first undo of a 400-move game",
              "select")  # fmt: skip
    s.press("start")  # the menu: a save point, and the session's first save
    s.frames("the menu, then a save of a 400-move game", 1000,
             "the menu's rows, then the save: a walk back, the moves, the CRC, a share a turn"
             )  # fmt: skip
    return s


def resumed_start_script():
    """A game too long to keep from its deal: the record keeps a start
    position and its newest ``START_MOVES_MOST`` moves, built, checked
    against the deal and played again at start-up."""
    s = Script("resumed-start", long_game(AMERICAN, 5, 600))
    s.start_up("start-up, a game kept from a start position",
               "code.py to the title: an American game of 600 moves, kept as a start position "
               "and its newest {} moves".format(START_MOVES_MOST))  # fmt: skip
    s.press("a", "select")  # the cards, and a move undone: the game changed
    s.press("start")  # the menu: a save point, and the session's first save
    s.frames("the menu, then a save from a start position", 3000,
             "the menu's rows, then the save: the walk back on a copy, the start position, "
             "the moves, the CRC, a share a turn")  # fmt: skip
    return s


def first_start_script():
    """A new board: the first start's choice of a rule set and the help."""
    s = Script("first-start")
    s.start_up("start-up, a new board", "code.py to the first start's choice, a fresh NVM")
    s.measure("first start: the next rule set", PRESS, "down: American", "down")
    s.measure("first start to the help", NEW_GAME, "A: American chosen, a new deal, the keys' help",
              "a")  # fmt: skip
    s.measure("help to the cards", SCREEN, "any key: the game chosen, on the cards", "a")
    return s


# Positions: three cards left, the rest certain once the first has gone (Finish,
# then the win); a long British column that KH can go on.
FINISH_POSITION = "british 3C/2C/-/- - AC 23,26,26,26"
LONG_POSITION = "british -/AH2H3H4H.5H6H7H8H9HTHJHQH/QHKH/- AH2H3H4H5H6H7H8H9HTHJH KH 26,26,0,26"
WON_POSITION = "british AC/-/-/- - - 25,26,26,26"
CASCADE_POSITION = "british AS2S3S4S.5S6S7S8S9STSJSQS/-/-/- - KS 26,13,26,26"


def long_column_script():
    """A card onto a long British column."""
    s = Script("long-column", kept(parse_position(LONG_POSITION)))
    s.press("a")
    s.go(s.stop_of(2))
    s.press("a")
    s.go(s.stop_of(1))
    s.measure("put down on a long column", PRESS, "KH onto a British column of 12 cards", "a")
    return s


def finish_script():
    """Three cards left: one home, Finish, the cards home a frame each."""
    s = Script("finish", kept(parse_position(FINISH_POSITION)))
    s.press("a")
    s.go(s.stop_of(0))
    s.measure("a card home, Finish offered", SCREEN, "B: 3C home; the rest is certain", "b")
    s.measure("Finish", SCREEN, "A: the cards again, then home a frame each, then the won screen",
              "a")  # fmt: skip
    s.wait(1000)
    s.measure("won to a new game", NEW_GAME, "A on the won screen: a new deal", "a")
    return s


def won_script():
    """The last card home by hand: the won screen and its celebration."""
    s = Script("won", kept(parse_position(WON_POSITION)))
    s.press("a")
    s.measure("the last card home: won", SCREEN, "B: AC home, the won screen", "b")
    s.frames("won screen, a frame", 2000, "the kings' celebration, a frame")
    return s


def cascade_script():
    """Auto-play (safe) sending twelve cards home after one."""
    s = Script("cascade", kept(parse_position(CASCADE_POSITION)), autoplay=AUTOPLAY_SAFE)
    s.press("a")
    s.go(s.stop_of(WASTE))
    s.measure("a card home, twelve by auto-play", PRESS,
              "B: KS home; auto-play (safe) sends QS to AS, a frame each", "b")  # fmt: skip
    s.wait(600)
    return s


def stock_out_script():
    """The last card of the stock dealt: the dead test, a frame at a time."""
    s = Script("stock-out", deal_game())
    game = s.playing
    s.press("a")
    s.go(s.stop_of(STOCK))
    s.press("a*{}".format(game.stock_count - 1))
    for _ in range(game.stock_count - 1):
        game.push(move(STOCK, WASTE))
    s.measure("the stock's last card", PRESS, "A on the stock: its last card; the dead test runs",
              "a")  # fmt: skip
    s.wait(3000)
    return s


def dearest_line(rules):
    """(deal, moves played) where a hint on a shipped line of ``rules`` is
    dearest: as late in a line as any, where the line read and the history
    checked against it are longest, and before Finish is offered (the
    stock out and the rest certain: ``search.plays_out``)."""
    dearest = (0, -1)
    for deal, moves in sorted(shipped(rules), key=lambda line: -len(line[1])):
        if len(moves) - 1 <= dearest[1]:
            break  # no later line can be asked later
        game = Game.new_deal(deal, rules)
        for played, m in enumerate(moves):
            if not game.stock_count and plays_out(copy_game(game)):
                break
            if played > dearest[1]:
                dearest = (deal, played)
            game.play(m)
    return dearest


def shipped_line_script(rules, row):
    """A hint on a deal of ``rules`` New game deals, at its dearest
    (``dearest_line``): the line's next move, read from flash in the press's turn."""
    deal, played = dearest_line(rules)
    game, buffer = Game.new_deal(deal, rules), bytearray(2 * MAX_LINE)
    for _ in range(played):
        game.play(line_move(game, buffer))
    s = Script("shipped-line-" + RULE_NAMES[rules], kept(game))
    s.press("a", "start", "down*{}".format(MENU.index("Hint")))
    s.measure(row, SCREEN,
              "A on Hint, {} deal {}, {} moves into its line: the line's next move, "
              "read from flash".format(RULE_TITLES[rules], deal, played), "a")  # fmt: skip
    s.measure(row.replace("menu: Hint", "its move"), PRESS,
              "A: the hint's move; a later turn checks the game is still on its line "
              "(the panel green)", "a")  # fmt: skip
    return s


def scripts():
    return [first_start_script(), cards_script(), menu_script(), resumed_script(),
            resumed_start_script(), long_column_script(), finish_script(), won_script(),
            cascade_script(), stock_out_script(),
            shipped_line_script(AMERICAN, "menu: Hint, on a shipped line"),
            shipped_line_script(UNION, "menu: Hint, on a shipped Union Square line")]  # fmt: skip


def find_tool(env_name, default):
    tool = os.environ.get(env_name) or str(default)
    if not os.access(tool, os.X_OK):
        sys.exit("latency: no {} (set {})".format(tool, env_name))
    return tool


def pystone_ns(runs):
    """ns a SAMD51 instruction: pystone's pass counted under callgrind."""
    few, many = 200, 1200
    counts = []
    for passes in (few, many):
        out = runs.folder / "pystone.callgrind"
        subprocess.run([runs.valgrind, "--tool=callgrind", "--callgrind-out-file=" + str(out),
                        runs.vm, str(PYSTONE), str(passes)], cwd=PYSTONE.parent, check=True,
                       capture_output=True, env=dict(os.environ, MICROPYPATH=""))  # fmt: skip
        # less the heap frames a board takes from its pystack, as a turn's count is
        frames = board_cost.frame_instructions(out, runs.probes.frames, runs.probes.collect)
        counts.append(board_cost.instructions(out) - frames)
        out.unlink()
    per_pass = (counts[1] - counts[0]) / (many - few)
    return PYSTONE_US * 1000 / per_pass, per_pass


def play(runs, script, ns):
    """Run ``script`` and give each of its rows its turns."""
    save = script.save(runs.folder / (script.name + ".save"))
    turns = runs.turns(script.name, script.text(), save)[:-1]  # the last: after the last turn

    def answer(number):
        return next(k for k, turn in enumerate(turns) if turn.presses >= number)

    last = turns[-1].presses if turns else 0
    for number, row in script.rows:
        end = answer(number + 1) if number < last else len(turns)  # the next press
        if row.frames:  # the frames of work, not a change of screen among them
            frames = turns[answer(number) + 1 : end] if number else turns[1:end]
            frames = [turn for turn in frames if turn.pixels < SCREEN_PIXELS] or frames
            row.answer = max(frames, key=lambda turn: turn.total_ms(ns))
        else:
            row.answer = turns[answer(number)]
            row.later = turns[answer(number) + 1 : end]
    return script


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--from-json", metavar="FILE",
                        help="the lines of an earlier --json run, not a new one")  # fmt: skip
    parser.add_argument("rows", nargs="*", help="words of the rows' names: only their scripts")
    args = parser.parse_args()
    if args.from_json:
        results = [json.loads(line) for line in Path(args.from_json).read_text().splitlines()]
        report(results, args)
        return
    vm = find_tool("CIRCUITPYTHON_VM", SHARED_BIN / "circuitpython")
    mpy_cross = find_tool("MPY_CROSS", SHARED_BIN / "mpy-cross")
    chosen = [
        s
        for s in scripts()
        if not args.rows or any(w in row.name for _, row in s.rows for w in args.rows)
    ]
    folder = ROOT / "build" / "latency"  # the same path every time (the VM reads paths in it)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        items = deploy_plan.build_board_tree("pygamer", folder / "board", mpy_cross=mpy_cross,
                                             adapters=VM_ADAPTERS)  # fmt: skip
        runs = board_cost.BoardRuns(vm, folder / "board", items, folder)
        ns, per_pass = pystone_ns(runs)
        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(lambda s: play(runs, s, ns), chosen))
    except board_cost.ToolError as error:
        sys.exit("latency: {}".format(error))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = [row for script in done for _, row in script.rows]
    results = [{"bench": "latency", "metric": "pystone pass", "value": round(per_pass),
                "unit": "instructions", "ns": round(ns, 2)}]  # fmt: skip
    for row in rows:
        results.append(result(row, ns))
    report(results, args)


def report(results, args):
    """Print ``results`` (JSON lines, or the table) and, asked, write the docs."""
    if args.json:
        for line in results:
            print(json.dumps(line))
    text = table(results)
    if not args.json:
        print(text)
    if args.write_docs:
        RESULTS.write_text("".join(json.dumps(line) + "\n" for line in results))
        write_docs(text, before_after(results), results)


def result(row, ns):
    """``row``'s figures: its answer's, and the dearest of the turns after it,
    a change of screen (every pixel sent: the won screen after Finish)
    apart from the frames of work (a card home a frame), each against its
    own target; ``met``: all three within theirs."""
    turn = row.answer
    screens = [t for t in row.later if t.pixels >= SCREEN_PIXELS]
    frames = [t for t in row.later if t.pixels < SCREEN_PIXELS]
    worst = max(frames, key=lambda t: t.total_ms(ns), default=None)
    screen = max(screens, key=lambda t: t.total_ms(ns), default=None)
    total = round(turn.total_ms(ns), 1)
    later_ms = round(worst.total_ms(ns), 1) if worst else None
    screen_ms = round(screen.total_ms(ns), 1) if screen else None
    met = total <= row.target and (later_ms or 0) <= FRAME and (screen_ms or 0) <= SCREEN
    return {
        "bench": "latency", "metric": row.name, "unit": "ms", "target": row.target,
        "value": round(turn.total_ms(ns), 1), "vm_ms": round(turn.vm_ms(ns), 1),
        "flash_ms": round(turn.flash_ms(ns), 1), "spi_ms": round(turn.spi_ms(), 1),
        "instructions": turn.instructions, "sectors": turn.file.get("sector_reads", 0),
        "pixels": turn.pixels, "later_frames": len(frames), "later_ms": later_ms,
        "later_screen_ms": screen_ms, "met": met, "note": row.what,
    }  # fmt: skip


def table(results):
    calibration, rows = results[0], results[1:]
    lines = [
        "Calibration: a pystone pass is {:,} instructions here, so a SAMD51 instruction is"
        " about {} ns (657 us a pass).".format(calibration["value"], calibration["ns"]),
        "",
        "| press | VM ms | flash ms | display ms | board ms | target | later frames: worst ms"
        " (how many) | later screen ms | met | what |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        later = (
            ""
            if row["later_ms"] is None
            else "{} ({})".format(row["later_ms"], row["later_frames"])
        )
        screen = "" if row["later_screen_ms"] is None else row["later_screen_ms"]
        lines.append("| {} | {} | {} | {} | **{}** | {} | {} | {} | {} | {} |".format(
            row["metric"], row["vm_ms"], row["flash_ms"], row["spi_ms"], row["value"],
            row["target"], later, screen, "yes" if row["met"] else "**no**",
            row["note"]))  # fmt: skip
    met = sum(row["met"] for row in rows)
    lines += [
        "",
        "{} of {} rows within their targets (a later frame: {} ms; a later change"
        " of screen: {} ms).".format(met, len(rows), FRAME, SCREEN),
    ]
    return "\n".join(lines)


def before_after(results):
    """Each row's board total when issue 46 began (``BEFORE``) and now."""
    before = {line["metric"]: line for line in map(json.loads, BEFORE.read_text().splitlines())}
    lines = [
        "| press | before, board ms | now, board ms | target |",
        "|---|---:|---:|---:|",
    ]
    for row in results[1:]:
        old = before.get(row["metric"])
        lines.append("| {} | {} | **{}** | {} |".format(
            row["metric"], old["value"] if old else "-", row["value"], row["target"]))  # fmt: skip
    return "\n".join(lines)


def summary(results):
    """The README's sentence: how many rows are within their targets, and the
    dearest board total of each target."""
    rows = results[1:]
    dearest = []
    for target, what in ((16, "a press"), (100, "a change of screen"), (300, "a new game"),
                         (1000, "a start-up")):  # fmt: skip
        worst = max((row for row in rows if row["target"] == target), key=lambda r: r["value"])
        dearest.append("{} {} ms ({})".format(what, worst["value"], worst["metric"]))
    return "{} of {} rows within their targets; the dearest of each: {}.".format(
        sum(row["met"] for row in rows), len(rows), "; ".join(dearest))


def write_docs(text, before_text, results):
    for path, parts in (
        (ROOT / "docs" / "benchmarks.md", (((START, END), text),
                                           ((BEFORE_START, BEFORE_END), before_text))),
        (ROOT / "README.md", (((SUMMARY_START, SUMMARY_END), summary(results)),)),
    ):  # fmt: skip
        doc = path.read_text()
        for (start_mark, end_mark), part in parts:
            start, end = doc.index(start_mark), doc.index(end_mark)
            doc = doc[: start + len(start_mark)] + "\n" + part + "\n" + doc[end:]
        path.write_text(doc)


if __name__ == "__main__":
    main()
