"""Every rule of RULES.md on hand-built positions, for every rule set it applies to.

Positions are one-line texts (see ``british_square.desktop.notation``): columns
bottom card first, ``.`` between a column's base and its built sequence.
Columns are lettered ``a``, ``b``, ... in moves.
"""

import pytest
from positions import (
    NOT_UNION,
    RULES,
    all_pairs,
    blocked,
    column_text,
    dead_verdict,
    documented_order,
    game,
    legal,
    legal_texts,
    play,
    sample_games,
    text,
)

from british_square.cards import parse_card
from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import parse_move
from british_square.engine import STATUS_LOST, STATUS_PLAYING, STATUS_WON, Game
from british_square.piles import (
    BUILDS_DOWN,
    BUILDS_FREE,
    BUILDS_UP,
    FOUNDATION,
    STOCK,
    WASTE,
    move,
    move_source,
    move_target,
)
from british_square.search import ALIVE, DEAD, UNDECIDED

HEARTS = 2
# A..K then K..A of hearts: the order a foundation takes them (the waste's top is last).
HEARTS_HOME = "AH2H3H4H5H6H7H8H9HTHJHQHKH" + "KHQHJHTH9H8H7H6H5H4H3H2HAH"

each_rules = pytest.mark.parametrize("rules", RULES)
not_union = pytest.mark.parametrize("rules", NOT_UNION)


# ----------------------------------------------------------- foundations


@each_rules
def test_a_foundation_starts_with_an_ace_of_its_suit_either_copy(rules):
    g = game(rules, "AH", "AH", "2H", "AS")
    assert legal(g, "aF") and legal(g, "bF") and legal(g, "dF")
    assert not legal(g, "cF")  # a two cannot start a foundation
    play(g, "bF")
    assert g.foundations[HEARTS] == 1 and g.score() == 1
    assert not legal(g, "aF")  # the other ace must wait for the descent
    assert legal(g, "cF")


@each_rules
@pytest.mark.parametrize("count", range(26))
def test_a_foundation_takes_only_the_next_rank_of_its_suit(rules, count):
    need = "A23456789TJQK".index(HEARTS_HOME[2 * count]) + 1  # spelt out, not computed
    found = (0, 0, count, 0)
    for r, name in enumerate("A23456789TJQK", 1):
        if (count >= r) + (count >= 27 - r) == 2:
            continue  # both copies already home
        g = game(rules, name + "H", name + "S", foundations=found)
        assert g.needs(HEARTS) == need
        assert legal(g, "aF") == (r == need), (name, count)
        assert legal(g, "bF") == (r == 1), (name, count)  # spades want their ace


@each_rules
def test_a_foundation_builds_up_to_the_king_then_down_from_the_second_king(rules):
    g = game(rules, stock="5C", waste=HEARTS_HOME)
    start = text(g)
    ranks = []
    for count in range(26):
        card = g.top(WASTE)
        assert g.needs(HEARTS) == card % 13 + 1
        ranks.append(card % 13 + 1)
        play(g, "WF")
        assert g.foundations[HEARTS] == count + 1 == g.score()
    assert ranks == list(range(1, 14)) + list(range(13, 0, -1))
    assert g.needs(HEARTS) == 0  # 26 cards: complete
    while g.undo() is not None:
        pass
    assert text(g) == start


@each_rules
def test_the_second_king_goes_on_only_after_the_first(rules):
    g = game(rules, "KH", "KH", "QH", foundations=(0, 0, 11, 0))
    assert not legal(g, "aF") and legal(g, "cF")
    play(g, "cF", "aF")
    assert g.foundations[HEARTS] == 13
    assert legal(g, "bF")
    play(g, "bF")
    assert g.foundations[HEARTS] == 14 and g.needs(HEARTS) == 12


