"""Names every part of tools/deploy.py shares: the game's layout on the drive,
the error that stops a deploy, and the reporter that prints or collects."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import uf2

ROOT = Path(__file__).resolve().parents[1]  # the repository: the default game tree
GAME_PACKAGE = "british_square"
SUPPORTED_BOARDS = tuple(uf2.UF2_BOARDS)
MANIFEST = ".british_square_manifest.json"
TEMP_SUFFIX = ".bsq-new"
ENTRY = "code.py"
ASSET_SUFFIXES = {".bmp", ".pcf", ".bdf", ".wav", ".txt", ".bin"}

# Top folders deploy writes into (besides code.py at the root): a manifest
# entry anywhere else was not written by this tool.
GAME_FOLDERS = ("lib", "hw")


def quoted(path: object) -> str:
    """A path the user named, as an error says it: quoted as Python writes it,
    so that a line break in it never splits the line (and never cut short)."""
    return repr(str(path))


class DeployError(Exception):
    """A refusal or a failure, with a message that says what to do."""

    status = 1  # the command's exit status


class SetupError(DeployError):
    """This computer lacks what the command needs (a library the board
    imports, CircuitPython's mpy-cross): the computer needs setting up, so
    the exit status is usage's."""

    status = 2


class MissingLibraryError(SetupError):
    """The board would fail to import a library this computer does not have."""


class Reporter:
    """Progress and warnings: printed for people, collected for --json."""

    def __init__(self, as_json: bool = False, stream: TextIO | None = None) -> None:
        self.as_json = as_json
        self.stream = stream or sys.stdout
        self.warnings = []
        self.notes = []

    def say(self, message: str) -> None:
        if not self.as_json:
            print(message, file=self.stream, flush=True)

    def note(self, message: str) -> None:
        self.notes.append(message)
        self.say("note: " + message)

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.say("warning: " + message)


@dataclass
class Item:
    """One file to have on the drive."""

    path: str  # posix, relative to the drive root
    data: bytes
    kind: str

    @property
    def digest(self):
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Plan:
    items: list
    writes: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    removals: list = field(default_factory=list)  # drive paths
    replaced: list = field(default_factory=list)  # not ours, overwritten or removed (--replace)
    kept: list = field(default_factory=list)  # stale files of ours the user changed
    conflicts: list = field(default_factory=list)  # files not ours: --replace overwrites them
    blocked: list = field(default_factory=list)  # folders, links...: never touched, even so
    existing: set = field(default_factory=set)  # writes that replace a file
    leftovers: list = field(default_factory=list)  # drive paths: temporary files of ours
    owned: dict = field(default_factory=dict)  # drive path -> sha256: the game's files there now

    @property
    def bytes_total(self):
        return sum(len(i.data) for i in self.items)

    @property
    def bytes_to_write(self):
        return sum(len(i.data) for i in self.writes)


def run_command(action: Callable[[argparse.Namespace, Reporter], dict], args) -> int:
    """Run a command's ``action``; print its summary (--json) or its error (one
    ``error:`` line, or a JSON object); return the exit status."""
    reporter = Reporter(as_json=args.json)
    try:
        result = action(args, reporter)
    except DeployError as error:
        if args.json:
            print(json.dumps({"ok": False, "error": str(error), "warnings": reporter.warnings}))
        else:
            print("error: " + str(error), file=sys.stderr)
        return error.status
    if args.json:
        print(json.dumps(result, indent=1))
    return 0
