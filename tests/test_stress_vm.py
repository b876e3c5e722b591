"""Long random sessions under CircuitPython's VM, in the heap the README claims.

Each session is 3 000 random presses (tests/sessions.py) through every
screen, played by the deployed ``.mpy`` game in a 128 KB heap measured from
zero. A MemoryError, a crash, a lost press or a screen never reached fails.
``tools/stress.py`` runs twenty such sessions and finds the smallest heap
that plays them all (the figure the README gives).
"""

import pytest
from sessions import session_args, session_script
from ui_runs import board_tree, keys_file, position_line, reported

from british_square.screens import SCREEN_NAMES

PRESSES = 3000
HEAP = "128K"  # the budget: the VM heap a board gives the game
SEEDS = (0, 1, 2, 4)  # British, American, Union, and one that first wins an American deal
pytestmark = pytest.mark.vm


@pytest.fixture(scope="module")
def board(vm, mpy_cross, tmp_path_factory):
    return board_tree(tmp_path_factory.mktemp("board"), mpy_cross)


@pytest.fixture(scope="module")
def seen():
    return set()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_long_random_session_fits_in_128k(vm, board, tmp_path, seed, seen):
    keys = keys_file(tmp_path, session_script(seed, PRESSES))
    result = vm.run_board(
        board, *session_args(seed), "--keys-file", keys, "--shot", tmp_path,
        heap=HEAP, timeout=900,
    )  # fmt: skip
    assert int(reported(result.stdout, "presses")) >= PRESSES
    assert position_line(result.stdout)
    seen.update(reported(result.stdout, "screens").split())
    print("seed", seed, "peak_live", reported(result.stdout, "peak_live"))


def test_the_sessions_saw_every_screen(seen):
    if not seen:
        pytest.skip("no session ran")
    assert seen == set(SCREEN_NAMES)
