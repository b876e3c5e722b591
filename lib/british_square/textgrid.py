"""Text grids: lines of text as tiles over the built-in font's glyphs.

A ``TextGrid`` is a tile grid a character a tile, written by
``terminalio.Terminal`` (C on a board) and only where a line changed; its
text is bytes, never strings: a new string costs a search of every name the
VM has interned (about 0.1 ms on a SAMD51), a byte copy nothing like it.
The text page (``page``) and the cards' panel (``scene``) are made of them;
docs/memory.md has what they cost in heap and time.
"""

import displayio
import terminalio

from british_square.cards import const
from british_square.layout import OFF_SCREEN, TEXT_COLUMNS

_SPACE = const(32)
_BLANK = b" " * TEXT_COLUMNS  # a row of blanks, as wide as the widest grid's
_BLANK_VIEW = memoryview(_BLANK)
# What the text grids compose their lines in, and the terminal's cursor
# moved (row, column): one of each for all of them.
_ROW = bytearray(TEXT_COLUMNS)
_ROW_VIEW = memoryview(_ROW)
_DIGITS = bytearray(5)
_DIGITS_VIEW = memoryview(_DIGITS)
# A write to a grid's terminal: the cursor moved (row, column), the run
# that changed after it.
_CURSOR_SIZE = const(8)  # "\x1b[RR;CCH"
_OUT = bytearray(b"\x1b[00;00H" + b" " * TEXT_COLUMNS)
_OUT_VIEW = memoryview(_OUT)


def set_hidden(layer, hidden):
    """Hide or show ``layer`` (a tile grid or a group), only if that changes:
    setting ``hidden`` again makes displayio redraw a hidden layer's former
    area at the next refresh after a full redraw (its record of what it
    drew is kept by a full redraw and used once), and a shown one whole."""
    if layer.hidden != hidden:
        layer.hidden = hidden


def park(layer):
    """Hide ``layer`` and move it off the screen (``layout.OFF_SCREEN``):
    where it waits to be shown again, it leaves no area to redraw."""
    set_hidden(layer, True)
    layer.x = OFF_SCREEN


def as_bytes(text):
    """``text`` (bytes, a memoryview of them, or a string) as something a
    text grid copies: a string is encoded (made as bytes: never interned)."""
    return text.encode() if type(text) is str else text


class Glyphs:
    """A font whose glyphs are equal cells of one bitmap (``terminalio.FONT``):
    the bitmap, a cell's size, the blank's tile, and a terminal (C on a
    board: ``terminalio.Terminal``) that writes text into a grid of them."""

    def __init__(self, font):
        self.font = font
        self.bitmap = font.bitmap
        self.width, self.height = font.get_bounding_box()[:2]
        self.tiles = bytearray(95)  # of printable ASCII, from the space
        for code in range(32, 127):
            glyph = font.get_glyph(code)
            self.tiles[code - 32] = glyph.tile_index if glyph is not None else 0
        self.blank = self.tiles[0]

    def tile(self, code):
        """The tile of the character ``code`` (a byte; a blank's for one not printable ASCII)."""
        code -= 32
        return self.tiles[code] if 0 <= code < 95 else self.blank

    def terminal(self, grid):
        """A terminal writing into ``grid``: the font's own where it brings
        one (the desktop's, ``desktop.font``), else CircuitPython's."""
        make = getattr(self.font, "terminal", None)
        return make(grid) if make else terminalio.Terminal(grid, self.font)


