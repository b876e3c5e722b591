"""The store under CircuitPython: what it costs in heap, that a save allocates
nothing, and what a save costs in empty-loop units.

Usage: store_measure.py, with the game package (as .mpy, as deployed),
``adafruit_ticks`` and ``tests/bench`` on the path. Prints ``name value``
lines for ``tests/test_store_vm.py``.
"""

import gc

gc.collect()
empty = gc.mem_alloc()
from benchlib import allocated, held, measure  # noqa: E402

gc.collect()
bench = gc.mem_alloc() - empty
import binascii  # noqa: E402

import adafruit_ticks  # noqa: E402, F401

import british_square.deal  # noqa: E402, F401  (the game holds it, for its deals: not the store's)
from british_square.engine import MAX_MOVES, Game  # noqa: E402
from british_square.piles import UNION  # noqa: E402

gc.collect()
below = gc.mem_alloc()
import british_square.store as store  # noqa: E402

gc.collect()
print("heap_store_module", gc.mem_alloc() - below)
below = gc.mem_alloc()
from british_square.resume import load  # noqa: E402

gc.collect()
print("heap_resume_module", gc.mem_alloc() - below)  # let go after start-up
print("heap_store_with_engine", gc.mem_alloc() - empty - bench)

import microcontroller  # noqa: E402

size, box = held(lambda: store.Store(microcontroller.nvm))
print("heap_store_object", size)
print("loaded", load(box), box.notice)
from british_square.save_policy import SavePolicy  # noqa: E402

policy = SavePolicy(0)
print("alloc_policy_due", allocated(lambda: policy.due(1000)))


def shuttle(moves):
    """A Union game as long as ``moves``: a card carried between two empty piles."""
    game = Game.new_deal(2, UNION)
    buf = bytearray(612)
    while True:
        empty_piles = [c for c in range(16) if not game.column_height(c)]
        if len(empty_piles) >= 2:
            break
        count = game.legal_moves(buf)
        # a lone card built on another pile, or sent home, empties its pile
        pick = [i for i in range(count) if buf[2 * i] < 16 and buf[2 * i + 1] not in empty_piles]
        i = pick[0] if pick else 0
        game.play(buf[2 * i] << 8 | buf[2 * i + 1])
    a, b = empty_piles[0], empty_piles[1]
    source = [c for c in range(16) if game.column_height(c)][0]
    game.play(source << 8 | a)
    while game.history_end < moves:
        game.play(a << 8 | b)
        a, b = b, a
    return game


typical = shuttle(200)
longest = shuttle(store.DEAL_MOVES_MOST)  # the most moves a record keeps from its deal
beyond = shuttle(1500)  # past the room: a start position and the newest moves
for name, game in (("none", None), ("typical", typical), ("longest", longest), ("beyond", beyond)):
    box.save(game, 100, 1)  # once first: the engine may grow its history then
    print("alloc_save_" + name, allocated(lambda g=game: box.save(g, 101, 1)))
print("dropped_beyond", box.dropped)
copy = Game(UNION)  # the search's copy, which the app lends a save to walk back on


def copy_of(game):
    copy.copy_position_from(game)
    return copy


def staged(game):
    """A save a share at a time, as the app's loop takes it."""
    box.begin(game, 101, 1, False, copy_of)
    while not box.step():
        pass


for name, game in (("none", None), ("typical", typical), ("longest", longest), ("beyond", beyond)):
    staged(game)  # once first
    print("alloc_staged_" + name, allocated(lambda g=game: staged(g)))
print("cost_save_typical", measure(lambda: box.save(typical, 1, 0), repeat=3).value)
print("cost_save_longest", measure(lambda: box.save(longest, 1, 0), repeat=1).value)
print("cost_save_beyond", measure(lambda: box.save(beyond, 1, 0), repeat=1).value)
box.save(typical, 7, 2)
again = store.Store(microcontroller.nvm)
resumed = load(again)
print("resumed", resumed.history_count == typical.history_count, again.seconds, again.hints)
print("cost_load_typical", measure(lambda: load(store.Store(microcontroller.nvm)), repeat=1).value)
print("heap_move_buffer", held(lambda: bytearray(2 * MAX_MOVES))[0])

# A start position naming its deal (the 1500-move game), checked against
# the deal; then the same record naming deal 32767, which no deal has.
box.save(beyond, 9, 2)
again = store.Store(microcontroller.nvm)
resumed = load(again)
same = all(resumed.column(c) == beyond.column(c) for c in range(16))
same = same and resumed.stock_count == beyond.stock_count
same = same and all(resumed.waste_card(k) == beyond.waste_card(k) for k in range(88))
print("resumed_beyond", same, again.notice, resumed.deal_number)
start = (box.slot ^ 1) * store.SLOT_B
raw = bytearray(microcontroller.nvm[start : start + store.RECORD_SIZE])
length = raw[6] | raw[7] << 8
raw[106] = 32767 & 0xFF
raw[107] = 32767 >> 8
crc = binascii.crc32(raw[: length - 4])
for i in range(4):
    raw[length - 4 + i] = crc >> (8 * i) & 0xFF
microcontroller.nvm[start : start + store.RECORD_SIZE] = raw
again = store.Store(microcontroller.nvm)
found = load(again)  # the record before it, saying so
print("refused_deal_32767", found.deal_number, again.notice)
