"""words.txt read as plain text, for the tests: its texts by name, and a
text's body lines as the screens show them (placeholders left in)."""

import re

from conftest import LIB

PACKAGE = LIB / "british_square"
WORDS = PACKAGE / "words.txt"


def sections(path=WORDS):
    """{name: [(kind, line name, text, figure), ...]} of words.txt, in file
    order ("@end", the last line, left out)."""
    found = {}
    lines = None
    for raw in path.read_text().splitlines():
        if raw.startswith("@"):
            lines = found.setdefault(raw[1:], [])
        elif lines is not None:
            kind, text, name = raw[:1], raw[1:], ""
            if text.startswith("["):
                name, text = text[1:].split("]", 1)
            text, _, figure = text.partition("|")
            lines.append((kind, name, text, figure))
        else:
            assert raw.startswith("#"), "before the first text: {!r}".format(raw)
    assert found.pop("end") == [], "@end is the last line"
    return found


def body(name):
    """The body lines of text ``name``, without their names and figures,
    each button as a board names it ("{A}" is "A"; a value's "{}" or
    "{moves}" stays)."""
    return [
        re.sub(r"{([A-Z][^}]*)}", r"\1", text)
        for kind, _, text, _ in sections()[name]
        if kind in "|~"
    ]
