"""The sprite sheet: made by tools/make_sprites.py, committed, readable on 160x128."""

import importlib.util

from screen_check import ROOT, SHEET, Sprites, read_bmp, rgb565

from british_square import sheet
from british_square.sheet import CARD_H, CARD_W, FIRST_CARD


def load_tool():
    spec = importlib.util.spec_from_file_location("make_sprites", ROOT / "tools/make_sprites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_sheet_is_what_the_script_draws():
    tool = load_tool()
    assert SHEET.read_bytes() == tool.bmp_bytes(tool.build_sheet()), (
        "lib/british_square/cards.bmp is stale: run tools/make_sprites.py"
    )


def test_sheet_shape_and_palette():
    width, height, pixels, palette = read_bmp()
    assert (width, height) == (sheet.SHEET_W, sheet.SHEET_H)
    assert width % CARD_W == 0 and height % CARD_H == 0  # displayio's tile rule
    assert width % sheet.SMALL_W == 0 and height % sheet.SMALL_H == 0
    assert palette == list(sheet.PALETTE)
    assert max(pixels) < sheet.COLOURS
    # every colour survives RGB565 exactly, so screens can be compared exactly
    for rgb in palette:
        value = rgb565(rgb)
        back = (value >> 11) << 19 | ((value >> 5) & 0x3F) << 10 | (value & 0x1F) << 3
        assert back == rgb


def test_tile_numbers_fit_in_a_byte_and_every_band_is_on_the_sheet():
    # the desktop's displayio (Blinka) keeps a TileGrid's tile numbers in a byte
    bands = [sheet.card_band(tile, k) for tile in range(sheet.TILE_BLANK + 1)
             for k in range(sheet.CARD_BANDS)]  # fmt: skip
    bands += [sheet.strip_band(strip, k) for strip in range(sheet.TOP_BLANK + 1)
              for k in range(sheet.STRIP_BANDS)]  # fmt: skip
    assert max(bands) < 256 == (sheet.SHEET_W // CARD_W) * (sheet.SHEET_H // sheet.BAND_H)
    assert sheet.CARD_BANDS * sheet.BAND_H == CARD_H
    assert sheet.STRIP_BANDS * sheet.BAND_H == sheet.TOP_H
    # the small glyphs, one cell each, in the sheet's first row, above every band
    cells = {sheet.small_tile(k) for k in range(sheet.WAY_FREE + 2)}
    assert len(cells) == sheet.WAY_FREE + 2 and max(cells) < sheet.SMALL_PER_ROW
    assert sheet.SMALL_H <= min(bands) // sheet.BANDS_PER_ROW * sheet.BAND_H


def test_a_card_is_its_strip_and_its_suits_body_and_the_sheet_is_smaller_for_it():
    sprites = Sprites()
    for card in range(52):
        rows = sprites.card_tile(FIRST_CARD + card)
        assert rows[: sheet.TOP_H] == sprites.strip(card)  # what a covered card shows
        assert rows[sheet.TOP_H :] == sprites.card_tile(FIRST_CARD + card // 13 * 13)[sheet.TOP_H :]
    # 52 faces from 156 + 20 bands; whole cards would be 416
    faces = {sheet.card_band(FIRST_CARD + card, k) for card in range(52)
             for k in range(sheet.CARD_BANDS)}  # fmt: skip
    assert len(faces) == 176


SUIT_INKS = (sheet.CLUB_INK, sheet.INK, sheet.RED, sheet.DIAMOND_INK)  # CSHD
INKS = set(SUIT_INKS)


def card_indices(tile):
    """The palette indices of card tile ``tile``, row by row."""
    width, _, pixels, _ = read_bmp()
    rows = []
    for k in range(sheet.CARD_BANDS):
        band = sheet.card_band(tile, k)
        x0 = (band % sheet.BANDS_PER_ROW) * CARD_W
        y0 = (band // sheet.BANDS_PER_ROW) * sheet.BAND_H
        rows += [pixels[(y0 + j) * width + x0 : (y0 + j) * width + x0 + CARD_W]
                 for j in range(sheet.BAND_H)]  # fmt: skip
    return rows


def test_every_card_is_distinct_and_inked_in_its_suits_entry():
    sprites = Sprites()
    red, ink = rgb565(sheet.PALETTE[sheet.RED]), rgb565(sheet.PALETTE[sheet.INK])
    seen = set()
    for card in range(52):
        rows = sprites.card_tile(FIRST_CARD + card)
        flat = tuple(v for row in rows for v in row)
        assert flat not in seen
        seen.add(flat)
        colours = set(flat)
        if card >= 26:  # hearts and diamonds: red in two colours
            assert red in colours and ink not in colours
        else:
            assert ink in colours and red not in colours
        # each suit's own palette entry, and no other suit's: four colours
        # are a change of two palette entries
        indices = {i for row in card_indices(FIRST_CARD + card) for i in row}
        assert indices & INKS == {SUIT_INKS[card // 13]}
        # the top strip (what shows of an overlapped card) tells cards apart alone
    strips = {
        tuple(v for row in sprites.card_tile(FIRST_CARD + c)[:9] for v in row) for c in range(52)
    }
    assert len(strips) == 52


def test_two_colour_suits_are_as_the_sheet_draws_them():
    # in two colours clubs are inked as spades and diamonds as hearts
    assert sheet.PALETTE[sheet.CLUB_INK] == sheet.PALETTE[sheet.INK]
    assert sheet.PALETTE[sheet.DIAMOND_INK] == sheet.PALETTE[sheet.RED]
    for rgb in (sheet.CLUB_GREEN, sheet.DIAMOND_BLUE):  # exact in RGB565 too
        value = rgb565(rgb)
        assert (value >> 11) << 19 | ((value >> 5) & 0x3F) << 10 | (value & 0x1F) << 3 == rgb


# Machado, Oliveira and Fernandes (2009): how a colour looks with each kind of
# dichromacy (severity 1), on linear RGB.
VISIONS = {
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def seen_as(rgb, vision):
    """Linear RGB of ``rgb`` (0xRRGGBB) as ``vision`` sees it."""

    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    channels = [linear(rgb >> shift & 0xFF) for shift in (16, 8, 0)]
    matrix = VISIONS[vision]
    return [min(1.0, max(0.0, sum(m * c for m, c in zip(row, channels)))) for row in matrix]


def lab(linear_rgb):
    """CIELAB (D65) of a linear RGB colour."""
    r, g, b = linear_rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def contrast(a, b):
    """WCAG's contrast ratio of two linear RGB colours."""
    la, lb = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


FOUR_COLOURS = (sheet.CLUB_GREEN, sheet.PALETTE[sheet.INK], sheet.PALETTE[sheet.RED],
                sheet.DIAMOND_BLUE)  # fmt: skip


def test_four_colour_suits_stay_apart_for_colour_blind_players():
    import math

    # every two suits at least 30 CIELAB units apart (colours 10 apart are
    # told apart at a glance) as typical vision and each dichromacy see them
    for vision in VISIONS:
        seen = [lab(seen_as(rgb, vision)) for rgb in FOUR_COLOURS]
        for i in range(4):
            for j in range(i + 1, 4):
                assert math.dist(seen[i], seen[j]) >= 30, (vision, "CSHD"[i], "CSHD"[j])
    # where a plain green clubs would be 13 from the red hearts for
    # deuteranopes, and an orange diamonds 21
    red = sheet.PALETTE[sheet.RED]
    for plain, most in ((0x008000, 15), (0xF07800, 25)):
        assert min(math.dist(lab(seen_as(plain, v)), lab(seen_as(red, v))) for v in VISIONS) < most
    # and every suit reads on every look of the card face
    faces = [sheet.PALETTE[sheet.FACE]] + [colours[0] for colours in sheet.HIGHLIGHTS[1:]]
    for rgb in FOUR_COLOURS:
        assert min(contrast(seen_as(rgb, "typical"), seen_as(f, "typical")) for f in faces) >= 2
        assert contrast(seen_as(rgb, "typical"), seen_as(faces[0], "typical")) >= 4


def way_mark(sprites, k):
    """A column's way: its two cells side by side, ``SMALL_H`` rows of ten."""
    left, right = sprites.small(k), sprites.small(k + 1)
    return [a + b for a, b in zip(left, right)]


# a small glyph's cell around its ink: the felt, drawn
DRAWN_FELT = rgb565(sheet.PALETTE[sheet.FELT_DRAWN])


def inked(v):
    """Is the small glyph's pixel ``v`` (``Sprites.small``'s) ink, not its cell's felt?"""
    return v is not None and v != DRAWN_FELT


def test_the_small_glyphs_cells_are_the_felt_drawn_but_the_pages_blank():
    # drawn, not see-through: displayio then draws those pixels once, not
    # the cell and then the felt under it
    assert rgb565(sheet.PALETTE[sheet.FELT_DRAWN]) == rgb565(sheet.PALETTE[sheet.FELT])
    sprites = Sprites()
    for glyph in range(sheet.WAY_FREE + 2):
        cell = {v for row in sprites.small(glyph) for v in row if not inked(v)}
        assert cell == ({None} if glyph == sheet.SMALL_NONE else {DRAWN_FELT}), glyph


def test_markers_and_cursor():
    sprites = Sprites()
    cursor = sprites.card_tile(sheet.TILE_CURSOR)
    yellow = rgb565(sheet.PALETTE[sheet.CURSOR])
    assert all(v == yellow for v in cursor[0] + cursor[-1])
    assert all(v is None for row in cursor[2:-2] for v in row[2:-2])  # the card shows through
    blank = sprites.card_tile(sheet.TILE_BLANK)
    assert all(v is None for row in blank for v in row)
    foundations = {
        tuple(v for row in sprites.card_tile(sheet.TILE_FOUNDATION + s) for v in row)
        for s in range(4)
    }
    assert len(foundations) == 4
    arrows = [sprites.small(k) for k in (sheet.SMALL_UP, sheet.SMALL_DOWN)]
    assert arrows[0] != arrows[1]
    assert arrows[0][:5] == arrows[1][:5][::-1]  # up is down upside down
    assert all(v is None for row in sprites.small(sheet.SMALL_NONE) for v in row)


def test_a_columns_way_is_large_and_bright():
    sprites = Sprites()
    ways = [way_mark(sprites, k) for k in (sheet.WAY_UP, sheet.WAY_DOWN, sheet.WAY_FREE)]
    assert ways[0] != ways[1] != ways[2] != ways[0]
    assert ways[0] == ways[1][::-1]  # up is down upside down
    bright = rgb565(sheet.PALETTE[sheet.SIGN])
    for way in ways:
        inked_at = [(x, y) for y, row in enumerate(way) for x, v in enumerate(row) if inked(v)]
        assert {way[y][x] for x, y in inked_at} == {bright}
        # the cells' whole height, nine columns of the ten: the tenth stays
        # blank, before a pile's count
        assert {y for _, y in inked_at} == set(range(sheet.SMALL_H))
        assert max(x for x, _ in inked_at) - min(x for x, _ in inked_at) + 1 >= 7
        assert not any(inked(row[2 * sheet.SMALL_W - 1]) for row in way)
        assert len(inked_at) >= 18  # twice the old arrows' 9 pixels in 5 x 5
    felt = seen_as(sheet.PALETTE[sheet.FELT], "typical")
    assert contrast(seen_as(sheet.PALETTE[sheet.SIGN], "typical"), felt) >= 7
    # far brighter than the faint green of the other marks
    assert contrast(seen_as(sheet.PALETTE[sheet.MARK], "typical"), felt) < 4


def test_counts_and_home_marks_are_as_bright_as_the_ways():
    # read at 1x on the board's screen: the faint green of the outlines was
    # too dim for a digit 4 pixels wide
    sprites = Sprites()
    bright = rgb565(sheet.PALETTE[sheet.SIGN])
    for glyph in (*range(10), sheet.SMALL_UP, sheet.SMALL_DOWN, sheet.SMALL_DONE, sheet.SMALL_KING):
        assert {v for row in sprites.small(glyph) for v in row if inked(v)} == {bright}


def shapes(ink):
    """The pixels of ``ink`` (rows of booleans) in shapes that touch, even
    at a corner: a list of sets of (x, y), left to right."""
    left = {(x, y) for y, row in enumerate(ink) for x, v in enumerate(row) if v}
    found = []
    while left:
        shape, edge = set(), [min(left)]
        while edge:
            x, y = edge.pop()
            if (x, y) in left:
                left.discard((x, y))
                shape.add((x, y))
                edge += [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        found.append(shape)
    return sorted(found, key=min)


def test_the_free_way_is_an_up_arrow_beside_a_down_arrow():
    # issue 50: a small up and a small down joined corner to corner read as
    # one squiggle, noise; two thin arrows read as daggers. Two bold arrows
    # apart, as the up and down ways are: the up on the left, the down on
    # the right, the down the up upside down
    way = way_mark(Sprites(), sheet.WAY_FREE)
    ink = [[inked(v) for v in row] for row in way]
    up, down = shapes(ink)  # two, and no more
    for arrow in (up, down):
        rows = sorted({y for _, y in arrow})
        widths = [sum(1 for _, y in arrow if y == row) for row in rows]
        assert len(rows) >= 5 and min(widths) >= 2, widths  # tall, and never one pixel thin
    widths = [sum(1 for _, y in up if y == row) for row in range(sheet.SMALL_H)]
    head = widths.index(max(widths))
    assert 0 < head < sheet.SMALL_H // 2 and widths[0] < widths[head]  # a tip, then the head
    assert widths[head + 1] < widths[head]  # then a shaft
    assert max(x for x, _ in up) < min(x for x, _ in down)
    shift = min(x for x, _ in down) - min(x for x, _ in up)
    flipped = {(x + shift, sheet.SMALL_H - 1 - y) for x, y in up}
    assert flipped == down
