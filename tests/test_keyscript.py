"""Key scripts: one tokenizer for --keys and --keys-file, the check and the run."""

import os
import sys

import pytest
from conftest import HW

from british_square import controls

sys.path.insert(0, str(HW))
import harness  # noqa: E402
import keyscript  # noqa: E402


def words(text="", path=None):
    reader = keyscript.WordReader(text, path)
    out = []
    while True:
        word = reader.next_word()
        if word is None:
            return out
        out.append(word)


def played(text="", path=None):
    """What a ScriptPlayer does with the script: actions, shots and waits in order."""
    shots = []
    player = keyscript.ScriptPlayer((text, path), lambda name: shots.append(name))
    out = []
    now = 0
    while not player.finished:
        action = player.next_action(now)
        if action != controls.NONE:
            out.append(keyscript.ACTION_NAMES[action])
        elif shots and (not out or out[-1] != "shot:" + shots[-1]):
            out.append("shot:" + shots[-1])
        now += 1000
    return out


def test_words_split_on_any_white_space_and_commas(tmp_path):
    script = "right*3, a\tshot:one\r\nwait:50\n\nsel U\n"
    assert words(script) == ["right*3", "a", "shot:one", "wait:50", "sel", "U"]
    path = tmp_path / "keys.txt"
    path.write_text(script)
    assert words("", path) == words(script)
    assert words("b", path) == ["b"] + words(script)  # --keys first, then the file


def test_a_file_script_plays_as_checked(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("a\nright*2\nshot:first\n")  # newlines, and one at the very end
    assert harness.script_source({"keys-file": path}) == ("", path)
    assert played("", path) == ["a", "right", "right", "shot:first"]  # no newline in the name


def test_a_long_file_is_read_in_small_pieces(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text(" ".join(["a", "left", "b"] * 3000))
    reader = keyscript.WordReader("", path)
    assert len(reader.chunk) <= 64  # what it holds of the file at a time
    reader = keyscript.WordReader("", path)
    while reader.next_word() is not None:
        pass
    assert reader.count == 9000


@pytest.mark.parametrize(
    "bad",
    [
        "jump",
        "a*0",
        "a*99999",
        "a*x",
        "wait:",
        "wait:-5",
        "wait:1e3",
        "wait:\u0663",  # an Arabic-Indic digit
        "shot:",
        "shot:../up",
        "shot:a/b",
        "shot:.hidden",
        "shot:" + "x" * 41,
    ],
)
def test_bad_words_are_named_before_the_game_starts(bad, tmp_path):
    with pytest.raises(ValueError) as error:
        harness.script_source({"keys": "a " + bad})
    assert "key script" in str(error.value)
    path = tmp_path / "keys.txt"
    path.write_text("a\n" + bad + "\n")
    with pytest.raises(ValueError):
        harness.script_source({"keys-file": path})


def test_a_word_too_long_or_not_ascii_is_refused(tmp_path):
    with pytest.raises(ValueError, match="too long"):
        harness.script_source({"keys": "a" * 100})
    path = tmp_path / "keys.bin"
    path.write_bytes(b"a \x00\xff b")
    with pytest.raises(ValueError, match="printable"):
        harness.script_source({"keys-file": path})


def test_actions_and_their_short_names():
    assert played("up down left right a b select start u d l r sel") == [
        "up", "down", "left", "right", "a", "b", "select", "start",
        "up", "down", "left", "right", "select",
    ]  # fmt: skip


def test_a_fifo_or_a_folder_as_the_key_file_is_refused_without_waiting(tmp_path, deadline):
    deadline(20)  # a FIFO opened to read waits for a writer for ever
    os.mkfifo(tmp_path / "keys")
    for path in (tmp_path / "keys", tmp_path):
        with pytest.raises(ValueError, match="is not a regular file"):
            harness.script_source({"keys-file": str(path)})
    with pytest.raises(ValueError, match="cannot read the key file"):
        harness.script_source({"keys-file": str(tmp_path / "missing")})


@pytest.mark.parametrize("value", ["", "0", "3900"])
def test_a_harness_number_is_ascii_digits(monkeypatch, value):
    monkeypatch.setenv("BSQ_TEST_MS", value)
    assert harness.env_number("BSQ_TEST_MS", "milliseconds") == int(value or 0)


@pytest.mark.parametrize("value", [" 5", "5 ", "1_0", "\uff15", "-1", "+5", "1" * 10])
def test_a_harness_number_in_anything_else_is_refused(monkeypatch, value):
    monkeypatch.setenv("BSQ_TEST_MS", value)
    with pytest.raises(ValueError, match="BSQ_TEST_MS is not a whole number of milliseconds"):
        harness.env_number("BSQ_TEST_MS", "milliseconds")
