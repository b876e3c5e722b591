"""The whole game under CircuitPython's VM: scripted presses, the screen read back.

Runs code.py as a board would (board_id "pygamer32d": keypad.FakeKeys, a
framebuffer display) from the board tree the deploy code builds, then checks
every screenshot against the engine's state, the heap it needed, and that
the desktop ends in the same position. Long random sessions are in
test_stress_vm.py.
"""

import json
import random
import shutil
import struct
import sys

import pytest
from conftest import HW, LIB, ROOT
from screen_check import (
    Sprites,
    expected_screen,
    load_png,
    load_raw,
    mismatches,
    text_mismatches,
)
from scripting import ScriptWriter
from sessions import ABOUT_ROW, MENU, long_game
from ui_runs import (
    board_tree,
    four_colour_script,
    kept_game,
    keys_file,
    play_every_key_word,
    position_line,
    reported,
    run_desktop,
    session_writer,
)

from british_square.controls import LEFT, NONE, SLEEP_S
from british_square.desktop.notation import parse_position, position_text
from british_square.layout import FONT_W, TEXT_LINE
from british_square.piles import BRITISH, FOUNDATION, UNION, WASTE

# The whole game, harness included, from an empty heap: the budget
# (docs/memory.md).
HEAP = "128K"
pytestmark = pytest.mark.vm


@pytest.fixture(scope="module")
def mpy_board(vm, mpy_cross, tmp_path_factory):
    return board_tree(tmp_path_factory.mktemp("board"), mpy_cross)


@pytest.fixture(scope="module")
def session(vm, mpy_board, tmp_path_factory):
    writer = session_writer()
    shots = tmp_path_factory.mktemp("vm_shots")
    keys = keys_file(shots, writer.text())
    result = vm.run_board(
        mpy_board, "--deal", "7", "--keys-file", keys, "--shot", shots,
        heap=HEAP,
    )  # fmt: skip
    return writer, shots, result.stdout


def test_every_screenshot_shows_the_engine_state(session):
    writer, shots, _ = session
    assert len(writer.snapshots) == 4
    for name, game in writer.snapshots.items():
        screen = load_raw(shots / (name + ".rgb565"))
        assert mismatches(screen, expected_screen(game)) == {}, name


def test_session_ends_where_the_engine_does(session):
    writer, _, output = session
    assert position_line(output) == position_text(writer.game)
    assert writer.game.rules == 1 and writer.game.deal_number == 23456
    assert reported(output, "overflows") == "0"


def test_desktop_and_vm_end_in_the_same_position(session, tmp_path):
    writer, _, output = session
    keys = keys_file(tmp_path, writer.text())
    desktop = run_desktop(["--deal", "7", "--keys-file", keys, "--shot", tmp_path])
    assert position_line(desktop.stdout) == position_line(output)


def test_every_key_script_word_the_help_lists_plays_on_the_vm(vm, mpy_board, tmp_path):
    # issue 50: hint, redo, new, restart, the digits raised IndexError in
    # the VM adapter's poll, and quit pressed B
    def run(script):
        result = vm.run_board(mpy_board, "--deal", "7", "--keys", script, "--shot", tmp_path,
                              heap=HEAP)  # fmt: skip
        return position_line(result.stdout)

    play_every_key_word(run, tmp_path)


def test_runs_from_py_sources(vm, tmp_path):
    # a board compiles .py files itself, which needs more heap than .mpy
    tree = board_tree(tmp_path / "board")
    writer = session_writer()
    keys = keys_file(tmp_path, writer.text())
    result = vm.run_board(tree, "--deal", "7", "--keys-file", keys, "--shot", tmp_path,
                    heap="192K")  # fmt: skip
    assert position_line(result.stdout) == position_text(writer.game)
    print("live heap peak from .py sources:", reported(result.stdout, "peak_live"))


