"""Reading a game screen back: which sprite is where, against the engine's
state, and what the text says.

Screens come as RGB565 values from the VM's raw framebuffer dump or from the
desktop's PNG screenshots. ``expected_screen`` paints, from the committed
sprite sheet and ``british_square.layout``, what the play screen must show
for a game; ``mismatches`` compares the two pile by pile. ``text_mismatches``
compares a line of the screen with the built-in font's glyphs.
"""

import struct
from pathlib import Path

from conftest import ROOT  # noqa: E402

from british_square import sheet
from british_square.layout import (
    BRITISH_ROWS,
    FONT_W,
    MARK_CELLS,
    SCREEN_H,
    SCREEN_W,
    STRIP_ROW,
    TEXT_LINE,
    Layout,
)
from british_square.piles import BUILDS_DOWN, BUILDS_UP
from british_square.sheet import CARD_H, CARD_W, FIRST_CARD

SHEET = ROOT / "lib" / "british_square" / sheet.SHEET_FILE
W, H = SCREEN_W, SCREEN_H


def rgb565(rgb):
    """A 0xRRGGBB colour as the screen holds it: RGB565."""
    return ((rgb >> 19) & 0x1F) << 11 | ((rgb >> 10) & 0x3F) << 5 | (rgb >> 3) & 0x1F


FELT = rgb565(sheet.PALETTE[sheet.FELT])
CURSOR = rgb565(sheet.PALETTE[sheet.CURSOR])