@each_rules
def test_a_card_on_a_foundation_never_comes_back(rules):
    g = game(rules, "2H", "3H", stock="4H", waste="AS", foundations=(0, 0, 1, 0))
    play(g, "aF")
    for m in all_pairs(g):
        if move_source(m) == FOUNDATION:
            assert not g.is_legal(m)
    assert all(move_source(m) != FOUNDATION for m in legal_moves(g))
    for token in ("Fa", "Fb", "FW", "FS"):
        with pytest.raises(ValueError, match=token):
            parse_move(token, g)


# -------------------------------------------------------- tableau building


@each_rules
def test_building_is_by_suit_one_rank_up_or_down(rules):
    g = game(rules, "7H", "8H", "6H", "8S")
    assert legal(g, "ab") and legal(g, "ac")  # 7H on 8H, 7H on 6H
    assert not legal(g, "ad") and not legal(g, "da")  # other suit
    assert legal(g, "ba") and not legal(g, "bc")  # 8H on 7H; 8H on 6H is two ranks


@each_rules
def test_a_card_never_builds_on_its_own_rank(rules):
    g = game(rules, "7H", "7H", "7S")
    assert not any(legal(g, t) for t in ("ab", "ba", "ac", "ca", "bc"))


@each_rules
def test_moves_take_one_card_at_a_time(rules):
    g = game(rules, "5C.6C7C8C", "9C")
    play(g, "ab")
    assert column_text(g, 0) == "5C.6C7C" and column_text(g, 1) == "9C.8C"


@each_rules
def test_nothing_wraps_between_king_and_ace(rules):
    # KC and AS are neighbouring card values in the engine: they must not build either.
    g = game(rules, "KH", "AH", "KC", "AS")
    for token in ("ab", "ba", "cd", "dc", "ad", "bc"):
        assert not legal(g, token), token


@each_rules
def test_the_first_built_card_sets_the_direction_up(rules):
    # RULES.md's example: 8H on 7H, then 9H may follow; another 7H may not.
    g = game(rules, "7H", "8H", "9H", "7H")
    assert g.direction(0) == BUILDS_FREE
    play(g, "ba")
    assert column_text(g, 0) == "7H.8H" and g.direction(0) == BUILDS_UP
    assert legal(g, "ca") and not legal(g, "da")
    play(g, "ca")
    assert column_text(g, 0) == "7H.8H9H" and g.direction(0) == BUILDS_UP


@each_rules
def test_the_first_built_card_sets_the_direction_down(rules):
    # Had 6H been placed first, the column would build down.
    g = game(rules, "7H", "6H", "5H", "7H")
    play(g, "ba")
    assert column_text(g, 0) == "7H.6H" and g.direction(0) == BUILDS_DOWN
    assert legal(g, "ca") and not legal(g, "da")


@each_rules
@pytest.mark.parametrize(
    "built, others, direction, fresh",
    [
        ("QH.KH", ("QH", "AH", "KH"), BUILDS_UP, ("KH", "QH")),
        ("2H.AH", ("2H", "KH", "AH"), BUILDS_DOWN, ("AH", "2H")),
    ],
)
def test_an_up_sequence_ends_at_the_king_and_a_down_one_at_the_ace(
    rules, built, others, direction, fresh
):
    g = game(rules, built, *others)
    assert g.direction(0) == direction
    assert not legal(g, "ba")  # the turn back is against the direction
    assert not legal(g, "ca")  # and nothing wraps round the corner
    assert legal(game(rules, *fresh), "ba")  # with nothing built on it, it builds the other way


@each_rules
def test_the_direction_is_free_again_when_the_built_sequence_is_gone(rules):
    g = game(rules, "7H.8H", "9H", "6H", "8H")
    play(g, "ab")  # 8H leaves: only the base 7H is left
    assert column_text(g, 0) == "7H" and g.direction(0) == BUILDS_FREE
    assert legal(g, "ca") and legal(g, "da")  # down and up are both open again
    play(g, "ca")
    assert g.direction(0) == BUILDS_DOWN and not legal(g, "da")


