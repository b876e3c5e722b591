"""The app in process, on Blinka's displayio without a window: what a press does,
what each screen says, and the timers that must not outlive their screen.

Faster than the headless runs (test_ui_desktop.py) and able to look inside:
the text page is read back label by label (the statistics cell by cell).
"""

import re
import sys

import pytest
from app_harness import (
    MENU,
    Clock,
    FakeHardware,
    cell_text,
    lines,
    menu_choose,
    page_text,
    press,
    settle,
    shown,
    turn,
    wait,
)
from conftest import ROOT
from words_text import body

from british_square import screen_ids
from british_square.app import App
from british_square.controls import (
    DIGIT_0,
    DOWN,
    HINT,
    LEFT,
    NEW_GAME,
    NONE,
    REDO,
    RESTART,
    RIGHT,
    SELECT,
    START,
    UP,
    A,
    B,
)
from british_square.desktop.games import legal_moves
from british_square.desktop.notation import parse_move, parse_position, position_text
from british_square.engine import Game
from british_square.layout import (
    BODY_X,
    BODY_Y,
    NO_STOP,
    PANEL_COLUMNS,
    SCREEN_W,
    TEXT_COLUMNS,
    TEXT_LINE,
)
from british_square.menu import (
    ENTRY_SIZE,
    MENU_ROWS,
    ROW_ASK,
    ROW_CARDS,
    ROW_HINT,
    ROW_SCREEN,
    ROW_SETTING,
    row_of,
)
from british_square.page import DIM_COLUMNS
from british_square.piles import AMERICAN, BRITISH, FOUNDATION, STOCK, UNION, WASTE, move
from british_square.screen_ids import ASK_END
from british_square.sheet import NORMAL, SELECTED, TARGET, TEXT_GREEN, TEXT_GREY, TEXT_WHITE
from british_square.sounds import BUZZ
from british_square.stats import AUTOPLAY_ACES, AUTOPLAY_OFF, AUTOPLAY_SAFE, HOME_BEST, PLAYED
from british_square.table import OUTCOME_ENDED, OUTCOME_PLAYING, OUTCOME_STUCK, OUTCOME_WON

sys.path.insert(0, str(ROOT / "tools"))
import ship_lines  # noqa: E402  (the winning lines a board ships)


@pytest.fixture
def make_app():
    def make(game, autoplay=False, facts=None):
        clock = Clock()
        levels = []  # every backlight level the app set, percent
        heard = []  # every sound effect it asked for
        glowed = []  # (frame, percent) of every call to the NeoPixels
        hardware = FakeHardware(
            clock,
            backlight=levels.append,
            facts=facts,
            sound=heard.append,
            lights=lambda frame, percent: glowed.append((frame, percent)),
        )
        app = App(hardware, None, game, autoplay)
        app.clock = clock
        app.levels = levels
        app.heard = heard
        app.glowed = glowed
        return app

    return make


def panel(app):
    """The panel's words, a line each, the number at a line's end and the blanks cut."""
    return [re.sub(r" +[0-9-]+$", "", line) for line in lines(app.table.scene.panel)]


def panel_number(app, row):
    """The number at the end of the panel's row ``row`` ("" for none)."""
    return lines(app.table.scene.panel)[row][PANEL_COLUMNS - 4 :].strip()


# ---------------------------------------------------------------- screens


def test_title_then_the_cards(make_app):
    app = make_app(Game.new_deal(7))
    assert shown(app) == "title" and "Deal 7 British" in page_text(app)
    press(app, A)
    assert shown(app) == "play" and app.view.shown is app.table.scene


def test_help_says_what_fills_a_space_in_each_rule_set(make_app):
    space = (body("help_keys")[-1], body("help_keys_union")[-1])
    gap, count = body("help_marks")[5], body("help_marks_piles")[5].strip()
    for rules, line in ((BRITISH, 0), (AMERICAN, 0), (UNION, 1)):
        app = make_app(Game.new_deal(3, rules))
        press(app, A)
        menu_choose(app, "Help")
        assert shown(app) == "help"
        assert space[line] in page_text(app)
        assert space[1 - line] not in page_text(app)
        press(app, RIGHT)  # the marks: a gap in British columns, counts on piles
        marks = page_text(app)
        assert (gap in marks) == (rules == BRITISH)
        assert (count in marks) == (rules != BRITISH)
        assert "Home: A up to K, K to A" in marks


def test_the_menu_scrolls_to_its_last_row(make_app):
    app = make_app(Game.new_deal(3))
    press(app, A, START, UP)  # up from the first row: the last
    assert app.screens.rows.row == len(MENU) - 1
    assert "End game" in page_text(app)
    press(app, DOWN)
    assert app.screens.rows.row == 0 and "Back to game" in page_text(app)


# ---------------------------------------------- a game is never lost by one press


def played(app, moves):
    for m in moves:
        app.table.make_move(m)


@pytest.mark.parametrize("item", ["New game", "Restart deal"])
def test_leaving_a_game_with_moves_asks_first(make_app, item):
    app = make_app(Game.new_deal(7))
    press(app, A)
    played(app, [move(STOCK, WASTE)] * 3)
    before = position_text(app.table.game)
    menu_choose(app, item)
    assert shown(app) == "confirm"
    # each question says what its yes does: a restart leaves the moves to redo
    asked = "Abandon this game?" if item == "New game" else "Restart this deal?"
    assert asked in page_text(app)
    if item == "Restart deal":
        assert "the 3 moves you made\nstay, to redo." in page_text(app)
    press(app, B)  # no: back to the menu, the game as it was
    assert shown(app) == "menu" and position_text(app.table.game) == before
    press(app, A)
    assert shown(app) == "confirm"
    press(app, A)  # yes
    assert shown(app) == "play" and app.table.game.history_count == 0
    if item == "Restart deal":
        assert position_text(app.table.game) == position_text(Game.new_deal(7))


def test_a_game_without_moves_is_left_without_asking(make_app):
    app = make_app(Game.new_deal(7))
    press(app, A)
    menu_choose(app, "New game")
    assert shown(app) == "play" and app.table.game.deal_number != 0


def test_a_new_deal_of_the_same_rules_is_dealt_in_place_and_counted_once(make_app):
    app = make_app(Game.new_deal(7))
    press(app, A)
    game = app.table.game
    played(app, [move(STOCK, WASTE)] * 3)
    app.scorecard.hints = 1
    menu_choose(app, "New game")
    press(app, A)  # yes: abandon it
    # the same game's arrays, a new deal (no new game made mid-game, in a heap in pieces)
    assert app.table.game is game and game.deal_number != 7 and game.history_count == 0
    assert position_text(game) == position_text(Game.new_deal(game.deal_number))
    assert app.stats.get(BRITISH, PLAYED) == 1 and app.scorecard.hints == 0
    menu_choose(app, "New game")  # no move made: left without asking, not counted
    assert app.table.game is game and app.stats.get(BRITISH, PLAYED) == 1
    menu_choose(app, "Rules: ")
    press(app, RIGHT, A)  # American: a game of its own
    assert (
        app.table.game is not game
        and app.table.game.rules == AMERICAN
        and app.table.game.columns == 16
    )


