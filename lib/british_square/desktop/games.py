"""What the desktop and the tests ask of a game and a board never does: its
legal moves as a list, the moves played so far, a copy, a line saying what
game it is, a picture of it for people (``show``). Each allocates; the game
itself (``engine.Game``) lists its moves into a buffer it is given
(``legal_moves``), which is all a board needs.
"""

from british_square.cards import NO_CARD, SUITS, card_name
from british_square.desktop.notation import DEAD_NAMES, RULE_TITLES, STATUS_NAMES
from british_square.engine import MAX_MOVES, Game
from british_square.piles import BRITISH, BUILDS_DOWN, BUILDS_UP, RULE_NAMES, move, pile_text
from british_square.search import DeadSearch


def legal_moves(game):
    """The legal moves of ``game`` as a list of move ints, in the engine's order."""
    buffer = bytearray(2 * MAX_MOVES)
    count = game.legal_moves(buffer)
    return [move(buffer[2 * i], buffer[2 * i + 1]) for i in range(count)]


def played_moves(game):
    """The moves played so far in ``game``, oldest first."""
    return [game.history_move(i) for i in range(game.history_count)]


def copy_game(game):
    """An independent game at the same position as ``game``, with the same history."""
    other = Game(game.rules)
    other.copy_position_from(game)
    other.history = [bytearray(chunk) for chunk in game.history]
    other.history_count = game.history_count
    other.history_end = game.history_end
    return other


def describe(game):
    """What game ``game`` is, in a line: ``<Game british, deal 17, moves 1,
    score 0>`` (a summary: the position's text is ``notation``'s). Not a
    ``Game.__repr__``: a board would keep its code for nothing."""
    return "<Game {}, {}, moves {}, score {}>".format(
        RULE_NAMES[game.rules],
        "deal {}".format(game.deal_number) if game.deal_number else "set position",
        game.history_count,
        game.score(),
    )


def show(game):
    """A plain-text picture of the position, for people."""
    lines = []
    lines.append(
        "{}   score {}/104   {}".format(
            RULE_TITLES[game.rules], game.score(), STATUS_NAMES[game.status()]
        )
    )
    arrows = {BUILDS_UP: "up", BUILDS_DOWN: "down"}
    if game.rules == BRITISH:
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
    test = DeadSearch(500)  # the board's dead test, run in one go (on a copy)
    test.start(game)
    verdict = test.step(501)  # it never looks at more than its budget
    lines.append("foundations " + "  ".join(found) + "   dead test: " + DEAD_NAMES[verdict])
    return "\n".join(lines)
