"""Deterministic playouts, run alike by CPython and CircuitPython.

Usage: playout.py FIRST_DEAL COUNT [MAX_MOVES]. For each rule set and deal it
plays a fixed policy (a foundation move when there is one, else a move picked
by a fixed formula), takes some moves back and replays them, and prints one
line per game: rules, deal, moves played, final position. Both interpreters
must print the same lines.
"""

import sys

from british_square.desktop.games import played_moves
from british_square.desktop.notation import position_text
from british_square.engine import MAX_MOVES, Game
from british_square.piles import FOUNDATION, RULE_NAMES, move, move_text
from british_square.search import DeadSearch


def dead_verdict(game, budget):
    """The board's dead test run in one go (on a copy): its verdict."""
    test = DeadSearch(budget)
    test.start(game)
    return test.step(budget + 1)  # it never looks at more than its budget


def policy_move(game, step, number, buffer):
    """The fixed policy's move at ``step`` of deal ``number``, or ``None``:
    a foundation move if there is one, else one picked by a fixed formula."""
    count = game.legal_moves(buffer)
    if not count:
        return None
    pick = (step * 7 + number) % count
    for i in range(count):
        if buffer[2 * i + 1] == FOUNDATION:
            pick = i
            break
    return move(buffer[2 * pick], buffer[2 * pick + 1])


def playout(number, rules, max_moves, buffer):
    game = Game.new_deal(number, rules)
    start = position_text(game)
    for step in range(max_moves):
        m = policy_move(game, step, number, buffer)
        if m is None:
            break
        game.push(m)
        if step % 11 == 10:  # exercise undo and redo on the way
            game.undo()
            game.undo()
            game.redo()
            game.redo()
    final = position_text(game)
    moves = " ".join(move_text(m) for m in played_moves(game))
    while game.undo() is not None:
        pass
    if position_text(game) != start:
        raise AssertionError("undo did not restore deal {}".format(number))
    return "{} {} {} | {} | {} {}".format(
        RULE_NAMES[rules], number, game.history_end, moves, final, dead_verdict(game, 300)
    )


def main():
    first = int(sys.argv[1])
    count = int(sys.argv[2])
    max_moves = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    buffer = bytearray(2 * MAX_MOVES)
    for rules in range(3):
        for number in range(first, first + count):
            print(playout(number, rules, max_moves, buffer))


if __name__ == "__main__":
    main()
