"""The desktop command ``python3 -m british_square``, run as a user would."""

import json
import subprocess
import sys

import pytest
from conftest import ROOT

from british_square.engine import Game
from british_square.notation import parse_position, position_text


def cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "british_square", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        input=stdin,
    )


def test_deal_prints_the_position_text():
    result = cli("deal", "17")
    assert result.returncode == 0
    assert result.stdout.strip() == position_text(Game.new_deal(17))


@pytest.mark.parametrize("rules", ["british", "american", "union"])
def test_deal_json_has_the_documented_shape(rules):
    data = json.loads(cli("deal", "5", "--rules", rules, "--json").stdout)
    assert data["rules"] == rules
    assert len(data["columns"]) == (4 if rules == "british" else 16)
    assert data["base"] == [len(col) for col in data["columns"]]
    assert data["foundations"] == {"C": 0, "S": 0, "H": 0, "D": 0}
    assert len(data["stock"]) == (87 if rules == "union" else 88)
    assert len(data["waste"]) == (1 if rules == "union" else 0)
    # the JSON names the same position as the text
    text = cli("deal", "5", "--rules", rules).stdout.strip()
    assert cli("show", json.dumps(data)).stdout == cli("show", text).stdout


def test_moves_lists_the_legal_moves_in_both_formats():
    position = cli("deal", "1").stdout.strip()
    assert cli("moves", position).stdout.split() == ["SW"]
    assert json.loads(cli("moves", position, "--json").stdout) == [{"from": "stock", "to": "waste"}]


def test_play_applies_text_and_json_moves():
    position = cli("deal", "1").stdout.strip()
    by_text = cli("play", position, "SW", "SW")
    by_json = cli("play", position, '{"from": "stock", "to": "waste"}', "SW")
    assert by_text.returncode == by_json.returncode == 0
    assert by_text.stdout == by_json.stdout
    game = parse_position(by_text.stdout)
    assert game.stock_count == 86 and game.waste_count == 2
    as_json = json.loads(cli("play", position, "SW", "--json").stdout)
    assert len(as_json["waste"]) == 1


@pytest.mark.parametrize(
    "move, names",
    [
        ("aF", "'aF'"),
        ("zz", "'zz'"),
        ("Fa", "'Fa'"),
        ('{"from": "stock"}', "from"),
        ("{bad", "bad"),
    ],
)
def test_play_rejects_a_bad_move_with_one_line_and_status_2(move, names):
    position = cli("deal", "1").stdout.strip()
    result = cli("play", position, "SW", move)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and names in lines[0]


def test_bad_positions_and_usage_exit_2():
    assert cli("moves", "british nonsense").returncode == 2
    assert cli("moves", "{not json").returncode == 2
    assert cli("deal", "0").returncode == 2
    assert cli("deal", "32000").returncode == 2
    assert cli("deal", "1", "--rules", "klondike").returncode == 2
    assert cli("frobnicate").returncode == 2
    assert cli().returncode == 2
    assert cli("--help").returncode == 0


def test_show_reads_standard_input_and_draws_the_square():
    position = cli("deal", "1").stdout
    shown = cli("show", "-", stdin=position)
    assert shown.returncode == 0
    assert "British Square" in shown.stdout
    assert "3D" in shown.stdout and "stock 88 cards" in shown.stdout
