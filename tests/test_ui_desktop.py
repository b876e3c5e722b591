"""The desktop front end, headless: key scripts in, PNG screenshots out.

Also the pure parts of the UI (layout, key scripts, auto-repeat), which run
the same on CPython as on a board.
"""

import os
import subprocess
import sys

import pytest
from screen_check import FELT, Sprites, expected_screen, load_png, looks_like, mismatches
from ui_runs import CODE, keys_file, position_line, run_desktop

from british_square import controls, keyscript, sheet
from british_square.engine import FOUNDATION, STOCK, WASTE, Game
from british_square.layout import SCREEN_H, Layout
from british_square.notation import parse_position, position_text
from british_square.scripting import ScriptWriter, route
from british_square.sheet import CARD_H, FIRST_CARD


def test_session_screens_match_the_engine(tmp_path):
    writer = ScriptWriter(Game.new_deal(7))
    writer.play_some(12)
    writer.shot("played")
    writer.undo()
    writer.shot("undone")
    keys = keys_file(tmp_path, writer.text())
    result = run_desktop(["--deal", "7", "--keys-file", keys, "--shot", tmp_path / "end.png"])
    sprites = Sprites()
    for name, game in writer.snapshots.items():
        screen = load_png(tmp_path / (name + ".png"))
        assert mismatches(screen, expected_screen(game, sprites)) == {}, name
    assert (tmp_path / "end.png").exists()
    assert position_line(result.stdout) == position_text(writer.game)


def test_no_keys_shows_the_title_and_ends(tmp_path):
    shot = tmp_path / "title.png"
    result = run_desktop(["--deal", "3", "--shot", shot], timeout=60)
    screen = load_png(shot)
    for suit in range(4):  # the four aces of the title screen
        assert looks_like(screen, 32 + 25 * suit, 56, FIRST_CARD + suit * 13)
    assert position_line(result.stdout) == position_text(Game.new_deal(3))


def test_scaled_screenshot(tmp_path):
    run_desktop(["--deal", "3", "--scale", "2", "--shot", tmp_path / "big.png"], timeout=60)
    import pygame

    assert pygame.image.load(str(tmp_path / "big.png")).get_size() == (320, 256)


def test_refused_card_flashes_and_stays(tmp_path):
    # 5H has nowhere to go: A flashes it red, and it stays where it was
    position = "british 5H/9C/-/- 2C - 0,0,0,0"
    keys = "a a shot:flash wait:400 shot:after"
    result = run_desktop(["--position", position, "--keys", keys, "--shot", tmp_path])
    refused = sheet.HIGHLIGHTS[sheet.REFUSED][0]
    pink = (refused >> 19) << 11 | ((refused >> 10) & 0x3F) << 5 | (refused >> 3) & 0x1F
    flash = load_png(tmp_path / "flash.png")
    assert flash[7 + 12][2 + 17] == pink  # the face of the 5H, right of its big pip
    after = load_png(tmp_path / "after.png")
    assert looks_like(after, 2, 7, FIRST_CARD + 26 + 4)
    assert position_line(result.stdout) == position
    assert after[0][159] == FELT


def test_autoplay_sends_a_freed_ace_home(tmp_path):
    position = "british AH/KS/-/- 5C QS 0,0,0,0"
    writer = ScriptWriter(parse_position(position))
    writer.move(WASTE << 8 | 1)  # QS onto KS; nothing else
    keys = keys_file(tmp_path, writer.text())
    result = run_desktop(["--position", position, "--autoplay", "--keys-file", keys])
    writer.game.push(0 << 8 | FOUNDATION)  # what auto-play adds: the ace of hearts
    assert position_line(result.stdout) == position_text(writer.game)