def test_other_rules_and_a_typed_deal_ask_too(make_app):
    app = make_app(Game.new_deal(7))
    press(app, A)
    app.table.make_move(move(STOCK, WASTE))
    menu_choose(app, "Rules: ")
    press(app, RIGHT, A)
    assert shown(app) == "confirm"
    press(app, B)
    assert shown(app) == "rules" and app.table.game.rules == BRITISH
    press(app, B, *[UP] * (MENU.index("Rules: ") - MENU.index("Deal number")), A)
    assert shown(app) == "deal"
    press(app, UP, A)  # deal 8
    assert shown(app) == "confirm"
    press(app, A)
    assert app.table.game.deal_number == 8 and shown(app) == "play"


def test_restart_returns_to_the_position_a_game_started_from(make_app):
    start = "british 5H/6H/8S/9S - - 0,0,0,0"
    app = make_app(parse_position(start))
    press(app, A)
    app.table.make_move(move(0, 1))  # 5H onto 6H
    menu_choose(app, "Restart deal")
    press(app, A)  # yes
    assert position_text(app.table.game) == start  # not deal 1
    assert app.table.game.redo() == move(0, 1)  # the moves are kept to redo


def test_end_game_scores_the_game_as_it_stands(make_app):
    app = make_app(parse_position("union 2C/AC/9S/" + "/".join("-" * 13) + " - - 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(1, FOUNDATION))  # the 9S waits for eight spades: nothing certain
    menu_choose(app, "End game")
    assert shown(app) == "confirm" and "End this game?" in page_text(app)
    press(app, A)
    assert app.table.outcome == OUTCOME_ENDED and shown(app) == "over"
    assert "Cards home: 1 of 104" in page_text(app)
    press(app, B)  # the board, to look at
    before = position_text(app.table.game)
    press(app, A, B, SELECT)
    assert position_text(app.table.game) == before  # nothing moves in a game that is over
    menu_choose(app, "New game")  # and leaving it asks nothing
    assert app.table.outcome == OUTCOME_PLAYING and app.table.game.deal_number


def test_deal_numbers_outside_the_range_are_refused(make_app):
    app = make_app(Game.new_deal(31999))
    press(app, A)
    menu_choose(app, "Deal number")
    assert "1 to 31999" in page_text(app)
    press(app, LEFT, LEFT, LEFT, LEFT, UP, UP, UP, UP, UP, UP)  # 91999
    assert app.screens.entry.number == 91999
    press(app, A)
    assert shown(app) == "deal" and "Only deals 1 to 31999" in page_text(app)
    assert app.table.game.deal_number == 31999
    press(app, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN)  # 01999
    press(app, A)
    assert app.table.game.deal_number == 1999 and shown(app) == "play"


def test_a_deal_number_is_typed_straight_in_on_a_keyboard(make_app):
    app = make_app(Game.new_deal(2519))
    press(app, A)
    app.table.make_move(move(STOCK, WASTE))
    press(app, DIGIT_0 + 1)  # from the cards: the entry opens with the digit typed
    assert shown(app) == "deal" and app.screens.entry.number == 1
    press(app, DIGIT_0 + 7, A)  # 17, and the game in progress is asked about
    assert shown(app) == "confirm"
    press(app, B)  # no: back to the entry, the number as typed
    assert shown(app) == "deal" and app.screens.entry.number == 17
    press(app, A, A)
    assert app.table.game.deal_number == 17 and shown(app) == "play"
    press(app, START, A, *[DIGIT_0 + d for d in (3, 1, 9, 9, 9, 4)])  # a sixth digit starts again
    assert app.screens.entry.number == 4
    press(app, UP, DIGIT_0 + 2)  # a key between: a digit starts a new number
    assert app.screens.entry.number == 2


def test_the_desktops_direct_keys_do_what_their_menu_rows_do(make_app):
    app = make_app(Game.new_deal(1))
    press(app, A)
    press(app, HINT)  # from the cards: the hint at once (a deal: the stock lit)
    assert app.scorecard.hints == 1 and app.table.scene.looks[app.table.layout.stock_stop] == TARGET
    press(app, A, SELECT, REDO)  # the deal, undone, redone
    assert app.table.game.history_count == 1 and shown(app) == "play"
    press(app, RESTART)  # the question, and B goes back to the cards
    assert shown(app) == "confirm" and "Restart this deal?" in page_text(app)
    press(app, B)
    assert shown(app) == "play" and app.table.game.history_count == 1
    press(app, RESTART, A)
    assert app.table.game.history_count == 0 and app.table.game.history_end == 1
    press(app, START, NEW_GAME)  # from the menu: asked, B back to the menu
    assert shown(app) == "confirm"
    press(app, B)
    assert shown(app) == "menu"
    press(app, RIGHT, NEW_GAME, A)
    assert app.table.game.deal_number != 1 and shown(app) == "play"
    menu_choose(app, "Help")  # a screen of its own takes its keys only
    press(app, HINT, DIGIT_0 + 5)
    assert shown(app) == "help" and app.scorecard.hints == 0  # a new game


def test_deal_zero_is_refused(make_app):
    app = make_app(Game.new_deal(1))
    press(app, A)
    menu_choose(app, "Deal number")
    press(app, DOWN, A)  # 00000
    assert shown(app) == "deal" and app.table.game.deal_number == 1


def test_the_cursor_follows_a_card_that_moved_at_the_next_frame(make_app):
    # 4S onto the column of AS..3S: its top card's sprite goes a row down,
    # and the cursor's frame follows at the next refresh, not in the same
    # one, where displayio would draw that area twice
    app = make_app(parse_position("british AS.2S3S/KS4S/KD5S/KH6S 9D9C - 0,0,0,0"))
    press(app, A, RIGHT, A, LEFT)  # the title; 4S picked up; the cursor on column a
    scene = app.table.scene
    row_y = scene.cursor.y
    app.handle(A)  # put down: the press's turn of the loop, drawn without the frame
    app.tick(app.now)
    assert app.table.game.column_height(0) == 4
    assert scene.slot_y[0] > row_y == scene.cursor.y
    app.view.refresh()  # and then the frame moves, to be drawn at the next
    assert scene.cursor.y == scene.slot_y[0] and app.view.dirty and not app.settled()
    turn(app)
    assert not app.view.dirty and app.settled()
    press(app, SELECT)  # the undo: the card back up, the frame after it
    assert scene.cursor.y == scene.slot_y[0] == row_y


# ------------------------------------------------------- the end of a game


def test_no_more_moves_is_a_notice_beside_the_cards_and_play_goes_on(make_app):
    # after the ace goes home, 5H can still shuttle between the two 6H, but no
    # card can ever reach a foundation: the dead test says so, in steps
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(WASTE, FOUNDATION))
    assert app.table.outcome == OUTCOME_PLAYING and app.table.probing
    wait(app, 200)
    assert app.table.outcome == OUTCOME_STUCK and shown(app) == "over"
    text = page_text(app)
    assert text.split("\n")[:2] == ["Game over", "No card can go home now."]
    assert "Cards home: 1 of 104" in text and "1 move in 0:00" in text
    press(app, B)  # back to the cards, which stay in sight
    assert shown(app) == "play" and panel(app)[:2] == ["No more", "moves."]
    app.table.make_move(move(1, 2))  # play on: still no more moves
    wait(app, 200)
    assert app.table.outcome == OUTCOME_STUCK
    press(app, SELECT, SELECT)  # undo both: the ace is back on the waste
    assert app.table.outcome == OUTCOME_PLAYING and panel(app)[0] == "Stock"


def test_game_over_is_counted_as_it_shows_and_once(make_app):
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(WASTE, FOUNDATION))
    wait(app, 200)  # Game over: "New best: 1 home!", and the statistics agree at once
    assert shown(app) == "over" and "New best: 1 home!" in page_text(app)
    assert app.stats.get(BRITISH, PLAYED) == 1 and app.stats.get(BRITISH, HOME_BEST) == 1
    press(app, B, SELECT)  # undo, play on: the same game, counted as it was
    app.table.make_move(move(WASTE, FOUNDATION))
    wait(app, 200)
    menu_choose(app, "New game")
    press(app, A)
    assert app.stats.get(BRITISH, PLAYED) == 1


