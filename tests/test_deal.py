"""Deal numbers 1-31999 deal as PySolFC deals its game 35, Union Square.

The reference is the PyPI package ``pysol_cards``: its shuffle of two decks
for a number gives PySolFC's card list, and PySolFC's talon deals from the
end of it: the 16 piles row by row, then (Union Square) one card to the waste.
"""

import random

import pytest
from positions import RULES, text
from pysol_cards.cards import createCards
from pysol_cards.random import shuffle
from pysol_cards.random_base import RandomBase

from british_square.deal import shuffled_talon
from british_square.engine import Game
from british_square.piles import AMERICAN, BRITISH, UNION

DEALS = sorted(set(range(1, 201)) | set(random.Random(35).sample(range(1, 32000), 300)) | {31999})


def pysol_talon(number):
    """PySolFC's shuffled list as engine card values: the LAST card is dealt first."""
    cards = shuffle(createCards(2), number, RandomBase.DEALS_MS)
    return [card.suit * 13 + card.rank - 1 for card in cards]


def union_layout(number):
    """(16 piles in row-major order, the waste card, the rest of the talon) per PySolFC."""
    talon = pysol_talon(number)
    piles = [talon.pop() for _ in range(16)]
    waste = talon.pop()
    return piles, waste, talon


def test_the_shuffle_is_pysolfcs():
    for number in DEALS:
        assert list(shuffled_talon(number)) == pysol_talon(number), number


def layout_of(g):
    """(columns bottom first, bases, stock with the next card last, waste, foundations)."""
    return (
        [list(g.column(c)) for c in range(g.columns)],
        [g.base_count(c) for c in range(g.columns)],
        [g.stock_card(k) for k in range(g.stock_count - 1, -1, -1)],
        [g.waste_card(k) for k in range(g.waste_count - 1, -1, -1)],
        list(g.foundations),
    )


def expected_layout(number, rules):
    """The layout RULES.md and PySolFC give deal ``number``; no card goes home in the deal."""
    piles, waste, rest = union_layout(number)
    if rules == UNION:
        return [[card] for card in piles], [1] * 16, rest, [waste], [0] * 4
    if rules == AMERICAN:
        return [[card] for card in piles], [1] * 16, rest + [waste], [], [0] * 4
    # British Square: pile r * 4 + c is column c at depth r (depth 0 at the bottom).
    columns = [[piles[r * 4 + c] for r in range(4)] for c in range(4)]
    return columns, [4] * 4, rest + [waste], [], [0] * 4


@pytest.mark.parametrize("rules", RULES)
def test_deals_match_pysolfc(rules):
    for number in DEALS:
        g = Game.new_deal(number, RULES.index(rules))
        assert layout_of(g) == expected_layout(number, RULES.index(rules)), number
        assert g.deal_number == number and g.history_count == 0
    assert Game.new_deal(1, UNION).stock_count == 87
    assert Game.new_deal(1, AMERICAN).stock_count == 88 == Game.new_deal(1, BRITISH).stock_count


@pytest.mark.parametrize("rules", RULES)
def test_a_deal_is_the_same_every_time(rules):
    assert text(Game.new_deal(31999, RULES.index(rules))) == text(
        Game.new_deal(31999, RULES.index(rules))
    )


@pytest.mark.parametrize("number", [0, 32000, -1, 10**6])
@pytest.mark.parametrize("rules", RULES)
def test_bad_deal_numbers_raise(number, rules):
    with pytest.raises(ValueError, match=str(number)):
        Game.new_deal(number, RULES.index(rules))


def test_bad_rules_raise():
    with pytest.raises(ValueError):
        Game.new_deal(1, 3)
