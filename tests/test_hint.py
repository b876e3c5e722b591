"""The board's hint: a legal move that helps, or honestly none."""

from conftest import LIB, ROOT
from positions import sample_games

from british_square.desktop.notation import parse_position, position_text
from british_square.hint import BUDGET, NO_HINT, Hinter
from british_square.piles import move_text

HINT_COST = ROOT / "tests" / "vm" / "hint_cost.py"


def hint(text):
    game = parse_position(text)
    m = Hinter().suggest(game)
    return "none" if m == NO_HINT else move_text(m)


def test_a_card_that_can_go_home_is_the_hint():
    assert hint("british 7C/AH/KD/5S - - 0,0,0,0") == "bF"


def test_the_move_that_uncovers_an_ace():
    # 5S to the 6S frees the ace of clubs; 6S onto 5S would not
    assert hint("british AC5S/6S/KD/KH - - 0,0,0,0") == "ab"


def test_a_deal_when_the_stock_holds_what_is_wanted():
    assert hint("british KC/KD/KH/QS AH - 0,0,0,0") == "SW"


def test_nothing_useful_is_said_honestly():
    assert hint("british KC/KD/KH/JS - - 0,0,0,0") == "none"  # no move at all
    assert hint("british KC/5H/6H/6H - - 0,1,0,0") == "none"  # moves, no progress


def test_hints_are_legal_and_leave_the_game_alone():
    hinter = Hinter()
    hinted = 0
    for game in sample_games(30):
        before = position_text(game)
        m = hinter.suggest(game)
        assert position_text(game) == before
        assert hinter.positions <= BUDGET
        if m != NO_HINT:
            assert game.is_legal(m)
            hinted += 1
    assert hinted > 10


def test_hint_heap_and_budget_on_the_vm(vm):
    lines = vm.run(HINT_COST, 2, heap="64K", path=(LIB,)).stdout.splitlines()
    assert len(lines) == 6
    for line in lines:
        rules, positions, loop_units, heap = map(int, line.split())
        assert positions <= BUDGET
        assert heap < 8 * 1024  # the Hinter and a request, well under 8 KB
