"""The text page: what every screen besides the cards is drawn with.

A title line, a body of ``BODY_ROWS`` lines and a footer line of characters,
two lines of large text, a bar behind a chosen body row, a column of small
glyphs beside the body (the help's legend) and four card sprites (the
title's aces, the celebration's kings). All made once; a screen
(``screens``) clears the page and writes its own words into it.
"""

import displayio

from british_square import sheet
from british_square.cards import const
from british_square.layout import (
    BODY_ROWS,
    BODY_X,
    BODY_Y,
    FOOTER_Y,
    MENU_BAR_W,
    MENU_BAR_X,
    TEXT_COLUMNS,
    TEXT_LINE,
    TITLE_Y,
    centred_x,
)
from british_square.sheet import CARD_H, CARD_W
from british_square.textgrid import TextGrid

_SOLID_TILE = const(16)
_BIG_COLUMNS = 13  # characters of a large line at scale 2
_GLYPH_ROWS = 2 * BODY_ROWS  # small glyphs are half a text line tall


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


class TextPage:
    """Title, body, footer, large lines, a bar, legend glyphs and card sprites."""

    def __init__(self, sheet_bitmap, palette, font):
        self.dirty = True
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
            width=1,
            height=_GLYPH_ROWS,
            default_tile=sheet.small_tile(sheet.SMALL_NONE),
            x=BODY_X,
            y=BODY_Y + 3,
        )
        self.group.append(self.glyphs)
        # text last: nothing (a bouncing king) ever covers it
        self.big = (
            TextGrid(font, _BIG_COLUMNS, 1, 0, 0, sheet.TEXT_YELLOW, 2),
            TextGrid(font, _BIG_COLUMNS, 1, 0, 0, sheet.TEXT_YELLOW, 2),
        )
        self.title = TextGrid(font, TEXT_COLUMNS, 1, BODY_X, TITLE_Y, sheet.TEXT_YELLOW)
        self.body = TextGrid(font, TEXT_COLUMNS, BODY_ROWS, BODY_X, BODY_Y, sheet.TEXT_WHITE)
        self.footer = TextGrid(font, TEXT_COLUMNS, 1, BODY_X, FOOTER_Y, sheet.TEXT_GREY)
        for grid in self.big + (self.title, self.body, self.footer):
            self.group.append(grid.group)
        self.clear()

    def clear(self):
        """An empty page in the usual colours."""
        self.bar.hidden = True
        for card in self.cards:
            card.hidden = True
        for row in range(_GLYPH_ROWS):
            self.glyphs[row] = sheet.small_tile(sheet.SMALL_NONE)
        for big in self.big:
            big.clear()
            big.set_colour(sheet.TEXT_YELLOW)
        self.title.clear()
        self.body.clear()
        self.body.set_colour(sheet.TEXT_WHITE)
        self.footer.clear()
        self.footer.set_colour(sheet.TEXT_GREY)
        self.dirty = True

    def big_line(self, index, buffer, size):
        """Large line ``index`` (0 or 1): the first ``size`` bytes of ``buffer``,
        centred across the screen at its scale, at the height it was moved to."""
        big = self.big[index]
        big.put_line(0, buffer, size)
        big.group.x = centred_x(size, big.group.scale)

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
        """A small glyph (``sheet.SMALL_*``) beside body row ``row``."""
        self.glyphs[2 * row] = sheet.small_tile(glyph)
        self.dirty = True
