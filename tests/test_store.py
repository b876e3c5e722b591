"""The save in NVM (british_square.store): records that survive power cuts at
any point of a write, resume exactly, reject what they did not write, and a
save policy that keeps the flash alive for ten years."""

import binascii
import copy
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nvm_records import (
    BLOCK,
    DEAL_AT,
    GAME_AT,
    NONSENSE,
    SLOT_B,
    START,
    V1_RECORD,
    PagedFlash,
    PowerCut,
    flash_holding,
    forged,
    history,
    one_back,
    same_game,
    start_body,
    start_layout,
    started_after,
    swap_two_different,
    v1_record_game,
    valid_body,
    written_body,
    written_record,
)

from british_square import store as store_module
from british_square.deal import MAX_DEAL
from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import parse_position, position_text
from british_square.engine import Game
from british_square.piles import (
    AMERICAN,
    BRITISH,
    FOUNDATION,
    RULE_SETS,
    UNION,
    move,
    move_source,
    move_target,
)
from british_square.resume import consistent, load
from british_square.save_policy import MIN_INTERVAL_S, PAUSE_S, SavePolicy
from british_square.stats import (
    AUTOPLAY_SAFE,
    BEST_TIME,
    FEWEST_MOVES,
    FIELDS,
    HINTS,
    HOME_BEST,
    HOME_TOTAL,
    PAR_REACHED,
    PLAYED,
    STATS_SIZE,
    STREAK,
    STREAK_BEST,
    WINS,
    Stats,
)
from british_square.store import (
    COUNTED,
    CRC_SIZE,
    DEAL_MOVES_MOST,
    HAS_GAME,
    HAS_START,
    HEADER_SIZE,
    LAST_SEQUENCE,
    MAGIC,
    NOTICE_EARLIER,
    NOTICE_UNREADABLE,
    SETTING_RULE_SETS,
    SETTINGS_SIZE,
    START_MOVES_MOST,
    VERSION,
    VERSION_AT,
    Store,
)

PAGE = 512  # a SAMD51 flash page (PLATFORM.md)
MOST = 0xFFFFFF  # a count's limit: stats.COUNT_MOST, three bytes


def random_game(seed, rules=BRITISH, actions=120, undo_share=0.25):
    """A game of deal ``seed`` after ``actions`` random moves, undos and redos."""
    rng = random.Random(seed)
    game = Game.new_deal(seed % 31999 + 1, rules)
    for _ in range(actions):
        roll = rng.random()
        if roll < undo_share / 2:
            game.undo()
        elif roll < undo_share:
            game.redo()
        else:
            moves = legal_moves(game)
            if moves:
                game.play(rng.choice(moves))
            else:
                game.undo()
    return game


def saved_copy(game):
    return copy_game(game) if game is not None else None


def loaded(flash):
    store = Store(flash)
    return store, load(store)


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize(
    "block, holds",
    [
        (b"\xff" * BLOCK, False),  # a new board
        (bytes(BLOCK), False),  # another program's
        (b"BSQ\x1a" + b"\xff" * (BLOCK - 4), True),  # a first save cut in its header
        (b"\xff" * SLOT_B + b"BSQ" + b"\xff" * (BLOCK - SLOT_B - 3), True),  # into slot B
    ],
    ids=["erased", "zeros", "cut in A", "cut in B"],
)
def test_the_loader_is_needed_only_where_a_slot_could_hold_a_record(block, holds):
    store = Store(bytearray(block))
    assert store.may_hold_a_save() == holds
    if not holds:  # what the loader would have found: nothing, and nothing to say
        again = Store(bytearray(block))
        assert load(again) is None and again.notice == 0 and again.sequence == 0


def test_a_blank_flash_loads_nothing_and_says_nothing():
    store, game = loaded(PagedFlash())
    assert game is None and store.notice == 0
    assert store.stats.data == bytes(STATS_SIZE)
    assert store.settings.rules == BRITISH and store.settings.brightness == 100


@pytest.mark.parametrize("rules", [BRITISH, AMERICAN, UNION])
def test_a_save_loads_back_exactly_with_settings_stats_time_and_hints(rules):
    flash = PagedFlash()
    store = Store(flash)
    load(store)
    game = random_game(rules * 100 + 7, rules, actions=150)
    store.settings.rules = rules
    store.settings.autoplay = AUTOPLAY_SAFE
    store.settings.sound = False
    store.settings.winnable_only = True
    store.settings.brightness = 40
    store.stats.add_game(rules, 30, False, 120, 400, True, 2)
    store.stats.add_game(rules, 104, True, 260, 900, True, 0)
    store.save(game, 1234, 3)
    assert flash.writes == 1
    again, resumed = loaded(flash)
    assert same_game(resumed, game)
    assert again.notice == 0
    assert (again.seconds, again.hints) == (1234, 3)
    assert again.stats.data == store.stats.data
    s = again.settings
    assert (s.rules, s.autoplay, s.sound, s.winnable_only, s.brightness) == (
        rules, AUTOPLAY_SAFE, False, True, 40,
    )  # fmt: skip
    assert not s.four_colours
    # auto-play with its safe cards, and winnable only
    assert written_record(store)[HEADER_SIZE + 1] == 1 | 4 | 16
    assert not again.counted


def count(store, game):
    """``game`` counted in ``store``'s statistics, as the app counts it at Game over."""
    store.stats.add_game(game.rules, game.score(), False, game.history_count, 60, False, 0)


def test_a_game_counted_at_game_over_stays_counted_across_a_power_cut():
    flash = PagedFlash()
    store = Store(flash)
    game = random_game(3, actions=20)
    count(store, game)
    store.save(game, 60, 0, counted=True)
    assert written_record(store)[5] & COUNTED
    again, _ = loaded(flash)
    assert again.counted
    again.save(random_game(3, actions=21), 61, 0)
    assert not loaded(flash)[0].counted


def test_counted_without_a_game_is_refused():
    game = random_game(1, actions=10)
    store = Store(PagedFlash())
    count(store, game)
    store.save(game, 1, 0)
    body = written_body(store)
    store, game = loaded(flash_holding(forged(HAS_GAME | COUNTED, bytes(body))))
    assert game is not None and store.counted
    store, game = loaded(flash_holding(forged(COUNTED, bytes(body[: SETTINGS_SIZE + STATS_SIZE]))))
    assert game is None and store.notice == NOTICE_UNREADABLE


