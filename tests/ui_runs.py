"""Running code.py headless on the desktop and under the VM, for the UI tests.

The VM runs the game from a board tree built by the deploy code
(``deploy_plan.build_board_tree``): the files a PyGamer gets, plus the VM
adapter and the options reader, which no board needs.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT  # noqa: E402
from scripting import ScriptWriter

from british_square.desktop.notation import position_text
from british_square.engine import Game
from british_square.piles import AMERICAN

CODE = ROOT / "code.py"
sys.path.insert(0, str(ROOT / "tools"))
import deploy_plan  # noqa: E402

VM_ADAPTERS = ("vm", "options", "usage")


def load_code_py():
    """code.py loaded in process as a module: its functions defined, nothing started."""
    spec = importlib.util.spec_from_file_location("game_code", CODE)
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)  # defines functions; starts nothing
    return code


def session_writer():
    """A whole session: deal 7, a dozen moves, two undos, a deal typed in the
    menu, more moves, then American Square chosen from the rules screen."""
    writer = ScriptWriter(Game.new_deal(7))
    writer.play_some(12)
    writer.shot("british")
    writer.undo()
    writer.undo()
    writer.shot("undone")
    writer.deal(23456)
    writer.play_some(6)
    writer.shot("typed-deal")
    writer.rules(AMERICAN)
    writer.play_some(8)
    writer.shot("american")
    return writer


def four_colour_script():
    """Deal 7 from its title, a dozen moves, four-colour suits turned on in
    the menu (B back to the cards), a shot of the cards and of the title."""
    writer = ScriptWriter(Game.new_deal(7))
    writer.play_some(12)
    writer.menu("4-colour suits: ")
    writer.press("b")
    writer.shot("four")
    writer.press("start", "b")  # the menu's B: back to the cards
    return writer


def position_line(output):
    """The ``position:`` line code.py prints at the end."""
    found = re.search(r"^position: (.*)$", output, re.M)
    assert found, output
    return found.group(1)


def reported(output, name):
    """A ``name: value`` line the VM adapter prints at the end."""
    found = re.search(r"^{}: (.*)$".format(name), output, re.M)
    assert found, output
    return found.group(1)


def keys_file(folder, script):
    """Write a key script to a file (the VM fails on arguments over ~250 characters)."""
    path = Path(folder) / "keys.txt"
    path.write_text(script)
    return path


def run_desktop(args, timeout=180, env=None):
    """``code.py --headless`` in a subprocess (``env``: more environment);
    its CompletedProcess."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **(env or {}))
    result = subprocess.run(
        [sys.executable, str(CODE), "--headless", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def kept_game(path, game):
    """An NVM file (``CIRCUITPY_NVM_FILE``) holding ``game`` as a board saves
    it: the VM resumes it at start-up as a board does, without the text
    module that ``--position`` loads (whose names alone cost the VM's heap
    another 4.5 KB pool of interned names). A game with no move is no game
    in progress to the loader (the game never keeps one): a copy of it is
    kept with a move played and taken back (``one_back``), its position as
    it is. Returns the environment."""
    sys.path.insert(0, str(ROOT / "hw"))
    from nvm_records import one_back
    from storage import FileNVM

    from british_square.desktop.games import copy_game
    from british_square.store import Store

    if not game.history_end:
        game = one_back(copy_game(game))

    Store(FileNVM(str(path))).save(game, 0, 0)
    return {"CIRCUITPY_NVM_FILE": str(path)}


def board_tree(folder, mpy_cross=None):
    """The game as a PyGamer would hold it (``.mpy`` modules when ``mpy_cross``
    is given, else ``.py``), with what the VM needs to drive it."""
    deploy_plan.build_board_tree("pygamer", folder, mpy_cross=mpy_cross, adapters=VM_ADAPTERS)
    return Path(folder)


# Key scripts from deal 7 that between them play every word ``code.py --help``
# lists (issue 50: the VM adapter raised IndexError on the direct keys),
# each ending in a position ``play_every_key_word`` checks.
KEY_WORD_SCRIPTS = (
    # the buttons and their short names, KEY*N, wait and shot; the hint's
    # card played by A; quit ends the script before its last two words
    "a u d l r up down left right sel select start b hint a right*2 wait:10 shot:w quit hint a",
    "a hint a sel redo quit",  # taken back and played again
    "a hint a restart a quit",  # the deal as it began (A: yes, restart)
    "a hint a new a quit",  # another deal (A: yes, abandon this one)
    "a 1 2 3 4 5 6 7 8 9 0 4 2 a quit",  # 12345, then 67890, then 42 typed: deal 42
)


def listed_key_words():
    """The action words ``code.py --help`` lists for ``--keys``, each checked
    to be one the key scripts know (``keyscript.ACTION_NAMES`` and the short names)."""
    sys.path.insert(0, str(ROOT / "hw"))
    import keyscript
    from usage import USAGE

    text = USAGE.split("--keys SCRIPT")[1].split("--keys-file")[0]
    text = text[text.index("the\n") :]  # from "the words ..." on
    listed = {word for word in re.findall(r"[\w:*']+", text) if re.fullmatch("[a-z0-9]+", word)}
    known = set(keyscript.ACTION_NAMES) | set(keyscript._SHORT)
    listed -= {"the", "words", "desktop", "direct", "keys", "and", "digits", "presses",
               "game", "runs", "on", "a", "screenshot", "ends", "it"} - known  # fmt: skip
    assert listed == known, (listed ^ known, text)
    return known


def play_every_key_word(run, shots):
    """Play ``KEY_WORD_SCRIPTS`` with ``run(script)`` (code.py ``--deal 7
    --keys script --shot shots`` on an adapter: the final ``position:`` line)
    and check that each word did what it does: the hint's card played, taken
    back, redone, the deal restarted, a new deal, a typed deal, quit."""
    words = set(" ".join(KEY_WORD_SCRIPTS).split())
    assert listed_key_words() <= words
    moved, redone, restarted, new, typed = (run(script) for script in KEY_WORD_SCRIPTS)
    start = position_text(Game.new_deal(7))
    assert moved != start  # the hint's move, and nothing after quit
    assert redone == moved
    assert restarted == start
    assert new not in (start, moved)
    assert typed == position_text(Game.new_deal(42))
    assert any(path.name.startswith("w.") for path in Path(shots).iterdir())
