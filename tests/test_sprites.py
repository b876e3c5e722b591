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


def test_tile_numbers_fit_in_a_byte():
    # displayio keeps a TileGrid's tile numbers in bytes
    tiles = [sheet.TILE_BLANK, sheet.TILE_CURSOR, FIRST_CARD + 51]
    tiles += [sheet.small_tile(k) for k in range(sheet.SMALL_NONE + 1)]
    assert max(tiles) < 256
    per_sheet = (sheet.SHEET_W // CARD_W) * (sheet.SHEET_H // CARD_H)
    assert sheet.TILE_BLANK < per_sheet


def test_every_card_is_distinct_and_red_or_black():
    sprites = Sprites()
    red, ink = rgb565(sheet.PALETTE[sheet.RED]), rgb565(sheet.PALETTE[sheet.INK])
    seen = set()
    for card in range(52):
        rows = sprites.card_tile(FIRST_CARD + card)
        flat = tuple(v for row in rows for v in row)
        assert flat not in seen
        seen.add(flat)
        colours = set(flat)
        if card >= 26:  # hearts and diamonds
            assert red in colours and ink not in colours
        else:
            assert ink in colours and red not in colours
        # the top strip (what shows of an overlapped card) tells cards apart alone
    strips = {
        tuple(v for row in sprites.card_tile(FIRST_CARD + c)[:9] for v in row) for c in range(52)
    }
    assert len(strips) == 52


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
    arrows = [sprites.small(k) for k in (sheet.SMALL_UP, sheet.SMALL_DOWN, sheet.SMALL_FREE)]
    assert arrows[0] != arrows[1] != arrows[2] != arrows[0]
    assert arrows[0][:5] == arrows[1][:5][::-1]  # up is down upside down
