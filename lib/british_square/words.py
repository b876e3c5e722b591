"""The words on the screens, read from ``words.txt`` on flash a line at a time.

The file is checked and indexed once, when the game starts
(``start.open_words``: where each text starts, how many body lines it has),
and kept open: a text
is read when a screen shows it, a line at a time through one buffer made at
start-up, so no screen's words stay on the heap longer than the screen. The
game asks for a text by its name (``show(page, "title", values)``) and for
the lines it picks by theirs (``line("on_off", "on")``); ``files.NEEDED``
lists them all, and a file that lacks one or holds another is damaged. A
button in a text ("{A}: play") is named as the player's machine names it:
the board's own on a board, the key on the desktop (``Words.keys``).
"""

from british_square.cards import const

FILE = "words.txt"
LONGEST = const(80)  # bytes in a line of the file, its newline included
_HALF = const(48)  # bytes of a line's column composed, its values filled in (more are cut)
NO_ROW = const(255)  # ``put_lines``: a line the text does not have
ROW_BITS = const(8)  # a text's ``place`` keeps its rows in this many bits
ROWS_MOST = const(255)  # so a text has this many body lines at most
END = b"@end"  # the file's last line: a file without it was cut short

# The first byte of a line: where it goes.
TEXT = const(64)  # "@": a text starts, its name follows
TITLE = const(94)  # "^"
FOOTER = const(95)  # "_"
BIG = const(42)  # "*"
CENTRED = const(126)  # "~": a body line, centred
BODY = const(124)  # "|": a body line; a second "|" starts its right column
KINDS = b"^_*~|"


class DamagedFile(Exception):
    """A game file on the drive that the game cannot use: ``str()`` of it
    says which (``damage.line`` adds what mends it on this machine)."""

    def __init__(self, name):
        super().__init__(name + " is damaged")


def place(at, rows):
    """What ``Words.texts`` keeps of a text: where it starts (``at``) and
    its body lines (``rows``, at most ``ROWS_MOST``), in one small int."""
    return at << ROW_BITS | rows


