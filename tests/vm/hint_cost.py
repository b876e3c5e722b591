"""Hint cost on the VM: heap of a Hinter and a request, and time in empty-loop units.

Prints one line per position: rules, positions looked at, loop units, heap bytes."""

import gc
import sys
import time

from british_square.engine import Game
from british_square.hint import Hinter

now = time.monotonic_ns


def loop_unit():
    best = None
    for _ in range(5):
        t = now()
        for _ in range(20000):
            pass
        d = (now() - t) / 20000
        best = d if best is None or d < best else best
    return best


deals = int(sys.argv[1]) if len(sys.argv) > 1 else 3
for rules in range(3):
    gc.collect()
    free = gc.mem_free()
    hinter = Hinter()
    made = free - gc.mem_free()
    for deal in range(1, deals + 1):
        game = Game.new_deal(deal, rules)
        moves = 0
        # a few moves in: play the hints themselves, dealing when there is none
        for _ in range(12):
            m = hinter.suggest(game)
            if m < 0:
                if not game.stock_count:
                    break
                m = 16 << 8 | 17
            game.play(m)
            moves += 1
        gc.collect()
        free = gc.mem_free()
        unit = loop_unit()
        t = now()
        hinter.suggest(game)
        cost = (now() - t) / unit
        used = free - gc.mem_free()
        print(rules, hinter.positions, int(cost), made + used)
