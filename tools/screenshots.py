"""Write the README's screenshots into docs/ with the game's own headless mode.

    .venv/bin/python tools/screenshots.py [--scale 3] [--out docs]

Each screen is reached the way a player would: a key script run by
``code.py --headless`` (see ``hw/keyscript.py``). The screens name the
board's buttons, as a board shows them (``BSQ_BOARD_BUTTONS``), but for the
desktop's pictures (``DESKTOP``), which name its keys.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "hw"))
sys.path.insert(0, str(ROOT / "tools"))

from scripting import ScriptWriter  # noqa: E402

from british_square.engine import Game  # noqa: E402
from british_square.piles import AMERICAN, BRITISH, FOUNDATION, UNION, WASTE  # noqa: E402

# Three cards left to go home, the rest certain once the first has gone; one
# card to go home before nothing can, while 5H can still shuttle; a long
# British column and foundations on their way.
FINISH_POSITION = "british 3C/2C/-/- - AC 23,26,26,26"
NO_MOVES_POSITION = "british KC/5H/6H/6H - AS 0,0,0,0"
LONG_POSITION = "british 9C8C7S.6S/AH2H3H4H.5H6H7H8H9HTHJHQHKH/QH/- 4C - 13,14,0,26"
# docs/desktop.md's: the window's keys named
DESKTOP = ("desktop-title", "desktop-help", "desktop-keys")


def played(deal, rules, moves, name):
    writer = ScriptWriter(Game.new_deal(deal, rules))
    writer.play_some(moves)
    writer.shot(name)
    return writer.text()


def on_its_line(deal, rules, moves, name):
    """``moves`` moves of ``deal``'s shipped winning line: the panel green."""
    from ship_lines import shipped

    writer = ScriptWriter(Game.new_deal(deal, rules))
    for m in dict(shipped(rules))[deal][:moves]:
        writer.move(m)
    writer.shot(name)
    return writer.text()


def menu_then(item, name, extra=""):
    """``item`` chosen from the menu, ``extra`` pressed, and the screen shot
    once it has settled (a menu's page turns a row a frame)."""
    writer = ScriptWriter(Game.new_deal(7, BRITISH))
    writer.menu(item)
    return writer.text() + " " + extra + " wait:300 shot:" + name


def four_colours(deal, rules, moves, name):
    """``moves`` moves into ``deal``, then four-colour suits from the menu."""
    writer = ScriptWriter(Game.new_deal(deal, rules))
    writer.play_some(moves)
    writer.menu("4-colour suits: ")
    writer.press("b")  # the menu stays after a setting: B, back to the cards
    return writer.text() + " shot:" + name


def after_moves(item, name):
    """A few moves, then ``item`` from the menu: the question before a game is left."""
    writer = ScriptWriter(Game.new_deal(7, BRITISH))
    writer.play_some(3)
    writer.menu(item)
    return writer.text() + " shot:" + name


def kept_statistics(path):
    """A save file (``--save``) whose statistics show a few British games
    played: none won, as no British deal is known to be winnable."""
    from storage import FileNVM

    from british_square.store import Store

    store = Store(FileNVM(str(path)))
    for score, won, moves, seconds, reached_par, hints in (
        (14, False, 180, 610, False, 1),
        (21, False, 202, 745, True, 0),
        (25, False, 263, 1250, True, 2),
        (17, False, 190, 540, False, 0),
    ):
        store.stats.add_game(BRITISH, score, won, moves, seconds, reached_par, hints)
    store.save(None, 0, 0)
    return str(path)