def test_the_desktop_font_is_the_boards(vm, tmp_path):
    """Blinka's terminalio.FONT, which the desktop draws text with, has the
    glyphs of CircuitPython's, bit for bit."""
    from screen_check import glyph

    first, last = 32, 126  # the printable characters, all the font has
    script = (
        "import terminalio\n"
        "b = terminalio.FONT.bitmap\n"
        "for y in range({h}):\n"
        "    print(''.join(str(b[x, y]) for x in range({w})))\n"
    ).format(h=TEXT_LINE, w=FONT_W * (last - first + 1))
    board = vm.run_code(script, tmp_path).stdout.split()
    ours = [glyph(chr(code)) for code in range(first, last + 1)]
    desktop = [
        "".join(str(int(g[y][x])) for g in ours for x in range(FONT_W)) for y in range(TEXT_LINE)
    ]
    assert board == desktop


def test_four_colour_suits_on_the_vm_are_the_desktops_pixels(vm, mpy_board, tmp_path):
    # the palettes change in the board's own displayio, and draw as the desktop's
    writer = four_colour_script()
    keys = keys_file(tmp_path, writer.text())
    (tmp_path / "desktop").mkdir()
    result = vm.run_board(
        mpy_board, "--deal", "7", "--keys-file", keys, "--shot", tmp_path, heap=HEAP
    )
    assert position_line(result.stdout) == position_text(writer.game)
    screen = load_raw(tmp_path / "four.rgb565")
    game = writer.snapshots["four"]
    assert mismatches(screen, expected_screen(game, Sprites(four_colours=True))) == {}
    assert mismatches(screen, expected_screen(game, Sprites()))  # not the two colours
    run_desktop(["--deal", "7", "--keys-file", keys, "--shot", tmp_path / "desktop"])
    assert screen == load_png(tmp_path / "desktop" / "four.png")


def kept_statistics(path):
    sys.path.insert(0, str(ROOT / "tools"))
    from screenshots import kept_statistics as keep

    keep(path)


def text_screens_script():
    """A key script through the screens of text, a shot of each: title,
    menu, help (both pages), rules, statistics, deal number, the question
    before a game is left."""
    row = [line.split("{")[0] for line in MENU].index
    keys = ["shot:title", "a", "up", "a", "start", "shot:menu"]  # a card dealt: "Abandon?" asks
    keys += ["down"] * row("Help") + ["a", "shot:help", "right", "shot:marks", "b"]
    keys += ["up"] * (row("Help") - row("Rules: ")) + ["a", "shot:rules", "b"]
    keys += ["down"] * (row("Statistics") - row("Rules: ")) + ["a", "shot:stats", "b"]
    keys += ["up"] * (row("Statistics") - row("Deal number")) + ["a", "up", "shot:deal", "b"]
    keys += ["up"] * (row("Deal number") - row("New game")) + ["a", "shot:confirm"]
    return " ".join(keys)


TEXT_SHOTS = ("title", "menu", "help", "marks", "rules", "stats", "deal", "confirm")


@pytest.fixture(scope="module")
def text_screens(vm, mpy_board, tmp_path_factory):
    """The screens of text under the VM (RGB565 dumps) and on the desktop
    (PNGs, naming the board's buttons), the same statistics kept on both."""
    folder = tmp_path_factory.mktemp("text_screens")
    nvm = folder / "kept.nvm"
    kept_statistics(nvm)
    keys = keys_file(folder, text_screens_script())
    (folder / "vm").mkdir()
    vm.run_board(
        mpy_board, "--deal", "7", "--keys-file", keys, "--shot", folder / "vm", heap=HEAP,
        env={"CIRCUITPY_NVM_FILE": str(nvm)},
    )  # fmt: skip
    kept_statistics(nvm)  # as it was (the VM saved on leaving the cards)
    desktop = folder / "desktop"
    run_desktop(
        ["--deal", "7", "--save", nvm, "--keys-file", keys, "--shot", desktop],
        env={"BSQ_BOARD_BUTTONS": "1"},
    )
    return folder


def test_text_screens_are_the_same_pixels_on_the_desktop_and_the_vm(text_screens):
    for name in TEXT_SHOTS:
        board = load_raw(text_screens / "vm" / (name + ".rgb565"))
        desktop = load_png(text_screens / "desktop" / (name + ".png"))
        wrong = sum(a != b for row_a, row_b in zip(board, desktop) for a, b in zip(row_a, row_b))
        assert wrong == 0, name


