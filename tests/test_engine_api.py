"""The engine's API beside the rules: the one checked way to play a move, and
the readers the view and the tools use instead of the storage arrays."""

import pytest
from positions import game, sample_games, text

from british_square.cards import NO_CARD, parse_card
from british_square.desktop.games import describe, legal_moves
from british_square.desktop.notation import position_dict
from british_square.engine import Game, IllegalMoveError
from british_square.piles import AMERICAN, FOUNDATION, STOCK, WASTE, move, move_text
from british_square.resume import replay


def state(g):
    return text(g), b"".join(g.history), g.history_count, g.history_end


# AH is on top of column d: a foundation move, which a stray int may reach.
def ace_on_d():
    return game("british", "2C", "3C.4C", "KD", "AH", stock="5S", waste="9D")


# ---------------------------------------------------------------- play


@pytest.mark.parametrize(
    "m",
    [
        move(-1, FOUNDATION),  # column -1 read as the last column: AH went home, then a crash
        move(-4, FOUNDATION),
        -1,
        -(2**40),
        move(19, 0),  # no pile 19: an IndexError while the message was built
        move(0, 19),
        move(0, 200),
        move(3, 3),
        move(FOUNDATION, 3),
        move(3, STOCK),
        move(5, FOUNDATION),  # a British game has no column f
        0x10000 | move(3, FOUNDATION),
        pytest.param(10**5000, id="10**5000"),  # too long for CPython to print in decimal
        True,  # == move(0, 1): bools are no moves
        False,
        float(move(3, FOUNDATION)),
        "dF",
        None,
        [3, FOUNDATION],
    ],
)
def test_play_refuses_what_is_no_legal_move_and_changes_nothing(m):
    g = ace_on_d()
    before = state(g)
    with pytest.raises(IllegalMoveError, match="illegal move") as refused:
        g.play(m)
    assert len(str(refused.value)) < 80  # one short line, whatever it was given
    assert state(g) == before
    g.play(move(3, FOUNDATION))  # and the game plays on, undo and all
    assert g.undo() == move(3, FOUNDATION) and text(g) == before[0]


def test_a_bool_is_refused_even_where_its_int_is_a_legal_move():
    g = game("british", "7H", "8H")
    assert g.is_legal(move(0, 1)) and move(0, 1) == True  # noqa: E712
    before = state(g)
    with pytest.raises(IllegalMoveError, match="bool"):
        g.play(True)
    assert state(g) == before


def test_is_legal_answers_false_for_any_int_that_is_no_move():
    g = ace_on_d()
    before = state(g)
    for m in (-1, move(-1, FOUNDATION), move(-4, FOUNDATION), move(19, 0), 0x10000, 10**30):
        assert g.is_legal(m) is False, m
    assert state(g) == before


def test_an_illegal_move_is_named_and_is_a_value_error():
    g = ace_on_d()
    with pytest.raises(IllegalMoveError, match="illegal move 'aF'"):
        g.play(move(0, FOUNDATION))
    with pytest.raises(IllegalMoveError, match="0x1300: no such pile"):
        g.play(move(19, 0))
    with pytest.raises(IllegalMoveError, match="a bool is not a move"):
        g.play(True)
    assert issubclass(IllegalMoveError, ValueError)


def test_play_plays_a_legal_move_like_push():
    g, pushed = ace_on_d(), ace_on_d()
    g.play(move(STOCK, WASTE))
    pushed.push(move(STOCK, WASTE))
    assert state(g) == state(pushed)


def test_replay_plays_a_saved_games_moves_as_play_does_and_stops_at_an_illegal_one():
    for i, sample in enumerate(sample_games(count=12)):
        moves = [sample.history_move(k) for k in range(sample.history_count)]
        played, replayed = Game.new_deal(sample.deal_number, sample.rules), Game.new_deal(
            sample.deal_number, sample.rules
        )
        for m in moves:
            played.play(m)
        data = b"\x07" * i + bytes(b for m in moves for b in (m >> 8, m & 0xFF))
        replay(replayed, data, i, len(moves))
        assert state(replayed) == state(played)
    g, by_play = ace_on_d(), ace_on_d()
    by_play.play(move(STOCK, WASTE))
    with pytest.raises(IllegalMoveError, match="dF"):  # AH home already: column d is empty
        replay(g, bytes((STOCK, WASTE, 3, FOUNDATION, 3, FOUNDATION)), 0, 3)
    by_play.play(move(3, FOUNDATION))
    assert state(g) == state(by_play)  # the moves before it played
    with pytest.raises(IllegalMoveError):
        replay(ace_on_d(), bytes((19, 0)), 0, 1)  # no pile 19


