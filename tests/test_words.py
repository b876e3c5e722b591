"""words.txt: the texts the screens read from flash, the names the code asks
for them by, and what the reader does with a file that is not the game's."""

import ast
import binascii
import importlib
import random
import re
import sys

import pytest
from conftest import HW, ROOT
from words_text import PACKAGE, WORDS, body, sections

from british_square import piles, results, scene, screens, start
from british_square.files import NEEDED, TEXTS_AT_MOST
from british_square.layout import BODY_ROWS, FIGURE_COLUMNS, PANEL_COLUMNS, TEXT_COLUMNS
from british_square.start import open_words
from british_square.words import LONGEST, ROWS_MOST, DamagedFile, place

DAMAGED = "words.txt is damaged"  # damage.line adds what mends it
sys.path.insert(0, str(HW))  # hw/ is not a package
from desktop import KEY_NAMES  # noqa: E402  (the desktop's names of the buttons)

sys.path.insert(0, str(ROOT / "tools"))
import words_index  # noqa: E402

BUTTON = re.compile(r"{([A-Z][^}]*)}")  # "{A}": a button, named as the machine names it
VALUE = re.compile(r"{([a-z_]*)}")  # "{moves}": a value the code names; "{}": a named line's own


def buttons_named():
    """Every button a text of words.txt names ("{A}" ...)."""
    return {
        button
        for lines in sections().values()
        for _, _, text, figure in lines
        for button in BUTTON.findall(text + figure)
    }


def widest(text):
    """``text`` with each button as the longer of its names, the board's or the desktop's."""
    return BUTTON.sub(lambda found: max(found[1], KEY_NAMES[found[1]], key=len), text)


def named(name):
    """The names of the lines of text ``name`` that have one."""
    return [line for _, line, _, _ in sections()[name] if line]


