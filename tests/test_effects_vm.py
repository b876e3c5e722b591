"""The boards' speaker and NeoPixels under CircuitPython's VM (over stand-ins
for ``audioio``, ``audiocore``, ``digitalio`` and ``neopixel_write``, which
the VM lacks): they run there, hold what the README says, and a frame of the
celebration or a turn of the tune allocates nothing."""

import shutil

import pytest
from conftest import HW, LIB, ROOT
from sessions import session_env, session_script
from ui_runs import board_tree, keys_file, reported

from british_square.sounds import TUNE

SCRIPT = ROOT / "tests" / "vm" / "effects_check.py"
FAKES = ROOT / "tests" / "vm" / "fakes"
BENCH = ROOT / "tests" / "bench"
SESSION = ROOT / "tests" / "vm" / "effects_session.py"
WIN_SEED = 4  # tests/sessions.py: American deal 113, won first


@pytest.mark.vm
def test_speaker_and_lights_run_under_circuitpython_and_allocate_nothing_per_frame(vm):
    out = vm.run(SCRIPT, heap="96K", path=(FAKES, LIB, HW, BENCH)).stdout
    figures = dict(line.split(" ", 1) for line in out.splitlines())
    assert figures["alloc_glow"] == "0" and figures["alloc_dark"] == "0", out
    assert figures["alloc_step"] == "0", out
    assert figures["lit"] == "3", out  # dark at start, a frame, dark again; a quarter bright
    assert figures["tune"] == " ".join(str(rate) for rate in TUNE), out
    assert figures["amplifier_off"] == "True", out
    # the three waves (700 bytes) and their samples; the pin and 15 bytes
    assert int(figures["heap_speaker"]) < 1400, out
    assert int(figures["heap_lights"]) < 200, out


@pytest.mark.vm
def test_a_long_session_with_the_speaker_and_lights_under_circuitpython(vm, mpy_cross, tmp_path):
    """3 000 random presses that first win an American deal, with the boards'
    speaker and NeoPixels driven by the game through the VM's adapter (a
    behaviour test, in 136 KB: the stand-ins are Python here, C on a board,
    and with the speaker's and lights' code they took the session's peak
    from about 117 to 123.5 KB; the budget's figure is the stress sessions')."""
    board = board_tree(tmp_path / "board", mpy_cross)
    shutil.copytree(FAKES, board / "fakes")
    shutil.copy(SESSION, board)
    # a second's wait at the end: the last press's effect plays out, and the
    # amplifier must be off after it
    keys = keys_file(tmp_path, session_script(WIN_SEED, 3000) + " wait:1000")
    env = session_env(WIN_SEED, tmp_path, keys)  # no options, as a board runs
    out = vm.run(SESSION.name, path=(), cwd=board, heap="136K", env=env, timeout=900).stdout
    assert int(reported(out, "presses")) >= 3000
    assert "won" in reported(out, "screens").split()
    assert int(reported(out, "sounds")) > 100  # clicks, chimes, buzzes and the fanfare's notes
    assert int(reported(out, "light_writes")) >= 3  # dark at start, a frame of the win, dark
    assert reported(out, "amplifier_off") == "True"
