"""The solver: each pruning against the plain search, its lines replayed,
cycles in the waste, the command line."""

import json
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from positions import layout

from british_square.cards import card_name
from british_square.desktop import solver
from british_square.desktop.games import legal_moves
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver import (
    LOST,
    UNKNOWN,
    WON,
    cannot_win,
    check_line,
    greedy,
    position_key,
    search,
    solve,
    solve_plain,
)
from british_square.desktop.solver.moves import children, ordered_moves
from british_square.desktop.solver.rollouts import nested_rollouts
from british_square.desktop.winnable import winnable_layout
from british_square.engine import MAX_MOVES, Game
from british_square.search import safe_move

COLUMNS = {"british": 4, "american": 16, "union": 16}
# foundation counts that make the cards near them matter: empty, mid up,
# the turn at the kings, mid down
FOUNDATION_STARTS = (0, 1, 2, 11, 12, 13, 14, 20, 23, 24)


def left_copies(rank, count):
    """Copies of a card of ``rank`` not home when its foundation has ``count``."""
    return 2 - (count >= rank) - (count >= 27 - rank)


@st.composite
def small_positions(draw):
    """Small positions of every rule set: two suits, a handful of cards near
    what their foundations want, spread over columns, stock and waste."""
    rules = draw(st.sampled_from(sorted(COLUMNS)))
    counts = [0, 0, 0, 0]
    pool = []
    for suit in draw(st.sampled_from([(0,), (2,), (0, 2), (1, 3)])):
        n = draw(st.sampled_from(FOUNDATION_STARTS))
        counts[suit] = n
        want = n + 1 if n < 13 else 26 - n
        for rank in range(max(1, want - 2), min(13, want + 3) + 1):
            pool += [suit * 13 + rank - 1] * left_copies(rank, n)
    cards = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=9))
    have = {}
    kept = []
    for card in cards:
        if have.get(card, 0) < pool.count(card):
            have[card] = have.get(card, 0) + 1
            kept.append(card)
    columns = [[] for _ in range(4 if rules == "british" else 6)]
    stock, waste = [], []
    for card in kept:
        place = draw(st.integers(0, len(columns) + 1))
        if place < len(columns):
            limit = 4 if rules == "british" else 1
            if len(columns[place]) < limit:
                columns[place].append(card)
                continue
        (stock if place == len(columns) else waste).append(card)
    fields = ["".join(card_name(c) for c in col) or "-" for col in columns]
    if rules != "british":
        fields += ["-"] * (COLUMNS[rules] - len(fields))
    text = layout(
        rules,
        *fields,
        stock="".join(card_name(c) for c in stock) or "-",
        waste="".join(card_name(c) for c in waste) or "-",
        foundations=counts,
    )
    return parse_position(text)


def verdict(solution):
    return solution.result, solution.home


