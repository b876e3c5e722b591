"""The board's hint: a legal move that helps whenever there is a move."""

import resource
import sys

import pytest
from conftest import LIB, ROOT
from positions import sample_games

from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver.moves import position_key
from british_square.engine import Game
from british_square.hint import BUDGET, NO_HINT, STALL_HINTS, Hinter, forward
from british_square.piles import AMERICAN, BRITISH, STOCK, UNION, WASTE, move, move_text

sys.path.insert(0, str(ROOT / "tools"))
import hint_quality  # noqa: E402

HINT_COST = ROOT / "tests" / "vm" / "hint_cost.py"
DEAL = move(STOCK, WASTE)


def hint(text):
    game = parse_position(text)
    m = Hinter().suggest(game)
    return "none" if m == NO_HINT else move_text(m)


def test_a_card_that_can_go_home_is_the_hint():
    assert hint("british 7C/AH/KD/5S - - 0,0,0,0") == "bF"


def test_a_card_home_comes_before_any_line_the_search_likes():
    # the 10H to JH with the ace of hearts on the waste
    assert hint("british 5C9DTH/JH/2S/7C 3D4D5D6D7D8D9DKSQSJS AH 0,0,0,0") == "WF"


def test_a_card_that_is_safe_to_send_home_comes_first():
    # the ace of spades could go home too, but only the second king of
    # hearts is sure to cost nothing (search.safe_move)
    assert hint("british AS/KH/7C/9D - - 0,0,13,0") == "bF"


def test_the_move_that_uncovers_an_ace():
    # 5S to the 6S frees the ace of clubs; 6S onto 5S would not
    assert hint("british AC5S/6S/KD/KH - - 0,0,0,0") == "ab"


def test_a_deal_when_the_stock_holds_what_is_wanted():
    assert hint("british KC/KD/KH/QS AH - 0,0,0,0") == "SW"


def test_a_deal_when_nothing_else_moves_as_at_the_start_of_a_british_deal():
    for deal in range(1, 31):
        game = Game.new_deal(deal, BRITISH)
        m = Hinter().suggest(game)
        assert game.is_legal(m)
        if legal_moves(game) == [DEAL]:
            assert m == DEAL


def test_nothing_found_only_when_there_is_no_legal_move():
    assert hint("british KC/KD/KH/JS - - 0,0,0,0") == "none"  # no move at all
    assert hint("british KC/5H/6H/6H - - 0,1,0,0") != "none"  # moves, none brings a card home


def hintable(game):
    """The legal moves a hint may be: all but the one that takes back the
    last move and those that only put a column's one card into a space."""
    last = game.peek()
    back = None if last is None else move(last & 0xFF, last >> 8)
    return [
        m
        for m in legal_moves(game)
        if m != back
        and not (
            m >> 8 < STOCK
            and (m & 0xFF) < STOCK
            and game.column_height(m >> 8) == 1
            and not game.column_height(m & 0xFF)
        )
    ]


def test_hints_are_legal_whenever_there_is_a_move_to_hint_and_leave_the_game_alone():
    hinter = Hinter()
    for game in sample_games(40):
        before = position_text(game)
        m = hinter.suggest(game)
        assert position_text(game) == before
        assert hinter.positions <= BUDGET
        assert (m == NO_HINT) == (not hintable(game))
        if m != NO_HINT:
            assert m in hintable(game)


def test_a_hint_never_takes_back_the_move_before_it():
    hinter = Hinter()
    taken_back = 0
    for game in sample_games(60):
        last = game.peek()
        if last is None:
            continue
        back = move(last & 0xFF, last >> 8)
        taken_back += back in legal_moves(game)
        assert hinter.suggest(game) != back
    assert taken_back > 10  # positions where taking back was legal, and not hinted


def test_after_stall_hints_in_a_row_the_hint_is_the_deal_then_none():
    # a position, not a deal: no shipped line, so the board's own hint
    game, hinter = parse_position(position_text(Game.new_deal(3, UNION))), Hinter()
    assert hinter.suggest(game) != NO_HINT
    hinter.stalled = STALL_HINTS  # as after that many hints moving cards about
    assert hinter.suggest(game) == move(STOCK, WASTE)
    game.play(move(STOCK, WASTE))
    assert hinter.suggest(game) not in (NO_HINT, move(STOCK, WASTE)) or not game.stock_count
    stuck = parse_position("american 5H/6H/8S/9S" + "/-" * 12 + " - - 0,0,0,0")
    assert hinter.suggest(stuck) != NO_HINT  # moves about: 5H onto 6H, ...
    hinter.stalled = STALL_HINTS
    assert hinter.suggest(stuck) == NO_HINT  # and no stock to deal: none


