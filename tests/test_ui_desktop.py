"""The desktop front end, headless: key scripts in, PNG screenshots out, read
back sprite by sprite against the engine. (The layout, the controls, the key
scripts and the adapters have their own test files; the app in process is
test_app.py.)"""

import os
import subprocess
import sys

import pytest
from screen_check import (
    FELT,
    Sprites,
    expected_screen,
    load_png,
    looks_like,
    mismatches,
    rgb565,
)
from scripting import ScriptWriter
from ui_runs import (
    CODE,
    four_colour_script,
    keys_file,
    play_every_key_word,
    position_line,
    run_desktop,
)

from british_square import sheet
from british_square.desktop.games import legal_moves
from british_square.desktop.notation import parse_move, parse_position, position_text
from british_square.engine import Game
from british_square.layout import ACES_PITCH, ACES_X, ACES_Y
from british_square.piles import FOUNDATION, STOCK, WASTE, move
from british_square.sheet import FIRST_CARD


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


def test_a_column_grown_and_taken_back_shows_no_strip_below_its_top_card(tmp_path):
    # The strips a column's top card lies on are written only once they show
    # (scene.PlayScene._show_column): grown three cards and taken back three,
    # the column shows what the engine holds, and the felt below it.
    position = "british AS.2S3S/KS4S/KD5S/KH6S 9D9C - 0,0,0,0"
    writer = ScriptWriter(parse_position(position))
    for k, m in enumerate(("ba", "ca", "da")):
        writer.move(parse_move(m, writer.game))
        writer.shot("grown{}".format(k))
    for k in range(3):
        writer.undo()
        writer.shot("undone{}".format(k))
    keys = keys_file(tmp_path, writer.text())
    result = run_desktop(["--position", position, "--keys-file", keys, "--shot", tmp_path])
    sprites = Sprites()
    for name, game in writer.snapshots.items():
        screen = load_png(tmp_path / (name + ".png"))
        assert mismatches(screen, expected_screen(game, sprites)) == {}, name
    assert position_line(result.stdout) == position


def test_every_key_script_word_the_help_lists_plays_headless(tmp_path):
    def run(script):
        result = run_desktop(["--deal", "7", "--keys", script, "--shot", tmp_path])
        return position_line(result.stdout)

    play_every_key_word(run, tmp_path)


def test_four_colour_suits_draw_clubs_and_diamonds_in_their_colours(tmp_path):
    writer = four_colour_script()
    keys = keys_file(tmp_path, writer.text())
    run_desktop(["--deal", "7", "--keys-file", keys, "--shot", tmp_path])
    screen = load_png(tmp_path / "four.png")
    game = writer.snapshots["four"]
    assert mismatches(screen, expected_screen(game, Sprites(four_colours=True))) == {}
    two = mismatches(screen, expected_screen(game, Sprites()))
    assert two and all("column" in pile or "waste" in pile or "foundation" in pile for pile in two)


def test_no_keys_shows_the_title_and_ends(tmp_path):
    shot = tmp_path / "title.png"
    result = run_desktop(["--deal", "3", "--shot", shot], timeout=60)
    screen = load_png(shot)
    for suit in range(4):  # the four aces of the title screen
        assert looks_like(screen, ACES_X + ACES_PITCH * suit, ACES_Y, FIRST_CARD + suit * 13)
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
    pink = rgb565(refused)
    flash = load_png(tmp_path / "flash.png")
    assert flash[7 + 12][2 + 17] == pink  # the face of the 5H, right of its big pip
    after = load_png(tmp_path / "after.png")
    assert looks_like(after, 2, 7, FIRST_CARD + 26 + 4)
    assert position_line(result.stdout) == position
    assert after[0][159] == FELT


def test_autoplay_sends_a_freed_ace_home(tmp_path):
    position = "british AH/KS/-/- 5C QS 0,0,0,0"
    writer = ScriptWriter(parse_position(position))
    writer.move(move(WASTE, 1))  # QS onto KS; nothing else
    keys = keys_file(tmp_path, writer.text())
    result = run_desktop(["--position", position, "--autoplay", "--keys-file", keys])
    writer.game.push(move(0, FOUNDATION))  # what auto-play adds: the ace of hearts
    assert position_line(result.stdout) == position_text(writer.game)


