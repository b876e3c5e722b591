"""The text page: what every screen besides the cards is drawn with.

A title line, a body of ``BODY_ROWS`` lines, a footer line, two lines of
large text, the deal number's digits, a bar behind a chosen body row, a
column of small glyphs beside the body (the help's legend) and four card
sprites (the title's aces, the celebration's kings). The body is a table:
each row's text, and its figure right-aligned at the row's end (the
statistics', the About screen's). All made once; a screen (``screens``)
clears the page and puts its words on it (``words``).

The title, the footer and the body are text grids (``textgrid.TextGrid``),
written only where a line changed, with the felt's colour behind them and
spanning the screen's width, so where they are displayio draws one layer
and stops; so are the large lines (``Large``: the title's name, "You
won!", the deal number), text grids in scaled groups.
docs/memory.md has what each costs in heap and time.
"""

import displayio

from british_square import sheet
from british_square.cards import const
from british_square.layout import (
    BODY_ROWS,
    BODY_X,
    BODY_Y,
    DEAL_DIGIT_W,
    DEAL_DIGITS,
    DEAL_DIGITS_X,
    DEAL_DIGITS_Y,
    DEAL_MARK_Y,
    FONT_W,
    FOOTER_Y,
    MENU_BAR_END,
    MENU_BAR_FIRST,
    TEXT_COLUMNS,
    TEXT_LINE,
    TITLE_Y,
)
from british_square.sheet import CARD_W
from british_square.textgrid import TextGrid, as_bytes, park, set_hidden
from british_square.words import NO_ROW

_GLYPH_ROWS = 2 * BODY_ROWS  # small glyphs are half a text line tall
DIM_ROWS = const(3)  # body rows dimmed at most at once (the menu's Restart deal, Undo, Redo)
DIM_COLUMNS = const(15)  # as wide as the longest: "   Restart deal"
_NO_DIM = const(255)  # a dim over no row
_GLYPH_CELLS = const(2)  # and beside a row, two cells: a column's way is two wide
_BLANK_ROW = b" " * TEXT_COLUMNS
# A page's lines start a column left of the screen, blank, so that with the
# spare column at their end they span its whole width: a row of pixels one
# layer covers whole is where displayio stops (the felt under it is skipped).
_MARGIN = const(1)
_LINE_X = BODY_X - FONT_W * _MARGIN
_BIG_COLUMNS = const(12)  # a large line's characters: as many as fit across at scale 2


class Large:
    """A line of text ``scale`` times the font's size (the title's name,
    "You won!", the deal number): a text grid in a scaled group, on the
    felt's colour, so that displayio draws one layer there; off the screen
    until shown, where ``place`` put it."""

    def __init__(self, glyphs, columns, scale, colour, felt):
        self.text = TextGrid(glyphs, columns, 1, colour, felt)
        self.group = displayio.Group(scale=scale)
        self.group.append(self.text.grid)
        self.width = glyphs.width * scale  # of a character
        self.x = self.y = 0
        self.centred = False
        park(self.group)

    def place(self, x, y, centred=False):
        """Where the line goes when shown: its top edge at ``y``, centred on ``x`` or from it."""
        self.x, self.y, self.centred = x, y, centred

    def show(self, text):
        """``text`` (bytes), where it was placed: only the characters that
        changed are written (a digit of the deal number)."""
        self.text.set_line(0, text)
        x = self.x
        if self.centred:
            x -= self.width * len(text) // 2
        group = self.group
        group.x = x
        group.y = self.y
        set_hidden(group, False)

    def clear(self):
        """Blank at the page's ``draw``, and off the screen."""
        self.text.clear()
        park(self.group)