@pytest.mark.parametrize("rules", [BRITISH, AMERICAN, UNION])
def test_counted_with_no_game_of_its_rule_set_played_is_refused(rules):
    # issue 50: the game counts a game (Game over) before it saves it counted
    game = random_game(1, rules, actions=10)
    store = Store(PagedFlash())
    other = Game.new_deal(9, (rules + 1) % 3)
    count(store, other)  # a game of another rule set played: not this one
    store.save(game, 1, 0, counted=True)
    store, game = loaded(store.nvm)
    assert game is None and store.notice == NOTICE_UNREADABLE
    assert store.stats.data == bytes(STATS_SIZE)  # refused whole


def test_a_game_with_no_move_is_no_game_in_progress_and_refused():
    # issue 50: the app saves a game only once it has a move (Table.in_progress)
    records = []
    for game, start in ((Game.new_deal(9), False), (started_after(9), True)):
        store = Store(PagedFlash())
        store.resumed_from_position = game if start else None
        store.save(game, 1, 0)  # the store writes what it is given
        records.append(written_record(store))
        assert records[-1][5] & HAS_GAME and bool(records[-1][5] & HAS_START) == start
    for record in records:
        store, game = loaded(flash_holding(record))
        assert game is None and store.notice == NOTICE_UNREADABLE
    for game in (Game.new_deal(9), started_after(9)):  # a move to redo: the same loads
        store = Store(PagedFlash())
        store.resumed_from_position = game if game.deal_number and not game.history_end else None
        store.save(one_back(game), 1, 0)
        assert loaded(store.nvm)[1] is not None


def test_four_colour_suits_are_kept():
    flash = PagedFlash()
    store = Store(flash)
    store.settings.four_colours = True
    store.settings.sound = False
    store.save(None, 0, 0)
    assert written_record(store)[HEADER_SIZE + 1] == 8  # the options: four colours alone
    again, _ = loaded(flash)
    s = again.settings
    assert (s.four_colours, s.sound, s.autoplay, s.winnable_only) == (True, False, False, False)
    again.settings.four_colours = False
    again.save(None, 0, 0)
    assert not loaded(flash)[0].settings.four_colours


def test_a_record_from_before_four_colour_suits_loads_with_them_off():
    # the record the game wrote before them (nvm_records.V1_RECORD), before
    # the rule-set count too: version 1
    store, game = loaded(flash_holding(V1_RECORD))
    assert store.notice == 0 and same_game(game, v1_record_game())
    assert (store.seconds, store.hints) == (321, 2)
    s = store.settings
    assert (s.rules, s.autoplay, s.sound, s.winnable_only, s.brightness) == (
        AMERICAN, True, False, True, 60,
    )  # fmt: skip
    assert not s.four_colours  # a record without the setting: off
    assert store.stats.get(AMERICAN, WINS) == 1 and store.stats.get(AMERICAN, BEST_TIME) == 754
    # and the next save keeps it all
    store.save(game, 400, 2)
    again, resumed = loaded(store.nvm)
    assert same_game(resumed, game) and again.stats.data == store.stats.data
    # written as version 2: the same settings, the count of rule sets, the same statistics
    written = written_record(store)
    assert V1_RECORD[VERSION_AT] == 1 and written[VERSION_AT] == VERSION == 2
    settings = HEADER_SIZE + SETTING_RULE_SETS
    assert written[HEADER_SIZE:settings] == V1_RECORD[HEADER_SIZE:settings]
    assert written[settings] == RULE_SETS
    v1_stats = 3 * FIELDS * 3  # version 1's: three rule sets
    assert (
        written[settings + 1 : settings + 1 + v1_stats] == V1_RECORD[settings : settings + v1_stats]
    )
    assert not any(written[settings + 1 + v1_stats : settings + 1 + STATS_SIZE])  # any others


def fewer_rule_sets(body, kept):
    """``body`` (settings onwards) as a build that knew only the first
    ``kept`` rule sets would have written it: their statistics alone."""
    stats_end = SETTINGS_SIZE + kept * FIELDS * 3
    return (
        bytes(body[: SETTINGS_SIZE - 1])
        + bytes([kept])
        + bytes(body[SETTINGS_SIZE:stats_end] + body[SETTINGS_SIZE + STATS_SIZE :])
    )


def test_a_record_of_fewer_rule_sets_loads_with_the_others_at_nothing():
    # what a build that adds a rule set meets: the records written before it
    # (issue 48.1), here a build of two rule sets' record read by one of three
    game = random_game(3, AMERICAN, actions=12)
    store = Store(PagedFlash())
    store.stats.add_game(BRITISH, 20, False, 90, 300, False, 1)
    store.stats.add_game(AMERICAN, 104, True, 250, 600, True, 0)
    store.stats.add_game(UNION, 104, True, 250, 600, True, 0)
    store.save(game, 7, 1)
    body = written_body(store)
    loaded_store, resumed = loaded(flash_holding(forged(HAS_GAME, fewer_rule_sets(body, 2))))
    assert loaded_store.notice == 0 and same_game(resumed, game)
    stats = loaded_store.stats
    assert stats.get(BRITISH, PLAYED) == 1 and stats.get(AMERICAN, WINS) == 1
    assert stats.get(UNION, PLAYED) == 0  # the rule set the record did not know
    # a game, or a setting, of a rule set the record keeps no statistics of: not its own
    loaded_store, resumed = loaded(flash_holding(forged(HAS_GAME, fewer_rule_sets(body, 1))))
    assert resumed is None and loaded_store.notice == NOTICE_UNREADABLE
    assert loaded_store.stats.data == bytes(STATS_SIZE)


@pytest.mark.parametrize("options", [16, 32, 128, 255])
def test_an_option_the_game_does_not_have_is_refused(options):
    body = valid_body(random_game(1, actions=10))
    body[1] = options
    store, game = loaded(flash_holding(forged(HAS_GAME, bytes(body))))
    assert game is None and store.notice == NOTICE_UNREADABLE
    body[1] = options & 15  # the options the game has load
    store, game = loaded(flash_holding(forged(HAS_GAME, bytes(body))))
    assert game is not None and store.notice == 0


def test_no_game_in_progress_keeps_stats_and_settings():
    flash = PagedFlash()
    store = Store(flash)
    store.stats.add_game(UNION, 104, True, 250, 600, False, 0)
    store.settings.brightness = 10
    store.save(None, 0, 0)
    again, game = loaded(flash)
    assert game is None and again.notice == 0
    assert again.stats.get(UNION, WINS) == 1 and again.settings.brightness == 10


