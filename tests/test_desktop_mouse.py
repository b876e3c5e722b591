"""The desktop speaks desktop (issue 22): its screens name the keys the
player presses, and the mouse plays: a click on a card picks it up, a click
on a lit place puts it down, a click on the stock deals, a right click puts
the card back; on the menu a click chooses a row.

In process, a window on SDL's dummy driver: pygame events posted as a
player's hand would make them, played by the window's own loop."""

import sys

import pytest
from app_harness import MENU, page_text, shown, turn
from conftest import HW

from british_square.controls import NONE
from british_square.desktop.games import legal_moves, played_moves
from british_square.desktop.notation import parse_position
from british_square.engine import Game
from british_square.layout import (
    BODY_Y,
    NO_STOP,
    SCREEN_H,
    SCREEN_W,
    TEXT_LINE,
    Layout,
)
from british_square.menu import row_of
from british_square.piles import AMERICAN, BRITISH, STOCK, WASTE, move, move_source, move_target
from british_square.sheet import CARD_H, CARD_W, NORMAL, TARGET
from british_square.table import OUTCOME_ENDED

sys.path.insert(0, str(HW))  # hw/ is not a package
from pointer import step_toward, stop_at  # noqa: E402

SCALE = 4  # the window's
# the hearts at home to go; AH can go home, 5H onto 6H (or 6H onto 5H)
HEARTS = "british AH/5H/6H/KC - - 0,0,0,0"
WITH_STOCK = "british 5H/6H/KC/KS 9D QD 0,0,0,0"  # 9D to deal, QD on the waste
HEARTS_HOME = 2  # the hearts' foundation: suits C, S, H, D


@pytest.fixture
def window(monkeypatch, tmp_path):
    """``start(game)``: an app in a desktop window (SDL's dummy driver),
    started as code.py starts it; what the window shows is the app's."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # its save: not in the user's folder
    monkeypatch.delenv("BSQ_BOARD_BUTTONS", raising=False)
    import desktop
    import displayio

    from british_square.app import App

    displayio.release_displays()  # one display a process: an earlier test's goes
    made = []

    def start(game, **options):
        displayio.release_displays()  # and the last one this test made
        hardware = desktop.Hardware(dict(options))
        assert not hardware.headless
        app = App(hardware, None, game)
        hardware.started(app)
        made.append(hardware)
        return app

    yield start
    for hardware in made:
        hardware.stopped(hardware.app)
    displayio.release_displays()


def post(kind, **attributes):
    import pygame

    pygame.event.post(pygame.event.Event(kind, **attributes))


def click(x, y, button=1):
    """A click (press and release) at the window's pixels that show screen pixel (x, y)."""
    import pygame

    where = (x * SCALE + SCALE // 2, y * SCALE + SCALE // 2)
    post(pygame.MOUSEBUTTONDOWN, pos=where, button=button)
    post(pygame.MOUSEBUTTONUP, pos=where, button=button)


def key(name):
    import pygame

    code = pygame.key.key_code(name)
    post(pygame.KEYDOWN, key=code)
    post(pygame.KEYUP, key=code)


def run(app):
    """What the events posted so far do, through the app's own loop (a
    window's close ends it, as the events' last)."""
    import pygame

    post(pygame.QUIT)
    app.run()


def card_at(layout, game, stop):
    """A screen pixel inside the playable card of ``stop`` (its top card)."""
    if stop < layout.columns:
        height = game.column_height(stop)
        row = max(0, layout.shown_rows(height) - 1)
        return layout.pile_x[stop] + CARD_W // 2, layout.card_y(stop, row) + 4
    if stop == layout.stock_stop:
        return layout.stock_x + CARD_W // 2, layout.stock_y + CARD_H // 2
    if stop == layout.waste_stop:
        return layout.waste_x + CARD_W // 2, layout.waste_y + CARD_H // 2
    suit = stop - layout.foundation_stop
    return layout.foundation_x[suit] + CARD_W // 2, layout.foundation_y[suit] + CARD_H // 2


def on_the_cards(app):
    """Past the title, by the keyboard (Z is A)."""
    key("z")
    run(app)
    assert shown(app) == "play"


# ------------------------------------------------------------ where a click lands


@pytest.mark.parametrize("columns", [4, 16])
def test_every_pile_is_found_where_it_is_drawn_and_nothing_between(columns):
    layout = Layout(columns)
    game = Game.new_deal(3, BRITISH if columns == 4 else AMERICAN)
    for stop in range(layout.stops):
        assert stop_at(layout, *card_at(layout, game, stop)) == stop, stop
    found = {stop_at(layout, x, y) for x in range(SCREEN_W) for y in range(SCREEN_H)}
    assert found == set(range(layout.stops)) | {NO_STOP}
    assert stop_at(layout, 99, 60) == NO_STOP  # between the tableau and the panel


@pytest.mark.parametrize("columns", [4, 16])
def test_the_cursor_finds_its_way_from_every_stop_to_every_other(columns):
    layout = Layout(columns)
    for start in range(layout.stops):
        for goal in range(layout.stops):
            stop, steps = start, 0
            while stop != goal:
                way = step_toward(layout, stop, goal)
                assert way != NONE, (start, goal)
                stop = layout.neighbour(stop, way)
                steps += 1
                assert steps <= 12, (start, goal)
            assert step_toward(layout, goal, goal) == NONE


# ---------------------------------------------------------------- the cards


def test_a_click_on_a_card_picks_it_up_and_a_click_on_a_lit_place_puts_it_down(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 1))  # 5H
    run(app)
    assert app.table.held == 1 and app.table.cursor == 1
    assert app.table.scene.looks[2] == TARGET  # onto 6H: lit green
    assert game.history_count == 0
    click(*card_at(layout, game, 2))
    run(app)
    assert game.history_count == 1 and game.column_height(2) == 2
    assert app.table.held == NO_STOP and app.table.cursor == 2


