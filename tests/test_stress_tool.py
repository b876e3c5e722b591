"""tools/stress.py's results file: it is only ever added to, and a file that
is not one is refused (one line, status 2) and left as it was; and each run
of a session starts from the same save."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HW, ROOT
from sessions import session_env

from british_square.engine import Game
from british_square.store import Store

sys.path.insert(0, str(HW))
from storage import FileNVM  # noqa: E402

STRESS = ROOT / "tools" / "stress.py"


def stress(*args):
    return subprocess.run(
        [sys.executable, str(STRESS), *map(str, args)], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "content", ["notes, not results\n", '{"key": "k", "ok": true}\n', "[1, 2]\n", "\xff"]
)
def test_a_file_that_holds_no_stress_results_is_refused_and_left_alone(tmp_path, content):
    path = tmp_path / "mine.txt"
    path.write_text(content, encoding="latin-1")
    before = path.read_bytes()
    result = stress("--results", path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), lines
    assert path.read_bytes() == before


def test_a_results_path_that_cannot_be_a_file_is_refused(tmp_path):
    result = stress("--results", tmp_path)  # a folder
    assert result.returncode == 2 and result.stderr.startswith("error: cannot use ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.vm
def test_a_second_run_takes_every_outcome_from_the_results_file(vm, mpy_cross, tmp_path):
    results = tmp_path / "results.jsonl"
    args = ["--seeds", 1, "--presses", 40, "--heaps", 128, "--peak-runs", 1, "--json"]
    first = stress(*args, "--results", results)
    assert first.returncode == 0, first.stderr
    kept = results.read_text()
    assert len(kept.splitlines()) == 2  # the session collected as a board, then measuring
    again = stress(*args, "--results", results)
    assert again.stdout == first.stdout and results.read_text() == kept
    assert '"metric": "peak_live"' in first.stdout


def test_every_run_of_a_resumed_session_starts_from_the_kept_game(tmp_path):
    # the session saves into its NVM file as it plays: a later run in the
    # same folder must not resume what the last one left
    first = session_env(8, tmp_path, "keys.txt")["CIRCUITPY_NVM_FILE"]
    kept = Path(first).read_bytes()
    played = Store(FileNVM(first))
    for seconds in (100, 200):  # a session's saves, the last in the other slot
        played.save(Game.new_deal(1), seconds, 0)
    again = session_env(8, tmp_path, "keys.txt")["CIRCUITPY_NVM_FILE"]
    assert again == first and Path(again).read_bytes() == kept
