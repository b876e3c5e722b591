"""Key scripts: the words that drive the game in tests, under the VM and headless.

Used by the desktop and VM adapters only: it lives in ``hw/`` and never goes
to a board. A script is words separated by white space (spaces, tabs, line
ends) or commas:

- an action (``up down left right a b select start``, or ``u d l r sel``),
  optionally ``*N`` to repeat it (N from 1 to 9999);
- ``shot:NAME`` saves the screen as NAME (letters, digits, ``-``, ``_``,
  ``.``; not starting with a dot, at most 40 characters);
- ``wait:MS`` lets the game run on (a flash, the celebration) for MS
  milliseconds (0 to 999999).

``--keys`` and ``--keys-file`` are read by one tokenizer (``WordReader``), a
word at a time, so a long script never sits whole on the heap; every word is
checked (``harness.script_source``) before the game starts. Under the VM
this module is part of what the heap holds, so it keeps to what play needs.
"""

import os

from british_square.controls import (
    DOWN,
    LEFT,
    NONE,
    RIGHT,
    SELECT,
    UP,
    ticks_add,
    ticks_diff,
)

# The actions (``controls``' numbers) as key scripts name them, in order.
ACTION_NAMES = (
    "up", "down", "left", "right", "a", "b", "select", "start", "quit", "hint", "redo", "new",
    "restart", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
)  # fmt: skip

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


_SHORT = {"u": UP, "d": DOWN, "l": LEFT, "r": RIGHT, "sel": SELECT}
_SEPARATORS = b" \t\n\r\x0b\x0c,"
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
_MAX_WORD = const(64)
# What a word is (``parse_word``).
ACTION = const(0)
SHOT = const(1)
WAIT = const(2)


class WordReader:
    """The words of ``text`` and then of the file at ``path``, one at a time."""

    def __init__(self, text="", path=None):
        self.text = text.encode() + b" " if text else b""  # a word ends with the text
        self.at = 0
        self.file = _open_file(path) if path else None
        self.chunk = bytearray(64)
        self.chunk_end = 0
        self.chunk_at = 0
        self.word = bytearray(_MAX_WORD)
        self.count = 0  # words read so far

    def _byte(self):
        """The next byte of the script, or -1 at its end."""
        if self.at < len(self.text):
            self.at += 1
            return self.text[self.at - 1]
        if self.chunk_at >= self.chunk_end:
            if self.file is None:
                return -1
            self.chunk_end = self.file.readinto(self.chunk) or 0
            self.chunk_at = 0
            if not self.chunk_end:
                self.close()
                return -1
        self.chunk_at += 1
        return self.chunk[self.chunk_at - 1]

    def next_word(self):
        """The next word as a string, or ``None`` at the end."""
        word = self.next_bytes()
        return None if word is None else word.decode()

    def next_bytes(self):
        """The next word as bytes (no string made), or ``None`` at the end."""
        byte = self._byte()
        while byte >= 0 and byte in _SEPARATORS:
            byte = self._byte()
        if byte < 0:
            return None
        size = 0
        while byte >= 0 and byte not in _SEPARATORS:
            problem = "is too long" if size == _MAX_WORD else None
            if byte > 126 or byte < 32:
                problem = "has a byte that is not printable ASCII"
            if problem:
                self.close()
                raise ValueError("word {} of the key script {}".format(self.count + 1, problem))
            self.word[size] = byte
            size += 1
            byte = self._byte()
        self.count += 1
        return bytes(self.word[:size])

    def close(self):
        if self.file is not None:
            self.file.close()
            self.file = None


def _open_file(path):
    """The key file, opened to read; ``ValueError`` (one line) when it is not
    a regular file (a folder; a FIFO, which would wait for a writer for ever)
    or cannot be read."""
    try:
        if os.stat(path)[0] & 0o170000 != 0o100000:  # S_IFMT, S_IFREG
            raise ValueError("the key file {!r} is not a regular file".format(path))
        return open(path, "rb")
    except OSError as error:
        raise ValueError("cannot read the key file {!r}: {}".format(path, error.strerror)) from None


# Every action's name between bars, to find a plain word (most of a script:
# "down", "a") by searching bytes, making no string.
_PLAIN = ("|" + "|".join(ACTION_NAMES) + "|").encode()


def plain_action(word):
    """The action a plain word (bytes: an action's full name, lower case, no
    count) names, or ``NONE`` for any other word."""
    at = _PLAIN.find(word) if 124 not in word else -1
    while at > 0:
        end = at + len(word)
        if _PLAIN[at - 1] == 124 and _PLAIN[end] == 124:  # "|" on both sides
            return _PLAIN.count(b"|", 0, at) - 1
        at = _PLAIN.find(word, at + 1)
    return NONE


def parse_word(word):
    """``(ACTION, action, count)``, ``(SHOT, name, 1)`` or ``(WAIT, ms, 1)`` for one
    script word; ``ValueError`` naming it if it is none of those."""
    kind, low, high = ACTION, 1, 9999
    name, star, digits = word.lower().partition("*")
    if word.startswith("shot:"):
        name = word[5:]
        if name and name[0] != "." and len(name) <= 40 and all(c in _NAME_CHARS for c in name):
            return SHOT, name, 1
        name = ""
    elif word.startswith("wait:"):
        kind, low, high, star, digits = WAIT, 0, 999999, True, word[5:]
    if star:  # a number: ASCII digits only, in range
        if 0 < len(digits) <= 6 and all("0" <= c <= "9" for c in digits):
            count = int(digits)
            if low <= count <= high:
                return (kind, count, 1) if kind == WAIT else _action(name, word, count)
        raise ValueError("bad key {!r} in the key script: {} to {}".format(word, low, high))
    return _action(name, word, 1)


def _action(name, word, count):
    if name in _SHORT:
        return ACTION, _SHORT[name], count
    if name in ACTION_NAMES:
        return ACTION, ACTION_NAMES.index(name), count
    raise ValueError("bad key {!r} in the key script".format(word))


class ScriptPlayer:
    """Plays a key script one action per call, the way a person presses: only
    when the game has taken the last one and shown all it does (``settled``,
    the app's, set by the adapter once the game has started: a hint's search
    or auto-play's cards go on over several turns, and a press would stop
    them). ``save_shot(name)`` is called for ``shot:`` words; ``finished``
    turns true after the last word."""

    def __init__(self, source, save_shot):
        self.reader = WordReader(source[0], source[1])  # checked (``harness.script_source``)
        self.save_shot = save_shot
        self.action = NONE  # the action of the current word, and how many more times
        self.left = 0
        self.wait_until = None
        self.finished = False
        self.settled = None

    def next_action(self, now):
        """The next action of the script, or ``NONE`` (waiting, or at the end)."""
        if self.settled is not None and not self.settled():
            return NONE
        if self.wait_until is not None:
            if ticks_diff(now, self.wait_until) < 0:
                return NONE
            self.wait_until = None
        while not self.left:
            word = self.reader.next_bytes()
            if word is None:
                self.finished = True
                return NONE
            action = plain_action(word)
            if action != NONE:
                self.action, self.left = action, 1
                break
            kind, value, count = parse_word(word.decode())
            if kind == ACTION:
                self.action, self.left = value, count
            elif kind == WAIT:
                self.wait_until = ticks_add(now, value)
                return NONE
            else:
                self.save_shot(value)
        self.left -= 1
        return self.action