SWITCHES = [
    {"symmetric": True, "safe_moves": False},
    {"symmetric": False, "safe_moves": True},
    {"symmetric": True, "safe_moves": True},
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_every_pruning_gives_the_plain_searchs_verdict_and_best(game):
    plain = solve_plain(game, seconds=60, max_nodes=3000)
    assume(plain.result != UNKNOWN)
    before = position_text(game)
    for switches in SWITCHES:
        pruned = search(game, seconds=60, **switches)
        assert verdict(pruned) == verdict(plain), switches
    # the whole solver, hunts and all
    assert verdict(solve(game, seconds=60)) == verdict(plain)
    # the greedy search only finds wins, and finds one when it meets every position
    hunted = greedy(game, seconds=60)
    assert hunted.result != LOST and hunted.home <= plain.home
    assert hunted.result == WON or plain.result == LOST or not hunted.exhausted
    assert greedy(game, seconds=60, seed=1).result in (WON, UNKNOWN)
    # so do the rollouts: never more than the plain search, a win only where it wins
    rolled = nested_rollouts(game, seconds=60, max_nodes=2000)
    assert rolled.result != LOST and rolled.home <= plain.home
    assert rolled.result == UNKNOWN or plain.result == WON
    event("won" if plain.result == WON else "lost")
    assert position_text(game) == before


def test_a_won_line_replays_to_every_card_home():
    game = Game.new_deal(3, 2)  # Union Square deal 3: won in well under a second
    found = solve(game, seconds=20)
    assert found.result == WON and found.home == 104
    replay = check_line(game, found.moves, 104)
    assert replay.is_won()


def test_greedy_restarts_win_an_american_deal_the_hunts_did_not():
    # American deal 10: unknown after 10 s of depth-first hunts and search
    found = solve(Game.new_deal(10, 1), seconds=10)
    assert found.result == WON
    check_line(Game.new_deal(10, 1), found.moves, 104)


def test_a_line_that_does_not_reach_its_score_is_refused():
    game = parse_position("british AH/2H/-/- - - 0,0,0,0")
    aF, bF = 0x0012, 0x0112
    assert check_line(game, [aF, bF], 2).score() == 2
    with pytest.raises(AssertionError):
        check_line(game, [aF], 2)
    with pytest.raises(ValueError):  # an illegal move: Game.play refuses it
        check_line(game, [bF], 1)


def test_a_cycle_in_the_waste_keeps_its_suit_from_home():
    # The 3S lies on the last 2S in the waste and can go nowhere but home,
    # which needs that 2S first: no spade goes home. The kings can never
    # move or go home, so no column ever empties to take the 3S.
    game = parse_position("british KC/KD/KH/JS - 2S3S 0,1,0,0")
    assert verdict(search(game, seconds=10)) == (LOST, 1)
    # with a space the 3S can leave
    spaced = parse_position("british KC/KD/KH/- - 2S3S 0,1,0,0")
    assert verdict(solve(spaced, seconds=10)) == (LOST, 3)


def test_a_down_foundation_is_stuck_when_its_next_card_lies_under_the_one_after():
    # hearts, going down, want their last 3H, which lies in the waste under
    # their last 2H; the 2H can go nowhere but home, after the 3H: stuck at 23
    game = parse_position("british KC/KD/KS/JS - 3H2H 0,0,23,0")
    assert verdict(solve_plain(game, 10)) == (LOST, 23)
    assert verdict(solve(game, 10)) == (LOST, 23)


def test_symmetric_keys_name_positions_up_to_the_order_of_columns():
    one = parse_position("british 5H/KS/-/AC - 2C 0,0,0,0")
    two = parse_position("british KS/-/AC/5H - 2C 0,0,0,0")
    assert position_key(one) == position_key(two)
    assert position_key(one, symmetric=False) != position_key(two, symmetric=False)
    # a base card and a built card are not the same position
    built = parse_position("british 6H.5H/-/-/- - - 0,0,0,0")
    based = parse_position("british 6H5H/-/-/- - - 0,0,0,0")
    assert position_key(built) != position_key(based)


def test_a_down_half_foundation_move_is_played_alone():
    # hearts at 20 want the 6H: it goes home first, and the line stays best
    game = parse_position("british 6H/7C/5H/- 4H - 0,0,20,0")
    found = search(game, seconds=10)
    assert found.moves[0] == 0x0012  # aF
    assert verdict(found) == verdict(solve_plain(game, 10))


def test_unknown_when_the_budget_runs_out():
    # A position budget, not seconds: deal 7 takes about 750 positions to
    # prove lost, and a fast machine does that in half a second.
    found = solve(Game.new_deal(7), seconds=60, max_nodes=200)
    assert found.result == UNKNOWN
    assert found.home >= 1
    check_line(Game.new_deal(7), found.moves, found.home)


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "british_square", *args], capture_output=True, text=True
    )


def test_solve_command_json():
    done = run_cli("solve", "british KC7H/5S8H/AH/4H9H 3S7H2H QS 0,0,0,0", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"result", "home", "moves", "nodes", "seconds"}
    assert answer["result"] == LOST and answer["home"] == 2
    game = parse_position("british KC7H/5S8H/AH/4H9H 3S7H2H QS 0,0,0,0")
    for token in answer["moves"]:
        from british_square.desktop.notation import play_text

        play_text(game, token)
    assert game.score() == 2


def test_solve_command_text_and_errors():
    done = run_cli("solve", "--deal", "3", "--rules", "union", "--budget", "20")
    assert done.returncode == 0, done.stderr
    first, line = done.stdout.splitlines()
    assert first == "won: 104 cards home"
    assert len(line.split()) > 100
    for bad in (["solve"], ["solve", "--deal", "0"], ["solve", "--deal", "1", "--budget", "x"]):
        done = run_cli(*bad)
        assert done.returncode == 2
        assert done.stderr.startswith("error:") and len(done.stderr.splitlines()) == 1


def generic_children(game, symmetric, safe_moves):
    """``children`` the long way: ``legal_moves``, ``safe_move``, ``ordered_moves``."""
    buffer = bytearray(2 * MAX_MOVES)
    count = game.legal_moves(buffer)
    if safe_moves:
        m = safe_move(game, buffer, count)
        if m >= 0:
            return [m]
    return ordered_moves(game, buffer, count, symmetric)


def assert_same_children(game):
    # children takes British Square's one-pass path for four columns and no rng
    assert game.columns == 4
    buffer = bytearray(2 * MAX_MOVES)
    for symmetric in (True, False):
        for safe_moves in (True, False):
            fast = children(game, buffer, symmetric, safe_moves)
            assert fast == generic_children(game, symmetric, safe_moves)


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_british_children_are_the_generic_moves_in_the_same_order(game):
    assume(game.rules == 0)
    assert_same_children(game)


