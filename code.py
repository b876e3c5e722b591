"""British Square: pick the board adapter, deal, and play.

On a PyGamer or PyBadge this is the CIRCUITPY drive's ``code.py``. On the
desktop, ``python3 code.py [options]`` opens a window (or runs headless);
under the CircuitPython VM it plays a key script. Options (desktop and VM):

    --rules british|american|union   --deal N   --autoplay
    --keys "right a ..."  --keys-file F   (a key script: see british_square.keyscript)
    --shot out.png | FOLDER   --scale N   --headless
    --position "british ..."  (start from a position string)
"""

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


def parse_options(argv):
    """``--name value`` pairs and ``--flag`` switches as a dict (no argparse on a board)."""
    flags = ("headless", "autoplay")
    options = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if not word.startswith("--"):
            raise ValueError("unexpected argument {!r}".format(word))
        name = word[2:]
        if name in flags:
            options[name] = True
            i += 1
        else:
            if i + 1 >= len(argv):
                raise ValueError("{} needs a value".format(word))
            options[name] = argv[i + 1]
            i += 2
    return options


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


def main(argv):
    _add_paths(_folder())
    options = parse_options(argv)
    hardware = __import__(board_module()).Hardware(options)

    from british_square.app import App, random_deal
    from british_square.engine import Game

    if options.get("position"):
        from british_square.notation import parse_position

        game = parse_position(options["position"])
    else:
        rules = ("british", "american", "union").index(options.get("rules", "british"))
        deal = int(options["deal"]) if options.get("deal") else random_deal()
        game = Game.new_deal(deal, rules)
    app = App(hardware.display, hardware.actions, hardware.ticks_ms, game, "autoplay" in options)
    app.run(hardware.idle)
    hardware.finish(app)


# CircuitPython runs code.py as __main__; the guard keeps `import code` (the
# standard library's name, imported by pdb and pytest) from starting a game.
if __name__ == "__main__":
    main(sys.argv[1:] if len(sys.argv) > 1 else [])
