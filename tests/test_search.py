"""The dead-position search taken in steps, as the app runs it between frames."""

import pytest
from positions import dead_steps, dead_verdict, sample_games

from british_square.desktop.games import copy_game
from british_square.desktop.notation import parse_position, position_text
from british_square.search import ALIVE, DEAD, UNDECIDED


@pytest.mark.parametrize("every", [1, 3])
def test_steps_end_in_the_same_verdict_as_one_go(every):
    for game in sample_games(40):
        before = position_text(game)
        steps = list(dead_steps(game, 60, every))
        assert all(step is None for step in steps[:-1])
        assert steps[-1] in (ALIVE, DEAD, UNDECIDED)
        assert steps[-1] == dead_verdict(game, 60)
        assert position_text(game) == before  # run to its end, it puts everything back


def test_a_long_search_yields_between_positions():
    # 5H shuttles between the two 6H for ever, and nothing can ever go home
    game = parse_position("british KC/5H/6H/6H - - 0,1,0,0")
    steps = list(dead_steps(game, 100, 1))
    assert steps[-1] == DEAD
    assert len(steps) > 1  # it let its caller run in between


def test_a_suspended_search_leaves_the_copy_not_the_game():
    game = parse_position("british KC/5H/6H/6H - - 0,1,0,0")
    before = position_text(game)
    search = dead_steps(copy_game(game), 100, 1)
    next(search)
    assert position_text(game) == before
