"""The game kept across power cycles, as the player meets it: the app with a
store (``store.Store`` over a fake NVM) saves at save points, resumes with
"continue" on the title, keeps the settings, counts the statistics and
shows them. The record's format and the power cuts are test_store.py's."""

import importlib
import random
import re

import pytest
from app_harness import (
    SAVE_MS,
    Clock,
    FakeHardware,
    menu_choose,
    page_text,
    press,
    settle,
    shown,
    turn,
    wait,
)
from nvm_records import (
    BAD_STOCK,
    BLOCK,
    NONSENSE,
    START_32767,
    UNION_AS_AMERICAN,
    PagedFlash,
    bad_record,
    flash_holding,
    same_game,
)
from sessions import long_game
from words_text import body

from british_square import sheet
from british_square.app import App
from british_square.controls import DOWN, LEFT, NONE, RIGHT, START, UP, A, B
from british_square.desktop.notation import parse_position, position_text
from british_square.engine import MAX_MOVES, Game
from british_square.hint import Hinter
from british_square.piles import AMERICAN, BRITISH, FOUNDATION, STOCK, UNION, move
from british_square.resume import load
from british_square.save_policy import MIN_INTERVAL_S, PAUSE_S
from british_square.stats import (
    BEST_TIME,
    BRIGHTNESS_LEVELS,
    FEWEST_MOVES,
    HINTS,
    HOME_BEST,
    PLAYED,
    STATS_SIZE,
    STREAK,
    WINS,
)
from british_square.store import DEAL_MOVES_MOST, MAGIC, RECORD_SIZE, SLOT_B, Store
from british_square.table import OUTCOME_PLAYING, OUTCOME_STUCK

TITLE_WORDS = body("title_words")  # play, continue, then the notices
NEAR_WIN = "british AC/-/-/- - - 25,26,26,26"  # B on the first column wins


class CountingNVM(bytearray):
    """8 KB of erased flash that counts its writes (one erase each on a SAMD51)."""

    def __init__(self):
        super().__init__(b"\xff" * BLOCK)
        self.writes = 0

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        self.writes += 1


class Finished:
    """A key script at its end: the loop's next turn is its last."""

    finished = True

    def poll(self, now):
        return NONE


@pytest.fixture
def boot(font):
    """``boot(nvm, game=None)``: an app started on ``nvm`` as at power-on."""

    def make(nvm, game=None, clock=None, facts=None):
        clock = clock or Clock()
        levels = []
        hardware = FakeHardware(clock, font=font, backlight=levels.append, facts=facts)
        app = App(hardware, Store(nvm), game)
        app.clock = clock
        app.levels = levels
        return app

    return make


def play_some(app, count, seed=0):
    """``count`` legal moves (the first listed, turn about with undo)."""
    buffer = bytearray(612)
    for i in range(count):
        n = app.table.game.legal_moves(buffer)
        app.table.make_move(move(buffer[2 * (i % n)], buffer[2 * (i % n) + 1]))
        settle(app)  # as after a press: the cursor's frame comes a turn after a move


def later(app, ms):
    """``ms`` pass in one turn of the loop (``wait`` takes turns of 10 ms),
    then the turns of the work under way, as a loop turns many times a
    second: the dead test's (up to 200), then a save's, a share each
    (``App.save_step``: a few dozen at most), which waits for it."""
    app.clock.now += ms
    app.now = app.clock.now
    turn(app)
    for _ in range(1000):
        if not (app.table.probing or (app.store is not None and app.store.saving)):
            break
        turn(app)


