"""Draw the sprite sheet ``lib/british_square/cards.bmp`` from code.

Every pixel comes from the hand-made glyphs below: no image files, no Pillow.
Each card and place is drawn whole, then cut into the sheet's bands
(``british_square.sheet``): a card's top strip, its suit's body (the same
for every rank of a suit, which is checked), the whole places. The sheet is
a 4-bit indexed BMP (16 colours) that the game loads into RAM at start-up.

    python tools/make_sprites.py              # write the committed sheet
    python tools/make_sprites.py --check      # exit 1 if it differs
    python tools/make_sprites.py --preview x.png   # a 4x picture (needs pygame)
"""

import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square import sheet  # noqa: E402
from british_square.sheet import (  # noqa: E402
    BACK,
    BACK_LIGHT,
    BAND_H,
    BANDS_PER_ROW,
    CARD_BANDS,
    CARD_H,
    CARD_W,
    CLUB_INK,
    CURSOR,
    DIAMOND_INK,
    EDGE,
    FACE,
    FELT_DRAWN,
    INK,
    MARK,
    MARK_PIP,
    RED,
    SHEET_H,
    SHEET_W,
    SIGN,
    STRIP_BANDS,
)

SHEET_PATH = ROOT / "lib" / "british_square" / sheet.SHEET_FILE