def test_the_menu_on_the_vm_shows_its_words_in_the_fonts_glyphs(text_screens):
    from screen_check import fitted

    from british_square.layout import BODY_X, BODY_Y, TEXT_COLUMNS, TITLE_Y
    from british_square.menu import MENU_COLUMN, MENU_MARK_COLUMN
    from british_square.sheet import TEXT_GREY, TEXT_WHITE, TEXT_YELLOW

    screen = load_raw(text_screens / "vm" / "menu.rgb565")
    title = fitted("Menu: 1 move, 0:00", TEXT_COLUMNS, centred=True)  # a card dealt
    assert text_mismatches(screen, BODY_X, TITLE_Y, title, TEXT_YELLOW) == 0
    for row, line in enumerate(MENU[:8]):
        line = line.replace("{}", "British" if "Rules" in line else "")
        text = fitted(line, TEXT_COLUMNS, column=MENU_COLUMN)
        if row == 7:  # more rows below
            text = text[:MENU_MARK_COLUMN] + "v" + text[MENU_MARK_COLUMN + 1 :]
        y = BODY_Y + TEXT_LINE * row
        colour = TEXT_GREY if line == "Redo" else TEXT_WHITE  # nothing to redo: dimmed
        assert text_mismatches(screen, BODY_X, y, text, colour) == 0, line
    # and a line it does not show is found wrong
    assert text_mismatches(screen, BODY_X, BODY_Y, fitted("New game", TEXT_COLUMNS), TEXT_WHITE)


def test_the_vm_names_the_boards_buttons_where_the_desktop_names_its_keys(text_screens, tmp_path):
    from screen_check import fitted

    from british_square.layout import BODY_X, BODY_Y, FOOTER_Y, TEXT_COLUMNS
    from british_square.sheet import TEXT_WHITE

    def says(screen, y, text, centred=False):
        line = fitted(text, TEXT_COLUMNS, centred=centred)
        return text_mismatches(screen, BODY_X, y, line, TEXT_WHITE) == 0

    title = load_raw(text_screens / "vm" / "title.rgb565")
    assert says(title, FOOTER_Y, "A: play    Start: menu", centred=True)
    assert not says(title, FOOTER_Y, "Z: play    Esc: menu", centred=True)
    help_keys = load_raw(text_screens / "vm" / "help.rgb565")
    assert says(help_keys, BODY_Y, "Stick/pad: move the cursor")
    assert says(help_keys, BODY_Y + TEXT_LINE * 5, "Start: menu; in it")
    assert says(help_keys, BODY_Y + TEXT_LINE * 6, "   Select: hint, >: redo")
    # the desktop's own screens, the same script: its keys
    keys = keys_file(tmp_path, text_screens_script())
    run_desktop(["--deal", "7", "--keys-file", keys, "--shot", tmp_path])
    title = load_png(tmp_path / "title.png")
    assert says(title, FOOTER_Y, "Z: play    Esc: menu", centred=True)
    help_keys = load_png(tmp_path / "help.png")
    assert says(help_keys, BODY_Y, "Arrows: move the cursor")
    assert says(help_keys, BODY_Y + TEXT_LINE * 5, "Esc: menu; in it")
    assert says(help_keys, BODY_Y + TEXT_LINE * 6, "   U: hint, >: redo")


def test_won_and_no_more_moves(vm, mpy_board, tmp_path):
    # each position as a save the VM resumes at power-on, as a board would
    nvm = kept_game(tmp_path / "won.nvm", parse_position("british AC/-/-/- - - 25,26,26,26"))
    won = vm.run_board(
        mpy_board, "--keys", "a b wait:120 shot:won", "--shot", tmp_path, heap=HEAP, env=nvm
    )
    assert position_line(won.stdout).endswith("- - 26,26,26,26")
    assert "won" in reported(won.stdout, "screens").split()

    # (a save holds only the two whole decks: spades to do, both 2S under the kings)
    start = "british AS2S2S3S.4S5S6S7S8S9STSJSQSKS/3S4S5S6S.7S8S9STSJSQSKS/-/- - AS 26,0,26,26"
    writer = ScriptWriter(parse_position(start))
    writer.move(WASTE << 8 | FOUNDATION)  # the ace home: then no card can go home
    nvm = kept_game(tmp_path / "stuck.nvm", parse_position(start))
    stuck = vm.run_board(
        mpy_board, "--keys", writer.text() + " wait:300 shot:over b shot:end",
        "--shot", tmp_path, heap=HEAP, env=nvm,
    )  # fmt: skip
    assert position_line(stuck.stdout) == position_text(writer.game)
    screen = load_raw(tmp_path / "end.rgb565")
    assert mismatches(screen, expected_screen(writer.game)) == {}  # B: the cards stay in sight
    assert "over" in reported(stuck.stdout, "screens").split()  # Game over said why first