def pass_time(app, ms, step=1000):
    """``ms`` pass in turns of ``step`` ms."""
    for _ in range(ms // step):
        later(app, step)


HELP_KEYS = "\n".join(line.strip() for line in body("help_keys"))  # how to play


def test_a_fresh_board_offers_the_rule_sets_then_how_to_play_then_the_game(boot):
    nvm = CountingNVM()
    app = boot(nvm)
    # the very first start: the three rule sets, each with what to expect,
    # the bar on British Square, the default everywhere; how to change it later
    assert shown(app) == "first"
    text = page_text(app)
    assert re.match(r"Choose a game\nBritish Square\ncan't win: aim ~\d+ home\nAmerican", text)
    assert "Union Square\n100% can be won\n\nLater: menu, then Rules\n" in text
    assert app.view.page.bar.text.strip() == b"British Square"
    press(app, UP)  # the bar only, round to the last: Union Square
    assert app.view.page.bar.text.strip() == b"Union Square"
    press(app, UP)
    assert app.view.page.bar.text.strip() == b"American"
    wait(app, 1000)
    assert nvm.writes == 0  # nothing to keep while it shows
    press(app, A)  # American, dealt: then the help's first page, once
    assert app.table.game.rules == AMERICAN and app.settings.rules == AMERICAN
    assert app.table.game.history_count == 0 and shown(app) != "play"
    assert shown(app) == "help"
    text = page_text(app)
    assert HELP_KEYS in text and text.endswith("\n" + TITLE_WORDS[-1])  # "Any key: go on"
    press(app, B)
    assert shown(app) == "play"  # the game chosen, as "A: play" said: no title between
    assert app.table.game.rules == AMERICAN and app.table.game.history_count == 0
    wait(app, SAVE_MS)
    assert nvm.writes == 1  # the help was shown: kept at once, the session's first rest
    again = boot(nvm)  # power off and on
    assert shown(again) == "title"  # a board with a record
    assert again.settings.rules == AMERICAN  # the choice kept
    assert "A: {}".format(TITLE_WORDS[0]) in page_text(again)
    # and the help is in the menu, as ever, its keys its own
    press(again, A)
    menu_choose(again, "Help")
    assert shown(again) == "help"
    assert page_text(again).endswith("\n" + "</> page  B: back")


@pytest.mark.parametrize("rules", [BRITISH, AMERICAN, UNION])
def test_the_first_starts_choice_deals_its_rule_set(boot, rules):
    app = boot(CountingNVM())
    press(app, *[DOWN] * rules, A)  # the bar starts on British Square
    assert app.table.game.rules == rules and shown(app) == "help"


@pytest.mark.parametrize("key", [A, START, LEFT, RIGHT])
def test_any_key_goes_on_from_the_first_starts_help(boot, key):
    nvm = CountingNVM()
    app = boot(nvm)
    press(app, A)  # British Square
    dealt = app.table.game.deal_number
    press(app, key)
    assert shown(app) == "play"  # the game chosen, dealt, and no move made by the key
    assert app.table.game.deal_number == dealt and app.table.game.history_count == 0
    wait(app, SAVE_MS)
    assert nvm.writes == 1  # the first start kept as past


def test_the_first_starts_help_shows_again_if_the_power_goes_before_a_key(boot):
    nvm = CountingNVM()
    boot(nvm)
    again = boot(nvm)  # off while it showed: nothing kept, nothing seen for sure
    assert shown(again) == "first" and nvm.writes == 0


@pytest.mark.parametrize("other", ["random", "zeros", "text"])
def test_another_programs_nvm_is_a_new_board_and_only_the_two_slots_are_written(boot, other):
    # issue 50: an NVM full of another program's data skipped the first start
    # (and said "Saved game unreadable" of a save that was never ours)
    flash = PagedFlash()
    if other == "random":
        data = random.Random(5).randbytes(len(flash.data))
        data = bytes([0]) + data[1:SLOT_B] + bytes([0]) + data[SLOT_B + 1 :]  # no magic of ours
    elif other == "zeros":
        data = bytes(len(flash.data))
    else:
        data = (b'{"high_score": 1200, "name": "ADA"}\n' * 300)[: len(flash.data)]
    flash.data[:] = data
    app = boot(flash)
    assert shown(app) == "first" and flash.writes == 0
    press(app, A, A)  # British Square, then past how to play: kept at once
    wait(app, SAVE_MS)
    assert shown(app) == "play" and flash.writes == 1
    slots = [(0, RECORD_SIZE), (SLOT_B, SLOT_B + RECORD_SIZE)]
    for start, end in [(RECORD_SIZE, SLOT_B), (SLOT_B + RECORD_SIZE, len(data))]:
        assert flash.data[start:end] == data[start:end]  # the rest of the block as it was
    assert flash.data[slots[1][0] : slots[1][0] + 4] == MAGIC  # the first save: slot B
    again = boot(flash)
    assert shown(again) == "title" and again.settings.rules == BRITISH


def test_a_game_named_at_start_up_is_past_the_first_start(boot):
    # the desktop's and the VM's options name a game: it starts at its title,
    # and once it has kept a record, the board is past its first start
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(11))
    assert shown(app) == "title"
    press(app, A)
    play_some(app, 1)
    press(app, START)
    wait(app, SAVE_MS)
    assert nvm.writes == 1
    assert shown(boot(nvm)) == "title"


