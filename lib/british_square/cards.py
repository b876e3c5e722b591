"""Cards as small integers: ``card = suit * 13 + rank - 1`` (0-51).

The two decks are interchangeable, so both copies of a card share a value.
Suits are ordered as PySolFC orders them: clubs, spades, hearts, diamonds.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


RANKS = "A23456789TJQK"
SUITS = "CSHD"
NO_CARD = const(255)


def rank(card):
    """Rank 1 (ace) to 13 (king)."""
    return card % 13 + 1


def suit(card):
    """Suit index 0-3 in ``SUITS`` order."""
    return card // 13


def is_red(card):
    return card >= 26


def card_name(card):
    """Two-letter name: ``"7H"``, ``"TD"``, ``"AS"``."""
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(token):
    """The card named by ``token`` (``"7H"``, ``"th"``, ``"10H"``); ValueError names a bad token."""
    text = token.upper()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError("bad card {!r}".format(token))
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])