def test_british_children_along_random_lines_of_deals():
    rng = random.Random(7)
    for deal in range(1, 6):
        game = Game.new_deal(deal)
        for _ in range(300):
            assert_same_children(game)
            moves = legal_moves(game)
            if not moves:
                break
            game.push(rng.choice(moves))


# ------------------------------------------------------------ dead ends


@st.composite
def crowded_positions(draw):
    """British positions near the edge of ``cannot_win``: each suit puts some
    cards low in the waste (both aces of a suit that wants its ace, a king of
    a suit that wants its queen, or the 4 of a suit on its way down, 22
    home) and others above them, which must then wait in the columns; some
    go to the columns' bases instead. Small enough for a complete search:
    a queen suit's 10 to ace wait in the stock."""
    low, high, columns = [], [], [[], [], [], []]
    counts = []
    stock = []  # the next card to deal last
    for suit in range(4):
        kind = draw(st.sampled_from(("up", "queen", "down", "done")))
        cards = []
        if kind == "up":  # wants an ace: both aces low, 2s and 3s above
            counts.append(0)
            cards = [suit * 13 + r for r in (0, 0, 1, 1, 2)]
        elif kind == "queen":  # 11 home, wants a queen: K Q Q K J, then
            # the 10 to the ace, from the stock in the order they go home
            counts.append(11)
            cards = [suit * 13 + r for r in (12, 11, 11, 12, 10)]
            stock += [suit * 13 + r for r in range(10)]
        elif kind == "down":  # 22 home, wants the 4: A 2 3 4 left, one each
            counts.append(22)
            cards = [suit * 13 + r for r in (0, 1, 2, 3)]
        else:
            counts.append(26)
        for i, card in enumerate(cards):
            # the aces of an up suit, a king of a queen suit (its jack now
            # and then: then both queens are alone between two gone ranks)
            # and the 4 of a down suit go low; the rest low, high or to a base
            if kind == "queen":
                where = 0 if i == 0 or (i == 4 and draw(st.booleans())) else draw(st.integers(0, 4))
            else:
                where = 0 if card % 13 == (0 if kind == "up" else 3) else draw(st.integers(0, 4))
            if where < 1:
                low.append(card)
            elif where < 4 or len(columns[card % 4]) == 4:
                high.append(card)
            else:
                columns[card % 4].append(card)
    low = draw(st.permutations(low))
    high = draw(st.permutations(high))
    text = layout(
        "british",
        *["".join(card_name(x) for x in column) or "-" for column in columns],
        stock="".join(card_name(c) for c in stock) or "-",
        waste="".join(card_name(c) for c in low + high) or "-",
        foundations=counts,
    )
    return parse_position(text)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(crowded_positions())
def test_cannot_win_never_cuts_a_position_a_complete_search_wins(game):
    plain = solve_plain(game, seconds=60, max_nodes=20000)
    assume(plain.result != UNKNOWN)
    dead = cannot_win(game)
    event("cannot_win" if dead else "open")
    event(plain.result)
    if dead:
        assert plain.result == LOST
    # the search that cuts with it decides the same, and the whole solver too
    settled = search(game, seconds=60, won_only=True)
    assert (settled.result == WON) == (plain.result == WON)
    assert settled.result != UNKNOWN
    assert verdict(solve(game, seconds=60)) == verdict(plain)


def test_cannot_win_counts_the_columns_a_crowded_waste_needs():
    # Clubs, spades and hearts want their 4s, both under the 2s: at the
    # moment 2H could leave the waste, A and 3 of each are in columns, apart
    # (their 2 is in the waste), so six columns are needed: lost.
    text = layout("british", waste="4C2C4S2S4H2HAC3CAS3SAH3H", foundations=(22, 22, 22, 26))
    game = parse_position(text)
    assert cannot_win(game)
    assert solve_plain(game, seconds=60).result == LOST
    assert solve(game, seconds=60).result == LOST
    # without the hearts, four columns do: won
    game = parse_position(layout("british", waste="4C2C4S2SAC3CAS3S", foundations=(22, 22, 26, 26)))
    assert not cannot_win(game)
    assert solve(game, seconds=60).result == WON


def test_cannot_win_counts_a_queen_only_one_of_two_can_take_home():
    # Hearts and clubs want their queens, with both kings and a jack under
    # them: at the moment the last club king could leave the waste, each
    # suit's tens to aces wait in a column for its kings, and of the two
    # queens above only one can go home on the up half: the other waits in a
    # column of its own (its jack and king are gone). With spades' ace to 3
    # waiting for the 4 under them, five columns are needed: lost. Without
    # the spades: won.
    suits = "JHKHKHJCKCKCQHQHQCQCTH9H8H7H6H5H4H3H2HAHTC9C8C7C6C5C4C3C2CAC"
    game = parse_position(
        layout("british", waste="4S" + suits + "AS2S3S", foundations=(11, 22, 11, 26))
    )
    assert cannot_win(game)
    assert solve_plain(game, seconds=60).result == LOST
    game = parse_position(layout("british", waste=suits, foundations=(11, 26, 11, 26)))
    assert not cannot_win(game)
    assert solve(game, seconds=60).result == WON