def test_leaving_the_cards_saves_and_power_on_resumes_exactly(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(11, UNION))
    press(app, A)
    play_some(app, 40)
    for _ in range(5):
        app.table.undo()  # a redo tail, kept too
    wait(app, 3000)  # three seconds of play, counted
    app.scorecard.hints = 2
    assert nvm.writes == 0  # never per move
    press(app, START)  # the menu: a save point, the session's first save
    wait(app, SAVE_MS)
    assert nvm.writes == 1
    again = boot(nvm)  # power off and on
    assert same_game(again.table.game, app.table.game) and again.table.game.deal_number == 11
    card = again.scorecard
    assert card.seconds == 3 and card.hints == 2 and again.settings.rules == UNION
    assert "A: {}".format(TITLE_WORDS[1]) in page_text(again)  # continue
    press(again, A)
    assert again.table.game.redo() is not None  # the redo tail came back


def begin_a_save(app):
    """Turns until a save is under way (the menu's rows first: it waits for
    all else), then two of its shares."""
    for _ in range(50):
        if app.store.saving:
            break
        wait(app, 10)
    assert app.store.saving
    wait(app, 20)
    assert app.store.saving


def test_a_save_goes_a_share_a_turn_and_a_press_gives_it_up_till_all_is_quiet(boot):
    nvm = CountingNVM()
    game = long_game(BRITISH, 8, DEAL_MOVES_MOST - 1)  # and its move: all kept from the deal
    app = boot(nvm, game)
    press(app, A)
    play_some(app, 1)
    press(app, START)  # the menu: the session's first rest
    begin_a_save(app)
    assert nvm.writes == 0
    press(app, DOWN)  # a press: the save is given up, nothing written
    assert not app.store.saving and nvm.writes == 0 and app.policy.unsaved
    wait(app, SAVE_MS)  # begun again once all is quiet, and written
    assert nvm.writes == 1 and not app.store.saving
    again = boot(nvm)
    assert again.table.game.history_count == game.history_count
    assert position_text(again.table.game) == position_text(game)


def test_a_save_waits_for_a_hints_search_left_on_the_cards_whose_copy_it_walks_on(boot):
    nvm = CountingNVM()
    game = long_game(BRITISH, 8, 500)  # past DEAL_MOVES_MOST: a save walks back to a start
    app = boot(nvm, game)
    press(app, A)
    play_some(app, 1)
    assert app.hint() and app.table.hinting  # the search under way, over the next turns
    app.handle(START)  # the menu at once (its press leaves the search where it is)
    wait(app, SAVE_MS)
    assert app.table.hinting and not app.store.saving and nvm.writes == 0
    before = position_text(game)
    press(app, B)  # the cards: the search ends, then the save is made
    wait(app, 3000)
    table, layout = app.table, app.table.layout
    assert not table.hinting and nvm.writes == 1 and position_text(game) == before
    hinted = move(layout.stop_pile(table.held), layout.stop_pile(table.cursor))
    assert table.lit or game.is_legal(hinted)  # the hint of the game as it is
    again = boot(nvm)
    assert position_text(again.table.game) == before


def test_a_change_while_a_save_is_under_way_gives_it_up_for_the_next(boot):
    nvm = CountingNVM()
    game = Game.new_deal(2)
    app = boot(nvm, game)
    press(app, A)
    play_some(app, 30)
    press(app, START)
    begin_a_save(app)
    play_some(app, 1)  # a change with no press of its own: the save was of what was
    assert not app.store.saving and nvm.writes == 0
    press(app, B, START)  # the next rest
    wait(app, SAVE_MS)
    assert nvm.writes == 1
    assert boot(nvm).table.game.history_count == game.history_count == 31