def test_bad_key_word_fails_fast():
    import subprocess
    import sys

    from ui_runs import CODE

    result = subprocess.run(
        [sys.executable, str(CODE), "--headless", "--keys", "a jump"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "jump" in result.stderr


# ------------------------------------------------------------ pure parts


@pytest.mark.parametrize("columns", [4, 16])
def test_every_stop_reachable_and_moves_stay_on_screen(columns):
    layout = Layout(columns)
    for stop in range(layout.stops):
        for direction in range(4):
            assert 0 <= layout.neighbour(stop, direction) < layout.stops
        assert route(layout, 0, stop) is not None
        suit = max(0, stop - layout.foundation_stop)
        assert layout.pile_stop(layout.stop_pile(stop), suit) == stop
    assert layout.stop_pile(layout.stock_stop) == STOCK


def test_british_columns_compress_but_fit():
    layout = Layout(4)
    for height in range(1, 17):
        ys = [layout.card_y(0, i, height) for i in range(height)]
        assert ys == sorted(ys) and len(set(ys)) == height
        assert ys[-1] + CARD_H <= SCREEN_H
        steps = [b - a for a, b in zip(ys, ys[1:])]
        assert all(6 <= s <= 9 for s in steps)  # rank and suit stay readable


def test_parse_script():
    items = keyscript.parse_script("right*3, a shot:one wait:50 sel U")
    assert items == [3, 3, 3, controls.A, "shot:one", "wait:50", controls.SELECT, controls.UP]
    with pytest.raises(ValueError, match="jump"):
        keyscript.parse_script("jump")


def test_repeater_timing():
    repeater = controls.Repeater()
    repeater.press(controls.LEFT, 1000)
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS - 1) == controls.NONE
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS) == controls.LEFT
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS + 1) == controls.NONE
    later = 1000 + controls.REPEAT_DELAY_MS + controls.REPEAT_EVERY_MS
    assert repeater.poll(later) == controls.LEFT
    repeater.release(controls.LEFT)
    assert repeater.poll(later + 10000) == controls.NONE


class FakeEvent:
    key_number = 0
    pressed = False


class FakeQueue:
    def __init__(self, events):
        self.events = list(events)

    def get_into(self, event):
        if not self.events:
            return False
        event.key_number, event.pressed = self.events.pop(0)
        return True


class FakeKeys:
    def __init__(self, events):
        self.events = FakeQueue(events)


def test_keypad_actions_map_board_keys_and_repeat_directions():
    # PyBadge key numbers: 1 = A, 7 = Left (PLATFORM.md)
    keys = FakeKeys([(1, True), (1, False), (7, True)])
    actions = controls.KeypadActions(keys, FakeEvent())
    assert actions.poll(0) == controls.A
    assert actions.poll(0) == controls.LEFT  # the release of A gives nothing
    assert actions.poll(controls.REPEAT_DELAY_MS) == controls.LEFT
    assert actions.finished is False


def test_script_writer_plays_what_it_writes():
    writer = ScriptWriter(Game.new_deal(11))
    writer.play_some(5)
    writer.deal(42)
    assert writer.game.deal_number == 42 and writer.game.stock_count == 88
    assert writer.text().split()[0] == "a"
    assert STOCK << 8 | WASTE in Game.new_deal(11).moves()


# ------------------------------------------------- board adapters, faked


class FakeDisplay:
    auto_refresh = True


def fake_board_modules(monkeypatch, key_events):
    """Stand-ins for ``board``, ``keypad`` and ``analogio`` as the adapters use them."""
    import types

    board = types.ModuleType("board")
    board.DISPLAY = FakeDisplay()
    for name in ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "JOYSTICK_X", "JOYSTICK_Y"):
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
            self.value = 32767
            sticks[pin] = self

    analogio.AnalogIn = AnalogIn
    for module in (board, keypad, analogio):
        monkeypatch.setitem(__import__("sys").modules, module.__name__, module)
    monkeypatch.syspath_prepend(str(__import__("ui_runs").HW))
    for name in ("pygamer", "pybadge"):
        monkeypatch.delitem(__import__("sys").modules, name, raising=False)
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
    "board_id, module",
    [
        ("pygamer", "pygamer"),
        ("pybadge", "pybadge"),
        ("edgebadge", "pybadge"),
        ("pygamer32d", "vm"),
    ],
)
def test_code_py_picks_the_adapter_by_board_id(monkeypatch, board_id, module):
    import importlib.util
    import sys
    import types

    from ui_runs import CODE

    spec = importlib.util.spec_from_file_location("game_code", CODE)
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)  # defines functions; starts nothing
    assert code.board_module() == "desktop"
    board = types.ModuleType("board")
    board.board_id = board_id
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(name="circuitpython"))
    assert code.board_module() == module


