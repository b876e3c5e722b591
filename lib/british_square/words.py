"""The words on the screens, read from ``words.txt`` on flash a line at a time.

A screen's text never sits on the heap: it goes from the file through one
small line buffer into the character grids of the text page or the panel.
The file is indexed once (where each text starts, how many body lines it
has) and kept open, so showing a text allocates nothing: each line is read
with ``readinto`` into a buffer made at start-up (a file opened per text,
and a ``bytes`` per line, were short-lived blocks that split the heap).
The game names texts by their place in the file (the ``_W_*`` constants
where they are used; tests/test_words.py checks them).
"""

from british_square.cards import const

FILE = "words.txt"
_LINE = const(40)  # longest line, placeholders filled in
RAW_LINE = const(80)  # longest line of the file, its newline included
_SECTION = const(64)  # "@"
_NEWLINE = const(10)
_TITLE = const(94)  # "^"
_FOOTER = const(95)  # "_"
_BIG = const(42)  # "*"
_CENTRED = const(126)  # "~"
_BODY = const(124)  # "|"
_OPEN = const(123)  # "{"


def words_path():
    """``words.txt`` beside this module (``/lib/british_square/words.txt`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + FILE


class Words:
    """The texts of ``words.txt``: ``show`` puts one on the text page, ``write`` into a grid."""

    def __init__(self, path=None):
        self.line = bytearray(_LINE)  # the line read, placeholders filled in
        self.raw = bytearray(RAW_LINE)  # the line as the file has it
        self.kind = 0  # of the line read: its first byte
        self.size = 0  # and its length in ``line``
        self.at = 0  # where the next line starts in the file
        self.used = 0  # placeholders filled so far in this text
        self.starts = []  # where each text's first line starts in the file
        self.body_lines = bytearray(32)  # and how many body lines it has
        self.file = open(path or words_path(), "rb")
        at = 0
        for raw in self.file:
            if raw[0] == _SECTION:
                self.starts.append(at + len(raw))
            elif self.starts and raw[0] in (_BODY, _CENTRED):
                self.body_lines[len(self.starts) - 1] += 1
            at += len(raw)

    def _begin(self, text):
        self.at = self.starts[text]
        self.used = 0

    def _next(self, values):
        """Read the next line of the text begun into ``self.line`` with its
        "{}" filled from ``values`` (as far as they go), and set ``kind`` and
        ``size``. False at the end of the text."""
        f, raw, line = self.file, self.raw, self.line
        f.seek(self.at)
        end = f.readinto(raw)
        if not end or raw[0] == _SECTION:
            return False
        newline = 0
        while newline < end and raw[newline] != _NEWLINE:
            newline += 1
        self.at += newline + 1
        size = 0
        i = 1
        while i < newline and raw[i] != 13:
            byte = raw[i]
            if byte == _OPEN and i + 1 < newline and raw[i + 1] == 125 and self.used < len(values):
                # bytes, not the str's characters: iterating a str interns
                # each character as a name, for good (see textgrid.write)
                for code in str(values[self.used]).encode():
                    if size < _LINE:
                        line[size] = code
                        size += 1
                self.used += 1
                i += 2
                continue
            if size < _LINE:
                line[size] = byte
                size += 1
            i += 1
        self.kind = raw[0]
        self.size = size
        if newline == RAW_LINE:  # longer than a line may be: the rest is cut
            self._skip_rest()
        return True

    def _skip_rest(self):
        f, raw = self.file, self.raw
        self.at -= 1  # no newline was read
        while True:
            got = f.readinto(raw)
            i = 0
            while i < got and raw[i] != _NEWLINE:
                i += 1
            self.at += i
            if i < got:
                self.at += 1
                return
            if not got:
                return

    def line_text(self, text, index):
        """Body line ``index`` of ``text`` as a string (a name to fill in elsewhere)."""
        self._begin(text)
        while self._next(()):
            if self.kind == _BODY or self.kind == _CENTRED:
                if not index:
                    return bytes(self.line[: self.size]).decode()
                index -= 1
        return ""

    def lines(self, text):
        """How many body lines ``text`` has."""
        return self.body_lines[text]

    def show(self, page, text, values=(), column=0, first=0):
        """Put ``text`` on the text page: its title, footer and large lines
        where they go, its body lines from ``first`` at ``column``."""
        body = page.body
        line = self.line
        row = -first
        big = 0
        self._begin(text)
        while self._next(values):
            kind, size = self.kind, self.size
            if kind == _TITLE:
                page.title.put_line(0, line, size, True)
            elif kind == _FOOTER:
                page.footer.put_line(0, line, size, True)
            elif kind == _BIG:
                page.big_line(big, line, size)
                big += 1
            elif kind == _BODY or kind == _CENTRED:
                if 0 <= row < body.rows:
                    body.put_line(row, line, size, kind == _CENTRED, column)
                row += 1
        page.dirty = True

    def write(self, grid, text, values=(), row=0, first=0, count=255):
        """Put the body lines of ``text`` into ``grid`` from ``row``: ``count``
        of them from line ``first``."""
        line = self.line
        at = -first
        self._begin(text)
        while self._next(values):
            kind, size = self.kind, self.size
            if kind == _BODY or kind == _CENTRED:
                if 0 <= at < count:
                    grid.put_line(row + at, line, size, kind == _CENTRED)
                at += 1