def test_keypad_overflow_under_the_vm(vm, tmp_path):
    """More events than the queue holds, a held direction's release among the lost:
    the game drops them, resets the keys and nothing repeats by itself."""
    script = """
import keypad
from british_square.controls import NONE, KeypadActions
keys = keypad.FakeKeys(key_count=8, max_events=8)
actions = KeypadActions(keys, keypad.Event())
keys.press(7)  # Left held
print(actions.poll(0))
for _ in range(10):
    keys.press(1)
    keys.release(1)
keys.release(7)  # lost
print(keys.events.overflowed, actions.poll(10))
print(sum(actions.poll(t) != NONE for t in range(20, 5000, 50)), actions.overflows)
"""
    out = vm.run_code(script, tmp_path, path=(LIB, *vm_libs())).stdout.split()
    assert out == [str(LEFT), "True", str(NONE), "0", "1"]


def vm_libs():
    import importlib.util
    from pathlib import Path

    return (Path(importlib.util.find_spec("adafruit_ticks").origin).parent,)


def test_bench_script_runs(vm, tmp_path):
    tree = board_tree(tmp_path / "board")
    result = vm.run(ROOT / "tests/bench/bench_ui.py", path=(tree / "lib", HW))
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    metrics = {row["metric"]: row for row in rows}
    # timings are the benchmark's to report (make bench), not a test's to assert
    assert {"redraw_fraction", "press_cost", "dead_probe_step_union"} <= set(metrics)
    assert all(row["value"] > 0 for row in rows if row["unit"] in ("loops", "ratio"))
    # the main loop allocates nothing while waiting, nor for a cursor step
    assert metrics["idle_frame_alloc"]["value"] == 0
    assert metrics["cursor_press_alloc"]["value"] == 0
    # nor does the dead test, which runs a step per loop turn once the stock is out
    assert metrics["dead_probe_step_alloc_british"]["value"] == 0
    assert metrics["dead_probe_step_alloc_union"]["value"] == 0


@pytest.mark.parametrize("deal", ["90007", "0001"])  # 0001: as the desktop command, refused
def test_code_py_refuses_a_bad_option_on_the_vm(vm, mpy_board, deal):
    result = vm.run_board(mpy_board, "--deal", deal, check=False)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: bad --deal '{}'".format(deal))


def test_a_key_file_path_with_a_line_break_is_one_quoted_line_on_the_vm(vm, mpy_board):
    result = vm.run_board(mpy_board, "--keys-file", "/no/such\nfile", check=False)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "key file '/no/such\\nfile'" in lines[0], result.stderr


def test_a_resting_loop_sleeps_between_polls(vm, mpy_board):
    # two seconds on the cards with no press: at most one turn a 15 ms rest, as
    # on a board (controls.rest), where the loop as it was spun thousands of times
    rests = vm.run_board(mpy_board, "--deal", "1", "--keys", "a wait:2000", heap=HEAP)
    turns = int(reported(rests.stdout, "turns"))
    most = 2000 // round(1000 * SLEEP_S)
    assert most // 3 <= turns <= most + 10
    spins = vm.run_board(
        mpy_board, "--deal", "1", "--keys", "a wait:2000", heap=HEAP, env={"BSQ_BUSY_LOOP": "1"}
    )
    assert int(reported(spins.stdout, "turns")) > 10 * turns