def string_constants():
    """Every string constant in the game's modules but files.py (which lists NEEDED)."""
    found = set()
    for module in PACKAGE.glob("*.py"):
        if module.name != "files.py":
            for node in ast.walk(ast.parse(module.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
                elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
                    found.add(node.value.decode("latin-1"))  # names the code compares as bytes
    return found


def calls_to_words():
    """(method, the text's name, the line's name) of every call
    ``words.METHOD(...)`` or ``self.words.METHOD(...)`` in the game's
    modules: each name the string the call gives, None where it gives a
    variable (a table the test below checks) or nothing."""
    methods = {"show": 1, "line": 0, "rows": 0, "text": 0}
    found = []
    for module in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            owner = getattr(owner, "id", getattr(owner, "attr", ""))
            if node.func.attr == "menu" and owner == "self" and node.args:  # a menu row's name
                arg = node.args[0]
                found.append(("row", "menu", arg.value if isinstance(arg, ast.Constant) else None))
            elif node.func.attr in methods and owner == "words":
                at = methods[node.func.attr]
                names = [
                    arg.value if isinstance(arg, ast.Constant) else None
                    for arg in node.args[at : at + 2]
                ]
                if node.func.attr not in ("line", "row"):
                    names = names[:1]
                found.append((node.func.attr, *(names + [None, None])[:2]))
    return found


def test_the_file_holds_the_texts_and_named_lines_the_reader_needs_and_no_others():
    texts = sections()
    assert list(texts) == [name for name, _ in NEEDED]
    for name, lines in NEEDED:
        assert named(name) == list(lines), name


def test_every_name_the_code_asks_for_is_in_the_file():
    texts = sections()
    calls = calls_to_words()
    assert len(calls) >= 20
    every_line = {line for name in texts for line in named(name)}
    for method, text, line in calls:
        if text is not None:
            assert text in texts, (method, text)
        if line is not None:
            assert line in (named(text) if text is not None else every_line), (method, line)
    # the names the code picks from tables, by rule set, notice or glyph
    rule_texts = tuple("rules_" + name for name in piles.RULE_NAMES)
    for name in rule_texts + (scene.PANEL_NUMBERS, scene.PANEL_STUCK, scene.PANEL_ENDED):
        assert name in texts
    assert named("rule_names") == list(piles.RULE_NAMES)
    assert set(screens.NOTICE_LINES[1:]) <= set(named("title_words"))
    marks = [line.decode() for line in screens.MARK_LINES]
    assert set(named("help_marks_piles")) == set(marks)


def test_every_text_and_named_line_in_the_file_is_used():
    used = string_constants()
    for name, lines in NEEDED:
        assert name in used, name
        for line in lines:
            assert line in used or line in piles.RULE_NAMES, (name, line)


def test_every_line_is_of_a_known_kind_and_fits():
    longest = "99999"  # a number, or a name filled in
    for name, lines in sections().items():
        rows = 0
        for kind, _, text, figure in lines:
            assert kind in "^_*~|", "{}: {!r}".format(name, kind + text)
            filled = VALUE.sub("American" if "Rules" in text else longest, widest(text))
            width = 13 if kind == "*" else TEXT_COLUMNS
            if name.startswith("panel") or name == "rule_names":
                width = PANEL_COLUMNS
            assert len(filled) <= width, "{}: {!r}".format(name, text)
            if figure:  # figures are short: counts, kilobytes, a board's name
                figure = VALUE.sub("999", widest(figure))
                assert kind == "|" and len(figure) <= FIGURE_COLUMNS, (name, figure)
                assert len(filled) + 1 + len(figure) <= TEXT_COLUMNS, (name, text, figure)
            rows += kind in "~|"
        # the menu scrolls; a list of words ("title_words" ...) is picked from, never shown whole
        assert rows <= BODY_ROWS or name == "menu" or name.endswith("_words"), name


def test_every_line_of_the_file_fits_the_read_buffer():
    for raw in WORDS.read_bytes().splitlines(keepends=True):
        assert len(raw) <= LONGEST, raw


def test_the_reader_finds_each_text_and_each_named_line():
    words = open_words(str(WORDS))
    for name, lines in sections().items():
        texts = [(text, line) for kind, line, text, _ in lines if kind in "|~"]
        assert words.rows(name) == len(texts), name
        named = tuple(line.encode() for _, line in texts if line)
        rows = bytearray(len(named))
        words.show(Page(), name, lines=named, rows=rows, first=0)  # each named line's row
        for row, (text, line) in enumerate(texts):
            if line and row < BODY_ROWS:
                assert rows[named.index(line.encode())] == row, (name, line)
            if line and "{}" not in text:
                assert words.line(name, line) == text.encode()


def test_the_shipped_files_index_is_in_the_code_and_taken_without_reading_it_through(
    tmp_path, monkeypatch
):
    assert words_index.main(["--check"]) == 0, "run tools/words_index.py"
    data = WORDS.read_bytes()
    size, crc, texts = start.SHIPPED_WORDS
    assert (size, crc) == (len(data), binascii.crc32(data))
    assert [name for name, _, _ in texts] == [name for name, _ in NEEDED]
    read_through = []
    # the checker as the start-up imports it (a test before may have let it go)
    monkeypatch.setattr(importlib.import_module("british_square.files"), "check_words",
                        read_through.append)  # fmt: skip
    copy = tmp_path / "words.txt"
    copy.write_bytes(data)
    assert open_words(str(copy)).texts == {name: place(at, rows) for name, at, rows in texts}
    assert not read_through
    copy.write_bytes(data.replace(b"Deal number", b"Deal Number", 1))
    open_words(str(copy))  # another file, of the same size: read through
    assert len(read_through) == 1
    monkeypatch.undo()
    assert open_words(str(copy)).texts == open_words(str(WORDS)).texts  # the same places


def said(text):
    """What the reader hands the page (bytes, or a view of them) as a string."""
    return bytes(text).decode()


class Page:
    """What ``Words.show`` writes, kept as it comes (as strings)."""

    rows = BODY_ROWS
    fresh = False  # written over: a blank line blanks its row

    def __init__(self):
        self.seen = []

    def title_line(self, text):
        self.seen.append(("title", said(text)))

    def footer_line(self, text):
        self.seen.append(("footer", said(text)))

    def big_line(self, index, text):
        self.seen.append(("big", index, said(text)))

    def body_line(self, row, text, figure, centred, column):
        self.seen.append((row, said(text), said(figure), centred, column))

    def draw(self):
        self.seen.append("drawn")


class Grid:
    """What ``Words.put_lines`` writes into a text grid, a row each."""

    rows = 4

    def __init__(self):
        self.rows_text = ["?"] * self.rows

    def set_line(self, row, text=b""):
        self.rows_text[row] = said(text)


def test_show_puts_each_line_where_it_goes_placeholders_in_order():
    words = open_words(str(WORDS))
    page = Page()
    words.show(page, "stats", ("Union", "3 of 12 (25%)", 16))
    assert page.seen[0] == ("title", "Statistics: Union")
    assert page.seen[1] == (0, "Won", "3 of 12 (25%)", False, 0)
    assert page.seen[2] == (1, "Cards home: best", "16", False, 0)
    assert page.seen[3] == (2, "Cards home: average", "{}", False, 0)  # no value left
    assert page.seen[-2:] == [("footer", "</> rules    B: back"), "drawn"]
    page = Page()
    words.show(page, "menu", (), 3, first=2, draw=False)  # two rows down, from column 3
    assert page.seen[1] == (0, "Deal number", "", False, 3)
    assert len([s for s in page.seen if isinstance(s[0], int)]) == BODY_ROWS
    assert "drawn" not in page.seen
    page = Page()
    words.show(page, "won")
    assert page.seen[0] == ("big", 0, "You won!")
    assert (6, "{} in {}", "", True, 0) in page.seen  # at WON_LINE_ROW, under the kings
    assert (7, "{}", "", True, 0) in page.seen  # the best bettered, or "All 104 cards home!"
    assert (1, "", "", True, 0) in page.seen  # written over: its blank lines blank their rows
    page = Page()
    page.fresh = True  # a new screen: its unwritten rows are blanked as it is drawn
    words.show(page, "won")
    assert [s[0] for s in page.seen if isinstance(s[0], int)] == [6, 7]  # where they were
    grid, rows = Grid(), bytearray(4)
    words.put_lines(grid, "panel", (b"stock", b"home", b"moves", b"deal"), rows)
    assert grid.rows_text == ["Stock", "Home", "Moves", "Deal"] and list(rows) == [0, 1, 2, 3]
    words.put_lines(grid, "panel_stuck", (b"stock", b"home", b"moves", b"deal"), rows)
    assert grid.rows_text == ["No more", "moves.", "Home", "Start:menu"]
    assert list(rows) == [255, 2, 255, 255]  # the lines it has not: none


def test_every_button_the_texts_name_has_a_name_on_the_desktop():
    assert buttons_named() == set(KEY_NAMES)
    assert {"A", "B", "Select", "Start"} <= buttons_named()


def test_a_button_is_named_as_the_machine_names_it_the_boards_without_names():
    words = open_words(str(WORDS))
    page = Page()
    words.show(page, "confirm_abandon", ("12 moves", 3))
    assert page.seen[-2:] == [("footer", "A: yes    B: no"), "drawn"]
    assert (5, " B: no, back to it", "", False, 0) in page.seen
    assert words.key("Start") == "Start"
    words.keys = KEY_NAMES  # as the desktop's adapter gives them
    page = Page()
    words.show(page, "confirm_abandon", ("12 moves", 3))
    assert page.seen[-2:] == [("footer", "Z: yes    X: no"), "drawn"]
    assert (1, " 12 moves played,", "", False, 0) in page.seen  # the values still in order
    assert (2, " 3 of 104 cards home.", "", False, 0) in page.seen
    assert (5, " X: no, back to it", "", False, 0) in page.seen
    assert words.key("Start") == "Esc" and words.key("Stick/pad") == "Arrows"
    page = Page()
    words.show(page, "title", ("", "", "7", "British", "play"))
    assert page.seen[-2] == ("footer", "Z: play    Esc: menu")


@pytest.mark.parametrize("name", ["help_keys", "help_keys_union"])
def test_help_says_what_fills_a_space(name):
    lines = body(name)
    assert ("any card" in lines[-1]) == (name == "help_keys_union")


# ------------------------------------------------------ a damaged words.txt


def damaged(tmp_path, data):
    """Does ``Words`` refuse ``data`` as words.txt, saying so in one line?"""
    path = tmp_path / "words.txt"
    path.write_bytes(data)
    with pytest.raises(DamagedFile) as refused:
        open_words(str(path))
    return str(refused.value) == DAMAGED


def test_a_missing_or_empty_file_is_damaged(tmp_path):
    with pytest.raises(DamagedFile, match=DAMAGED):
        open_words(str(tmp_path / "words.txt"))
    assert damaged(tmp_path, b"")


def test_a_file_cut_short_anywhere_is_damaged(tmp_path):
    data = WORDS.read_bytes()
    assert data.endswith(b"\n@end\n")
    for end in list(range(0, len(data) - 5, 97)) + [len(data) - 5, len(data) - 2]:
        assert damaged(tmp_path, data[:end]), end
    open_words(str(WORDS))  # the whole file is not


def test_random_bytes_are_damaged(tmp_path):
    rng = random.Random(7)
    for size in (1, 50, 3000, 100_000):
        assert damaged(tmp_path, bytes(rng.randrange(256) for _ in range(size)))


def test_more_texts_than_the_game_has_are_damaged(tmp_path):
    data = WORDS.read_bytes()
    extra = b"".join(b"@more%d\n|x\n" % i for i in range(TEXTS_AT_MOST + 1))
    assert damaged(tmp_path, data.replace(b"@end\n", extra + b"@end\n"))
    assert damaged(tmp_path, data.replace(b"@end\n", b"@more\n|x\n@end\n"))  # one unknown


def test_a_text_of_more_body_lines_than_its_place_keeps_is_damaged(tmp_path):
    data = WORDS.read_bytes()
    at = data.index(b"@stats\n") + len(b"@stats\n")
    most = tmp_path / "most.txt"  # the stats' 8 body lines and more, to the most kept
    most.write_bytes(data[:at] + b"|x\n" * (ROWS_MOST - 8) + data[at:])
    assert open_words(str(most)).rows("stats") == ROWS_MOST
    assert damaged(tmp_path, data[:at] + b"|x\n" * (ROWS_MOST - 7) + data[at:])


@pytest.mark.parametrize(
    "old, new",
    [
        (b"|[sound]Sound: {}\n", b""),  # a named line missing
        (b"|[sound]Sound", b"|[sounds]Sound"),  # renamed
        (b"|[sound]Sound", b"|[sound Sound"),  # its name not closed
        (b"|Won|{won}\n", b"|Won|{won}\n" * 2 + b"@stats\n"),  # a text twice
        (b"^Deal number\n", b"Deal number\n"),  # a line of no known kind
        (b"^Deal number\n", b"^\xc3\xa9Deal number\n"),  # a character the font lacks
        (b"^Deal number\n", b"^Deal number {\n"),  # a brace that is no placeholder
        (b"^Deal number\n", b"^Deal number {A\n"),  # a button's name not closed
        (b"^Deal number\n", b"^Deal number A}\n"),  # nor opened
        (b"^Deal number\n", b"^Deal number {{A}}\n"),  # one inside another
        (b"^Deal number\n", b"^" + b"M" * LONGEST + b"\n"),  # too long to read
        (b"^Deal number\n", b"^Deal number\n\n"),  # an empty line
        (b"@end\n", b"@end\n|more\n"),  # something after the end
    ],
)
def test_a_changed_file_is_damaged(tmp_path, old, new):
    data = WORDS.read_bytes()
    assert old in data
    assert damaged(tmp_path, data.replace(old, new, 1))


def test_a_count_of_moves_says_move_for_one():
    assert [results.moves_text(n) for n in (0, 1, 2, 265)] == [
        b"0 moves", b"1 move", b"2 moves", b"265 moves",
    ]  # fmt: skip


def value_names(lines):
    """The values ``lines`` (a text's, or one line's: ``sections``' tuples)
    take, in order: each "{name}", and "" for a named line's own "{}"."""
    return [value for _, _, text, figure in lines for value in VALUE.findall(text + figure)]


def test_a_value_is_named_unless_it_is_a_named_lines_own():
    # "{}" only as the one value of a line with a name (a menu row's setting)
    for name, lines in sections().items():
        for _, line, text, figure in lines:
            values = VALUE.findall(text + figure)
            if "" in values:
                assert line and values == [""], (name, text)


def words_calls():
    """(module, call, text names, values node, enclosing function) for each
    call of a Words ``show`` or ``line`` in the game's modules that passes values."""
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for call in ast.walk(function):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                    continue
                owner = ast.unparse(call.func.value)
                if call.func.attr not in ("show", "line") or not owner.endswith("words"):
                    continue
                at = 1 if call.func.attr == "show" else 0
                values = call.args[2] if len(call.args) > 2 else None  # after page or line
                values = values or next((k.value for k in call.keywords if k.arg == "values"), None)
                if call.func.attr == "line" and (
                    len(call.args) < 3 or not isinstance(call.args[1], ast.Constant)
                ):
                    continue  # no values, or a menu row's own (checked apart)
                if values is None:
                    continue
                text = call.args[at]
                found.append((path, call, text_names(function, text), values, function))
    return found


def text_names(function, node):
    """The texts ``node`` (a call's text argument) may name: a string, or a
    name bound in ``function`` to strings (each branch's)."""
    if isinstance(node, ast.Constant):
        return [node.value]
    assert isinstance(node, ast.Name), ast.unparse(node)
    names = []
    for assign in ast.walk(function):
        if isinstance(assign, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in assign.targets
        ):
            for value in ast.walk(assign.value):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    names.append(value.value)
    return names


def tuple_of(function, values, call):
    """The tuple literal ``values`` is, or was last bound to before ``call``."""
    if isinstance(values, ast.Tuple):
        return values
    assert isinstance(values, ast.Name), ast.unparse(values)
    bound = [
        a.value
        for a in ast.walk(function)
        if isinstance(a, ast.Assign)
        and a.lineno < call.lineno
        and any(isinstance(t, ast.Name) and t.id == values.id for t in a.targets)
    ]
    assert bound and isinstance(bound[-1], ast.Tuple), ast.unparse(values)
    return bound[-1]


def comment_names(path, first, last):
    """The "{name}"s of the comments on lines ``first`` to ``last`` of ``path``, in order."""
    import io
    import tokenize

    names = []
    with open(path) as f:
        for token in tokenize.generate_tokens(io.StringIO(f.read()).readline):
            if token.type == tokenize.COMMENT and first <= token.start[0] <= last:
                names += VALUE.findall(token.string)
    return names


def test_every_text_gets_exactly_the_values_it_names():
    # each value the code gives a text carries the text's name for it, in a
    # comment beside it ("# {moves}"), in the text's order: a text and its
    # values cannot drift apart unnoticed (the board fills them in order)
    texts = sections()
    checked = set()
    for path, call, names, values, function in words_calls():
        given = tuple_of(function, values, call)
        said = comment_names(path, given.lineno, given.end_lineno)
        assert names, (path.name, call.lineno)
        for name in names:
            lines = texts[name]
            if call.func.attr == "line":
                line = call.args[1].value
                lines = [entry for entry in lines if entry[1] == line]
            wanted = value_names(lines)
            where = "{}:{} {}".format(path.name, call.lineno, name)
            assert len(given.elts) == len(wanted), where
            if wanted != [""]:  # a named line's own value needs no name
                assert said == wanted, where
                checked.add(name)
    named_texts = {name for name, lines in texts.items() if any(value_names(lines))}
    assert named_texts <= checked, sorted(named_texts - checked)


def test_a_text_that_scrolls_names_no_value_in_its_body():
    # a body line off the page counts its values by their "{}" alone
    # (``Words.show``): a named one there would shift every value after it
    for name, lines in sections().items():
        if sum(kind in "~|" for kind, _, _, _ in lines) > BODY_ROWS:
            for kind, _, text, figure in lines:
                if kind in "~|":
                    assert not [v for v in VALUE.findall(text + figure) if v], (name, text)
