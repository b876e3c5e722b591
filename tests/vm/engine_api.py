"""The engine's API under CircuitPython: its readers allocate nothing, and
``Game.play`` refuses what is no move as it does on CPython.

Usage: engine_api.py, with ``tests/bench`` on the path. Prints ``name value``
lines for ``tests/test_engine_vm.py``; ``read_all`` is also the engine bench's
reader workload.
"""

from benchlib import allocated

from british_square.cards import NO_CARD
from british_square.deal import shuffled_talon
from british_square.engine import MAX_MOVES, Game, IllegalMoveError
from british_square.piles import FOUNDATION, STOCK, WASTE, move


def read_all(game):
    """Every card of the position, read through the readers as a view redraws
    it all; returns a sum of them so that nothing is optimised away."""
    total = 0
    for c in range(game.columns):
        for i in range(game.column_height(c)):
            total += game.card(c, i)
        total += game.base_count(c) + game.card(c, 16)
    for k in range(game.waste_count + 1):
        total += game.waste_card(k)
    for k in range(game.stock_count + 1):
        total += game.stock_card(k)
    return total


def played_game(rules, moves=40):
    """Deal 7 some moves in (the first legal move each time, foundations first)."""
    game = Game.new_deal(7, rules)
    buffer = bytearray(2 * MAX_MOVES)
    for _ in range(moves):
        count = game.legal_moves(buffer)
        if not count:
            break
        pick = 0
        for i in range(count):
            if buffer[2 * i + 1] == FOUNDATION:
                pick = i
                break
        game.push(move(buffer[2 * pick], buffer[2 * pick + 1]))
    return game


def refusals(game):
    """How many of the non-moves ``play`` refuses with IllegalMoveError and no change."""
    before = (bytes(game.cells), bytes(game.foundations), game.history_count)
    refused = 0
    for m in (True, False, -1, move(-1, FOUNDATION), move(19, 0), 0x10000, 1.5, "SW", None):
        try:
            game.play(m)
        except IllegalMoveError:
            refused += 1
    after = (bytes(game.cells), bytes(game.foundations), game.history_count)
    return refused, before == after


def main():
    for rules in range(3):
        game = played_game(rules)
        read_all(game)  # any first-call cost paid before measuring
        print("readers_alloc", rules, allocated(lambda game=game: read_all(game)))
        refused, unchanged = refusals(game)
        print("refused", rules, refused, unchanged)
        game.play(move(STOCK, WASTE))
        print("played", rules, game.waste_card(0) == game.top(WASTE) != NO_CARD)
    shuffled_talon(31999)
    print("shuffle_alloc", allocated(lambda: shuffled_talon(31999)))


if __name__ == "__main__":
    main()
