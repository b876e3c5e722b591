"""tools/latency.py: counted, so the same run to run (to 0.1%), and calibrated by pystone.

Runs the VM under valgrind's callgrind (the VM tier; skipped, saying so,
without the VM, its mpy-cross or valgrind).
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

TOOL = ROOT / "tools" / "latency.py"


@pytest.fixture
def counted(vm, mpy_cross):
    """``counted(*actions)``: the tool's JSON rows for those actions, repeated twice."""
    if not shutil.which("valgrind"):
        pytest.skip("no valgrind (apt-get install valgrind): latency counts skipped")
    env = dict(os.environ, CIRCUITPYTHON_VM=vm.binary, MPY_CROSS=mpy_cross)

    def run(*actions):
        result = subprocess.run(
            [sys.executable, str(TOOL), "--json", "--repeats", "2", *actions],
            capture_output=True, text=True, env=env, timeout=600,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return [json.loads(line) for line in result.stdout.splitlines()]

    return run


def test_a_press_is_counted_the_same_every_run_and_calibrated(counted):
    first, again = counted("cursor move"), counted("cursor move")
    calibration, cursor = first
    # a pystone pass: tens of thousands of instructions, 657 us on a SAMD51
    assert 30_000 < calibration["value"] < 80_000 and calibration["value"] == again[0]["value"]
    assert cursor["metric"] == "cursor move" and cursor["target"] == 16
    assert cursor["value"] > 100_000 and cursor["ms"] > 0
    # the same on an idle machine; under load the VM's background ticks follow
    # the wall clock and move a count by a few hundred instructions (0.02%)
    assert abs(cursor["value"] - again[1]["value"]) <= cursor["value"] // 1000
