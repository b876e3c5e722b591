"""Everything the player sees, drawn with displayio. No input, no game changes.

The screen shows the play scene (``scene.PlayScene``: the cards) or the
text page (``page.TextPage``: title, menu, help and the other screens),
each the root group when it shows; all made once at start-up and kept:
switching screens only shows the other root group, so the heap never holds
two generations of sprites. Card sprites come from the sprite sheet
(``cards.bmp``, read whole into RAM at start-up: ``files`` checks it
first); text is text grids over ``terminalio.FONT``'s glyphs (``page``).
The table under them, the felt, is black: the display's own, as displayio
leaves a pixel no layer draws, so no layer draws it (docs/memory.md: a felt
of another colour, a layer under every pixel, was a quarter of every
redraw of the cards).
"""

import bitmaptools
import displayio
import terminalio

from british_square import sheet
from british_square.controls import ticks_diff
from british_square.layout import SCREEN_H, SCREEN_W, TEXT_COLUMNS, TEXT_LINE
from british_square.page import TextPage
from british_square.scene import PlayScene
from british_square.textgrid import Glyphs, TextGrid


def sheet_path():
    """The sprite sheet beside this module (``/lib/british_square/cards.bmp`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + sheet.SHEET_FILE


def load_sheet(path):
    """The sprite sheet, its BMP's rows read into a bitmap in RAM (in C:
    the file is read a row at a time, bottom up, two pixels a byte)."""
    bitmap = displayio.Bitmap(sheet.SHEET_W, sheet.SHEET_H, sheet.COLOURS)
    with open(path, "rb") as f:
        f.seek(sheet.SHEET_PIXELS_AT)
        # 4 bits a pixel, rows padded to 4 bytes, the first pixel in the high nibble
        bitmaptools.readinto(bitmap, f, 4, 4, True, False, True)
    return bitmap


def show_damage(display, damage, console=print):
    """Say on the screen, in the built-in font alone, which game file is
    damaged (``damage``, a ``DamagedFile``), and on the ``console``."""
    line = str(damage)
    console(line)
    # two lines on the screen, as one block centred on the first: the file,
    # then the mend
    text = line.encode()
    at = text.find(b": ") + 1  # the colon ends the first line
    first, second = text[:at], text[at + 1 :]
    glyphs = Glyphs(terminalio.FONT)
    text = TextGrid(glyphs, TEXT_COLUMNS, 2, sheet.TEXT_WHITE)
    text.grid.x = (SCREEN_W - glyphs.width * len(first)) // 2
    text.grid.y = SCREEN_H // 2 - TEXT_LINE
    text.set_line(0, first)
    text.set_line(1, second)
    group = displayio.Group()
    group.append(text.grid)
    display.root_group = group
    display.refresh()


def make_palettes():
    """One palette per look: the sheet's colours (tests/test_sprites.py checks
    that the BMP holds the same) with the card face and the outline of empty
    places recoloured, so a highlight is one assignment."""
    palettes = []
    for look in range(len(sheet.HIGHLIGHTS)):
        palette = displayio.Palette(sheet.COLOURS)
        for i in range(sheet.COLOURS):
            palette[i] = sheet.PALETTE[i]
        colours = sheet.HIGHLIGHTS[look]
        if colours:
            palette[sheet.FACE] = colours[0]
            palette[sheet.MARK] = colours[1]
        palette.make_transparent(sheet.FELT)
        palettes.append(palette)
    return palettes


class View:
    """The screen: the play scene or the text page, on the black felt."""

    def __init__(self, display, words, font=None, sheet_bitmap=None):
        """``font``: the text's font, ``terminalio.FONT`` unless given;
        ``sheet_bitmap``: the sprite sheet (``load_sheet``), unless it is
        read here (the app reads it first, into a heap in one piece)."""
        self.display = display
        self.sheet = sheet_bitmap or load_sheet(sheet_path())
        self.palettes = make_palettes()
        font = font or terminalio.FONT
        glyphs = Glyphs(font)  # the font's glyphs as tiles, for the text grids
        self.page = TextPage(self.sheet, self.palettes[sheet.NORMAL], font, glyphs)
        self.scene = PlayScene(self.sheet, self.palettes, glyphs, words)
        # The scene and the page each the root group while it shows: showing
        # the other is one dirty area, the screen, drawn once, and neither is
        # left hidden in the tree, where displayio redraws a hidden group's
        # former areas again at a later refresh.
        self.play_root = self.scene.group
        self.page_root = self.page.group
        self.root = self.page_root  # the root group on show
        self.shown = None  # the scene or the page
        display.root_group = self.root

    def colour_suits(self, four):
        """Clubs and diamonds in colours of their own (``four``), or as
        spades and hearts: two entries of each palette, the sheet the same."""
        clubs = sheet.CLUB_GREEN if four else sheet.PALETTE[sheet.INK]
        diamonds = sheet.DIAMOND_BLUE if four else sheet.PALETTE[sheet.RED]
        for palette in self.palettes:
            palette[sheet.CLUB_INK] = clubs
            palette[sheet.DIAMOND_INK] = diamonds

    @property
    def dirty(self):
        """Has anything on the screen changed since the last ``refresh``?"""
        return self.scene.dirty or self.page.dirty

    def show_play(self):
        """Show the cards."""
        if self.shown is not self.scene:
            self._show(self.scene, self.play_root)

    def show_page(self):
        """Show the text page, for a new screen on it (drawn by ``screens``):
        the whole screen is drawn, even from another screen of text, which
        changes most of the page in several layers whose dirty areas overlap
        (the title, the body, the footer, the bar); displayio would draw
        each area whole."""
        self._show(self.page, self.page_root)

    def _show(self, layer, root):
        self.shown = layer
        layer.dirty = True
        self.root = root
        self.redraw_whole()

    def redraw_whole(self):
        """The next ``refresh`` draws the whole screen, once: a new root
        group is one dirty area."""
        display = self.display
        display.root_group = None
        display.root_group = self.root

    def full_redraws(self, ticks_ms, ms):
        """How many times the whole screen is redrawn in ``ms`` milliseconds:
        the root group shown anew each time (``redraw_whole``), so every
        pixel is drawn and sent (the About screen's benchmark)."""
        start = ticks_ms()
        frames = 0
        while ticks_diff(ticks_ms(), start) < ms:
            frames += 1
            self.redraw_whole()
            self.display.refresh()
        self.refresh()
        return frames

    def refresh(self):
        """Send what changed to the display: once per change, never per frame."""
        self.display.refresh()
        self.scene.dirty = False
        self.scene.drawn()
        if self.page.dirty:
            self.page.dirty = False
            self.page.drawn()
