"""What the desktop and the tests ask of a game and a board never does: its
legal moves as a list, the moves played so far, a copy, a line saying what
game it is. Each allocates; the game itself (``engine.Game``) lists its
moves into a buffer it is given (``legal_moves``), which is all a board
needs.
"""

from british_square.engine import MAX_MOVES, Game
from british_square.piles import RULE_NAMES, move


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
