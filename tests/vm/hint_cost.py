"""Hint cost on the VM: the heap of a Hinter and a request, and the work a request does.

    hint_cost.py [DEALS]                      one line per position: rules, deal,
                                              moves in, positions looked at, heap bytes
    hint_cost.py RULES DEAL MOVES_IN REPEATS  that position's request REPEATS times
                                              (0: only the set-up); prints its positions
    hint_cost.py loop TURNS                   TURNS turns of an empty loop

Positions are 0, 12, 40 and 80 moves into a fixed playout of deals 1..DEALS
(default 3) of each rule set: move ``(7 * n + 3) % count`` at move n, the
same whatever the hint says, so two versions of the hint meet the same
positions. Time is for the caller to measure as processor time of the whole
run (tests/test_hint.py): the VM's clock is the wall's, and on a busy
machine a wall-clock request counts the other programs' turns too."""

import gc
import sys

from british_square.engine import MAX_MOVES, Game
from british_square.hint import Hinter

MOVES_IN = (0, 12, 40, 80)
buffer = bytearray(2 * MAX_MOVES)


def position(rules, deal, moves_in):
    """The game ``moves_in`` moves into the playout of ``deal``, or None if it ends sooner."""
    game = Game.new_deal(deal, rules)
    for played in range(moves_in):
        count = game.legal_moves(buffer)
        if not count:
            return None
        i = 2 * ((7 * played + 3) % count)
        game.play(buffer[i] << 8 | buffer[i + 1])
    return game


if len(sys.argv) > 2 and sys.argv[1] == "loop":
    for _ in range(int(sys.argv[2])):
        pass
elif len(sys.argv) > 4:
    rules, deal, moves_in, repeats = (int(a) for a in sys.argv[1:5])
    hinter = Hinter()
    game = position(rules, deal, moves_in)
    for _ in range(repeats):
        hinter.suggest(game)
    print(hinter.positions)
else:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for rules in range(3):
        gc.collect()
        free = gc.mem_free()
        hinter = Hinter()
        made = free - gc.mem_free()
        for deal in range(1, deals + 1):
            for moves_in in MOVES_IN:
                game = position(rules, deal, moves_in)
                if game is None:
                    break
                gc.collect()
                free = gc.mem_free()
                hinter.suggest(game)
                used = free - gc.mem_free()
                print(rules, deal, moves_in, hinter.positions, made + used)