def test_saves_alternate_slots_and_the_newest_wins():
    flash = PagedFlash()
    store = Store(flash)
    games = [random_game(3, actions=n) for n in (10, 20, 30, 40)]
    for n, game in enumerate(games):
        store.save(game, n, 0)
        slot = (n + 1) % 2  # the first into B (see store's docstring), then A, B...
        assert flash.data[slot * SLOT_B : slot * SLOT_B + 4] == MAGIC
        again, resumed = loaded(flash)
        assert same_game(resumed, game) and again.seconds == n
    # the loaded store goes on writing into the other slot: the newest stays
    again, _ = loaded(flash)
    again.save(games[0], 99, 0)
    assert loaded(flash)[0].seconds == 99


def test_the_save_crc_is_binascii_crc32():
    store = Store(PagedFlash())
    games = [None] + [random_game(5, actions=n) for n in (1, 7, 100, 600)]
    for game in games + [shuttle_game(500)]:  # the last fills the record
        store.save(game, 1, 0)
        record = written_record(store)
        crc = int.from_bytes(record[-CRC_SIZE:], "little")
        assert crc == binascii.crc32(record[:-CRC_SIZE])


def test_resume_after_every_single_action_of_a_long_game_with_undo_and_redo():
    """Over 300 actions (moves, undos, redos) of a Union game: after each, a
    save and a fresh load give the identical position, history and redo tail."""
    rng = random.Random(11)
    game = Game.new_deal(11, UNION)
    flash = PagedFlash()
    store = Store(flash)
    actions = undos = redos = 0
    while actions < 320:
        roll = rng.random()
        redo_tail = game.history_end > game.history_count
        if roll < (0.3 if redo_tail else 0.12) and game.undo() is not None:
            undos += 1
        elif redo_tail and roll < 0.6 and game.redo() is not None:
            redos += 1
        else:
            moves = legal_moves(game)
            if not moves:
                game.undo()
                undos += 1
            else:
                game.play(rng.choice(moves))
        actions += 1
        store.save(game, actions, 0)
        again, resumed = loaded(flash)
        assert same_game(resumed, game), actions
        assert again.seconds == actions
    assert undos > 30 and redos > 15 and game.history_end > 100


# -------------------------------------------------------- histories too long


def shuttle_game(moves):
    """A Union game whose history is ``moves`` long: a lone card carried back
    and forth between two empty piles (any playable card fills a space)."""
    game = Game.new_deal(2, UNION)
    rng = random.Random(2)
    while True:
        empty = [c for c in range(16) if not game.column_height(c)]
        if len(empty) >= 2:
            break
        game.play(rng.choice(legal_moves(game)))
    a, b = empty[0], empty[1]
    source = next(c for c in range(16) if game.column_height(c))
    game.play(move(source, a))
    while game.history_end < moves:
        game.play(move(a, b))
        a, b = b, a
    return game


@pytest.mark.parametrize("undone", [0, 5, START_MOVES_MOST - 30])  # a redo tail that fits
def test_a_history_past_the_room_keeps_its_newest_moves_from_a_start_position(undone):
    game = shuttle_game(1500)
    for _ in range(undone):
        game.undo()
    flash = PagedFlash()
    store = Store(flash)
    store.save(game, 77, 1)
    first = store.dropped
    assert first > 0
    again, resumed = loaded(flash)
    assert position_text(resumed) == position_text(game)
    assert resumed.deal_number == game.deal_number == 2
    kept = resumed.history_end
    assert resumed.history_count == game.history_count - first
    assert history(resumed) == history(game, first, first + kept)
    assert kept == game.history_end - first  # only the oldest undo steps went
    # the resumed game saves again from its start position, never from its deal
    again.save(resumed, 78, 1)
    third, twice = loaded(flash)
    assert same_game(twice, resumed) and third.seconds == 78


def staged(store, game, seconds, hints, copy_of=None, press_at=None):
    """A save begun and taken a step at a time, as the app takes it (a step
    a turn): the steps it took."""
    store.begin(game, seconds, hints, False, copy_of)
    steps = 1
    while not store.step():
        steps += 1
        assert steps < 100
    return steps


