"""The built-in font on the desktop as a board has it: one bitmap of glyph cells.

CircuitPython's ``terminalio.FONT`` keeps every glyph as a 6 x 12 cell of one
bitmap (``font.bitmap``; a glyph is a ``tile_index`` into it), which the
text page's grids tile (``page.TextGrid``). Blinka's ``terminalio.FONT``
loads the same glyphs from a BDF file, a bitmap each, and its ``bitmap`` is
a class. ``SheetFont`` copies them into cells of one bitmap, as the board's
font is laid out, and answers ``get_glyph`` with glyphs over that bitmap, so
labels and text grids draw from the same cells on both.
"""

import displayio
import fontio
import terminalio

FIRST, LAST = 32, 126  # printable ASCII, as the board's font begins


class SheetFont:
    """``font`` (Blinka's ``terminalio.FONT`` unless given) with its glyphs in
    the cells of one bitmap."""

    def __init__(self, font=None):
        font = font or terminalio.FONT
        width, height = font.get_bounding_box()[:2]
        self.size = (width, height)
        self.bitmap = displayio.Bitmap(width * (LAST - FIRST + 1), height, 2)
        self.glyphs = {}
        for code in range(FIRST, LAST + 1):
            glyph = font.get_glyph(code)
            if glyph is None:
                continue
            tile = code - FIRST
            for y in range(min(glyph.height, height)):
                for x in range(min(glyph.width, width)):
                    self.bitmap[tile * width + x, y] = glyph.bitmap[x, y]
            self.glyphs[code] = fontio.Glyph(
                bitmap=self.bitmap, tile_index=tile, width=width, height=height,
                dx=0, dy=0, shift_x=width, shift_y=0,
            )  # fmt: skip

    def get_bounding_box(self):
        return self.size

    def get_glyph(self, codepoint):
        return self.glyphs.get(codepoint)
