"""Text formats: a one-line position string and a two-letter move notation.

Position (like chess FEN), five fields::

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
``Sb`` (stock card straight into the empty column b). The letters are case
sensitive. ``parse_move`` checks the letters; legality is ``Game.play``'s.

What the readers accept, and nothing more (``position_text`` writes the first
spelling of each):

* Cards: a rank ``A23456789TJQK`` and a suit ``CSHD``, upper or lower case
  (``7H``, ``th``). In JSON a ten may also be ``10H``.
* Around a position line: ASCII spaces, tabs, CR and LF (a file's or a
  shell's line end). Between its fields: one or more spaces or tabs. Any other
  character outside printable ASCII (a no-break or ideographic space, a line
  break inside the line, a control character, a non-ASCII digit or letter)
  is an error naming it.
* An empty column, stock or waste is ``-`` alone: ``""``, ``.``, ``-.-``,
  ``7H.`` and ``7H.-`` are errors.
* Numbers (foundation counts; deal numbers on the command line, ``code.py``'s
  too): ASCII digits only, no sign, no leading zero, within their range
  (``position.parse_number``); a number thousands of digits long is named
  (cut short) like any bad token.
* JSON position: an object with the keys ``rules``, ``columns``, ``base``,
  ``stock``, ``waste`` and ``foundations``; an unknown key (a typo such as
  ``colums``) is an error. Only ``columns`` is required: a missing ``rules`` is
  ``british``, a missing ``base`` makes every card a base card (nothing
  built), a missing ``stock``/``waste`` is empty, a missing ``foundations``
  or suit in it (keys exactly ``C``, ``S``, ``H``, ``D``) is 0. Counts are JSON
  integers, never booleans, floats or strings.
* JSON move: an object with exactly the keys ``from`` and ``to``, each a
  column number or ``"stock"``, ``"waste"``, ``"foundation"``.

Parsing raises ``ValueError`` naming the offending token and never changes an
existing game: it builds a new one.
"""

from british_square.cards import card_name, parse_card
from british_square.piles import (
    COLUMN_LETTERS,
    FOUNDATION,
    RULE_NAMES,
    STOCK,
    WASTE,
    move,
    move_source,
    move_target,
)
from british_square.position import build_game, parse_number, quoted  # noqa: E402  (re-exported)

_SUIT_KEYS = ("C", "S", "H", "D")  # a tuple, so that a key is matched whole

# Words for the engine's numbers, for people (desktop only: none on a board).
RULE_TITLES = ("British Square", "American", "Union Square")  # by BRITISH, AMERICAN, UNION
STATUS_NAMES = ("playing", "won", "lost")  # by Game.status()
DEAD_NAMES = ("alive", "dead", "unknown")  # by the dead test's verdict


def rules_from_name(name):
    """``BRITISH``, ``AMERICAN`` or ``UNION`` from its name."""
    if name not in RULE_NAMES:
        raise ValueError("bad rules {}: use one of {}".format(quoted(name), ", ".join(RULE_NAMES)))
    return RULE_NAMES.index(name)


# ------------------------------------------------------------------- moves


def parse_move(token, game):
    """The move int for ``token`` in ``game``: checks the letters, not legality."""
    if len(token) != 2:
        raise ValueError("bad move {}: two letters, source then target".format(quoted(token)))
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


def _card_run(text, what):
    """The cards of ``text``: one card or more, two letters each."""
    if not text or len(text) % 2:
        raise ValueError("bad {} {}: cards are two letters each".format(what, quoted(text)))
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def _pile_cards(text, what):
    """The stock or the waste: ``-`` when empty, else its cards."""
    return [] if text == "-" else _card_run(text, what)


# What may stand round a position line, and between its fields.
_LINE_ENDS = " \t\r\n"
_FIELD_SEPARATORS = " \t"


