"""words.txt: the texts the screens read from flash, and the places the code
names them by."""

import re

import pytest
from conftest import LIB

from british_square.layout import BODY_ROWS, PANEL_COLUMNS, TEXT_COLUMNS
from british_square.words import RAW_LINE, Words

PACKAGE = LIB / "british_square"
WORDS = PACKAGE / "words.txt"


def sections(path=WORDS):
    """{name: [(kind, text), ...]} of words.txt, in file order."""
    found = {}
    lines = None
    for raw in path.read_text().splitlines():
        if raw.startswith("@"):
            lines = found.setdefault(raw[1:], [])
        elif lines is not None:
            lines.append((raw[:1], raw[1:]))
        else:
            assert raw.startswith("#"), "before the first text: {!r}".format(raw)
    return found


def body(name):
    """The body lines of text ``name``."""
    return [text for kind, text in sections()[name] if kind in "|~"]


def test_every_name_the_code_uses_is_that_text():
    names = list(sections())
    used = 0
    for module in PACKAGE.glob("*.py"):
        for constant, place in re.findall(r"_W_(\w+) = const\((\d+)\)", module.read_text()):
            assert names[int(place)] == constant.lower(), "{}: _W_{}".format(module.name, constant)
            used += 1
    assert used >= 10


def test_families_the_code_counts_through_are_in_order():
    names = list(sections())
    first = names.index("rules_british")
    assert names[first : first + 3] == ["rules_british", "rules_american", "rules_union"]
    panel = names.index("panel")
    assert names[panel : panel + 3] == ["panel", "panel_stuck", "panel_over"]


def test_every_line_is_of_a_known_kind_and_fits():
    longest = {"{}": "99999"}  # a number, or the longest name filled in
    for name, lines in sections().items():
        rows = 0
        for kind, text in lines:
            assert kind in "^_*~|", "{}: {!r}".format(name, kind + text)
            filled = text.replace("{}", "American" if "Rules" in text else longest["{}"])
            width = 13 if kind == "*" else TEXT_COLUMNS
            if name.startswith("panel") or name == "rule_names":
                width = PANEL_COLUMNS
            assert len(filled) <= width, "{}: {!r}".format(name, text)
            rows += kind in "~|"
        assert rows <= BODY_ROWS or name == "menu", name  # the menu scrolls


def test_the_reader_finds_each_text(tmp_path):
    words = Words(str(WORDS))
    assert len(words.starts) == len(sections())
    for place, name in enumerate(sections()):
        assert words.lines(place) == len(body(name))
        for index, text in enumerate(body(name)):
            if "{}" not in text:
                assert words.line_text(place, index) == text


def test_placeholders_are_filled_in_order(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("@one\n|a {} b {}\n|{}!\n@two\n|x\n")
    words = Words(str(path))
    grid = type("Grid", (), {})()
    seen = []
    grid.put_line = lambda row, line, size, centred=False, column=0: seen.append(
        (row, bytes(line[:size]).decode())
    )
    words.write(grid, 0, (1, "two", 3))
    assert seen == [(0, "a 1 b two"), (1, "3!")]


def test_every_line_of_the_file_fits_the_read_buffer():
    for raw in WORDS.read_bytes().splitlines(keepends=True):
        assert len(raw) <= RAW_LINE, raw


def test_an_overlong_line_is_cut_and_the_next_one_still_read(tmp_path):
    path = tmp_path / "words.txt"
    long = "|" + "x" * (3 * RAW_LINE) + "\n"
    path.write_text("@one\n" + long + "|after\n@two\n|" + "y" * (RAW_LINE - 2) + "\n|last")
    words = Words(str(path))
    assert words.lines(0) == 2
    assert words.line_text(0, 0) == "x" * 40  # cut to the longest line a screen shows
    assert words.line_text(0, 1) == "after"
    assert words.line_text(1, 0) == "y" * 40
    assert words.line_text(1, 1) == "last"  # the file's last line, without a newline


@pytest.mark.parametrize("name", ["help_keys", "help_keys_union"])
def test_help_says_what_fills_a_space(name):
    lines = body(name)
    assert ("any card" in lines[-1]) == (name == "help_keys_union")
