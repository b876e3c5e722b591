"""What the sprite sheet ``cards.bmp`` holds: tile sizes, tile numbers, colours.

``tools/make_sprites.py`` draws the sheet from these numbers and the view reads
it with them, so both always agree. The sheet is a 4-bit indexed BMP, loaded
whole into a ``displayio.Bitmap`` at start-up (7.5 KB of heap: drawn from
flash, a screen of cards cost a board 60 ms of file reads, docs/memory.md).
It is kept small by cutting every card into *bands*, ``CARD_W`` x ``BAND_H``
pixels, the tiles the card sprites are grids of: a card is the three bands
of its top strip (rank and suit: all a covered card shows) and the five of
its suit's body (the large pip, the same for every rank), so the 52 faces
take 176 bands where whole cards would take 416. Above the bands, the
small glyphs (``SMALL_W`` x ``SMALL_H``) for digits and direction arrows.

The game names cards and places by *card tiles* (``FIRST_CARD + card``,
``TILE_BACK`` ...) and strips by *strip numbers* (a card, ``TOP_GAP``,
``TOP_BLANK``); ``put_card`` and ``put_strip`` turn them into bands.
"""

from british_square.cards import const

SHEET_FILE = "cards.bmp"
SHEET_PIXELS_AT = const(118)  # the BMP's rows: after its headers and 16 colours

CARD_W = const(20)
CARD_H = const(24)
TOP_H = const(9)  # the top strip: what shows of a card under another in a British column
BAND_H = const(3)  # a band, the sheet's tile: CARD_H, TOP_H and SMALL_H are multiples
CARD_BANDS = const(8)  # CARD_H // BAND_H
STRIP_BANDS = const(3)  # TOP_H // BAND_H
BODY_BANDS = const(5)  # a card's bands below its strip
SHEET_W = const(160)
BANDS_PER_ROW = const(8)  # SHEET_W // CARD_W
# The bands, numbered as tiles row by row, after the small glyphs' row at
# the top (the desktop's displayio keeps tile numbers in a byte): each
# card's strip, the gap's strip, the felt, each suit's body, the whole
# tiles from TILE_BACK on (eight bands each), and a see-through band.
BAND_STRIPS = const(16)  # card c's strip: STRIP_BANDS from BAND_STRIPS + 3 * c
BAND_GAP = const(172)  # BAND_STRIPS + 52 * STRIP_BANDS
BAND_FELT = const(175)  # FELT_DRAWN: the blank strip, no card there
BAND_BODIES = const(176)  # suit s's body: BODY_BANDS from BAND_BODIES + 5 * s
BAND_WHOLE = const(196)  # TILE_BACK's bands, then each whole tile's after it
BAND_BLANK = const(252)  # see-through
SHEET_H = const(96)  # 256 bands' rows; the last three bands are spare

# Card tiles: what a card sprite shows (``put_card``).
FIRST_CARD = const(0)  # card c is tile FIRST_CARD + c
TILE_BACK = const(52)
TILE_EMPTY = const(53)  # an empty column or stock
TILE_FOUNDATION = const(54)  # 54-57: the empty foundation of each suit, CSHD
TILE_CURSOR = const(58)  # a frame drawn over the pile under the cursor
TILE_BLANK = const(59)  # fully transparent
# Strip numbers: what a covered card of a British column shows (``put_strip``).
TOP_GAP = const(52)  # the hidden middle of a long built run: three dots
TOP_BLANK = const(53)  # the felt (FELT_DRAWN): no card there


