"""Running code.py headless on the desktop and under the VM, for the UI tests."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from scripting import ScriptWriter

from british_square.engine import AMERICAN, Game

ROOT = Path(__file__).resolve().parents[1]
CODE = ROOT / "code.py"
LIB = ROOT / "lib"
HW = ROOT / "hw"
# the Adafruit libraries the game imports on a board (requirements-device.txt)
DEVICE_LIBS = ("adafruit_ticks",)


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


def position_line(output):
    """The ``position:`` line an adapter prints at the end."""
    found = re.search(r"^position: (.*)$", output, re.M)
    assert found, output
    return found.group(1)


def keys_file(folder, script):
    """Write a key script to a file (the VM fails on arguments over ~250 characters)."""
    path = Path(folder) / "keys.txt"
    path.write_text(script)
    return path


def run_desktop(args, timeout=180):
    """``code.py --headless`` in a subprocess; its CompletedProcess."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
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


def device_libs(folder, mpy_cross=None):
    """Copy (or compile, with ``mpy_cross``) the Adafruit libraries into ``folder``."""
    folder = Path(folder)
    for name in DEVICE_LIBS:
        spec = importlib.util.find_spec(name)
        source = Path(spec.origin)
        if source.name == "__init__.py":
            files = [
                (p, Path(name) / p.relative_to(source.parent)) for p in source.parent.glob("*.py")
            ]
        else:
            files = [(source, Path(source.name))]
        for path, relative in files:
            target = folder / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if mpy_cross:
                compile_mpy(mpy_cross, path, target.with_suffix(".mpy"))
            else:
                shutil.copy(path, target)
    return folder


def compile_mpy(mpy_cross, source, target):
    subprocess.run([mpy_cross, "-o", str(target), str(source)], check=True, capture_output=True)


def mpy_tree(folder, mpy_cross):
    """The game as a board would hold it: .mpy modules, the sprite sheet, .py code.py."""
    folder = Path(folder)
    package = folder / "lib" / "british_square"
    package.mkdir(parents=True)
    for source in (LIB / "british_square").glob("*.py"):
        if source.stem != "__main__":  # the desktop command
            compile_mpy(mpy_cross, source, package / (source.stem + ".mpy"))
    shutil.copy(LIB / "british_square" / "cards.bmp", package)
    (folder / "hw").mkdir()
    for source in HW.glob("*.py"):
        compile_mpy(mpy_cross, source, folder / "hw" / (source.stem + ".mpy"))
    device_libs(folder / "lib", mpy_cross)
    shutil.copy(CODE, folder / "code.py")
    return folder
