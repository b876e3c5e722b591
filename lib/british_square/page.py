"""The text page: what every screen besides the cards is drawn with.

A title line, a body of ``BODY_ROWS`` lines, a footer line, two lines of
large text, a bar behind a chosen body row, a column of small glyphs
beside the body (the help's legend) and four card sprites (the title's
aces, the celebration's kings). The body is a table of two columns laid out
by a ``GridLayout``: the rows' text, and their figures right-aligned at the
end of each row (the statistics', the About screen's). All made once; a
screen (``screens``) clears the page and puts its words on it (``words``).

The title, the footer and the body's rows are text grids (``TextGrid``): a
tile grid over the built-in font's glyphs, a tile a character, written by
``terminalio.Terminal`` in C, a line only when it changed; the lines have
the felt's colour behind them, so displayio draws one layer there. The
large lines (scale 2 and 3) are
``adafruit_display_text.bitmap_label.Label``s, which draw their text into a
bitmap of their own in Python: a few characters, on the few screens that
have them.
docs/memory.md has what each costs in heap and time.
"""

import bitmaptools
import displayio
import terminalio
from adafruit_display_text.bitmap_label import Label
from adafruit_displayio_layout.layouts.grid_layout import GridLayout

from british_square import sheet
from british_square.cards import const
from british_square.layout import (
    BODY_ROWS,
    BODY_X,
    BODY_Y,
    FIGURE_COLUMNS,
    FONT_W,
    FOOTER_Y,
    MENU_BAR_W,
    MENU_BAR_X,
    SCREEN_W,
    TEXT_COLUMNS,
    TEXT_LINE,
    TITLE_Y,
)
from british_square.sheet import CARD_H, CARD_W

_GLYPH_ROWS = 2 * BODY_ROWS  # small glyphs are half a text line tall
DIM_ROWS = const(2)  # body rows dimmed at most at once (the menu's Undo and Redo)
DIM_COLUMNS = const(7)  # as wide as they are: "   Undo"
_GLYPH_CELLS = const(2)  # and beside a row, two cells: a column's way is two wide
TOP_LEFT = (0.0, 0.0)
TOP_CENTRE = (0.5, 0.0)


def fitted(text, columns, centred=False, right=False, column=0):
    """``text`` in a field of ``columns`` characters: from ``column``, centred
    or right-aligned, blanks around it, cut where it runs past."""
    room = columns - len(text)
    if centred:
        column = room // 2
    elif right:
        column = room
    text = " " * column + text
    return text[:columns] + " " * (columns - len(text))


def label(font, colour, x, y, anchor=TOP_LEFT, scale=1):
    """A label whose top edge, at ``anchor`` along it, is at (``x``, ``y``)."""
    return Label(
        font,
        color=colour,
        scale=scale,
        line_spacing=1.0,  # lines of several rows: TEXT_LINE apart, as the font is tall
        anchor_point=anchor,
        anchored_position=(x, y),
    )


class Glyphs:
    """A font whose glyphs are equal cells of one bitmap (``terminalio.FONT``):
    the bitmap, a cell's size, the blank's tile, and a terminal (C on a
    board: ``terminalio.Terminal``) that writes text into a grid of them."""

    def __init__(self, font):
        self.font = font
        self.bitmap = font.bitmap
        self.width, self.height = font.get_bounding_box()[:2]
        self.tiles = bytearray(95)  # of printable ASCII, from the space
        for code in range(32, 127):
            glyph = font.get_glyph(code)
            self.tiles[code - 32] = glyph.tile_index if glyph is not None else 0
        self.blank = self.tiles[0]

    def tile(self, char):
        """The tile of character ``char`` (a blank's for one not printable ASCII)."""
        code = ord(char) - 32
        return self.tiles[code] if 0 <= code < 95 else self.blank

    def terminal(self, grid):
        """A terminal writing into ``grid``: the font's own where it brings
        one (the desktop's, ``desktop.font``), else CircuitPython's."""
        make = getattr(self.font, "terminal", None)
        return make(grid) if make else terminalio.Terminal(grid, self.font)


