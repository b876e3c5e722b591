"""Budgets as counts of positions (issue 49.1): ``solve`` and ``survey``
given ``nodes`` find the same verdict, line and count on any machine,
seconds only an outer guard: a machine five times slower (its clock run
five times as fast) changes nothing."""

import json
import subprocess
import sys

import pytest

from british_square.desktop import solver, survey
from british_square.desktop.solver import beam, greedy, rollouts, solution, solve
from british_square.engine import Game
from british_square.piles import AMERICAN, BRITISH, UNION

CLOCKED = (solution, greedy, beam, rollouts, solver)


def slower(monkeypatch, factor=5.0):
    """Every clock the solver reads runs ``factor`` times as fast: a slower machine."""
    real = solution.clock
    monkeypatch.setattr(solution, "clock", lambda: real() * factor)
    for module in CLOCKED:
        monkeypatch.setattr(module, "clock", solution.clock, raising=False)


def outcome(found):
    return found.result, found.home, found.moves, found.nodes


@pytest.mark.parametrize(
    "deal, rules, nodes",
    [(3, AMERICAN, 30_000), (11, UNION, 20_000), (5, BRITISH, 30_000), (1, BRITISH, 8_000)],
)
def test_the_same_positions_give_the_same_answer_on_a_slower_machine(
    monkeypatch, deal, rules, nodes
):
    here = outcome(solve(Game.new_deal(deal, rules), 600, nodes=nodes))
    assert here[3] <= nodes + 1000  # the budget, give or take a search's last step
    slower(monkeypatch)
    assert outcome(solve(Game.new_deal(deal, rules), 600, nodes=nodes)) == here


def test_the_beam_searches_past_greedy_give_the_same_answer_on_a_slower_machine(monkeypatch):
    # greedy restarts stop at 3 000 positions here, not 2 000 000, so the
    # beam searches get the rest of their share of a small budget
    monkeypatch.setattr(solver, "GREEDY_MOST", 3000)
    here = outcome(solve(Game.new_deal(5632, AMERICAN), 600, nodes=20_000))
    assert here[3] <= 20_000 + 1000
    slower(monkeypatch)
    assert outcome(solve(Game.new_deal(5632, AMERICAN), 600, nodes=20_000)) == here


def test_a_proof_only_budget_of_positions_is_one_proof():
    found = solve(Game.new_deal(28487), 600, proof_only=True, nodes=1_000)
    assert (found.result, found.nodes) == ("lost", 21)
    cut = solve(Game.new_deal(25699), 600, proof_only=True, nodes=1_000)  # 1.1 million needed
    assert cut.result == "unknown" and cut.nodes <= 1_000 + solution.CLOCK_EVERY


def test_a_survey_of_positions_says_so_in_each_record(tmp_path, monkeypatch):
    out = tmp_path / "s.jsonl"
    survey.run_survey("union", [1, 2], str(out), seconds=600, jobs=1, progress=False, nodes=5000)
    first = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["budget_nodes"] for r in first] == [5000, 5000]
    slower(monkeypatch)
    again = tmp_path / "t.jsonl"
    survey.run_survey("union", [1, 2], str(again), seconds=600, jobs=1, progress=False, nodes=5000)
    keep = ("deal", "result", "home", "moves", "nodes", "budget_nodes")
    second = [json.loads(line) for line in again.read_text().splitlines()]
    assert [{k: r[k] for k in keep} for r in second] == [{k: r[k] for k in keep} for r in first]


def solve_json(*args):
    command = [sys.executable, "-m", "british_square", "solve", "--json", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    del found["seconds"]
    return found


def test_the_solve_command_counts_positions_unless_given_seconds_alone():
    counted = solve_json("--deal", "3", "--rules", "american", "--nodes", "20000")
    assert counted == solve_json("--deal", "3", "--rules", "american", "--nodes", "20000")
    assert counted["nodes"] <= 21_000
    default = solve_json("--deal", "17", "--rules", "union")  # DEFAULT_NODES, a guard of 600 s
    assert default["result"] == "won"
