"""The play scene: a sprite per card place, changed only where the game changed.

Every sprite is made once and reused by every game and rule set
(``set_layout`` only moves them): a card sprite for each of 16 piles (a
British column's is its top card) and the panel's cards, and for each
British column one tile grid of the top strips of the cards under its top
card. A move then changes the tiles of the piles
it touched (``show_pile``); a shadow copy of every tile, position and colour
look means that only real changes reach displayio, so ``refresh()`` redraws
just those areas (deshipu's ``stage`` does the same).
"""

import displayio

from british_square import sheet
from british_square.cards import NO_CARD, const
from british_square.layout import (
    BRITISH_ROWS,
    FOUNDATION_SLOT,
    GAP,
    MARK_CELLS,
    MAX_COLUMNS,
    MAX_STOPS,
    NO_STOP,
    OFF_SCREEN,
    PANEL_COLUMNS,
    PANEL_ROWS,
    SLOTS,
    STOCK_SLOT,
    STRIP_ROW,
    TEXT_Y,
    WASTE_SLOT,
    WASTE_UNDER_SLOT,
)
from british_square.piles import BUILDS_DOWN, BUILDS_UP, FOUNDATION, STOCK, WASTE
from british_square.sheet import CARD_W, FIRST_CARD, NORMAL
from british_square.textgrid import TextGrid, set_hidden
from british_square.words import NO_ROW

_HIDDEN = const(255)
_COVERED = BRITISH_ROWS - 1  # strips of covered cards a British column shows
_UNDER_CARD = const(2)  # CARD_H // TOP_H: the strips a top card hides whole
# What the panel's text shows (``show_numbers``), named by its text in
# words.txt: the numbers, or a notice.
PANEL_NUMBERS = "panel"
PANEL_STUCK = "panel_stuck"  # no card can go home any more
PANEL_ENDED = "panel_over"  # the player ended the game
# the panel's named lines, each with its number right-aligned at its end:
# the stock's, the cards home, the moves, the deal's (words.txt's "panel")
_PANEL_LINES = (b"stock", b"home", b"moves", b"deal")
_NUMBER_COLUMNS = const(4)
_DEAL_COLUMNS = const(5)