def test_a_game_over_is_not_resumed_but_its_statistics_are_kept(boot):
    nvm = CountingNVM()
    app = boot(nvm, parse_position(NEAR_WIN))
    press(app, A, B)  # the last card home: won
    assert shown(app) == "won"
    wait(app, SAVE_MS)
    assert nvm.writes == 1  # the end of a game is a save point
    again = boot(nvm)
    assert again.stats.get(BRITISH, WINS) == 1 and again.stats.get(BRITISH, PLAYED) == 1
    assert again.table.game.history_end == 0  # a new deal, not the game that was won
    assert "A: {}".format(TITLE_WORDS[0]) in page_text(again)


def test_games_count_once_when_won_ended_or_left_after_a_move(boot):
    nvm = CountingNVM()
    app = boot(nvm, parse_position(NEAR_WIN))
    press(app, A, B)  # won
    stats = app.stats
    assert stats.get(BRITISH, PLAYED) == 1 and stats.get(BRITISH, STREAK) == 1
    assert stats.get(BRITISH, FEWEST_MOVES) == 1 and stats.get(BRITISH, HOME_BEST) == 104
    app.table.undo()  # and won again: still one game
    app.table.make_move(move(0, FOUNDATION))
    assert stats.get(BRITISH, PLAYED) == 1 and stats.get(BRITISH, WINS) == 1
    app.new_deal(5, BRITISH)  # nothing moved: not a game yet
    app.new_deal(6, BRITISH)
    assert stats.get(BRITISH, PLAYED) == 1
    app.table.make_move(move(16, 17))  # a deal from the stock: now it counts when left
    app.new_deal(7, BRITISH)
    assert stats.get(BRITISH, PLAYED) == 2 and stats.get(BRITISH, STREAK) == 0
    app.table.make_move(move(16, 17))
    app.scorecard.hints = 3
    menu_choose(app, "End game")
    press(app, A)  # yes: ended, counted as played and not won
    assert stats.get(BRITISH, PLAYED) == 3 and stats.get(BRITISH, WINS) == 1
    assert stats.get(BRITISH, HINTS) == 3 and stats.get(BRITISH, BEST_TIME) >= 1


def test_the_statistics_screen_shows_each_rule_set(boot):
    nvm = CountingNVM()
    app = boot(nvm, parse_position(NEAR_WIN))
    press(app, A, B)  # won: 1 played, 1 won
    press(app, B)  # from the celebration to the cards
    menu_choose(app, "Statistics")
    assert shown(app) == "stats"
    text = page_text(app)
    assert "Statistics: British" in text
    rows = text.splitlines()
    assert rows[1].startswith("Won") and rows[1].endswith(" 1 of 1 (100%)")
    assert rows[2].endswith(" 104") and rows[3].endswith("104.0")
    press(app, RIGHT)
    assert "Statistics: American" in page_text(app)
    assert page_text(app).splitlines()[1].endswith(" 0 of 0 (0%)")
    press(app, LEFT, LEFT)
    assert "Statistics: Union" in page_text(app)
    press(app, B)
    assert shown(app) == "menu"


def test_settings_are_kept_and_the_backlight_comes_back_as_set(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(3, UNION))  # (in British, Winnable only says "none")
    press(app, A)
    menu_choose(app, "Auto-play: ")  # the menu stays; a setting is a save point
    for item in ("Brightness: ", "Winnable only: ", "Sound: "):
        press(app, B)
        menu_choose(app, item)
    wait(app, SAVE_MS)
    assert nvm.writes == 1  # the session's first rest: at once
    assert (
        app.settings.autoplay
        and app.settings.winnable_only
        and app.settings.brightness == BRIGHTNESS_LEVELS[1]
    )
    assert not app.settings.sound
    # a later setting waits for the interval, or for the window to close
    press(app, B)
    menu_choose(app, "Brightness: ")
    wait(app, SAVE_MS)
    assert nvm.writes == 1
    app.hardware.actions = Finished()
    app.run()  # the end of the loop: what is unsaved is kept
    assert nvm.writes == 2
    again = boot(nvm)
    assert again.settings.autoplay and again.settings.winnable_only and not again.settings.sound
    assert again.settings.brightness == BRIGHTNESS_LEVELS[2] and again.levels == [
        BRIGHTNESS_LEVELS[2]
    ]


