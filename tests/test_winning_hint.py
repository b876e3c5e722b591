"""The desktop's hint that follows a win (``desktop.winning``): the solver's
line, kept and played on as the player follows it; the board's hint when the
solver finds no win within its count; none asked of British Square."""

import time

import pytest

from british_square.desktop import winning
from british_square.desktop.games import copy_game
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.winning import HINT_NODES, Verdict, WinningHinter, line_key
from british_square.engine import MAX_MOVES, Game
from british_square.hint import NO_HINT, Hinter
from british_square.piles import AMERICAN, BRITISH, UNION, move


def ask(hinter, game):
    """A request as the table makes it: ``begin``, then ``step_hint`` a
    turn of the loop at a time (a turn every 5 ms, the solver's process
    working meanwhile)."""
    found = hinter.begin(game)
    turns = 0
    while found is None:
        time.sleep(0.005)
        found = hinter.step_hint(20)
        turns += 1
        assert turns < 12_000, "the hint never came"
    return found


def follow(hinter, game, most=2000):
    """``game`` after playing the hints until none comes or it is won."""
    for _ in range(most):
        if game.is_won():
            break
        m = ask(hinter, game)
        if m == NO_HINT:
            break
        game.play(m)
    return game


# deals whose hints alone lost before (issue 47), the solver winning each
@pytest.mark.parametrize("rules, deal", [(AMERICAN, 20510), (AMERICAN, 113), (UNION, 29577)])
def test_following_the_hints_wins_a_deal_the_solver_wins(rules, deal):
    hinter = WinningHinter(200)
    game = follow(hinter, Game.new_deal(deal, rules))
    assert game.is_won()


def test_the_line_found_is_played_on_at_once_and_a_step_aside_asks_again():
    hinter = WinningHinter(200)
    game = Game.new_deal(7, AMERICAN)
    first = ask(hinter, game)
    line = dict(hinter.line)
    assert line[line_key(game)] == first
    game.play(first)
    second = hinter.begin(game)  # on the line: its next move at once, no solver
    assert second == line[line_key(game)] and hinter.solver is None
    buffer = bytearray(2 * MAX_MOVES)
    for i in range(game.legal_moves(buffer)):  # a move off the line
        aside = copy_game(game)
        aside.play(move(buffer[2 * i], buffer[2 * i + 1]))
        if line_key(aside) not in line:
            break
    assert hinter.begin(aside) is None and hinter.solver is not None  # the solver asked again
    assert ask(hinter, aside) != NO_HINT and line_key(aside) in hinter.line


def test_no_win_within_the_count_gives_the_boards_hint_and_is_not_asked_again():
    game = Game.new_deal(20510, AMERICAN)
    hinter = WinningHinter(200, nodes=5)
    board = Hinter().suggest(copy_game(game))
    assert ask(hinter, game) == board
    hinter.begin(game)  # the same position again: no second search
    assert hinter.solver is None and ask(hinter, game) == board


def test_a_game_of_other_rules_gets_its_own_boards_hint():
    # the hinter is the app's, kept from game to game: an American request's
    # answers must not stand for a British deal's, whose hint needs a search
    hinter = WinningHinter(200)
    ask(hinter, Game.new_deal(7, AMERICAN))
    british = Game.new_deal(10, BRITISH)
    assert hinter.begin(british) is None
    assert ask(hinter, british) == Hinter().suggest(copy_game(british))


def test_british_square_asks_no_solver():
    hinter = WinningHinter(200)
    game = Game.new_deal(10, BRITISH)
    assert ask(hinter, game) == Hinter().suggest(copy_game(game))
    assert hinter.solver is None and not hinter.line


def test_the_same_position_gets_the_same_hint_every_time():
    game = Game.new_deal(29577, UNION)
    hints = {ask(WinningHinter(200), game) for _ in range(3)}
    assert len(hints) == 1


def verdict_of(game, nodes=HINT_NODES):
    """What ``Verdict`` says of ``game`` once the solver has looked."""
    verdict = Verdict(nodes)
    verdict.look(game)
    waited = 0
    while verdict.poll() == winning.LOOKING:
        time.sleep(0.01)
        waited += 1
        assert waited < 12_000, "the verdict never came"
    return verdict.state


def test_the_verdict_says_whether_the_game_can_still_be_won():
    game = Game.new_deal(1, AMERICAN)
    line = _shipped_line(1)
    for m in line[:-8]:
        game.play(m)
    assert verdict_of(game) == winning.WINNABLE
    lost = parse_position("american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0")
    assert verdict_of(lost) == winning.NOT_WINNABLE  # proved: no card can ever go home
    # a British deal set up as a position (no deal number: the census is
    # not asked), one position to look at: the count runs out first
    british = parse_position(position_text(Game.new_deal(7, BRITISH)))
    assert verdict_of(british, nodes=1) == winning.NOT_KNOWN


def test_a_british_deal_is_not_winnable_without_asking_the_solver():
    verdict = Verdict()
    verdict.look(Game.new_deal(7, BRITISH))
    assert verdict.solver is None and verdict.poll() == winning.NOT_WINNABLE  # the census proved it


def test_the_verdict_is_asked_again_after_a_move_and_not_before():
    verdict = Verdict(nodes=1)
    game = Game.new_deal(3, AMERICAN)
    verdict.look(game)
    first = verdict.solver
    verdict.look(game)
    assert verdict.solver is first  # the same position: the same request
    game.play(move(16, 17))  # a deal
    verdict.look(game)
    assert verdict.solver is not first and first.returncode is not None  # the old one stopped
    verdict.stop()


def _shipped_line(deal):
    """American deal ``deal``'s shipped line (par.py), as move ints."""
    from british_square import par

    buffer = bytearray(2 * par.MAX_LINE)
    game, moves = Game.new_deal(deal, AMERICAN), []
    while True:
        m = par.line_move(game, buffer)
        if m == par.NO_LINE:
            return moves
        game.play(m)
        moves.append(m)


def test_desktop_md_says_what_the_window_says():
    import sys

    from conftest import HW, ROOT, grouped

    sys.path.insert(0, str(HW))
    import desktop

    text = " ".join((ROOT / "docs" / "desktop.md").read_text().split())
    for said in desktop.STATUS_TEXT.values():
        assert '"{}"'.format(said) in text
    assert "each at most {} positions".format(grouped(HINT_NODES)) in text
