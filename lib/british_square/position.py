"""A position from card lists, checked: could the engine's game hold it?
And the rule for every number read from outside (``parse_number``).

``build_game`` is the one place that sets up a ``Game`` at any position: the
text and JSON readers (``notation``) and the save's loader (``resume``) call
it. It is a module of its own so that a board resuming a long game (saved
from a start position) loads this check and not the whole text module; and
so that ``code.py``'s options and the harness's numbers (desktop and VM),
run once and let go, read numbers by the same rule as the desktop command
without loading the text module either.
"""

from british_square.cards import card_name
from british_square.engine import Game
from british_square.piles import COLUMN_CAPACITY, DEALT, RULE_NAMES, TALON_CAPACITY, pile_text


def quoted(value, most=40):
    """``repr(value)`` for an error message naming bad input, cut short past
    ``most`` characters so that the message stays one readable line."""
    try:
        text = repr(value)
    except ValueError:  # CPython will not print an int of thousands of digits
        return "(a number thousands of digits long)"
    if len(text) <= most:
        return text
    return text[: most - 3] + "..."


def parse_number(token, what, low, high):
    """The int ``token`` writes: ASCII digits only, no sign, no leading zero,
    ``low``-``high``. ValueError names ``what`` and the token (cut short)."""
    if (
        not token
        or len(token) > len(str(high))  # before int(): a token may be any length
        or not all("0" <= ch <= "9" for ch in token)
        or (token[0] == "0" and token != "0")
        or not low <= int(token) <= high
    ):
        raise ValueError(
            "bad {} {}: want {}-{} in ASCII digits, no sign or leading zero".format(
                what, quoted(token), low, high
            )
        )
    return int(token)


def build_game(rules, columns, bases, stock, waste, foundations):
    """A new ``Game`` from card lists, checking that the position can exist."""
    game = Game(rules)
    if len(columns) != game.columns:
        raise ValueError(
            "bad columns: {} {} has {} columns, not {}".format(
                RULE_NAMES[rules], "game", game.columns, len(columns)
            )
        )
    if len(bases) != game.columns:
        raise ValueError(
            "bad base {}: {} counts, not {}".format(quoted(bases), game.columns, len(bases))
        )
    copies = bytearray(52)
    dealt = DEALT // game.columns  # a base shrinks from what was dealt
    for c, cards in enumerate(columns):
        base = bases[c]
        if len(cards) > COLUMN_CAPACITY:
            raise ValueError("bad column {}: more than 16 cards".format(pile_text(c)))
        if not 0 <= base <= len(cards) or (cards and not base):
            raise ValueError("bad base {} for column {}".format(quoted(base), pile_text(c)))
        if base > dealt:
            raise ValueError(
                "bad base {} for column {}: {} dealt".format(quoted(base), pile_text(c), dealt)
            )
        step = 0
        for i in range(base, len(cards)):
            below, card = cards[i - 1], cards[i]
            if (
                card // 13 != below // 13
                or abs(card - below) != 1
                or (step and card - below != step)
            ):
                raise ValueError(
                    "bad column {}: {} cannot be built on {}".format(
                        pile_text(c), card_name(card), card_name(below)
                    )
                )
            step = card - below
        start = c * COLUMN_CAPACITY
        game.cells[start : start + len(cards)] = bytes(cards)
        game.height[c] = len(cards)
        game.base[c] = base
        for card in cards:
            copies[card] += 1
    for name, cards in (("stock", stock), ("waste", waste)):
        if len(cards) > TALON_CAPACITY:
            raise ValueError("bad {}: more than {} cards".format(name, TALON_CAPACITY))
        for card in cards:
            copies[card] += 1
    if len(stock) + len(waste) > TALON_CAPACITY:  # the stock is dealt from 88 cards at most
        raise ValueError("bad stock and waste: more than {} cards".format(TALON_CAPACITY))
    game.stock[0 : len(stock)] = bytes(stock)
    game.stock_count = len(stock)
    game.waste[0 : len(waste)] = bytes(waste)
    game.waste_count = len(waste)
    for suit, n in enumerate(foundations):
        if not 0 <= n <= 26:
            raise ValueError("bad foundation count {}: 0-26".format(quoted(n)))
        game.foundations[suit] = n
        for r in range(1, 14):
            copies[suit * 13 + r - 1] += (n >= r) + (n >= 27 - r)
    for card in range(52):
        if copies[card] > 2:
            raise ValueError("bad position: {} copies of {}".format(copies[card], card_name(card)))
    return game