@pytest.mark.parametrize("rules", [AMERICAN, UNION])
def test_following_the_hints_alone_always_ends(rules):
    # every hint sends a card home, takes one from the stock or the waste,
    # or moves one between columns, and only STALL_HINTS of the last in a row
    # (hint.py's docstring): so hints alone end, won or with no hint
    for deal in range(1, 6):
        game, hinter = Game.new_deal(deal, rules), Hinter()
        run = 0
        last = (game.score(), game.stock_count, game.waste_count)
        for _ in range(3000):
            m = hinter.suggest(game)
            if m == NO_HINT:
                break
            game.play(m)
            now = (game.score(), game.stock_count, game.waste_count)
            assert now <= last or now[0] > last[0]  # never backwards
            run = 0 if now != last else run + 1
            assert run <= STALL_HINTS
            last = now
        assert m == NO_HINT or game.is_won() or not legal_moves(game), (rules, deal)


def cards_out_of_order(game):
    """What a forward move lowers once cards home, stock and waste are equal
    (hint.py's docstring), counted here from the position as printed."""
    built_over = base_cards = 0
    for c in range(game.columns):
        cards = game.column(c)
        base = game.base_count(c)
        base_cards += base
        for i in range(max(base, 1), len(cards)):
            built_over += goes_home_when(game, cards[i - 1]) < goes_home_when(game, cards[i])
    if game.rules == BRITISH:
        return built_over + 2 * base_cards
    return 2 * built_over + base_cards


def goes_home_when(game, card):
    """Cards home of its suit once ``card`` goes home."""
    rank = card % 13 + 1
    return rank if game.foundations[card // 13] < rank else 27 - rank


def progress(game):
    return game.cards_left(), game.stock_count, game.waste_count, cards_out_of_order(game)


def test_every_forward_move_lowers_what_the_docstring_says():
    moved = 0
    for game in sample_games(60):
        before = progress(game)
        for m in legal_moves(game):
            if forward(game, m):
                after = copy_game(game)
                after.play(m)
                assert progress(after) < before, (position_text(game), move_text(m))
                moved += 1
    assert moved > 500


@pytest.mark.parametrize("rules", range(3))
def test_hints_followed_never_come_back_to_a_position_while_the_stock_lasts(rules):
    hinter = Hinter()
    for deal in range(1, 6):
        game = Game.new_deal(deal, rules)
        seen = set()
        while game.stock_count:
            game.play(hinter.suggest(game))
            key = position_key(game, symmetric=False)
            assert key not in seen, (deal, position_text(game))
            seen.add(key)


def test_following_the_hints_wins_most_union_deals():
    # Union Square deals 1-10, every move the hint: all 10 won today (the
    # hint before this one, dealing when it found nothing: none)
    assert sum(hint_quality.follow(2, deal) == 104 for deal in range(1, 11)) >= 7


def test_following_the_hint_keeps_the_solvers_best_in_80_percent_of_positions():
    """tools/hint_quality.py on a small sample (docs/solver.md has the large
    one): positions of the solver's lines and of random play, each rule set."""
    positions = []
    for rules in range(3):
        positions += hint_quality.sample(rules, range(301, 304), 2, 0.2)
    counts = hint_quality.measure(positions, 0.2, baseline=False)
    assert counts["positions"] >= 30
    assert counts["hint"] >= 0.8 * counts["positions"], counts


def test_hint_heap_and_budget_on_the_vm(vm):
    lines = vm.run(HINT_COST, 2, heap="64K", path=(LIB,)).stdout.splitlines()
    assert len(lines) == 24
    for line in lines:
        rules, deal, moves_in, positions, heap = map(int, line.split())
        assert positions <= BUDGET
        assert heap < 8 * 1024  # the Hinter and a request, well under 8 KB


def processor_seconds(vm, *args):
    """Processor time of a VM run of hint_cost.py (the VM's clock is the wall's)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    vm.run(HINT_COST, *args, heap="64K", path=(LIB,))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def fastest(vm, *args, runs=3):
    return min(processor_seconds(vm, *args) for _ in range(runs))


# Positions where a request looks at all its 60 positions, among the
# costliest of the 60 hint_cost.py names for deals 1-5 (docs/solver.md).
COSTLY = [(1, 2, 40), (2, 2, 0), (2, 5, 40)]
REPEATS = 20
MOST_LOOP_UNITS = 260_000  # about 0.9 s on a SAMD51


def test_a_request_costs_at_most_260_000_empty_loop_units_on_the_vm(vm):
    turns = 5_000_000
    loop = (fastest(vm, "loop", turns) - fastest(vm, "loop", 0)) / turns
    for rules, deal, moves_in in COSTLY:
        setup = fastest(vm, rules, deal, moves_in, 0)
        requests = fastest(vm, rules, deal, moves_in, REPEATS)
        units = (requests - setup) / REPEATS / loop
        assert units < MOST_LOOP_UNITS, (rules, deal, moves_in, int(units))


def test_the_readme_says_how_many_hints_in_a_row_may_move_no_card_home():
    text = " ".join((ROOT / "README.md").read_text().split())
    assert "after {} hints in a row that send no card home".format(STALL_HINTS) in text