def test_a_british_deal_is_proved_lost_in_seconds():
    found = solve(Game.new_deal(5), seconds=10)
    assert found.result == LOST
    assert found.home >= 10  # and the line search still finds a line
    check_line(Game.new_deal(5), found.moves, found.home)


def test_the_best_line_is_searched_again_in_another_order():
    # British deal 12003 (not a deal the solver was tuned on): its proof
    # takes about 400 positions; then the solver's order alone brings 9
    # cards home in 40 000 positions, the engine's order 12 in 20 000. The
    # line search restarts in each order, so 40 000 positions in all find
    # 12. A position budget, not seconds: the same on every machine.
    game = Game.new_deal(12003)
    found = solve(game, seconds=600, max_nodes=40_000)
    assert found.result == LOST
    assert found.home >= 12
    check_line(game, found.moves, found.home)
    # the proof alone, for the census: no line search after it
    proof = solve(game, seconds=600, max_nodes=40_000, proof_only=True)
    assert proof.result == LOST and proof.nodes < 1000


def test_british_rollouts_hunt_a_win_before_the_whole_proof(monkeypatch):
    # Layout 3 built winnable: the rollouts win it in about 36 000 positions
    # looked at (half a second), where the proof search wanders for more
    # than 100 000 without the win. They hunt after a short proof, so the
    # proof with its whole share never starts.
    game = winnable_layout(3)[0]
    proofs = []

    def proof(game, seconds, *args, **kwargs):
        proofs.append(seconds)
        return search(game, seconds, *args, **kwargs)

    monkeypatch.setattr(solver, "search", proof)
    found = solve(game, seconds=30)
    assert found.result == WON and proofs == [30 * solver.BRITISH_QUICK_PROOF_SHARE]
    check_line(game, found.moves, 104)


def test_the_proof_keeps_its_share_after_the_hunt(monkeypatch):
    # a winnable layout the proof does not settle: the short proof, then,
    # with no win from the rollouts, the proof again with its whole share
    budgets = []

    def proof(game, seconds, *args, **kwargs):
        if kwargs.get("won_only"):
            budgets.append(seconds)
        return search(game, seconds, *args, **kwargs)

    monkeypatch.setattr(solver, "search", proof)
    monkeypatch.setattr(solver, "nested_rollouts", lambda game, seconds, max_nodes=0: None)
    game = winnable_layout(3)[0]
    assert solve(game, seconds=2).result == UNKNOWN
    assert budgets == [2 * solver.BRITISH_QUICK_PROOF_SHARE, 2 * solver.BRITISH_PROOF_SHARE]
    # under a position cap the short proof had all of it: a second only repeats it
    del budgets[:]
    assert solve(game, seconds=30, max_nodes=500).result == UNKNOWN
    assert budgets == [30 * solver.BRITISH_QUICK_PROOF_SHARE]
    # a deal settled by the short proof: one proof, the rest for its line
    del budgets[:]
    assert solve(Game.new_deal(1), seconds=2).result == LOST
    assert budgets == [2 * solver.BRITISH_QUICK_PROOF_SHARE]
    # the census's proof: all of it, no hunt
    del budgets[:]
    assert solve(game, seconds=1, proof_only=True).result == UNKNOWN
    assert budgets == [1]


def test_rollouts_stop_at_once_with_no_move_to_hunt():
    # no move at all: the 3S waits for the 2S under it, the kings for nothing
    game = parse_position("british KC/KD/KH/JS - 2S3S 0,1,0,0")
    started = time.process_time()
    found = nested_rollouts(game, seconds=30)
    assert found.result == UNKNOWN and found.home == 1 and found.nodes == 0
    assert time.process_time() - started < 5  # not the 30 s of its budget


def test_the_rollouts_longer_line_is_where_the_line_search_starts(monkeypatch):
    # rollouts that found no win but a longer line than the proof's (which
    # on layout 3 brings about 20 cards home): solve keeps at least theirs
    game = winnable_layout(3)[0]
    rolled = nested_rollouts(game, seconds=60, max_nodes=5000)
    assert rolled.result == UNKNOWN and rolled.home > 30
    monkeypatch.setattr(solver, "nested_rollouts", lambda game, seconds, max_nodes=0: rolled)
    found = solve(game, seconds=2)
    assert found.result == UNKNOWN and found.home >= rolled.home
    check_line(game, found.moves, found.home)