@each_rules
def test_changing_direction_by_moving_the_top_card_to_another_column(rules):
    g = game(rules, "6H.7H8H", "9H", "TH.9H")
    assert g.direction(0) == BUILDS_UP
    play(g, "ab")  # 8H starts column b's sequence down
    assert column_text(g, 1) == "9H.8H" and g.direction(1) == BUILDS_DOWN
    play(g, "ab")  # and 7H continues it
    assert column_text(g, 1) == "9H.8H7H" and column_text(g, 0) == "6H"
    g = game(rules, "5H.6H7H", "9H.8H")
    assert legal(g, "ab")  # 7H continues column b's down sequence


def test_british_columns_have_four_dealt_base_cards():
    g = game("british", "2C9D5S7H.8H", "TH.9H", "6S", "4S")
    assert list(g.base) == [4, 1, 1, 1]
    play(g, "ab")  # 8H goes, then 7H: the base's next card 5S is exposed
    assert column_text(g, 0) == "2C9D5S7H" and g.direction(0) == BUILDS_FREE
    assert not legal(g, "ca") and not legal(g, "da")
    play(g, "ab")
    assert column_text(g, 0) == "2C9D5S" and g.base_count(0) == 3
    assert g.direction(0) == BUILDS_FREE  # 5S is unrelated to the 7H that left
    assert legal(g, "ca") and legal(g, "da")
    play(g, "ca")
    assert column_text(g, 0) == "2C9D5S.6S" and g.direction(0) == BUILDS_UP
    assert not legal(g, "da")


def test_british_dealt_cards_in_sequence_do_not_set_a_direction():
    # PySolFC reads the direction off the bottom two cards; RULES.md does not.
    g = game("british", "6H7H", "8H", "6H", "2C")
    assert g.direction(0) == BUILDS_FREE
    assert legal(g, "ba") and legal(g, "ca")


@each_rules
def test_the_waste_top_card_is_playable(rules):
    g = game(rules, "7H", "3C", "KD", stock="5S", waste="9S8H")
    assert legal(g, "Wa") and not legal(g, "Wb")
    play(g, "Wa")
    assert column_text(g, 0) == "7H.8H" and g.top(WASTE) == parse_card("9S")
    g = game(rules, "7H", "KD", waste="8HAS")
    assert legal(g, "WF") and not legal(g, "Wa")  # 8H is not the top card
    g = game(rules, "7H", "KD", waste="2C")
    assert legal(g, "Wc")  # into an empty column, in every rule set


# ------------------------------------------------------------ empty columns


@not_union
def test_a_space_takes_only_the_waste_top_or_the_stock_card(rules):
    g = game(rules, "7H", "-", "5C", "9D", stock="KS2D", waste="QC")
    assert legal(g, "Wb") and legal(g, "Sb")
    assert not legal(g, "ab") and not legal(g, "cb") and not legal(g, "db")
    before = text(g)
    play(g, "Sb")  # the next stock card turned straight into the space
    assert column_text(g, 1) == "2D" and g.base_count(1) == 1 and g.stock_count == 1
    assert g.top(WASTE) == parse_card("QC")
    g.undo()
    assert text(g) == before
    play(g, "Wb")
    assert column_text(g, 1) == "QC" and g.waste_count == 0


def test_a_union_space_takes_any_playable_card_but_not_the_stock_card():
    g = game("union", "7H", "-", "5C.4C", "9D", stock="KS2D", waste="QC")
    for token in ("ab", "cb", "db", "Wb"):
        assert legal(g, token), token
    assert not legal(g, "Sb")
    assert all(move_source(m) != STOCK or move_target(m) == WASTE for m in legal_moves(g))
    play(g, "cb")  # a built card that fills a space becomes its base
    assert column_text(g, 1) == "4C" and column_text(g, 2) == "5C"


