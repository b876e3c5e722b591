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


def card_name(card):
    """Two-letter name: ``"7H"``, ``"TD"``, ``"AS"``."""
    return RANKS[card % 13] + SUITS[card // 13]


# Either case names a card: "th" is "TH". Looked up letter by letter, never
# through str.upper(), which would also turn a non-ASCII letter such as the long s
# into an ASCII one.
_RANK_LETTERS = RANKS + RANKS.lower()
_SUIT_LETTERS = SUITS + SUITS.lower()


def parse_card(token):
    """The card named by ``token``: ``"7H"``, or in lower case ``"7h"``, or
    ``"10H"`` for a ten; ValueError names a bad token."""
    if len(token) == 3 and token[:2] == "10":
        r, s = 9, _SUIT_LETTERS.find(token[2])
    elif len(token) == 2:
        r, s = _RANK_LETTERS.find(token[0]), _SUIT_LETTERS.find(token[1])
    else:
        r = s = -1
    if r < 0 or s < 0:
        raise ValueError("bad card {!r}".format(token))
    return s % 4 * 13 + r % 13