def suit_inks(app):
    """The colours of clubs and diamonds in each of the view's palettes."""
    return {(p[sheet.CLUB_INK], p[sheet.DIAMOND_INK]) for p in app.view.palettes}


def test_four_colour_suits_are_kept_and_drawn_from_power_on(boot):
    two = (sheet.PALETTE[sheet.INK], sheet.PALETTE[sheet.RED])
    four = (sheet.CLUB_GREEN, sheet.DIAMOND_BLUE)
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(3))
    assert not app.settings.four_colours and suit_inks(app) == {two}
    press(app, A)
    menu_choose(app, "4-colour suits: ")  # the menu stays, and says it
    assert app.settings.four_colours and suit_inks(app) == {four}
    assert "\n4-colour suits: on\n" in page_text(app)
    wait(app, SAVE_MS)
    assert nvm.writes == 1  # a setting is a save point: the session's first save
    again = boot(nvm)  # power off and on: the cards come in four colours
    assert again.settings.four_colours and suit_inks(again) == {four}
    press(again, A)
    menu_choose(again, "4-colour suits: ")
    assert not again.settings.four_colours and suit_inks(again) == {two}


def test_no_save_per_move_and_two_hours_of_play_keep_to_the_rate_limit(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(2, AMERICAN))
    press(app, A)
    for _minute in range(120):  # a move every two seconds, the menu once a minute
        for _ in range(30):
            if app.table.game.stock_count:
                app.table.make_move(move(16, 17))
            else:
                app.table.undo()
            later(app, 2000)
        press(app, START)
        wait(app, SAVE_MS)  # the menu's rows, then a save if one is due
        press(app, B)
    # the first rest at once, then at most one save per interval
    assert nvm.writes <= 1 + 7200 // MIN_INTERVAL_S
    assert nvm.writes >= 2  # and the interval does come round


def test_a_pause_saves_once_the_interval_has_passed(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(2, AMERICAN))
    press(app, A)
    app.table.make_move(move(16, 17))
    press(app, START, B)
    wait(app, SAVE_MS)
    assert nvm.writes == 1
    pass_time(app, MIN_INTERVAL_S * 1000)
    app.table.make_move(move(16, 17))
    wait(app, (PAUSE_S - 1) * 1000)
    assert nvm.writes == 1  # still playing
    wait(app, 2000)
    assert nvm.writes == 2  # a pause of PAUSE_S: saved


def test_play_time_counts_only_while_the_cards_are_on_show_and_lit(boot):
    app = boot(CountingNVM(), Game.new_deal(4))
    wait(app, 5000)  # the title
    assert app.scorecard.seconds == 0
    press(app, A)
    wait(app, 5000)
    assert app.scorecard.seconds == 5
    press(app, START)
    wait(app, 5000)  # the menu
    press(app, B)
    assert app.scorecard.seconds == 5
    wait(app, 120_000)  # dimmed a minute after the last press: the player is away
    assert 64 <= app.scorecard.seconds <= 66  # 5, then the minute before the dimming


def test_a_damaged_save_says_so_and_starts_a_new_game(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(9))
    press(app, A)
    play_some(app, 5)
    press(app, START)
    wait(app, SAVE_MS)
    nvm[SLOT_B + 40] ^= 0xFF  # a bit flip in the one record (a new board's first is in B)
    again = boot(nvm)
    assert TITLE_WORDS[2] in page_text(again)  # "Saved game unreadable"
    assert again.table.game.history_end == 0


def test_a_save_between_two_steps_of_the_dead_test_leaves_its_verdict(boot):
    # The legal-move buffer the dead test and the hint use is the app's own,
    # not the save's record buffer (it once was: a save then spoilt a step)
    position = "american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"
    app = boot(CountingNVM(), parse_position(position))
    assert (
        app.table.move_buffer is not app.store.buffer
        and len(app.table.move_buffer) == 2 * MAX_MOVES
    )
    press(app, A)
    assert app.table.probing
    while app.table.settling:  # the test's copy made, from the turn after the press
        app.tick(app.now)
    app.table.hinter.step(1)
    app.save()  # fills the shared buffer with the record
    verdict = None
    while verdict is None:
        verdict = app.table.hinter.step(2)
    check = Hinter(200)  # the same test in one go, on a buffer of its own
    check.start(parse_position(position))
    assert verdict == check.step(201)