class TextGrid:
    """``rows`` lines of ``columns`` characters in ``colour``: a tile grid
    over the font's glyphs (``Glyphs``), on ``background`` or, when it is
    ``None``, see-through. A line that changed is written whole by the
    terminal, in C: a tile a character, so displayio redraws just those
    lines, and no bitmap is drawn in Python (a label redraws its whole
    text: 25 ms a 26-column line on a SAMD51; a tile set from Python costs
    about 40 us). A background hides what is under the grid from displayio
    as well as from the eye: a see-through grid over the felt costs the
    renderer both layers, half as much again."""

    def __init__(self, glyphs, columns, rows, colour, background=None):
        self.columns = columns
        palette = displayio.Palette(2)
        if background is None:
            palette.make_transparent(0)
        else:
            palette[0] = background
        palette[1] = colour
        self.palette = palette
        self.colour = colour
        # A column more than the text's: a line that fills its columns leaves
        # the terminal's cursor in the grid, so it never wraps to the next
        # row (nor, from the last, scrolls the grid).
        self.grid = displayio.TileGrid(
            glyphs.bitmap,
            pixel_shader=palette,
            width=columns + 1,
            height=rows,
            tile_width=glyphs.width,
            tile_height=glyphs.height,
            default_tile=glyphs.blank,
        )
        self.terminal = glyphs.terminal(self.grid)
        self.lines = [""] * rows  # each row's text as shown, its blanks at the end cut
        self.written = 0  # rows with text
        self.grid.hidden = True

    @property
    def color(self):
        return self.colour

    @color.setter
    def color(self, colour):
        if colour != self.colour:
            self.colour = colour
            self.palette[1] = colour

    @property
    def text(self):
        """The rows as shown, a line each (as a label's text reads)."""
        return "\n".join(self.lines)

    def set_line(self, row, text):
        """Row ``row`` shows ``text`` (cut at the grid's width), if it does not already."""
        lines = self.lines
        if text == lines[row]:  # most often, and no new string to make
            return
        text = text[: self.columns].rstrip()
        if text != lines[row]:
            self.written += (1 if text else 0) - (1 if lines[row] else 0)
            lines[row] = text
            # the cursor to the row's start, the text, the rest of the row blank
            self.terminal.write("\x1b[{};1H{}\x1b[K".format(row + 1, text))
            # a grid with no text is hidden: displayio skips it (its
            # background, if any, is the felt's colour, which shows instead)
            self.grid.hidden = not self.written


class Bar:
    """The bar behind the chosen menu row, ``width`` pixels from ``x``, a line
    tall, in ``colour``, with that row's text on it in ``ink``: one bitmap
    of the bar, the row's glyphs copied into it in C (``bitmaptools.blit``)
    as it moves. Over the body's opaque lines, it is the one layer where it
    is, so a menu step redraws the row left and the row reached, once each."""

    def __init__(self, glyphs, x, width, colour, ink):
        self.glyphs = glyphs
        self.bitmap = displayio.Bitmap(width, glyphs.height, 2)
        palette = displayio.Palette(2)
        palette[0] = colour
        palette[1] = ink
        self.grid = displayio.TileGrid(self.bitmap, pixel_shader=palette, x=x)
        self.grid.hidden = True
        self.text = ""

    def show(self, y, text, text_x):
        """The bar at ``y`` behind ``text``, whose first character is at ``text_x``."""
        grid, bitmap, glyphs = self.grid, self.bitmap, self.glyphs
        grid.y = y
        grid.hidden = False
        if text == self.text:
            return
        self.text = text
        bitmap.fill(0)
        w, h, font = glyphs.width, glyphs.height, glyphs.bitmap
        start = text_x - grid.x  # where the text's first character is, on the bar
        for column in range(len(text.rstrip())):
            char = text[column]
            if char == " ":
                continue
            x = start + column * w
            left = -x if x < 0 else 0  # its columns on the bar
            right = bitmap.width - x if x + w > bitmap.width else w
            if left < right:
                source = glyphs.tile(char) * w
                bitmaptools.blit(bitmap, font, x + left, 0, x1=source + left, y1=0,
                                 x2=source + right, y2=h)  # fmt: skip


