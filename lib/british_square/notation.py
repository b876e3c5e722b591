"""Text formats: a one-line position string and a two-letter move notation.

Position (like chess FEN), five fields separated by single spaces::

    RULES COLUMNS STOCK WASTE FOUNDATIONS
    british 4C9HKD7H/2S3S5D6D.7D/-/AH QS...2C - 0,0,0,0

* ``RULES``: ``british``, ``american`` or ``union``.
* ``COLUMNS``: the columns left to right (4, or 16 piles row by row)
  separated by ``/``; each lists its cards bottom first, its base cards and
  then, after a ``.``, the cards built on them; ``-`` for an empty column.
* ``STOCK``: its cards, the next to be dealt last; ``WASTE``: its cards, the
  top (playable) one last; ``-`` when empty.
* ``FOUNDATIONS``: cards on the clubs, spades, hearts and diamonds
  foundations, 0-26 each (13 is A..K, 14 adds the second king, 26 is complete).

Move (like chess UCI): source then target. Columns are ``a``, ``b``, ... (``a``
-``p`` for 16 piles, row by row), ``S`` the stock, ``W`` the waste, ``F`` the
foundation: ``aF`` (column a home), ``Wc`` (waste onto column c), ``SW`` (deal),
``Sb`` (stock card straight into the empty column b). ``parse_move`` checks the
letters; legality is ``Game.play``'s.

Parsing raises ``ValueError`` naming the offending token and never changes an
existing game: it builds a new one.
"""

from british_square.cards import card_name, parse_card
from british_square.engine import (
    BRITISH,
    COLUMN_CAPACITY,
    COLUMN_LETTERS,
    FOUNDATION,
    RULE_NAMES,
    STOCK,
    TALON_CAPACITY,
    WASTE,
    Game,
    move,
    move_source,
    move_target,
    move_text,  # noqa: F401  (re-exported: the text formats are read from here)
    pile_text,
)


def rules_from_name(name):
    """``BRITISH``, ``AMERICAN`` or ``UNION`` from its name."""
    if name not in RULE_NAMES:
        raise ValueError("bad rules {!r}: use british, american or union".format(name))
    return RULE_NAMES.index(name)


# ------------------------------------------------------------------- moves


def parse_move(token, game):
    """The move int for ``token`` in ``game``: checks the letters, not legality."""
    if len(token) != 2:
        raise ValueError("bad move {!r}: two letters, source then target".format(token))
    ends = []
    for letter in token:
        if letter in "SWF":
            ends.append("SWF".index(letter) + STOCK)
        else:
            column = COLUMN_LETTERS.find(letter)
            if column < 0 or column >= game.columns:
                raise ValueError("bad move {!r}: no pile {!r}".format(token, letter))
            ends.append(column)
    if ends[0] == FOUNDATION or ends[1] == STOCK:
        raise ValueError(
            "bad move {!r}: cards never leave a foundation or go to the stock".format(token)
        )
    return move(ends[0], ends[1])


def play_text(game, token):
    """Parse the move ``token`` and play it with ``Game.play``; ``ValueError``
    (``IllegalMoveError`` when it is not legal here) names it."""
    m = parse_move(token, game)
    game.play(m)
    return m


# ---------------------------------------------------------------- position


def _cards_text(cards):
    return "".join(card_name(c) for c in cards) or "-"


def _stock_cards(game):
    """The stock's cards, the next to be dealt last."""
    return [game.stock_card(k) for k in range(game.stock_count - 1, -1, -1)]


def _waste_cards(game):
    """The waste's cards, the playable one last."""
    return [game.waste_card(k) for k in range(game.waste_count - 1, -1, -1)]


def position_text(game):
    """The one-line position string of ``game``."""
    columns = []
    for c in range(game.columns):
        cards = game.column(c)
        if not cards:
            columns.append("-")
            continue
        base = game.base_count(c)
        text = _cards_text(cards[:base])
        if len(cards) > base:
            text += "." + _cards_text(cards[base:])
        columns.append(text)
    return " ".join(
        (
            RULE_NAMES[game.rules],
            "/".join(columns),
            _cards_text(_stock_cards(game)),
            _cards_text(_waste_cards(game)),
            ",".join(str(n) for n in game.foundations),
        )
    )


