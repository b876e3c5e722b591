"""Key scripts: the words that drive the game in tests, the VM and headless runs.

Loaded by the VM and desktop adapters only, never on a board. A script is
words separated by spaces or commas: an action name (``up down left right a
b select start``, or ``u d l r``, ``sel``), optionally ``*N`` to repeat it;
``shot:NAME`` saves the screen there; ``wait:MS`` lets the game run on (a
flash, the celebration) for that many milliseconds.
"""

from british_square.controls import (
    ACTION_NAMES,
    DOWN,
    LEFT,
    NONE,
    RIGHT,
    SELECT,
    UP,
    ticks_add,
    ticks_diff,
)

_SHORT = {"u": UP, "d": DOWN, "l": LEFT, "r": RIGHT, "sel": SELECT}


def parse_word(word):
    """A list of what one script word stands for: action numbers or a ``shot:``/``wait:`` word.
    An unknown word raises ``ValueError`` naming it."""
    if word.startswith("shot:"):
        return [word]
    if word.startswith("wait:"):
        int(word[5:])
        return [word]
    name, _, count = word.lower().partition("*")
    if name in _SHORT:
        action = _SHORT[name]
    elif name in ACTION_NAMES:
        action = ACTION_NAMES.index(name)
    else:
        raise ValueError("bad key {!r} in the key script".format(word))
    return [action] * (int(count) if count else 1)


def parse_script(script):
    """The whole script as one list (see ``parse_word``); checks every word."""
    out = []
    for word in script.replace(",", " ").split():
        out += parse_word(word)
    return out


def script_from_options(options, default=""):
    """The key script of ``--keys`` (else ``default``) followed by the file named
    by ``--keys-file``; every word is checked before the game starts."""
    script = options.get("keys") or default
    if options.get("keys-file"):
        with open(options["keys-file"]) as f:
            script += " " + f.read()
    parse_script(script)
    return script


class ScriptPlayer:
    """Plays a key script one action per call, the way a person presses: only
    when the game has taken the last one. The script stays text and is read
    a word at a time, to keep the heap for the game. ``save_shot(name)`` is
    called for ``shot:`` words; ``finished`` turns true after the last word."""

    def __init__(self, script, save_shot):
        self.script = script.replace(",", " ")
        self.at = 0  # where the next word starts
        self.pending = []  # what the current word still stands for
        self.save_shot = save_shot
        self.wait_until = None
        self.finished = False

    def _next_item(self):
        while not self.pending:
            script = self.script
            start = self.at
            while start < len(script) and script[start] == " ":
                start += 1
            if start >= len(script):
                return None
            end = script.find(" ", start)
            end = len(script) if end < 0 else end
            self.at = end
            self.pending = parse_word(script[start:end])
        return self.pending.pop(0)

    def next_action(self, now):
        """The next action of the script, or ``NONE`` (waiting, or at the end)."""
        if self.wait_until is not None:
            if ticks_diff(now, self.wait_until) < 0:
                return NONE
            self.wait_until = None
        while True:
            item = self._next_item()
            if item is None:
                self.finished = True
                return NONE
            if not isinstance(item, str):
                return item
            if item.startswith("wait:"):
                self.wait_until = ticks_add(now, int(item[5:]))
                return NONE
            self.save_shot(item[5:])
