"""Text as a grid of characters: a ``TileGrid`` whose tiles are the glyphs of
the built-in 6x12 font, the way ``terminalio`` and deshipu's ``stage`` draw text.

A label that renders into a bitmap of its own (``adafruit_display_text``)
needs a new bitmap whenever its text changes size, and those kilobyte blocks
fragment a small heap. Here each block of text is made once, one byte per
character, and writing text only changes tile numbers: nothing is allocated,
so a screen's words can change every frame.
"""

import displayio

from british_square.cards import const

FONT_W = const(6)
FONT_H = const(12)
FIRST_CHAR = const(32)  # the font's tile 0 is the space
LAST_CHAR = const(126)
_ZERO = const(48 - FIRST_CHAR)
_UNKNOWN = const(63 - FIRST_CHAR)  # "?" stands for a character the font lacks


def font_bitmap():
    """The built-in font's glyphs as one bitmap, tile ``ord(c) - 32`` for ``c``.

    CircuitPython keeps it in flash (``terminalio.FONT.bitmap``). Blinka's
    font has no such bitmap: the desktop adapter passes its own (see ``hw/desktop.py``).
    """
    import terminalio

    return terminalio.FONT.bitmap


class TextGrid:
    """``columns`` x ``rows`` characters in one colour, at (``x``, ``y``), ``scale`` times
    larger (text made at scale 1 stays so). ``group`` is what goes on the screen."""

    def __init__(self, font, columns, rows, x, y, colour, scale=1):
        self.columns = columns
        self.rows = rows
        self.palette = displayio.Palette(2)
        self.palette.make_transparent(0)
        self.palette[1] = colour
        self.tiles = displayio.TileGrid(
            font,
            pixel_shader=self.palette,
            width=columns,
            height=rows,
            tile_width=FONT_W,
            tile_height=FONT_H,
            default_tile=0,
        )
        if scale == 1:  # a Group only where it is needed: to scale
            self.group = self.tiles
            self.tiles.x = x
            self.tiles.y = y
        else:
            self.group = displayio.Group(scale=scale, x=x, y=y)
            self.group.append(self.tiles)

    def set_colour(self, colour):
        self.palette[1] = colour

    def move(self, x, y, scale=1):
        """Place the text at (``x``, ``y``); ``scale`` only for text made scaled."""
        group = self.group
        group.x = x
        group.y = y
        if group is not self.tiles and group.scale != scale:
            group.scale = scale

    def clear(self):
        tiles = self.tiles
        for i in range(self.columns * self.rows):
            tiles[i] = 0

    def write(self, row, column, text):
        """Write ``text`` from (``column``, ``row``); a newline goes on at ``column``
        of the next row. What runs past the grid is cut. Returns the column after
        the last character written."""
        tiles = self.tiles
        at = column
        # Its bytes: CircuitPython makes each character of an iterated str an
        # interned name (a qstr, never freed), and a long session would add
        # every character it ever wrote to the interpreter's name pools.
        for code in text.encode():
            if code == 10:  # a newline
                row += 1
                at = column
                continue
            if at < self.columns and row < self.rows:
                tiles[row * self.columns + at] = (
                    code - FIRST_CHAR if FIRST_CHAR <= code <= LAST_CHAR else _UNKNOWN
                )
            at += 1
        return at

    def write_number(self, row, column, value, width, zeros=False):
        """Write the int ``value`` (0 or more) right-aligned in ``width`` characters,
        blanks (or ``zeros``) before it: digits only, so nothing is allocated."""
        tiles = self.tiles
        last = row * self.columns + column + width - 1
        for at in range(last, last - width, -1):
            tiles[at] = _ZERO + value % 10 if value or zeros or at == last else 0
            value //= 10

    def put_line(self, row, buffer, size, centred=False, column=0):
        """Blank ``row`` from ``column`` and write the first ``size`` bytes of
        ``buffer`` there, or centred on the row."""
        self.fill(row, column, self.columns - column)
        if centred:
            column = (self.columns - size) // 2
        tiles = self.tiles
        at = row * self.columns + column
        for i in range(min(size, self.columns - column)):
            code = buffer[i]
            tiles[at + i] = code - FIRST_CHAR if FIRST_CHAR <= code <= LAST_CHAR else _UNKNOWN

    def centre(self, row, text):
        """Clear ``row`` and write ``text`` centred on it."""
        self.fill(row, 0, self.columns)
        self.write(row, (self.columns - len(text)) // 2, text)

    def fill(self, row, column, count):
        """Blank ``count`` characters of ``row`` from ``column``."""
        tiles = self.tiles
        start = row * self.columns + column
        for i in range(start, start + count):
            tiles[i] = 0
