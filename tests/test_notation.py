"""The text formats: exact round trips, and bad input named in a ValueError
that leaves every existing game as it was."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import RULES, game, layout, sample_games, text

from british_square.cards import parse_card
from british_square.desktop.games import legal_moves
from british_square.desktop.notation import (
    game_from_dict,
    move_dict,
    move_from_dict,
    parse_move,
    parse_number,
    parse_position,
    play_text,
    position_dict,
    position_text,
    quoted,
)
from british_square.engine import Game, IllegalMoveError
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_text

HAND_BUILT = [
    layout("british", "2C9D5S7H.8H9H", "-", "KD", "AS.2S", stock="3C4C", waste="QH"),
    layout("american", "7H.6H5H", "QC", stock="-", waste="AD2D", foundations=(11, 0, 13, 1)),
    layout("union", *["KS"] * 2, "-", "9D.TD", waste="8C", foundations=(0, 12, 0, 3)),
    "british -/-/-/- - - 26,26,26,26",
    "british 9D5S2HAC.2C3C4C5C6C7C8C9CTCJCQCKC/-/KH.QHJH/- - - 0,0,0,0",  # 16 cards: the most
]


@pytest.fixture(scope="module")
def positions():
    """Position texts: hand-built, fresh deals and positions from playouts."""
    deals = [text(Game.new_deal(n, r)) for n in (1, 617, 31999) for r in range(3)]
    return HAND_BUILT + deals + [text(g) for g in sample_games(count=12, steps=120)]


# ------------------------------------------------------------ round trips


def test_position_text_round_trips_exactly(positions):
    for t in positions:
        assert position_text(parse_position(t)) == t


def test_position_dict_round_trips_through_json(positions):
    for t in positions:
        d = position_dict(parse_position(t))
        assert position_text(game_from_dict(json.loads(json.dumps(d)))) == t
        assert position_dict(game_from_dict(d)) == d


def test_the_position_dict_reads_as_documented():
    g = parse_position(HAND_BUILT[0])
    assert position_dict(g) == {
        "rules": "british",
        "columns": [["2C", "9D", "5S", "7H", "8H", "9H"], [], ["KD"], ["AS", "2S"]],
        "base": [4, 0, 1, 1],
        "stock": ["3C", "4C"],
        "waste": ["QH"],
        "foundations": {"C": 0, "S": 0, "H": 0, "D": 0},
    }
    assert g.top(STOCK) == parse_card("4C")  # the next card to deal is last


def test_a_json_position_without_bases_has_every_card_dealt():
    g = game_from_dict({"rules": "british", "columns": [["7H", "8H"], [], [], ["KD"]]})
    assert text(g) == "british 7H8H/-/-/KD - - 0,0,0,0"


def test_move_text_and_dict_round_trip(positions):
    for t in positions:
        g = parse_position(t)
        for m in legal_moves(g):
            assert parse_move(move_text(m), g) == m
            assert move_from_dict(json.loads(json.dumps(move_dict(m))), g) == m


@pytest.mark.parametrize(
    "rules, m, token, as_dict",
    [
        ("british", move(0, FOUNDATION), "aF", {"from": 0, "to": "foundation"}),
        ("british", move(WASTE, 1), "Wb", {"from": "waste", "to": 1}),
        ("british", move(STOCK, WASTE), "SW", {"from": "stock", "to": "waste"}),
        ("british", move(STOCK, 3), "Sd", {"from": "stock", "to": 3}),
        ("american", move(15, 14), "po", {"from": 15, "to": 14}),
        ("union", move(4, FOUNDATION), "eF", {"from": 4, "to": "foundation"}),
    ],
)
def test_moves_are_named_as_documented(rules, m, token, as_dict):
    g = Game(RULES.index(rules))
    assert move_text(m) == token and parse_move(token, g) == m
    assert move_dict(m) == as_dict and move_from_dict(as_dict, g) == m


# ------------------------------------------------------------ bad input

# Every card once: 52 cards, two letters each.
ALL_52 = "".join(rank + suit for suit in "CSHD" for rank in "A23456789TJQK")


@pytest.mark.parametrize(
    "bad, named",
    [
        ("british ZZ/-/-/- - - 0,0,0,0", "ZZ"),
        ("british -/-/-/- 7HZZ - 0,0,0,0", "ZZ"),
        ("british -/-/-/- - 1X 0,0,0,0", "1X"),
        ("british 7H8/-/-/- - - 0,0,0,0", "7H8"),
        ("french -/-/-/- - - 0,0,0,0", "french"),
        ("british -/-/-/- - -", "4 fields"),
        ("british -/-/-/- - - 0,0,0,0 more", "6 fields"),
        ("", "0 fields"),
        ("british -/-/- - - 0,0,0,0", "not 3"),
        ("american -/-/-/- - - 0,0,0,0", "not 4"),
        ("british 7H7H/7H/-/- - - 0,0,0,0", "3 copies of 7H"),
        ("british AH/-/-/- - - 0,0,26,0", "3 copies of AH"),
        ("british -/-/-/- - - 0,0,27,0", "'27'"),
        ("british -/-/-/- - - 0,0,x,0", "'x'"),
        ("british -/-/-/- - - 0,-1,0,0", "'-1'"),
        ("british -/-/-/- - - 0,0,0", "'0,0,0'"),
        ("british 7H.8H7H/-/-/- - - 0,0,0,0", "7H cannot be built on 8H"),
        ("british 7H.9H/-/-/- - - 0,0,0,0", "9H cannot be built on 7H"),
        ("british 7H.8S/-/-/- - - 0,0,0,0", "8S cannot be built on 7H"),
        ("british KC.AS/-/-/- - - 0,0,0,0", "AS cannot be built on KC"),
        ("british .7H/-/-/- - - 0,0,0,0", "'.7H'"),
        ("american 7H8H" + "/-" * 15 + " - - 0,0,0,0", "base 2 for column a: 1 dealt"),
        ("british AC2C3C4C5C/-/-/- - - 0,0,0,0", "base 5 for column a"),  # 4 were dealt
        ("british -/-/-/- {} {} 0,0,0,0".format(ALL_52, ALL_52[:74]), "stock and waste"),
        # an empty column is "-" alone
        ("british /-/-/- - - 0,0,0,0", "bad column ''"),
        ("british ./-/-/- - - 0,0,0,0", "bad column '.'"),
        ("british -.-/-/-/- - - 0,0,0,0", "bad column '-.-'"),
        ("british 7H./-/-/- - - 0,0,0,0", "bad column '7H.'"),
        ("british 7H.-/-/-/- - - 0,0,0,0", "bad column '7H.-'"),
        ("british --/-/-/- - - 0,0,0,0", "bad column '--'"),
        ("british -/-/-/- -- - 0,0,0,0", "bad card '--'"),
        ("british -/-/-/- - - 0,,0,0", "bad foundation count ''"),
        # counts: ASCII digits, no sign, no leading zero
        ("british -/-/-/- - - 0,+1,0,0", "'+1'"),
        ("british -/-/-/- - - 0,01,0,0", "'01'"),
        ("british -/-/-/- - - 0,0,1{},0".format("0" * 5000), "'1000000000"),
        # one line of ASCII: other spaces, line breaks and digits are named
        ("british\xa0-/-/-/- - - 0,0,0,0", "character " + repr("\xa0") + " at 8"),
        (
            "british -/-/-/- - - 0,0,0,\u0663",
            "character " + repr("\u0663") + " at 27",
        ),  # an Arabic-Indic 3
        ("british -/-/-/-\u3000- - 0,0,0,0", "character " + repr("\u3000")),
        ("british -/-/-/- - -\n0,0,0,0", "character " + repr("\n")),
        ("british -/-/-/- - -\x0b0,0,0,0", "character " + repr("\x0b")),
        ("british -/-/-/- - -\x1c0,0,0,0", "character " + repr("\x1c")),
        ("british -/-/-/- - -\u20280,0,0,0", "character " + repr("\u2028")),
        ("british -/-/-/- - \u1e9e 0,0,0,0", "character " + repr("\u1e9e")),
    ],
)
def test_a_bad_position_names_what_is_wrong(bad, named):
    with pytest.raises(ValueError, match=re.escape(named)) as refused:
        parse_position(bad)
    assert len(str(refused.value)) < 160  # one short line, however long the input


@pytest.mark.parametrize(
    "spelling",
    [
        "british\t9D5S.6S/KH/-/AC2C.3C\t4D8H  QS 0,0,1,0",  # tabs and runs of spaces between fields
        "  british 9D5S.6S/KH/-/AC2C.3C 4D8H QS 0,0,1,0\r\n",  # round the line: a file's end
        "british 9d5s.6S/kh/-/Ac2C.3c 4D8h qs 0,0,1,0",  # cards in either case
    ],
)
def test_the_documented_lenient_spellings_read_as_the_position(spelling):
    assert text(parse_position(spelling)) == "british 9D5S.6S/KH/-/AC2C.3C 4D8H QS 0,0,1,0"


@pytest.mark.parametrize(
    "token, number",
    [("0", 0), ("7", 7), ("26", 26)],
)
def test_parse_number_reads_plain_digits(token, number):
    assert parse_number(token, "count", 0, 26) == number


@pytest.mark.parametrize(
    "token",
    ["", "27", "-1", "+1", "01", "00", " 1", "1 ", "1.0", "\u0663", "\uff11", "\u00b2", "9" * 5000],
)
def test_parse_number_refuses_everything_else_in_one_short_line(token):
    with pytest.raises(ValueError, match="bad count") as refused:
        parse_number(token, "count", 0, 26)
    assert len(str(refused.value)) < 160


def test_quoted_cuts_long_input_short():
    assert quoted("7H") == "'7H'"
    assert quoted("x" * 1000) == "'" + "x" * 36 + "..."
    assert quoted(10**5000) == "(a number thousands of digits long)"


@pytest.mark.parametrize(
    "data, named",
    [
        ("british", "JSON object"),
        ({"rules": "french", "columns": [[]] * 4}, "french"),
        ({"columns": "7H"}, "columns"),
        ({"columns": [["7H"], [], [], ["ZZ"]]}, "ZZ"),
        ({"columns": [["7H"], [], [], [7]]}, "7"),
        ({"columns": [["7H"], [], []]}, "not 3"),
        ({"columns": [["7H"], [], [], []], "base": [0, 0, 0, 0]}, "base 0"),
        ({"columns": [["7H"], [], [], []], "base": [1, 0, 0]}, "base"),
        ({"columns": [["7H"], [], [], []], "base": "1"}, "base"),
        ({"columns": [[]] * 4, "stock": "7H"}, "stock"),
        ({"columns": [[]] * 4, "waste": ["7H", "XX"]}, "XX"),
        ({"columns": [[]] * 4, "foundations": {"X": 1}}, "'X'"),
        # suit keys are matched whole, not as substrings of "CSHD"
        ({"columns": [[]] * 4, "foundations": {"SH": 13}}, "'SH'"),
        ({"columns": [[]] * 4, "foundations": {"CS": 99}}, "'CS'"),
        ({"columns": [[]] * 4, "foundations": {"": None}}, "key ''"),
        ({"columns": [[]] * 4, "foundations": {"c": 1}}, "'c'"),
        ({"columns": [[]] * 4, "foundations": {"C": 10**5000}}, "thousands of digits"),
        # an unknown key is an error, not a default silently taken
        ({"colums": [[]] * 4}, "'colums'"),
        ({"columns": [[]] * 4, "foundation": {"H": 1}}, "'foundation'"),
        ({"columns": [[]] * 4, "waste": ["A\u017f"]}, "'A\u017f'"),  # long s: not an S
        ({"columns": [[]] * 4, "waste": ["7H" * 1000]}, "bad card '7H7H"),
        ({"columns": [[]] * 4, "foundations": {"C": "1"}}, "'1'"),
        ({"columns": [[]] * 4, "foundations": {"C": 27}}, "27"),
        ({"columns": [["7H", "8H", "7H"], [], [], []], "base": [1, 0, 0, 0]}, "7H"),
    ],
)
def test_a_bad_json_position_names_what_is_wrong(data, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        game_from_dict(data)


@pytest.mark.parametrize(
    "token, named",
    [
        ("zz", "'zz'"),
        ("a", "'a'"),
        ("abc", "'abc'"),
        ("ae", "'e'"),  # British Square has columns a-d
        ("aS", "'aS'"),  # nothing goes to the stock
        ("WS", "'WS'"),
        ("Fa", "'Fa'"),  # nothing leaves a foundation
        ("FW", "'FW'"),
    ],
)
def test_a_bad_move_names_its_token(token, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        parse_move(token, Game())


def test_sixteen_piles_are_lettered_a_to_p():
    g = Game(RULES.index("american"))
    assert parse_move("pa", g) == move(15, 0)
    with pytest.raises(ValueError, match="'q'"):
        parse_move("aq", g)


@pytest.mark.parametrize(
    "data",
    [
        {"from": "foundation", "to": 0},
        {"from": 0, "to": "stock"},
        {"from": 4, "to": "waste"},
        {"from": -1, "to": "waste"},
        {"from": True, "to": 0},
        {"from": "pile", "to": 0},
        {"from": [1], "to": 0},
        {"from": 0, "to": {"column": 1}},
        {"from": 0},
        [0, 1],
        {"from": "waste", "to": 0, "too": 1},
        {"from": 10**5000, "to": 0},
    ],
)
def test_a_bad_json_move_raises_value_error(data):
    with pytest.raises(ValueError) as refused:
        move_from_dict(data, Game())
    assert len(str(refused.value)) < 100


def test_a_json_position_may_leave_out_every_key_but_the_columns():
    g = game_from_dict({"columns": [["7H"], [], [], ["KD"]]})
    assert text(g) == "british 7H/-/-/KD - - 0,0,0,0"
    g = game_from_dict({"columns": [["7H"]] + [[]] * 15, "rules": "union", "foundations": {"H": 6}})
    assert text(g) == "union 7H" + "/-" * 15 + " - - 0,0,6,0"


def test_json_cards_may_be_lower_case_or_spell_ten_with_digits():
    g = game_from_dict({"columns": [["10H", "th", "10d"], [], [], []], "base": [3, 0, 0, 0]})
    assert text(g) == "british THTHTD/-/-/- - - 0,0,0,0"


# ------------------------------------------------- failures change nothing


@pytest.mark.parametrize("token", ["zz", "aS", "Fa", "aF", "ab", "Wa", "Sa", "SW"])
def test_a_bad_or_illegal_move_leaves_the_game_unchanged(token):
    g = game("british", "7H.8H", "KD", "5C", "2S", waste="-")
    before = (text(g), b"".join(g.history), g.history_count, g.history_end)
    with pytest.raises(ValueError, match=token):
        play_text(g, token)
    assert (text(g), b"".join(g.history), g.history_count, g.history_end) == before
    with pytest.raises(ValueError):
        g.play(move(0, FOUNDATION))
    assert (text(g), b"".join(g.history), g.history_count, g.history_end) == before


def test_play_text_leaves_legality_to_game_play():
    g = game("british", "7H.8H", "KD", "5C", "2S")
    with pytest.raises(IllegalMoveError) as by_text:
        play_text(g, "aF")
    with pytest.raises(IllegalMoveError) as by_int:
        g.play(move(0, FOUNDATION))
    assert str(by_text.value) == str(by_int.value) == "illegal move 'aF'"


def test_a_failed_parse_builds_nothing_and_touches_no_game():
    g = Game.new_deal(5)
    before = text(g)
    for bad in ("british ZZ/-/-/- - - 0,0,0,0", "union -/-/-/- - - 0,0,0,0"):
        with pytest.raises(ValueError):
            parse_position(bad)
    assert text(g) == before


def test_play_text_plays_a_legal_move_and_returns_it():
    g = game("british", "AH", "KD", stock="5C")
    assert play_text(g, "aF") == move(0, FOUNDATION)
    assert text(g) == "british -/KD/-/- 5C - 0,0,1,0"


@pytest.mark.parametrize(
    "field, value",
    [("base", [True, 4, 4, 4]), ("foundations", {"C": True})],
)
def test_json_counts_are_not_booleans(field, value):
    data = position_dict(Game.new_deal(1))
    data[field] = value
    with pytest.raises(ValueError, match="True"):
        game_from_dict(data)


# ------------------------------------------------- any input: ValueError at worst

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=30,
)
card_names = st.sampled_from(["7H", "AS", "KD", "th", "10C", "2C", "ZZ", "", "-"])
position_like = st.fixed_dictionaries(
    {"columns": st.lists(st.lists(card_names, max_size=5), max_size=17)},
    optional={
        "rules": st.sampled_from(["british", "american", "union", "x"]) | json_values,
        "base": st.lists(st.integers(-2, 20), max_size=17) | json_values,
        "stock": st.lists(card_names, max_size=6) | json_values,
        "waste": st.lists(card_names, max_size=6) | json_values,
        "foundations": st.dictionaries(st.sampled_from("CSHDX"), st.integers(-1, 30)) | json_values,
    },
)
position_text_like = st.lists(
    st.sampled_from(["british", "union", " ", "\t", "-", "/", ".", ",", "7H", "8H", "AS", "26"])
    | st.text(max_size=3),
    max_size=25,
).map("".join)
FUZZ = settings(max_examples=300, deadline=None)


def read_back_or_refused(read, value):
    """``read(value)`` is a game whose text reads back as itself, or a ValueError."""
    try:
        g = read(value)
    except ValueError:
        return
    assert text(parse_position(text(g))) == text(g)


@FUZZ
@given(position_like | json_values)
def test_any_json_position_is_read_or_refused_with_a_value_error(data):
    read_back_or_refused(game_from_dict, data)


@FUZZ
@given(position_text_like)
def test_any_position_text_is_read_or_refused_with_a_value_error(line):
    read_back_or_refused(parse_position, line)


@FUZZ
@given(json_values | st.fixed_dictionaries({"from": json_values, "to": json_values}), st.text())
def test_any_move_is_read_or_refused_with_a_value_error(data, token):
    g = Game.new_deal(3)
    for reader, value in ((move_from_dict, data), (parse_move, token)):
        try:
            m = reader(value, g)
        except ValueError:
            continue
        assert move_text(m) and parse_move(move_text(m), g) == m