def screens(scratch):
    """(file name, code.py arguments) for every screenshot (``scratch``: a folder
    for the files they read)."""
    no_moves = ScriptWriter(Game.new_deal(1))  # only its moves are used
    from british_square.desktop.notation import parse_position

    no_moves.start(parse_position(NO_MOVES_POSITION))
    no_moves.move(WASTE << 8 | FOUNDATION)  # the ace home: then no card can
    no_moves.press("wait:300")  # go home, which the dead test says in some turns
    no_moves.shot("over")  # Game over says why
    no_moves.press("b")
    no_moves.shot("no-more-moves")  # B: the cards, the panel saying so
    stats = kept_statistics(Path(scratch) / "stats.nvm")
    return [
        # a new board: nothing saved, no deal named (the help is the same for any)
        ("first-start", ["--save", str(Path(scratch) / "new.nvm"), "--keys", "shot:first-start"]),
        ("title", ["--deal", "7", "--keys", "shot:title"]),
        ("play-british", ["--deal", "7", "--keys", played(7, BRITISH, 14, "play-british")]),
        (
            "play-american",
            ["--deal", "7", "--rules", "american", "--keys", played(7, AMERICAN, 10, "x")],
        ),
        ("play-union", ["--deal", "7", "--rules", "union", "--keys", played(7, UNION, 10, "x")]),
        (
            "winnable",
            ["--deal", "7", "--rules", "union", "--keys", on_its_line(7, UNION, 12, "x")],
        ),
        ("menu", ["--deal", "7", "--keys", "a start shot:menu"]),
        ("menu-suits", ["--deal", "7", "--keys", menu_then("4-colour suits: ", "menu-suits")]),
        (
            "four-colour",
            ["--deal", "7", "--rules", "american", "--keys", four_colours(7, AMERICAN, 10, "x")],
        ),
        ("help", ["--deal", "7", "--keys", menu_then("Help", "help")]),
        ("help-marks", ["--deal", "7", "--keys", menu_then("Help", "help-marks", "right")]),
        ("rules", ["--deal", "7", "--keys", menu_then("Rules: ", "rules")]),
        ("deal-number", ["--deal", "7", "--keys", menu_then("Deal number", "deal-number", "up")]),
        ("confirm", ["--deal", "7", "--keys", after_moves("New game", "confirm")]),
        ("long-column", ["--position", LONG_POSITION, "--keys", "a shot:long-column"]),
        ("finish", ["--position", FINISH_POSITION, "--keys", "a b shot:finish"]),
        ("won", ["--position", FINISH_POSITION, "--keys", "a b a wait:1200 shot:won"]),
        ("over", ["--position", NO_MOVES_POSITION, "--keys", no_moves.text()]),
        ("no-more-moves", ["--position", NO_MOVES_POSITION, "--keys", no_moves.text()]),
        ("statistics", ["--deal", "7", "--save", stats, "--keys", menu_then("Statistics", "x")]),
        ("about", ["--deal", "7", "--keys", menu_then("About", "about")]),
        ("desktop-title", ["--deal", "7", "--keys", "shot:desktop-title"]),
        ("desktop-help", ["--deal", "7", "--keys", menu_then("Help", "desktop-help")]),
        ("desktop-keys", ["--deal", "7", "--keys", menu_then("Help", "desktop-keys", "left")]),
        ("autoplay", ["--deal", "7", "--keys", menu_then("Auto-play: ", "autoplay", "a")]),
    ]


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, choices=range(1, 9), default=3, metavar="1-8")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="the folder (docs/)")
    return parser.parse_args(argv)


def make_folder(out):
    """Make the folder ``out`` (and those above it); an error line if it cannot
    be one (a file in its place or above it, no right to write there)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return "cannot write screenshots into {!r}: {}".format(str(out), error.strerror or error)
    if not os.access(out, os.W_OK | os.X_OK):
        return "cannot write screenshots into {!r}: it may not be written".format(str(out))
    return None


def moving(args):
    """Is the screen reached by code.py ``args`` a moment of something moving
    (the celebration, the dead test's turns), taken after ``wait:`` real
    milliseconds? Its picture may differ from run to run, so
    tests/test_screenshots.py leaves it out."""
    return any("wait:" in arg for arg in args)


def shoot(name, args, scale, target):
    """Write screen ``name``, reached by code.py ``args``, at ``scale`` into
    the file ``target``."""
    with tempfile.TemporaryDirectory() as scratch:
        args = [a.replace("shot:x", "shot:" + name) for a in args]
        command = [sys.executable, str(ROOT / "code.py"), "--headless", "--scale", str(scale)]
        command += args + ["--shot", scratch]
        env = dict(os.environ, BSQ_BOARD_BUTTONS="1")
        if name in DESKTOP:
            del env["BSQ_BOARD_BUTTONS"]
        subprocess.run(command, check=True, capture_output=True, timeout=300, env=env)
        shot = Path(scratch) / (name + ".png")
        if not shot.exists():
            raise SystemExit("no {} screenshot: check its key script".format(name))
        target.write_bytes(shot.read_bytes())


def main(argv):
    args = parse_args(argv)
    problem = make_folder(args.out)
    if problem:
        print("error: " + problem, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as files:
        for name, code_args in screens(files):
            target = args.out / ("screen-" + name + ".png")
            shoot(name, code_args, args.scale, target)
            print("wrote", target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