class Bar:
    """The bar behind the chosen menu row: text columns ``first`` to
    ``end`` (not included) of the body, whose characters start at
    ``text_x``, in ``colour``, with that row's text on it in ``ink``. A text
    grid of its own in the bar's colours, written by the terminal (C), in a
    group that moves from row to row. Whole columns: over the body's opaque
    lines it is then the one layer where it is, and a menu step redraws the
    row left and the row reached, once each, and nothing under them (a bar
    whose ends cut a column had two more layers there, and displayio drew
    the body and the felt under the whole bar as well)."""

    def __init__(self, glyphs, first, end, colour, ink, text_x):
        self.first = first
        self.end = end
        self.middle = TextGrid(glyphs, end - first, 1, ink, colour, blank_hides=False, spare=False)
        self.middle.grid.x = text_x + glyphs.width * first
        self.group = displayio.Group()
        self.group.append(self.middle.grid)
        park(self.group)
        self.text = bytearray(end - first)  # the row's text on the bar: its columns only

    def show(self, y, line, row):
        """The bar at ``y`` behind row ``row`` of ``line`` (the body, a
        ``TextGrid``): its text written only if it changed, and then whole
        (the bar's area is redrawn whole when it moves)."""
        group = self.group
        group.x = 0
        group.y = y
        set_hidden(group, False)
        text, mine = line.shown, self.text
        at = row * line.columns + self.first
        end = at + len(mine)
        # the same text where the bar is, compared in C (the row's mark of
        # more rows, past the bar's end, is not the bar's)
        if text.find(mine, at, end) == at:
            return
        mine[:] = memoryview(text)[at:end]
        self._write()

    def show_text(self, y, text, column):
        """The bar at ``y`` with ``text`` (bytes) on it from body column
        ``column``, before the body's row has it (a page turned)."""
        group = self.group
        group.y = y
        group.x = 0
        set_hidden(group, False)
        mine = self.text
        mine[:] = memoryview(_BLANK_ROW)[: len(mine)]
        column -= self.first
        size = min(len(text), len(mine) - column)
        mine[column : column + size] = text if size == len(text) else text[:size]
        self._write()

    def _write(self):
        middle = self.middle
        middle.fresh = True  # no comparison, a character at a time
        middle.set_line(0, self.text)
        middle.fresh = False


