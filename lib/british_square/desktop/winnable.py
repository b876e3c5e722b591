"""British Square positions known to be winnable, built backwards from
every card home, one move taken back at a time, each checked to be a legal
move of the engine that leads forward to the position it came from.

Every position on such a walk has a winning line (the walk played forward).
``winnable_walk`` gives the positions of a walk (tests/test_dead_ends.py
asks ``cannot_win`` about each); ``winnable_layout`` walks on until it is a
full layout, as a deal starts (no card home, four dealt cards in each column,
none in the waste, the other 88 in the stock), on which
``tools/winnable_rate.py`` measures how often the solver finds the win.

A state here is ``(columns, stock, waste, home)``: each column a pair of
card lists ``[base, built]``, the stock with its next card to deal last,
the waste with its top last, and each suit's count home.
"""

import random

from british_square.cards import card_name
from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import parse_position, position_text
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
    """The position text (``parse_position``'s) of ``state``."""
    columns, stock, waste, home = state
    cols = []
    for base, built in columns:
        if not base:
            cols.append("-")
            continue
        cols.append(
            "".join(map(card_name, base)) + ("." + "".join(map(card_name, built)) if built else "")
        )
    return " ".join(
        (
            "british",
            "/".join(cols),
            "".join(map(card_name, stock)) or "-",
            "".join(map(card_name, waste)) or "-",
            ",".join(str(n) for n in home),
        )
    )


def copy(state):
    columns, stock, waste, home = state
    return ([[b[:], u[:]] for b, u in columns], stock[:], waste[:], home[:])


def take_back(state, rng, home_to_waste=0.5):
    """A position one move before ``state`` and that move, or None. A card
    taken back from home goes to the waste with chance ``home_to_waste``,
    else to a column."""
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
        if rng.random() < home_to_waste:
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


def _step_back(state, game, taken):
    """``taken`` (a state, a move), checked: the move is legal there and
    leads forward to ``game``. The earlier state and its game, or None."""
    if taken is None:
        return None
    before, m = taken
    try:
        earlier = parse_position(text_of(before))
    except ValueError:
        return None  # not a position the rules allow
    if m not in legal_moves(earlier):
        return None
    forward = copy_game(earlier)
    forward.play(m)
    if position_text(forward) != position_text(game):
        raise AssertionError("a move taken back does not lead forward: {}".format(text_of(before)))
    return before, earlier


def all_home():
    """The state with every card home, and its game."""
    state = ([[[], []] for _ in range(4)], [], [], [26, 26, 26, 26])
    return state, parse_position(text_of(state))


def winnable_walk(seed, steps):
    """The positions of one walk back from every card home, each winnable."""
    rng = random.Random(seed)
    state, game = all_home()
    walk = []
    for _ in range(steps * 20):
        if len(walk) == steps:
            break
        stepped = _step_back(state, game, take_back(state, rng))
        if stepped is None:
            continue
        state, game = stepped
        walk.append(game)
    return walk


def _full(state):
    columns, _, _, home = state
    return not any(home) and all(len(base) == 4 for base, _ in columns)


def _tidy_up(state, game, line):
    """Take back the moves that built cards on columns from the waste, then
    the deals: the waste empty, every card in the stock or a column's base.
    Each is legal forward (a built card goes back where the waste put it;
    the deal is always legal). Each move taken back goes onto ``line``."""
    while True:
        columns, _, waste, _ = state
        before = copy(state)
        for c, (_, built) in enumerate(columns):
            if built:
                before[2].append(before[0][c][1].pop())
                m = WASTE << 8 | c
                break
        else:
            if not waste:
                return state, game
            before[1].append(before[2].pop())
            m = STOCK << 8 | WASTE
        stepped = _step_back(state, game, (before, m))
        if stepped is None:
            raise AssertionError("tidying up took back an illegal move: {}".format(text_of(before)))
        state, game = stepped
        line.append(m)


def winnable_layout(seed, home_to_waste=0.5, tries=200_000):
    """A full British layout (as a deal starts) built backwards from every
    card home, with the walk's seed ``seed``, and the winning line from it
    (the moves taken back, forward); None if the walk has not filled every
    column's four dealt cards within ``tries`` steps.
    ``home_to_waste`` is how often a card taken back from home goes to the
    waste rather than to a column (more to the waste: a deeper stock to
    dig through)."""
    rng = random.Random(seed)
    state, game = all_home()
    line = []  # the moves taken back, last first
    for _ in range(tries):
        if not any(state[3]):
            break
        taken = take_back(state, rng, home_to_waste)
        stepped = _step_back(state, game, taken)
        if stepped is not None:
            state, game = stepped
            line.append(taken[1])
    if any(len(base) != 4 for base, _ in state[0]):
        return None  # tidying up keeps the bases: this walk never deals a layout
    state, game = _tidy_up(state, game, line)
    return (game, line[::-1]) if _full(state) else None
