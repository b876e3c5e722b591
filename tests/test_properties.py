"""Property tests on random playouts (hypothesis).

A playout starts from a deal (1-31999, any rule set) or from a random full
position with cards already home, then plays ``moves()[i % len]`` for each
drawn ``i`` (``greedy`` playouts take a foundation move whenever there is
one, so that foundations fill up and come down from their second king).
"""

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from positions import (
    COLUMN_COUNT,
    RANKS,
    RULES,
    SUITS,
    all_cards,
    check_columns,
    dead_verdict,
    model_apply,
    model_moves,
    needed_rank,
    playout,
    text,
)

from british_square.desktop.games import copy_game, legal_moves, played_moves
from british_square.desktop.notation import (
    DEAD_NAMES,
    build_game,
    game_from_dict,
    move_dict,
    move_from_dict,
    parse_move,
    parse_position,
    position_dict,
    position_text,
)
from british_square.engine import Game
from british_square.piles import FOUNDATION, move_source, move_target, move_text
from british_square.search import ALIVE, DEAD, UNDECIDED

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EVERY_CARD_TWICE = {rank + suit: 2 for suit in SUITS for rank in RANKS}


def random_position(seed, rules):
    """A full position (all 104 cards) with random foundations, bases, stock and waste."""
    rng = random.Random(seed)
    foundations = [rng.choice((0, rng.randint(0, 26), rng.randint(12, 26))) for _ in SUITS]
    cards = []
    for suit, n in enumerate(foundations):
        for r in range(1, 14):
            cards += [suit * 13 + r - 1] * (2 - (n >= r) - (n >= 27 - r))
    rng.shuffle(cards)
    most = 4 if rules == "british" else 1
    sizes = [rng.randint(0, most) for _ in range(COLUMN_COUNT[rules])]
    while len(cards) - sum(sizes) > 88:  # the stock and waste hold 88 cards at most
        c = rng.choice([c for c, k in enumerate(sizes) if k < most])
        sizes[c] += 1
    columns = []
    for k in sizes:
        columns.append(cards[:k])
        del cards[:k]
    cut = rng.randint(0, len(cards))
    bases = [len(column) for column in columns]  # fewer than drawn when the cards ran out
    return build_game(RULES.index(rules), columns, bases, cards[:cut], cards[cut:], foundations)


@st.composite
def games(draw):
    """A new game: a deal, or (one time in three) a random position."""
    rules = draw(st.sampled_from(RULES))
    if draw(st.integers(0, 2)):
        return Game.new_deal(draw(st.integers(1, 31999)), RULES.index(rules))
    return random_position(draw(st.integers(0, 2**32)), rules)


choices = st.lists(st.integers(0, 2**16), min_size=100, max_size=300)


def check_sound(g):
    """The position holds all 104 cards once in place and reads back from its texts."""
    assert all_cards(g) == EVERY_CARD_TWICE
    assert sum(g.height) + g.stock_count + g.waste_count + g.score() == 104
    assert g.cards_left() + g.score() == 104
    check_columns(g)  # every built sequence runs one way, by suit
    t = text(g)
    assert position_text(parse_position(t)) == t  # the parser checks directions too
    d = position_dict(g)
    assert position_text(game_from_dict(json.loads(json.dumps(d)))) == t


@SETTINGS
@given(games(), choices, st.booleans())
def test_positions_stay_sound_and_moves_follow_the_rules(g, picks, greedy):
    for m in playout(g, picks, greedy):
        check_sound(g)
        d = position_dict(g)
        moves = legal_moves(g)
        assert set(moves) == model_moves(d), text(g)
        if m is None:
            break
        assert g.is_legal(m)
        assert parse_move(move_text(m), g) == m
        assert move_from_dict(json.loads(json.dumps(move_dict(m))), g) == m
        before = list(g.foundations)
        card = g.top(move_source(m))
        after = copy_game(g)
        after.push(m)
        assert position_dict(after) == model_apply(d, m), (d, move_text(m))
        if move_target(m) == FOUNDATION:
            suit = card // 13
            assert card % 13 + 1 == needed_rank(before[suit])  # the rank it needed
            before[suit] += 1
        assert list(after.foundations) == before  # they only grow, one card at a time


