"""The text page: what every screen besides the cards is drawn with.

A title line, a body of ``BODY_ROWS`` lines, a footer line, two lines of
large text, a bar behind a chosen body row, a column of small glyphs
beside the body (the help's legend) and four card sprites (the title's
aces, the celebration's kings). The body is a table of two columns laid out
by a ``GridLayout``: the rows' text, and their figures right-aligned at the
end of each row (the statistics', the About screen's). All made once; a
screen (``screens``) clears the page and puts its words on it (``words``).

Every text is an ``adafruit_display_text.bitmap_label.Label`` in the
built-in font. Each draws its text into a bitmap of its own, and keeps that
bitmap while the text keeps its size, so each label's text always fills its
field (``fitted``: the 26 columns of a line, the 16 of a figure; a body
column's last row does it for the column): each bitmap is made once, at
start-up, and a long session never has to find room for one again. A
label holds about 800 bytes of heap before its bitmap, so the body's
columns are a label each, all their rows in it, not a label per cell
(sixteen cells would hold 13 KB). docs/memory.md has the figures
(``tests/bench/bench_text.py``).
"""

import displayio
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

_SOLID_TILE = const(16)
_GLYPH_ROWS = 2 * BODY_ROWS  # small glyphs are half a text line tall
_GLYPH_CELLS = const(2)  # and beside a row, two cells: a column's way is two wide
TOP_LEFT = (0.0, 0.0)
TOP_CENTRE = (0.5, 0.0)
TOP_RIGHT = (1.0, 0.0)


def solid(width, height, colour, tile_w=_SOLID_TILE, tile_h=_SOLID_TILE):
    """A ``width`` x ``height`` area of one colour: a tile grid over one small
    plain bitmap (a bitmap the size of the area would cost a byte per 8 pixels)."""
    palette = displayio.Palette(1)
    palette[0] = colour
    return displayio.TileGrid(
        displayio.Bitmap(tile_w, tile_h, 1),
        pixel_shader=palette,
        width=(width + tile_w - 1) // tile_w,
        height=(height + tile_h - 1) // tile_h,
        tile_width=tile_w,
        tile_height=tile_h,
    )


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


def one_bit(text):
    """Give ``text``, a label showing its field's blank text, a bitmap of 1
    bit a pixel, which it draws into from then on while its text keeps that
    size. ``bitmap_label`` makes 2 bits a pixel, a third colour kept for an
    outline that no text here has: this halves the labels' bitmaps, 8.4 KB
    to 4.3 KB (docs/memory.md). It sets the label's own ``_bitmap`` (the
    one ``bitmap`` returns, which adafruit_display_text 5.x reuses while
    the size holds); a label not as that version makes one is left as it is."""
    made = text.bitmap
    grid = getattr(text, "_tilegrid", None)
    if made is None or grid is None or grid.bitmap is not made or text.text.strip():
        return
    bitmap = displayio.Bitmap(made.width, made.height, 2)  # blank, as the text is
    grid.bitmap = bitmap
    text._bitmap = bitmap


class TextPage:
    """Title, body table, footer, large lines, a bar, legend glyphs and card sprites."""

    rows = BODY_ROWS

    def __init__(self, sheet_bitmap, palette, font):
        self.dirty = True
        # The body first, drawn blank: its two bitmaps, the largest blocks
        # the game makes, are made while the heap is in one piece. Its rows
        # are kept here until ``draw``, in two columns, each column one label
        # of BODY_ROWS lines.
        self.lines = [""] * BODY_ROWS
        self.figures = [""] * BODY_ROWS
        self.body = GridLayout(
            x=BODY_X,
            y=BODY_Y,
            width=FONT_W * TEXT_COLUMNS,
            height=TEXT_LINE * BODY_ROWS,
            grid_size=(2, BODY_ROWS),
        )
        for column, anchor in ((0, TOP_LEFT), (1, TOP_RIGHT)):
            cell = label(font, sheet.TEXT_WHITE, 0, 0)
            self.body.add_content(cell, (column, 0), (1, BODY_ROWS), anchor)
        self._draw_columns()
        one_bit(self.cell(0))
        one_bit(self.cell(1))
        self.title_text = self.footer_text = ""  # the title and footer, until ``draw``
        self.title = label(font, sheet.TEXT_YELLOW, BODY_X, TITLE_Y)
        self.footer = label(font, sheet.TEXT_GREY, BODY_X, FOOTER_Y)
        self.big = (
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
            label(font, sheet.TEXT_YELLOW, SCREEN_W // 2, 0, TOP_CENTRE, 2),
        )
        self.group = displayio.Group()
        self.bar = solid(MENU_BAR_W, TEXT_LINE, sheet.MENU_BAR, 8, TEXT_LINE)
        self.bar.x = MENU_BAR_X
        self.group.append(self.bar)
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
        self.group.append(self.glyphs)
        # text last: nothing (a bouncing king) ever covers it
        for text in self.big + (self.title, self.body, self.footer):
            self.group.append(text)
        self.clear()
        self.draw()  # blank: the title's and the footer's bitmaps, made now
        one_bit(self.title)
        one_bit(self.footer)

    def cell(self, column, row=0):
        """The label of the body's ``column`` (0: the rows' text, 1: their
        figures), which holds row ``row``: one label holds a column's rows."""
        return self.body.get_content((column, row))

    def clear(self):
        """An empty page in the usual colours."""
        self.bar.hidden = True
        for card in self.cards:
            card.hidden = True
        for cell in range(_GLYPH_CELLS * _GLYPH_ROWS):
            self.glyphs[cell] = sheet.small_tile(sheet.SMALL_NONE)
        for big in self.big:
            big.text = ""
            big.color = sheet.TEXT_YELLOW
        self.title_text = self.footer_text = ""
        for row in range(BODY_ROWS):
            self.lines[row] = self.figures[row] = ""
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
        self.lines[row] = fitted(text, TEXT_COLUMNS, centred, column=column)
        self.figures[row] = fitted(figure, FIGURE_COLUMNS, right=True)

    def mark_line(self, row, mark, column):
        """A character ``mark`` at ``column`` of body row ``row`` (on the screen
        at ``draw``)."""
        line = fitted(self.lines[row], TEXT_COLUMNS)
        self.lines[row] = line[:column] + mark + line[column + 1 :]

    def draw(self):
        """Title, body and footer, as the calls above left them, into their
        labels, each line as wide as its field (a label changes only if its
        text does, so what stays the same costs nothing)."""
        self._draw_columns()
        self.title.text = fitted(self.title_text, TEXT_COLUMNS, centred=True)
        self.footer.text = fitted(self.footer_text, TEXT_COLUMNS, centred=True)
        self.dirty = True

    def _draw_columns(self):
        # Each column's last row fills its field, so the label's bitmap keeps
        # its size; the others end at their last character: a blank costs as
        # much to draw as a letter (and 48 bytes of glyph allocated twice).
        for column, rows in ((0, self.lines), (1, self.figures)):
            columns = TEXT_COLUMNS if column == 0 else FIGURE_COLUMNS
            last = fitted(rows[-1], columns)
            self.cell(column).text = "\n".join([row.rstrip() for row in rows[:-1]] + [last])

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
        self.bar.y = BODY_Y + TEXT_LINE * row
        self.bar.hidden = False
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
        self.dirty = True