# ------------------------------------------------ a save never takes the board down


def kept(nvm):
    """What a power-on would find in ``nvm``: (store, game)."""
    store = Store(nvm)
    return store, load(store)


def check_fresh_start_then_a_good_save(app, nvm):
    """A new game, nothing of the record taken, the title saying so; then
    the first save writes a record that loads whole and newest."""
    assert TITLE_WORDS[2] in page_text(app)  # "Saved game unreadable"
    card = app.scorecard
    assert app.table.game.history_end == 0 and card.seconds == 0 and card.hints == 0
    assert app.stats.data == bytes(STATS_SIZE) and app.settings.rules == BRITISH
    assert (
        app.settings.brightness == BRIGHTNESS_LEVELS[0]
        and not app.settings.autoplay
        and app.settings.sound
    )
    press(app, A)
    play_some(app, 3)
    press(app, START)  # the session's first save point: saved at once
    wait(app, SAVE_MS)
    store, game = kept(nvm)
    assert store.notice == 0 and same_game(game, app.table.game)


@pytest.mark.parametrize("name", sorted(NONSENSE) + [START_32767, BAD_STOCK, UNION_AS_AMERICAN])
def test_a_record_of_nonsense_starts_a_new_game_saying_so_and_the_next_save_replaces_it(boot, name):
    nvm = flash_holding(bad_record(name))
    check_fresh_start_then_a_good_save(boot(nvm), nvm)


def test_deal_32767_behind_a_start_position_cannot_stop_the_rules_screen(boot):
    # It resumed, and Menu, Rules, another rule set, A, A dealt 32767 again:
    # Game.new_deal raised, and the menu had saved the record again first
    nvm = flash_holding(bad_record(START_32767))
    app = boot(nvm)
    press(app, A)
    menu_choose(app, "Rules: ")
    press(app, RIGHT, A, A)
    assert app.table.game.rules == AMERICAN and 1 <= app.table.game.deal_number <= 31999


def caught_once(app, capsys, doing, error):
    """The app printed one console line naming ``error``, caught while
    ``doing``, and About counts it (a board's ``.mpy`` has no line numbers:
    unsaid, it would pass for a damaged save)."""
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if "error" in line] == ["error: {}: {}".format(doing, error)]
    assert app.store.errors_caught == 1
    if shown(app) != "play":  # the title, or the menu on its first row (back): A shows the cards
        press(app, A)
    menu_choose(app, "About")
    assert "Errors caught 1" in page_text(app).splitlines()


def boots_afresh(boot, nvm, monkeypatch, capsys, doing, error):
    """A power-on over ``nvm`` with ``monkeypatch``'s failure in place: a new
    game saying so, the next save good, and ``error`` said once, ``doing``."""
    capsys.readouterr()
    again = boot(nvm)
    monkeypatch.undo()
    check_fresh_start_then_a_good_save(again, nvm)
    caught_once(again, capsys, doing, error)


def test_an_exception_while_loading_starts_a_new_game_saying_so(boot, monkeypatch, capsys):
    """Whatever ``resume.load`` raises (here the heap running out after it
    took the settings and statistics), nothing of the record is kept."""
    nvm = PagedFlash()
    app = boot(nvm, Game.new_deal(8))
    app.stats.add_game(BRITISH, 20, False, 40, 300, False, 0)
    menu_choose(app, "Auto-play: ")
    press(app, B, A)
    play_some(app, 4)
    press(app, START)
    wait(app, SAVE_MS)
    assert kept(nvm)[0].notice == 0 and nvm.writes == 1
    loader = importlib.import_module("british_square.resume")  # the one App will find
    real_load = loader.load

    def load_then_run_out(store):
        real_load(store)
        raise MemoryError

    monkeypatch.setattr(loader, "load", load_then_run_out)
    boots_afresh(boot, nvm, monkeypatch, capsys, "loading the save", "MemoryError")