# Rank glyphs, 7 rows; "#" is ink. Ten is the one wider glyph.
RANK_GLYPHS = {
    1: (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    2: (".###.", "#...#", "....#", "..##.", ".#...", "#....", "#####"),
    3: ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    4: ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    5: ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    6: ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    7: ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    8: (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    9: (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    10: (".#..##.", "##.#..#", ".#.#..#", ".#.#..#", ".#.#..#", ".#.#..#", "###.##."),
    11: ("..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."),
    12: (".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"),
    13: ("#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"),
}

# Suit pips, 7x7, in CSHD order.
SUIT_GLYPHS = (
    ("..###..", "..###..", "##.#.##", "#######", "##.#.##", "...#...", "..###.."),
    ("...#...", "..###..", ".#####.", "#######", "#######", "...#...", "..###.."),
    (".##.##.", "#######", "#######", "#######", ".#####.", "..###..", "...#..."),
    ("...#...", "..###..", ".#####.", "#######", ".#####.", "..###..", "...#..."),
)

# Small glyphs (digits 0-9, up, down, none, done, king), 4x5 inside a 5x6 cell.
SMALL_GLYPHS = (
    (".##.", "#..#", "#..#", "#..#", ".##."),
    ("..#.", ".##.", "..#.", "..#.", ".###"),
    ("###.", "...#", ".##.", "#...", "####"),
    ("###.", "...#", ".##.", "...#", "###."),
    ("#..#", "#..#", "####", "...#", "...#"),
    ("####", "#...", "###.", "...#", "###."),
    (".##.", "#...", "###.", "#..#", ".##."),
    ("####", "...#", "..#.", ".#..", ".#.."),
    (".##.", "#..#", ".##.", "#..#", ".##."),
    (".##.", "#..#", ".###", "...#", ".##."),
    ("..#..", ".###.", "#.#.#", "..#..", "..#.."),
    ("..#..", "..#..", "#.#.#", ".###.", "..#.."),
    (".....", ".....", ".....", ".....", "....."),
    ("....#", "...##", "#.##.", "###..", ".#..."),
    ("#..#", "#.#.", "##..", "#.#.", "#..#"),
)

# A column's way (up, down, free: either way), two cells wide and the cells'
# full height, its last column left blank (a pile's count follows).
WAY_GLYPHS = (
    (sheet.WAY_UP, ("....#....", "...###...", "..#####..", ".#######.", "...###...",
                    "...###...")),
    (sheet.WAY_DOWN, ("...###...", "...###...", ".#######.", "..#####..", "...###...",
                      "....#....")),
    # free: up or down, an up arrow beside a down arrow, bold (two thin
    # arrows read as daggers at 1x; a small up and down triangle joined
    # corner to corner, as noise)
    (sheet.WAY_FREE, (".##..##..", "####.##..", ".##..##..", ".##..##..", ".##.####.",
                      ".##..##..")),
)  # fmt: skip

# The ink of each suit's cards, in CSHD order: clubs and diamonds have their
# own palette entries, so that four-colour suits are a change of palette.
SUIT_INKS = (CLUB_INK, INK, RED, DIAMOND_INK)


class Canvas:
    """A sheet of palette indices, ``SHEET_W`` x ``SHEET_H``, 0 (transparent) at first."""

    def __init__(self, width=SHEET_W, height=SHEET_H):
        self.width = width
        self.height = height
        self.pixels = bytearray(width * height)

    def set(self, x, y, colour):
        self.pixels[y * self.width + x] = colour

    def get(self, x, y):
        return self.pixels[y * self.width + x]

    def rect(self, x, y, w, h, colour):
        for j in range(y, y + h):
            for i in range(x, x + w):
                self.set(i, j, colour)

    def glyph(self, x, y, rows, colour, scale=1):
        for j, row in enumerate(rows):
            for i, ch in enumerate(row):
                if ch == "#":
                    self.rect(x + i * scale, y + j * scale, scale, scale, colour)


def card_outline(canvas, x, y, fill, edge):
    """A card-sized rounded rectangle: ``edge`` border, ``fill`` inside."""
    canvas.rect(x, y, CARD_W, CARD_H, edge)
    canvas.rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, fill)
    for cx, cy in ((0, 0), (CARD_W - 1, 0), (0, CARD_H - 1), (CARD_W - 1, CARD_H - 1)):
        canvas.set(x + cx, y + cy, 0)


def dashed_outline(canvas, x, y, colour):
    """The outline of an empty place: a dashed rounded rectangle on the felt
    (drawn: an empty place lies on the felt alone)."""
    canvas.rect(x, y, CARD_W, CARD_H, FELT_DRAWN)
    for i in range(2, CARD_W - 2):
        if i % 3 != 2:
            canvas.set(x + i, y, colour)
            canvas.set(x + i, y + CARD_H - 1, colour)
    for j in range(2, CARD_H - 2):
        if j % 3 != 2:
            canvas.set(x, y + j, colour)
            canvas.set(x + CARD_W - 1, y + j, colour)


def card_canvas():
    return Canvas(CARD_W, CARD_H)


def draw_card(card):
    """Rank and suit in the top strip (all that shows when overlapped), a big pip below."""
    canvas = card_canvas()
    suit, rank = card // 13, card % 13 + 1
    ink = SUIT_INKS[suit]
    card_outline(canvas, 0, 0, FACE, EDGE)
    # rows 2-8: below the cursor's two-pixel frame, above the next overlapping card
    canvas.glyph(2, 2, RANK_GLYPHS[rank], ink)
    canvas.glyph(11, 2, SUIT_GLYPHS[suit], ink)
    # the pip twice as big below; its last row gives way to the border
    canvas.glyph(3, 10, SUIT_GLYPHS[suit], ink, scale=2)
    for i in range(1, CARD_W - 1):
        canvas.set(i, CARD_H - 1, EDGE)
    return canvas


def draw_back():
    canvas = card_canvas()
    card_outline(canvas, 0, 0, BACK, EDGE)
    for j in range(2, CARD_H - 2):
        for i in range(2, CARD_W - 2):
            if (i + j) % 4 == 0 or (i - j) % 4 == 0:
                canvas.set(i, j, BACK_LIGHT)
    return canvas


def draw_empty():
    canvas = card_canvas()
    dashed_outline(canvas, 0, 0, MARK)
    return canvas


def draw_foundation(suit):
    canvas = card_canvas()
    dashed_outline(canvas, 0, 0, MARK)
    canvas.glyph(3, 5, SUIT_GLYPHS[suit], MARK_PIP, scale=2)
    return canvas


def draw_gap():
    """A card whose top strip shows three dots: cards of a built run left out
    between the two shown around it (a run is consecutive, so they follow)."""
    canvas = card_canvas()
    card_outline(canvas, 0, 0, FACE, EDGE)
    for i in range(3):
        canvas.rect(4 + 5 * i, 4, 2, 2, INK)
    return canvas


def draw_cursor():
    """A two-pixel frame; the inside stays transparent so the card shows through."""
    canvas = card_canvas()
    canvas.rect(0, 0, CARD_W, CARD_H, CURSOR)
    canvas.rect(2, 2, CARD_W - 4, CARD_H - 4, 0)
    return canvas


def band_origin(band):
    """Top-left pixel of band ``band`` on the sheet."""
    return (band % BANDS_PER_ROW) * CARD_W, (band // BANDS_PER_ROW) * BAND_H


def put_band(sheet_canvas, band, image, k):
    """Band ``k`` of ``image`` (a card-sized canvas) into ``band`` of the sheet."""
    x, y = band_origin(band)
    for j in range(BAND_H):
        for i in range(CARD_W):
            sheet_canvas.set(x + i, y + j, image.get(i, BAND_H * k + j))


def band_pixels(image, k):
    return bytes(image.get(i, BAND_H * k + j) for j in range(BAND_H) for i in range(CARD_W))


def draw_bands(canvas):
    """Every card tile and strip into its bands (``sheet.card_band``, ``sheet.strip_band``)."""
    tiles = {sheet.FIRST_CARD + card: draw_card(card) for card in range(52)}
    tiles[sheet.TILE_BACK] = draw_back()
    tiles[sheet.TILE_EMPTY] = draw_empty()
    for suit in range(4):
        tiles[sheet.TILE_FOUNDATION + suit] = draw_foundation(suit)
    tiles[sheet.TILE_CURSOR] = draw_cursor()
    tiles[sheet.TILE_BLANK] = card_canvas()  # see-through
    drawn = {}
    for tile, image in tiles.items():
        for k in range(CARD_BANDS):
            band = sheet.card_band(tile, k)
            pixels = band_pixels(image, k)
            # a suit's body is one set of bands: every rank must draw it alike
            assert drawn.setdefault(band, pixels) == pixels, (tile, k)
            put_band(canvas, band, image, k)
    strips = {card: tiles[sheet.FIRST_CARD + card] for card in range(52)}
    strips[sheet.TOP_GAP] = draw_gap()
    felt = card_canvas()
    felt.rect(0, 0, CARD_W, CARD_H, FELT_DRAWN)
    strips[sheet.TOP_BLANK] = felt
    for strip, image in strips.items():
        for k in range(STRIP_BANDS):
            band = sheet.strip_band(strip, k)
            pixels = band_pixels(image, k)
            assert drawn.setdefault(band, pixels) == pixels, (strip, k)
            put_band(canvas, band, image, k)


def small_origin(k):
    """Top-left pixel of small glyph ``k`` on the sheet."""
    t = sheet.small_tile(k)
    return (t % sheet.SMALL_PER_ROW) * sheet.SMALL_W, (t // sheet.SMALL_PER_ROW) * sheet.SMALL_H


def draw_small_blocks(canvas):
    """The small glyphs on the felt, drawn (FELT_DRAWN), but for SMALL_NONE's
    see-through blank."""
    glyphs = [k for k in range(len(SMALL_GLYPHS)) if k != sheet.SMALL_NONE]
    glyphs += [sheet.SMALL_FELT] + [k + half for k, _ in WAY_GLYPHS for half in range(2)]
    for k in glyphs:
        canvas.rect(*small_origin(k), sheet.SMALL_W, sheet.SMALL_H, FELT_DRAWN)
    for k, rows in enumerate(SMALL_GLYPHS):
        canvas.glyph(*small_origin(k), rows, SIGN)  # read at 1x: bright, as the ways
    for k, rows in WAY_GLYPHS:  # each half in a cell of its own
        for half in range(2):
            part = [row[sheet.SMALL_W * half : sheet.SMALL_W * (half + 1)] for row in rows]
            canvas.glyph(*small_origin(k + half), part, SIGN)


def build_sheet():
    """The whole sheet as a ``Canvas`` of palette indices."""
    canvas = Canvas()
    draw_bands(canvas)
    draw_small_blocks(canvas)
    return canvas


def bmp_bytes(canvas, palette=sheet.PALETTE):
    """A 4-bit indexed Windows BMP (BITMAPINFOHEADER, bottom-up rows)."""
    row_bytes = (canvas.width + 1) // 2
    row_bytes += -row_bytes % 4
    colours = len(palette)
    offset = 14 + 40 + 4 * colours
    size = offset + row_bytes * canvas.height
    out = bytearray()
    out += struct.pack("<2sIHHI", b"BM", size, 0, 0, offset)
    out += struct.pack(
        "<IiiHHIIiiII", 40, canvas.width, canvas.height, 1, 4, 0, 0, 2835, 2835, colours, colours
    )
    for rgb in palette:
        out += struct.pack("<BBBB", rgb & 0xFF, (rgb >> 8) & 0xFF, rgb >> 16, 0)
    for y in range(canvas.height - 1, -1, -1):
        row = bytearray(row_bytes)
        for x in range(canvas.width):
            if x % 2:
                row[x // 2] |= canvas.get(x, y)
            else:
                row[x // 2] |= canvas.get(x, y) << 4
        out += row
    return bytes(out)


def preview(canvas, path, scale=4):
    """Save the sheet as a PNG, ``scale`` times larger, with the felt behind it."""
    import pygame

    surface = pygame.Surface((canvas.width, canvas.height))
    for y in range(canvas.height):
        for x in range(canvas.width):
            rgb = sheet.PALETTE[canvas.get(x, y)]
            surface.set_at((x, y), (rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF))
    big = pygame.transform.scale(surface, (canvas.width * scale, canvas.height * scale))
    pygame.image.save(big, str(path))


def main(argv):
    data = bmp_bytes(build_sheet())
    if "--check" in argv:
        same = SHEET_PATH.exists() and SHEET_PATH.read_bytes() == data
        print("{} {}".format(SHEET_PATH, "is up to date" if same else "differs: regenerate it"))
        return 0 if same else 1
    if "--preview" in argv:
        preview(build_sheet(), argv[argv.index("--preview") + 1])
        return 0
    SHEET_PATH.write_bytes(data)
    print("wrote {} ({} bytes)".format(SHEET_PATH, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
