"""The beam search along the stock (``solver.beam``): what its estimate knows
of the stock, that it wins and says the same on every run, and that the
solver hands it only what the greedy restarts leave past their most."""

from pathlib import Path

from british_square.desktop import solver
from british_square.desktop.notation import parse_move, parse_position
from british_square.desktop.solver import UNKNOWN, WON, Solution, best_line, check_line, search
from british_square.desktop.solver import beam as beam_module
from british_square.desktop.solver.beam import _Estimate, beam_restarts, beam_search
from british_square.desktop.survey import read_results
from british_square.engine import Game
from british_square.piles import AMERICAN

ROOT = Path(__file__).resolve().parents[1]
HEARTS, DIAMONDS = 2, 3


def test_a_card_is_due_when_its_foundation_can_first_take_it():
    # American 5632: both A-hearts come 82nd and 84th of the 88 stock cards,
    # the second K-diamonds 87th; the first 2-diamonds is dealt, its ace 40th
    due = _Estimate(Game.new_deal(5632, AMERICAN), 0, None).due
    assert due[HEARTS][1] == 82 and due[HEARTS][26] >= 84
    assert due[DIAMONDS][1:3] == [40, 40]
    assert due[DIAMONDS][13] < 87 == due[DIAMONDS][14]


def test_a_card_is_due_by_the_copies_left_when_cards_are_home():
    # clubs going down want 3C, 2C, AC: the 3C comes first from the stock,
    # the 2C lies in a column, the AC comes second
    game = parse_position("american 2C" + "/-" * 15 + " AC3C - 23,0,0,0")
    assert _Estimate(game, 0, None).due[0][24:] == [1, 1, 2]


def position_before_the_end(deal, stock_left):
    """American ``deal`` after its survey line, up to ``stock_left`` cards in the stock."""
    record = read_results(str(ROOT / "docs/survey/american.jsonl"), "american")[deal]
    game = Game.new_deal(deal, AMERICAN)
    for token in record["moves"].split():
        if game.stock_count == stock_left:
            break
        game.play(parse_move(token, game))
    return game


def test_the_beam_wins_and_gives_the_same_line_on_every_run():
    game = position_before_the_end(10, 12)
    found = beam_search(game, search, 60.0, 0, 20, seed=1)
    assert found.result == WON and found.home == 104
    check_line(game, found.moves, 104)
    again = beam_search(game, search, 60.0, 0, 20, seed=1)
    assert (again.moves, again.nodes) == (found.moves, found.nodes)


def test_the_beam_stops_at_its_budget_of_positions():
    game = Game.new_deal(5632, AMERICAN)
    found = beam_search(game, search, 60.0, 300, 50, seed=1)
    assert found.result == UNKNOWN and found.nodes == 300
    check_line(game, found.moves, found.home)


def test_each_beam_of_the_restarts_is_twice_as_wide(monkeypatch):
    widths = []

    def beam(game, finish, seconds, max_nodes, width, seed):
        assert finish is search
        widths.append((width, seed, max_nodes))
        return Solution(UNKNOWN, 0, [], 400, 0.0)

    monkeypatch.setattr(beam_module, "beam_search", beam)
    found = beam_restarts(Game.new_deal(1, AMERICAN), search, 60.0, 1000)
    first = beam_module.BEAM_FIRST_WIDTH
    seed = beam_module.BEAM_SEED
    assert widths == [(first, seed, 1000), (2 * first, seed, 600), (4 * first, seed, 200)]
    assert found.nodes == 1200


def test_the_beam_gets_what_greedy_leaves_past_its_most(monkeypatch):
    handed = []

    def beam(game, finish, seconds, max_nodes):
        handed.append(max_nodes)
        return Solution(UNKNOWN, 0, [], max_nodes, 0.0)

    monkeypatch.setattr(solver, "beam_restarts", beam)
    game = Game.new_deal(5632, AMERICAN)  # not won by greedy restarts
    best_line(game, 60.0, nodes=10_000)  # greedy's share, 9 000, is under its most
    assert handed == []
    monkeypatch.setattr(solver, "GREEDY_MOST", 3000)
    best_line(game, 60.0, nodes=10_000)
    assert handed == [9000 - 3 * 1024]  # a greedy run looks at its budget each 64 positions
