"""The celebration of a won game: four kings bounce under "You won!" on the
text page, and the lights glow with them, a frame every ``_FRAME_MS``,
until the screen goes. A frame allocates nothing: the kings' positions and
speeds are small ints in a list made once."""

from british_square.cards import const
from british_square.controls import ticks_add, ticks_diff
from british_square.layout import KINGS_BOTTOM, KINGS_TOP, SCREEN_W
from british_square.sheet import CARD_W, FIRST_CARD

_FRAME_MS = const(50)  # the celebration's frame time


class Celebration:
    """The kings on ``page`` (a ``page.TextPage``); ``glow(frame)`` lights
    each frame (``App.glow``: -1 is dark)."""

    def __init__(self, page, glow):
        self.page = page
        self.glow = glow
        self.on = False
        self.frame_due = 0
        self.frame = 0  # counted for the lights
        # position and speed of each king, x and y
        self.bounce = [0] * 16

    def start(self, now):
        """The kings spread out, each with its own speed; they come with the
        first frame, due at ``now``: the turn after the won screen's own,
        which then draws the page alone (the kings in it cost it 3 ms on a
        SAMD51)."""
        b = self.bounce
        for suit in range(4):
            x, y = 8 + 40 * suit, KINGS_TOP + 6 * suit
            b[4 * suit : 4 * suit + 4] = (x, y, 2 - suit if suit != 2 else 1, 1 + suit % 2)
        self.on = True
        self.frame_due = now
        self.frame = 0

    def stop(self):
        """The screen goes: the lights go dark with the kings."""
        if self.on:
            self.on = False
            self.glow(-1)

    def tick(self, now):
        """A frame when one is due: was there one?"""
        if self.on and ticks_diff(now, self.frame_due) >= 0:
            self.frame_due = ticks_add(now, _FRAME_MS)
            self._animate()
            return True
        return False

    def _animate(self):
        b = self.bounce
        if not self.frame:  # the first: the kings come where they start
            for suit in range(4):
                tile = FIRST_CARD + suit * 13 + 12
                self.page.show_card(suit, tile, b[4 * suit], b[4 * suit + 1])
            self.frame = 1
            self.glow(self.frame)
            return
        for i in range(8):  # x then y of each king: move, bounce off the band's edges
            k = (i >> 1) * 4 + (i & 1)  # b[k] is a position, b[k ^ 2] its speed
            low, high = (KINGS_TOP, KINGS_BOTTOM) if i & 1 else (0, SCREEN_W - CARD_W)
            value = b[k] + b[k ^ 2]
            if value < low or value > high:
                b[k ^ 2] = -b[k ^ 2]
                value = b[k] + b[k ^ 2]
            b[k] = value
        cards = self.page.cards
        for i in range(4):
            king = cards[i]
            king.x = b[4 * i]
            king.y = b[4 * i + 1]
        self.page.dirty = True
        self.frame += 1
        self.glow(self.frame)
