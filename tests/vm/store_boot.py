"""Power-on as a board does, saying what the title was told: the VM half of
tests/test_store_vm.py's records made to break.

Copied into a board tree's root beside its code.py and run from there, with
``CIRCUITPY_NVM_FILE`` naming the save and ``BSQ_KEYS`` the presses: prints
``title notice N`` when the title opens (``store.NOTICE_*``), then plays as
code.py with no options does. ``BSQ_FAIL=load`` makes the loader run out of
heap once it has taken the record; ``BSQ_FAIL=start`` makes the start of the
resumed game do so once the game is shown.
"""

import os
import sys

sys.path.insert(0, "lib")
sys.path.append("hw")

from british_square.app import App  # noqa: E402
from british_square.screens import Screens  # noqa: E402

shown = Screens.title


def title(self, notice=0):
    print("title notice", notice)
    shown(self, notice)


Screens.title = title
fail = os.getenv("BSQ_FAIL")
if fail == "load":
    import british_square.resume as loader  # the module App finds

    real_load = loader.load

    def load_then_run_out(store):
        real_load(store)
        raise MemoryError

    loader.load = load_then_run_out
elif fail == "start":
    real_start = App.start_game

    def start_then_fail(self, game):
        real_start(self, game)
        if game.history_end:
            raise MemoryError

    App.start_game = start_then_fail

import code  # noqa: E402  (the tree's code.py: its __main__ guard keeps it from playing)

code.main([])