class TextPage:
    """Title, body table, footer, large lines, a bar, legend glyphs and card sprites."""

    rows = BODY_ROWS

    def __init__(self, sheet_bitmap, palette, font, glyphs):
        self.dirty = True
        # The body: a table of two columns laid out by a GridLayout of
        # two-character cells, the rows' text across all 13 on the felt's
        # colour and their figures over the last 8, each column a text grid.
        # Its rows are kept here until ``draw``.
        felt = sheet.PALETTE[sheet.FELT]
        self.lines = [""] * BODY_ROWS
        self.figures = [""] * BODY_ROWS
        self.columns = (
            TextGrid(glyphs, TEXT_COLUMNS, BODY_ROWS, sheet.TEXT_WHITE, felt),
            TextGrid(glyphs, FIGURE_COLUMNS, BODY_ROWS, sheet.TEXT_WHITE),
        )
        self.body = GridLayout(
            x=BODY_X,
            y=BODY_Y,
            width=FONT_W * TEXT_COLUMNS,
            height=TEXT_LINE * BODY_ROWS,
            grid_size=(TEXT_COLUMNS // 2, BODY_ROWS),
        )
        self.body.add_content(self.columns[0].grid, (0, 0), (TEXT_COLUMNS // 2, BODY_ROWS))
        figures_at = (TEXT_COLUMNS - FIGURE_COLUMNS) // 2
        self.body.add_content(
            self.columns[1].grid, (figures_at, 0), (FIGURE_COLUMNS // 2, BODY_ROWS)
        )
        # Dimmed rows: each a line of grey on the felt's colour, over its body
        # row's text (``dim_row``, until ``draw``), which it hides: one layer
        # drawn there, as elsewhere, and no wider than the text (a see-through
        # grid of three whole rows over the body cost a menu 16 ms more to draw).
        grey = sheet.TEXT_GREY
        self.dims = [TextGrid(glyphs, DIM_COLUMNS, 1, grey, felt) for _ in range(DIM_ROWS)]
        for dim in self.dims:
            dim.grid.x = BODY_X
        self.dimmed = 0  # a bit per body row
        self.title_text = self.footer_text = ""  # the title and footer, until ``draw``
        self.title = TextGrid(glyphs, TEXT_COLUMNS, 1, sheet.TEXT_YELLOW, felt)
        self.footer = TextGrid(glyphs, TEXT_COLUMNS, 1, sheet.TEXT_GREY, felt)
        for line, y in ((self.title, TITLE_Y), (self.footer, FOOTER_Y)):
            line.grid.x = BODY_X
            line.grid.y = y
        self.big = (
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
        )
        # The lines on the felt's colour first, at the bottom: everything else
        # is drawn over them (text last but for them: nothing, a bouncing
        # king included, ever covers a character).
        self.group = displayio.Group()
        for text in (self.title.grid, self.body, self.footer.grid):
            self.group.append(text)
        for dim in self.dims:
            self.group.append(dim.grid)
        self.bar = Bar(glyphs, MENU_BAR_X, MENU_BAR_W, sheet.MENU_BAR, sheet.TEXT_WHITE)
        self.group.append(self.bar.grid)
        self.cards = []
        for _ in range(4):
            card = displayio.TileGrid(
                sheet_bitmap,
                pixel_shader=palette,
                tile_width=CARD_W,
                tile_height=CARD_H,
                default_tile=sheet.TILE_BLANK,
            )
            self.cards.append(card)
            self.group.append(card)
        self.glyphs = displayio.TileGrid(
            sheet_bitmap,
            pixel_shader=palette,
            tile_width=sheet.SMALL_W,
            tile_height=sheet.SMALL_H,
            width=_GLYPH_CELLS,
            height=_GLYPH_ROWS,
            default_tile=sheet.small_tile(sheet.SMALL_NONE),
            x=BODY_X,
            y=BODY_Y + 3,
        )
        self.glyphs.hidden = True  # until a glyph is shown: it draws from flash
        self.group.append(self.glyphs)
        for big in self.big:
            self.group.append(big)
        self.clear()

    def cell(self, column):
        """The text grid of the body's ``column`` (0: the rows' text, 1: their figures)."""
        return self.columns[column]

    def clear(self):
        """An empty page in the usual colours."""
        self.bar.grid.hidden = True
        for card in self.cards:
            card.hidden = True
        if not self.glyphs.hidden:
            self.glyphs.hidden = True
            for cell in range(_GLYPH_CELLS * _GLYPH_ROWS):
                self.glyphs[cell] = sheet.small_tile(sheet.SMALL_NONE)
        for big in self.big:
            big.text = ""
            big.color = sheet.TEXT_YELLOW
        self.title_text = self.footer_text = ""
        for row in range(BODY_ROWS):
            self.lines[row] = self.figures[row] = ""
        self.dimmed = 0
        for column in range(2):
            self.cell(column).color = sheet.TEXT_WHITE
        self.footer.color = sheet.TEXT_GREY
        self.dirty = True

    def title_line(self, text):
        """The title, centred (on the screen at ``draw``)."""
        self.title_text = text

    def footer_line(self, text):
        """The footer, centred (on the screen at ``draw``)."""
        self.footer_text = text

    def body_line(self, row, text, figure="", centred=False, column=0):
        """Body row ``row``: ``text`` from ``column`` (or centred), and
        ``figure`` right-aligned at the end of the row (on the screen at
        ``draw``)."""
        if centred:
            column = (TEXT_COLUMNS - len(text)) // 2
        # as a text grid shows them: cut at the grid's width, no blanks after
        self.lines[row] = " " * column + text
        self.dimmed &= ~(1 << row)
        self.figures[row] = " " * (FIGURE_COLUMNS - len(figure)) + figure if figure else ""

    def show_lines(self, lines):
        """A page of ``lines`` as they are (no words.txt): the title, body
        lines, the footer, drawn."""
        self.title_line(lines[0])
        for row in range(len(lines) - 2):
            self.body_line(row, lines[row + 1])
        self.footer_line(lines[-1])
        self.draw()

    def dim_row(self, row):
        """Body row ``row`` in grey: it would do nothing now (on the screen at
        ``draw``; ``DIM_ROWS`` of them at most, ``DIM_COLUMNS`` wide at most)."""
        self.dimmed |= 1 << row

    def mark_line(self, row, mark, column):
        """A character ``mark`` at ``column`` of body row ``row`` (on the screen
        at ``draw``)."""
        line = fitted(self.lines[row], TEXT_COLUMNS)
        self.lines[row] = line[:column] + mark + line[column + 1 :]

    def draw(self):
        """Title, body and footer, as the calls above left them, into their
        text grids (only the lines that changed are written)."""
        self._draw_columns()
        self.title.set_line(0, fitted(self.title_text, TEXT_COLUMNS, centred=True))
        self.footer.set_line(0, fitted(self.footer_text, TEXT_COLUMNS, centred=True))
        self.dirty = True

    def _draw_columns(self):
        text, figures = self.columns
        dimmed, lines, dims = self.dimmed, self.lines, self.dims
        used = 0
        for row in range(BODY_ROWS):
            text.set_line(row, lines[row])  # under a dimmed row too: ready when it goes
            figures.set_line(row, self.figures[row])
            if dimmed >> row & 1 and used < DIM_ROWS:
                dim = dims[used]
                dim.grid.y = BODY_Y + TEXT_LINE * row
                dim.set_line(0, lines[row])
                if dim.grid.hidden:
                    dim.grid.hidden = False
                used += 1
        for k in range(used, DIM_ROWS):  # hidden, their text kept: the menu's rows come back
            if not dims[k].grid.hidden:
                dims[k].grid.hidden = True

    def place_big(self, index, x, y, scale=2, centred=True):
        """Large line ``index`` (0 or 1) at scale ``scale``, its top edge at
        ``y``: centred on ``x``, or from ``x``."""
        big = self.big[index]
        big.anchor_point = TOP_CENTRE if centred else TOP_LEFT
        big.anchored_position = (x, y)
        big.scale = scale
        self.dirty = True

    def big_line(self, index, text):
        """The text of large line ``index``, where it was placed."""
        self.big[index].text = text
        self.dirty = True

    def show_bar(self, row):
        """The bar behind body row ``row``."""
        self.bar.show(BODY_Y + TEXT_LINE * row, self.lines[row], BODY_X)
        self.dirty = True

    def show_card(self, index, tile, x, y):
        card = self.cards[index]
        card[0] = tile
        card.x = x
        card.y = y
        card.hidden = False
        self.dirty = True

    def glyph(self, row, glyph):
        """A small glyph (``sheet.SMALL_*``) beside body row ``row``; a
        column's way (``sheet.WAY_*``) takes two cells."""
        cell = _GLYPH_CELLS * 2 * row
        self.glyphs[cell] = sheet.small_tile(glyph)
        right = glyph + 1 if glyph >= sheet.WAY_UP else sheet.SMALL_NONE
        self.glyphs[cell + 1] = sheet.small_tile(right)
        self.glyphs.hidden = False
        self.dirty = True
