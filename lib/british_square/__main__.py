"""Desktop command for tools, bug reports and tests::

    python3 -m british_square deal N [--rules british|american|union] [--json]
    python3 -m british_square moves POSITION [--json]
    python3 -m british_square play POSITION MOVE... [--json]
    python3 -m british_square show POSITION

POSITION is the one-line text (quote it) or a JSON object (text starting
with ``{``), or ``-`` to read either from standard input. MOVE is the
two-letter notation (``aF``, ``Wb``, ``SW``) or a JSON move object. Errors
print one line and exit with status 2. Hand-parsed arguments keep this
module within what CircuitPython runs, like the rest of the package.
"""

import json
import sys

from british_square.cards import NO_CARD, SUITS, card_name
from british_square.engine import (
    DEAD_NAMES,
    DOWN,
    RULE_TITLES,
    STATUS_NAMES,
    UP,
    Game,
)
from british_square.notation import (
    game_from_dict,
    move_dict,
    move_from_dict,
    move_text,
    parse_move,
    parse_position,
    pile_text,
    position_dict,
    position_text,
    rules_from_name,
)
from british_square.search import dead_search

USAGE = __doc__.split("\n\n")[0]


class UsageError(ValueError):
    pass


def read_position(text):
    """A game from the text or JSON position (``-``: standard input)."""
    if text == "-":
        text = sys.stdin.read().strip()
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ValueError("bad JSON position: {}".format(error)) from None
        return game_from_dict(data)
    return parse_position(text)


def read_move(token, game):
    if token.lstrip().startswith("{"):
        try:
            data = json.loads(token)
        except ValueError as error:
            raise ValueError("bad JSON move {!r}: {}".format(token, error)) from None
        return move_from_dict(data, game)
    return parse_move(token, game)


def write_position(game, as_json):
    if as_json:
        print(json.dumps(position_dict(game)))
    else:
        print(position_text(game))


def show(game):
    """A plain-text picture of the position, for people."""
    lines = []
    lines.append(
        "{}   score {}/104   {}".format(
            RULE_TITLES[game.rules], game.score(), STATUS_NAMES[game.status()]
        )
    )
    arrows = {UP: "up", DOWN: "down"}
    if game.columns == 4:
        names = ["  {:<5}".format(pile_text(c)) for c in range(4)]
        lines.append("".join(names))
        tallest = max(game.column_height(c) for c in range(4))
        for depth in range(tallest):
            row = []
            for c in range(4):
                card = game.card(c, depth)
                if card == NO_CARD:
                    row.append("       ")
                    continue
                mark = "." if depth == game.base_count(c) and depth else " "
                row.append(" {}{:<5}".format(mark, card_name(card)))
            lines.append("".join(row).rstrip())
        lines.append(
            "".join("  {:<5}".format(arrows.get(game.direction(c), "free")) for c in range(4))
        )
    else:
        for r in range(4):
            row = []
            for c in range(r * 4, r * 4 + 4):
                top = game.top(c)
                text = "--" if top == NO_CARD else card_name(top)
                row.append(
                    "{}:{}({}){:<4}".format(
                        pile_text(c), text, game.column_height(c), arrows.get(game.direction(c), "")
                    )
                )
            lines.append("  ".join(row).rstrip())
    shown = min(game.waste_count, 8)  # the top card last
    waste = " ".join(card_name(game.waste_card(k)) for k in range(shown - 1, -1, -1))
    lines.append("stock {} cards   waste {}".format(game.stock_count, waste or "-"))
    found = []
    for suit in range(4):
        top = game.foundation_top(suit)
        found.append("{} {}".format(SUITS[suit], "-" if top == NO_CARD else card_name(top)[0]))
    verdict = next(dead_search(game, 500))  # run in one go: its one value is the verdict
    lines.append("foundations " + "  ".join(found) + "   dead test: " + DEAD_NAMES[verdict])
    return "\n".join(lines)


def main(argv):
    args = [a for a in argv if a != "--json"]
    as_json = len(args) != len(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "deal":
        rules = "british"
        if "--rules" in rest:
            i = rest.index("--rules")
            if i + 1 >= len(rest):
                raise UsageError("--rules needs british, american or union")
            rules = rest[i + 1]
            rest = rest[:i] + rest[i + 2 :]
        if len(rest) != 1 or not rest[0].isdigit():
            raise UsageError("deal needs one deal number, 1-31999")
        write_position(Game.new_deal(int(rest[0]), rules_from_name(rules)), as_json)
    elif command in ("moves", "show"):
        if len(rest) != 1:
            raise UsageError("{} needs one POSITION (quote it)".format(command))
        game = read_position(rest[0])
        if command == "show":
            print(show(game))
        elif as_json:
            print(json.dumps([move_dict(m) for m in game.moves()]))
        else:
            print(" ".join(move_text(m) for m in game.moves()))
    elif command == "play":
        if not rest:
            raise UsageError("play needs a POSITION and moves")
        game = read_position(rest[0])
        for token in rest[1:]:
            game.play(read_move(token, game))
        write_position(game, as_json)
    else:
        raise UsageError("unknown command {!r}".format(command))
    return 0


def run():
    try:
        status = main(sys.argv[1:])
    except ValueError as error:
        print("error: {}".format(error), file=sys.stderr)
        status = 2
    sys.exit(status)


if __name__ == "__main__":
    run()
