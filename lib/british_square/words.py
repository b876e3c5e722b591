"""The words on the screens, read from ``words.txt`` on flash a line at a time.

A screen's text never sits on the heap: it goes from the file through one
small line buffer into the character grids of the text page or the panel.
The file is indexed once (where each text starts, how many body lines it
has); the game names texts by their place in the file (the ``_W_*``
constants where they are used; tests/test_words.py checks them).
"""

from british_square.cards import const

FILE = "words.txt"
_LINE = const(40)  # longest line, placeholders filled in
_SECTION = const(64)  # "@"
_COMMENT = const(35)  # "#"
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
        self.path = path or words_path()
        self.line = bytearray(_LINE)
        self.starts = []  # where each text's first line starts in the file
        self.body_lines = bytearray(32)  # and how many body lines it has
        with open(self.path, "rb") as f:
            at = 0
            for raw in f:
                if raw[0] == _SECTION:
                    self.starts.append(at + len(raw))
                elif self.starts and raw[0] in (_BODY, _CENTRED):
                    self.body_lines[len(self.starts) - 1] += 1
                at += len(raw)

    def _lines(self, text, values):
        """Each line of ``text`` in turn, read into ``self.line`` with its
        "{}" filled from ``values`` (as far as they go): yields its kind and
        its length."""
        line = self.line
        used = 0
        with open(self.path, "rb") as f:
            f.seek(self.starts[text])
            for raw in f:
                kind = raw[0]
                if kind == _SECTION:
                    return
                size = 0
                i = 1
                end = len(raw)
                while i < end and raw[i] != _NEWLINE and raw[i] != 13:
                    byte = raw[i]
                    if byte == _OPEN and i + 1 < end and raw[i + 1] == 125 and used < len(values):
                        for char in str(values[used]):
                            if size < _LINE:
                                line[size] = ord(char)
                                size += 1
                        used += 1
                        i += 2
                        continue
                    if size < _LINE:
                        line[size] = byte
                        size += 1
                    i += 1
                yield kind, size

    def line_text(self, text, index):
        """Body line ``index`` of ``text`` as a string (a name to fill in elsewhere)."""
        found = ""
        for kind, size in self._lines(text, ()):  # read to the end: the file closes
            if kind == _BODY or kind == _CENTRED:
                if not index:
                    found = bytes(self.line[:size]).decode()
                index -= 1
        return found

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
        for kind, size in self._lines(text, values):
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
        for kind, size in self._lines(text, values):
            if kind == _BODY or kind == _CENTRED:
                if 0 <= at < count:
                    grid.put_line(row + at, line, size, kind == _CENTRED)
                at += 1