@pytest.mark.parametrize("moves", [0, 200, DEAL_MOVES_MOST, 1500])
@pytest.mark.parametrize("walk", ["a copy", "the game"])
def test_a_save_a_step_at_a_time_writes_what_a_save_at_once_does(moves, walk):
    game = shuttle_game(moves) if moves else Game.new_deal(2, UNION)
    for _ in range(moves // 10):
        game.undo()  # a redo tail too
    before = position_text(game), history(game), game.history_count
    whole, flash = PagedFlash(), PagedFlash()
    Store(whole).save(game, 61, 3)
    store = Store(flash)
    copies = []

    def copy_of(of):
        copies.append(copy_game(of))
        return copies[-1]

    steps = staged(store, game, 61, 3, copy_of if walk == "a copy" else None)
    assert bytes(flash) == bytes(whole) and not store.saving
    # the game as it was (a walk on a copy leaves it alone, one on the game puts it back)
    assert (position_text(game), history(game), game.history_count) == before
    assert len(copies) == (1 if walk == "a copy" and moves > DEAL_MOVES_MOST else 0)
    # the shares, each about 5 ms on a SAMD51 (tools/latency.py): the head, 64
    # moves, 128 bytes of CRC, the write; for a start position 32 moves walked
    # back on a copy, then the position (or the game's own walk, all at once)
    assert steps == {0: 4, 200: 11, 400: 17, 1500: 12 if walk == "a copy" else 11}[moves]


def test_a_save_given_up_writes_nothing_and_the_next_is_whole():
    game = shuttle_game(600)
    flash = PagedFlash()
    store = Store(flash)
    store.save(game, 1, 0)
    written = bytes(flash)
    store.begin(game, 2, 0, False, copy_game)
    for _ in range(5):
        store.step()
    store.cancel()  # a press: nothing of it kept
    assert bytes(flash) == written and not store.saving and store.writes == 1
    game.undo()
    staged(store, game, 3, 0, copy_game)
    again, resumed = loaded(flash)
    assert position_text(resumed) == position_text(game) and again.seconds == 3
    assert store.writes == 2


@pytest.mark.parametrize("played", [DEAL_MOVES_MOST + 1, 600, 1500])
def test_a_game_resumed_from_a_start_position_saves_again_after_any_number_of_moves(played):
    # A game past DEAL_MOVES_MOST moves is kept as a start position and its
    # newest START_MOVES_MOST moves; resumed, each move after that must still
    # make a record that fits (it once outgrew the 1 KB buffer at the 389th:
    # IndexError in every save after the power-on, for good).
    game = shuttle_game(played)
    flash = PagedFlash()
    Store(flash).save(game, 1, 0)
    store, resumed = loaded(flash)
    assert store.resumed_from_position is resumed
    a, b = move_source(resumed.history_move(resumed.history_count - 1)), None
    b = move_target(resumed.history_move(resumed.history_count - 1))
    for k in range(1, 460):
        resumed.play(move(b, a))
        a, b = b, a
        if k in (1, 2, 100, START_MOVES_MOST + 1, 389, 459) or k % 97 == 0:
            store.save(resumed, k, 0)
            store, again = loaded(flash)
            assert position_text(again) == position_text(resumed)
            assert again.history_count == again.history_end <= START_MOVES_MOST
            resumed = again


@pytest.mark.parametrize("played, kept", [(451, 451), (1500, 388)])
def test_a_record_an_earlier_build_wrote_with_all_the_moves_that_fit_still_loads(
    monkeypatch, played, kept
):
    # Builds before the start-up's budget kept every move the 1 KB record
    # holds: 451 from a deal, 388 after a start position. This one keeps
    # fewer, and loads theirs whole: a game is never lost to an update.
    monkeypatch.setattr(store_module, "DEAL_MOVES_MOST", 451)
    monkeypatch.setattr(store_module, "START_MOVES_MOST", 388)
    game = shuttle_game(played)
    flash = PagedFlash()
    Store(flash).save(game, 1, 0)
    monkeypatch.undo()
    store, resumed = loaded(flash)
    assert position_text(resumed) == position_text(game)
    assert resumed.history_end == kept and store.notice == 0
    # and the next save keeps what this build keeps
    store.save(resumed, 2, 0)
    again = loaded(flash)[1]
    assert position_text(again) == position_text(game)
    assert again.history_end == START_MOVES_MOST


def test_the_docs_give_the_moves_a_record_keeps():
    root = Path(__file__).resolve().parents[1]
    readme = " ".join((root / "README.md").read_text().split())
    saves = " ".join((root / "docs" / "saves.md").read_text().split())
    said = "its last {} moves to undo and redo ({} of a game longer than that"
    assert said.format(DEAL_MOVES_MOST, START_MOVES_MOST) in readme
    for said in (
        "its moves to undo (the last {}, or {} of a longer game",
        "A record keeps up to {} moves from a deal ({} from a start position)",
    ):
        assert said.format(DEAL_MOVES_MOST, START_MOVES_MOST) in saves


@given(moves=st.integers(380, 700), undone=st.integers(0, 50), more=st.integers(1, 120))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_record_the_store_writes_it_can_write_again_after_a_resume_and_more_moves(
    moves, undone, more
):
    game = shuttle_game(40 + moves)
    for _ in range(min(undone, game.history_count)):
        game.undo()
    flash = PagedFlash()
    Store(flash).save(game, 1, 0)
    store, resumed = loaded(flash)
    assert position_text(resumed) == position_text(game)
    while resumed.history_count < resumed.history_end:  # the redo tail, played again
        resumed.redo()
    last = resumed.history_move(resumed.history_count - 1)
    back = move(move_target(last), move_source(last))
    for _ in range(more):
        resumed.play(back)
        back = move(move_target(back), move_source(back))
    store.save(resumed, 2, 0)  # raised IndexError once past 388 moves
    assert position_text(loaded(flash)[1]) == position_text(resumed)


def two_way(game, m):
    """Can ``m`` (a move between two piles) be played and then taken straight back?"""
    if move_source(m) >= 16 or move_target(m) >= 16:
        return False
    trial = copy_game(game)
    trial.play(m)
    return trial.is_legal(move(move_target(m), move_source(m)))


def test_a_game_from_a_position_saves_past_388_moves():
    # the desktop's --position game once failed at its 389th move
    game = parse_position(position_text(shuttle_game(60)))
    store = Store(PagedFlash())
    m = next(m for m in legal_moves(game) if two_way(game, m))
    for k in range(400):
        game.play(m)
        m = move(move_target(m), move_source(m))
        if k >= 385:
            store.save(game, k, 0)
            resumed = loaded(store.nvm)[1]
            assert position_text(resumed) == position_text(game)


def test_when_the_redo_tail_alone_outgrows_the_room_its_far_end_goes():
    game = shuttle_game(1500)
    while game.history_count > 10:
        game.undo()
    store = Store(PagedFlash())
    store.save(game, 1, 0)
    assert store.dropped == 10  # the position the player is at is the start
    resumed = loaded(store.nvm)[1]
    assert position_text(resumed) == position_text(game)
    assert resumed.history_count == 0
    assert 0 < resumed.history_end < game.history_end - 10


def set_position(seed, rules=BRITISH, actions=60):
    """A set position (no deal) of the two whole decks: a deal played a while."""
    return parse_position(position_text(random_game(seed, rules, actions)))


# Spades to do, both aces buried under the others but one, on the waste:
# the two whole decks, and a set position (no deal).
SPADES_LEFT = "british AS2S2S3S.4S5S6S7S8S9STSJSQSKS/3S4S5S6S.7S8S9STSJSQSKS/-/- - AS 26,0,26,26"


@pytest.mark.parametrize("position", ["union", "british", SPADES_LEFT])
def test_a_game_set_up_from_a_position_saves_its_start_position(position):
    game = set_position(3, UNION) if position == "union" else set_position(3)
    if position == SPADES_LEFT:
        game = parse_position(SPADES_LEFT)
    game.play(legal_moves(game)[0])
    flash = PagedFlash()
    Store(flash).save(game, 5, 0)
    assert same_game(loaded(flash)[1], game)


def test_a_set_position_of_fewer_than_two_decks_is_played_but_not_kept():
    # the desktop's --position takes one; the loader would refuse it (and
    # with it the statistics), so the store keeps all but the game
    game = parse_position("british 9D5S.6S/KH/-/AC2C.3C 4D8H QS 0,0,1,0")
    game.play(legal_moves(game)[0])
    flash = PagedFlash()
    store = Store(flash)
    store.stats.add_game(BRITISH, 3, False, 1, 1, False, 0)
    store.save(game, 5, 0)
    again, resumed = loaded(flash)
    assert resumed is None and again.notice == 0
    assert again.stats.get(BRITISH, PLAYED) == 1


# ----------------------------------------------------------------- power cuts


def save_sequence(flash, count, seed=1):
    """``count`` saves of growing games; returns what each one held."""
    store = Store(flash)
    load(store)
    held = []
    for n in range(count):
        game = random_game(seed, actions=20 + 15 * n)
        store.stats.add_game(BRITISH, n, False, 10, 10, False, 0)
        store.save(game, 1000 + n, 0)
        held.append((copy_game(game), bytes(store.stats.data)))
    return store, held


def record_span(flash_image, slot):
    """Where the record in ``slot`` of a finished write lies: (start, end)."""
    start = slot * SLOT_B
    length = int.from_bytes(flash_image[start + 6 : start + 8], "little")
    return start, start + length


def check_cut(cut, next_slot_is_b):
    """Save two or three times, cut the next save at byte ``cut``, load, and
    check the outcome against the model: the newest record whose bytes all
    lie before the cut, else the previous one (saying so), else a fresh start."""
    flash = PagedFlash()
    store, held = save_sequence(flash, 2)
    if (store.slot == 1) != next_slot_is_b:
        store, held = save_sequence(PagedFlash(), 3)
        flash = store.nvm
    previous = len(held) - 1
    new_game = random_game(1, actions=200)
    twin = copy.deepcopy(store)  # the same save, uncut: where each record ends
    twin.save(new_game, 2000, 0)
    new_span = record_span(twin.nvm.data, store.slot)
    old_span = record_span(twin.nvm.data, store.slot ^ 1)
    flash.cut_at = cut
    with pytest.raises(PowerCut):
        store.save(new_game, 2000, 0)
    again, game = loaded(flash)
    if cut >= new_span[1]:
        assert same_game(game, new_game) and again.seconds == 2000
        # a save into A cut before B's sequence number is back leaves what a
        # save into B cut there leaves: the notice is shown then (and only then)
        undecidable = new_span[0] == 0 and cut < old_span[0] + 12
        assert again.notice in ((0, NOTICE_EARLIER) if undecidable else (0,))
    elif cut >= old_span[1]:
        assert same_game(game, held[previous][0]) and again.seconds == 1000 + previous
        assert again.stats.data == held[previous][1]
        assert again.notice == NOTICE_EARLIER  # the older record is used: always said
    else:
        assert game is None
        assert again.stats.data == bytes(STATS_SIZE)  # nothing of a lost record is taken
        assert again.notice == (NOTICE_UNREADABLE if cut else 0)
    # whatever was found, the next save is whole and loads
    again.save(new_game, 3000, 0)
    assert loaded(flash)[0].seconds == 3000


@pytest.mark.parametrize("next_slot_is_b", [False, True])
@pytest.mark.parametrize("page", range(17))
def test_a_cut_at_every_page_boundary_loads_what_the_flash_model_holds(page, next_slot_is_b):
    check_cut(page * PAGE, next_slot_is_b)


@pytest.mark.parametrize("at", range(13))
def test_a_cut_in_the_newer_records_header_says_the_older_one_loaded(at):
    # at 8-11 the sequence number is part-written: it claimed no next save,
    # and the older record loaded without a word
    check_cut(SLOT_B + at, next_slot_is_b=True)


def test_the_first_save_of_a_new_board_loads_without_a_notice():
    flash = PagedFlash()
    Store(flash).save(random_game(1, actions=30), 1, 0)
    assert loaded(flash)[0].notice == 0


@pytest.mark.parametrize("cut", range(0, BLOCK + 1, 128))
def test_the_second_save_of_a_new_board_cut_short_never_loads_the_first_unsaid(cut):
    flash = PagedFlash()
    store = Store(flash)
    first, second = random_game(1, actions=30), random_game(2, actions=30)
    store.save(first, 1, 0)
    flash.cut_at = cut
    with pytest.raises(PowerCut):
        store.save(second, 2, 0)
    again, game = loaded(flash)
    if game is not None and again.seconds == 1:
        assert again.notice == NOTICE_EARLIER
    else:
        assert game is None or same_game(game, second)


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(0, BLOCK), next_slot_is_b=st.booleans())
def test_a_cut_at_any_byte_loads_what_the_flash_model_holds(cut, next_slot_is_b):
    check_cut(cut, next_slot_is_b)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_cut_during_the_erase_loads_an_intact_record_or_starts_fresh(seed):
    flash = PagedFlash()
    store, held = save_sequence(flash, 3)
    before = bytes(flash.data)
    flash.cut_erase = random.Random(seed)
    with pytest.raises(PowerCut):
        store.save(random_game(9, actions=50), 5000, 0)
    intact = {
        slot: before[record_span(before, slot)[0] : record_span(before, slot)[1]]
        == bytes(flash.data[record_span(before, slot)[0] : record_span(before, slot)[1]])
        for slot in (0, 1)
    }
    again, game = loaded(flash)
    # the slot the cut save went to holds save 1, the other saves 0 and 2:
    # the newest intact one loads (the save cut in its erase may be said to
    # be cut short), and the older one with the notice
    newest = store.slot ^ 1
    if intact[newest]:
        assert same_game(game, held[2][0]) and again.notice in (0, NOTICE_EARLIER)
    elif intact[newest ^ 1]:
        assert same_game(game, held[1][0]) and again.notice == NOTICE_EARLIER
    else:
        assert game is None and again.notice == NOTICE_UNREADABLE


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flips=st.lists(st.integers(0, 8 * 600 - 1), min_size=1, max_size=3, unique=True))
def test_bit_flips_in_the_newest_record_are_detected(flips):
    flash = PagedFlash()
    store, held = save_sequence(flash, 2)  # save 1 is newest
    start, end = record_span(flash.data, store.slot ^ 1)
    for bit in {bit % (8 * (end - start)) for bit in flips}:
        flash.data[start + bit // 8] ^= 1 << (bit % 8)
    again, game = loaded(flash)
    assert same_game(game, held[0][0])  # never the flipped one
    assert again.notice in (0, NOTICE_EARLIER)


# ------------------------------------------------------------ hostile flash


@pytest.mark.parametrize("name", sorted(NONSENSE))
def test_nonsense_behind_a_good_crc_is_refused_whole(name):
    game = random_game(4, actions=30)
    body = valid_body(game)
    # the unspoilt one loads
    assert loaded(flash_holding(forged(HAS_GAME, bytes(body))))[1] is not None
    NONSENSE[name](body)
    store, game = loaded(flash_holding(forged(HAS_GAME, bytes(body))))
    assert game is None and store.notice == NOTICE_UNREADABLE
    assert store.stats.data == bytes(STATS_SIZE) and store.settings.brightness == 100


def start_position_body(position):
    """A valid body whose game starts from ``position`` (a set position), a
    move to redo (``one_back``)."""
    return valid_body(one_back(parse_position(position)))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda b, at: b.__setitem__(at + 6, 20),  # column a 20 high
        lambda b, at: b.__setitem__(at + 10, 60),  # a card value no card has
        lambda b, at: b.__setitem__(slice(at + 12, at + 14), bytes([b[at + 11]] * 2)),  # 3 x 5S
        lambda b, at: b.__setitem__(at, 27),  # a foundation count of 27
        lambda b, at: b.__setitem__(at + 4, 200),  # a stock longer than the record
    ],
)
def test_a_start_position_the_engine_could_not_hold_is_refused(spoil):
    body = start_position_body(position_text(set_position(7)))
    store, game = loaded(flash_holding(forged(HAS_GAME | HAS_START, bytes(body))))
    assert game is not None and store.notice == 0
    at = START
    spoil(body, at)
    store, game = loaded(flash_holding(forged(HAS_GAME | HAS_START, bytes(body))))
    assert game is None and store.notice == NOTICE_UNREADABLE