def test_script_writer_plays_what_it_writes():
    writer = ScriptWriter(Game.new_deal(11))
    writer.play_some(5)
    writer.deal(42)
    assert writer.game.deal_number == 42 and writer.game.stock_count == 88
    assert writer.text().split()[0] == "a"
    assert move(STOCK, WASTE) in legal_moves(Game.new_deal(11))


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
    game.push(move(1, FOUNDATION))
    game.push(move(0, FOUNDATION))
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
    # said aside, in one line: standard output is the game's
    assert len(result.stderr.splitlines()) == 1 and "'shots/play.png'" in result.stderr
    import pygame

    shot = pygame.image.load(str(tmp_path / "shots" / "play.png"))
    assert shot.get_size() == (640, 512)  # the window's 4x
    assert position_line(result.stdout) == position_text(Game.new_deal(3))


def test_no_more_moves_says_game_over_and_b_leaves_the_cards_in_sight(tmp_path):
    """After the ace goes home, 5H can still shuttle between the two 6H, but no
    card can ever reach a foundation: the dead test, run a few positions per
    turn of the loop, finds it, Game over says why, and B shows the cards,
    the panel saying so."""
    start = "british KC/5H/6H/6H - AS 0,0,0,0"
    writer = ScriptWriter(parse_position(start))
    writer.move(WASTE << 8 | FOUNDATION)
    assert legal_moves(writer.game)  # the game is not lost outright
    keys = keys_file(tmp_path, writer.text() + " wait:300 shot:over b shot:end")
    result = run_desktop(["--position", start, "--keys-file", keys, "--shot", tmp_path])
    assert position_line(result.stdout) == position_text(writer.game)
    assert mismatches(load_png(tmp_path / "over.png"), expected_screen(writer.game))  # a page
    screen = load_png(tmp_path / "end.png")
    assert mismatches(screen, expected_screen(writer.game)) == {}  # the board, whole
    yellow = sheet.TEXT_YELLOW
    notice = rgb565(yellow)
    panel = [screen[y][x] for y in range(80, 128) for x in range(97, 160)]
    assert notice in panel  # "No more moves." where the numbers were


def test_issue_8_crash_a_dead_verdict_during_a_flash():
    position = "american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"
    result = run_desktop(["--position", position, "--keys", "a b wait:400"])
    assert position_line(result.stdout) == position


def test_long_columns_and_full_foundations_are_drawn_readably(tmp_path):
    # a British column of 4 base cards and 12 built (shown with a gap), and the
    # foundations at 13 (K, going down next), 14 (K again) and 26 (complete)
    # (the AS can go home: not a dead game, which would show Game over)
    position = "british 9C8C7S.6S/AH2H3H4H.5H6H7H8H9HTHJHQHKH/AS/- - - 13,14,0,26"
    game = parse_position(position)
    result = run_desktop(["--position", position, "--keys", "a shot:board", "--shot", tmp_path])
    assert position_line(result.stdout) == position
    screen = load_png(tmp_path / "board.png")
    assert mismatches(screen, expected_screen(game)) == {}


def test_save_file_keeps_the_game_across_runs_and_headless_keeps_nothing_unasked(tmp_path):
    save = tmp_path / "kept" / "save.nvm"
    first = run_desktop(["--deal", "5", "--save", save, "--keys", "a up a a start"])  # two deals
    assert save.stat().st_size == 8192
    # no --deal: the kept game, moves and all (A: continue)
    again = run_desktop(["--save", save, "--keys", "a", "--shot", tmp_path / "again.png"])
    assert position_line(again.stdout) == position_line(first.stdout)
    # a headless run without --save writes no file into the user's data folder
    home = tmp_path / "home"
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    result = subprocess.run(
        [sys.executable, str(CODE), "--headless", "--deal", "5", "--keys", "a a start"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert not (home / "data").exists()


def test_a_save_file_that_cannot_be_read_is_one_error_line(tmp_path):
    result = subprocess.run(
        [sys.executable, str(CODE), "--headless", "--save", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "is a folder, not a save file" in result.stderr