@pytest.mark.parametrize("leave", ["rules", "new", "deal"])
def test_a_game_over_is_left_without_asking(make_app, leave):
    # issue 50: Game over counts the game and ends it, as its A (a new deal)
    # knows: other rules, a new game or a deal number asked "Abandon this game?"
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(WASTE, FOUNDATION))
    wait(app, 200)
    assert shown(app) == "over" and app.stats.get(BRITISH, PLAYED) == 1
    press(app, B)  # the cards, and on to another game from the menu
    if leave == "rules":
        menu_choose(app, "Rules: ")
        press(app, RIGHT, A)
    elif leave == "new":
        menu_choose(app, "New game")
    else:
        menu_choose(app, "Deal number")
        press(app, A)
    assert shown(app) == "play" and app.table.game.history_count == 0
    assert app.table.game.rules == (AMERICAN if leave == "rules" else BRITISH)
    assert app.stats.get(BRITISH, PLAYED) == 1  # counted once, as Game over showed


def test_a_game_played_on_after_game_over_asks_again(make_app):
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(WASTE, FOUNDATION))
    wait(app, 200)
    press(app, B, SELECT)  # undone: the ace back on the waste, a move to lose again
    app.table.make_move(move(1, 2))
    menu_choose(app, "New game")
    assert shown(app) == "confirm" and "Abandon this game?" in page_text(app)


def test_auto_play_offers_aces_then_safe_cards_sent_home_a_card_a_turn(make_app):
    # clubs are home up to the king and on their way down: the other king of
    # clubs is safe to send; the ace of spades starts a foundation
    app = make_app(parse_position("british KC/5H/6H/6H - AS 13,0,0,0"))
    game = app.table.game
    press(app, A)
    menu_choose(app, "Auto-play: ")  # off to aces
    assert app.settings.autoplay == AUTOPLAY_ACES and shown(app) == "menu"
    assert "Auto-play: aces" in page_text(app)
    press(app, A)  # to safe cards
    assert app.settings.autoplay == AUTOPLAY_SAFE and "Auto-play: safe " in page_text(app)
    assert game.score() == 13  # what it takes goes home on the cards, where it is seen
    app.handle(B)  # the press alone, not what follows it
    assert game.score() == 13 and not app.resting()
    wait(app, 10)  # a card a turn of the loop: the ace first
    assert game.waste_count == 0 and game.score() == 14 and game.column_height(0) == 1
    wait(app, 10)  # then the king
    assert game.column_height(0) == 0 and game.score() == 15
    wait(app, 10)  # none left: the game looked at as after a move (the dead test, here)
    assert not app.table.autoplaying and panel_number(app, 1) == "15"  # on the panel
    menu_choose(app, "Auto-play: ")  # and off
    assert app.settings.autoplay == AUTOPLAY_OFF and "Auto-play: off" in page_text(app)


def test_safe_cards_auto_play_follows_every_move_a_card_a_turn(make_app):
    app = make_app(parse_position("british 5H/6H/KC/- - - 13,0,0,0"), autoplay=True)
    app.settings.autoplay = AUTOPLAY_SAFE
    press(app, A)
    app.table.make_move(move(0, 1))  # a move: the turn shows it alone
    app.tick(app.now)
    assert app.table.game.column_height(2) == 1 and not app.table.resting()
    wait(app, 10)  # then the king of clubs goes home by itself
    assert app.table.game.column_height(2) == 0 and app.table.game.score() == 14
    wait(app, 10)
    assert not app.table.autoplaying  # nothing more it takes


def test_an_undo_stops_auto_play(make_app):
    app = make_app(parse_position("british 5H/6H/KC/- - - 13,0,0,0"), autoplay=True)
    app.settings.autoplay = AUTOPLAY_SAFE
    press(app, A)
    app.table.make_move(move(0, 1))
    press(app, SELECT)  # before the king went: the move taken back, and no more
    wait(app, 50)
    game = app.table.game
    assert game.column_height(2) == 1 and game.column_height(0) == 1
    assert not app.table.autoplaying


def test_menu_rows_that_would_do_nothing_are_dimmed(make_app):
    app = make_app(Game.new_deal(7))
    page = app.view.page
    names = ("Restart deal", "Undo", "Redo")
    restart, undo, redo = rows = [MENU.index(line) for line in names]
    press(app, A, START)  # no move yet: all three would do nothing (issue 50: Restart too)
    assert page.dimmed == sum(1 << row for row in rows)
    assert all(dim.color == TEXT_GREY and not dim.grid.hidden for dim in page.dims)
    assert [cell_text(app, 0, row) for row in rows] == list(names)
    # each over its white row, which it hides: the same text, ready when it goes;
    # each as wide as the longest of them
    assert max(len(lines(page.body)[row]) for row in rows) == DIM_COLUMNS
    assert [lines(page.body)[row].strip() for row in rows] == list(names)
    press(app, B)
    app.table.make_move(move(STOCK, WASTE))
    press(app, START)  # a move to undo: Redo alone is dim
    assert page.dimmed == 1 << redo
    press(app, B, SELECT, START)  # undone: a move to redo, none to undo or restart
    assert page.dimmed == 1 << restart | 1 << undo
    press(app, B, REDO, RESTART, A, START)  # restarted: its move kept to redo
    assert app.table.game.history_end == 1 and page.dimmed == 1 << restart | 1 << undo
    press(app, *[DOWN] * 9)  # scrolled past them: nothing dimmed
    assert page.dimmed == 0 and all(dim.grid.hidden for dim in page.dims)


def written(*grids):
    """Count, per grid, the lines its terminal writes from now on (a list of counts)."""
    counts = [0] * len(grids)
    for index, grid in enumerate(grids):
        write = grid.terminal.write

        def counting(data, index=index, write=write):
            counts[index] += 1
            return write(data)

        grid.terminal.write = counting
    return counts