class TextGrid:
    """``rows`` lines of ``columns`` characters in ``colour``: a tile grid
    over the font's glyphs (``Glyphs``), on ``background`` or, when it is
    ``None``, see-through, after ``margin`` blank columns.

    ``shown`` holds what its tiles show, a byte a character. ``set_line``
    and ``put`` compose a row in Python, copying bytes, and write through
    the terminal (C) only the run that differs, from its first changed
    character to its last: displayio redraws just those tiles, and no
    bitmap is drawn (a label redraws its whole text: 25 ms a 26-column line
    on a SAMD51). ``clear`` leaves every row to be blanked at ``flush``,
    unless something is written there first, so a new screen writes only
    what differs from the last. A background hides what is under the grid
    from displayio as well as from the eye: a see-through grid over the
    felt costs the renderer both layers."""

    def __init__(
        self, glyphs, columns, rows, colour, background=None, margin=0, blank_hides=True, spare=True
    ):
        self.glyphs = glyphs
        # at most 9 rows, a margin under 9: the terminal's cursor is moved to a
        # row and a column of one digit each (``_write_whole``)
        if rows > 9 or margin > 8:
            raise ValueError
        self.columns = columns
        self.rows = rows
        self.margin = margin
        self.blank_hides = blank_hides  # hidden while it has no text (else always shown)
        self.spare = spare
        palette = displayio.Palette(2)
        if background is None:
            palette.make_transparent(0)
        else:
            palette[0] = background
        palette[1] = colour
        self.palette = palette
        self.colour = colour
        # A column more than the text's: a line that fills its columns leaves
        # the terminal's cursor in the grid, so it never wraps to the next
        # row (nor, from the last, scrolls the grid). Without one (``spare``
        # false: the grid must end where its text does) the last column's
        # tile is set directly instead.
        self.grid = displayio.TileGrid(
            glyphs.bitmap,
            pixel_shader=palette,
            width=margin + columns + (1 if spare else 0),
            height=rows,
            tile_width=glyphs.width,
            tile_height=glyphs.height,
            default_tile=glyphs.blank,
        )
        self.terminal = glyphs.terminal(self.grid)
        self.shown = bytearray(_BLANK[:columns] * rows)  # what its tiles show, row after row
        self.shown_view = memoryview(self.shown)
        self.stale = 0  # a bit per row to blank at ``flush`` (``clear``)
        self.blanks = (1 << rows) - 1  # a bit per row known to be blank
        # From ``clear`` (a new screen, drawn whole) until ``drawn``, a row is
        # written whole, not compared with what shows: the comparison, a
        # character at a time in Python, is most of a line's cost.
        self.fresh = False
        self.grid.hidden = blank_hides  # no text: displayio skips it

    @property
    def color(self):
        return self.colour

    @color.setter
    def color(self, colour):
        if colour != self.colour:
            self.colour = colour
            self.palette[1] = colour

    def line(self, row):
        """Row ``row`` as it shows (bytes; blank where ``clear`` left it to be blanked)."""
        if self.stale >> row & 1:
            return _BLANK[: self.columns]
        at = row * self.columns
        return self.shown[at : at + self.columns]

    def clear(self):
        """Every row to be blank at ``flush``, unless written before then:
        a new screen, written whole until ``drawn``. Rows blank already
        are left as they are (8 rows written blank were 6 ms on a SAMD51)."""
        self.stale = ((1 << self.rows) - 1) & ~self.blanks
        self.fresh = True

    def drawn(self):
        """What the grid shows is on the screen: from now on only what
        changes is written."""
        self.fresh = False

    def set_line(self, row, text=b"", column=0, figure=b""):
        """Row ``row`` blank but for ``text`` (bytes) from ``column`` and
        ``figure`` (bytes) right-aligned at the row's end, over the text
        where they meet; cut at the grid's width."""
        if not (text or figure):
            if self.blanks >> row & 1:
                return  # blank already (a screen's blank lines: 1.3 ms each on a SAMD51)
            self.blanks |= 1 << row
        if self.fresh:
            self._write_whole(row, text, column, figure)
        else:
            self._compose(row, text, column, figure)
        if text or figure:
            self.blanks &= ~(1 << row)
        else:
            self.blanks |= 1 << row

    def _compose(self, row, text, column, figure):
        """``set_line`` once the grid is drawn: the row composed in
        ``_ROW`` and only what differs written."""
        composed = _ROW
        composed[:] = _BLANK
        size = min(len(text), self.columns - column)  # ``_place``'s, written out: a line
        if size > 0:  # of a screen is ~1 ms on a SAMD51, a fifth of it calls
            composed[column : column + size] = text if size == len(text) else text[:size]
        if figure:
            self._place(max(0, self.columns - len(figure)), figure)
        self._write(row)

    def put(self, row, column, text):
        """``text`` (bytes) over row ``row`` from ``column``, cut at the grid's width."""
        _ROW[:] = _BLANK
        if not self.stale >> row & 1:
            at = row * self.columns
            _ROW[: self.columns] = memoryview(self.shown)[at : at + self.columns]
        self._place(column, text)
        self._write(row)

    def put_number(self, row, column, value, width):
        """``value`` (an int, 0 or more) right-aligned in the ``width``
        columns from ``column`` of row ``row``, blanks before it (its last
        digits where it is wider). Digits made one by one: no string."""
        for place in range(width):  # the units first, leftwards (``width``: 5 at most)
            _DIGITS[width - 1 - place] = 48 + value % 10 if value or not place else _SPACE
            value //= 10
        if self.fresh or self.stale >> row & 1:
            self.put(row, column, _DIGITS_VIEW[:width])
            return
        # only the digits that differ from those shown, found among them
        # (``put`` compares the whole row, a character at a time); written
        # through the terminal, which knows where its rows are in the grid
        shown, at = self.shown, row * self.columns + column
        first, last = 0, width - 1
        while first < width and _DIGITS[first] == shown[at + first]:
            first += 1
        if first == width:
            return
        while _DIGITS[last] == shown[at + last]:
            last -= 1
        self._write_run(row, column + first, _DIGITS_VIEW[first : last + 1])
        if self.blank_hides:
            set_hidden(self.grid, False)  # a number has a digit: the grid is not blank

    def flush(self):
        """Blank the rows ``clear`` left to blank."""
        stale = self.stale
        if stale:
            for row in range(self.rows):
                if stale >> row & 1:
                    self.set_line(row)

    def _write_run(self, row, column, run):
        """``run`` (a memoryview of bytes) shown from ``column`` of ``row``:
        the cursor moved there (the terminal counts from 1) and the run
        written, in one write."""
        self.blanks &= ~(1 << row)  # perhaps not blank: ``clear`` blanks it
        out = _OUT
        size = len(run)
        out[_CURSOR_SIZE : _CURSOR_SIZE + size] = run
        at = row * self.columns + column
        self.shown[at : at + size] = run
        row += 1
        column += self.margin + 1
        out[2], out[3] = 48 + row // 10, 48 + row % 10
        out[5], out[6] = 48 + column // 10, 48 + column % 10
        self.terminal.write(_OUT_VIEW[: _CURSOR_SIZE + size])

    def _write_whole(self, row, text, column, figure):
        """``set_line`` on a new screen: the row composed in ``shown`` and
        written whole, in one write to the terminal."""
        self.stale &= ~(1 << row)
        columns, shown = self.columns, self.shown
        at = row * columns
        end = at + columns
        shown[at:end] = _BLANK_VIEW[:columns]
        size = min(len(text), columns - column)
        if size > 0:
            shown[at + column : at + column + size] = text if size == len(text) else text[:size]
        if figure:
            size = min(len(figure), columns)
            shown[end - size : end] = figure if size == len(figure) else figure[-size:]
        out = _OUT  # the cursor's row and column (from 1): one digit each (``__init__``)
        out[3] = 49 + row
        out[5], out[6] = 48, 49 + self.margin
        out[_CURSOR_SIZE : _CURSOR_SIZE + columns] = self.shown_view[at:end]
        self.terminal.write(_OUT_VIEW[: _CURSOR_SIZE + columns])
        if self.blank_hides:
            set_hidden(self.grid, shown.count(b" ") == len(shown))

    def _place(self, column, text):
        """``text`` into ``_ROW`` from ``column``, cut at the grid's width."""
        size = min(len(text), self.columns - column)
        if size > 0:
            _ROW[column : column + size] = text if size == len(text) else text[:size]

    def _write(self, row):
        """``_ROW`` as row ``row``: the run that differs from what shows, written."""
        columns, composed = self.columns, _ROW  # a local: each global read is a search
        self.stale &= ~(1 << row)
        shown = self.shown
        at = row * columns
        # a grid as wide as ``_ROW`` compares the row whole, in C (``find``
        # takes bytes, not a memoryview of fewer)
        if columns == len(composed) and shown.find(composed, at, at + columns) == at:
            return  # as it shows
        first = 0
        while first < columns and composed[first] == shown[at + first]:
            first += 1
        if first == columns:
            return
        last = columns - 1
        while composed[last] == shown[at + last]:
            last -= 1
        if last == columns - 1 and not self.spare:  # the last column: its tile set here
            self.grid[self.margin + last, row] = self.glyphs.tile(composed[last])
            shown[at + last] = composed[last]
            last -= 1
        if last >= first:
            self._write_run(row, first, _ROW_VIEW[first : last + 1])
        if self.blank_hides:
            # a grid with no text is hidden: displayio skips it (its
            # background, if any, is the felt's colour, which shows instead);
            # only a change is set, since showing a grid that shows redraws all of it
            set_hidden(self.grid, shown.count(b" ") == len(shown))