@each_rules
def test_a_card_that_fills_a_space_is_its_base_and_builds_either_way(rules):
    g = game(rules, "JC", "-", "KC", stock="4S", waste="QC")
    play(g, "Wb")
    assert column_text(g, 1) == "QC" and g.base_count(1) == 1 and g.direction(1) == BUILDS_FREE
    assert legal(g, "ab") and legal(g, "cb")
    play(g, "ab")
    assert column_text(g, 1) == "QC.JC" and g.direction(1) == BUILDS_DOWN


@not_union
def test_the_stock_card_goes_only_into_a_space(rules):
    g = game(rules, "7H", "2H", stock="8H")
    assert not legal(g, "Sa") and not legal(g, "Sb")
    assert legal(g, "Sc")
    assert not legal(game(rules, "7H", "-", stock="-", waste="9C"), "Sb")  # no stock card


# ------------------------------------------------------------ stock and waste


@each_rules
def test_the_stock_deals_one_card_at_a_time_to_the_waste(rules):
    g = game(rules, "7H", stock="AH2H3H", waste="9C")
    play(g, "SW")
    assert text(g).split()[2:4] == ["AH2H", "9C3H"]
    play(g, "SW", "SW")
    assert text(g).split()[2:4] == ["-", "9C3H2HAH"]


@each_rules
def test_the_stock_may_be_dealt_at_any_time(rules):
    g = game(rules, "AH", "2H", stock="3H")
    assert legal(g, "aF") and legal(g, "SW")


@each_rules
def test_the_stock_card_itself_is_not_playable(rules):
    g = game(rules, "2H", "KD", stock="AH", waste="5C")
    assert not legal(g, "SF") and not legal(g, "Sa")
    g = game(rules, "7H", "KD", stock="8H")
    assert not legal(g, "Sa")


@each_rules
def test_there_is_no_redeal(rules):
    g = game(rules, "7H", "KD", stock="-", waste="3H2H")
    assert not legal(g, "SW")
    assert not any(g.is_legal(move(s, STOCK)) for s in range(FOUNDATION + 2))
    assert all(move_source(m) != STOCK and move_target(m) != STOCK for m in legal_moves(g))
    with pytest.raises(ValueError, match="WS"):
        parse_move("WS", g)


# ---------------------------------------------------------- status and score


@each_rules
def test_won_when_all_104_cards_are_home(rules):
    g = game(rules, "AD", foundations=(26, 26, 26, 25))
    assert g.status() == STATUS_PLAYING and g.score() == 103
    play(g, "aF")
    assert g.status() == STATUS_WON and g.score() == 104


@each_rules
def test_lost_when_the_stock_is_empty_and_no_move_is_legal(rules):
    g = blocked(rules, "2C", "4C", "6C", "8C", waste="9S")
    assert legal_moves(g) == []
    assert g.status() == STATUS_LOST
    g = blocked(rules, "2C", "4C", "6C", "8C", stock="9S")
    assert legal_texts(g) == ["SW"] and g.status() == STATUS_PLAYING


@each_rules
def test_spaces_keep_a_game_going_only_in_union_square(rules):
    # British Square and American spaces take only the waste or stock card.
    g = game(rules, "2C", "4C")
    assert g.status() == (STATUS_PLAYING if rules == "union" else STATUS_LOST)


@each_rules
def test_a_game_with_moves_left_is_playing_even_if_dead(rules):
    g = blocked(rules, *DEAD_COLUMNS)
    assert g.stock_count == 0 and legal_moves(g)
    assert g.status() == STATUS_PLAYING


@each_rules
def test_the_score_is_the_cards_home(rules):
    g = game(rules, "2H", foundations=(3, 13, 1, 26))
    assert g.score() == 43
    play(g, "aF")
    assert g.score() == 44
    assert Game.new_deal(1, RULES.index(rules)).score() == 0