def loads(body, flags=HAS_GAME | HAS_START):
    """The game a record holding ``body`` loads (``None`` for none)."""
    store, game = loaded(flash_holding(forged(flags, bytes(body))))
    assert (game is None) == (store.notice == NOTICE_UNREADABLE)
    return game


@pytest.mark.parametrize(
    "spoil",
    [
        lambda b: b.__setitem__(START, b[START] - 1),  # a club short: 103 cards
        # column b one card lower: its top KS gone (a: 14 cards from START + 10, b: 11)
        lambda b: (b.__setitem__(START + 7, b[START + 7] - 1), b.__delitem__(START + 34)),
    ],
)
def test_a_start_position_that_is_not_the_two_whole_decks_is_refused(spoil):
    body = start_position_body(SPADES_LEFT)
    assert loads(body) is not None
    spoil(body)
    assert loads(body) is None


def test_a_start_position_naming_its_deal_loads_and_its_deal_is_kept():
    for deal, rules in ((5, BRITISH), (6, UNION), (7, AMERICAN)):
        game = started_after(deal, rules)
        body = start_body(game)
        stock_at, stock, waste_at, waste = start_layout(body)
        assert stock >= 2 and waste >= 2  # the spoils below have cards to swap
        resumed = loads(body)
        assert same_game(resumed, game) and resumed.deal_number == deal


