"""Options of a desktop or VM run of ``code.py`` (a board gives it none).

Loaded only when there are options, and let go (with the position reader)
once the game is under way; on the desktop also at the end of a run, for the
position it prints (``report``): a board never holds this code.
"""

import gc
import sys

from british_square import unload
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.piles import RULE_NAMES
from british_square.position import parse_number  # numbers by the desktop command's rule

_VALUES = ("rules", "deal", "position", "keys", "keys-file", "shot", "scale", "save")
_PATHS = ("keys-file", "shot", "save")  # an empty one would mean none, or the folder here
_FLAGS = ("headless", "autoplay", "help")


def parse(argv):
    """The options as a dict (no argparse on a board); ``ValueError`` says what is wrong."""
    options = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        name = word[2:] if word.startswith("--") else None
        if name in _FLAGS:
            options[name] = True
            i += 1
            continue
        if name not in _VALUES:
            raise ValueError("unknown option {!r}".format(word[:40]))
        if i + 1 >= len(argv):
            raise ValueError("{} needs a value".format(word))
        if name in options:
            raise ValueError("{} given twice".format(word))
        options[name] = argv[i + 1]
        i += 2
    for name in _PATHS:
        if options.get(name) == "":
            raise ValueError("--{} needs a path, not an empty one".format(name))
    if "rules" in options and options["rules"] not in RULE_NAMES:
        raise ValueError(
            "--rules takes british, american or union, not {!r}".format(options["rules"][:20])
        )
    if "deal" in options:
        if "position" in options:
            raise ValueError("give --deal or --position, not both")
        options["deal"] = parse_number(options["deal"], "--deal", MIN_DEAL, MAX_DEAL)
    if "scale" in options:
        options["scale"] = parse_number(options["scale"], "--scale", 1, 16)
    return options


def first_game(options):
    """The game the options ask for: a position, a deal, a random deal of
    ``--rules``, or ``None``: the one the NVM keeps, else a random deal."""
    from british_square.engine import Game

    if "position" in options:
        from british_square.desktop.notation import parse_position

        game = parse_position(options["position"])
        named = RULE_NAMES[game.rules]
        if options.get("rules", named) != named:
            raise ValueError(
                "--position is a {} position, not --rules {}".format(named, options["rules"])
            )
        return game
    from british_square.deal import random_deal

    if "deal" not in options and "rules" not in options:
        return None
    rules = RULE_NAMES.index(options.get("rules", "british"))
    return Game.new_deal(options.get("deal") or random_deal(), rules)


def error_line(message):
    """One line on standard error, and the exit status for it."""
    print("error: {} (code.py --help lists the options)".format(message), file=sys.stderr)
    return 2


def say(text):
    """Print ``text``; the exit status: 0, or 2 after one ``error:`` line when
    standard output cannot take it (a full disk, a pipe closed early)."""
    try:
        print(text)
        if hasattr(sys.stdout, "flush"):
            sys.stdout.flush()
        return 0
    except OSError as error:
        try:  # what is left in the buffer goes nowhere, not into a second error at exit
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (AttributeError, OSError):  # the VM has no os.devnull
            pass
        print("error: cannot write to standard output:", error.strerror, file=sys.stderr)
        return 2


def start(argv, machine):
    """Read ``argv`` and make the ``machine(options)`` adapter:
    ``(adapter, options, game)``, or the exit status after the usage (0) or
    one ``error:`` line (2). ``code.py`` lets this module go while the game
    runs, so that a desktop or VM run holds what a board holds."""
    try:
        options = parse(argv)
        if options.get("help"):
            return say(__import__("usage").USAGE)  # its own module: not held by a run
        game = first_game(options)
    except ValueError as error:
        return error_line(error)
    finally:
        unload(
            "british_square.desktop.notation", "british_square.desktop", "british_square.position"
        )
    try:
        return machine(options), options, game
    except (ValueError, OSError) as error:  # a key script or a file the adapter refused
        return error_line(error)


def report(game, status):
    """Print ``game``'s final position; the exit status: ``status`` (the
    adapter's: 0, or a signal's), or 2 when standard output failed."""
    # The position, for tests and bug reports, once the game, its screens and
    # the adapter are gone (only the engine stays): the text module then finds
    # room however the session left the heap (in pieces, on the VM).
    engine = ("engine", "piles", "cards", "deal")
    unload(
        "vm",
        "keyscript",
        *[n for n in sys.modules if n[:15] == "british_square." and n[15:] not in engine],
    )
    gc.collect()
    from british_square.desktop.notation import position_text

    return say("position: " + position_text(game)) or status
