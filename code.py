"""British Square: pick the board adapter, deal, and play.

On a PyGamer or PyBadge this is the CIRCUITPY drive's ``code.py`` and takes
no options. On the desktop, ``python3 code.py [options]`` opens a window (or
runs headless); under the CircuitPython VM it plays a key script. Options
are read by ``hw/options.py``: ``python3 code.py --help`` lists them.
"""

import gc
import sys


def main(argv):
    if sys.implementation.name != "cpython":
        # CircuitPython's own modules that a file of the same name would
        # replace: each import of one looks for that file in every folder of
        # sys.path first (misses on the flash's directories), every time, as
        # a built-in is never kept in sys.modules. Imported once with
        # sys.path empty, which skips the search, and kept there.
        path, sys.path[:] = sys.path[:], []
        for name in ("os", "time", "random"):
            sys.modules[name] = __import__(name)
        sys.path[:] = path
    # lib/ first (a board already has /lib on its path), then hw/, beside this file
    here = globals().get("__file__", "code.py").replace("\\", "/")
    root = here[: here.rfind("/") + 1]
    for name, where in (("lib", 0), ("hw", len(sys.path))):
        if root + name not in sys.path:
            sys.path.insert(where, root + name)
    try:
        if argv:  # desktop and VM only: imported by name, so deploy leaves it off a board
            started = __import__("options").start(argv, machine)
            if type(started) is int:
                return started  # the usage, or one error: line
            hardware, options, game = started
            started = None
            sys.modules.pop("options")  # not held while the game runs: a board has none
        else:
            hardware, options, game = machine({}), {}, None  # the game kept in NVM, or a new deal
        game = run_session(hardware, options, game)
        status = getattr(hardware, "status", 0)  # the desktop's: what stopped the game
        if not argv and sys.implementation.name != "cpython":
            return status  # a board never gets here; the VM, run as a board, reports its run
        hardware = None
        # The report's code comes back into a collected heap: loaded among a
        # session's garbage, its pieces can leave no room for the position text.
        gc.collect()
        return __import__("options").report(game, status)
    except MemoryError:  # as it came: what says the damage would need room too
        raise
    except Exception as error:  # a file of the game that cannot load: one line, status 2
        hardware = game = None  # the session goes: room for what says so
        gc.collect()
        return __import__("british_square.damage").damage.said(error)


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


def machine(options):
    """This machine's adapter (docs/architecture.md, "The hardware adapter",
    says what the game asks of it); ``ValueError`` if it refuses the options."""
    return __import__(board_module()).Hardware(options)


def run_session(hardware, options, game):
    """Play ``game`` (``None``: the one the adapter's NVM keeps, else a new
    deal) until the adapter is finished; the game as it ended."""
    from british_square.app import App

    store = None
    if hardware.nvm is not None:
        from british_square.store import Store

        store = Store(hardware.nvm)
    app = App(hardware, store, game, "autoplay" in options)
    hardware.started(app)
    app.run()
    hardware.stopped(app)
    hardware.display.root_group = None
    return app.table.game


# CircuitPython runs code.py as __main__; the guard keeps `import code` (the
# standard library's name, imported by pdb and pytest) from starting a game.
if __name__ == "__main__":
    status = main(sys.argv[1:] if len(sys.argv) > 1 else [])
    if status:
        sys.exit(status)