def test_the_panel_writes_only_the_lines_that_change(make_app):
    """A move rewrites the digits that changed, never the words; stuck and
    back, the words change, and the numbers come back."""
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    scene = app.table.scene
    press(app, A)
    before = lines(scene.panel)
    counts = written(scene.panel)
    app.table.make_move(
        move(WASTE, FOUNDATION)
    )  # the cards home and the moves change; the stock does not
    after = lines(scene.panel)
    assert counts == [2]  # two lines, a write each: the cursor to its changed digit, the digit
    assert [a == b for a, b in zip(before, after)] == [True, False, False, True]
    assert (panel_number(app, 1), panel_number(app, 2)) == ("1", "1")  # the ace home, a move
    wait(app, 200)
    press(app, B)  # the cards, the panel stuck: "No more moves."
    assert panel(app)[:2] == ["No more", "moves."]
    press(app, SELECT)  # undo: the panel counts again
    assert panel(app)[0] == "Stock"
    assert panel_number(app, 0) == "0"  # the stock
    assert scene.panel.grid.hidden is False


@pytest.mark.parametrize("rules", [AMERICAN, UNION])
def test_the_panel_is_green_while_the_game_follows_its_shipped_winning_line(make_app, rules):
    """On a deal New game deals, the panel's numbers are green (it can still
    be won) while the game has played its shipped line so far: white off
    it, green again once undone back onto it; never for British Square."""
    deal, line = ship_lines.shipped(rules)[0]
    app = make_app(Game.new_deal(deal, rules))
    scene = app.table.scene
    press(app, A)
    assert scene.panel.color == TEXT_GREEN
    for m in line[:10]:
        app.table.make_move(m)
        settle(app)
    assert scene.panel.color == TEXT_GREEN
    off = next(m for m in legal_moves(app.table.game) if m != line[10])
    app.table.make_move(off)
    settle(app)
    assert scene.panel.color == TEXT_WHITE
    press(app, SELECT)  # undo: on the line again
    assert scene.panel.color == TEXT_GREEN
    british = make_app(Game.new_deal(deal))
    press(british, A)
    assert british.table.scene.panel.color == TEXT_WHITE


def test_a_press_never_shares_its_turn_with_the_line_check(make_app):
    """The check of the line (11 ms of a board at a line's end) waits for a
    turn with no press: a press right after a move leaves it due."""
    deal, line = ship_lines.shipped(AMERICAN)[0]
    app = make_app(Game.new_deal(deal, AMERICAN))
    press(app, A)
    app.table.make_move(line[0])  # the history changed: the check is due
    app.handle(RIGHT)
    app.tick(app.now)  # the press's turn
    assert app.table.line_due
    turn(app)  # the next, with no press
    assert not app.table.line_due and app.table.scene.panel.color == TEXT_GREEN


def test_a_menu_step_moves_the_bar_and_writes_no_text(make_app):
    app = make_app(Game.new_deal(7))
    press(app, A, START)
    page = app.view.page
    grids = (page.title, page.body, page.footer)
    counts = written(*grids)
    press(app, DOWN, DOWN, UP)
    assert counts == [0, 0, 0] and app.screens.rows.row == 1
    assert page.bar.group.y == BODY_Y + TEXT_LINE and page.bar.text.strip() == b"New game"
    press(app, *[DOWN] * 7)  # past the eighth row the menu turns a page: it comes first
    # each row a write: the cursor and its changed run; then the marks of
    # more rows above and below, each a write of its cursor and its character
    assert counts[1] == 8 + 2 and app.screens.rows.top == 8
    assert lines(page.body)[0].startswith("   Auto-play: off") and page.bar.group.y == BODY_Y
    press(app, *[DOWN] * 8)  # the last page ends with the last row
    assert app.screens.rows.top == len(MENU) - 8 and lines(page.body)[-1].strip() == "End game"
    press(app, *[UP] * 8)  # back above the first row on show: the row comes last
    assert app.screens.rows.row == 8 and app.screens.rows.top == 1


def test_a_menu_page_turns_a_row_a_frame_the_bars_first_keys_taken_between(make_app):
    # a whole page of rows is 60 ms of drawing on a board: a row a turn of
    # the loop, the bar first, so the press is answered in its frame
    app = make_app(Game.new_deal(7))
    press(app, A, START, *[DOWN] * 7)
    page, screens = app.view.page, app.screens
    before = lines(page.body)
    app.handle(DOWN)  # past the rows on show: row 8, Auto-play, comes first
    assert screens.rows.top == 8 and not app.resting()
    # the bar on its row with the row's text, the rows not yet written (the
    # bar hides the one under it: issue 46, a step that turned a page wrote
    # the row and the bar, 64 ms on a board)
    assert page.bar.group.y == BODY_Y and page.bar.text.strip() == b"Auto-play: off"
    assert lines(page.body) == before
    app.tick(app.now)  # the press's own turn of the loop: its frame shows the bar alone
    assert lines(page.body) == before
    written_rows = [0]
    while screens.rows.turning:
        app.tick(app.now)
        written_rows.append(sum(a != b for a, b in zip(lines(page.body), before)))
    assert written_rows == list(range(0, 9)) and app.resting()
    assert lines(page.body)[0].startswith("   Auto-play: off")
    assert lines(page.body)[-1].startswith("   About")
    # a press while the page turns is taken at once: the bar on the row
    # below, its text written with the row
    app.handle(UP)  # above the first row on show: row 7, Rules, comes last
    assert screens.rows.top == 0 and page.bar.text.strip() == b"Rules: British"
    assert page.bar.group.y == BODY_Y + 7 * TEXT_LINE
    app.handle(DOWN)  # back on row 8 before the rows are written
    assert screens.rows.row == 8 and screens.rows.top == 8 and screens.rows.turning
    while screens.rows.turning:
        app.tick(app.now)
    assert page.bar.text.strip().startswith(b"Auto-play: off")


def test_text_grids_show_their_lines_in_the_fonts_cells(make_app):
    app = make_app(Game.new_deal(7))
    press(app, A)
    app.screens.results.statistics(BRITISH)
    page = app.view.page
    tiles = page.body.grid
    line = lines(page.body)[1]  # "Cards home: best", its figure at the row's end
    # the terminal puts each character's glyph in its cell of the row, after
    # the blank column at the screen's left edge
    drawn = [tiles[1 + x, 1] for x in range(len(line))]
    glyphs = page.body.terminal.font
    assert drawn == [glyphs.get_glyph(ord(c)).tile_index for c in line]
    assert len(line) == TEXT_COLUMNS and line.startswith("Cards home: best ")
    app.screens.help(0)
    assert not page.body.grid.hidden and lines(page.title)[0].strip() == "Help: keys"


def test_a_dead_verdict_while_a_refused_drop_flashes(make_app):
    # issue 8's crash: the dead test ended while a refused drop still flashed red
    app = make_app(parse_position("american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"))
    press(app, A, B)  # B: 5H cannot go home: it flashes
    assert app.table.flash_stop != NO_STOP
    wait(app, 400)
    assert app.table.flash_stop == NO_STOP and app.table.scene.looks[0] == NORMAL


def test_leaving_the_cards_ends_a_flash_and_a_held_card(make_app):
    app = make_app(parse_position("british 5H/6H/8S/9S - - 0,0,0,0"))
    press(app, A, B)  # refused: flashing
    press(app, A)  # pick up the 5H (flash over)
    assert app.table.held != NO_STOP
    press(app, START)
    assert app.table.flash_stop == NO_STOP and app.table.held == NO_STOP
    assert all(look == NORMAL for look in app.table.scene.looks)


