"""Long random sessions under CircuitPython's VM, in the budget: a 128 KB heap.

Each session is 3 000 random presses (tests/sessions.py) through every
screen, played by the deployed ``.mpy`` game in a 128 KB heap measured from
zero and collected as a board collects (hw/vm.py: only where the game
itself collects, and when an allocation finds no room): a deal of each rule
set, one that first wins American deal 113, one that resumes a 400-move
save and one a start-position save. A MemoryError, a crash, a lost press or
a screen never reached fails. Three of them play again with
``BSQ_MEASURE_LIVE`` (a collection between presses) for the peak live heap:
at most 120 KB. ``tools/stress.py`` runs twenty such sessions and finds the
smallest heap that plays them all (the figure the docs give).
"""

import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import ROOT
from scripting import ScriptWriter
from sessions import (
    DEAL_SAVE,
    START_SAVE,
    START_SAVE_KEPT,
    long_game,
    session_kind,
    session_script,
)
from ui_runs import board_tree, kept_game, keys_file, position_line, reported

from british_square.desktop.games import legal_moves
from british_square.desktop.notation import position_text
from british_square.engine import Game
from british_square.piles import UNION
from british_square.resume import load
from british_square.screen_ids import SCREEN_NAMES
from british_square.store import Store

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "hw"))
from storage import FileNVM  # noqa: E402
from stress import Sessions  # noqa: E402

PRESSES = 3000
HEAP = "128K"
PEAK_LIVE_MOST = 120 * 1024
# British, American, Union, a win, the 400-move save, the start-position save
SEEDS = (0, 1, 2, 4, 3, 8)
MEASURED = (0, 4, 8)  # a deal, the win and the start-position save: the heaviest
COUNT_COLLECTIONS = ROOT / "tests" / "vm" / "count_collections.py"
WHO = ("harness", "game")  # whose gc.collect() calls count_collections.py counts
pytestmark = pytest.mark.vm


@pytest.fixture(scope="module")
def board(vm, mpy_cross, tmp_path_factory):
    # beside the sessions' key scripts, as tools/stress.py puts it: the
    # same options, so the same heap figures
    return board_tree(tmp_path_factory.mktemp("stress") / "board", mpy_cross)


@pytest.fixture(scope="module")
def outcomes(vm, board):
    """Each session collected as a board in 128 KB, and the measured ones
    again collecting between presses, two at a time (a CI machine's two
    cores): ``{(seed, collection): outcome}``."""
    runs = Sessions(vm.binary, board, board.parent, PRESSES)
    wanted = [(seed, "board") for seed in SEEDS] + [(seed, "measuring") for seed in MEASURED]
    with ThreadPoolExecutor(min(2, os.cpu_count() or 1)) as pool:
        done = pool.map(lambda run: runs.run(run[0], HEAP, run[1]), wanted)
        return dict(zip(wanted, done))


def test_the_sessions_start_from_each_rule_set_a_win_and_both_long_saves():
    kinds = {session_kind(seed) for seed in SEEDS}
    assert kinds == {"british", "american", "union", "won", "resume-deal", "resume-start"}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_long_random_session_plays_in_128k_collected_as_a_board(outcomes, seed):
    out = outcomes[seed, "board"]
    assert out["ok"], out["error"]  # every press, no MemoryError, "collection: board"
    print("seed", seed, session_kind(seed), out["seconds"], "s")


def test_the_sessions_saw_every_screen(outcomes):
    # but the first start's choice of a rule set, shown once in a board's
    # life, before any record: test_store_vm.py plays it on the VM
    seen = set().union(*(out.get("screens", ()) for out in outcomes.values()))
    assert seen == set(SCREEN_NAMES) - {"first"}


def test_the_peak_live_heap_is_at_most_120k(outcomes):
    peaks = {}
    for seed in MEASURED:
        out = outcomes[seed, "measuring"]
        assert out["ok"], out["error"]
        peaks[session_kind(seed)] = out["peak_live"]
    print("peak live:", peaks)
    assert max(peaks.values()) <= PEAK_LIVE_MOST, peaks


LONG_SAVES = [(DEAL_SAVE, DEAL_SAVE[2]), (START_SAVE, START_SAVE_KEPT)]


@pytest.mark.parametrize("kept, undone", LONG_SAVES, ids=["deal", "start"])
def test_the_longest_saves_resume_at_power_on_in_128k(vm, board, tmp_path, kept, undone):
    """Resumed from the NVM as a board finds it, every move the record keeps
    undone: back at the deal (400 moves), or at the start position it keeps
    (the newest 180 of 600)."""
    game = long_game(*kept)
    env = kept_game(tmp_path / "kept.nvm", game)
    resumed = vm.run_board(board, "--keys", "a sel*500", heap=HEAP, env=env)
    for _ in range(undone):
        game.undo()
    assert position_line(resumed.stdout) == position_text(game)
    assert reported(resumed.stdout, "collection") == "board"


def test_a_long_game_resumed_at_every_power_on_keeps_saving(vm, board, tmp_path):
    """A Union game past 400 moves, kept as a start position and its newest
    180 moves, resumed at each of six power-ons in 128 KB: each session
    plays a few moves and 200 random presses on the cards, saves at its
    save points, and the next power-on resumes what it saved (its 389th move once made
    every save raise IndexError, at every power-on after)."""
    nvm = tmp_path / "kept.nvm"
    env = kept_game(nvm, long_game(*START_SAVE))
    rng = random.Random(6)
    for _ in range(6):
        writer = ScriptWriter(load(Store(FileNVM(str(nvm)))))
        for _move in range(rng.randrange(1, 40)):
            writer.move(rng.choice(legal_moves(writer.game)))
        writer.press("start", "b")  # a save point: the session's first save
        keys = ("up", "down", "left", "right", "a", "b", "select")
        presses = [rng.choice(keys) for _ in range(200)]
        words = "{} {} start b".format(writer.text(), " ".join(presses))  # more play, a save point
        env["BSQ_KEYS_FILE"] = str(keys_file(tmp_path, words))
        out = vm.run_board(board, heap=HEAP, env=env).stdout
        assert int(reported(out, "saves")) >= 1, out
        kept = load(Store(FileNVM(str(nvm))))
        assert kept is not None and kept.history_end > 0  # kept for the next power-on


def test_the_harness_collects_only_when_measuring(vm, board, tmp_path):
    """The VM adapter calls ``gc.collect()`` never in a board-like run (a
    board's adapter never does), and at every turn with no press when
    measuring; the game's own collections happen in both."""
    script = board / COUNT_COLLECTIONS.name
    script.write_bytes(COUNT_COLLECTIONS.read_bytes())
    keys = keys_file(tmp_path, session_script(2, 300))  # menus, new deals, waits
    counts = {}  # BSQ_MEASURE_LIVE: [the harness's, the game's]
    for measuring in ("", "1"):
        # as a board runs: no options (whose reader a board never holds),
        # the game kept in the NVM, the script from the environment
        env = kept_game(tmp_path / "kept{}.nvm".format(measuring), Game.new_deal(3, UNION))
        env.update(BSQ_MEASURE_LIVE=measuring, BSQ_KEYS_FILE=str(keys))
        out = vm.run(script.name, path=(), cwd=board, heap=HEAP, env=env).stdout
        presses = int(reported(out, "presses"))
        assert presses >= 300
        counts[measuring] = [int(reported(out, who + "_collections")) for who in WHO]
    assert counts[""][0] == 0
    assert counts["1"][0] > presses
    assert counts[""][1] > 1 and counts["1"][1] > 1  # a new deal, and after the game