def test_a_click_on_a_foundation_sends_the_held_card_home(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 0))  # AH
    click(*card_at(layout, game, layout.foundation_stop + HEARTS_HOME))
    run(app)
    assert game.foundations[HEARTS_HOME] == 1 and not game.column_height(0)


@pytest.mark.parametrize("rules", [BRITISH, AMERICAN])
def test_clicks_play_a_move_between_any_two_piles_of_a_deal(window, rules):
    app = window(Game.new_deal(10, rules))  # deal 10: British has two such moves
    on_the_cards(app)
    game, layout = app.table.game, app.table.layout
    moves = [
        m
        for m in legal_moves(game)
        if move_source(m) < game.columns and move_target(m) < game.columns
    ]
    assert moves, "a deal with a move between two piles"
    source, target = move_source(moves[-1]), move_target(moves[-1])
    click(*card_at(layout, game, source))
    click(*card_at(layout, game, target))
    run(app)
    assert played_moves(game) == [moves[-1]]


def test_the_window_redraws_once_a_click_not_once_a_step_of_the_cursor(window):
    app = window(Game.new_deal(10, AMERICAN))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    far = layout.foundation_stop + 3  # from the first pile: seven steps
    redraws = []
    refresh = app.view.refresh
    app.view.refresh = lambda: redraws.append(app.table.cursor) or refresh()
    click(*card_at(layout, game, far))
    run(app)
    assert app.table.cursor == far and redraws[1:] == [far]  # the loop's first, then the click's


def test_a_click_on_the_stock_deals(window):
    app = window(parse_position(WITH_STOCK))
    on_the_cards(app)
    game = app.table.game
    click(*card_at(app.table.layout, game, app.table.layout.stock_stop))
    run(app)
    assert game.stock_count == 0 and played_moves(game) == [move(STOCK, WASTE)]


def test_a_right_click_puts_the_held_card_back_and_otherwise_moves_nothing(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 1))
    run(app)
    assert app.table.held == 1
    click(10, 120, button=3)  # anywhere
    run(app)
    assert app.table.held == NO_STOP and game.history_count == 0
    assert all(look == NORMAL for look in app.table.scene.looks[: layout.stops])
    click(10, 120, button=3)  # nothing held: B would send AH home; a right click does not
    run(app)
    assert game.history_count == 0 and game.column_height(0) == 1


def test_a_click_on_nothing_or_on_a_dimmed_screen_does_nothing_else(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(99, 60)  # between the tableau and the panel
    run(app)
    assert app.table.held == NO_STOP and app.table.cursor == 0
    app.dimmed = True
    click(*card_at(layout, game, 1))
    run(app)
    assert not app.dimmed and app.table.held == NO_STOP  # awake: the next click plays
    click(*card_at(layout, game, 1))
    run(app)
    assert app.table.held == 1


def test_clicks_and_keys_play_in_the_order_they_came(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 1))  # 5H up, then X (B) puts it back, then 6H up
    key("x")
    click(*card_at(layout, game, 2))
    run(app)
    assert app.table.held == 2 and app.table.scene.looks[1] == TARGET


