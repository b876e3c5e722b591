"""The winning lines a board ships (par.py, tools/ship_lines.py), American's
and Union Square's: each a win, a hint on one its next move, hints alone a
won game (desktop and the CircuitPython VM); a damaged file no line and no
harm."""

import json
import struct
import sys

import pytest
from conftest import ROOT
from ui_runs import board_tree, keys_file, position_line, reported

from british_square import par
from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver.moves import position_key
from british_square.engine import Game
from british_square.hint import NO_HINT, Hinter
from british_square.piles import AMERICAN, BRITISH, RULE_NAMES, UNION

sys.path.insert(0, str(ROOT / "tools"))
import ship_lines  # noqa: E402

HEAP = "150K"
SHIPPING = pytest.mark.parametrize("rules", [AMERICAN, UNION], ids=["american", "union"])


def shipped(rules=AMERICAN):
    """(deal, moves) of every line in the shipped file of ``rules``."""
    return ship_lines.shipped(rules)


def line_move(game):
    """The next move of ``game``'s shipped line, as a hint finds it
    (``par.NO_LINE`` off any line)."""
    return par.line_move(game, bytearray(2 * par.MAX_LINE))


def test_the_shipped_files_are_what_the_survey_gives():
    assert ship_lines.main(["--check"]) == 0, "run tools/ship_lines.py"
    from british_square.par import LINE_DEALS

    # par's counts, which say where a hint or New game opens a lines file
    assert ship_lines.RULES == (AMERICAN, UNION)
    assert LINE_DEALS == tuple(len(shipped(r)) if r in ship_lines.RULES else 0 for r in range(3))


def test_union_squares_hunted_lines_are_the_same_on_any_machine():
    # the hunt's budget is a count of positions: run again, a deal's record
    # (its line, its positions) is the one the file keeps
    import json

    path = ROOT / "docs" / "survey" / ship_lines.SOURCES[UNION]
    kept = {}
    for text in path.read_text().splitlines():
        record = json.loads(text)
        kept[record["deal"]] = record
    for deal in (1, 2):
        again = ship_lines.hunt(deal, UNION)
        for field in ("result", "home", "moves", "nodes", "runs", "run_nodes"):
            assert again[field] == kept[deal][field], (deal, field)


@SHIPPING
def test_every_shipped_line_wins_its_deal_and_never_comes_back_to_a_position(rules):
    found = shipped(rules)
    assert len(found) == ship_lines.COUNT
    assert [deal for deal, _ in found] == sorted({deal for deal, _ in found})
    for deal, moves in found:
        assert len(moves) <= par.MAX_LINE
        game = Game.new_deal(deal, rules)
        seen = {position_key(game)}
        for m in moves:
            game.play(m)  # checked: a move no game could make raises
            assert position_key(game) not in seen, deal
            seen.add(position_key(game))
        assert game.is_won(), deal


@SHIPPING
@pytest.mark.parametrize("index", [0, 1, 250, 499])
def test_hints_alone_win_a_shipped_deal(rules, index):
    deal, moves = shipped(rules)[index]
    game, hinter = Game.new_deal(deal, rules), Hinter()
    for _ in range(len(moves)):
        game.play(hinter.suggest(game))
    assert game.is_won()


@SHIPPING
def test_off_the_line_the_hint_is_the_boards_and_back_on_it_the_lines_again(rules):
    deal, moves = shipped(rules)[3]
    game, hinter = Game.new_deal(deal, rules), Hinter()
    k = 0
    while k < 20 or len(legal_moves(game)) < 3:  # a step of the line with a choice
        game.play(moves[k])
        k += 1
    assert hinter.suggest(game) == moves[k]
    other = next(m for m in legal_moves(game) if m != moves[k])
    game.play(other)
    assert line_move(game) == par.NO_LINE  # off it: no line
    assert hinter.suggest(game) != NO_HINT  # the board's own hint
    game.undo()
    assert hinter.suggest(game) == moves[k]