# ------------------------------------------------------------ dead positions

# AC lies under 2C3C4C with no other club to take them; 7S can shuttle between
# the two 8S for ever. No sequence of moves puts a card home.
DEAD_COLUMNS = ("AC.2C3C4C", "8S.7S", "8S")
# 3C and then 2C go onto 4C, which frees AC: alive after two tableau moves.
ALIVE_COLUMNS = ("AC.2C3C", "4C")


def _search_leaves_the_game_alone(g, budget):
    before = text(g)
    history = (b"".join(g.history), g.history_count, g.history_end)
    result = dead_verdict(g, budget)
    assert text(g) == before
    assert (b"".join(g.history), g.history_count, g.history_end) == history
    return result


@each_rules
def test_a_blocked_position_with_shuttles_left_is_dead(rules):
    g = blocked(rules, *DEAD_COLUMNS)
    assert _search_leaves_the_game_alone(g, 1000) == DEAD


@each_rules
def test_a_position_two_tableau_moves_from_a_foundation_move_is_alive(rules):
    g = blocked(rules, *ALIVE_COLUMNS)
    assert all(move_target(m) != FOUNDATION for m in legal_moves(g))
    assert _search_leaves_the_game_alone(g, 1000) == ALIVE
    play(g, "ab", "ab")
    assert legal(g, "aF")


@each_rules
def test_the_dead_search_deals_the_stock(rules):
    g = blocked(rules, *DEAD_COLUMNS, stock="AD9S")
    assert _search_leaves_the_game_alone(g, 1000) == ALIVE  # SW, SW, WF
    g = blocked(rules, *DEAD_COLUMNS, stock="9S")
    assert _search_leaves_the_game_alone(g, 1000) == DEAD


@each_rules
def test_the_dead_search_says_unknown_when_its_budget_runs_out(rules):
    for columns in (DEAD_COLUMNS, ALIVE_COLUMNS):
        g = blocked(rules, *columns)
        assert _search_leaves_the_game_alone(g, 1) == UNDECIDED
    assert dead_verdict(blocked(rules, "AC", "5C"), 1) == ALIVE  # a foundation move now
    assert dead_verdict(blocked(rules, "2C", "5C"), 1) == DEAD  # no move at all


# ------------------------------------------------------------ legal moves


HAND_BUILT = (
    ("7H.8H", "9H", "6H", "8H"),
    ("AH", "AH", "2H", "AS"),
    ("7H", "-", "5C.4C", "9D"),
    DEAD_COLUMNS,
    ALIVE_COLUMNS,
)


def _hand_built_games():
    out = []
    for rules in RULES:
        for columns in HAND_BUILT:
            for stock, waste in (("-", "-"), ("KS2D", "QC"), ("-", "3D")):
                out.append(game(rules, *columns, stock=stock, waste=waste))
    return out


@pytest.fixture(scope="module")
def many_games():
    return _hand_built_games() + sample_games()


def test_legal_moves_come_in_the_documented_order(many_games):
    for g in many_games:
        moves = legal_moves(g)
        assert moves == documented_order(g), text(g)
        assert moves == legal_moves(copy_game(g)) == legal_moves(g)  # deterministic
        assert len(set(moves)) == len(moves)


def test_is_legal_agrees_with_the_legal_moves_for_every_pair(many_games):
    for g in many_games:
        legal_set = set(legal_moves(g))
        for m in all_pairs(g):
            assert g.is_legal(m) == (m in legal_set), (text(g), m)


def test_a_too_small_move_buffer_is_refused_and_spoils_no_later_generation():
    g = game("british", "7H", "8H", "6H", "8S")
    with pytest.raises(ValueError, match="MAX_MOVES"):
        g.legal_moves(bytearray(2))  # too small for the worst case
    other = game("british", "5C", "8H", "2D", "4S", waste="7H")
    assert legal_texts(other) == ["Wb"]
