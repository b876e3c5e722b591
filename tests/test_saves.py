"""The game kept across power cycles, as the player meets it: the app with a
store (``store.Store`` over a fake NVM) saves at rest points, resumes with
"continue" on the title, keeps the settings, counts the statistics and
shows them. The record's format and the power cuts are test_store.py's."""

import pytest
from test_app import Clock, FakeDisplay, NoKeys, menu_choose, page_text, press, wait
from test_store import same_game
from test_words import body

from british_square import screens
from british_square.app import BRIGHTNESS_LEVELS, App
from british_square.controls import LEFT, NONE, RIGHT, START, A, B
from british_square.engine import AMERICAN, BRITISH, FOUNDATION, UNION, Game, move
from british_square.hint import Hinter
from british_square.notation import parse_position
from british_square.store import (
    BEST_TIME,
    FEWEST_MOVES,
    HINTS,
    HOME_BEST,
    MIN_INTERVAL_S,
    PAUSE_S,
    PLAYED,
    STREAK,
    WINS,
    Store,
)

TITLE_WORDS = body("title_words")  # play, continue, then the notices
NEAR_WIN = "british AC/-/-/- - - 25,26,26,26"  # B on the first column wins


class CountingNVM(bytearray):
    """8 KB of erased flash that counts its writes (one erase each on a SAMD51)."""

    def __init__(self):
        super().__init__(b"\xff" * 8192)
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

    def make(nvm, game=None, clock=None):
        clock = clock or Clock()
        levels = []
        app = App(
            FakeDisplay(), NoKeys(), clock, game, False, font, levels.append, None, Store(nvm)
        )
        app.clock = clock
        app.levels = levels
        return app

    return make


def play_some(app, count, seed=0):
    """``count`` legal moves (the first listed, turn about with undo)."""
    buffer = bytearray(612)
    for i in range(count):
        n = app.game.legal_moves(buffer)
        app.play(buffer[2 * (i % n)] << 8 | buffer[2 * (i % n) + 1])


def later(app, ms):
    """``ms`` pass in one turn of the loop (``wait`` takes turns of 10 ms)."""
    app.clock.now += ms
    app.now = app.clock.now
    app.tick(app.now)


def test_a_fresh_board_starts_a_new_game_saying_play(boot):
    nvm = CountingNVM()
    app = boot(nvm)
    assert app.screens.current == screens.TITLE
    assert "A: {}".format(TITLE_WORDS[0]) in page_text(app)
    wait(app, 1000)
    assert nvm.writes == 0  # nothing to keep yet


def test_leaving_the_cards_saves_and_power_on_resumes_exactly(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(11, UNION))
    press(app, A)
    play_some(app, 40)
    for _ in range(5):
        app.undo()  # a redo tail, kept too
    wait(app, 3000)  # three seconds of play, counted
    app.hints_used = 2
    assert nvm.writes == 0  # never per move
    press(app, START)  # the menu: a rest point, the session's first save
    wait(app, 20)
    assert nvm.writes == 1
    again = boot(nvm)  # power off and on
    assert same_game(again.game, app.game) and again.game.deal_number == 11
    assert again.seconds == 3 and again.hints_used == 2 and again.rules == UNION
    assert "A: {}".format(TITLE_WORDS[1]) in page_text(again)  # continue
    press(again, A)
    assert again.game.redo() is not None  # the redo tail came back


def test_a_game_over_is_not_resumed_but_its_statistics_are_kept(boot):
    nvm = CountingNVM()
    app = boot(nvm, parse_position(NEAR_WIN))
    press(app, A, B)  # the last card home: won
    assert app.screens.current == screens.WON
    wait(app, 20)
    assert nvm.writes == 1  # the end of a game is a rest point
    again = boot(nvm)
    assert again.stats.get(BRITISH, WINS) == 1 and again.stats.get(BRITISH, PLAYED) == 1
    assert again.game.history_end == 0  # a new deal, not the game that was won
    assert "A: {}".format(TITLE_WORDS[0]) in page_text(again)


