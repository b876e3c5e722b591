"""Helpers shared by the engine tests: hand-built positions, playouts and an
independent model of the rules.

The model (``model_moves`` and ``model_apply``) is written from RULES.md
alone, on the JSON position dict with card names, so that it shares no code
with the engine it checks.
"""

import random
from collections import Counter

from british_square.desktop.games import copy_game, legal_moves
from british_square.desktop.notation import (
    parse_move,
    parse_position,
    play_text,
    position_dict,
    position_text,
)
from british_square.engine import Game
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_source, move_target, move_text
from british_square.search import DeadSearch

RULES = ("british", "american", "union")
NOT_UNION = ("british", "american")
COLUMN_COUNT = {"british": 4, "american": 16, "union": 16}
RANKS = "A23456789TJQK"
SUITS = "CSHD"
# Cards no two of which build on each other and none an ace: fillers for unused piles.
BLOCKERS = ("2H", "4H", "6H", "8H", "TH", "QH", "2D", "4D", "6D", "8D", "TD", "QD", "JS", "KS")


# ------------------------------------------------------------- positions


def layout(rules, *columns, stock="-", waste="-", foundations=(0, 0, 0, 0)):
    """The position text: ``columns`` fill the first columns, the rest are empty."""
    cols = list(columns) + ["-"] * (COLUMN_COUNT[rules] - len(columns))
    found = ",".join(str(n) for n in foundations)
    return " ".join((rules, "/".join(cols), stock, waste, found))


def game(rules, *columns, **fields):
    """A new game at ``layout(rules, *columns, **fields)``."""
    return parse_position(layout(rules, *columns, **fields))


def blocked(rules, *columns, **fields):
    """Like ``game`` but every unused column holds a blocker card, not a space."""
    spare = COLUMN_COUNT[rules] - len(columns)
    return game(rules, *columns, *BLOCKERS[:spare], **fields)


def dead_steps(g, budget, every):
    """The dead test (``DeadSearch``) on ``g`` taken in steps, as the app
    runs it between frames: ``None`` after each ``every`` new positions,
    then its verdict. It searches a copy: ``g`` is never touched."""
    search = DeadSearch(budget)
    search.start(g)
    while True:
        verdict = search.step(every)
        yield verdict
        if verdict is not None:
            return


def dead_verdict(g, budget):
    """The dead test run in one go: its verdict."""
    return next(dead_steps(g, budget, budget + 1))  # it never looks at more than its budget


def text(g):
    return position_text(g)


def legal(g, token):
    """Is the move ``token`` (``"aF"``, ``"Wb"``) legal in ``g``?"""
    return g.is_legal(parse_move(token, g))


def legal_texts(g):
    return [move_text(m) for m in legal_moves(g)]


def play(g, *tokens):
    """Play the moves ``tokens`` (checked) and return ``g``."""
    for token in tokens:
        play_text(g, token)
    return g


def column_text(g, c):
    """Column ``c`` of ``g`` as its position-text token."""
    return text(g).split()[1].split("/")[c]


def all_pairs(g):
    """Every (source, target) move int, including piles the rule set lacks."""
    piles = range(FOUNDATION + 2)
    return [move(s, t) for s in piles for t in piles]


def documented_order(g):
    """The legal moves in the order ``Game.legal_moves`` documents, from ``is_legal``."""
    order = []
    for source in [*range(g.columns), WASTE]:
        for target in [FOUNDATION, *range(g.columns)]:
            order.append(move(source, target))
    order += [move(STOCK, t) for t in range(g.columns)]
    order.append(move(STOCK, WASTE))
    return [m for m in order if g.is_legal(m)]


def playout(g, choices, greedy=False):
    """Play ``moves()[i % len]`` for each choice ``i`` in ``g``; yield each move
    before it is pushed, and ``None`` at the end. ``greedy`` picks among the
    foundation moves whenever there are some."""
    for choice in choices:
        moves = legal_moves(g)
        if not moves:
            break
        home = [m for m in moves if move_target(m) == FOUNDATION] if greedy else []
        m = (home or moves)[choice % len(home or moves)]
        yield m
        g.push(m)
    yield None


