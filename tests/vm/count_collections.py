"""code.py's session under the VM with every ``gc.collect()`` counted: the
VM adapter's (``hw/vm.py``) apart from the game's. Run from the root of a
board tree (``tests/ui_runs.board_tree``) with code.py's options; prints
code.py's report, then ``harness_collections`` and ``game_collections``.

Each counter stands in for ``gc`` in ``sys.modules`` while the modules it
counts are imported, so ``import gc`` (or ``from gc import collect``) in
them binds it; it passes every call on to the real ``gc``.
"""

import gc
import sys


class CountedGC:
    """``gc``'s calls that the game and its adapter make, passed on, with
    ``collect`` counted."""

    def __init__(self):
        self.collections = 0

    def collect(self):
        self.collections += 1
        gc.collect()

    def mem_alloc(self):
        return gc.mem_alloc()

    def mem_free(self):
        return gc.mem_free()


harness = CountedGC()
game = CountedGC()
sys.path[1:1] = ["lib", "hw"]  # as code.py puts them, the same strings
sys.modules["gc"] = harness
import vm  # noqa: E402, F401  (the adapter, bound to its counter)

sys.modules["gc"] = game  # the options reader, the app and the rest
import code  # noqa: E402  (the game's code.py: its __main__ guard starts nothing)

status = code.main(sys.argv[1:])
print("harness_collections:", harness.collections)
print("game_collections:", game.collections)
sys.exit(status)
