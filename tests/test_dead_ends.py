"""``cannot_win`` against positions known winnable: built backwards from
every card home, one move taken back at a time, each checked to be a legal
move of the engine that leads forward to the position it came from.

Every position on such a walk has a winning line (the walk played forward),
so ``cannot_win`` must never call one lost. The walks take cards back into
the stock and the waste low, where the check's ways out look deepest.
"""

import random

from positions import layout

from british_square.cards import card_name
from british_square.desktop.notation import parse_position, position_text
from british_square.desktop.solver import LOST, WON, cannot_win, dead_ends, search, solve_plain
from british_square.piles import FOUNDATION, STOCK, WASTE


def foundation_card(suit, count):
    """The card on top of a foundation holding ``count`` cards."""
    rank = count if count <= 13 else 27 - count
    return suit * 13 + rank - 1


def builds_on(card, column):
    """Can ``card`` lie built on ``column`` ([base, built]) by the rules?"""
    base, built = column
    cards = base + built
    if not cards:
        return False
    top = cards[-1]
    if card // 13 != top // 13 or abs(card % 13 - top % 13) != 1:
        return False
    if built:
        below = cards[-2]
        return card % 13 - top % 13 == top % 13 - below % 13
    return True


def text_of(state):
    columns, stock, waste, home = state
    cols = []
    for base, built in columns:
        if not base:
            cols.append("-")
            continue
        cols.append(
            "".join(map(card_name, base)) + ("." + "".join(map(card_name, built)) if built else "")
        )
    return layout(
        "british",
        *cols,
        stock="".join(map(card_name, stock)) or "-",
        waste="".join(map(card_name, waste)) or "-",
        foundations=home,
    )


def copy(state):
    columns, stock, waste, home = state
    return ([[b[:], u[:]] for b, u in columns], stock[:], waste[:], home[:])


def take_back(state, rng):
    """A position one move before ``state`` and that move, or None."""
    columns, stock, waste, home = state
    before = copy(state)
    cols, stock_b, waste_b, home_b = before
    kind = rng.random()
    c = rng.randrange(4)
    if kind < 0.45:  # a card comes back from home
        s = rng.randrange(4)
        if not home[s]:
            return None
        card = foundation_card(s, home[s])
        home_b[s] -= 1
        where = rng.random()
        if where < 0.5:
            waste_b.append(card)
            return before, WASTE << 8 | FOUNDATION
        base, built = cols[c]
        if builds_on(card, cols[c]) and rng.random() < 0.7:
            built.append(card)
        elif not built and len(base) < 4:
            base.append(card)
        else:
            return None
        return before, c << 8 | FOUNDATION
    base, built = cols[c]
    if kind < 0.7:  # the waste's top card goes back to the stock
        if not waste or rng.random() < 0.3:
            if len(base) == 1 and not built:  # a card dealt straight into a space
                stock_b.append(base.pop())
                return before, STOCK << 8 | c
            return None
        stock_b.append(waste_b.pop())
        return before, STOCK << 8 | WASTE
    if kind < 0.85:  # a column's top card goes back to the waste
        if built:
            waste_b.append(built.pop())
        elif len(base) == 1:
            waste_b.append(base.pop())
        else:
            return None
        return before, WASTE << 8 | c
    # a built card goes back to the column it came from
    if not built:
        return None
    card = built.pop()
    d = rng.randrange(4)
    if d == c:
        return None
    if builds_on(card, cols[d]) and rng.random() < 0.7:
        cols[d][1].append(card)
    elif not cols[d][1] and len(cols[d][0]) < 4:
        cols[d][0].append(card)
    else:
        return None
    return before, d << 8 | c


def winnable_walk(seed, steps):
    """The positions of one walk back from every card home, each winnable."""
    rng = random.Random(seed)
    state = ([[[], []] for _ in range(4)], [], [], [26, 26, 26, 26])
    game = parse_position(text_of(state))
    walk = []
    for _ in range(steps * 20):
        if len(walk) == steps:
            break
        taken = take_back(state, rng)
        if taken is None:
            continue
        before, m = taken
        try:
            earlier = parse_position(text_of(before))
        except ValueError:
            continue  # not a position the rules allow
        if m not in earlier.moves():
            continue
        forward = earlier.copy()
        forward.play(m)
        assert position_text(forward) == position_text(game)
        state, game = before, earlier
        walk.append(game)
    return walk


def test_cannot_win_never_cuts_a_position_built_winnable(monkeypatch):
    # and the walks reach Ys that can leave only once stock cards are dealt
    # (the first k that lets them is past 0): where the count with the
    # whole stock still in it is too much
    real_first_k = dead_ends._first_k
    decided = []  # per such Y: its first k

    def first_k(*args):
        k = real_first_k(*args)
        if k > 0:
            decided.append(k)
        return k

    monkeypatch.setattr(dead_ends, "_first_k", first_k)
    checked = stocked = 0
    for seed in range(60):
        for game in winnable_walk(seed, 400):
            assert not cannot_win(game), position_text(game)
            checked += 1
            stocked += game.stock_count > 10
    assert checked > 10000 and stocked > 5000 and len(decided) > 20000


def test_a_walk_back_is_won_forward():
    # the walk's claim itself: a short one, solved from its far end
    game = winnable_walk(7, 60)[-1]
    assert search(game, seconds=60, won_only=True).result == WON


def test_a_card_with_no_way_out_but_a_space_needs_three_columns(monkeypatch):
    # The second KH in the waste lies above both QH (hearts want a queen),
    # so it can go neither home nor onto a queen: only into an empty column.
    # By then the 3D above it (diamonds wait for the 4D at the bottom) needs
    # a column, and the other three hold the jack, the KH and JC, the AD of
    # their bases, none of which can go home first: four columns, one of
    # them empty. The count alone, four columns for the 3D, lets it pass.
    stock = "AC2C3C4C5C6C7C8C9CTCAH2H3H4H5H6H7H8H9HTH"
    game = parse_position(
        layout(
            "british",
            "JH",
            "-",
            "JCKH",
            "QCAD",
            stock=stock,
            waste="4DKCQC2DQHQHKHKC3D",
            foundations=(11, 26, 11, 22),
        )
    )
    assert cannot_win(game)
    assert solve_plain(game, seconds=60).result == LOST
    monkeypatch.setattr(dead_ends, "_fewest_dealt", lambda *args: 0)
    assert not cannot_win(game)


def test_a_card_can_wait_for_the_stock_to_be_dealt_to_its_last_card():
    # The lower KH in the waste can only go home (no queen to go onto),
    # and hearts want a queen: the stock's last card. Until it is dealt,
    # it and the QH under KH stop the hearts, so above KH the other KH, TH
    # to AH, the clubs and the spades (their 4s are under KH too) need all
    # four columns. Once the queen is dealt it goes home, the TH to AH can
    # wait for the down half in one column, and KH goes home after it.
    game = parse_position(
        layout(
            "british",
            stock="QH",
            waste="4C4SQHJHKHKHTH9H8H7H6H5H4H3H2HAH3C2CAC3S2SAS",
            foundations=(22, 22, 11, 26),
        )
    )
    assert not cannot_win(game)
    assert search(game, seconds=60, won_only=True).result == WON