def test_window_mode_keyboard_and_quit(monkeypatch):
    """The windowed path (on SDL's dummy driver): 4x window, keys in order, close ends it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.syspath_prepend(str(__import__("ui_runs").HW))
    import desktop
    import pygame

    hardware = desktop.Hardware({"deal": "5"})
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

    app = App(hardware.display, actions, hardware.ticks_ms, Game.new_deal(5))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))  # A: play
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(hardware.idle)  # returns at the window's close
    assert app.screens is None  # it got to the cards before closing


def test_drop_on_the_foundation_of_its_suit_only(tmp_path):
    position = "british 2H/AH/-/- 5C - 0,0,0,0"
    writer = ScriptWriter(parse_position(position))
    layout = writer.layout
    writer.go(1)
    writer.press("a")  # pick up the AH
    writer.go(layout.foundation_stop)  # the clubs foundation: refused, still held
    writer.press("a")
    writer.go(layout.foundation_stop + 2)  # hearts: home
    writer.press("a")
    writer.go(0)
    writer.press("b")  # and the 2H after it, with B
    result = run_desktop(["--position", position, "--keys", writer.text()])
    game = parse_position(position)
    game.push(1 << 8 | FOUNDATION)
    game.push(0 << 8 | FOUNDATION)
    assert position_line(result.stdout) == position_text(game)


def test_union_square_space_takes_a_tableau_card(tmp_path):
    position = "union 5C/" + "/".join("-" * 15) + " 9D - 0,0,0,0"
    writer = ScriptWriter(parse_position(position))
    writer.move(0 << 8 | 5)  # 5C into the empty pile f
    writer.shot("moved")
    keys = keys_file(tmp_path, writer.text())
    result = run_desktop(["--position", position, "--keys-file", keys, "--shot", tmp_path])
    assert position_line(result.stdout) == position_text(writer.game)
    screen = load_png(tmp_path / "moved.png")
    assert mismatches(screen, expected_screen(writer.game)) == {}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="no-screen detection is Linux's")
def test_play_without_a_screen_writes_the_opening_and_ends(tmp_path):
    """What ``make play`` does on a machine with no screen: never hang, leave a picture."""

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = subprocess.run(
        [sys.executable, str(CODE), "--deal", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "shots/play.png" in result.stdout
    import pygame

    shot = pygame.image.load(str(tmp_path / "shots" / "play.png"))
    assert shot.get_size() == (640, 512)  # the window's 4x
    assert position_line(result.stdout) == position_text(Game.new_deal(3))


def test_no_more_moves_found_by_the_dead_test_while_moves_remain(tmp_path):
    """After the ace goes home, 5H can still shuttle between the two 6H, but no
    card can ever reach a foundation: the dead test, run a few positions per
    turn of the loop, ends the game."""
    start = "british KC/5H/6H/6H - AS 0,0,0,0"
    writer = ScriptWriter(parse_position(start))
    writer.move(WASTE << 8 | FOUNDATION)
    assert writer.game.moves()  # the game is not lost outright
    script = writer.text()
    assert script.startswith("a ")  # past the title screen: then a look at the board
    keys = keys_file(tmp_path, "a shot:board " + script[2:] + " wait:300 shot:end")
    result = run_desktop(["--position", start, "--keys-file", keys, "--shot", tmp_path])
    assert position_line(result.stdout) == position_text(writer.game)
    screen = load_png(tmp_path / "end.png")
    board = load_png(tmp_path / "board.png")
    assert looks_like(board, 2, 7, FIRST_CARD + 12)  # the KC, until the verdict
    assert not looks_like(screen, 2, 7, FIRST_CARD + 12)  # "No more moves" covers it
