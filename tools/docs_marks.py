"""Figures a tool writes into the docs: between a page's
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` marks, the text the tool
made from what it counted or measured (``publish_survey.py --write-docs``,
``bundle.py --write-docs``), and what a test reads back to check it."""

from __future__ import annotations

import re
from pathlib import Path


def marks(name: str) -> tuple[str, str]:
    """The start and end marks of ``name``."""
    return "<!-- {}:start -->".format(name), "<!-- {}:end -->".format(name)


def _pattern(name):
    start, end = marks(name)
    return re.compile(re.escape(start) + "(.*?)" + re.escape(end), re.S)


def marked(page: str | Path, name: str) -> list[str]:
    """The texts between ``name``'s marks in the file ``page``, in order."""
    return _pattern(name).findall(Path(page).read_text(encoding="utf-8"))


def write_marked(page: str | Path, name: str, text: str) -> None:
    """Put ``text`` between every pair of ``name``'s marks in the file
    ``page``; ValueError (nothing written) if it has none."""
    start, end = marks(name)
    content = Path(page).read_text(encoding="utf-8")
    content, found = _pattern(name).subn(lambda _match: start + text + end, content)
    if not found:
        raise ValueError("{}: no {} ... {} marks".format(page, start, end))
    Path(page).write_text(content, encoding="utf-8")