def test_winning_celebrates_and_the_kings_never_cover_the_words(make_app):
    app = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    press(app, A, B)
    assert app.table.outcome == OUTCOME_WON and shown(app) == "won"
    from british_square.layout import (
        BODY_Y,
        KINGS_BOTTOM,
        KINGS_TOP,
        TEXT_LINE,
        WON_BIG_Y,
        WON_LINE_ROW,
    )
    from british_square.sheet import CARD_H

    assert KINGS_TOP >= WON_BIG_Y + 2 * 12  # under "You won!" (scale 2)
    assert KINGS_BOTTOM + CARD_H <= BODY_Y + TEXT_LINE * WON_LINE_ROW  # above the lines
    assert cell_text(app, 0, WON_LINE_ROW).startswith("1 move in")  # the first of them
    for _ in range(300):
        wait(app, 50)
        for king in app.view.page.cards:
            assert KINGS_TOP <= king.y <= KINGS_BOTTOM and 0 <= king.x <= 140
    press(app, B)
    assert shown(app) == "play"
    before = position_text(app.table.game)
    press(app, SELECT)
    assert position_text(app.table.game) == before  # a won game stays won


def test_the_loop_rests_only_when_nothing_timed_is_under_way(make_app):
    app = make_app(parse_position("american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"))
    # the menu's first page is written, hidden, half a page a turn after
    # the first screen (issue 46: so that Start opens it at once)
    assert shown(app) != "play" and not app.resting() and app.screens.rows.pending
    wait(app, 30)
    assert app.resting()  # the title: nothing moves
    press(app, A)
    assert app.table.probing and not app.resting()  # the dead test runs a step a turn
    wait(app, 400)
    assert not app.table.probing and app.resting()
    assert shown(app) == "over"  # no card can go home: game over
    press(app, B)  # back to the cards
    press(app, B)  # refused: the flash must end on time
    assert not app.resting()
    wait(app, 200)
    assert app.resting()


def test_a_menu_opened_before_its_rows_were_written_shows_them_a_frame_each(make_app):
    # Start at once after the title (issue 46): no turn has written the
    # menu's first page, hidden. Its title, footer and the bar's row show in
    # the press's frame; the other rows come a turn each, and the menu ends
    # as one opened after its rows were written.
    app = make_app(Game.new_deal(5))
    app.handle(A)
    turn(app)
    app.handle(START)
    turn(app)
    rows, page = app.screens.rows, app.view.page
    assert lines(page.title)[0].strip().startswith("Menu:")
    assert lines(page.bar.middle)[0].strip() == "Back to game"
    assert rows.turning and not any(lines(page.body)[1:])
    assert not app.settled()
    settle(app)
    assert not rows.turning
    fast = page_text(app)
    press(app, DOWN)
    assert cell_text(app, 0, 1) == "New game"
    patient = make_app(Game.new_deal(5))
    wait(patient, 100)
    press(patient, A)
    wait(patient, 100)
    press(patient, START)
    assert fast == page_text(patient)


def test_the_loop_passes_resting_to_the_adapters_idle(make_app):
    app = make_app(Game.new_deal(5))
    wait(app, 30)  # the menu's first page written, hidden

    class Script:
        finished = False
        presses = [NONE, A, NONE, NONE]  # title, then the cards

        def poll(self, now):
            if not self.presses:
                self.finished = True
                return NONE
            return self.presses.pop(0)

    app.hardware.actions = Script()
    seen = []
    app.hardware.idle = seen.append
    app.run()
    # never after a press (the next may be queued), nor while the menu's first
    # page is written hidden, half a page a turn, after the cards come back
    assert seen == [True, False, False, True]


def test_the_backlight_dims_after_a_minute_and_the_waking_press_does_nothing_else(make_app):
    app = make_app(Game.new_deal(5))
    wait(app, 59_000)
    assert app.levels == [] and not app.dimmed
    wait(app, 1_000)
    assert app.dimmed and app.levels == [5]
    press(app, A)  # on the title, A would show the cards: it only wakes the screen
    assert shown(app) != "play" and shown(app) == "title"
    assert not app.dimmed and app.levels == [5, 100]
    press(app, A)
    assert shown(app) == "play"
    wait(app, 30_000)
    press(app, RIGHT)  # a press starts the minute again
    wait(app, 59_000)
    assert not app.dimmed


def test_each_menu_row_is_one_entry_and_a_on_it_does_what_the_entry_says(make_app):
    # issue 48.4: a row's line, what A does and with what are one entry of
    # MENU_ROWS, in words.txt's order; a setting's row shows its value
    entries = [MENU_ROWS[at : at + ENTRY_SIZE] for at in range(0, len(MENU_ROWS), ENTRY_SIZE)]
    assert len(entries) == len(MENU)  # (their names: the file check, test_words.py)
    for row, (line, kind, what) in enumerate(entries):
        assert row_of(line) == row, line  # no entry's ``what`` shadows a later row's line
        app = make_app(Game.new_deal(5, AMERICAN))
        press(app, A)  # the cards, nothing played
        settings = app.settings
        before = getattr(settings, what) if kind == ROW_SETTING else None
        press(app, START, *[DOWN] * row, A)
        if kind == ROW_CARDS:
            assert shown(app) == "play", line
        elif kind == ROW_HINT:
            assert shown(app) == "play" and app.scorecard.hints == 1, line
        elif kind == ROW_ASK:  # nothing played: done at once
            assert shown(app) == ("over" if what == ASK_END else "play"), line
        elif kind == ROW_SCREEN:
            assert shown(app) == screen_ids.SCREEN_NAMES[what], line
        elif what == "rules":
            assert shown(app) == "rules"
        else:
            assert getattr(settings, what) != before and shown(app) == "menu", line
            assert app.screens.rows.row_value(row) in page_text(app).encode(), line


def test_the_brightness_setting_cycles_and_is_kept_when_dimming(make_app):
    app = make_app(Game.new_deal(5))
    press(app, A)
    menu_choose(app, "Brightness: ")
    assert app.settings.brightness == 60 and app.levels == [60]
    assert "Brightness: 60%" in page_text(app)
    press(app, A, A)
    assert app.settings.brightness == 100 and app.levels == [60, 30, 100]
    press(app, A, A)
    wait(app, 60_000)
    assert app.levels[-1] == 5  # dimmed below the setting
    press(app, B)
    assert app.levels[-1] == 30 and shown(app) == "menu"


def test_a_machine_without_a_backlight_says_so_on_the_brightness_row():
    # issue 50: the desktop's window has no backlight, and its menu offered
    # 100%, 60%, 30% that changed nothing
    heard = []
    app = App(FakeHardware(Clock(), sound=heard.append), None, Game.new_deal(5))
    press(app, A)
    menu_choose(app, "Brightness: ")
    assert "Brightness: n/a" in page_text(app) and "%" not in page_text(app)
    assert app.settings.brightness == 100 and heard == [BUZZ]  # nothing to choose among