def test_no_line_for_other_rules_a_deal_not_shipped_or_a_game_past_its_line():
    deal, moves = shipped()[0]
    assert line_move(Game.new_deal(deal, BRITISH)) == par.NO_LINE
    union = {d for d, _ in shipped(UNION)}
    other = next(d for d, _ in shipped() if d not in union)  # American's, not Union's
    assert line_move(Game.new_deal(other, UNION)) == par.NO_LINE
    for rules in (AMERICAN, UNION):
        not_shipped = max(d for d, _ in shipped(rules)) + 1
        assert line_move(Game.new_deal(not_shipped, rules)) == par.NO_LINE
    game = Game.new_deal(deal, AMERICAN)
    for m in moves:
        game.play(m)
    assert line_move(game) == par.NO_LINE  # won: the line is played out


@pytest.mark.parametrize(
    "damage", ["empty", "magic", "deals past the end", "entry past the end", "moves", "too long"]
)
def test_a_damaged_lines_file_is_no_line_and_no_harm(tmp_path, monkeypatch, damage):
    data = bytearray(open(par.lines_path(AMERICAN), "rb").read())
    deals = {d for d, _ in shipped()}
    deal, moves = shipped()[5]
    at = par.LINES_HEAD + par.LINES_ENTRY * (deal - 1)
    if damage == "empty":
        data = bytearray()
    elif damage == "magic":
        data[0] ^= 1
    elif damage == "deals past the end":
        data[4:6] = struct.pack("<H", 60000)
        data = data[: par.LINES_HEAD + par.LINES_ENTRY * 100]  # the file cut short too
    elif damage == "entry past the end":
        data[at + 2 : at + 6] = struct.pack("<I", len(data) - 10)
    elif damage == "too long":
        data[at : at + 2] = struct.pack("<H", par.MAX_LINE + 1)
    else:  # a move no game could make where the line's next is
        start = struct.unpack_from("<I", data, at + 2)[0]
        data[start + 2 * 10 : start + 2 * 10 + 2] = bytes((19, 19))
    path = tmp_path / "lines_american.bin"
    path.write_bytes(bytes(data))
    monkeypatch.setattr(par, "lines_path", lambda rules: str(path))
    game = Game.new_deal(deal, AMERICAN)
    for m in moves[:10]:
        game.play(m)
    assert line_move(copy_game(game)) == par.NO_LINE
    assert Hinter().suggest(game) != NO_HINT  # the board's own hint
    for _ in range(20):  # New game's draw: a deal with an entry, or none
        assert par.random_line_deal(AMERICAN) in deals | {0}


@SHIPPING
def test_the_boards_hints_play_a_shipped_line_on_the_vm(vm, mpy_cross, tmp_path, rules):
    # Hint then A, as a player follows the hints, for most of the line (near
    # its end the game offers Finish, a screen a key script cannot see
    # coming): the VM's game is the line's, move for move; the rest is the
    # same code as test_hints_alone_win_a_shipped_deal's
    mpy_board = board_tree(tmp_path / "board", mpy_cross)  # .mpy, the lines file beside them
    deal, moves = shipped(rules)[0]
    played = len(moves) - 40
    keys = keys_file(tmp_path, "a " + "hint a " * played)
    name = RULE_NAMES[rules]
    result = vm.run_board(
        mpy_board, "--deal", str(deal), "--rules", name, "--keys-file", keys, heap=HEAP
    )
    game = Game.new_deal(deal, rules)
    for m in moves[:played]:
        game.play(m)
    assert position_line(result.stdout) == position_text(game)
    assert reported(result.stdout, "screens").split() == ["play", "title"]


def test_solver_md_says_what_is_shipped_as_the_code_has_it():
    from british_square.hint import STALL_HINTS

    text = " ".join((ROOT / "docs" / "solver.md").read_text().split())
    assert "a winning line for each of {} deals".format(ship_lines.COUNT) in text
    for rules in ship_lines.RULES:
        size = len(open(par.lines_path(rules), "rb").read())
        name = "`lines_{}.bin`".format(RULE_NAMES[rules])
        assert "{}, {} KB of the flash".format(name, round(size / 1024)) in text
    assert "with a line of at most {} moves".format(par.MAX_LINE) in text
    assert "after {} hints in a row (`hint.STALL_HINTS`)".format(STALL_HINTS) in text


