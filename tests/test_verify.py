"""``survey --verify`` (desktop/verify.py): a won record's line replays to
a win, a lost one's proof runs again to the positions recorded, and a
record that says otherwise is named and fails the command."""

import json
import subprocess
import sys

from conftest import ROOT

from british_square.desktop.solver import SOLVER_VERSION
from british_square.desktop.survey import read_results
from british_square.desktop.verify import PROOF_SINCE, check, verify

AMERICAN_1 = read_results(str(ROOT / "docs/survey/american.jsonl"), "american")[1]


def survey(*args):
    """``python3 -m british_square survey --rules british ARGS``, as a user runs it."""
    command = [sys.executable, "-m", "british_square", "survey", "--rules", "british", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


def lost(deal=28487, nodes=21, **more):
    """A British proof-only record as the census writes it (deal 28487: 21 positions)."""
    record = {"deal": deal, "rules": "british", "result": "lost", "home": 0, "moves": "",
              "nodes": nodes, "seconds": 0.01, "solver": SOLVER_VERSION, "budget": 60.0,
              "plain_nodes": 0, "proof_only": True}  # fmt: skip
    record.update(more)
    return record


def test_a_won_line_is_replayed_and_a_broken_one_is_named():
    assert check(AMERICAN_1) == (True, "its line replays to a win")
    moves = AMERICAN_1["moves"].split()
    short = dict(AMERICAN_1, moves=" ".join(moves[:-3]))
    assert check(short) == (False, "its line ends with 101 cards home, not 104")
    swapped = dict(AMERICAN_1, moves=" ".join(moves[1:]))
    confirmed, what = check(swapped)
    assert (confirmed, what) == (False, "move 19 (Sk) is not legal there: illegal move 'Sk'")


def test_a_proof_is_run_again_to_the_positions_recorded():
    assert check(lost()) == (True, "proved lost again, in the 21 positions recorded")
    assert check(lost(nodes=22)) == (False, "proved lost, but in 21 positions, not the 22 recorded")
    # a whole survey's record counts its line search too; an old solver's, another proof
    assert check(lost(proof_only=False, nodes=9999))[0]
    assert check(lost(solver=PROOF_SINCE - 1, nodes=9999)) == (
        True, "proved lost again (solver {}: the verdict alone)".format(PROOF_SINCE - 1)
    )  # fmt: skip


def test_the_seconds_are_only_a_guard():
    confirmed, what = check(lost(deal=227, nodes=7827798), guard=0.01)  # minutes of proof
    assert (confirmed, what) == (False, "not confirmed in 0.01 s")


def test_the_command_draws_at_random_checks_named_deals_and_fails_on_one_wrong(tmp_path):
    path = tmp_path / "british.jsonl"
    records = [lost(), lost(deal=24592, nodes=77), lost(deal=12551, nodes=1048, result="unknown")]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    said = []
    assert verify(str(path), "british", 2, seed=3, say=said.append) == 0
    assert said[0] == "checking 2 of 3 records of {} (seed 3)".format(path)
    assert said[-1] == "2 of 2 confirmed"
    again = []
    verify(str(path), "british", 2, seed=3, say=again.append)
    assert again == said  # the same seed, the same draw
    named = ("--verify-deal", "12551", "--verify-deal", "28487")
    result = survey("--out", path, "--verify", "0", *named)
    assert result.returncode == 0, result.stderr
    assert "ok deal 12551 unknown: unknown: no claim" in result.stdout
    with path.open("a") as f:
        f.write(json.dumps(lost(nodes=20)) + "\n")  # deal 28487's last record now says 20
    result = survey("--out", path, "--verify", "0", "--verify-deal", "28487")
    assert result.returncode == 1
    assert "NOT CONFIRMED deal 28487 lost: proved lost, but in 21 positions, not the 20" in (
        result.stdout
    )


def test_bad_verify_requests_are_one_line(tmp_path):
    path = tmp_path / "none.jsonl"
    path.write_text(json.dumps(lost()) + "\n")
    result = survey("--out", path, "--verify", "1", "--verify-deal", "5")
    assert (result.returncode, result.stderr) == (2, "error: no record of deal 5\n")
    result = survey("--verify-deal", "5")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--verify-deal and --seed go with --verify N" in result.stderr
    result = survey()
    assert result.returncode == 2 and "survey takes --deals A-B, or --verify N" in result.stderr