@pytest.mark.parametrize("deal", [0, MAX_DEAL + 1, 32767, 65535])
def test_a_deal_number_no_deal_has_is_refused_with_or_without_a_start_position(deal):
    # deal 32767 behind a start position resumed, and choosing other rules
    # then dealt it again: Game.new_deal raised and the board stopped
    from_deal = valid_body(random_game(4, actions=30))
    from_position = start_body(started_after(4))
    for flags, body in ((1, from_deal), (3, from_position)):
        body[DEAL_AT : DEAL_AT + 2] = deal.to_bytes(2, "little")
        if deal or flags == 1:
            assert loads(body, flags) is None, (deal, flags)
        else:  # no deal named: a set position, which the two decks make
            assert loads(body, flags).deal_number == 0


@pytest.mark.parametrize(
    "spoil, rules",
    [
        (spoil, rules)
        for spoil in ("stock cards swapped", "waste cards swapped", "another deal named")
        for rules in (BRITISH, UNION)
    ]
    + [("a base's cards swapped", BRITISH)],  # (Union Square's bases are one card each)
)
def test_a_start_position_its_deal_could_not_have_led_to_is_refused(spoil, rules):
    body = start_body(started_after(9, rules))
    stock_at, stock, waste_at, waste = start_layout(body)
    if spoil == "stock cards swapped":
        swap_two_different(body, stock_at, stock)
    elif spoil == "waste cards swapped":
        swap_two_different(body, waste_at, waste)
    elif spoil == "another deal named":
        body[DEAL_AT : DEAL_AT + 2] = (10).to_bytes(2, "little")
    else:  # a column still holding its four dealt cards, two swapped
        heights = [body[START + 6 + c] for c in range(4)]  # height | base << 5 (store.py)
        c = next(c for c in range(4) if heights[c] >> 5 == 4)
        swap_two_different(body, START + 10 + sum(h & 0x1F for h in heights[:c]), 4)
    assert loads(body) is None


def filled_spaces(game):
    """The columns of ``game`` whose one base card is not the one its deal put there."""
    dealt = Game.new_deal(game.deal_number, game.rules)
    return [
        c
        for c in range(game.columns)
        if game.base_count(c) == 1 and game.card(c, 0) != dealt.card(c, 0)
    ]


@pytest.mark.parametrize("seed", range(4))
def test_a_start_position_under_rules_whose_spaces_it_could_not_fill_is_refused(seed):
    # Union Square fills a space with any playable card; American and
    # British only from the waste or the stock. A Union game's head set to
    # American, its CRC made again, loaded with piles no American game can
    # have (issue 37: a lone ace where the deal put a king, both aces dealt).
    game = started_after(9, UNION, seed=seed)
    assert filled_spaces(game)
    body = start_body(game, moves=0)  # no move to replay: the position alone is judged
    assert loads(body) is not None
    body[GAME_AT] = AMERICAN
    assert loads(body) is None


@pytest.mark.parametrize(
    "deal, rules, actions, seed",
    [(21, BRITISH, 90, 12), (39, BRITISH, 40, 30), (9, AMERICAN, 90, 0)],
)
def test_spaces_filled_from_the_stock_or_the_waste_load(deal, rules, actions, seed):
    game = started_after(deal, rules, actions, seed)
    assert filled_spaces(game)
    body = start_body(game, moves=0)
    assert same_game(loads(body), game)