def test_moves_are_named_by_the_engine():
    assert [move_text(m) for m in (move(0, FOUNDATION), move(WASTE, 1), move(STOCK, WASTE))] == [
        "aF",
        "Wb",
        "SW",
    ]
    assert move_text(move(15, 14)) == "po"


def test_a_deal_in_place_is_the_game_new_deal_makes():
    for played in sample_games(count=6, steps=120, seed=3):
        arrays = (played.cells, played.stock, *played.history)
        for number in (1, 617, 31999):
            played.deal(number)
            fresh = Game.new_deal(number, played.rules)
            # the same position, no moves to undo or redo (the history's room kept)
            assert text(played) == text(fresh) and legal_moves(played) == legal_moves(fresh)
            assert played.history_count == played.history_end == 0
            assert played.undo() is None and played.redo() is None
            assert played.deal_number == number and played.score() == fresh.score()
        now = (played.cells, played.stock, *played.history)
        assert len(now) == len(arrays) and all(a is b for a, b in zip(now, arrays))


# ------------------------------------------------------------- readers


def test_the_readers_agree_with_the_position():
    for g in sample_games(count=15, steps=120) + [ace_on_d(), Game(AMERICAN)]:
        d = position_dict(g)
        for c in range(g.columns):
            cards = [parse_card(name) for name in d["columns"][c]]
            assert g.column_height(c) == len(cards)
            assert g.base_count(c) == d["base"][c]
            assert [g.card(c, i) for i in range(len(cards))] == cards
            assert g.card(c, len(cards)) == NO_CARD and g.card(c, -1) == NO_CARD
        waste = [parse_card(name) for name in d["waste"]]
        stock = [parse_card(name) for name in d["stock"]]
        assert [g.waste_card(k) for k in range(len(waste))] == waste[::-1]
        assert [g.stock_card(k) for k in range(len(stock))] == stock[::-1]
        for k in (len(waste), len(waste) + 1, -1):
            assert g.waste_card(k) == NO_CARD
        for k in (len(stock), -1):
            assert g.stock_card(k) == NO_CARD
        assert g.waste_card() == g.top(WASTE) and g.stock_card() == g.top(STOCK)


def test_the_waste_reader_sees_the_card_under_the_top():
    g = game("british", "7H", stock="-", waste="QS9D2C")
    assert [g.waste_card(k) for k in range(4)] == [
        parse_card("2C"),
        parse_card("9D"),
        parse_card("QS"),
        NO_CARD,
    ]


def test_describe_says_what_game_it_is():
    g = Game.new_deal(17)
    g.play(move(STOCK, WASTE))
    assert describe(g) == "<Game british, deal 17, moves 1, score 0>"
    assert describe(ace_on_d()) == "<Game british, set position, moves 0, score 0>"


def test_history_is_compares_the_moves_played_with_a_saves_bytes():
    import random

    game = Game.new_deal(7, AMERICAN)
    rng = random.Random(7)
    while game.history_count < 150 and legal_moves(game):  # past two of the history's chunks
        game.play(rng.choice(legal_moves(game)))
    count = game.history_count
    moves = bytearray()
    for k in range(count):
        m = game.history_move(k)
        moves += bytes((m >> 8, m & 0xFF))
    assert count > 64 and game.history_is(moves, count) and game.history_is(moves, 0)
    assert game.history_is(moves, count - 1)
    for k in (0, 63, 64, count - 1):  # either byte of a move, in any chunk
        for at in (2 * k, 2 * k + 1):
            changed = bytearray(moves)
            changed[at] ^= 1
            assert not game.history_is(changed, count), (k, at)
    game.undo()
    assert game.history_is(moves, count - 1)
