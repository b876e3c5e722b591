"""Adafruit PyBadge (and PyBadge LC, EdgeBadge): eight keys, the D-pad among them."""

from handheld import Handheld, button_actions


class Hardware(Handheld):
    """The PyBadge adapter: its eight keys, and what ``Handheld`` gives."""

    def __init__(self, options=None):
        super().__init__(button_actions(8))

    def facts(self):
        """The board, its NVM bytes, and no battery reading (PLATFORM.md knows
        of a voltage monitor on the PyGamer only)."""
        return "PyBadge", len(self.nvm), 0