def could_follow(game, deal):
    """The stock and waste of ``game`` as deal ``deal`` of its rules can leave
    them: the stock its bottom cards in order, the waste some of the cards
    dealt from it, in the order dealt (and both decks exactly)."""
    dealt = Game.new_deal(deal, game.rules)
    order = [dealt.waste_card(0)] if dealt.waste_count else []
    order += [dealt.stock_card(k) for k in range(dealt.stock_count)]  # as dealt
    stock = [game.stock_card(k) for k in range(game.stock_count)][::-1]  # bottom first
    waste = [game.waste_card(k) for k in range(game.waste_count)][::-1]
    left = order[len(order) - len(stock) :] if stock else []
    it = iter(order[: len(order) - len(stock)])
    return left == stock[::-1] and all(card in it for card in waste)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    changes=st.lists(st.tuples(st.integers(0, 80), st.integers(0, 255)), min_size=1, max_size=3),
    rules=st.sampled_from([BRITISH, UNION]),
)
def test_good_crcs_around_a_changed_start_position_never_load_what_its_deal_cannot_lead_to(
    changes, rules
):
    body = start_body(started_after(9, rules), moves=0)
    for at, value in changes:  # the game's head and its start position
        if GAME_AT + at < len(body):
            body[GAME_AT + at] = value
    game = loads(body)
    if game is not None:
        assert game.score() + game.cards_left() == 104
        assert 0 <= game.deal_number <= MAX_DEAL
        assert not game.deal_number or could_follow(game, game.deal_number)


def test_a_redo_tail_the_engine_would_refuse_is_refused():
    game = Game.new_deal(4)
    for _ in range(6):
        game.play(legal_moves(game)[0])
    for _ in range(3):
        game.undo()  # three moves to redo, kept after the three done
    body = valid_body(game)
    assert same_game(loads(body, 1), game)
    body[-2:] = bytes([0, 1])  # the far end of the redo tail: column a onto column b
    assert loads(body, 1) is None


def test_a_game_won_is_not_a_game_in_progress():
    game = parse_position("british AC/-/-/- - - 25,26,26,26")
    game.play(move(0, FOUNDATION))
    assert game.is_won()
    flash = PagedFlash()
    Store(flash).save(game, 1, 0)  # the app never does: a game won is not in progress
    store, resumed = loaded(flash)
    assert resumed is None and store.notice == NOTICE_UNREADABLE


@pytest.mark.parametrize(
    "older, newer", [(6, 7), (LAST_SEQUENCE - 1, LAST_SEQUENCE), (LAST_SEQUENCE, 1), (1, 2)]
)
def test_the_newer_of_two_records_loads_across_the_wrap_of_their_numbers(older, newer):
    records = [
        forged(HAS_GAME, valid_body(random_game(1, actions=10), seconds=n), sequence=sequence)
        for n, sequence in ((1, older), (2, newer))
    ]
    for pair in (records, records[::-1]):  # whichever slot each is in
        store, game = loaded(flash_holding(*pair))
        assert store.seconds == 2 and store.notice == 0 and store.sequence == newer


def test_sequence_numbers_wrap_round_after_their_limit():
    # a record at the limit (ours, or one that claims it): the saves after it still load
    body = valid_body(random_game(1, actions=10))
    store, game = loaded(flash_holding(forged(HAS_GAME, bytes(body), sequence=LAST_SEQUENCE)))
    assert game is not None and store.notice == 0
    for n in range(3):
        store.save(random_game(1, actions=20 + n), 100 + n, 0)
        again, resumed = loaded(store.nvm)
        assert again.seconds == 100 + n and again.notice == 0
    assert again.sequence == 3  # the limit, then 1, 2 and 3


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), ours=st.booleans())
def test_random_flash_never_crashes_the_loader(seed, ours):
    rng = random.Random(seed)
    flash = PagedFlash()
    flash.data[:] = rng.randbytes(BLOCK)
    if ours:  # our magic, version and a plausible length: down to the CRC check
        for start in (0, SLOT_B):
            length = rng.randint(0, 2100).to_bytes(2, "little")
            flash.data[start : start + 8] = MAGIC + bytes([VERSION, HAS_GAME]) + length
    store, game = loaded(flash)
    assert game is None  # random bytes are never a CRC-checked record of ours
    # a header that could be ours (every bit of the magic set), whole or cut
    # short, is an unreadable save; another program's bytes are none at all
    # (issue 50: they skipped a new board's first start)
    could = [all(h & m == m for h, m in zip(flash.data[at : at + 4], MAGIC)) for at in (0, SLOT_B)]
    assert store.notice == (NOTICE_UNREADABLE if any(could) else 0)
    assert store.sequence == 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    changes=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=4),
    flags=st.sampled_from([0, 1, 2, 3, 7]),
)
def test_good_crcs_around_changed_bytes_never_crash_or_load_a_game_the_engine_did_not_play(
    changes, flags
):
    body = valid_body(random_game(8, actions=40))
    for at, value in changes:
        if at < len(body):
            body[at] = value
    store, game = loaded(flash_holding(forged(flags, bytes(body))))
    assert consistent(store.stats.data)
    if game is not None and game is not store.resumed_from_position:
        # what loads is a game the engine reached: its deal replayed through play()
        replay = Game.new_deal(game.deal_number, game.rules)
        for m in [game.history_move(i) for i in range(game.history_end)]:
            replay.play(m)
        for _ in range(game.history_end - game.history_count):
            replay.undo()
        assert same_game(replay, game)
    if game is not None:
        parse_position(position_text(game))  # a position the text format accepts


def test_a_record_of_an_unknown_version_is_ignored_with_a_notice():
    record = bytearray(forged(HAS_GAME, bytes(valid_body(random_game(1, actions=10)))))
    record[VERSION_AT] = VERSION + 1
    record[-4:] = binascii.crc32(record[:-4]).to_bytes(4, "little")
    store, game = loaded(flash_holding(bytes(record)))
    assert game is None and store.notice == NOTICE_UNREADABLE


def test_a_good_older_record_loads_when_the_newer_is_nonsense():
    older = forged(HAS_GAME, bytes(valid_body(random_game(1, actions=10))), sequence=5)
    body = valid_body(random_game(1, actions=20))
    body[0] = 9
    newer = forged(HAS_GAME, bytes(body), sequence=6)
    store, game = loaded(flash_holding(older, newer))
    assert game is not None and store.notice == NOTICE_EARLIER
    store.save(game, 1, 0)  # into slot B, over the nonsense, and newest
    again, _ = loaded(store.nvm)
    assert again.notice == 0 and again.sequence == 7