def test_the_about_screen_reports_the_board_and_measures_redraws(vm, mpy_board):
    keys = "start " + "down " * ABOUT_ROW + "a a"  # About, then A: three seconds of redraws
    result = vm.run_board(
        mpy_board, "--deal", "1", "--keys", keys, heap=HEAP, env={"BSQ_BATTERY_MV": "3400"}
    )
    about = [line for line in result.stdout.splitlines() if line.startswith("about: ")]
    assert len(about) == 2, result.stdout  # printed to the console on opening, and measured
    fields = about[0][len("about: ") :].split(", ")
    version, board, heap, nvm, battery, errors, redraw = fields
    assert (board, nvm, battery, errors) == ("VM (pygamer32d)", "8192 bytes", "low: 3.40 V", "0")
    assert version == "0.1.0" and redraw == heap == "press A"
    heap = about[1].split(", ")[2]  # measured with the redraws
    free, total = (int(kb) for kb in heap.removesuffix("K").split("K of "))
    asked = int(HEAP[:-1])
    assert asked - 6 <= total < asked  # the heap asked for, less the collector's tables
    assert 0 < free < total
    rate = about[1].split(", ")[-1]
    assert rate.endswith("/s full") and float(rate[: -len("/s full")]) >= 1


def test_help_on_the_vm_lists_the_options_and_the_key_script_words(vm, mpy_board):
    out = vm.run_board(mpy_board, "--help").stdout
    assert out.startswith("usage: code.py [options]") and "wait:MS" in out


def test_a_fake_battery_that_is_no_number_is_refused_on_the_vm(vm, mpy_board):
    result = vm.run_board(mpy_board, "--deal", "1", env={"BSQ_BATTERY_MV": "x"}, check=False)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "BSQ_BATTERY_MV" in lines[0]
    assert "Traceback" not in result.stdout + result.stderr


def test_a_kept_game_resumes_on_the_vm_as_a_board_resumes_it(vm, mpy_board, tmp_path):
    env = {"CIRCUITPY_NVM_FILE": str(tmp_path / "nvm")}
    # deal twice from the stock, then the menu: the session's first rest saves
    first = vm.run_board(mpy_board, "--deal", "5", "--keys", "a up a a start", heap=HEAP, env=env)
    assert reported(first.stdout, "saves") == "1"
    again = vm.run_board(mpy_board, "--keys", "a", heap=HEAP, env=env)  # power on: no deal given
    assert position_line(again.stdout) == position_line(first.stdout)
    assert reported(again.stdout, "saves") == "0"  # nothing changed: nothing written


def test_another_programs_nvm_is_a_new_board_on_the_vm(vm, mpy_board, tmp_path):
    # issue 50: it skipped the first start, saying "Saved game unreadable"
    data = bytearray(random.Random(3).randbytes(8192))
    data[0] = data[4096] = 0  # no header of ours: the magic's first byte has bits set
    nvm = tmp_path / "nvm"
    nvm.write_bytes(data)
    env = {"CIRCUITPY_NVM_FILE": str(nvm), "BSQ_KEYS": "a a"}  # Union Square, how to play
    result = vm.run_board(mpy_board, heap=HEAP, env=env)
    assert reported(result.stdout, "screens").split() == ["play", "help", "first"]
    assert int(reported(result.stdout, "saves")) >= 1  # as the help was left
    after = nvm.read_bytes()
    assert after[1024:4096] == data[1024:4096] and after[5120:] == data[5120:]
    assert after[4096:4100] == b"BSQ\x1a"  # the first save: slot B


def test_an_hour_of_scripted_play_on_the_vm_keeps_to_the_rate_limit(vm, mpy_board, tmp_path):
    # an American deal: a card dealt and undone in turn every two seconds (the
    # cursor on the stock), a look at the menu once a minute (a save goes a
    # share a turn there, once all else is quiet); a virtual clock runs the
    # hour in seconds
    minute = "a wait:2000 sel wait:2000 " * 14 + "a wait:2000 sel wait:1000 start wait:1000 b "
    keys = keys_file(tmp_path, "a right right right right " + minute * 60)
    env = {"CIRCUITPY_NVM_FILE": str(tmp_path / "nvm"), "BSQ_TURN_MS": "100"}
    result = vm.run_board(
        mpy_board, "--rules", "american", "--deal", "2", "--keys-file", keys, heap=HEAP, env=env
    )
    saves = int(reported(result.stdout, "saves"))
    # the first rest at once, then one save a 25 minutes at most, and one at
    # the script's end (a board never ends): no save per move
    assert 2 <= saves <= 1 + 3600 // 1500 + 1, result.stdout


