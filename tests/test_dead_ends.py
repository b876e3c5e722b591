"""``cannot_win`` against positions known winnable: built backwards from
every card home, one move taken back at a time, each checked to be a legal
move of the engine that leads forward to the position it came from
(``british_square.desktop.winnable``).

Every position on such a walk has a winning line (the walk played forward),
so ``cannot_win`` must never call one lost. The walks take cards back into
the stock and the waste low, where the check's ways out look deepest.
"""

import subprocess
import sys
from pathlib import Path

from positions import layout

from british_square.desktop.games import copy_game
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver import LOST, WON, cannot_win, dead_ends, search, solve_plain
from british_square.desktop.winnable import winnable_layout, winnable_walk
from british_square.engine import Game

ROOT = Path(__file__).resolve().parents[1]


def test_cannot_win_never_cuts_a_position_built_winnable(monkeypatch):
    # and the walks reach Ys that can leave only once stock cards are dealt
    # (the first k that lets them is past 0): where the count with the
    # whole stock still in it is too much
    real_first_k = dead_ends._first_k
    decided = []  # per such Y: its first k

    def first_k(*args):
        k = real_first_k(*args)
        if k > 0:
            decided.append(k)
        return k

    monkeypatch.setattr(dead_ends, "_first_k", first_k)
    checked = stocked = 0
    for seed in range(60):
        for game in winnable_walk(seed, 400):
            assert not cannot_win(game), position_text(game)
            checked += 1
            stocked += game.stock_count > 10
    assert checked > 10000 and stocked > 5000 and len(decided) > 20000


def test_a_walk_back_is_won_forward():
    # the walk's claim itself: a short one, solved from its far end
    game = winnable_walk(7, 60)[-1]
    assert search(game, seconds=60, won_only=True).result == WON


def test_a_layout_built_winnable_is_a_full_deal_its_line_wins():
    for seed in range(3):
        game, line = winnable_layout(seed)
        assert game.score() == 0 and game.stock_count == 88 and game.waste_count == 0
        assert list(game.height) == [4, 4, 4, 4] and list(game.base) == [4, 4, 4, 4]
        assert not cannot_win(game)
        replay = copy_game(game)
        for m in line:
            replay.play(m)
        assert replay.is_won()


def test_a_walk_that_ends_with_a_column_short_is_no_layout():
    # walk 41 takes every card back from home with a column holding three
    # dealt cards: no deal starts so (its 89 other cards are more than a
    # stock holds), and tidying it up used to take back an illegal deal
    assert winnable_layout(41) is None
    assert winnable_layout(42) is not None


def test_the_win_rate_tool_counts_the_rollouts_by_positions():
    # a count, not seconds: the same wins on every machine; walk 41 is skipped
    tool = [sys.executable, str(ROOT / "tools" / "winnable_rate.py"), "--first", "40"]
    run = subprocess.run(
        tool + ["--layouts", "4", "--rollouts", "40000"], capture_output=True, text=True, check=True
    )
    lines = run.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["40", "won"],
        ["42", "unknown"],
        ["43", "won"],
    ]
    assert lines[-1] == "won 2 of 3 layouts at 40000 positions"


def test_a_card_with_no_way_out_but_a_space_needs_three_columns(monkeypatch):
    # The second KH in the waste lies above both QH (hearts want a queen),
    # so it can go neither home nor onto a queen: only into an empty column.
    # By then the 3D above it (diamonds wait for the 4D at the bottom) needs
    # a column, and the other three hold the jack, the KH and JC, the AD of
    # their bases, none of which can go home first: four columns, one of
    # them empty. The count alone, four columns for the 3D, lets it pass.
    stock = "AC2C3C4C5C6C7C8C9CTCAH2H3H4H5H6H7H8H9HTH"
    game = parse_position(
        layout(
            "british",
            "JH",
            "-",
            "JCKH",
            "QCAD",
            stock=stock,
            waste="4DKCQC2DQHQHKHKC3D",
            foundations=(11, 26, 11, 22),
        )
    )
    assert cannot_win(game)
    assert solve_plain(game, seconds=60).result == LOST
    monkeypatch.setattr(dead_ends, "_fewest_dealt", lambda *args: 0)
    assert not cannot_win(game)


def test_a_card_can_wait_for_the_stock_to_be_dealt_to_its_last_card():
    # The lower KH in the waste can only go home (no queen to go onto),
    # and hearts want a queen: the stock's last card. Until it is dealt,
    # it and the QH under KH stop the hearts, so above KH the other KH, TH
    # to AH, the clubs and the spades (their 4s are under KH too) need all
    # four columns. Once the queen is dealt it goes home, the TH to AH can
    # wait for the down half in one column, and KH goes home after it.
    game = parse_position(
        layout(
            "british",
            stock="QH",
            waste="4C4SQHJHKHKHTH9H8H7H6H5H4H3H2HAH3C2CAC3S2SAS",
            foundations=(22, 22, 11, 26),
        )
    )
    assert not cannot_win(game)
    assert search(game, seconds=60, won_only=True).result == WON


def test_counting_the_stock_proves_deals_lost_in_hundreds_of_positions():
    # before the stock was counted (solver version 3) deal 754 took 68 607
    # positions and deal 227 7.8 million
    for number, most in ((754, 200), (227, 1500)):
        found = search(Game.new_deal(number), seconds=60, won_only=True)
        assert found.result == LOST and found.nodes <= most