def test_nvm_smaller_than_two_records_is_refused():
    with pytest.raises(ValueError):
        Store(bytearray(SLOT_B))


# --------------------------------------------------------------- statistics


def test_stats_count_games_streaks_and_bests():
    stats = Stats()
    stats.add_game(BRITISH, 16, False, 90, 300, False, 1)
    stats.add_game(BRITISH, 104, True, 300, 900, True, 2)
    stats.add_game(BRITISH, 104, True, 280, 1000, True, 0)
    stats.add_game(BRITISH, 12, False, 50, 100, False, 0)  # ended or abandoned
    stats.add_game(BRITISH, 104, True, 310, 800, False, 0)
    get = stats.get
    assert get(BRITISH, PLAYED) == 5 and get(BRITISH, WINS) == 3
    assert get(BRITISH, HOME_TOTAL) == 340 and get(BRITISH, HOME_BEST) == 104
    assert get(BRITISH, STREAK) == 1 and get(BRITISH, STREAK_BEST) == 2
    assert get(BRITISH, FEWEST_MOVES) == 280 and get(BRITISH, BEST_TIME) == 800
    assert get(BRITISH, PAR_REACHED) == 2 and get(BRITISH, HINTS) == 3
    assert get(UNION, PLAYED) == 0 and get(AMERICAN, HOME_TOTAL) == 0
    assert consistent(stats.data)


def test_stats_saturate_instead_of_wrapping():
    stats = Stats()
    # no public writer: add_game would take 16 million games to get there
    stats._set(AMERICAN, PLAYED, MOST)
    stats._set(AMERICAN, HOME_TOTAL, MOST)
    stats.add_game(AMERICAN, 50, False, 1, 1, False, 0)
    assert stats.get(AMERICAN, PLAYED) == MOST
    assert stats.get(AMERICAN, HOME_TOTAL) == MOST


# -------------------------------------------------------------- save policy

HOUR_MS = 3_600_000
WRAP = 1 << 29  # supervisor.ticks_ms wraps here


class Session:
    """A scripted player on an injected clock (ticks in ms, wrapping like a board's)."""

    def __init__(self, start=WRAP - 600_000, seed=0):
        self.now = start
        self.policy = SavePolicy(self.now)
        self.rng = random.Random(seed)
        self.saves = []

    def tick(self, ms, step=250):
        """Let ``ms`` pass, asking the policy every ``step`` ms as the app's loop would."""
        end = self.now + ms
        while self.now < end:
            self.now += min(step, end - self.now)
            t = self.now % WRAP
            if self.policy.due(t):
                self.policy.saved(t)
                self.saves.append(self.now)

    def move(self):
        self.policy.changed(self.now % WRAP)

    def save_point(self, low_battery=False):
        self.policy.save_point(low_battery)


def test_hours_of_play_write_once_for_the_session_and_once_an_hour_after():
    session = Session(seed=3)
    start = game_started = session.now
    while session.now - start < 3 * HOUR_MS:
        session.move()
        session.tick(session.rng.randint(2000, 8000))  # thinking between moves
        if session.rng.random() < 0.15:
            session.tick(session.rng.randint(6000, 30000))  # a longer pause
        if session.now - game_started > 600_000:  # a game ends every ten minutes
            session.save_point()
            session.tick(3000)
            game_started = session.now
        if session.rng.random() < 0.02:  # a look at the menu
            session.save_point()
            session.tick(4000)
    assert MIN_INTERVAL_S == 3600  # the wear budget (SavePolicy's docstring)
    assert 3 <= len(session.saves) <= 1 + 3  # the session's first rest, then one an hour
    gaps = [b - a for a, b in zip(session.saves, session.saves[1:])]
    assert min(gaps) >= MIN_INTERVAL_S * 1000


def test_a_low_battery_saves_at_the_next_rest_point_once_a_session():
    session = Session()
    session.move()
    session.save_point()
    session.tick(250)
    assert len(session.saves) == 1  # the session's first rest
    session.move()
    session.save_point(low_battery=True)  # the reading at this save point is low
    session.tick(250)
    assert len(session.saves) == 2  # at once, not an hour later
    for _ in range(3):
        session.move()
        session.save_point(low_battery=True)
        session.tick(60_000)
    assert len(session.saves) == 2  # once: then the interval again
    session.tick(MIN_INTERVAL_S * 1000)
    assert len(session.saves) == 3


def test_a_low_battery_at_the_sessions_first_rest_costs_no_more_writes():
    session = Session()
    session.move()
    session.save_point(low_battery=True)
    session.tick(250)
    session.move()
    session.save_point(low_battery=True)
    session.tick(60_000)
    assert len(session.saves) == 1


def test_the_first_rest_of_a_session_saves_at_once_and_pauses_wait_for_the_interval():
    session = Session()
    session.move()
    session.tick(PAUSE_S * 1000 + 1000)
    assert session.saves == []  # a pause right after power-on is not worth an erase
    session.save_point()  # the game ended
    session.tick(250)
    assert len(session.saves) == 1
    session.move()
    session.save_point()
    session.tick(MIN_INTERVAL_S * 1000 - 1000)
    assert len(session.saves) == 1  # the next rest waits for the interval
    session.tick(2000)
    assert len(session.saves) == 2
    session.tick(MIN_INTERVAL_S * 1000 * 3)
    assert len(session.saves) == 2  # nothing changed: nothing written


def test_a_pause_saves_once_the_interval_has_passed_and_play_does_not():
    session = Session()
    for _ in range(MIN_INTERVAL_S):  # a move a second, no pause: never due
        session.move()
        session.tick(1000)
    assert session.saves == []
    session.tick(PAUSE_S * 1000 + 250)
    assert len(session.saves) == 1


def test_the_interval_survives_a_wait_longer_than_the_tick_counter_wraps():
    session = Session()
    session.move()
    session.save_point()
    session.tick(250)
    assert len(session.saves) == 1
    session.tick(WRAP // 2 + 1000, step=60_000)  # days at the title screen
    session.move()
    session.tick(PAUSE_S * 1000 + 500)
    assert len(session.saves) == 2