def test_games_count_once_when_won_ended_or_left_after_a_move(boot):
    nvm = CountingNVM()
    app = boot(nvm, parse_position(NEAR_WIN))
    press(app, A, B)  # won
    stats = app.stats
    assert stats.get(BRITISH, PLAYED) == 1 and stats.get(BRITISH, STREAK) == 1
    assert stats.get(BRITISH, FEWEST_MOVES) == 1 and stats.get(BRITISH, HOME_BEST) == 104
    app.undo()  # and won again: still one game
    app.play(move(0, FOUNDATION))
    assert stats.get(BRITISH, PLAYED) == 1 and stats.get(BRITISH, WINS) == 1
    app.new_deal(5, BRITISH)  # nothing moved: not a game yet
    app.new_deal(6, BRITISH)
    assert stats.get(BRITISH, PLAYED) == 1
    app.play(move(16, 17))  # a deal from the stock: now it counts when left
    app.new_deal(7, BRITISH)
    assert stats.get(BRITISH, PLAYED) == 2 and stats.get(BRITISH, STREAK) == 0
    app.play(move(16, 17))
    app.hints_used = 3
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
    assert app.screens.current == screens.STATS
    text = page_text(app)
    assert "Statistics: British" in text
    rows = text.splitlines()
    assert rows[1].startswith("Played") and rows[1].endswith(" 1")
    assert rows[2].startswith("Won") and rows[2].endswith("1 (100%)")
    assert rows[3].endswith(" 104") and rows[4].endswith("104.0")
    press(app, RIGHT)
    assert "Statistics: American" in page_text(app)
    assert page_text(app).splitlines()[1].endswith(" 0")
    press(app, LEFT, LEFT)
    assert "Statistics: Union" in page_text(app)
    press(app, B)
    assert app.screens.current == screens.MENU


def test_settings_are_kept_and_the_backlight_comes_back_as_set(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(3))
    press(app, A)
    menu_choose(app, "Auto-play: ")  # the menu stays; a setting is a rest point
    for item in ("Brightness: ", "Winnable only: ", "Sound: "):
        press(app, B)
        menu_choose(app, item)
    wait(app, 20)
    assert nvm.writes == 1  # the session's first rest: at once
    assert app.autoplay and app.winnable_only and app.brightness == BRIGHTNESS_LEVELS[1]
    assert not app.sound_on
    # a later setting waits for the interval, or for the window to close
    press(app, B)
    menu_choose(app, "Brightness: ")
    wait(app, 20)
    assert nvm.writes == 1
    app.actions = Finished()
    app.run()  # the end of the loop: what is unsaved is kept
    assert nvm.writes == 2
    again = boot(nvm)
    assert again.autoplay and again.winnable_only and not again.sound_on
    assert again.brightness == BRIGHTNESS_LEVELS[2] and again.levels == [BRIGHTNESS_LEVELS[2]]


def test_no_save_per_move_and_an_hour_of_play_keeps_to_the_rate_limit(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(2, AMERICAN))
    press(app, A)
    for _minute in range(60):  # a move every two seconds, the menu once a minute
        for _ in range(30):
            if app.game.stock_count:
                app.play(move(16, 17))
            else:
                app.undo()
            later(app, 2000)
        press(app, START)
        later(app, 100)
        press(app, B)
    # the first rest at once, then at most one save per interval
    assert nvm.writes <= 1 + 3600 // MIN_INTERVAL_S
    assert nvm.writes >= 2  # and the interval does come round


def test_a_pause_saves_once_the_interval_has_passed(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(2, AMERICAN))
    press(app, A)
    app.play(move(16, 17))
    press(app, START, B)
    wait(app, 20)
    assert nvm.writes == 1
    wait(app, MIN_INTERVAL_S * 1000)
    app.play(move(16, 17))
    wait(app, (PAUSE_S - 1) * 1000)
    assert nvm.writes == 1  # still playing
    wait(app, 2000)
    assert nvm.writes == 2  # a pause of PAUSE_S: saved


def test_play_time_counts_only_while_the_cards_are_on_show_and_lit(boot):
    app = boot(CountingNVM(), Game.new_deal(4))
    wait(app, 5000)  # the title
    assert app.seconds == 0
    press(app, A)
    wait(app, 5000)
    assert app.seconds == 5
    press(app, START)
    wait(app, 5000)  # the menu
    press(app, B)
    assert app.seconds == 5
    wait(app, 120_000)  # dimmed a minute after the last press: the player is away
    assert 64 <= app.seconds <= 66  # 5, then the minute before the dimming


def test_a_damaged_save_says_so_and_starts_a_new_game(boot):
    nvm = CountingNVM()
    app = boot(nvm, Game.new_deal(9))
    press(app, A)
    play_some(app, 5)
    press(app, START)
    wait(app, 20)
    nvm[40] ^= 0xFF  # a bit flip in the one record
    again = boot(nvm)
    assert TITLE_WORDS[2] in page_text(again)  # "Saved game unreadable"
    assert again.game.history_end == 0


def test_a_save_between_two_steps_of_the_dead_test_leaves_its_verdict(boot):
    # The save's record is the dead test's move buffer too: each step fills it again.
    position = "american 5H/6H/8S/9S/-/-/-/-/-/-/-/-/-/-/-/- - - 0,0,0,0"
    app = boot(CountingNVM(), parse_position(position))
    assert app.moves is app.store.record
    press(app, A)
    assert app.probing
    app.dead_test.step(1)
    app.save()  # fills the shared buffer with the record
    verdict = None
    while verdict is None:
        verdict = app.dead_test.step(2)
    assert verdict == Hinter(200).run(parse_position(position))
