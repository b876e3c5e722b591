"""British Square: a two-deck patience for CircuitPython handhelds.

The engine (``cards``, ``deal``, ``piles``, ``engine``) is pure Python
that runs unchanged on CircuitPython and CPython; the view and app modules
wrap it for displayio; ``desktop`` never goes to a board. Importing the
package itself costs almost nothing.
"""

__version__ = "0.1.0"


def unload(*names):
    """Let modules go that the game does not need any more (imported again if
    asked): code run once, such as the options or the save's loader."""
    import sys

    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            package, _, short = name.rpartition(".")
            if package in sys.modules and hasattr(sys.modules[package], short):
                delattr(sys.modules[package], short)