# ------------------------------------------------- damaged files on the drive


def damage(path, how):
    """Damage the game file at ``path`` as a drive might: gone, a folder in
    its place, empty, cut short, holding more texts than the game's, random
    bytes, a sheet of the wrong width."""
    data = path.read_bytes()
    if how == "missing":
        path.unlink()
    elif how == "a folder":  # opened, on the unix port, and then unreadable (EISDIR)
        path.unlink()
        path.mkdir()
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "cut short":
        path.write_bytes(data[: len(data) // 2])
    elif how == "cut to 100 bytes":
        path.write_bytes(data[:100])
    elif how == "more texts":
        more = b"".join(b"@more%d\n|x\n" % i for i in range(40))
        path.write_bytes(data.replace(b"@end\n", more + b"@end\n"))
    elif how == "random bytes":
        path.write_bytes(random.Random(7).randbytes(len(data)))
    else:  # "wrong width": the header says 150 pixels
        path.write_bytes(data[:18] + struct.pack("<i", 150) + data[22:])


DAMAGES = [
    ("words.txt", "missing"),
    ("words.txt", "a folder"),  # issue 37: an OSError traceback at start-up
    ("words.txt", "empty"),
    ("words.txt", "cut short"),
    ("words.txt", "more texts"),
    ("words.txt", "random bytes"),
    ("cards.bmp", "missing"),
    ("cards.bmp", "a folder"),
    ("cards.bmp", "empty"),
    ("cards.bmp", "cut to 100 bytes"),
    ("cards.bmp", "wrong width"),
]


@pytest.mark.parametrize(("name", "how"), DAMAGES)
def test_a_damaged_game_file_is_one_line_then_a_clean_end(vm, mpy_board, tmp_path, name, how):
    tree = tmp_path / "board"
    shutil.copytree(mpy_board, tree)
    damage(tree / "lib" / "british_square" / name, how)
    result = vm.run_board(tree, heap=HEAP, check=False)  # as a board runs code.py
    # status 2: SystemExit, which a board takes as code.py's end, and waits
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout.splitlines() == [name + " is damaged: make deploy mends it"]
    assert result.stderr == ""


def test_the_damage_is_said_on_the_screen_in_the_built_in_font(vm, mpy_board, tmp_path):
    from british_square.sheet import TEXT_WHITE

    shot = tmp_path / "damage.rgb565"
    script = (
        "import board\n"
        "from british_square.damage import line, say\n"
        "from british_square.words import DamagedFile\n"
        "board.DISPLAY.auto_refresh = False\n"
        "say(line(DamagedFile('cards.bmp')))\n"
        "open({!r}, 'wb').write(board.DISPLAY.framebuffer)\n"
    ).format(str(shot))
    out = vm.run_code(script, tmp_path, path=(mpy_board / "lib",)).stdout
    assert out.splitlines() == ["cards.bmp is damaged: make deploy mends it"]
    screen = load_raw(shot)
    first, second = "cards.bmp is damaged:", "make deploy mends it"
    x = 80 - FONT_W * len(first) // 2  # the two lines centred as one block
    assert text_mismatches(screen, x, 52, first, TEXT_WHITE) == 0
    assert text_mismatches(screen, x, 52 + TEXT_LINE, second, TEXT_WHITE) == 0


# ------------------------------------------------- modules gone from the drive

# Every module of the game a board holds, and what loads those that a power-on
# with a kept game does not: a new board's first start, a record kept from a
# start position, a desktop's direct key (the key scripts have them), About's A.
MODULES = sorted(
    path.stem
    for path in (LIB / "british_square").glob("*.py")
    # the desktop's; the damage's own, which says it; a board's speaker's (the VM has none)
    if path.stem not in ("__main__", "damage", "sounds")
)
LOADED_BY = {
    # a board's modules import cards only for card_name (its constants are
    # compiled in): position does, for a game kept from a start position
    "cards": ("start position", "a"),
    "first_start": ("new board", "a"),
    "position": ("start position", "a"),
    "shortcuts": ("kept", "a hint"),
    "timing": ("kept", "a start " + "down " * ABOUT_ROW + "a a"),
}
# and of the adapters and libraries, a few: the VM's adapter, its key
# scripts, a library's module
OTHERS = ["hw/vm", "hw/keyscript", "lib/adafruit_ticks"]


def kept_save(path, how):
    """``path`` holding what a player's board keeps (``how``: "kept", a game
    with statistics and settings of its own; "start position", a long game
    kept from a start position; "new board", nothing): its bytes, or None."""
    if how == "new board":
        return None
    sys.path.insert(0, str(HW))
    from storage import FileNVM

    from british_square.engine import Game
    from british_square.store import Store

    store = Store(FileNVM(str(path)))
    store.stats.add_game(BRITISH, 21, False, 140, 600, True, 3)
    store.settings.sound = False
    store.settings.brightness = 60
    game = long_game(UNION, 5, 600) if how == "start position" else Game.new_deal(5)
    if how == "kept":
        game.play(game_move(game))
    store.save(game, 75, 1)
    return path.read_bytes()


def game_move(game):
    from british_square.desktop.games import legal_moves

    return legal_moves(game)[0]


def run_without(vm, mpy_board, tmp_path, file, how, keys, damage="missing"):
    """The board tree with ``file`` (under the tree, no suffix) gone or, with
    ``damage`` "empty", emptied, run as a board at power-on over the save
    ``how`` (``kept_save``) pressing ``keys``: (the run, the save before, after).
    With ``files.mpy`` gone, its words.txt is another than the one shipped
    (a translation's): the only start-up that reads one through, with it."""
    tree = tmp_path / "board"
    shutil.copytree(mpy_board, tree)
    if file.endswith("/files"):
        words = tree / "lib/british_square/words.txt"
        words.write_bytes(words.read_bytes().replace(b"Deal number", b"Deal Number", 1))
    target = tree / (file + ".mpy")
    assert target.is_file(), target
    if damage == "missing":
        target.unlink()
    else:
        target.write_bytes(b"")
    nvm = tmp_path / "nvm"
    before = kept_save(nvm, how)
    env = {"CIRCUITPY_NVM_FILE": str(nvm), "BSQ_KEYS": keys}
    result = vm.run_board(tree, heap=HEAP, env=env, check=False)
    return result, before, nvm.read_bytes() if nvm.exists() else None


@pytest.mark.parametrize("name", MODULES + OTHERS)
def test_a_module_gone_from_the_drive_is_one_line_and_the_save_is_kept(
    vm, mpy_board, tmp_path, name
):
    # issue 50: with resume.mpy gone (a copy cut short) the game said "Saved
    # game unreadable", kept nothing of the statistics and settings, and its
    # next save, numbered 1, went over the old record; first_start and
    # deal_entry gone were a traceback
    file = name if "/" in name else "lib/british_square/" + name
    how, keys = LOADED_BY.get(name, ("kept", "a"))
    result, before, after = run_without(vm, mpy_board, tmp_path, file, how, keys)
    said = file.split("/", 1)[1].removeprefix("british_square/") + ".mpy"
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    if name == "timing":  # About says its own line first, as it opens
        assert lines.pop(0).startswith("about: ")
    assert lines == [said + " is missing: make deploy mends it"]
    assert result.stderr == ""
    assert after == before  # the save as it was, for the game mended


@pytest.mark.parametrize(("name", "how"), [("resume", "kept"), ("deal_entry", "kept"),
                                           ("position", "start position")])  # fmt: skip
def test_a_module_the_vm_cannot_read_is_one_line_and_the_save_is_kept(
    vm, mpy_board, tmp_path, name, how
):
    file = "lib/british_square/" + name
    result, before, after = run_without(vm, mpy_board, tmp_path, file, how, "a", "empty")
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout.splitlines() == [name + ".mpy is damaged: make deploy mends it"]
    assert after == before