@SETTINGS
@given(games(), choices, st.booleans())
def test_foundations_fill_in_the_order_a_to_k_then_k_to_a(g, picks, greedy):
    went_home = {suit: [] for suit in range(4)}
    start = list(g.foundations)
    for m in playout(g, picks, greedy):
        if m is not None and move_target(m) == FOUNDATION:
            card = g.top(move_source(m))
            went_home[card // 13].append(card % 13 + 1)
    order = list(range(1, 14)) + list(range(13, 0, -1))
    for suit, ranks in went_home.items():
        assert ranks == order[start[suit] : start[suit] + len(ranks)]
        assert g.foundations[suit] == start[suit] + len(ranks)


@SETTINGS
@given(games(), choices, st.booleans())
def test_undo_and_redo_restore_every_position(g, picks, greedy):
    texts = []
    played = []
    for m in playout(g, picks, greedy):
        texts.append(text(g))
        if m is not None:
            played.append(m)
    n = len(played)
    assert played_moves(g) == played and g.history_count == n
    assert g.peek() == (played[-1] if played else None)

    # two bytes per move, in chunks of one size: wipe everything past them and undo still works
    size = 128  # engine._CHUNK: a chunk made for each 64 moves, none before the first
    assert all(len(chunk) == size for chunk in g.history)
    assert len(g.history) == (2 * n + size - 1) // size
    for at, chunk in enumerate(g.history):
        start = min(size, max(0, 2 * n - size * at))
        chunk[start:] = bytes(len(chunk) - start)
    for k in range(n - 1, -1, -1):
        assert g.undo() == played[k]
        assert text(g) == texts[k]
    assert g.undo() is None and text(g) == texts[0]
    for k in range(n):
        assert g.redo() == played[k]
        assert text(g) == texts[k + 1]
    assert g.redo() is None and played_moves(g) == played


@SETTINGS
@given(games(), choices, st.integers(1, 20))
def test_a_new_move_after_undo_clears_the_redo_list(g, picks, back):
    for _ in playout(g, picks):
        pass
    for _ in range(back):
        g.undo()
    moves = legal_moves(g)
    if moves:
        g.push(moves[-1])
        assert g.redo() is None
        assert played_moves(g)[-1] == moves[-1]


@SETTINGS
@given(games(), choices, st.booleans())
def test_a_copy_plays_on_independently(g, picks, greedy):
    for _ in playout(g, picks, greedy):
        twin = copy_game(g)
        before = text(g)
        assert played_moves(twin) == played_moves(g) and text(twin) == before
        if legal_moves(twin):
            twin.push(legal_moves(twin)[0])
            assert text(g) == before
            twin.undo()
            assert text(twin) == before


def model_dead(d, limit):
    """DEAD, ALIVE or UNDECIDED for position dict ``d`` by the model's own exhaustive search."""
    seen = {json.dumps(d, sort_keys=True)}
    todo = [d]
    while todo:
        here = todo.pop()
        for m in model_moves(here):
            if move_target(m) == FOUNDATION:
                return ALIVE
            there = model_apply(here, m)
            key = json.dumps(there, sort_keys=True)
            if key not in seen:
                if len(seen) >= limit:
                    return UNDECIDED
                seen.add(key)
                todo.append(there)
    return DEAD


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), choices, st.booleans())
def test_the_dead_test_agrees_with_an_exhaustive_search(g, picks, greedy):
    for _ in playout(g, picks, greedy):
        pass
    before = (text(g), b"".join(g.history), g.history_count, g.history_end)
    verdict = dead_verdict(g, 2000)
    assert (text(g), b"".join(g.history), g.history_count, g.history_end) == before
    truth = model_dead(position_dict(g), 2000)
    if g.is_won():  # nothing is left to go home: the dead test calls that alive, by its docstring
        assert verdict == ALIVE
        return
    if UNDECIDED not in (verdict, truth):
        assert verdict == truth, text(g)
    event("dead: engine {}, model {}".format(DEAD_NAMES[verdict], DEAD_NAMES[truth]))
