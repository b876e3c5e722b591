"""Everything the player sees, drawn with displayio. No input, no game changes.

The play scene is built once per visit: one ``TileGrid`` per card place over
the sprite sheet (``cards.bmp``, read with ``OnDiskBitmap`` so it stays on
flash, out of the heap). A move then changes only the tiles of the piles it
touched (``show_pile``); a shadow copy of every tile, position and colour
look means that only real changes reach displayio, so ``refresh()`` redraws
just those areas. Text is ``adafruit_display_text.bitmap_label``: one small
bitmap per label costs less heap than a tile grid per letter.
"""

import displayio
import terminalio
import vectorio
from adafruit_display_text import bitmap_label

from british_square import sheet
from british_square.cards import NO_CARD, const
from british_square.engine import COLUMN_CAPACITY, DOWN, FOUNDATION, STOCK, UP, WASTE
from british_square.layout import SCREEN_H, SCREEN_W, TEXT_Y
from british_square.sheet import CARD_H, CARD_W, FIRST_CARD

HIDDEN = const(255)
STRIP = const(4)  # small tiles under (or above) a column: arrow, gap, two digits
NORMAL = const(0)
WHITE = const(0xF8F8F8)
YELLOW = const(0xF8E000)
GREY = const(0x88C088)
RULE_NAMES = ("British", "American", "Union")  # as the player reads them

_FONT = terminalio.FONT