# ---------------------------------------------------------------- the menu


def row_y(row):
    return BODY_Y + TEXT_LINE * row + TEXT_LINE // 2


def test_a_click_on_a_menu_row_chooses_it_and_a_right_click_goes_back(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    key("escape")  # Esc is Start: the menu
    run(app)
    assert shown(app) == "menu"
    rows = app.words.rows("menu")
    deal = row_of("deal")
    click(60, row_y(deal))
    run(app)
    assert shown(app) == "deal"
    click(60, 60, button=3)  # B: back to the menu, on Deal number
    run(app)
    assert shown(app) == "menu" and app.screens.rows.row == deal
    click(60, row_y(row_of("back")))
    run(app)
    assert shown(app) == "play"
    key("escape")  # the menu scrolled to its last row: a click there ends the game
    for _ in range(rows - 1):
        key("down")
    run(app)
    assert app.screens.rows.top > 0
    click(60, row_y(row_of("end") - app.screens.rows.top))
    run(app)
    assert app.table.outcome == OUTCOME_ENDED  # no move made: nothing to ask


def test_the_question_before_a_game_is_left_takes_no_left_click(window):
    app = window(parse_position(WITH_STOCK))
    on_the_cards(app)
    click(
        *card_at(app.table.layout, app.table.game, app.table.layout.stock_stop)
    )  # a move: a game to lose
    key("escape")
    run(app)
    click(60, row_y(row_of("new")))
    run(app)
    assert shown(app) == "confirm"
    for y in range(0, SCREEN_H, 6):
        click(80, y)
    run(app)
    assert shown(app) == "confirm" and app.table.game.history_count == 1
    click(80, 60, button=3)  # no, back to it
    run(app)
    assert shown(app) == "menu" and app.table.game.history_count == 1


def test_a_click_on_the_title_plays(window):
    app = window(parse_position(HEARTS))
    assert shown(app) != "play"
    click(80, 60)
    run(app)
    assert shown(app) == "play"


# ----------------------------------------------------------- the keys' names


def test_the_window_names_its_keys_and_the_board_buttons_when_asked(window, monkeypatch):
    from desktop import KEY_NAMES

    app = window(parse_position(HEARTS))
    assert page_text(app).splitlines()[-1] == "Z: play    Esc: menu"
    key("z")
    key("escape")
    run(app)
    assert page_text(app).splitlines()[-1] == "Z: choose    X: back"
    for _ in range(row_of("help")):
        key("down")
    key("z")
    run(app)
    said = page_text(app)
    for board, keyboard in (("A", "Z"), ("B", "X"), ("Select", "U"), ("Start", "Esc")):
        assert KEY_NAMES[board] == keyboard
        assert keyboard + ": " in said
    assert "Arrows: move the cursor" in said
    assert not {"A:", "B:", "Select", "Start"} & set(said.split())
    monkeypatch.setenv("BSQ_BOARD_BUTTONS", "1")  # pictures of a board
    board = window(parse_position(HEARTS))
    assert page_text(board).splitlines()[-1] == "A: play    Start: menu"


def test_each_key_the_screens_name_does_what_its_button_does(window):
    """Z, X, U and Esc, pressed, are the actions of A, B, Select and Start."""
    import pygame
    from desktop import KEY_NAMES, KeyboardActions

    from british_square.controls import SELECT, START, A, B

    keymap = KeyboardActions().keymap
    buttons = {"A": A, "B": B, "Select": SELECT, "Start": START}
    for button, action in buttons.items():
        name = KEY_NAMES[button]
        code = getattr(pygame, "K_ESCAPE" if name == "Esc" else "K_" + name.lower())
        assert keymap[code] == action, button


# ------------------------------------------------ double clicks, drags, keys


def test_a_double_click_on_a_card_sends_it_home(window):
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 0))  # AH: picked up by the first click
    click(*card_at(layout, game, 0))  # and home by the second
    run(app)
    assert game.foundations[HEARTS_HOME] == 1 and game.column_height(0) == 0
    assert app.table.held == NO_STOP and not any(app.table.scene.looks)


