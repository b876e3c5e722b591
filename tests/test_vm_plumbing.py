"""The VM tier's plumbing: our package imports and runs under CircuitPython."""

from british_square import cards

SCRIPT = """
import gc
import sys
import british_square
from british_square import cards
print(sys.implementation.name)
print(british_square.__version__)
print(" ".join(cards.card_name(c) for c in (0, 12, 13, 38, 51)))
print(cards.parse_card("10h"))
gc.collect()
print(gc.mem_free() + gc.mem_alloc())
"""


def test_cards_module_runs_under_circuitpython(vm, tmp_path):
    out = vm.run_code(SCRIPT, tmp_path, heap="192K").stdout.split()
    assert out[0] == "circuitpython"
    assert out[2:7] == ["AC", "KC", "AS", "KH", "KD"]
    assert out[2:7] == [cards.card_name(c) for c in (0, 12, 13, 38, 51)]
    assert int(out[7]) == cards.parse_card("TH") == 35
    # the heap we asked for, less the allocator's own bookkeeping
    assert 180 * 1024 < int(out[8]) <= 192 * 1024
