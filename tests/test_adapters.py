"""The machine adapters (hw/) and code.py's options: boards on stand-in modules,
the desktop window on SDL's dummy driver, and every bad option refused in one line."""

import importlib.util
import os
import re
import subprocess
import sys
import types

import pytest
from app_harness import shown
from conftest import HW, ROOT
from keypad_fakes import FakeEvent, FakeKeys
from ui_runs import CODE, load_code_py

from british_square import controls

sys.path.insert(0, str(HW))  # hw/ is not a package
import keyscript  # noqa: E402

from british_square.engine import Game

FAKES = ROOT / "tests" / "vm" / "fakes"  # audioio, audiocore, digitalio, neopixel_write


class FakeDisplay:
    auto_refresh = True


def load_fake(name):
    """A fresh copy of the stand-in module ``name`` from tests/vm/fakes."""
    spec = importlib.util.spec_from_file_location(name, FAKES / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_board_modules(monkeypatch, key_events, audio=True):
    """Stand-ins for ``board``, ``keypad``, ``analogio`` and the speaker's and
    NeoPixels' modules as the adapters use them (``audio=False``: a build
    without ``audioio``)."""
    board = types.ModuleType("board")
    board.DISPLAY = FakeDisplay()
    pins = ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "JOYSTICK_X", "JOYSTICK_Y", "A6")
    for name in pins + ("SPEAKER", "SPEAKER_ENABLE", "NEOPIXEL"):
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
    for name in ("audioio", "audiocore", "digitalio", "neopixel_write"):
        monkeypatch.setitem(sys.modules, name, load_fake(name))
    if not audio:
        monkeypatch.setitem(sys.modules, "audioio", None)  # import audioio: ImportError
    monkeypatch.syspath_prepend(str(HW))
    for name in ("pygamer", "pybadge", "handheld", "speaker", "lights"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return made, sticks


def test_pygamer_adapter_buttons_and_joystick(monkeypatch):
    made, sticks = fake_board_modules(monkeypatch, [(0, True), (0, False)])
    import pygamer

    hardware = pygamer.Hardware()
    assert made["key_count"] == 4 and made["value_when_pressed"] is True
    # issue 46: a press is read within 20 ms, the scan's wait and a resting loop's sleep
    assert made["interval"] + controls.SLEEP_S <= 0.020
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
    assert slept == [controls.SLEEP_S]
    hardware.actions.repeater.press(controls.LEFT, 0)  # a direction held: its repeats are due
    hardware.idle(True)
    assert slept == [controls.SLEEP_S]


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
        (["--deal", "0001"], "--deal"),  # issue 37: the desktop command refused it
        (["--scale", "04"], "--scale"),
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


@pytest.mark.parametrize(
    "token",
    ["1", "7", "31999", "0", "0001", "07", "32000", "+7", "-7", " 7", "7 ", "1_0", "\u0663"],
)
def test_code_py_and_the_desktop_command_read_deal_numbers_by_one_rule(monkeypatch, token):
    import argparse

    from british_square.desktop.cli import deal_number

    monkeypatch.syspath_prepend(str(HW))
    import options

    try:
        by_code_py = options.parse(["--deal", token])["deal"]
    except ValueError:
        by_code_py = None
    try:
        by_command = deal_number(token)
    except argparse.ArgumentTypeError:
        by_command = None
    assert by_code_py == by_command


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
    words = set(re.findall(r"[\w:*]+", result.stdout))  # and every word a key script may hold
    short = ("u", "d", "l", "r", "sel", "KEY*N", "wait:MS", "shot:NAME")
    for word in (*keyscript.ACTION_NAMES, *short):
        assert word in words, word


def test_window_mode_keyboard_and_quit(monkeypatch, tmp_path):
    """The windowed path (on SDL's dummy driver): 4x window, keys in order, close ends it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # its save: not in the user's folder
    monkeypatch.syspath_prepend(str(HW))
    import desktop
    import pygame
    import window

    hardware = desktop.Hardware({"deal": 5})
    assert not hardware.headless
    assert pygame.display.get_surface().get_size() == window.window_size(4)  # and its strip
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

    app = App(hardware, None, Game.new_deal(5))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))  # A: play
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()  # returns at the window's close
    assert shown(app) == "play"  # it got to the cards before closing
    hardware.stopped(app)  # the signals as they were


@pytest.mark.parametrize("board_pictures", [False, True])
def test_a_window_has_no_backlight_but_a_boards_pictures_do(monkeypatch, board_pictures):
    # issue 50: the menu's Brightness does nothing in a window, and says so
    # there (the adapter's backlight is None); a board's pictures
    # (BSQ_BOARD_BUTTONS) show a board's menu
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.syspath_prepend(str(HW))
    if board_pictures:
        monkeypatch.setenv("BSQ_BOARD_BUTTONS", "1")
    else:
        monkeypatch.delenv("BSQ_BOARD_BUTTONS", raising=False)
    import desktop
    import displayio

    displayio.release_displays()  # one display a process: an earlier test's goes
    hardware = desktop.Hardware({"headless": True, "keys": "a"})
    assert (hardware.backlight is None) is not board_pictures
    displayio.release_displays()


@pytest.mark.parametrize("name", ["pygamer", "pybadge"])
def test_board_adapters_sound_through_the_speaker_and_glow_on_the_neopixels(monkeypatch, name):
    from british_square.sounds import BUZZ, CHIME, CLICK, FANFARE, RATE, TUNE

    fake_board_modules(monkeypatch, [])
    hardware = __import__(name).Hardware()
    speaker = hardware.speaker
    out = speaker.out
    assert out.pin == "SPEAKER" and speaker.enable.pin == "SPEAKER_ENABLE"
    assert not speaker.enable.value and not speaker.busy  # the amplifier off at rest
    hardware.sound(CLICK)
    assert speaker.enable.value and speaker.busy
    assert out.played[-1] == (speaker.samples[CLICK], RATE)
    hardware.sound(CHIME)
    assert out.played[-1] == (speaker.samples[CHIME], 2 * RATE)  # the note an octave up
    for _ in range(3):  # the loop's turns: the DAC finishes, the amplifier goes off
        hardware.idle(False)
    assert not speaker.enable.value and not speaker.busy
    hardware.sound(BUZZ)
    hardware.sound(FANFARE)  # cuts the buzz short: the tune, a note at a time
    for _ in range(20):
        hardware.idle(False)
    tune = [rate for sample, rate in out.played[-len(TUNE) :]]
    assert tune == list(TUNE) and out.played[-1][0] is speaker.note
    assert not speaker.busy and not speaker.enable.value
    neopixel_write = sys.modules["neopixel_write"]
    assert neopixel_write.writes == 1 and not any(neopixel_write.last)  # dark from the start
    hardware.lights(3, 100)
    lit = bytes(neopixel_write.last)
    assert any(lit) and max(lit) <= 64  # a quarter of the pixels' full brightness
    hardware.lights(3, 30)
    assert max(neopixel_write.last) < max(lit)
    hardware.lights(-1, 100)
    assert not any(neopixel_write.last)
    writes = neopixel_write.writes
    hardware.lights(-1, 100)  # dark already: nothing sent
    assert neopixel_write.writes == writes


@pytest.mark.parametrize("name", ["pygamer", "pybadge"])
def test_board_adapters_are_silent_without_audioio(monkeypatch, name):
    fake_board_modules(monkeypatch, [], audio=False)
    hardware = __import__(name).Hardware()
    assert hardware.sound is None and hardware.speaker is None
    hardware.idle(False)  # nothing to step
    assert hardware.lights is not None


def test_the_desktop_mixer_plays_the_boards_waves_or_stays_silent(monkeypatch):
    import pygame

    monkeypatch.syspath_prepend(str(HW))
    import mixer

    from british_square.sounds import BUZZ, CHIME, CLICK, FANFARE

    pygame.init()  # the mixer open at pygame's defaults: the speaker opens it at its own
    speaker = mixer.MixerSpeaker()  # SDL's dummy audio driver: a mixer that plays to nowhere
    try:
        lengths = [round(sound.get_length() * 1000) for sound in speaker.sounds]
        assert lengths == [15, 50, 60, 296]  # click, chime an octave up, buzz, the tune
        for effect in (CLICK, CHIME, BUZZ, FANFARE):
            speaker.sound(effect)
        assert speaker.played == [CLICK, CHIME, BUZZ, FANFARE]
    finally:
        pygame.mixer.quit()

    def no_device(**kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    silent = mixer.MixerSpeaker()
    silent.sound(CHIME)  # nothing to play it on: kept, and no error
    assert silent.sounds is None and silent.played == [CHIME]


def test_no_sound_device_is_one_line_not_alsas_sixteen(monkeypatch, capfd):
    """Where there is no sound card, ALSA's library writes sixteen lines
    straight to file descriptor 2 at every start (issue 37): they are held
    back, the rest passed on, and one line says the game plays silent."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.syspath_prepend(str(HW))
    import mixer
    import pygame
    import window

    def like_alsa(**kwargs):
        for _ in range(16):
            os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
        os.write(2, b"something else\n")
        raise pygame.error("ALSA: Couldn't open audio device: No such file or directory")

    import displayio

    displayio.release_displays()  # Blinka takes one display a process: an earlier test's goes
    pygame.mixer.quit()
    window.make_display(1)
    assert pygame.mixer.get_init() is None  # the window opens no sound: the speaker alone does
    displayio.release_displays()
    monkeypatch.setattr(pygame.mixer, "init", like_alsa)
    capfd.readouterr()
    silent = mixer.MixerSpeaker()
    out, err = capfd.readouterr()
    assert silent.sounds is None and out == ""
    assert err.splitlines() == [
        "something else",
        "note: no sound: ALSA: Couldn't open audio device: No such file or directory",
    ]
