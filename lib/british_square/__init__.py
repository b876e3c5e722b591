"""British Square: a two-deck patience for CircuitPython handhelds.

The engine (``cards``, ``deal``, ``piles``, ``engine``) is pure Python
that runs unchanged on CircuitPython and CPython; the view and app modules
wrap it for displayio; ``desktop`` never goes to a board. Importing the
package itself costs almost nothing.
"""

import gc

__version__ = "0.1.0"

_BOARD_HEAP = hasattr(gc, "mem_free")  # CircuitPython's; CPython collects for itself


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


class Garbage:
    """The garbage a change of screen leaves, collected in the next turn of
    the loop with nothing else in it, so that the press after finds room.

    A board collects when an allocation finds no room, in whichever turn
    that is: a mark of the whole live heap, 8 ms on a SAMD51 with the
    game's 120 KB live, inside a press's frame. A change of screen leaves a
    kilobyte or two of garbage and is followed by a player's reading, so
    the loop collects then (``due``, ``collect``): once a change, and never
    at rest. On CPython nothing is ever due."""

    def __init__(self):
        self.due = False

    def left(self):
        """A change of screen: garbage to collect at the next quiet turn."""
        self.due = _BOARD_HEAP

    def collect(self):
        gc.collect()
        self.due = False