def test_a_loader_that_cannot_load_for_want_of_heap_numbers_the_next_save_past_the_records(
    boot, monkeypatch, capsys
):
    """The heap runs out as the loader itself loads: nothing of the record is
    kept, and the next save is numbered past both records in the block (it
    was numbered 1, and the older record came back at the next power-on)."""
    import builtins

    nvm = PagedFlash()
    app = boot(nvm, Game.new_deal(8))
    press(app, A)
    play_some(app, 2)
    app.save()
    play_some(app, 2)
    app.save()  # slot B, then slot A: sequence numbers 1 and 2
    real_import = builtins.__import__

    def out_of_heap(name, *args, **kwargs):
        fromlist = args[2] if len(args) > 2 else kwargs.get("fromlist")
        if name == "british_square" and fromlist and "resume" in fromlist:
            raise MemoryError
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", out_of_heap)
    boots_afresh(boot, nvm, monkeypatch, capsys, "loading the save", "MemoryError")


def test_an_exception_while_starting_the_resumed_game_starts_a_new_one_saying_so(
    boot, monkeypatch, capsys
):
    nvm = PagedFlash()
    app = boot(nvm, Game.new_deal(8, UNION))
    app.stats.add_game(UNION, 20, False, 40, 300, False, 0)
    press(app, A)
    play_some(app, 4)
    press(app, START)
    wait(app, SAVE_MS)
    real_start = App.start_game

    def start_then_fail(self, game):
        real_start(self, game)  # the game shown, then (say) the heap runs out
        if game.history_end:
            raise MemoryError("memory allocation failed, allocating 512 bytes")

    monkeypatch.setattr(App, "start_game", start_then_fail)
    error = "MemoryError: memory allocation failed, allocating 512 bytes"
    boots_afresh(boot, nvm, monkeypatch, capsys, "starting the save", error)


class FailingNVM(PagedFlash):
    """Flash whose writes fail (``error``: what CircuitPython raises, or a file's OSError)."""

    def __init__(self, error):
        super().__init__()
        self.error = error
        self.tries = 0

    def __setitem__(self, index, value):
        self.tries += 1
        if self.error is not None:
            raise self.error
        super().__setitem__(index, value)


@pytest.mark.parametrize("error", [RuntimeError("Unable to write to nvm."), OSError(5)])
def test_a_write_the_nvm_refuses_leaves_the_game_going(boot, error, capsys):
    nvm = FailingNVM(error)
    app = boot(nvm, Game.new_deal(3))
    press(app, A)
    play_some(app, 2)
    press(app, START)
    wait(app, 1000)
    assert nvm.tries == 1  # tried once, not again every turn
    caught_once(app, capsys, "saving", "{}: {}".format(type(error).__name__, error))
    press(app, B, B)  # About, the menu, the cards
    press(app, B)
    play_some(app, 2)
    pass_time(app, MIN_INTERVAL_S * 1000)
    assert nvm.tries == 2  # the next one waits as long as after a save
    nvm.error = None  # the flash takes writes again
    play_some(app, 1)
    pass_time(app, MIN_INTERVAL_S * 1000)
    store, game = kept(nvm)
    assert nvm.tries == 3 and same_game(game, app.table.game) and store.notice == 0


# -------------------------------------------------------------- a day of play


def first_deal(rng):
    """The deal a fresh board starts, picked by ``rng`` (the app's own pick
    would make the day depend on the tests run before)."""
    return Game.new_deal(rng.randint(1, 31999), BRITISH)


