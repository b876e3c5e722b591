"""The built-in font on the desktop as a board has it: one bitmap of glyph cells.

CircuitPython's ``terminalio.FONT`` keeps every glyph as a 6 x 12 cell of one
bitmap (``font.bitmap``; a glyph is a ``tile_index`` into it), which the
text page's grids tile (``textgrid.TextGrid``). Blinka's ``terminalio.FONT``
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

    def terminal(self, grid):
        """A terminal writing into ``grid``, as the board's ``terminalio.Terminal`` does."""
        return GridTerminal(grid, self)


class GridTerminal:
    """CircuitPython's ``terminalio.Terminal`` (C, which Blinka lacks) for
    what the text grids write: printable ASCII at the cursor, ``ESC [ row ;
    column H`` (from 1) to move it, ``ESC [ K`` to blank the rest of its row.
    A character past a row's end goes to the next row's start."""

    def __init__(self, grid, font):
        self.grid = grid
        self.font = font
        self.blank = font.get_glyph(32).tile_index
        self.cursor_x = self.cursor_y = 0

    def write(self, data):
        data = data.encode() if isinstance(data, str) else bytes(data)  # or a memoryview
        grid, at = self.grid, 0
        while at < len(data):
            byte = data[at]
            if data[at : at + 2] == b"\x1b[":
                end = at + 2
                while chr(data[end]) in "0123456789;":
                    end += 1
                numbers = [int(n) if n else 1 for n in data[at + 2 : end].decode().split(";")]
                if data[end : end + 1] == b"H":
                    self.cursor_y = numbers[0] - 1
                    self.cursor_x = (numbers[1] if len(numbers) > 1 else 1) - 1
                elif data[end : end + 1] == b"K":
                    for x in range(self.cursor_x, grid.width):
                        grid[x, self.cursor_y] = self.blank
                else:
                    raise ValueError("escape {!r} not known here".format(data[at : end + 1]))
                at = end + 1
                continue
            if FIRST <= byte <= LAST:
                if self.cursor_x >= grid.width:
                    self.cursor_x = 0
                    self.cursor_y += 1
                grid[self.cursor_x, self.cursor_y] = self.font.get_glyph(byte).tile_index
                self.cursor_x += 1
            at += 1
        return len(data)