def parse_position(text):
    """A new ``Game`` at the position ``text``; ValueError names the bad token."""
    line = text.strip(_LINE_ENDS)
    for i, ch in enumerate(line):
        if not ("!" <= ch <= "~" or ch in _FIELD_SEPARATORS):
            raise ValueError(
                "bad position: character {!r} at {}: a position is one line of ASCII".format(
                    ch, i + 1
                )
            )
    fields = line.split()  # only spaces and tabs are left to split on
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
        if token == "-":
            columns.append([])
            bases.append(0)
            continue
        base_text, dot, built_text = token.partition(".")
        if not base_text or (dot and not built_text) or "-" in token:
            raise ValueError(
                "bad column {}: its cards, base then . then built, or - if empty".format(
                    quoted(token)
                )
            )
        base = _card_run(base_text, "column")
        columns.append(base + (_card_run(built_text, "column") if dot else []))
        bases.append(len(base))
    counts = fields[4].split(",")
    if len(counts) != 4:
        raise ValueError("bad foundations {}: four counts".format(quoted(fields[4])))
    foundations = [parse_number(token, "foundation count", 0, 26) for token in counts]
    return build_game(
        rules,
        columns,
        bases,
        _pile_cards(fields[2], "stock"),
        _pile_cards(fields[3], "waste"),
        foundations,
    )


# -------------------------------------------------------------------- JSON

_POSITION_KEYS = ("rules", "columns", "base", "stock", "waste", "foundations")


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
        if not isinstance(token, str) or len(token) > 3:  # parse_card names what it gets whole
            raise ValueError("bad card {} in {}".format(quoted(token), what))
        out.append(parse_card(token))
    return out


def _is_count(value):
    """An int that is not a bool (JSON ``true`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(data, allowed, what):
    for key in data:
        if key not in allowed:
            raise ValueError(
                "bad {}: unknown key {}, want {}".format(what, quoted(key), ", ".join(allowed))
            )


def game_from_dict(data):
    """A new ``Game`` from the JSON position dict; ValueError names the bad part."""
    if not isinstance(data, dict):
        raise ValueError("bad position: a JSON object")
    _check_keys(data, _POSITION_KEYS, "position")
    rules = rules_from_name(data.get("rules", "british"))
    columns = data.get("columns")
    if not isinstance(columns, list):
        raise ValueError("bad columns: a list of card lists")
    columns = [_card_list(col, "column") for col in columns]
    bases = data.get("base")
    if bases is None:  # default: every card dealt, nothing built
        bases = [len(col) for col in columns]
    if not isinstance(bases, list) or not all(_is_count(b) for b in bases):
        raise ValueError("bad base {}: a list of counts".format(quoted(bases)))
    found = data.get("foundations", {})
    if not isinstance(found, dict):
        raise ValueError("bad foundations {}: an object of counts".format(quoted(found)))
    _check_keys(found, _SUIT_KEYS, "foundations")
    counts = []
    for s in _SUIT_KEYS:
        n = found.get(s, 0)
        if not _is_count(n):
            raise ValueError("bad foundation count {}".format(quoted(n)))
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
_MOVE_KEYS = ("from", "to")


def move_dict(m):
    """``{"from": ..., "to": ...}`` for the move int ``m``."""
    names = {STOCK: "stock", WASTE: "waste", FOUNDATION: "foundation"}
    source, target = move_source(m), move_target(m)
    return {"from": names.get(source, source), "to": names.get(target, target)}


def move_from_dict(data, game):
    """The move int for a JSON move; checks its form, not legality."""
    if not isinstance(data, dict) or "from" not in data or "to" not in data:
        raise ValueError('bad move {}: want {{"from": ..., "to": ...}}'.format(quoted(data)))
    _check_keys(data, _MOVE_KEYS, "move")
    ends = []
    for key in _MOVE_KEYS:
        value = data[key]
        if isinstance(value, bool):
            raise ValueError("bad move {}: {!r}".format(key, value))
        if isinstance(value, int):
            if not 0 <= value < game.columns:
                raise ValueError("bad move {}: no column {}".format(key, quoted(value)))
            ends.append(value)
        elif isinstance(value, str) and value in _JSON_PILES:
            ends.append(_JSON_PILES[value])
        else:
            raise ValueError("bad move {}: {}".format(key, quoted(value)))
    if ends[0] == FOUNDATION or ends[1] == STOCK:
        raise ValueError(
            "bad move {}: cards never leave a foundation or go to the stock".format(quoted(data))
        )
    return move(ends[0], ends[1])