def card_band(tile, k):
    """The band shown as band ``k`` (0 to ``CARD_BANDS - 1``, top down) of card tile ``tile``."""
    if tile < TILE_BACK:
        if k < STRIP_BANDS:
            return BAND_STRIPS + STRIP_BANDS * tile + k
        return BAND_BODIES + BODY_BANDS * (tile // 13) + k - STRIP_BANDS
    if tile == TILE_BLANK:
        return BAND_BLANK
    return BAND_WHOLE + CARD_BANDS * (tile - TILE_BACK) + k


def put_card(grid, tile):
    """Show card tile ``tile`` in ``grid``, a tile grid of one card's bands
    (``card_band``'s, worked out here for all eight at once: a card is
    shown at every move)."""
    if tile < TILE_BACK:
        band = BAND_STRIPS + STRIP_BANDS * tile
        grid[0] = band
        grid[1] = band + 1
        grid[2] = band + 2
        band = BAND_BODIES + BODY_BANDS * (tile // 13)
        grid[3] = band
        grid[4] = band + 1
        grid[5] = band + 2
        grid[6] = band + 3
        grid[7] = band + 4
        return
    band = BAND_BLANK if tile == TILE_BLANK else BAND_WHOLE + CARD_BANDS * (tile - TILE_BACK)
    step = 0 if tile == TILE_BLANK else 1
    for k in range(CARD_BANDS):
        grid[k] = band + step * k


def strip_band(strip, k):
    """The band shown as band ``k`` of strip ``strip``."""
    if strip < TOP_GAP:
        return BAND_STRIPS + STRIP_BANDS * strip + k
    return BAND_GAP + k if strip == TOP_GAP else BAND_FELT


def put_strip(grid, row, strip):
    """Show strip ``strip`` as row ``row`` of ``grid`` (a column's covered cards, a band a tile)."""
    at = STRIP_BANDS * row
    band = strip_band(strip, 0)
    step = 0 if strip == TOP_BLANK else 1
    grid[at] = band
    grid[at + 1] = band + step
    grid[at + 2] = band + 2 * step


# Small tiles: SMALL_W x SMALL_H cells of the whole sheet, numbered row by
# row: the glyphs are the first row's.
SMALL_W = const(5)
SMALL_H = const(6)
SMALL_PER_ROW = const(32)  # SHEET_W // SMALL_W


def small_tile(k):
    """Small tile number (in ``SMALL_W`` x ``SMALL_H`` units) of the block's ``k``-th glyph."""
    return k


# Glyphs of the small block, in order: digits 0-9, then these.
SMALL_UP = const(10)  # a foundation's way: up, or down
SMALL_DOWN = const(11)
SMALL_NONE = const(12)  # transparent
SMALL_DONE = const(13)  # a foundation that is complete
SMALL_KING = const(14)  # a foundation at its first king: the second king is next
SMALL_FELT = const(15)  # blank, the felt drawn (FELT_DRAWN): the cards' blank cells
# A column's way, two cells wide: glyph k its left half, k + 1 its right half.
WAY_UP = const(16)
WAY_DOWN = const(18)
WAY_FREE = const(20)  # up or down: no card built yet

# Palette indices; index 0 is transparent in every sprite palette.
FELT = const(0)
FACE = const(1)
INK = const(2)  # spades, the rank glyphs of black cards, the gap's dots
RED = const(3)  # hearts
EDGE = const(4)
BACK = const(5)
BACK_LIGHT = const(6)
CURSOR = const(7)
MARK = const(8)
MARK_PIP = const(9)
SIGN = const(10)  # the marks a player reads: a column's way, counts, a foundation's state
CLUB_INK = const(11)  # clubs: INK's colour, or green with four colours
DIAMOND_INK = const(12)  # diamonds: RED's colour, or blue with four colours
# The felt's colour, drawn: where a tile lies on the felt alone (a blank
# strip, the inside of an empty place, a small glyph's cell), its
# background is this, not FELT's see-through, so displayio draws that pixel
# once, not the tile and then the felt under it (the cards on show: 10 ms a
# full redraw on a SAMD51), and so are the small glyphs' cells, but for
# SMALL_NONE's (the text page's blank, over its text). A card's corners stay
# see-through: another card may lie under them.
FELT_DRAWN = const(13)
COLOURS = 16

# RGB888 colours, each exactly representable in RGB565 so read-back is exact.
PALETTE = (
    0x000000,  # FELT: the table: black, the display's own (no layer draws it: docs/memory.md)
    0xF8F8F8,  # FACE: card face
    0x000000,  # INK: black suits and rank glyphs
    0xD80000,  # RED: red suits
    0x505050,  # EDGE: card border
    0x2040B0,  # BACK: card back
    0x80A0F8,  # BACK_LIGHT: card back lattice
    0xF8E000,  # CURSOR: cursor frame
    0x387040,  # MARK: outlines of empty places, faint
    0x204C28,  # MARK_PIP: fainter, the suit on an empty foundation
    0xF8F8F8,  # SIGN: a column's way, counts, home's arrows: bright on the felt
    0x000000,  # CLUB_INK: as INK (two colours)
    0xD80000,  # DIAMOND_INK: as RED
    0x000000,  # FELT_DRAWN: as FELT, but drawn
) + (0,) * 2
# Four-colour suits: CLUB_INK and DIAMOND_INK in these colours instead. A
# bluish green and a blue: with black spades and red hearts, every two of
# the four stay apart for the three kinds of colour blindness
# (tests/test_sprites.py), where a plain green or an orange would fall
# together with the red for some players.
CLUB_GREEN = const(0x008870)
DIAMOND_BLUE = const(0x3020C0)

# Colours of the text screens and the panel (RGB888, exact in RGB565).
TEXT_WHITE = const(0xF8F8F8)
TEXT_YELLOW = const(0xF8E000)
TEXT_GREY = const(0x88C088)
TEXT_RED = const(0xF86060)
TEXT_GREEN = const(0x60F060)  # the panel's numbers while the game can still be won
MENU_BAR = const(0x2040B0)  # behind the chosen menu row

# The colours that change when a pile is highlighted: (face, mark) per look.
NORMAL = const(0)  # not highlighted
SELECTED = const(1)  # the card picked up
TARGET = const(2)  # a legal place to drop it
REFUSED = const(3)  # flashed after an illegal drop
HIGHLIGHTS = (
    None,
    (0xF8F080, 0xF8E000),
    (0xB0F8B0, 0x40F840),
    (0xF89898, 0xF80000),
)
