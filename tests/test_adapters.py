"""The machine adapters (hw/) and code.py's options: boards on stand-in modules,
the desktop window on SDL's dummy driver, and every bad option refused in one line."""

import importlib.util
import os
import subprocess
import sys
import types

import pytest
from conftest import HW, ROOT
from test_controls import FakeEvent, FakeKeys

from british_square import controls
from british_square.engine import Game

CODE = ROOT / "code.py"


class FakeDisplay:
    auto_refresh = True


def fake_board_modules(monkeypatch, key_events):
    """Stand-ins for ``board``, ``keypad`` and ``analogio`` as the adapters use them."""
    board = types.ModuleType("board")
    board.DISPLAY = FakeDisplay()
    for name in ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "JOYSTICK_X", "JOYSTICK_Y", "A6"):
        setattr(board, name, name)
    keypad = types.ModuleType("keypad")
    keypad.Event = FakeEvent
    made = {}

    def shift_register_keys(**kwargs):
        made.update(kwargs)
        return FakeKeys(key_events)

    keypad.ShiftRegisterKeys = shift_register_keys
    analogio = types.ModuleType("analogio")
    sticks = {}

    class AnalogIn:
        def __init__(self, pin):
            self.value = 39719 if pin == "A6" else 32767  # A6: half of a 4.00 V battery
            sticks[pin] = self

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    analogio.AnalogIn = AnalogIn
    microcontroller = types.ModuleType("microcontroller")
    microcontroller.nvm = bytearray(8192)
    for module in (board, keypad, analogio, microcontroller):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.syspath_prepend(str(HW))
    for name in ("pygamer", "pybadge"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return made, sticks


def test_pygamer_adapter_buttons_and_joystick(monkeypatch):
    made, sticks = fake_board_modules(monkeypatch, [(0, True), (0, False)])
    import pygamer

    hardware = pygamer.Hardware()
    assert made["key_count"] == 4 and made["value_when_pressed"] is True
    assert hardware.display.auto_refresh is False
    actions = hardware.actions
    assert actions.poll(0) == controls.B  # key 0 is B on the PyGamer
    assert actions.poll(0) == controls.NONE  # its release
    sticks["JOYSTICK_X"].value = 1000  # pushed left, past the dead zone
    assert actions.poll(10) == controls.LEFT
    assert actions.poll(20) == controls.NONE  # held: waits for the repeat
    assert actions.poll(10 + controls.REPEAT_DELAY_MS) == controls.LEFT
    sticks["JOYSTICK_X"].value = 30000  # back in the dead zone
    assert actions.poll(2000) == controls.NONE
    sticks["JOYSTICK_Y"].value = 64000  # down: y grows downward
    assert actions.poll(2010) == controls.DOWN


def test_pybadge_adapter_d_pad(monkeypatch):
    made, _ = fake_board_modules(monkeypatch, [(6, True), (6, False), (2, True)])
    import pybadge

    actions = pybadge.Hardware().actions
    assert made["key_count"] == 8
    assert actions.poll(0) == controls.UP  # key 6 is Up on the PyBadge
    assert actions.poll(0) == controls.START  # the release of Up, then Start
    assert actions.poll(10_000) == controls.NONE  # Up was released: no repeat


@pytest.mark.parametrize(
    "name, facts", [("pygamer", ("PyGamer", 8192, 4000)), ("pybadge", ("PyBadge", 8192, 0))]
)
def test_board_adapters_tell_their_facts(monkeypatch, name, facts):
    fake_board_modules(monkeypatch, [])
    assert __import__(name).Hardware().facts() == facts


@pytest.mark.parametrize("name", ["pygamer", "pybadge"])
def test_board_adapters_rest_and_set_the_backlight(monkeypatch, name):
    fake_board_modules(monkeypatch, [])
    hardware = __import__(name).Hardware()
    hardware.backlight(30)
    assert hardware.display.brightness == 0.3
    slept = []
    monkeypatch.setattr(controls.time, "sleep", slept.append)
    hardware.idle(False)
    hardware.idle(True)
    assert slept == [controls.REST_S]
    hardware.actions.repeater.press(controls.LEFT, 0)  # a direction held: its repeats are due
    hardware.idle(True)
    assert slept == [controls.REST_S]


def load_code_py():
    spec = importlib.util.spec_from_file_location("game_code", CODE)
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)  # defines functions; starts nothing
    return code


@pytest.mark.parametrize(
    "board_id, module",
    [
        ("pygamer", "pygamer"),
        ("pybadge", "pybadge"),
        ("edgebadge", "pybadge"),
        ("pygamer32d", "vm"),
    ],
)
def test_code_py_picks_the_adapter_by_board_id(monkeypatch, board_id, module):
    code = load_code_py()
    assert code.board_module() == "desktop"
    board = types.ModuleType("board")
    board.board_id = board_id
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(name="circuitpython"))
    assert code.board_module() == module


def run_code(*args, env=None):
    return subprocess.run(
        [sys.executable, str(CODE), "--headless", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ, **(env or {})),
    )


@pytest.mark.parametrize(
    "args, named",
    [
        (["--rules", "foo"], "--rules"),
        (["--deal", "abc"], "--deal"),
        (["--deal", "0"], "--deal"),
        (["--deal", "90007"], "--deal"),
        (["--deal", "1" * 5000], "--deal"),
        (["--deal", "\u0663"], "--deal"),  # an Arabic-Indic three
        (["--deal", "7", "--deal", "8"], "twice"),
        (["--deal", "7", "--position", "british AC/-/-/- - - 0,0,0,0"], "not both"),
        (["--scale", "0"], "--scale"),
        (["--colour", "red"], "--colour"),
        (["stray"], "stray"),
        (["--keys"], "--keys"),
        (["--keys", "a jump"], "jump"),
        (["--keys-file", "/no/such/file"], "such"),
        (["--position", "british XX/-/-/- - - 0,0,0,0"], "XX"),
    ],
)
def test_code_py_refuses_bad_options_in_one_line(args, named):
    result = run_code(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and named in lines[0], result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_fake_battery_that_is_no_number_is_refused_in_one_line():
    result = run_code("--deal", "3", env={"BSQ_BATTERY_MV": "3.9V"})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines == ["error: BSQ_BATTERY_MV is not a whole number of millivolts"
                     " (code.py --help lists the options)"]  # fmt: skip


def test_code_py_help_lists_the_options():
    result = subprocess.run(
        [sys.executable, str(CODE), "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    for option in ("--rules", "--deal", "--position", "--keys-file", "--shot", "--headless"):
        assert option in result.stdout


def test_window_mode_keyboard_and_quit(monkeypatch):
    """The windowed path (on SDL's dummy driver): 4x window, keys in order, close ends it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.syspath_prepend(str(HW))
    import desktop
    import pygame

    hardware = desktop.Hardware({"deal": 5})
    assert not hardware.headless
    assert hardware.display._window.get_size() == (640, 512)
    for key in (pygame.K_z, pygame.K_RIGHT):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
    actions = hardware.actions
    assert [actions.poll(0), actions.poll(0), actions.poll(10_000)] == [
        controls.A,
        controls.RIGHT,
        controls.NONE,  # released: no repeat
    ]
    from british_square.app import App

    app = App(hardware.display, actions, hardware.ticks_ms, Game.new_deal(5), font=hardware.font)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))  # A: play
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(hardware.idle)  # returns at the window's close
    assert not app.on_page  # it got to the cards before closing