class PlayScene:
    """The cards, the panel's numbers and the cursor, for any layout."""

    def __init__(self, sheet_bitmap, palettes, glyphs, words):
        self.sheet = sheet_bitmap
        self.palettes = palettes
        self.words = words
        self.layout = None
        self.dirty = True
        self.group = displayio.Group()
        # Sprites only one shape of layout shows are in groups of their own,
        # hidden whole with the other shape: displayio looks at every layer
        # of a shown group for each row of pixels it draws (a full redraw of
        # the cards: 2 ms on a SAMD51 for the dozen piles British never has).
        self.british_only = displayio.Group()
        self.piles_only = displayio.Group()  # the sixteen piles' but the first four
        self.strips_only = displayio.Group()  # their rows of strips but the first
        self.group.append(self.british_only)
        # the covered cards of each British column: their top strips in one grid
        self.covered = []
        self.covered_tile = bytearray(4 * _COVERED)  # the strip each row shows
        for i in range(len(self.covered_tile)):
            self.covered_tile[i] = sheet.TOP_BLANK
        # the height each British column's strips are shown for
        self.heights = bytearray(4)
        self.whole = False  # another game shown: any strip may differ (``show_game``)
        for _ in range(4):
            grid = displayio.TileGrid(
                self.sheet,
                pixel_shader=self.palettes[NORMAL],
                tile_width=CARD_W,
                tile_height=sheet.BAND_H,
                width=1,
                height=_COVERED * sheet.STRIP_BANDS,
                default_tile=sheet.BAND_FELT,
            )
            self.covered.append(grid)
            self.british_only.append(grid)
        # the direction (and, for 16 piles, the count) under or above each
        # column: a grid of small glyphs for each row of columns; under the
        # cards (a strip's end lies under the stock or a foundation, where
        # its cells are blank), so its blank cells can draw the felt
        self.strips = []
        self.strip_tile = bytearray(4 * STRIP_ROW)
        for row in range(4):
            strip = self._small_grid(STRIP_ROW)
            self.strips.append(strip)
            (self.strips_only if row else self.group).append(strip)
        self.group.append(self.strips_only)
        # the way each foundation goes next, beside it: a grid for each row
        # of two, under the cards too (it spans the right one)
        self.marks = []
        self.mark_tile = bytearray(2 * MARK_CELLS)
        for _ in range(2):
            mark = self._small_grid(MARK_CELLS)
            self.marks.append(mark)
            self.group.append(mark)
        self.grids = []
        for slot in range(SLOTS):
            grid = self._card_grid(sheet.TILE_BLANK)
            grid.hidden = True
            self.grids.append(grid)
            (self.piles_only if 4 <= slot < MAX_COLUMNS else self.group).append(grid)
            if slot == 3:
                self.group.append(self.piles_only)
        self.slot_x = bytearray(SLOTS)
        self.slot_y = bytearray(SLOTS)
        self.slot_tile = bytearray(SLOTS)
        self.slot_look = bytearray(SLOTS)
        # the panel: its words, four lines changed with the rules, a notice or
        # the deal, and right-aligned at their ends the numbers a move
        # changes: one text grid (a tile a character) on the felt's colour,
        # so a move redraws the digits that changed, one layer deep
        felt = sheet.PALETTE[sheet.FELT]
        self.panel = TextGrid(glyphs, PANEL_COLUMNS, PANEL_ROWS, sheet.TEXT_WHITE, felt)
        self.panel.grid.y = TEXT_Y
        self.group.append(self.panel.grid)
        # stock, score, deal, rules, notice (its text's name), moves, and
        # whether its numbers are green: the game can still be won (``show_winnable``)
        self.shown_numbers = [-1, -1, -1, -1, -1, -1, False]
        # the panel's rows of the stock, the cards home, the moves and the
        # deal (255: not on this text)
        self.panel_rows = bytearray(len(_PANEL_LINES))
        self.cursor = self._card_grid(sheet.TILE_CURSOR)
        self.cursor.hidden = True
        self.group.append(self.cursor)
        # Slots whose card moved since the last refresh, a bit each, and the
        # stop the cursor goes to at the next (``drawn``): see ``show_cursor``.
        self.moved_slots = 0
        self.cursor_due = NO_STOP
        self.looks = bytearray(MAX_STOPS)

    def _card_grid(self, tile):
        grid = displayio.TileGrid(
            self.sheet,
            pixel_shader=self.palettes[NORMAL],
            tile_width=CARD_W,
            tile_height=sheet.BAND_H,
            height=sheet.CARD_BANDS,
        )
        sheet.put_card(grid, tile)
        return grid

    def _small_grid(self, width):
        return displayio.TileGrid(
            self.sheet,
            pixel_shader=self.palettes[NORMAL],
            tile_width=sheet.SMALL_W,
            tile_height=sheet.SMALL_H,
            width=width,
            height=1,
            default_tile=sheet.small_tile(sheet.SMALL_FELT),
        )

    # ----------------------------------------------------------------- layout

    def set_layout(self, layout):
        """Place every sprite for ``layout`` (a new rule set's shape), all empty."""
        self.layout = layout
        for slot in range(SLOTS):
            if slot < MAX_COLUMNS:
                x, y = OFF_SCREEN, 0  # a pile this layout has not: never shown
                if slot < layout.columns:
                    x, y = layout.pile_x[slot], layout.pile_y[slot]
            elif slot == STOCK_SLOT:
                x, y = layout.stock_x, layout.stock_y
            elif slot == WASTE_UNDER_SLOT:
                x, y = layout.waste_under_x, layout.waste_y
            elif slot == WASTE_SLOT:
                x, y = layout.waste_x, layout.waste_y
            else:
                suit = slot - FOUNDATION_SLOT
                x, y = layout.foundation_x[suit], layout.foundation_y[suit]
            grid = self.grids[slot]
            set_hidden(grid, True)
            grid.x = OFF_SCREEN  # until shown (``_put``)
            grid.y = y
            grid.pixel_shader = self.palettes[NORMAL]
            self.slot_x[slot] = x
            self.slot_y[slot] = y
            self.slot_tile[slot] = _HIDDEN
            self.slot_look[slot] = NORMAL
        set_hidden(self.british_only, not layout.british)
        set_hidden(self.piles_only, layout.british)
        set_hidden(self.strips_only, layout.british)
        for c in range(4):
            grid = self.covered[c]
            grid.x = layout.pile_x[c] if layout.british else OFF_SCREEN
            grid.y = layout.pile_y[c]
            for row in range(_COVERED):
                self._put_covered(c, row, sheet.TOP_BLANK)
        for row in range(4):
            strip = self.strips[row]
            set_hidden(strip, row >= layout.strip_rows)
            strip.x = OFF_SCREEN
            if not strip.hidden:
                strip.x = layout.strip_x[row]
                strip.y = layout.strip_y[row]
            for cell in range(STRIP_ROW):
                index = STRIP_ROW * row + cell
                self._put_small(self.strips, self.strip_tile, STRIP_ROW, index, sheet.SMALL_FELT)
        for row in range(2):
            mark = self.marks[row]
            mark.x = layout.mark_x
            mark.y = layout.mark_y[row]
            for cell in range(MARK_CELLS):
                index = MARK_CELLS * row + cell
                self._put_small(self.marks, self.mark_tile, MARK_CELLS, index, sheet.SMALL_FELT)
        self.panel.grid.x = layout.text_x
        for i in range(len(self.shown_numbers)):
            self.shown_numbers[i] = -1
        for stop in range(MAX_STOPS):
            self.looks[stop] = NORMAL
        set_hidden(self.cursor, True)
        self.cursor.x = OFF_SCREEN
        self.cursor_due = NO_STOP
        self.dirty = True

    # -------------------------------------------------------------- drawing

    def _put(self, slot, tile, look=NORMAL, y=-1):
        """Show ``tile`` (or nothing: ``_HIDDEN``) in ``slot``, at row ``y`` if
        given, touching only what differs."""
        old = self.slot_tile[slot]
        grid = self.grids[slot]
        if tile == _HIDDEN:
            if old != _HIDDEN:
                set_hidden(grid, True)
                grid.x = OFF_SCREEN
                self.slot_tile[slot] = _HIDDEN
                self.dirty = True
            return
        if old != tile:
            if old == _HIDDEN:
                grid.x = self.slot_x[slot]
                set_hidden(grid, False)
            sheet.put_card(grid, tile)
            self.slot_tile[slot] = tile
            self.dirty = True
        if y >= 0 and self.slot_y[slot] != y:
            grid.y = y
            self.slot_y[slot] = y
            self.moved_slots |= 1 << slot
            self.dirty = True
        if self.slot_look[slot] != look:
            grid.pixel_shader = self.palettes[look]
            self.slot_look[slot] = look
            self.dirty = True

    def _put_covered(self, column, row, strip):
        i = _COVERED * column + row
        if self.covered_tile[i] != strip:
            sheet.put_strip(self.covered[column], row, strip)
            self.covered_tile[i] = strip
            self.dirty = True

    def _put_small(self, grids, shown, width, index, glyph):
        """Small glyph ``glyph`` in cell ``index`` of ``grids`` (strips or marks,
        ``width`` cells a row), whose glyphs on show ``shown`` keeps."""
        if shown[index] != glyph:
            grids[index // width][index % width] = sheet.small_tile(glyph)
            shown[index] = glyph
            self.dirty = True

    def _put_strip(self, column, k, glyph):
        index = self.layout.strip_cell(column, k)
        self._put_small(self.strips, self.strip_tile, STRIP_ROW, index, glyph)

    def _put_mark(self, suit, glyph):
        index = self.layout.mark_cell(suit)
        self._put_small(self.marks, self.mark_tile, MARK_CELLS, index, glyph)

    def show_game(self, game, notice=PANEL_NUMBERS):
        """Show every pile and number of ``game`` (a new deal, a restart)."""
        self.whole = True  # another game's cards: every row up to the taller top looked at
        for c in range(game.columns):
            self.show_pile(game, c)
        self.whole = False
        for pile in (STOCK, WASTE, FOUNDATION):
            self.show_pile(game, pile)
        self.show_numbers(game, notice)

    def show_pile(self, game, pile):
        """Redraw one pile: a column, ``STOCK``, ``WASTE`` or ``FOUNDATION`` (all four)."""
        layout = self.layout
        if pile < STOCK:
            self._show_column(game, pile)
        elif pile == STOCK:
            tile = sheet.TILE_BACK if game.stock_count else sheet.TILE_EMPTY
            self._put(STOCK_SLOT, tile, self.looks[layout.stock_stop])
        elif pile == WASTE:
            under = game.waste_card(1)
            self._put(WASTE_UNDER_SLOT, _HIDDEN if under == NO_CARD else FIRST_CARD + under)
            top = game.waste_card(0)
            top = sheet.TILE_EMPTY if top == NO_CARD else FIRST_CARD + top
            self._put(WASTE_SLOT, top, self.looks[layout.waste_stop])
        elif pile == FOUNDATION:
            for suit in range(4):
                card = game.foundation_top(suit)
                if card == NO_CARD:
                    tile = sheet.TILE_FOUNDATION + suit
                else:
                    tile = FIRST_CARD + card
                self._put(FOUNDATION_SLOT + suit, tile, self.looks[layout.foundation_stop + suit])
                done = game.foundations[suit]
                if not done:
                    glyph = sheet.SMALL_FELT  # the empty place shows its suit: an ace next
                elif done < 13:
                    glyph = sheet.SMALL_UP
                elif done == 13:
                    glyph = sheet.SMALL_KING
                elif done < 26:
                    glyph = sheet.SMALL_DOWN
                else:
                    glyph = sheet.SMALL_DONE
                self._put_mark(suit, glyph)

    def _show_column(self, game, c):
        layout = self.layout
        h = game.column_height(c)
        look = self.looks[c]
        if not layout.british:
            tile = FIRST_CARD + game.top(c) if h else sheet.TILE_EMPTY
            self._put(c, tile, look)
        else:
            base = game.base_count(c)
            rows = layout.shown_rows(h)
            # A move or its undo puts a card on or takes one off the top: of
            # a column no taller than its rows, only the rows about its top
            # can change (all of them were looked at: 2 ms a move on a SAMD51);
            # of a taller one, the rows after its base and the gap. Another
            # game's (``whole``): the rows up to the taller top, or all.
            old = self.heights[c]
            self.heights[c] = h
            first, end = 0, _COVERED
            if h <= BRITISH_ROWS and old <= BRITISH_ROWS:
                end = min(_COVERED, max(h, old) + 1)
                if not self.whole:
                    first = max(0, min(h, old) - 2)
            elif h > BRITISH_ROWS and old > BRITISH_ROWS and not self.whole:
                first = min(base + 2, _COVERED)
            # The strips the top card lies on are left as they were until they
            # show: no pixel of them does (the card's see-through corners show
            # the felt, as a strip's own do), and a strip written there is an
            # area displayio draws again inside the card's (a put-down's source).
            under = rows - 1
            shown, at = self.covered_tile, _COVERED * c
            for row in range(first, end):
                if 0 <= row - under < _UNDER_CARD:
                    continue
                strip = sheet.TOP_BLANK
                if row < under:
                    k = row if h <= BRITISH_ROWS else layout.shown_card(row, h, base)
                    strip = sheet.TOP_GAP if k == GAP else game.card(c, k)
                if shown[at + row] != strip:
                    self._put_covered(c, row, strip)
            tile = FIRST_CARD + game.top(c) if h else sheet.TILE_EMPTY
            self._put(c, tile, look, layout.card_y(c, rows - 1 if rows else 0))
        # the direction strip: the way, two cells wide, and the count on the
        # 16-pile layouts (a cell compared here before it is written: most
        # moves change none, and a call a cell cost a move 1 ms on a SAMD51)
        mark = sheet.SMALL_FELT
        if h:
            way = game.direction(c)
            mark = sheet.WAY_FREE
            if way == BUILDS_UP:
                mark = sheet.WAY_UP
            elif way == BUILDS_DOWN:
                mark = sheet.WAY_DOWN
        index = layout.strip_cell(c, 0)
        if self.strip_tile[index] != mark:
            self._put_strip(c, 0, mark)
            self._put_strip(c, 1, mark + 1 if h else mark)
        if not layout.british:  # the count, right-aligned after a gap
            tens = h // 10 if h >= 10 else sheet.SMALL_FELT
            units = h % 10 if h else sheet.SMALL_FELT
            if self.strip_tile[index + 2] != tens or self.strip_tile[index + 3] != units:
                self._put_strip(c, 2, tens)
                self._put_strip(c, 3, units)

    def show_numbers(self, game, notice=PANEL_NUMBERS):
        """The panel: stock count, cards home, moves and deal number, or a
        notice with the cards home. Its words are read (from flash) only when
        the rules, the notice or the deal change; a move changes the digits
        of its numbers."""
        shown = self.shown_numbers
        score = game.score()
        panel, rows = self.panel, self.panel_rows
        if shown[3] != game.rules or shown[4] != notice or shown[2] != game.deal_number:
            shown[2], shown[3], shown[4] = game.deal_number, game.rules, notice
            shown[0] = shown[1] = shown[5] = -1
            self.words.put_lines(panel, notice, _PANEL_LINES, rows)
            deal, at = rows[3], PANEL_COLUMNS - _DEAL_COLUMNS
            if deal != NO_ROW:
                if game.deal_number:
                    panel.put_number(deal, at, game.deal_number, _DEAL_COLUMNS)
                else:  # a game from a position
                    panel.put(deal, PANEL_COLUMNS - 1, b"-")
            white = sheet.TEXT_GREEN if shown[6] else sheet.TEXT_WHITE
            panel.color = white if notice == PANEL_NUMBERS else sheet.TEXT_YELLOW
        # each number written only when it changed (a move changes one or two):
        # the stock's, the cards home, the moves (at 0, 1 and 5 of ``shown``)
        self._put_number(0, 0, game.stock_count)
        self._put_number(1, 1, score)
        self._put_number(2, 5, game.history_count)

    def show_winnable(self, winnable):
        """The panel's numbers green while the game follows its deal's
        shipped winning line (``winnable``), else white; a notice stays yellow."""
        shown = self.shown_numbers
        if winnable != shown[6]:
            shown[6] = winnable
            if shown[4] == PANEL_NUMBERS:
                self.panel.color = sheet.TEXT_GREEN if winnable else sheet.TEXT_WHITE
                self.dirty = True

    def _put_number(self, line, at, value):
        """The number of the panel's ``line`` (of ``_PANEL_LINES``), kept at
        ``at`` of ``shown_numbers``, at its row's end if on show and if it changed."""
        shown = self.shown_numbers
        if shown[at] == value:
            return
        shown[at] = value
        self.dirty = True
        row = self.panel_rows[line]
        if row != NO_ROW:
            self.panel.put_number(row, PANEL_COLUMNS - _NUMBER_COLUMNS, value, _NUMBER_COLUMNS)

    # ---------------------------------------------------------------- looks

    def set_look(self, stop, look):
        """Colour the playable card (or empty place) of ``stop``: ``NORMAL``,
        ``sheet.SELECTED``, ``sheet.TARGET`` or ``sheet.REFUSED``."""
        if self.looks[stop] == look:
            return
        self.looks[stop] = look
        slot = self.layout.slot(stop)
        if self.slot_tile[slot] != _HIDDEN and self.slot_look[slot] != look:
            self.grids[slot].pixel_shader = self.palettes[look]
            self.slot_look[slot] = look
            self.dirty = True

    def clear_looks(self):
        """Every pile back to its normal colours."""
        for stop in range(self.layout.stops):
            if self.looks[stop]:
                self.set_look(stop, NORMAL)

    def show_cursor(self, stop):
        """Frame the playable card (or empty place) of ``stop``. Onto a card
        that moved since the last refresh (a British column's top card, a
        row lower or higher after a move or its undo) the frame follows at
        the next refresh: displayio draws each sprite's area whole, so the
        frame's area, the card's own, would be drawn twice in the move's
        frame (a third of a put-down's pixels)."""
        slot = self.layout.slot(stop)
        grid = self.cursor
        x, y = self.slot_x[slot], self.slot_y[slot]
        if grid.hidden or grid.x != x or grid.y != y:
            if not grid.hidden and self.moved_slots >> slot & 1:
                self.cursor_due = stop
                return
            grid.x = x
            grid.y = y
            set_hidden(grid, False)
            self.dirty = True
        self.cursor_due = NO_STOP

    def drawn(self):
        """The scene is on the screen: a frame due (``show_cursor``) moves now."""
        self.moved_slots = 0
        stop = self.cursor_due
        if stop != NO_STOP:
            self.show_cursor(stop)