class TextPage:
    """Title, body table, footer, large lines, a bar, legend glyphs and card sprites."""

    rows = BODY_ROWS

    def __init__(self, sheet_bitmap, palette, font, glyphs):
        self.dirty = True
        felt = sheet.PALETTE[sheet.FELT]
        # The body: a table of rows, each row's text and its figure
        # (right-aligned at its end) in one text grid on the felt's colour.
        # Two grids, the figures' see-through over the rows', cost a screen
        # of figures 25 ms more to draw on a SAMD51.
        self.plain_body = TextGrid(
            glyphs, TEXT_COLUMNS, BODY_ROWS, sheet.TEXT_WHITE, felt, _MARGIN, blank_hides=False
        )
        # The menu's rows are a body of their own, over the other (``menu``
        # keeps them written between visits: composing them is 20 ms on a
        # SAMD51, and the menu is the screen most often shown).
        self.menu_body = TextGrid(
            glyphs, TEXT_COLUMNS, BODY_ROWS, sheet.TEXT_WHITE, felt, _MARGIN, blank_hides=False
        )
        self.body = self.plain_body  # the body on show, which the calls below write
        # The menu's dimmed rows: each a line of grey on the felt's colour,
        # over its row's text (``dim``), which it hides: one layer drawn
        # there, as elsewhere, and no wider than the text (a see-through grid
        # of three whole rows over the body cost a menu 16 ms more to draw).
        # Kept with the menu's rows, each where it was, between visits.
        grey = sheet.TEXT_GREY
        self.dims = [TextGrid(glyphs, DIM_COLUMNS, 1, grey, felt) for _ in range(DIM_ROWS)]
        for dim in self.dims:
            park(dim.grid)
        self.dim_rows = bytearray(_NO_DIM for _ in range(DIM_ROWS))  # the row each covers
        self.dim_bits = 0  # a bit per menu row with a dim over it
        # Always shown (blank, they look like the felt under them, and cost
        # the same to draw): whether a line left them blank is not counted
        self.title = TextGrid(
            glyphs, TEXT_COLUMNS, 1, sheet.TEXT_YELLOW, felt, _MARGIN, blank_hides=False
        )
        self.footer = TextGrid(
            glyphs, TEXT_COLUMNS, 1, sheet.TEXT_GREY, felt, _MARGIN, blank_hides=False
        )
        lines = (self.title, TITLE_Y), (self.body, BODY_Y), (self.footer, FOOTER_Y)
        for line, y in lines + ((self.menu_body, BODY_Y),):
            line.grid.x = _LINE_X
            line.grid.y = y
        # The large lines: two at scale 2 (the title's name, "You won!"),
        # and the deal number's digits at scale 3 with the mark under the
        # one being set. Text grids, not adafruit_display_text's labels: a
        # label's glyphs are see-through tile grids over the page, two layers
        # to draw (the title took 88 ms to draw on a SAMD51, 102 with the
        # bus), it makes its whole text anew for a digit (42 ms), and its
        # code held 8.8 KB of the heap the sprite sheet needs.
        yellow = sheet.TEXT_YELLOW
        self.big = (Large(glyphs, _BIG_COLUMNS, 2, yellow, felt),
                    Large(glyphs, _BIG_COLUMNS, 2, yellow, felt))  # fmt: skip
        self.digits = Large(glyphs, DEAL_DIGITS, 3, yellow, felt)
        self.digits.place(DEAL_DIGITS_X, DEAL_DIGITS_Y)
        self.mark = Large(glyphs, 1, 2, yellow, felt)
        self.number = bytearray(DEAL_DIGITS)  # the digits shown, as bytes
        # The lines on the felt's colour first, at the bottom: everything else
        # is drawn over them (text last but for them: nothing, a bouncing
        # king included, ever covers a character).
        # Everything else, which few screens show, is in two groups of its
        # own, each hidden whole on the screens that show none of it:
        # displayio looks at each shown layer for every row of pixels it
        # draws (4 ms a screen of text on a SAMD51 for these twelve). The
        # menu's: the dimmed rows and the bar; the others: the cards, the
        # large lines and the deal number. The help's legend of glyphs is a
        # layer of its own, so its page shows none of the others.
        self.group = displayio.Group()
        for text in (self.title.grid, self.body.grid, self.footer.grid):
            self.group.append(text)
        self.menu_layers = displayio.Group()
        self.extras = displayio.Group()
        for group in (self.menu_layers, self.extras):
            self.group.append(group)
        self.menu_layers.append(self.menu_body.grid)
        for dim in self.dims:
            self.menu_layers.append(dim.grid)
        bar_colours = sheet.MENU_BAR, sheet.TEXT_WHITE
        self.bar = Bar(glyphs, MENU_BAR_FIRST, MENU_BAR_END, *bar_colours, BODY_X)
        self.menu_layers.append(self.bar.group)
        extras = self.extras
        self.cards = []
        for _ in range(4):
            card = displayio.TileGrid(
                sheet_bitmap,
                pixel_shader=palette,
                tile_width=CARD_W,
                tile_height=sheet.BAND_H,
                height=sheet.CARD_BANDS,
            )
            park(card)
            self.cards.append(card)
            extras.append(card)
        self.glyphs = displayio.TileGrid(
            sheet_bitmap,
            pixel_shader=palette,
            tile_width=sheet.SMALL_W,
            tile_height=sheet.SMALL_H,
            width=_GLYPH_CELLS,
            height=_GLYPH_ROWS,
            default_tile=sheet.small_tile(sheet.SMALL_NONE),
            y=BODY_Y + 3,
        )
        park(self.glyphs)  # until a glyph is shown
        self.group.append(self.glyphs)
        for large in self.big + (self.digits, self.mark):
            extras.append(large.group)
        self.clear()

    @property
    def fresh(self):
        """A new screen, cleared and not drawn yet: a body row it leaves
        unwritten is blanked as it is drawn (``TextGrid.clear``)."""
        return self.body.fresh

    def drawn(self):
        """The page is on the screen as it was written: from now on only what
        changes in its lines is written (``TextGrid.drawn``)."""
        for text in (self.title, self.body, self.footer):
            text.drawn()
        for large in self.big + (self.digits, self.mark):  # a digit of the deal number
            large.text.drawn()

    def clear(self):
        """An empty page in the usual colours (on the screen at ``draw``);
        the menu's rows kept, hidden. The menu's layers and the others that
        few screens show are put away only if their group showed since the
        last clear (every call that shows one shows its group)."""
        if not self.menu_layers.hidden:
            set_hidden(self.menu_layers, True)
            park(self.menu_body.grid)  # written while hidden (``menu``): no area to redraw
            for dim in self.dims:
                park(dim.grid)
            park(self.bar.group)
        self.body = self.plain_body
        if not self.extras.hidden:
            set_hidden(self.extras, True)
            for card in self.cards:
                park(card)
            for large in self.big + (self.digits, self.mark):
                large.clear()
        if not self.glyphs.hidden:
            park(self.glyphs)
            for cell in range(_GLYPH_CELLS * _GLYPH_ROWS):
                self.glyphs[cell] = sheet.small_tile(sheet.SMALL_NONE)
        self.title.clear()
        self.footer.clear()
        self.body.clear()
        self.body.color = sheet.TEXT_WHITE
        self.footer.color = sheet.TEXT_GREY
        self.dirty = True

    def show_menu_body(self):
        """The menu's own body on show, and its dimmed rows, as they were
        left (``clear`` hides them again); the calls below write it."""
        set_hidden(self.menu_layers, False)
        grid = self.menu_body.grid
        grid.x = _LINE_X
        set_hidden(grid, False)
        for k in range(DIM_ROWS):
            if self.dim_rows[k] != _NO_DIM:
                self.dims[k].grid.x = BODY_X
                set_hidden(self.dims[k].grid, False)
        self.body = self.menu_body
        self.dirty = True

    def title_line(self, text):
        """The title, centred (on the screen at ``draw``)."""
        self.title.set_line(0, text, max(0, (TEXT_COLUMNS - len(text)) // 2))

    def footer_line(self, text):
        """The footer, centred (on the screen at ``draw``)."""
        self.footer.set_line(0, text, max(0, (TEXT_COLUMNS - len(text)) // 2))

    def body_line(self, row, text, figure=b"", centred=False, column=0):
        """Body row ``row``: ``text`` (bytes) from ``column`` (or centred),
        and ``figure`` right-aligned at the end of the row (on the screen at
        ``draw``)."""
        if centred:
            column = max(0, (TEXT_COLUMNS - len(text)) // 2)
        self.body.set_line(row, text, column, figure)

    def show_lines(self, lines):
        """A page of ``lines`` as they are (strings; no words.txt): the
        title, body lines, the footer, drawn."""
        self.title_line(as_bytes(lines[0]))
        for row in range(len(lines) - 2):
            self.body_line(row, as_bytes(lines[row + 1]))
        self.footer_line(as_bytes(lines[-1]))
        self.draw()

    @property
    def dimmed(self):
        """A bit per body row on show in grey (the menu's, while it shows)."""
        return self.dim_bits if self.body is self.menu_body else 0

    def dim(self, row, grey):
        """The menu's body row ``row`` in grey (``grey``: it would do nothing
        now), its text as the row has it, or as written: at once, and only
        what changes (``DIM_ROWS`` rows at most, ``DIM_COLUMNS`` wide)."""
        rows, dims = self.dim_rows, self.dims
        k = 0
        while k < DIM_ROWS and rows[k] != row:
            k += 1
        if not grey:
            if k < DIM_ROWS:
                park(dims[k].grid)
                rows[k] = _NO_DIM
                self.dim_bits &= ~(1 << row)
            return
        if k == DIM_ROWS:  # a free one
            k = 0
            while k < DIM_ROWS and rows[k] != _NO_DIM:
                k += 1
            if k == DIM_ROWS:
                return
            rows[k] = row
            self.dim_bits |= 1 << row
            grid = dims[k].grid
            grid.x = BODY_X
            grid.y = BODY_Y + TEXT_LINE * row
        dim = dims[k]
        dim.set_line(0, self.body.line(row))  # cut at the dim's width
        dim.flush()
        set_hidden(dim.grid, False)
        self.dirty = True

    def draw(self):
        """Title, body and footer, as the calls above left them, into their
        text grids (only what changed is written)."""
        for text in (self.title, self.body, self.footer):
            text.flush()
        for large in self.big + (self.digits, self.mark):
            large.text.flush()
        self.dirty = True

    def place_big(self, index, x, y):
        """Large line ``index`` (0 or 1), its top edge at ``y``, centred on ``x``."""
        self.big[index].place(x, y, True)

    def big_line(self, index, text):
        """The text (bytes) of large line ``index``, where it was placed."""
        set_hidden(self.extras, False)
        self.big[index].show(text)
        self.dirty = True

    def show_number(self, number, digit):
        """The deal ``number``'s digits, zeros before it, the mark under
        ``digit`` (0 the first); only the digits that changed are written."""
        set_hidden(self.extras, False)
        digits = self.number
        for k in range(DEAL_DIGITS - 1, -1, -1):
            digits[k] = 48 + number % 10
            number //= 10
        self.digits.show(digits)
        self.mark.place(DEAL_DIGITS_X + DEAL_DIGIT_W * digit + DEAL_DIGIT_W // 2, DEAL_MARK_Y, True)
        self.mark.show(b"^")
        self.dirty = True

    def show_bar_text(self, row, text, column):
        """The bar behind body row ``row``, with ``text`` from ``column`` on
        it: the row's text, before the row is written (a menu page turned)."""
        set_hidden(self.menu_layers, False)
        self.bar.show_text(BODY_Y + TEXT_LINE * row, text, column)
        self.dirty = True

    def show_bar(self, row):
        """The bar behind body row ``row``."""
        set_hidden(self.menu_layers, False)
        self.bar.show(BODY_Y + TEXT_LINE * row, self.body, row)
        self.dirty = True

    def show_card(self, index, tile, x, y):
        set_hidden(self.extras, False)
        card = self.cards[index]
        sheet.put_card(card, tile)
        card.x = x
        card.y = y
        set_hidden(card, False)
        self.dirty = True

    def glyphs_beside(self, rows, glyphs):
        """Small glyphs (``sheet.SMALL_*``) beside the body: ``glyphs[k]``
        beside row ``rows[k]``, none where that is ``NO_ROW``; a column's
        way (``sheet.WAY_*``) takes two cells. One call for them all."""
        grid = self.glyphs
        for k in range(len(glyphs)):
            row = rows[k]
            if row != NO_ROW:
                glyph, cell = glyphs[k], _GLYPH_CELLS * 2 * row
                grid[cell] = sheet.small_tile(glyph)
                right = glyph + 1 if glyph >= sheet.WAY_UP else sheet.SMALL_NONE
                grid[cell + 1] = sheet.small_tile(right)
        grid.x = BODY_X
        set_hidden(grid, False)
        self.dirty = True