def test_no_lines_file_gives_a_surveyed_deal_and_the_boards_hint(tmp_path, monkeypatch):
    # a drive without the file (a copy cut short): New game and a hint do
    # what they did before lines shipped
    deal, moves = shipped()[0]
    game = Game.new_deal(deal, AMERICAN)
    board_hint = Hinter().suggest(parse_position(position_text(game)))  # no line: no history
    monkeypatch.setattr(par, "lines_path", lambda rules: str(tmp_path / "missing.bin"))
    assert par.random_line_deal(AMERICAN) == 0
    assert 1 <= par.random_par_deal(AMERICAN) <= 31999  # from the par file, as before
    assert Hinter().suggest(game) == board_hint


@SHIPPING
def test_new_game_draws_every_shipped_deal_alike(rules):
    import random

    random.seed(3)
    drawn = [par.random_line_deal(rules) for _ in range(4000)]
    deals = {d for d, _ in shipped(rules)}
    assert set(drawn) <= deals and len(set(drawn)) > 0.9 * len(deals)


def test_the_vm_benchmark_counts_a_shipped_deal_won_by_hints_alone(vm, mpy_cross, monkeypatch):
    # tools/hint_quality.py --follow --vm: the board's game on the VM, Hint
    # then A to the won screen (its Finish offer taken on the way)
    import hint_quality

    monkeypatch.setenv("CIRCUITPYTHON_VM", vm.binary)
    monkeypatch.setenv("MPY_CROSS", mpy_cross)
    deal, _ = shipped()[0]
    assert hint_quality.follow_on_vm(AMERICAN, [deal]) == 1


@pytest.mark.parametrize(
    "argv, said",
    [
        (["hunt", "american", "1-3"], "usage: ship_lines.py hunt union A-B"),  # a survey's file
        (["hunt", "union"], "usage: ship_lines.py hunt union A-B"),
        (["hunt", "union", "5-x"], "bad deal number 'x'"),
        (["hunt", "union", "9-3"], "bad deal range '9-3'"),
    ],
)
def test_a_hunt_asked_badly_is_one_line_and_writes_nothing(argv, said, capsys):
    files = {
        name: (ROOT / "docs" / "survey" / name).read_bytes() for name in ship_lines.SOURCES.values()
    }
    assert ship_lines.main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ship_lines: " + said)
    assert all(
        (ROOT / "docs" / "survey" / name).read_bytes() == data for name, data in files.items()
    )


def hunts_file(root, text):
    """``root``'s own docs/survey/union-lines.jsonl, holding ``text`` (bytes)."""
    path = root / "docs" / "survey" / ship_lines.SOURCES[UNION]
    path.parent.mkdir(parents=True)
    path.write_bytes(text)
    return path


def test_a_hunt_stopped_mid_record_goes_on_past_its_torn_line(tmp_path, monkeypatch, capsys):
    # as a survey does: the torn record of a hunt killed mid-write is dropped
    first = (ROOT / "docs" / "survey" / ship_lines.SOURCES[UNION]).read_bytes().split(b"\n")[0]
    deal = json.loads(first)["deal"]
    path = hunts_file(tmp_path, first + b"\n" + first[:40])
    monkeypatch.setattr(ship_lines, "ROOT", tmp_path)
    assert ship_lines.main(["hunt", "union", "{}-{}".format(deal, deal)]) == 0
    assert path.read_bytes() == first + b"\n"  # its deal hunted already: nothing more
    assert capsys.readouterr().err == ""


def test_a_hunts_file_with_a_line_that_is_no_record_is_one_line_and_left_as_it_is(
    tmp_path, monkeypatch, capsys
):
    text = b'{"deal": 1, "rules": "union"}\nnot a record\n'
    path = hunts_file(tmp_path, text)
    monkeypatch.setattr(ship_lines, "ROOT", tmp_path)
    assert ship_lines.main(["hunt", "union", "1-2"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ship_lines: ")
    assert lines[0].endswith("line 2: not a hunt's record")
    assert path.read_bytes() == text