def _parse_cards(text, what):
    if text == "-":
        return []
    if len(text) % 2:
        raise ValueError("bad {} {!r}: cards are two letters each".format(what, text))
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def parse_position(text):
    """A new ``Game`` at the position ``text``; ValueError names the bad token."""
    fields = text.split()
    if len(fields) != 5:
        raise ValueError(
            "bad position: {} fields, want RULES COLUMNS STOCK WASTE FOUNDATIONS".format(
                len(fields)
            )
        )
    rules = rules_from_name(fields[0])
    columns = []
    bases = []
    for token in fields[1].split("/"):
        base_text, _, built_text = token.partition(".")
        base = _parse_cards(base_text, "column")
        built = _parse_cards(built_text, "column") if built_text else []
        if built and not base:
            raise ValueError("bad column {!r}: built cards need a base".format(token))
        columns.append(base + built)
        bases.append(len(base))
    counts = fields[4].split(",")
    if len(counts) != 4:
        raise ValueError("bad foundations {!r}: four counts".format(fields[4]))
    foundations = []
    for token in counts:
        if not token.isdigit() or int(token) > 26:
            raise ValueError("bad foundation count {!r}: 0-26".format(token))
        foundations.append(int(token))
    return build_game(
        rules,
        columns,
        bases,
        _parse_cards(fields[2], "stock"),
        _parse_cards(fields[3], "waste"),
        foundations,
    )


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
        raise ValueError("bad base {!r}: {} counts, not {}".format(bases, game.columns, len(bases)))
    copies = bytearray(52)
    for c, cards in enumerate(columns):
        base = bases[c]
        if len(cards) > COLUMN_CAPACITY:
            raise ValueError("bad column {}: more than 16 cards".format(pile_text(c)))
        if not 0 <= base <= len(cards) or (cards and not base):
            raise ValueError("bad base {} for column {}".format(base, pile_text(c)))
        if rules != BRITISH and base > 1:
            raise ValueError("bad base {} for pile {}: one card".format(base, pile_text(c)))
        if base > 4:
            raise ValueError("bad base {} for column {}: four cards".format(base, pile_text(c)))
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
            raise ValueError("bad foundation count {}: 0-26".format(n))
        game.foundations[suit] = n
        for r in range(1, 14):
            copies[suit * 13 + r - 1] += (n >= r) + (n >= 27 - r)
    for card in range(52):
        if copies[card] > 2:
            raise ValueError("bad position: {} copies of {}".format(copies[card], card_name(card)))
    return game


# -------------------------------------------------------------------- JSON

_SUIT_KEYS = "CSHD"


def position_dict(game):
    """The position as the JSON-ready dict the desktop command prints."""
    columns = [[card_name(c) for c in game.column(i)] for i in range(game.columns)]
    return {
        "rules": RULE_NAMES[game.rules],
        "columns": columns,
        "base": [game.base_count(c) for c in range(game.columns)],
        "stock": [card_name(c) for c in _stock_cards(game)],
        "waste": [card_name(c) for c in _waste_cards(game)],
        "foundations": {_SUIT_KEYS[s]: game.foundations[s] for s in range(4)},
    }


def _card_list(value, what):
    if not isinstance(value, list):
        raise ValueError("bad {}: a list of cards".format(what))
    out = []
    for token in value:
        if not isinstance(token, str):
            raise ValueError("bad card {!r} in {}".format(token, what))
        out.append(parse_card(token))
    return out


def _is_count(value):
    """An int that is not a bool (JSON ``true`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def game_from_dict(data):
    """A new ``Game`` from the JSON position dict; ValueError names the bad part."""
    if not isinstance(data, dict):
        raise ValueError("bad position: a JSON object")
    rules = rules_from_name(data.get("rules", "british"))
    columns = data.get("columns")
    if not isinstance(columns, list):
        raise ValueError("bad columns: a list of card lists")
    columns = [_card_list(col, "column") for col in columns]
    bases = data.get("base")
    if bases is None:  # default: every card dealt, nothing built
        bases = [len(col) for col in columns]
    if not isinstance(bases, list) or not all(_is_count(b) for b in bases):
        raise ValueError("bad base {!r}: a list of counts".format(bases))
    found = data.get("foundations", {})
    if not isinstance(found, dict):
        raise ValueError("bad foundations {!r}".format(found))
    for key in found:
        if key not in _SUIT_KEYS:
            raise ValueError("bad foundation suit {!r}".format(key))
    counts = []
    for s in _SUIT_KEYS:
        n = found.get(s, 0)
        if not _is_count(n):
            raise ValueError("bad foundation count {!r}".format(n))
        counts.append(n)
    return build_game(
        rules,
        columns,
        bases,
        _card_list(data.get("stock", []), "stock"),
        _card_list(data.get("waste", []), "waste"),
        counts,
    )


_JSON_PILES = {"stock": STOCK, "waste": WASTE, "foundation": FOUNDATION}


def move_dict(m):
    """``{"from": ..., "to": ...}`` for the move int ``m``."""
    names = {STOCK: "stock", WASTE: "waste", FOUNDATION: "foundation"}
    source, target = move_source(m), move_target(m)
    return {"from": names.get(source, source), "to": names.get(target, target)}


def move_from_dict(data, game):
    """The move int for a JSON move; checks its form, not legality."""
    if not isinstance(data, dict) or "from" not in data or "to" not in data:
        raise ValueError('bad move {!r}: want {{"from": ..., "to": ...}}'.format(data))
    ends = []
    for key in ("from", "to"):
        value = data[key]
        if isinstance(value, bool):
            raise ValueError("bad move {}: {!r}".format(key, value))
        if isinstance(value, int):
            if not 0 <= value < game.columns:
                raise ValueError("bad move {}: no column {}".format(key, value))
            ends.append(value)
        elif isinstance(value, str) and value in _JSON_PILES:
            ends.append(_JSON_PILES[value])
        else:
            raise ValueError("bad move {}: {!r}".format(key, value))
    if ends[0] == FOUNDATION or ends[1] == STOCK:
        raise ValueError(
            "bad move {!r}: cards never leave a foundation or go to the stock".format(data)
        )
    return move(ends[0], ends[1])