def sheet_path():
    """The sprite sheet beside this module (``/lib/british_square/cards.bmp`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + sheet.SHEET_FILE


def text(value, x, y, color=WHITE, scale=1, anchor=(0.0, 0.0)):
    """A label of the built-in font, placed by its ``anchor`` point at (``x``, ``y``)."""
    return bitmap_label.Label(
        _FONT,
        text=value,
        color=color,
        scale=scale,
        anchor_point=anchor,
        anchored_position=(x, y),
        line_spacing=1.0,
    )


class View:
    """The screen: the play scene and the other screens, shown one at a time."""

    def __init__(self, display, path=None):
        self.display = display
        self.sheet = displayio.OnDiskBitmap(path or sheet_path())
        self.palettes = self._make_palettes()
        felt = displayio.Palette(1)
        felt[0] = sheet.PALETTE[sheet.FELT]
        self.root = displayio.Group()
        self.root.append(vectorio.Rectangle(pixel_shader=felt, width=SCREEN_W, height=SCREEN_H))
        self.layer = None  # the Group shown on the felt
        self.play = None
        self.layout = None
        self.dirty = True
        display.root_group = self.root

    @staticmethod
    def _make_palettes():
        # One palette per look: the sheet's colours (tests/test_sprites.py checks
        # that the BMP holds the same) with the card face and the outline of empty
        # places recoloured, so a highlight is one assignment.
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

    def _card_grid(self, x, y, tile=sheet.TILE_BLANK):
        grid = displayio.TileGrid(
            self.sheet,
            pixel_shader=self.palettes[NORMAL],
            tile_width=CARD_W,
            tile_height=CARD_H,
            default_tile=tile,
            x=x,
            y=y,
        )
        return grid

    # -------------------------------------------------------------- screens

    def _show(self, layer):
        if self.layer is layer:
            return
        if self.layer is not None:
            self.root.remove(self.layer)
        self.layer = layer
        if layer is not None:
            self.root.append(layer)
        self.dirty = True

    def show_play(self):
        """Show the play scene (built by ``build_play``)."""
        self._show(self.play)

    def show_screen(self, group):
        """Show another screen's Group (let the play scene go first: ``drop_play``),
        or nothing (``None``)."""
        self._show(group)

    def drop_play(self):
        """Let the play scene go while another screen shows: menus and help then
        fit in the heap the cards used. ``build_play`` makes it again."""
        if self.layer is self.play:
            self._show(None)
        self.play = None
        self.grids = self.column_groups = self.strips = self.numbers = self.cursor = None

    def refresh(self):
        """Send what changed to the display: once per change, never per frame."""
        self.display.refresh()
        self.dirty = False

    # ----------------------------------------------------------- play scene

    def build_play(self, layout):
        """Build the play scene for ``layout``: every sprite and label, once.

        British columns get their overlapping card sprites as they first grow
        that tall (most never reach 16 cards), each column in its own Group so
        a new card always lands on top of the ones below it.
        """
        self.drop_play()  # let the old scene go before the new one is made
        self.layout = layout
        columns = layout.columns
        per_column = COLUMN_CAPACITY if layout.british else 1
        self.per_column = per_column
        group = displayio.Group()
        self.column_groups = []
        for _ in range(columns if layout.british else 1):
            column_group = displayio.Group()
            self.column_groups.append(column_group)
            group.append(column_group)
        slots = columns * per_column + 7  # then stock, waste under, waste, 4 foundations
        self.grids = [None] * slots
        self.slot_x = bytearray(slots)
        self.slot_y = bytearray(slots)
        self.slot_tile = bytearray(slots)
        self.slot_look = bytearray(slots)
        for c in range(columns):
            for i in range(per_column):
                slot = c * per_column + i
                self.slot_x[slot] = layout.pile_x[c]
                self.slot_y[slot] = layout.pile_y[c]
                self.slot_tile[slot] = HIDDEN
        self.stock_slot = columns * per_column
        self.waste_under_slot = self.stock_slot + 1
        self.waste_slot = self.stock_slot + 2
        self.foundation_slot = self.stock_slot + 3
        panel = displayio.Group()
        self._panel_grid(panel, self.stock_slot, layout.stock_x, layout.stock_y)
        self._panel_grid(panel, self.waste_under_slot, layout.waste_under_x, layout.waste_y)
        self._panel_grid(panel, self.waste_slot, layout.waste_x, layout.waste_y)
        for suit in range(4):
            x, y = layout.foundation_x[suit], layout.foundation_y[suit]
            self._panel_grid(panel, self.foundation_slot + suit, x, y)
        group.append(panel)
        # the direction (and, for 16 piles, the count) under or above each column
        self.strips = []
        self.strip_tile = bytearray(STRIP * columns)
        for c in range(columns):
            strip = displayio.TileGrid(
                self.sheet,
                pixel_shader=self.palettes[NORMAL],
                tile_width=sheet.SMALL_W,
                tile_height=sheet.SMALL_H,
                width=STRIP,
                height=1,
                default_tile=sheet.small_tile(sheet.SMALL_NONE),
                x=layout.strip_x[c],
                y=layout.strip_y[c],
            )
            self.strips.append(strip)
            group.append(strip)
            for k in range(STRIP):
                self.strip_tile[STRIP * c + k] = sheet.SMALL_NONE
        self.looks = bytearray(layout.stops)
        self.top_slot = bytearray(layout.stops)
        for stop in range(layout.stops):
            self.top_slot[stop] = self._first_slot(stop)
        # stock count, cards home, deal number and rules: one label, redrawn on change
        self.numbers = text("", layout.text_x, TEXT_Y)
        group.append(self.numbers)
        self.shown_numbers = [-1, -1, -1, -1]  # stock, score, deal, rules as shown
        self.cursor = self._card_grid(0, 0, sheet.TILE_CURSOR)
        self.cursor.hidden = True
        group.append(self.cursor)
        self.play = group
        self.dirty = True

    def _panel_grid(self, panel, slot, x, y):
        grid = self._card_grid(x, y)
        grid.hidden = True
        panel.append(grid)
        self.grids[slot] = grid
        self.slot_x[slot] = x
        self.slot_y[slot] = y
        self.slot_tile[slot] = HIDDEN

    def _first_slot(self, stop):
        layout = self.layout
        if stop < layout.columns:
            return stop * self.per_column
        if stop == layout.stock_stop:
            return self.stock_slot
        if stop == layout.waste_stop:
            return self.waste_slot
        return self.foundation_slot + stop - layout.foundation_stop

    def _grid(self, slot):
        """The sprite of a card place, made the first time a card shows there."""
        grid = self.grids[slot]
        if grid is None:
            grid = self._card_grid(self.slot_x[slot], self.slot_y[slot])
            grid.hidden = True
            column = slot // self.per_column if self.layout.british else 0
            self.column_groups[column].append(grid)
            self.grids[slot] = grid
        return grid

    def _put(self, slot, tile, y, look=NORMAL):
        """Show ``tile`` (or nothing: ``HIDDEN``) in ``slot``, touching only what differs."""
        old = self.slot_tile[slot]
        if tile == HIDDEN:
            if old != HIDDEN:
                self.grids[slot].hidden = True
                self.slot_tile[slot] = HIDDEN
                self.dirty = True
            return
        grid = self._grid(slot)
        if old != tile:
            if old == HIDDEN:
                grid.hidden = False
            grid[0] = tile
            self.slot_tile[slot] = tile
            self.dirty = True
        if self.slot_y[slot] != y:
            grid.y = y
            self.slot_y[slot] = y
            self.dirty = True
        if self.slot_look[slot] != look:
            grid.pixel_shader = self.palettes[look]
            self.slot_look[slot] = look
            self.dirty = True

    def _put_strip(self, column, k, glyph):
        i = STRIP * column + k
        if self.strip_tile[i] != glyph:
            self.strips[column][k] = sheet.small_tile(glyph)
            self.strip_tile[i] = glyph
            self.dirty = True

    def show_game(self, game):
        """Show every pile and number of ``game`` (a new deal, a restart)."""
        for c in range(game.columns):
            self.show_pile(game, c)
        for pile in (STOCK, WASTE, FOUNDATION):
            self.show_pile(game, pile)
        self.show_numbers(game)

    def show_pile(self, game, pile):
        """Redraw one pile: a column, ``STOCK``, ``WASTE`` or ``FOUNDATION`` (all four)."""
        layout = self.layout
        if pile < STOCK:
            self._show_column(game, pile)
        elif pile == STOCK:
            tile = sheet.TILE_BACK if game.stock_count else sheet.TILE_EMPTY
            self._put(self.stock_slot, tile, layout.stock_y, self.looks[layout.stock_stop])
        elif pile == WASTE:
            n = game.waste_count
            look = self.looks[layout.waste_stop]
            under = FIRST_CARD + game.waste[n - 2] if n > 1 else HIDDEN
            self._put(self.waste_under_slot, under, layout.waste_y)
            top = FIRST_CARD + game.waste[n - 1] if n else sheet.TILE_EMPTY
            self._put(self.waste_slot, top, layout.waste_y, look)
        elif pile == FOUNDATION:
            for suit in range(4):
                card = game.foundation_top(suit)
                if card == NO_CARD:
                    tile = sheet.TILE_FOUNDATION + suit
                else:
                    tile = FIRST_CARD + card
                look = self.looks[layout.foundation_stop + suit]
                self._put(self.foundation_slot + suit, tile, layout.foundation_y[suit], look)

    def _show_column(self, game, c):
        layout = self.layout
        h = game.height[c]
        look = self.looks[c]
        first = c * self.per_column
        cells = game.cells
        start = c * COLUMN_CAPACITY
        if not layout.british:
            tile = FIRST_CARD + cells[start + h - 1] if h else sheet.TILE_EMPTY
            self._put(first, tile, layout.pile_y[c], look)
        elif not h:
            self._put(first, sheet.TILE_EMPTY, layout.pile_y[c], look)
            for i in range(1, COLUMN_CAPACITY):
                self._put(first + i, HIDDEN, 0)
        else:
            for i in range(COLUMN_CAPACITY):
                if i < h:
                    y = layout.card_y(c, i, h)
                    tile = FIRST_CARD + cells[start + i]
                    self._put(first + i, tile, y, look if i == h - 1 else NORMAL)
                else:
                    self._put(first + i, HIDDEN, 0)
        self.top_slot[c] = first + (h - 1 if h and layout.british else 0)
        # the direction strip: an arrow, and the count on the 16-pile layouts
        if not h:
            arrow = sheet.SMALL_NONE
        else:
            way = game.direction(c)
            arrow = sheet.SMALL_FREE
            if way == UP:
                arrow = sheet.SMALL_UP
            elif way == DOWN:
                arrow = sheet.SMALL_DOWN
        self._put_strip(c, 0, arrow)
        if not layout.british:  # the count, right-aligned after a gap
            self._put_strip(c, 2, h // 10 if h >= 10 else sheet.SMALL_NONE)
            self._put_strip(c, 3, h % 10 if h else sheet.SMALL_NONE)

    def show_numbers(self, game):
        """The panel's stock count, cards home, deal number and rules, if one changed."""
        shown = self.shown_numbers
        score = game.score()
        if (
            shown[0] != game.stock_count
            or shown[1] != score
            or shown[2] != game.deal_number
            or shown[3] != game.rules
        ):
            shown[0], shown[1], shown[2], shown[3] = (
                game.stock_count,
                score,
                game.deal_number,
                game.rules,
            )
            self.numbers.text = "Stock {}\nHome {}\nDeal {}\n{}".format(
                game.stock_count, score, game.deal_number, RULE_NAMES[game.rules]
            )
            self.dirty = True

    def set_look(self, stop, look):
        """Colour the playable card (or empty place) of ``stop``: ``NORMAL``,
        ``sheet.SELECTED``, ``sheet.TARGET`` or ``sheet.REFUSED``."""
        if self.looks[stop] == look:
            return
        self.looks[stop] = look
        slot = self.top_slot[stop]
        if self.slot_tile[slot] != HIDDEN and self.slot_look[slot] != look:  # shown: has a grid
            self.grids[slot].pixel_shader = self.palettes[look]
            self.slot_look[slot] = look
            self.dirty = True

    def clear_looks(self):
        """Every pile back to its normal colours."""
        for stop in range(len(self.looks)):
            if self.looks[stop]:
                self.set_look(stop, NORMAL)

    def show_cursor(self, stop):
        """Frame the playable card (or empty place) of ``stop``."""
        slot = self.top_slot[stop]
        grid = self.cursor
        x, y = self.slot_x[slot], self.slot_y[slot]
        if grid.hidden or grid.x != x or grid.y != y:
            grid.x = x
            grid.y = y
            grid.hidden = False
            self.dirty = True

    # ------------------------------------------------------- other screens

    def card_sprite(self, tile, x, y):
        """A lone card tile (for the title and the celebration)."""
        return self._card_grid(x, y, tile)
