"""What the sprite sheet ``cards.bmp`` holds: tile sizes, tile numbers, colours.

``tools/make_sprites.py`` draws the sheet from these numbers and the view reads
it with them, so both always agree. The sheet is a 4-bit indexed BMP cut into
card tiles (``CARD_W`` x ``CARD_H``); one card-sized cell of it is cut again
into small tiles (``SMALL_W`` x ``SMALL_H``) for digits and direction arrows.
"""

from british_square.cards import const

SHEET_FILE = "cards.bmp"

CARD_W = const(20)
CARD_H = const(24)
SHEET_COLUMNS = const(8)  # card tiles per sheet row
_SHEET_ROWS = const(8)  # rows of card tiles
SHEET_W = const(160)  # SHEET_COLUMNS * CARD_W
# Below the cards, from _TOPS_Y, the top strips of the cards again, TOP_H rows
# each: what shows of a card under another in a British column, so that a
# column's covered cards are one tile grid. _TOPS_Y is a multiple of both
# CARD_H and TOP_H, so both tile sizes cut the sheet at its rows.
TOP_H = const(9)
_TOPS_Y = const(216)
TOPS_FIRST = const(192)  # (_TOPS_Y // TOP_H) * SHEET_COLUMNS: card c's top strip
TOP_GAP = const(TOPS_FIRST + 52)  # the strip of TILE_GAP
TOP_BLANK = const(TOPS_FIRST + 53)  # the felt (FELT_DRAWN): no card there
SHEET_H = const(288)  # _TOPS_Y + 8 rows of strips: a multiple of CARD_H, TOP_H and SMALL_H

# Card tiles 0 and 1 are cut into small tiles (see below): displayio keeps
# tile numbers in a byte, so the small glyphs must sit near the top of the sheet.
FIRST_CARD = const(2)  # card tiles 2-53: card c is tile FIRST_CARD + c
TILE_BACK = const(54)
TILE_EMPTY = const(55)  # an empty column or stock
TILE_FOUNDATION = const(56)  # 56-59: the empty foundation of each suit, CSHD
TILE_CURSOR = const(60)  # a frame drawn over the pile under the cursor
TILE_BLANK = const(61)  # fully transparent
TILE_GAP = const(62)  # stands for the hidden middle of a long built run (its top strip shows)

# Small tiles: SMALL_W x SMALL_H cells of the whole sheet, numbered row by row.
SMALL_W = const(5)
SMALL_H = const(6)
SMALL_PER_ROW = const(32)  # SHEET_W // SMALL_W
_SMALL_BLOCK_COLUMNS = const(8)  # small tiles per row inside the block (card tiles 0 and 1)


def small_tile(k):
    """Small tile number (in ``SMALL_W`` x ``SMALL_H`` units) of the block's ``k``-th glyph."""
    return (k // _SMALL_BLOCK_COLUMNS) * SMALL_PER_ROW + k % _SMALL_BLOCK_COLUMNS


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
    0x006028,  # FELT: the table
    0xF8F8F8,  # FACE: card face
    0x000000,  # INK: black suits and rank glyphs
    0xD80000,  # RED: red suits
    0x505050,  # EDGE: card border
    0x2040B0,  # BACK: card back
    0x80A0F8,  # BACK_LIGHT: card back lattice
    0xF8E000,  # CURSOR: cursor frame
    0x88C088,  # MARK: outlines of empty places
    0x288840,  # MARK_PIP: faint suit on an empty foundation
    0xF8F8F8,  # SIGN: a column's way, counts, home's arrows: bright on the felt
    0x000000,  # CLUB_INK: as INK (two colours)
    0xD80000,  # DIAMOND_INK: as RED
    0x006028,  # FELT_DRAWN: as FELT, but drawn
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
