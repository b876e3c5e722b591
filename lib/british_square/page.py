"""The text page: what every screen besides the cards is drawn with.

A title line, a body of ``BODY_ROWS`` lines, a footer line, two lines of
large text, a bar behind a chosen body row, a column of small glyphs
beside the body (the help's legend) and four card sprites (the title's
aces, the celebration's kings). The body is a table: each row's text, and
its figure right-aligned at the row's end (the statistics', the About
screen's), laid out by a ``GridLayout``. All made once; a screen
(``screens``) clears the page and puts its words on it (``words``).

The title, the footer and the body are text grids (``textgrid.TextGrid``),
written only where a line changed, with the felt's colour behind them and
spanning the screen's width, so where they are displayio draws one layer
and stops. The large lines (scale 2 and 3) are
``adafruit_display_text.bitmap_label.Label``s, which draw their text into a
bitmap of their own in Python: a few characters, on the few screens that
have them.
docs/memory.md has what each costs in heap and time.
"""

import bitmaptools
import displayio
from adafruit_display_text.bitmap_label import Label
from adafruit_displayio_layout.layouts.grid_layout import GridLayout

from british_square import sheet
from british_square.cards import const
from british_square.layout import (
    BODY_ROWS,
    BODY_X,
    BODY_Y,
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
from british_square.textgrid import TextGrid, as_bytes

_GLYPH_ROWS = 2 * BODY_ROWS  # small glyphs are half a text line tall
DIM_ROWS = const(3)  # body rows dimmed at most at once (the menu's Restart deal, Undo, Redo)
DIM_COLUMNS = const(15)  # as wide as the longest: "   Restart deal"
_GLYPH_CELLS = const(2)  # and beside a row, two cells: a column's way is two wide
_SPACE = const(32)
# A page's lines start a column left of the screen, blank, so that with the
# spare column at their end they span its whole width: a row of pixels one
# layer covers whole is where displayio stops (the felt under it is skipped).
_MARGIN = const(1)
_LINE_X = BODY_X - FONT_W * _MARGIN
TOP_LEFT = (0.0, 0.0)
TOP_CENTRE = (0.5, 0.0)


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


class Bar:
    """The bar behind the chosen menu row, ``width`` pixels from ``x``, a line
    tall, in ``colour``, with that row's text on it in ``ink``; the row's
    characters start at ``text_x``. The columns the bar holds whole are a
    text grid of their own in the bar's colours, written by the terminal
    (C); the two slivers of columns at its ends, narrower than a glyph,
    are small bitmaps with those columns of their glyphs copied in. Over
    the body's opaque lines it is the one layer where it is, so a menu step
    redraws the row left and the row reached, once each."""

    def __init__(self, glyphs, x, width, colour, ink, text_x):
        self.glyphs = glyphs
        w = glyphs.width
        self.first = -(-(x - text_x) // w)  # the first column the bar holds whole
        self.end = (x + width - text_x) // w  # and the column after its last
        self.middle = TextGrid(
            glyphs, self.end - self.first, 1, ink, colour, blank_hides=False, spare=False
        )
        self.middle.grid.x = text_x + w * self.first
        palette = self.middle.palette
        self.group = displayio.Group()
        self.group.append(self.middle.grid)
        # the slivers: (the column, the first of its glyph's pixel columns shown, its bitmap)
        self.slivers = []
        left, right = text_x + w * self.first, text_x + w * self.end
        for column, skip, sliver_x, sliver_w in (
            (self.first - 1, w - (left - x), x, left - x),
            (self.end, 0, right, x + width - right),
        ):
            if sliver_w > 0:
                bitmap = displayio.Bitmap(sliver_w, glyphs.height, 2)
                self.group.append(displayio.TileGrid(bitmap, pixel_shader=palette, x=sliver_x))
                self.slivers.append((column, skip, bitmap))
        self.sliver_codes = bytearray(len(self.slivers))  # the characters shown in them
        self.group.hidden = True
        self.text = bytearray(TEXT_COLUMNS)  # the row's text on the bar

    def show(self, y, line, row):
        """The bar at ``y`` behind row ``row`` of ``line`` (the body, a
        ``TextGrid``): only what changed is written."""
        group = self.group
        group.y = y
        if group.hidden:
            group.hidden = False
        text, mine, columns = line.shown, self.text, line.columns
        at = row * columns
        if text.find(mine, at, at + columns) == at:  # the same text: compared in C
            return
        mine[:] = memoryview(text)[at : at + columns]
        self.middle.set_line(0, memoryview(mine)[self.first : self.end])
        glyphs = self.glyphs
        for k in range(len(self.slivers)):
            column, skip, bitmap = self.slivers[k]
            code = mine[column] if 0 <= column < columns else _SPACE
            if code != self.sliver_codes[k]:
                self.sliver_codes[k] = code
                bitmap.fill(0)
                if code != _SPACE:
                    source = glyphs.tile(code) * glyphs.width + skip
                    bitmaptools.blit(bitmap, glyphs.bitmap, 0, 0, x1=source, y1=0,
                                     x2=source + bitmap.width, y2=glyphs.height)  # fmt: skip


class TextPage:
    """Title, body table, footer, large lines, a bar, legend glyphs and card sprites."""

    rows = BODY_ROWS

    def __init__(self, sheet_bitmap, palette, font, glyphs):
        self.dirty = True
        felt = sheet.PALETTE[sheet.FELT]
        # The body: a table of rows laid out by a GridLayout, each row's text
        # and its figure (right-aligned at its end) in one text grid on the
        # felt's colour. Two grids, the figures' see-through over the rows',
        # cost a screen of figures 25 ms more to draw on a SAMD51.
        self.body = TextGrid(glyphs, TEXT_COLUMNS, BODY_ROWS, sheet.TEXT_WHITE, felt, _MARGIN)
        width = FONT_W * (_MARGIN + TEXT_COLUMNS + 1)
        self.table = GridLayout(
            x=_LINE_X, y=BODY_Y, width=width, height=TEXT_LINE * BODY_ROWS, grid_size=(1, 1)
        )
        self.table.add_content(self.body.grid, (0, 0), (1, 1))
        # Dimmed rows: each a line of grey on the felt's colour, over its body
        # row's text (``dim_row``, until ``draw``), which it hides: one layer
        # drawn there, as elsewhere, and no wider than the text (a see-through
        # grid of three whole rows over the body cost a menu 16 ms more to draw).
        grey = sheet.TEXT_GREY
        self.dims = [TextGrid(glyphs, DIM_COLUMNS, 1, grey, felt) for _ in range(DIM_ROWS)]
        for dim in self.dims:
            dim.grid.x = BODY_X
        self.dimmed = 0  # a bit per body row
        self.title = TextGrid(glyphs, TEXT_COLUMNS, 1, sheet.TEXT_YELLOW, felt, _MARGIN)
        self.footer = TextGrid(glyphs, TEXT_COLUMNS, 1, sheet.TEXT_GREY, felt, _MARGIN)
        for line, y in ((self.title, TITLE_Y), (self.footer, FOOTER_Y)):
            line.grid.x = _LINE_X
            line.grid.y = y
        self.big = (
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
        )
        # The lines on the felt's colour first, at the bottom: everything else
        # is drawn over them (text last but for them: nothing, a bouncing
        # king included, ever covers a character).
        self.group = displayio.Group()
        for text in (self.title.grid, self.table, self.footer.grid):
            self.group.append(text)
        for dim in self.dims:
            self.group.append(dim.grid)
        self.bar = Bar(glyphs, MENU_BAR_X, MENU_BAR_W, sheet.MENU_BAR, sheet.TEXT_WHITE, BODY_X)
        self.group.append(self.bar.group)
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

    def clear(self):
        """An empty page in the usual colours (on the screen at ``draw``)."""
        self.bar.group.hidden = True
        for card in self.cards:
            card.hidden = True
        if not self.glyphs.hidden:
            self.glyphs.hidden = True
            for cell in range(_GLYPH_CELLS * _GLYPH_ROWS):
                self.glyphs[cell] = sheet.small_tile(sheet.SMALL_NONE)
        for big in self.big:
            big.text = ""
            big.color = sheet.TEXT_YELLOW
        self.title.clear()
        self.footer.clear()
        self.body.clear()
        self.dimmed = 0
        self.body.color = sheet.TEXT_WHITE
        self.footer.color = sheet.TEXT_GREY
        self.dirty = True

    def title_line(self, text):
        """The title, centred (on the screen at ``draw``)."""
        self.title.set_line(0, text, max(0, (TEXT_COLUMNS - len(text)) // 2))

    def footer_line(self, text):
        """The footer, centred (on the screen at ``draw``)."""
        self.footer.set_line(0, text, max(0, (TEXT_COLUMNS - len(text)) // 2))

    def body_line(self, row, text, figure=b"", centred=False, column=0):
        """Body row ``row``: ``text`` (bytes) from ``column`` (or centred),
        and ``figure`` right-aligned at the end of the row (on the screen at
        ``draw``)."""
        if centred:
            column = max(0, (TEXT_COLUMNS - len(text)) // 2)
        self.body.set_line(row, text, column, figure)
        self.dimmed &= ~(1 << row)

    def show_lines(self, lines):
        """A page of ``lines`` as they are (strings; no words.txt): the
        title, body lines, the footer, drawn."""
        self.title_line(as_bytes(lines[0]))
        for row in range(len(lines) - 2):
            self.body_line(row, as_bytes(lines[row + 1]))
        self.footer_line(as_bytes(lines[-1]))
        self.draw()

    def dim_row(self, row):
        """Body row ``row`` in grey: it would do nothing now (on the screen at
        ``draw``; ``DIM_ROWS`` of them at most, ``DIM_COLUMNS`` wide at most)."""
        self.dimmed |= 1 << row

    def mark_line(self, row, mark, column):
        """A character ``mark`` (bytes) at ``column`` of body row ``row`` (on
        the screen at ``draw``)."""
        self.body.put(row, column, mark)

    def draw(self):
        """Title, body and footer, as the calls above left them, into their
        text grids (only what changed is written)."""
        self.title.flush()
        self.body.flush()
        self.footer.flush()
        dimmed, dims = self.dimmed, self.dims
        used = 0
        for row in range(BODY_ROWS):
            if dimmed >> row & 1 and used < DIM_ROWS:
                dim = dims[used]
                dim.grid.y = BODY_Y + TEXT_LINE * row
                dim.set_line(0, self.body.line(row))  # cut at the dim's width
                dim.flush()
                if dim.grid.hidden:
                    dim.grid.hidden = False
                used += 1
        for k in range(used, DIM_ROWS):  # hidden, their text kept: the menu's rows come back
            if not dims[k].grid.hidden:
                dims[k].grid.hidden = True
        self.dirty = True

    def place_big(self, index, x, y, scale=2, centred=True):
        """Large line ``index`` (0 or 1) at scale ``scale``, its top edge at
        ``y``: centred on ``x``, or from ``x``."""
        big = self.big[index]
        big.anchor_point = TOP_CENTRE if centred else TOP_LEFT
        big.anchored_position = (x, y)
        big.scale = scale
        self.dirty = True

    def big_line(self, index, text):
        """The text (a string) of large line ``index``, where it was placed."""
        self.big[index].text = text
        self.dirty = True

    def show_bar(self, row):
        """The bar behind body row ``row``."""
        self.bar.show(BODY_Y + TEXT_LINE * row, self.body, row)
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