def sample_games(count=40, steps=150, seed=7):
    """Game copies from seeded random playouts of every rule set (many shapes)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        g = Game.new_deal(rng.randint(1, 31999), i % 3)
        choices = [rng.randrange(1000) for _ in range(steps)]
        for step, _ in enumerate(playout(g, choices, greedy=i % 2)):
            if step % 10 == 0:
                out.append(copy_game(g))
    return out


# ------------------------------------------------------------ invariants


def all_cards(g):
    """Counter of every card name in ``g``, foundation cards included."""
    d = position_dict(g)
    names = Counter(d["stock"] + d["waste"])
    for col in d["columns"]:
        names.update(col)
    for suit, n in d["foundations"].items():
        for r in range(1, 14):
            names[RANKS[r - 1] + suit] += (n >= r) + (n >= 27 - r)
    return names


def check_columns(g):
    """Every column's built sequence (with the base card under it) runs one way, by suit."""
    d = position_dict(g)
    for c, (col, base) in enumerate(zip(d["columns"], d["base"])):
        assert len(col) <= 16, (c, col)
        assert (base == 0) == (not col), (c, col, base)
        if d["rules"] != "british":
            assert base <= 1, (c, base)
        run = col[base - 1 :] if col else []
        steps = {rank(b) - rank(a) for a, b in zip(run, run[1:])}
        assert len(steps) <= 1 and steps <= {1, -1}, (c, col, base)
        assert len({card[1] for card in run}) <= 1, (c, col, base)


# ----------------------------------------------------------------- model


def rank(name):
    return RANKS.index(name[0]) + 1


def needed_rank(count):
    """Rank a foundation holding ``count`` cards takes next: A..K, K..A, then none."""
    if count < 13:
        return count + 1
    return 26 - count


def _target_ok(d, card, t):
    col = d["columns"][t]
    if not col:
        return False
    top = col[-1]
    if card[1] != top[1] or abs(rank(card) - rank(top)) != 1:
        return False
    if len(col) > d["base"][t]:  # a built sequence: keep its direction
        return rank(card) - rank(top) == rank(top) - rank(col[-2])
    return True


def model_moves(d):
    """The set of legal moves (engine move ints) of position dict ``d``, from RULES.md."""
    cols = d["columns"]
    union = d["rules"] == "union"
    playable = [(c, col[-1]) for c, col in enumerate(cols) if col]
    if d["waste"]:
        playable.append((WASTE, d["waste"][-1]))
    out = set()
    for source, card in playable:
        if rank(card) == needed_rank(d["foundations"][card[1]]):
            out.add(move(source, FOUNDATION))
        for t in range(len(cols)):
            if t == source:
                continue
            if _target_ok(d, card, t) or (not cols[t] and (union or source == WASTE)):
                out.add(move(source, t))
    if d["stock"]:
        out.add(move(STOCK, WASTE))
        if not union:
            out.update(move(STOCK, t) for t in range(len(cols)) if not cols[t])
    return out


def model_apply(d, m):
    """A new position dict: ``d`` after the legal move ``m``."""
    d = {
        "rules": d["rules"],
        "columns": [list(col) for col in d["columns"]],
        "base": list(d["base"]),
        "stock": list(d["stock"]),
        "waste": list(d["waste"]),
        "foundations": dict(d["foundations"]),
    }
    source, target = move_source(m), move_target(m)
    if source == STOCK:
        card = d["stock"].pop()
    elif source == WASTE:
        card = d["waste"].pop()
    else:
        card = d["columns"][source].pop()
        d["base"][source] = min(d["base"][source], len(d["columns"][source]))
    if target == FOUNDATION:
        d["foundations"][card[1]] += 1
    elif target == WASTE:
        d["waste"].append(card)
    else:
        if not d["columns"][target]:
            d["base"][target] = 1  # the card that fills a space is its base
        d["columns"][target].append(card)
    return d
