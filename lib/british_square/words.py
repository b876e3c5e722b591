"""The words on the screens, read from ``words.txt`` on flash a line at a time.

The file is checked and indexed once, when the game starts
(``files.open_words``: where each text starts, how many body lines it has),
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
    """A game file on the drive that the game cannot use: ``str()`` of it is
    the one line the player reads (which file, and what mends it)."""

    def __init__(self, name):
        super().__init__(name + " is damaged: make deploy mends it")


def words_path():
    """``words.txt`` beside this module (``/lib/british_square/words.txt`` on a board)."""
    here = __file__.replace("\\", "/")
    return here[: here.rfind("/") + 1] + FILE


class Words:
    """The texts of ``words.txt``: ``show`` puts one on the text page; ``line``,
    ``row``, ``name_of_row``, ``rows`` and ``text`` read parts of one, once
    ``files.open_words`` has checked the file and filled in ``texts``.
    ``DamagedFile`` if the file is missing. ``keys`` names the buttons as the
    machine's adapter does (its ``key_names``), or is ``None``: the board's
    buttons, as the file names them."""

    keys = None

    def __init__(self, path=None):
        self.raw = bytearray(LONGEST)  # the line read, as the file has it
        self.at = 0  # where the next line starts in the file
        # the line read, once ``_next`` has taken it apart
        self.kind = 0
        self.name = ""  # its own name, "" for most
        self.left = ""  # the text, placeholders filled
        self.right = ""  # a body line's right column
        self.values = ()  # what fills the placeholders of the text under way
        self.used = 0  # and how many of them are used
        self.texts = {}  # name: (where its first line starts, how many body lines it has)
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

    def line_name(self, size):
        """The "[name]" after the first byte of the line read (``size`` bytes
        long), "" without one."""
        raw = self.raw
        if size < 2 or raw[1] != 91:  # "["
            return ""
        end = raw.find(b"]", 2, size)
        if end < 0:
            raise DamagedFile(FILE)
        return self.decoded(2, end)

    def decoded(self, start, end):
        return str(self.raw[start:end], "utf-8")

    def _begin(self, name, values=()):
        self.at = self.texts[name][0]
        self.values = values
        self.used = 0

    def _next(self):
        """Read the next line of the text begun: its ``kind``, ``name`` and
        texts, placeholders filled from the values (as far as they go).
        False at the end of the text."""
        size = self.read()
        if size < 0 or self.raw[0] == TEXT:  # the next text, or "@end"
            return False
        self._take(size)
        return True

    def _take(self, size):
        """Take the line read (``size`` bytes) apart: its ``kind``, ``name`` and texts."""
        self.kind = self.raw[0]
        self.name = self.line_name(size)
        start = 1 + (len(self.name) + 2 if self.name else 0)
        text = self.decoded(start, size)
        left, bar, right = text.partition("|")
        self.left = self._filled(left)
        self.right = self._filled(right) if bar else ""

    def _filled(self, text):
        if "{" not in text:
            return text
        values = self.values
        parts = text.split("{")
        text = parts[0]
        for part in parts[1:]:
            end = part.find("}")
            if end:  # "{A}": a button
                text += self.key(part[:end])
            elif self.used < len(values):
                text += str(values[self.used])
                self.used += 1
            else:
                text += "{}"
            text += part[end + 1 :]
        return text

    def key(self, button):
        """What the player presses for ``button`` ("A", "Start": the board's
        names) on this machine: ``keys``' name for it, else the button's own."""
        keys = self.keys
        return keys.get(button, button) if keys else button

    # ------------------------------------------------------- what screens ask

    def show(self, page, name, values=(), column=0, first=0, draw=True):
        """Put text ``name`` on the text page (``page.TextPage``): its title,
        footer and large lines where they go, its body lines from line
        ``first`` at ``column``, "{}" filled from ``values`` in order; the
        page drawn unless ``draw`` is false (the caller adds to it first)."""
        row = -first
        big = 0
        self._begin(name, values)
        raw = self.raw
        while True:  # ``_next`` inline: a row not on show needs no taking apart
            size = self.read()
            if size < 0 or raw[0] == TEXT:  # the next text, or "@end"
                break
            kind = raw[0]
            if (kind == BODY or kind == CENTRED) and not 0 <= row < page.rows:
                # a row not on show (the menu's, scrolled): its placeholders counted, no more
                self.used += raw.count(b"{}", 0, size)
                row += 1
                continue
            self._take(size)
            if kind == TITLE:
                page.title_line(self.left)
            elif kind == FOOTER:
                page.footer_line(self.left)
            elif kind == BIG:
                page.big_line(big, self.left)
                big += 1
            else:
                page.body_line(row, self.left, self.right, kind == CENTRED, column)
                row += 1
        if draw:
            page.draw()

    def line(self, name, line):
        """The text of the line named ``line`` in text ``name``."""
        self._begin(name)
        while self._next():
            if self.name == line:
                return self.left
        return ""

    def row(self, name, line):
        """The body row of the line named ``line`` in text ``name``."""
        row = 0
        self._begin(name)
        while self._next():
            if self.name == line:
                return row
            row += self.kind == BODY or self.kind == CENTRED
        return -1

    def name_of_row(self, name, row):
        """The name of body row ``row`` of text ``name`` ("" for a line without one)."""
        self._begin(name)
        while self._next():
            if self.kind == BODY or self.kind == CENTRED:
                if not row:
                    return self.name
                row -= 1
        return ""

    def rows(self, name):
        """How many body lines text ``name`` has."""
        return self.texts[name][1]

    def body(self, name):
        """The body lines of text ``name`` and the name of each ("" for a
        line without one): two lists, read in one pass."""
        lines, names = [], []
        self._begin(name)
        while self._next():
            if self.kind == BODY or self.kind == CENTRED:
                lines.append(self.left)
                names.append(self.name)
        return lines, names