def test_the_title_shows_the_battery_and_warns_when_it_is_low(make_app):
    volts = [3920]
    app = make_app(Game.new_deal(5), facts=lambda: ("PyGamer", 8192, volts[0]))
    assert "Battery 3.92 V" in page_text(app)
    volts[0] = 3410
    press(app, START, B)  # the menu, back to the cards
    app.screens.title()
    assert "Battery low: 3.41 V" in page_text(app)
    quiet = make_app(Game.new_deal(5), facts=lambda: ("PyBadge", 8192, 0))
    assert "Battery" not in page_text(quiet)  # no monitor: nothing said


def test_the_statistics_are_a_grid_whose_cells_hold_the_rule_set_on_show(make_app):
    app = make_app(Game.new_deal(5))
    kept = app.stats
    kept.add_game(BRITISH, 14, False, 180, 610, False, 1)
    kept.add_game(BRITISH, 104, True, 263, 1250, True, 2)
    kept.add_game(UNION, 104, True, 200, 75, True, 0)
    press(app, A)
    menu_choose(app, "Statistics")
    page = app.view.page

    def column(index):
        """Column ``index`` of the table (0: what each row counts, 1: its
        figure), a row at a time, read from the body's text grid."""
        return [cell_text(app, index, row) for row in range(page.rows)]

    assert column(0) == body("stats")  # what each row counts, as words.txt has it
    # issue 50: "Par reached, hints  0, 414" said nothing to a new player:
    # a row for each, the par row's games out of those played, as the won row's
    assert column(0) == [
        "Won", "Cards home: best", "Cards home: average", "Streak: now, best",
        "Fewest moves to win", "Fastest win", "Par reached", "Hints used",
    ]  # fmt: skip
    assert column(1) == ["1 of 2 (50%)", "104", "59.0", "1, 1", "263", "20:50", "1 of 2", "3"]
    assert lines(app.view.page.title)[0].strip() == "Statistics: British"
    press(app, RIGHT)  # American: nothing played yet
    assert column(1) == ["0 of 0 (0%)", "0", "0.0", "0, 0", "-", "-", "0 of 0", "0"]
    press(app, RIGHT)  # Union Square
    assert column(1) == ["1 of 1 (100%)", "104", "104.0", "1, 1", "200", "1:15", "1 of 1", "0"]
    assert lines(app.view.page.title)[0].strip() == "Statistics: Union"
    # the table's lines span the screen, from the blank column left of it,
    # the figures ending where the rows do
    grid = page.body.grid
    assert grid.x == BODY_X - grid.tile_width and grid.width == TEXT_COLUMNS + 2
    assert grid.x + grid.width * grid.tile_width >= SCREEN_W


