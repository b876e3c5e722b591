"""Write the README's screenshots into docs/ with the game's own headless mode.

    .venv/bin/python tools/screenshots.py [--scale 3] [--out docs]

Each screen is reached the way a player would: a key script run by
``code.py --headless`` (see ``hw/keyscript.py``).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(ROOT / "tests"))

from scripting import ScriptWriter  # noqa: E402

from british_square.engine import AMERICAN, BRITISH, UNION, Game  # noqa: E402

# One card left to go home; one card to go home before nothing can, while
# 5H can still shuttle; a long British column and foundations on their way.
WON_POSITION = "british AC/-/-/- - - 25,26,26,26"
NO_MOVES_POSITION = "british KC/5H/6H/6H - AS 0,0,0,0"
LONG_POSITION = "british 9C8C7S.6S/AH2H3H4H.5H6H7H8H9HTHJHQHKH/QH/- 4C - 13,14,0,26"


def played(deal, rules, moves, name):
    writer = ScriptWriter(Game.new_deal(deal, rules))
    writer.play_some(moves)
    writer.shot(name)
    return writer.text()


def menu_then(item, name, extra=""):
    writer = ScriptWriter(Game.new_deal(7, BRITISH))
    writer.menu(item)
    return writer.text() + " " + extra + " shot:" + name


def after_moves(item, name):
    """A few moves, then ``item`` from the menu: the question before a game is left."""
    writer = ScriptWriter(Game.new_deal(7, BRITISH))
    writer.play_some(3)
    writer.menu(item)
    return writer.text() + " shot:" + name


def screens():
    """(file name, code.py arguments) for every screenshot."""
    no_moves = ScriptWriter(Game.new_deal(1))  # only its moves are used
    from british_square.notation import parse_position

    no_moves.start(parse_position(NO_MOVES_POSITION))
    no_moves.move(no_moves.game.moves()[0])
    no_moves.shot("no-more-moves")
    return [
        ("title", ["--deal", "7", "--keys", "shot:title"]),
        ("play-british", ["--deal", "7", "--keys", played(7, BRITISH, 14, "play-british")]),
        (
            "play-american",
            ["--deal", "7", "--rules", "american", "--keys", played(7, AMERICAN, 10, "x")],
        ),
        ("play-union", ["--deal", "7", "--rules", "union", "--keys", played(7, UNION, 10, "x")]),
        ("menu", ["--deal", "7", "--keys", "a start shot:menu"]),
        ("help", ["--deal", "7", "--keys", menu_then("Help", "help")]),
        ("help-marks", ["--deal", "7", "--keys", menu_then("Help", "help-marks", "right")]),
        ("rules", ["--deal", "7", "--keys", menu_then("Rules: ", "rules")]),
        ("deal-number", ["--deal", "7", "--keys", menu_then("Deal number", "deal-number", "up")]),
        ("confirm", ["--deal", "7", "--keys", after_moves("New game", "confirm")]),
        ("long-column", ["--position", LONG_POSITION, "--keys", "a shot:long-column"]),
        ("won", ["--position", WON_POSITION, "--keys", "a b wait:700 shot:won"]),
        ("no-more-moves", ["--position", NO_MOVES_POSITION, "--keys", no_moves.text()]),
    ]


def main(argv):
    scale = argv[argv.index("--scale") + 1] if "--scale" in argv else "3"
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    for name, args in screens():
        with tempfile.TemporaryDirectory() as scratch:
            args = [a.replace("shot:x", "shot:" + name) for a in args]
            command = [sys.executable, str(ROOT / "code.py"), "--headless", "--scale", scale]
            command += args + ["--shot", scratch]
            subprocess.run(command, check=True, capture_output=True, timeout=300)
            shot = Path(scratch) / (name + ".png")
            if not shot.exists():
                raise SystemExit("no {} screenshot: check its key script".format(name))
            target = out / ("screen-" + name + ".png")
            target.write_bytes(shot.read_bytes())
            print("wrote", target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