def a_session(app, minutes, rng, battery=None, low_from=None):
    """``minutes`` of play as a player plays it, on the app's clock: a move
    every 2 to 8 seconds, now and then a pause of up to two minutes (the
    backlight dims after one), a look at the menu every few minutes, a new
    deal from it every 10 to 15. ``battery`` (a list) reads low from minute
    ``low_from``. The session ends at ``minutes`` to the millisecond (the
    power switch does not wait for a pause to end). Returns the longest
    time anything stayed unsaved after the session's first save, in ms."""
    buffer = bytearray(2 * MAX_MOVES)
    start = app.clock.now
    end = start + minutes * 60_000

    def play_on(ms, step=1000):  # time passes, up to the session's end
        pass_time(app, max(0, min(ms, end - app.clock.now)), step)

    next_menu = start + rng.randint(3, 6) * 60_000
    next_deal = start + rng.randint(10, 15) * 60_000
    longest = 0
    saves, saved_at = app.store.writes, None
    press(app, A)
    while app.clock.now < end:
        if low_from is not None and app.clock.now - start >= low_from * 60_000:
            battery[0] = 3400
        n = app.table.game.legal_moves(buffer) if shown(app) == "play" else 0
        if n and app.table.outcome in (
            OUTCOME_PLAYING,
            OUTCOME_STUCK,
        ):  # else it waits for the menu's new deal
            plays = [i for i in range(n) if buffer[2 * i] != STOCK] or list(range(n))
            i = rng.choice(plays)
            app.table.make_move(move(buffer[2 * i], buffer[2 * i + 1]))
            app.last_press = app.now  # the press that made it
        play_on(rng.randint(2000, 8000), step=500)
        if rng.random() < 0.02:
            play_on(rng.randint(10_000, 120_000))
            press(app, NONE)  # a press wakes the backlight, and does nothing else
        if app.clock.now >= next_menu:
            press(app, START)
            play_on(rng.randint(1000, 4000), step=500)
            if app.clock.now >= next_deal:
                app.new_deal(rng.randint(1, 31999), BRITISH)
                next_deal = app.clock.now + rng.randint(10, 15) * 60_000
            else:
                press(app, B)
            next_menu = app.clock.now + rng.randint(3, 6) * 60_000
        if app.store.writes != saves:
            saves, saved_at = app.store.writes, app.clock.now
        elif saved_at is not None and app.policy.unsaved:
            longest = max(longest, app.clock.now - saved_at)
    return longest


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_day_of_two_one_hour_sessions_writes_twice(boot, seed):
    """The design day of SavePolicy: two hours of play in two sessions, each
    ended by the power switch (no word to the game), its writes counted as
    the flash counts erases. At most one write a session (its first save
    point; the hour after it is not over when the session ends), and after
    it nothing stays unsaved much past the hour."""
    rng = random.Random(seed)
    nvm = CountingNVM()
    for session in range(2):
        app = boot(nvm, None if session else first_deal(rng))  # the clock starts again
        longest = a_session(app, 60, rng)
        assert longest <= MIN_INTERVAL_S * 1000 + 10_000
    assert nvm.writes == 2  # 730 a year: 10 000 cycles last 13.7 years


def test_a_battery_running_low_costs_one_more_write_a_session(boot):
    rng = random.Random(4)
    nvm = CountingNVM()
    battery = [3900]
    facts = lambda: ("test", 8192, battery[0])  # noqa: E731
    for session in range(2):
        app = boot(nvm, None if session else first_deal(rng), facts=facts)
        a_session(app, 60, rng, battery, low_from=40 if session else None)
    assert nvm.writes == 3  # the design day's two, and one at the first rest after 40 minutes
    assert app.screens.battery_text().startswith("low")


def test_one_two_hour_session_writes_twice(boot):
    rng = random.Random(5)
    nvm = CountingNVM()
    longest = a_session(boot(nvm, first_deal(rng)), 120, rng)
    assert nvm.writes == 2 and longest <= MIN_INTERVAL_S * 1000 + 10_000


def test_the_loader_and_the_file_check_are_let_go_before_the_sprites_are_made(boot, monkeypatch):
    """What start-up runs once (the save's loader, the check of the game's
    files) can be collected before the view is made: a name still holding
    it would keep its code on the heap through the sprites and labels,
    where a board's start-up needs the most room."""
    import gc
    import sys
    import types

    import british_square
    from british_square import app as app_module

    once = ("british_square.resume", "british_square.position", "british_square.files")

    def modules_held():
        gc.collect()
        found = gc.get_objects()
        return [o for o in found if isinstance(o, types.ModuleType) and o.__name__ in once]

    earlier = modules_held()  # copies other tests left (held by their apps or by pytest)
    for name in once:  # imported afresh by the app, so that only it can hold them
        monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.delattr(british_square, name.rpartition(".")[2], raising=False)
    held = []

    def view(*args):
        held.extend(o.__name__ for o in modules_held() if all(o is not e for e in earlier))
        return real_view(*args)

    real_view = app_module.View
    monkeypatch.setattr(app_module, "View", view)
    nvm = CountingNVM()
    boot(nvm).save()
    assert boot(nvm).table.game is not None  # a save was read
    assert held == []