def test_two_clicks_apart_in_time_are_two_clicks(window, monkeypatch):
    import desktop

    monkeypatch.setattr(desktop, "DOUBLE_CLICK_MS", -1)  # no second is soon enough
    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    click(*card_at(layout, game, 0))
    click(*card_at(layout, game, 0))  # picked up, put back
    run(app)
    assert game.history_count == 0 and app.table.held == NO_STOP


def test_a_card_dragged_to_a_lit_place_and_let_go_is_put_down_there(window):
    import pygame

    app = window(parse_position(HEARTS))
    on_the_cards(app)
    layout, game = app.table.layout, app.table.game
    start, end = card_at(layout, game, 1), card_at(layout, game, 2)  # 5H onto 6H
    post(pygame.MOUSEBUTTONDOWN, pos=(start[0] * SCALE, start[1] * SCALE), button=1)
    post(pygame.MOUSEMOTION, pos=(end[0] * SCALE, end[1] * SCALE), rel=(1, 1), buttons=(1, 0, 0))
    post(pygame.MOUSEBUTTONUP, pos=(end[0] * SCALE, end[1] * SCALE), button=1)
    run(app)
    assert game.history_count == 1 and game.column_height(2) == 2 and app.table.held == NO_STOP


def test_the_direct_keys_play_and_plus_and_minus_size_the_window(window):
    import pygame
    from window import window_size

    app = window(Game.new_deal(1))
    on_the_cards(app)
    key("h")  # hint: a British deal's first move is a deal, the stock lit
    run(app)
    while not app.settled():  # the window closed as the hint's search began
        turn(app)
    assert app.scorecard.hints == 1 and app.table.cursor == app.table.layout.stock_stop
    key("z")
    key("u")
    key("y")  # dealt, undone, redone
    run(app)
    assert app.table.game.history_count == 1
    for name in ("1", "7"):  # a deal number typed straight in
        key(name)
    run(app)
    assert shown(app) == "deal" and app.screens.entry.number == 17
    key("escape")
    run(app)
    assert pygame.display.get_surface().get_size() == window_size(SCALE)
    key("+")
    run(app)
    assert pygame.display.get_surface().get_size() == window_size(5)
    key("-")
    key("-")
    run(app)
    assert pygame.display.get_surface().get_size() == window_size(3)


def test_the_help_has_a_third_page_for_the_desktops_own_keys(window):
    import desktop

    from british_square.layout import BODY_ROWS, TEXT_COLUMNS

    lines = desktop.HELP_PAGE
    assert len(lines) - 2 <= BODY_ROWS and max(len(line) for line in lines) <= TEXT_COLUMNS
    app = window(Game.new_deal(7))
    on_the_cards(app)
    key("escape")
    for _ in range(MENU.index("Help")):  # down the menu to Help
        key("down")
    key("z")
    key("left")  # from the keys, back round to the last page: the desktop's
    run(app)
    text = page_text(app)
    assert text.startswith("Help: desktop keys\nH: hint") and text.endswith("</> page  X: back")
    key("right")
    run(app)
    assert page_text(app).startswith("Help: keys")


# ---------------------------------------------------------------- the window


@pytest.mark.parametrize("kind", ["VIDEOEXPOSE", "WINDOWEXPOSED", "WINDOWFOCUSGAINED"])
def test_the_window_paints_the_game_again_when_uncovered_or_focused(window, kind):
    """Issue 50: under X11 without a compositor, another window's picture
    stayed on the game until the next key. The window's events are read
    where its keys are, by the loop's poll (``App.run`` repaints at its
    start, so it is polled here as the loop polls it)."""
    import pygame

    app = window(Game.new_deal(3))
    on_the_cards(app)
    actions = app.hardware.actions
    surface = pygame.display.get_surface()
    drawn = pygame.image.tobytes(surface, "RGB")
    surface.fill((255, 0, 255))  # what the window uncovered left there
    covered = pygame.image.tobytes(surface, "RGB")
    assert actions.poll(app.ticks_ms()) == NONE
    assert pygame.image.tobytes(surface, "RGB") == covered  # no event, no cause to paint
    post(getattr(pygame, kind))
    assert actions.poll(app.ticks_ms()) == NONE
    assert pygame.image.tobytes(surface, "RGB") == drawn
