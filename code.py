"""British Square: pick the board adapter, deal, and play.

On a PyGamer or PyBadge this is the CIRCUITPY drive's ``code.py`` and takes
no options. On the desktop, ``python3 code.py [options]`` opens a window (or
runs headless); under the CircuitPython VM it plays a key script. The
options are read by ``hw/options.py``: ``python3 code.py --help`` lists them.
"""

import gc
import sys


def _folder():
    here = globals().get("__file__", "code.py").replace("\\", "/")
    cut = here.rfind("/")
    return here[:cut] if cut > 0 else ("/" if cut == 0 else "")


def _add_paths(root):
    # lib/ first (a board already has /lib on its path), then hw/
    for name, where in (("lib", 0), ("hw", len(sys.path))):
        path = root + "/" + name if root else name
        if path not in sys.path:
            sys.path.insert(where, path)


def board_module():
    """The name of the adapter module in hw/ for this machine."""
    if sys.implementation.name == "cpython":
        return "desktop"
    import board

    name = board.board_id
    if name == "pygamer32d":
        return "vm"
    if name == "pygamer" or hasattr(board, "JOYSTICK_X"):
        return "pygamer"
    return "pybadge"


def _error(message):
    print("error: {} (code.py --help lists the options)".format(message), file=sys.stderr)
    return 2


def _unload(*names):
    """Let modules go that the game does not need any more (imported again if asked)."""
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            package, _, short = name.rpartition(".")
            if package in sys.modules and hasattr(sys.modules[package], short):
                delattr(sys.modules[package], short)


def main(argv):
    _add_paths(_folder())
    options = {}
    if argv:
        # desktop and VM only: imported by name, so deploy leaves it off a board
        reader = __import__("options")

        try:
            options = reader.parse(argv)
            if options.get("help"):
                print(reader.USAGE)
                return 0
            game = reader.first_game(options)
        except ValueError as error:
            return _error(error)
        finally:
            _unload("options", "british_square.notation")
    else:
        from british_square.deal import random_deal
        from british_square.engine import Game

        game = Game.new_deal(random_deal())
    game = play(options, game)
    if game is None:
        return 2
    if argv:
        # The position, for tests and bug reports, once the game and its screen
        # are gone: the text module then finds room however full the heap was.
        gc.collect()
        from british_square.notation import position_text

        print("position:", position_text(game))
    return 0


def play(options, game):
    """Play on this machine until its adapter is finished; the game as it
    ended (``None`` if the adapter refused the options)."""
    try:
        hardware = __import__(board_module()).Hardware(options)
    except (ValueError, OSError) as error:
        _error(error)
        return None
    from british_square.app import App

    app = App(
        hardware.display,
        hardware.actions,
        hardware.ticks_ms,
        game,
        "autoplay" in options,
        hardware.font,
    )
    hardware.started(app)
    app.run(hardware.idle)
    hardware.finish(app)
    hardware.display.root_group = None
    return app.game


# CircuitPython runs code.py as __main__; the guard keeps `import code` (the
# standard library's name, imported by pdb and pytest) from starting a game.
if __name__ == "__main__":
    status = main(sys.argv[1:] if len(sys.argv) > 1 else [])
    if status:
        sys.exit(status)