def read_bmp(path=SHEET):
    """(width, height, indices bytearray, palette list of RGB888) of a 4-bit BMP."""
    data = Path(path).read_bytes()
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    bits, colours = struct.unpack_from("<H", data, 28)[0], struct.unpack_from("<I", data, 46)[0]
    assert bits == 4
    palette = []
    for i in range(colours):
        b, g, r, _ = struct.unpack_from("<BBBB", data, 54 + 4 * i)
        palette.append(r << 16 | g << 8 | b)
    row_bytes = ((width + 1) // 2 + 3) // 4 * 4
    pixels = bytearray(width * height)
    for y in range(height):
        row = offset + (height - 1 - y) * row_bytes
        for x in range(width):
            byte = data[row + x // 2]
            pixels[y * width + x] = byte & 0xF if x % 2 else byte >> 4
    return width, height, pixels, palette


class Sprites:
    """The sprite sheet as RGB565 values; ``None`` where transparent; with
    ``four_colours``, clubs and diamonds as the four-colour setting draws them."""

    def __init__(self, path=SHEET, four_colours=False):
        self.width, self.height, self.pixels, palette = read_bmp(path)
        if four_colours:
            palette[sheet.CLUB_INK] = sheet.CLUB_GREEN
            palette[sheet.DIAMOND_INK] = sheet.DIAMOND_BLUE
        self.colours = [rgb565(c) for c in palette]

    def pixel(self, x, y):
        index = self.pixels[y * self.width + x]
        return None if index == sheet.FELT else self.colours[index]

    def band(self, band):
        x0 = (band % sheet.BANDS_PER_ROW) * CARD_W
        y0 = (band // sheet.BANDS_PER_ROW) * sheet.BAND_H
        return [[self.pixel(x0 + i, y0 + j) for i in range(CARD_W)] for j in range(sheet.BAND_H)]

    def card_tile(self, tile):
        """Card tile ``tile`` as the game shows it: its bands, top down."""
        return [row for k in range(sheet.CARD_BANDS) for row in self.band(sheet.card_band(tile, k))]

    def strip(self, strip):
        """Strip ``strip`` (a card, ``TOP_GAP``, ``TOP_BLANK``): its bands, top down."""
        bands = [sheet.strip_band(strip, k) for k in range(sheet.STRIP_BANDS)]
        return [row for band in bands for row in self.band(band)]

    def small(self, k):
        t = sheet.small_tile(k)
        x0 = (t % sheet.SMALL_PER_ROW) * sheet.SMALL_W
        y0 = (t // sheet.SMALL_PER_ROW) * sheet.SMALL_H
        return [
            [self.pixel(x0 + i, y0 + j) for i in range(sheet.SMALL_W)] for j in range(sheet.SMALL_H)
        ]


def load_raw(path):
    """A VM framebuffer dump: rows of little-endian RGB565."""
    data = Path(path).read_bytes()
    assert len(data) == W * H * 2, len(data)
    values = struct.unpack("<{}H".format(W * H), data)
    return [list(values[y * W : (y + 1) * W]) for y in range(H)]


def load_png(path):
    """A desktop screenshot (160x128), back to the RGB565 values Blinka drew."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    surface = pygame.image.load(str(path))
    assert surface.get_size() == (W, H)
    screen = []
    for y in range(H):
        row = []
        for x in range(W):
            r, g, b, *_ = surface.get_at((x, y))
            row.append(round(r * 31 / 255) << 11 | round(g * 63 / 255) << 5 | round(b * 31 / 255))
        screen.append(row)
    return screen


class Expected:
    """What the play screen shows for a game: pixel values and which pile owns them."""

    def __init__(self):
        self.value = {}
        self.owner = {}

    def paint(self, rows, x0, y0, owner):
        for j, row in enumerate(rows):
            for i, value in enumerate(row):
                if value is not None:
                    self.value[(x0 + i, y0 + j)] = value
                    self.owner[(x0 + i, y0 + j)] = owner


def expected_screen(game, sprites=None):
    """Paint the piles of ``game`` as the view must draw them (no cursor, no
    highlight), and the felt below each British column's top card."""
    from british_square.layout import GAP

    sprites = sprites or Sprites()
    layout = Layout(game.columns)
    out = Expected()
    for c in range(game.columns):
        h = game.column_height(c)
        name = "column {}".format(c)
        if not h:
            out.paint(sprites.card_tile(sheet.TILE_EMPTY), layout.pile_x[c], layout.pile_y[c], name)
        elif layout.british:
            # the felt over the column's whole span first: nothing from a
            # taller column may show below its top card
            bottom = layout.card_y(c, BRITISH_ROWS - 1) + CARD_H
            felt = [[FELT] * CARD_W for _ in range(bottom - layout.pile_y[c])]
            out.paint(felt, layout.pile_x[c], layout.pile_y[c], name)
            rows = layout.shown_rows(h)
            for row in range(rows):
                k = layout.shown_card(row, h, game.base_count(c))
                if row < rows - 1:  # covered: only its top strip shows
                    rows_shown = sprites.strip(sheet.TOP_GAP if k == GAP else game.card(c, k))
                else:
                    rows_shown = sprites.card_tile(FIRST_CARD + game.card(c, k))
                out.paint(rows_shown, layout.pile_x[c], layout.card_y(c, row), name)
        else:
            tile = sprites.card_tile(FIRST_CARD + game.top(c))
            out.paint(tile, layout.pile_x[c], layout.pile_y[c], name)
        way = game.direction(c) if h else None
        ways = {BUILDS_UP: sheet.WAY_UP, BUILDS_DOWN: sheet.WAY_DOWN}
        mark = ways.get(way, sheet.WAY_FREE)
        glyphs = [mark, mark + 1]  # a column's way: two cells
        if not h:
            glyphs = [sheet.SMALL_NONE, sheet.SMALL_NONE]
        if not layout.british and h:
            glyphs += [h // 10 if h >= 10 else sheet.SMALL_NONE, h % 10]
        for k, glyph in enumerate(glyphs):
            row, cell = divmod(layout.strip_cell(c, k), STRIP_ROW)
            x = layout.strip_x[row] + cell * sheet.SMALL_W
            out.paint(sprites.small(glyph), x, layout.strip_y[row], name + " strip")
    stock = sheet.TILE_BACK if game.stock_count else sheet.TILE_EMPTY
    out.paint(sprites.card_tile(stock), layout.stock_x, layout.stock_y, "stock")
    n = game.waste_count
    if n > 1:
        under = sprites.card_tile(FIRST_CARD + game.waste_card(1))
        out.paint(under, layout.waste_under_x, layout.waste_y, "waste")
    top = FIRST_CARD + game.waste_card(0) if n else sheet.TILE_EMPTY
    out.paint(sprites.card_tile(top), layout.waste_x, layout.waste_y, "waste")
    for suit in range(4):
        f = game.foundations[suit]
        if f:
            tile = FIRST_CARD + suit * 13 + (f if f <= 13 else 27 - f) - 1
        else:
            tile = sheet.TILE_FOUNDATION + suit
        x, y = layout.foundation_x[suit], layout.foundation_y[suit]
        name = "foundation " + "CSHD"[suit]
        out.paint(sprites.card_tile(tile), x, y, name)
        mark = sheet.SMALL_NONE
        if f:
            marks = {13: sheet.SMALL_KING, 26: sheet.SMALL_DONE}
            mark = marks.get(f, sheet.SMALL_UP if f < 13 else sheet.SMALL_DOWN)
        row, cell = divmod(layout.mark_cell(suit), MARK_CELLS)
        x = layout.mark_x + cell * sheet.SMALL_W
        out.paint(sprites.small(mark), x, layout.mark_y[row], name + " mark")
    return out


def mismatches(screen, expected):
    """{pile name: wrong pixel count}; the cursor's yellow frame is allowed anywhere."""
    wrong = {}
    for (x, y), value in expected.value.items():
        got = screen[y][x]
        if got != value and got != CURSOR:
            owner = expected.owner[(x, y)]
            wrong[owner] = wrong.get(owner, 0) + 1
    return wrong


def glyph(char):
    """The built-in font's glyph for ``char``: TEXT_LINE rows of FONT_W pixels,
    True where inked (Blinka's ``terminalio.FONT``, whose glyphs are the
    board's: tests/test_ui_vm.py)."""
    import terminalio

    found = terminalio.FONT.get_glyph(ord(char))
    x0 = found.tile_index * FONT_W
    return [[bool(found.bitmap[x0 + x, y]) for x in range(FONT_W)] for y in range(TEXT_LINE)]


def text_mismatches(screen, x0, y0, text, colour):
    """How many pixels of the line ``text`` (at scale 1, its top-left corner
    at (x0, y0)) the screen gets wrong: an inked pixel of a glyph not in
    ``colour`` (RGB888), or a pixel between the strokes that is."""
    ink = rgb565(colour)
    wrong = 0
    for i, char in enumerate(text):
        for y, row in enumerate(glyph(char)):
            for x, inked in enumerate(row):
                got = screen[y0 + y][x0 + FONT_W * i + x]
                wrong += inked != (got == ink)
    return wrong


def looks_like(screen, x0, y0, tile, sprites=None):
    """Does the card-sized area at (x0, y0) show ``tile`` (transparent parts ignored)?"""
    sprites = sprites or Sprites()
    rows = sprites.card_tile(tile)
    for j in range(CARD_H):
        for i in range(CARD_W):
            value = rows[j][i]
            got = screen[y0 + j][x0 + i]
            if value is not None and got != value and got != CURSOR:
                return False
    return True


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
