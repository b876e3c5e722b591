"""Save over and over until killed: the VM half of the power-cut test.

Usage: store_crash.py, with ``CIRCUITPY_NVM_FILE`` naming the NVM file.
Prints ``loaded ID POSITION`` for what it found (``ID`` -1 for none), then
saves the games ``ID + 1``, ``ID + 2``... printing ``saved ID`` after each
write returns. Game ``ID`` is deal 9 after the first ``ID % LINE`` moves of
``line`` (with none, the first played and taken back: the game keeps no
game without a move); its play time, the id itself, tells the saves apart.
"""

import microcontroller

from british_square.desktop.notation import position_text
from british_square.engine import Game
from british_square.resume import load
from british_square.store import Store

LINE = 40


def line():
    """The first legal move each time, LINE moves into deal 9."""
    game = Game.new_deal(9)
    buf = bytearray(612)
    moves = []
    for _ in range(LINE):
        game.legal_moves(buf)
        moves.append(buf[0] << 8 | buf[1])
        game.play(moves[-1])
    return moves


moves = line()
store = Store(microcontroller.nvm)
game = load(store)
found = store.seconds if game is not None else -1
print("loaded", found, store.notice, position_text(game) if game is not None else "-")
game = Game.new_deal(9)
for m in moves[: max(found, 0) % LINE]:
    game.play(m)
n = max(found, 0)
while n < 1000000:
    n += 1
    if n % LINE:
        game.play(moves[n % LINE - 1])
    else:
        game = Game.new_deal(9)
        game.play(moves[0])
        game.undo()
    store.save(game, n, 0)
    print("saved", n)