def test_the_about_screen_tells_owners_what_to_report(make_app, capsys):
    app = make_app(Game.new_deal(5), facts=lambda: ("PyGamer", 8192, 4000))
    press(app, A)
    menu_choose(app, "About")
    text = page_text(app)
    assert shown(app) == "about"
    for words in ("British Square 0.1.0", "PyGamer", "NVM 8192 bytes", "Battery 4.00 V"):
        assert words in text
    assert "Redraw press A" in text
    assert "Heap free press A" in text  # measured when asked: a collection costs 15 ms
    clock = app.clock

    def ticking():  # every reading of the clock 10 ms later
        clock.now += 10
        return clock.now

    app.ticks_ms = ticking
    footers = []
    refresh = app.view.refresh

    def refresh_noting_the_footer():
        footers.append(lines(app.view.page.footer)[0].strip())
        refresh()

    app.view.refresh = refresh_noting_the_footer
    press(app, A)  # said first, then the actions timed, then a second of full redraws
    assert footers[0] == "Measuring: keys wait"
    tenths = app.screens.redraw_tenths  # a clock reading a frame, 10 ms each, for 1 000 ms
    assert 966 <= tenths <= 1000
    assert "Redraw {}.{}/s full".format(tenths // 10, tenths % 10) in page_text(app)
    assert "Heap free no limit" in page_text(app)  # CPython's: no board's heap to count
    out = capsys.readouterr().out
    assert "about: 0.1.0, PyGamer" in out and "timing: cursor step: " in out
    assert shown(app) == "about"
    press(app, B)
    assert shown(app) == "menu"
    press(app, A)  # About again: its heap measured again when asked, as the game moves it
    assert "Heap free press A" in page_text(app)


def test_the_about_screens_timing_prints_each_action_and_leaves_the_game_as_it_was(
    make_app, capsys
):
    app = make_app(Game.new_deal(5))
    press(app, A)
    app.table.make_move(move(STOCK, WASTE))  # a move, to take back and play again
    app.table.cursor = app.table.layout.pile_stop(2)
    before = (
        position_text(app.table.game),
        app.table.game.history_end,
        app.table.cursor,
        app.scorecard.seconds,
    )
    menu_choose(app, "About")
    clock = app.clock

    def ticking():  # every reading of the clock 2 ms later
        clock.now += 2
        return clock.now

    app.ticks_ms = ticking
    press(app, A)
    out = capsys.readouterr().out
    timed = [line for line in out.splitlines() if line.startswith("timing: ")]
    names = [line[len("timing: ") :].split(":")[0] for line in timed[1:-1]]
    # issue 46: the bench's rows, each press timed on its own, so that an
    # owner's figures can be set beside the bench's
    assert names == [
        "menu step", "menu step up", "menu to the help", "back from the help",
        "menu to the statistics", "back from the statistics", "menu to the cards",
        "cards to the menu, again", "cursor step", "undo",
    ]  # fmt: skip
    sys.path.insert(0, str(ROOT / "tools"))
    import latency

    rows = {row.name for script in latency.scripts() for _, row in script.rows}
    assert set(names) <= rows
    for line in timed[1:-1]:  # the worst, and the mean, of presses 2 ms a clock reading
        worst, mean = line.split(": ")[-1].split(" worst, ")
        assert int(worst) >= float(mean.split()[0]) > 0
    assert timed[-1] == "timing: heap not counted here (a board's is)"  # CPython: no heap
    assert (
        position_text(app.table.game),
        app.table.game.history_end,
        app.table.cursor,
        app.scorecard.seconds,
    ) == before
    assert shown(app) == "about"


def test_a_hint_picks_up_the_card_and_lights_where_it_goes(make_app):
    app = make_app(parse_position("british 7C/AH/KD/5S - - 0,0,0,0"))
    press(app, A)
    menu_choose(app, "Hint")
    assert shown(app) == "play" and app.scorecard.hints == 1
    layout = app.table.layout
    assert app.table.held == layout.pile_stop(1) and app.table.cursor == layout.pile_stop(
        FOUNDATION, 2
    )
    assert (
        app.table.scene.looks[app.table.held] == SELECTED
        and app.table.scene.looks[app.table.cursor] == TARGET
    )
    press(app, A)  # plays the hinted move: the ace home
    assert app.table.game.foundations[2] == 1 and app.table.held == NO_STOP


def test_a_hint_to_deal_lights_the_stock_and_a_deals(make_app):
    app = make_app(Game.new_deal(1))  # a British deal's first move is a deal
    press(app, A)
    menu_choose(app, "Hint")
    assert shown(app) == "play" and app.scorecard.hints == 1
    layout, looks = app.table.layout, app.table.scene.looks
    # the stock lit green under the cursor, nothing picked up, the waste unlit
    assert app.table.held == NO_STOP and app.table.cursor == layout.pile_stop(STOCK)
    assert looks[app.table.cursor] == TARGET and looks[layout.pile_stop(WASTE)] == NORMAL
    press(app, A)
    assert app.table.game.stock_count == 87 and app.table.game.waste_count == 1
    assert not any(looks)  # the hint is out once it is played


def test_a_hint_to_fill_a_space_from_the_stock_lights_the_space_and_a_fills_it(make_app):
    # American deal 1's shipped line (lines.py) fills column b from the
    # stock as its sixth move: the hint was shown as a deal, and A dealt
    game = Game.new_deal(1, AMERICAN)
    for token in ("kF", "SW", "SW", "oc", "bn"):
        game.play(parse_move(token, game))
    app = make_app(game)
    press(app, A)
    menu_choose(app, "Hint")
    layout, looks = app.table.layout, app.table.scene.looks
    assert app.table.held == NO_STOP and app.table.cursor == layout.pile_stop(1)
    assert looks[app.table.cursor] == TARGET and looks[layout.pile_stop(STOCK)] == NORMAL
    stock, waste = app.table.game.stock_count, app.table.game.waste_count
    press(app, A)
    played = app.table.game
    assert played.column_height(1) == 1 and played.stock_count == stock - 1
    assert played.waste_count == waste and not any(looks)


def test_b_puts_a_hint_to_deal_out(make_app):
    app = make_app(Game.new_deal(1))
    press(app, A)
    menu_choose(app, "Hint")
    press(app, B)
    assert (
        not any(app.table.scene.looks)
        and app.table.game.stock_count == 88
        and app.table.game.waste_count == 0
    )


def test_a_hint_that_finds_nothing_says_so_and_changes_nothing(make_app):
    app = make_app(parse_position("british KC/KD/KH/JS - - 0,0,0,0"))
    press(app, A)
    before = position_text(app.table.game)
    menu_choose(app, "Hint")
    assert shown(app) != "play" and shown(app) == "menu"
    assert "Hint: nothing found" in page_text(app)
    assert position_text(app.table.game) == before and app.scorecard.hints == 0
    press(app, B, START)  # the menu again: the notice is gone
    assert "nothing found" not in page_text(app)


def test_hint_and_redo_are_two_presses_from_the_cards(make_app):
    # the menu opens at its top; Select there is Hint and right is Redo,
    # wherever its bar is, keys the menu gave no meaning before
    app = make_app(parse_position("british 7C/AH/KD/5S - - 0,0,0,0"))
    press(app, A, START, SELECT)
    assert shown(app) == "play" and app.scorecard.hints == 1
    assert app.table.held == app.table.layout.pile_stop(1)
    press(app, A)  # the ace home
    press(app, SELECT, START, DOWN, RIGHT)  # undone; the bar moved: Right still redoes
    assert shown(app) == "play" and app.table.game.foundations[2] == 1
    press(app, START, RIGHT)  # nothing to redo: back on the cards, the cursor flashed
    assert shown(app) == "play" and app.table.game.foundations[2] == 1


def test_select_on_the_menu_with_no_hint_says_so_on_its_hint_row(make_app):
    app = make_app(parse_position("british KC/KD/KH/JS - - 0,0,0,0"))
    press(app, A, START, SELECT)
    assert shown(app) == "menu" and "Hint: nothing found" in page_text(app)
    assert app.screens.rows.row == row_of("hint") and app.scorecard.hints == 0


def test_a_hints_search_looks_a_few_positions_a_turn_and_a_press_stops_it(make_app):
    # deal 10's hint needs a search: the cards show at once, the hint turns
    # later (a whole search is a quarter of a second on a board)
    app = make_app(Game.new_deal(10))
    press(app, A)
    menu_choose(app, "Hint")  # settled: the hint shown
    held, cursor = app.table.held, app.table.cursor
    press(app, B, START, *[DOWN] * MENU.index("Hint"))
    app.handle(A)  # the press alone
    assert shown(app) == "play" and app.table.hinting and not app.resting()
    turns = 0
    while app.table.hinting:
        app.tick(app.now)
        turns += 1
    assert turns > 3 and (app.table.held, app.table.cursor) == (held, cursor)  # the same hint
    press(app, B, START, *[DOWN] * MENU.index("Hint"))
    app.handle(A)
    app.handle(RIGHT)  # a press while it looks: the search stops, the press is taken
    assert not app.table.hinting and app.table.held == NO_STOP


def test_a_hint_borrows_the_dead_test_and_gives_it_back(make_app):
    # stock out and the dead test running: the hint stops it, then it starts again
    app = make_app(parse_position("american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"))
    press(app, A)
    assert app.table.probing
    menu_choose(app, "Hint")
    assert app.table.probing  # started again, from the start
    if shown(app) != "play":
        press(app, B)  # nothing found: back to the cards, where the dead test runs
    wait(app, 400)
    assert not app.table.probing


def test_the_won_screen_says_the_moves_the_time_and_the_best_bettered(make_app):
    app = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    press(app, A)
    wait(app, 59_000)  # 59 seconds of play
    press(app, B)  # the last card home
    text = page_text(app)
    assert "1 move in 0:59" in text and "Your first win!" in text
    again = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    again.stats = app.stats
    press(again, A, B)  # a second win, quicker: a new best time
    assert "New best: fastest win!" in page_text(again)
    third = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    third.stats = app.stats
    press(third, A, B)  # as quick, as few moves: the streak is the best bettered
    assert "New best: 3 in a row!" in page_text(third)


def test_game_over_says_why_the_moves_the_time_and_a_new_best(make_app):
    app = make_app(parse_position("british KC/5H/6H/6H - AS 0,0,0,0"))
    press(app, A)
    app.table.make_move(move(WASTE, FOUNDATION))
    wait(app, 200)  # the dead test: no card can go home
    text = page_text(app)
    assert "No card can go home now." in text and "New best: 1 home!" in text
    assert "A:new B:board Start:menu" in text
    press(app, B)
    menu_choose(app, "End game")
    press(app, A)  # no question: the game is over already
    assert "You ended the game." in page_text(app) and "New best: 1 home!" in page_text(app)
    press(app, A)  # A: a new deal
    assert shown(app) == "play" and app.table.game.history_count == 0
    assert app.stats.get(BRITISH, HOME_BEST) == 1


def test_the_menu_says_the_games_moves_and_time(make_app):
    app = make_app(Game.new_deal(5, UNION))
    press(app, A)
    app.table.make_move(legal_moves(app.table.game)[0])
    wait(app, 61_500)  # the screen dims at a minute, and play time stops with it
    press(app, A)  # wake
    press(app, START)
    assert page_text(app).split("\n")[0] == "Menu: 1 move, 0:59"


def test_finish_is_offered_once_the_rest_is_certain_and_plays_it_out(make_app):
    app = make_app(parse_position("british 3C/2C/-/- - AC 23,26,26,26"))
    press(app, A, B)  # the cards; 3C home: the 2C and the AC can follow in any order
    assert shown(app) == "finish"
    assert "All 2 cards left can" in page_text(app)
    press(app, A)  # finish: back on the cards, a card home every 150 ms
    assert shown(app) == "play" and app.table.finishing and not app.resting()
    wait(app, 10)  # issue 46: the press's turn shows the cards alone
    assert app.table.game.score() == 102 and app.table.finishing
    wait(app, 150)
    assert app.table.game.score() == 103 and app.table.finishing  # the first, 150 ms on
    wait(app, 300)
    assert app.table.outcome == OUTCOME_WON and shown(app) == "won"
    assert not app.table.finishing and "3 moves in 0:00" in page_text(app)


def test_finish_declined_is_not_offered_again_and_a_press_stops_it(make_app):
    app = make_app(parse_position("british 4C/3C/2C/- - AC 22,26,26,26"))
    press(app, A, B)  # 4C home: the rest is certain
    press(app, B)  # play them myself
    assert shown(app) == "play" and not app.table.finishing
    press(app, RIGHT, B)  # 3C home: no second offer
    assert shown(app) == "play" and app.table.game.score() == 102
    app.restart()  # the same deal again: offered again, and a press stops it
    press(app, B)
    assert shown(app) == "finish"
    press(app, A)
    wait(app, 160)
    press(app, LEFT)  # stops Finish, and does nothing else
    assert not app.table.finishing and app.table.cursor == 0
    score = app.table.game.score()
    wait(app, 1000)
    assert app.table.game.score() == score < 104


def test_par_is_on_the_title_and_the_game_over_screen(make_app):
    from british_square.par import par

    deal = next(n for n in range(1, 200) if 0 < par(0, n) < 104)  # a surveyed British deal
    app = make_app(Game.new_deal(deal))
    assert "Par: {} cards home".format(par(0, deal)) in page_text(app)
    press(app, A)
    menu_choose(app, "Hint")
    if shown(app) != "play":
        press(app, B)  # nothing found: back to the cards
    app.scorecard.hints = 1
    menu_choose(app, "End game")
    press(app, A)  # yes, end it
    text = page_text(app)
    assert "Par: {} cards home".format(par(0, deal)) in text and "Hints used: 1" in text
    unsurveyed = make_app(Game.new_deal(31999))
    assert "Par" not in page_text(unsurveyed)


def test_winnable_deals_only_deals_what_the_solver_won(make_app):
    from british_square.par import par

    app = make_app(Game.new_deal(5, UNION))
    press(app, A)
    menu_choose(app, "Winnable only: ")
    assert app.settings.winnable_only and "Winnable only: on" in page_text(app)
    press(app, B)
    for _ in range(5):
        menu_choose(app, "New game")
        assert app.table.game.rules == UNION and par(UNION, app.table.game.deal_number) == 104


def test_a_new_game_is_a_deal_with_par_and_british_winnable_only_says_none(make_app):
    from british_square.par import par

    app = make_app(Game.new_deal(5, BRITISH))
    for _ in range(5):
        assert par(BRITISH, app.random_deal(BRITISH)) > 0  # a target to play for
    press(app, A)
    menu_choose(app, "Winnable only: ")  # no British deal is known to be winnable
    assert not app.settings.winnable_only and "Winnable only: none" in page_text(app)
    assert app.heard[-1:] == [BUZZ]  # refused
    press(app, B)
    menu_choose(app, "New game")
    assert 0 < par(BRITISH, app.table.game.deal_number) < 104


# ------------------------------------------------------- sound and lights


def test_each_press_sounds_what_it_did(make_app):
    from british_square.sounds import BUZZ, CHIME, CLICK

    app = make_app(parse_position("british AC/5H/-/- 9S8S - 0,0,0,0"))
    press(app, A)  # past the title: nothing sounds on a page of text
    assert app.heard == []
    press(app, B)  # the ace home
    assert app.heard == [CHIME]
    press(app, RIGHT, B)  # the 5H cannot go home: refused
    assert app.heard == [CHIME, BUZZ]
    press(app, SELECT)  # undo
    assert app.heard == [CHIME, BUZZ, CLICK]
    app.table.cursor = app.table.layout.stock_stop
    press(app, A)  # a card dealt from the stock
    assert app.heard[-1] == CLICK and len(app.heard) == 4


def test_the_sound_setting_mutes_every_effect(make_app):
    app = make_app(parse_position("british AC/5H/-/- 9S8S - 0,0,0,0"))
    press(app, A)
    menu_choose(app, "Sound: ")
    assert not app.settings.sound and "Sound: off" in page_text(app)
    press(app, B, B, RIGHT, B, SELECT)  # back to the cards: home, refused, undo
    assert app.heard == []
    menu_choose(app, "Sound: ")  # on again
    assert app.settings.sound and "Sound: on" in page_text(app)
    press(app, B, SELECT)  # redo is not on a key: undo sounds again
    assert len(app.heard) == 1


def test_a_win_plays_the_fanfare_and_the_lights_glow_until_the_celebration_ends(make_app):
    from british_square.sounds import CHIME, FANFARE

    app = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    press(app, A, B)
    assert app.heard == [CHIME, FANFARE]  # the last card home, then the win
    assert app.glowed == []  # dark until the first frame
    wait(app, 500)
    frames = [frame for frame, _ in app.glowed]
    assert len(frames) >= 5 and frames == list(range(1, len(frames) + 1))
    assert {percent for _, percent in app.glowed} == {100}  # the Brightness setting
    press(app, B)  # back to the cards: the celebration ends, the lights go dark
    assert app.glowed[-1] == (-1, 100)
    count = len(app.glowed)
    wait(app, 500)
    assert len(app.glowed) == count  # nothing on other frames


def test_the_lights_follow_brightness_and_go_dark_when_the_screen_dims(make_app):
    app = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    app.settings.brightness = 30
    press(app, A, B)
    wait(app, 200)
    assert app.glowed[-1][1] == 30
    wait(app, 60_000)  # a minute without a press: the screen dims
    assert app.dimmed and app.glowed[-1][0] == -1  # dark
    # issue 46: the celebration waits for a press, and the loop sleeps
    kings = [(king.x, king.y) for king in app.view.page.cards]
    count = len(app.glowed)
    wait(app, 1000)
    assert [(king.x, king.y) for king in app.view.page.cards] == kings
    assert len(app.glowed) == count and app.resting()
    press(app, A)  # wakes the screen, and nothing else
    wait(app, 200)
    assert [(king.x, king.y) for king in app.view.page.cards] != kings


def test_the_loop_sleeps_between_the_celebrations_frames(make_app):
    # issue 46: the won screen kept the CPU busy until a press; its frames
    # are 50 ms apart, and a loop that sleeps between them still shows each
    app = make_app(parse_position("british AC/-/-/- - - 25,26,26,26"))
    press(app, A, B)
    wait(app, 60)  # the menu's first page written, hidden, in turns with no press
    assert shown(app) == "won" and app.resting()
    wait(app, 500)
    assert len(app.glowed) >= 9 and app.resting()


def test_each_screen_has_one_number_and_the_name_of_its_number():
    numbers = {
        name: value for name, value in vars(screen_ids).items() if name.startswith("SCREEN_")
    }
    numbers.pop("SCREEN_NAMES")
    assert sorted(numbers.values()) == list(range(len(screen_ids.SCREEN_NAMES)))
    for name, number in numbers.items():
        assert screen_ids.SCREEN_NAMES[number] == name[len("SCREEN_") :].lower()