def words_path():
    """``words.txt`` beside this module (``/lib/british_square/words.txt`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + FILE


class Words:
    """The texts of ``words.txt``: ``show`` puts one on the text page; ``line``,
    ``rows`` and ``put_lines`` read parts of one,
    once ``start.open_words`` has checked the file and filled in ``texts``.
    ``DamagedFile`` if the file is missing. ``keys`` names the buttons as the
    machine's adapter does (its ``key_names``), or is ``None``: the board's
    buttons, as the file names them.

    A line is read into one buffer and composed into another, its
    placeholders filled, as bytes from start to screen: no string is made
    for it (a new string costs a search of every name the VM has interned:
    about 0.1 ms on a SAMD51, ten of them a line)."""

    keys = None

    def __init__(self, path=None):
        self.raw = bytearray(LONGEST)  # the line read, as the file has it
        self.raw_view = memoryview(self.raw)
        self.at = 0  # where the next line starts in the file
        # the line read, once ``_next`` has taken it apart
        self.kind = 0
        self.name_start = self.name_end = 0  # its name, raw[name_start:name_end] ("" for most)
        self.out = bytearray(2 * _HALF)  # its columns, placeholders filled: each a half
        self.out_view = memoryview(self.out)
        # the line composed (``_compose``): its text, and a body line's right
        # column (memoryviews of ``out``, or of ``raw`` for a line as it is, or a value)
        self.left = self.right = b""
        self.values = ()  # what fills the placeholders of the text under way
        self.used = 0  # and how many of them are used
        # name: where its first line starts, and how many body lines it has,
        # as one small int (``place``): a tuple each would hold 16 B of heap
        self.texts = {}
        try:
            self.file = open(path or words_path(), "rb")
        except OSError:
            raise DamagedFile(FILE) from None

    # ------------------------------------------------------------- reading

    def read(self):
        """The line from ``self.at`` into ``self.raw``: its length, newline
        (and a carriage return) left out, and ``self.at`` moved past it; -1
        at the end of the file. A line longer than ``LONGEST`` is damage."""
        f, raw = self.file, self.raw
        f.seek(self.at)
        got = f.readinto(raw)
        if not got:
            return -1
        size = raw.find(b"\n", 0, got)  # in C (a byte at a time in Python: 20 ms a screen)
        if size < 0:
            size = got
        if size == got and got == LONGEST:
            raise DamagedFile(FILE)
        self.at += size + 1 if size < got else size
        if size and raw[size - 1] == 13:
            size -= 1
        return size

    def name_end_at(self, size):
        """Where the line read's "[name]" ends (its "]"), 0 without one."""
        raw = self.raw
        if size < 2 or raw[1] != 91:  # "["
            return 0
        end = raw.find(b"]", 2, size)
        if end < 0:
            raise DamagedFile(FILE)
        return end

    def decoded(self, start, end):
        return str(self.raw[start:end], "utf-8")

    def _begin(self, name, values=()):
        self.at = self.texts[name] >> ROW_BITS
        self.values = values
        self.used = 0

    def _next(self):
        """Read the next line of the text begun: its ``kind`` and its name's
        place (``_compose`` makes its text); its size, or -1 at the end of
        the text."""
        size = self.read()
        raw = self.raw
        if size < 0 or raw[0] == TEXT:  # the next text, or "@end"
            return -1
        self.kind = raw[0]
        if size > 1 and raw[1] == 91:  # "[": a named line (few are)
            self.name_start, self.name_end = 2, self.name_end_at(size)
        else:
            self.name_start = self.name_end = 0
        return size

    def _named(self, line):
        """Is the line taken named ``line`` (bytes)?"""
        start, end = self.name_start, self.name_end
        return end - start == len(line) and self.raw.find(line, start, end) == start

    def _note_row(self, lines, rows, row):
        """The line read is body row ``row``: if its name is one of ``lines``,
        that row into ``rows`` at the name's place (found in C)."""
        name = self.raw[self.name_start : self.name_end]
        if name in lines:
            rows[lines.index(name)] = row

    def _compose(self, size):
        """The line read (``size`` bytes, ``_next``'s) composed: ``left``, and a
        body line's right column after its first "|", ``right``, each with
        its placeholders filled from the values (as far as they go)."""
        raw = self.raw
        at = self.name_end + 1 if self.name_end else 1
        bar = raw.find(b"|", at, size)
        end = size if bar < 0 else bar
        # the usual cases written out (a call is most of their cost): a text
        # as the file has it, and a right column that is one "{}", a figure
        if raw.find(b"{", at, end) < 0:
            self.left = self.raw_view[at:end]
        else:
            self.left = self._fill(at, end, 0)
        if bar < 0:
            self.right = b""
        elif raw[bar + 1] == 123 and raw[bar + 2] > 96 and raw.find(b"}", bar) == size - 1:
            self.right = self._value()  # one value, the whole column: "{}", "{won}"
        else:
            self.right = self._fill(bar + 1, size, _HALF)

    def _fill(self, at, end, into):
        """``raw[at:end]`` with its placeholders filled: as the file has it
        when it has none, else composed into ``out`` from ``into``, ``_HALF``
        bytes at most (more are cut): the text up to each "{", then its
        value, each copied here (a call a piece was most of a line's cost)."""
        raw, view, filled = self.raw, self.raw_view, into
        mark = raw.find(b"{", at, end)
        if mark < 0:
            return view[at:end]
        out, limit = self.out, into + _HALF
        while True:
            text = view[at:end] if mark < 0 else view[at:mark]
            size = min(len(text), limit - filled)
            out[filled : filled + size] = text if size == len(text) else text[:size]
            filled += size
            if mark < 0:
                return self.out_view[into:filled]
            close = raw.find(b"}", mark, end)  # in pairs (the file is checked at start-up)
            # "{}" or "{name}" (lower case): the next value; "{A}": a button
            value = self._value() if raw[mark + 1] > 96 else self._button(mark + 1, close)
            size = min(len(value), limit - filled)
            out[filled : filled + size] = value if size == len(value) else value[:size]
            filled += size
            at = close + 1
            mark = raw.find(b"{", at, end)

    def _value(self):
        """The next value for a "{}", as bytes; "{}" again when there are none left."""
        values = self.values
        if self.used >= len(values):
            return b"{}"
        value = values[self.used]
        self.used += 1
        if type(value) is int:
            return b"%d" % value
        return value.encode() if type(value) is str else value

    def _button(self, start, end):
        """The button named ``raw[start:end]`` as this machine names it."""
        keys = self.keys
        if not keys:  # the board's own name, as the file has it
            return self.raw_view[start:end]
        return self.key(self.decoded(start, end)).encode()

    def key(self, button):
        """What the player presses for ``button`` ("A", "Start": the board's
        names) on this machine: ``keys``' name for it, else the button's own."""
        keys = self.keys
        return keys.get(button, button) if keys else button

    # ------------------------------------------------------- what screens ask

    def show(self, page, name, values=(), column=0, first=0, draw=True, lines=(), rows=None):
        """Put text ``name`` on the text page (``page.TextPage``): its title,
        footer and large lines where they go, its body lines from line
        ``first`` at ``column``, "{}" filled from ``values`` in order (ints,
        bytes or strings); the page drawn unless ``draw`` is false (the
        caller adds to it first). The body row of each of ``lines`` (names,
        bytes) into ``rows`` (a bytearray; ``NO_ROW`` where the text has none)."""
        for k in range(len(lines)):
            rows[k] = NO_ROW
        row = -first
        big = 0
        # a new screen's rows left unwritten are blanked as it is drawn: its
        # blank lines (a screen's spacing, most of some) need nothing more
        fresh, on_page = page.fresh, page.rows
        # what each line calls, looked up once (a lookup a line is 0.1 ms a screen)
        next_line, compose, body_line = self._next, self._compose, page.body_line
        self._begin(name, values)
        size = next_line()
        while size >= 0:
            kind = self.kind
            if (kind == BODY or kind == CENTRED) and (
                not 0 <= row < on_page or (fresh and size == 1)
            ):  # not on show (the menu's, scrolled): its placeholders counted, no more
                # (a named value, "{moves}", is never in a text that scrolls)
                self.used += self.raw.count(b"{}", 0, size)
                row += 1
                size = next_line()
                continue
            if size > 1:
                compose(size)
            else:  # a blank line: a title's or footer's, or on a screen written over
                self.left = self.right = b""
            if kind == BODY or kind == CENTRED:
                body_line(row, self.left, self.right, kind == CENTRED, column)
                if self.name_end and lines:
                    self._note_row(lines, rows, row)
                row += 1
            elif kind == TITLE:
                page.title_line(self.left)
            elif kind == FOOTER:
                page.footer_line(self.left)
            else:  # BIG
                page.big_line(big, self.left)
                big += 1
            size = next_line()
        if draw:
            page.draw()

    def line(self, name, line, values=()):
        """The text of the line named ``line`` in text ``name``, "{}" filled
        from ``values``: bytes (b"" if there is no such line)."""
        want = line.encode()
        self._begin(name, values)
        size = self._next()
        while size >= 0:  # only the line wanted is composed: the others' "{}" take no value
            if self._named(want):
                self._compose(size)
                return bytes(self.left)
            size = self._next()
        return b""

    def starts(self, name):
        """Where each body line of text ``name`` starts in the file, in
        order: for ``line_at``, which reads one without a search."""
        starts = []
        self._begin(name)
        at = self.at
        while self._next() >= 0:
            if self.kind == BODY or self.kind == CENTRED:
                starts.append(at)
            at = self.at
        return starts

    def line_at(self, at, values=()):
        """The line that starts at ``at`` in the file (``starts``), "{}"
        filled from ``values``: a memoryview, good until the next read."""
        self.at = at
        self.values = values
        self.used = 0
        size = self._next()
        if size < 0:
            return b""
        self._compose(size)
        return self.left

    def rows(self, name):
        """How many body lines text ``name`` has."""
        return self.texts[name] & ROWS_MOST

    def put_lines(self, grid, name, lines, rows):
        """Text ``name``'s body lines into ``grid`` (a ``textgrid.TextGrid``),
        a row each from the first, the rows after them blank; the row of
        each of ``lines`` (names, bytes) into ``rows`` (a bytearray;
        ``NO_ROW`` where the text has none)."""
        for k in range(len(lines)):
            rows[k] = NO_ROW
        row = 0
        self._begin(name)
        size = self._next()
        while size >= 0 and row < grid.rows:
            if self.kind == BODY or self.kind == CENTRED:
                self._compose(size)
                grid.set_line(row, self.left)
                if self.name_end:
                    self._note_row(lines, rows, row)
                row += 1
            size = self._next()
        for blank in range(row, grid.rows):
            grid.set_line(blank)
