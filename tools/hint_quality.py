"""How much the board's hint helps, measured against the desktop solver.

    .venv/bin/python tools/hint_quality.py [--rules NAME ...] [--deals 1-10]
        [--per-deal 5] [--seconds 1] [--line-seconds 2] [--follow]

Positions from real play, for each rule set and deal: ``--per-deal`` from
the solver's own line for the deal (``best_line``, ``--line-seconds``) and
``--per-deal`` from a random but legal playout (every legal move as likely,
seeded by the deal), each at a step drawn at random (seeded); only those
with a legal move.

For each position P and its hint h (``hint.Hinter().suggest``: the board's
code and budget), the solver's best from P (``best_line``, ``--seconds`` of
processor time) is B cards home and its best after h is A. Following the
hint **keeps the best** when A >= B, or when the solver's line from P
starts with h (the rest of that line is then open after h, so the best
after h is at least B). A search that finishes gives the exact best; the
table says for how many positions both did ("exact"), where the comparison
is exact too. The same is measured for a random legal move (seeded), to
show how much the measure tells moves apart.

``--follow`` also plays each deal by the hints alone (every move the hint,
until there is no legal move or 1000 moves are played) and prints the cards
home, the deals won and how many reached par; ``--desktop`` follows the
desktop's hint instead, which plays the solver's win when it finds one.
``--vm`` plays each deal on the CircuitPython VM as a board plays it
(``$CIRCUITPYTHON_VM``, the game deployed as ``.mpy``), pressing Hint then
A, and counts the deals that reach the won screen. ``--shipped N`` follows
the first N deals of each rule set whose winning line the board ships
(those New game deals; tools/ship_lines.py) in place of ``--deals``.
Prints a Markdown table.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from ship_lines import shipped  # noqa: E402

from british_square.desktop.games import copy_game, legal_moves  # noqa: E402
from british_square.desktop.notation import RULE_TITLES, rules_from_name  # noqa: E402
from british_square.desktop.solver import UNKNOWN, best_line  # noqa: E402
from british_square.desktop.survey import parse_range  # noqa: E402
from british_square.desktop.winning import WinningHinter  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.hint import BUDGET, NO_HINT, Hinter  # noqa: E402
from british_square.par import LINE_DEALS, par  # noqa: E402
from british_square.piles import RULE_NAMES  # noqa: E402

KINDS = ("line", "random")
RANDOM_PLAY_MOVES = 300  # a random playout's longest
FOLLOW_MOVES = 1000


def sample(rules, deals, per_deal, line_seconds, kinds=KINDS, seed=1):
    """``(kind, game)`` for positions of real play of ``rules`` (see the
    module's docstring), ``per_deal`` of each kind a deal."""
    rng = random.Random(seed)
    found = []
    for deal in deals:
        for kind in kinds:
            game = Game.new_deal(deal, rules)
            if kind == "line":
                line = best_line(game, line_seconds).moves
            else:
                line = random_playout(game, random.Random(deal * 7 + rules))
            steps = set(rng.sample(range(len(line)), min(per_deal, len(line))))
            for step, m in enumerate(line):
                if step in steps and legal_moves(game):
                    found.append((kind, copy_game(game)))
                game.play(m)
    return found


def random_playout(game, rng):
    """The moves of a random but legal playout from ``game`` (not touched)."""
    game = copy_game(game)
    line = []
    while len(line) < RANDOM_PLAY_MOVES:
        moves = legal_moves(game)
        if not moves:
            break
        line.append(rng.choice(moves))
        game.play(line[-1])
    return line


def keeps_the_best(game, m, seconds):
    """``(kept, exact)``: does ``m`` keep the solver's best from ``game``, and
    did both searches finish (see the module's docstring)?"""
    before = best_line(game, seconds)
    after_move = copy_game(game)
    after_move.play(m)
    after = best_line(after_move, seconds)
    kept = after.home >= before.home or before.moves[:1] == [m]
    return kept, before.result != UNKNOWN and after.result != UNKNOWN


def measure(positions, seconds, seed=1, baseline=True):
    """Counts over ``positions`` (``(kind, game)``): ``positions``, ``hint``
    (hints that keep the best), ``exact``, ``none`` (positions given no
    hint) and, with ``baseline``, ``random`` (random legal moves that keep it)."""
    hinter = Hinter()
    rng = random.Random(seed)
    counts = {"positions": 0, "hint": 0, "exact": 0, "random": 0, "none": 0}
    for _, game in positions:
        counts["positions"] += 1
        m = hinter.suggest(game)
        if m == NO_HINT:
            counts["none"] += 1
        else:
            kept, exact = keeps_the_best(game, m, seconds)
            counts["hint"] += kept
            counts["exact"] += exact
        if baseline:
            counts["random"] += keeps_the_best(game, rng.choice(legal_moves(game)), seconds)[0]
    return counts


def follow(rules, deal, desktop=False):
    """Cards home after playing ``deal`` by the hints alone: the board's
    (``hint.Hinter``), or with ``desktop`` the desktop's, which follows the
    solver's win (``desktop.winning.WinningHinter``)."""
    game = Game.new_deal(deal, rules)
    hinter = WinningHinter(BUDGET) if desktop else Hinter()
    for _ in range(FOLLOW_MOVES):
        m = hinter.suggest(game)
        if m == NO_HINT:
            break
        game.play(m)
    return game.score()


def follow_on_vm(rules, deals):
    """How many of ``deals`` reach the won screen on the CircuitPython VM,
    played as a board plays them, Hint then A, as long as the game takes
    (``FOLLOW_MOVES`` pairs at most: the key script is fixed, so the game's
    Finish offer near the end takes an A, and a won game shows its screen)."""
    import os
    import subprocess
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from ui_runs import board_tree

    vm = os.environ.get("CIRCUITPYTHON_VM")
    mpy_cross = os.environ.get("MPY_CROSS")
    if not (vm and mpy_cross):
        sys.exit("hint_quality: --vm needs CIRCUITPYTHON_VM and MPY_CROSS")
    won = 0
    with tempfile.TemporaryDirectory() as folder:
        board = board_tree(Path(folder) / "board", mpy_cross)
        keys = Path(folder) / "keys"
        for deal in deals:
            moves = len(follow_line(rules, deal))
            keys.write_text("a " + "hint a " * (moves + 2))
            result = subprocess.run(
                [vm, "-X", "heapsize=128K", "code.py", "--deal", str(deal),
                 "--rules", RULE_NAMES[rules], "--keys-file", str(keys)],
                cwd=board, capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            said = [line for line in result.stdout.splitlines() if line.startswith("screens:")]
            won += bool(said) and "won" in said[0].split()
    return won


def follow_line(rules, deal):
    """The moves the board's hints play from ``deal`` (``follow``'s game), for
    the key script's length."""
    game = Game.new_deal(deal, rules)
    hinter = Hinter()
    moves = []
    for _ in range(FOLLOW_MOVES):
        m = hinter.suggest(game)
        if m == NO_HINT or game.is_won():
            break
        game.play(m)
        moves.append(m)
    return moves


def percent(part, whole):
    return "{:.1f}%".format(100 * part / whole) if whole else "-"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", choices=RULE_NAMES, nargs="+", default=list(RULE_NAMES))
    parser.add_argument("--deals", default="1-10", metavar="A-B")
    parser.add_argument("--per-deal", type=int, default=5, help="0: no positions (--follow only)")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--line-seconds", type=float, default=2.0)
    parser.add_argument("--follow", action="store_true")
    parser.add_argument("--desktop", action="store_true",
                        help="--follow the desktop's hint (the solver's win first)")  # fmt: skip
    parser.add_argument("--vm", action="store_true",
                        help="--follow on the CircuitPython VM, Hint then A")  # fmt: skip
    parser.add_argument("--shipped", type=int, default=0, metavar="N",
                        help="--follow the first N deals a rule set ships lines for")  # fmt: skip
    args = parser.parse_args(argv)
    deals = parse_range(args.deals)
    if args.per_deal:
        print("| rule set | positions | hint keeps the best | exact | a random move keeps it |")
        print("|---|---|---|---|---|")
        total = {}
        for name in args.rules:
            rules = rules_from_name(name)
            positions = sample(rules, deals, args.per_deal, args.line_seconds)
            counts = measure(positions, args.seconds)
            for key, value in counts.items():
                total[key] = total.get(key, 0) + value
            print(row(RULE_TITLES[rules], counts), flush=True)
        if len(args.rules) > 1:
            print(row("all", total))
    if args.follow:
        print()
        print("| rule set | deals | cards home, median (mean) | won | reached par |")
        print("|---|---|---|---|---|")
        for name in args.rules:
            rules = rules_from_name(name)
            if args.shipped:
                if not LINE_DEALS[rules]:
                    continue  # none shipped: none to follow
                deals = [deal for deal, _ in shipped(rules)[: args.shipped]]
            if args.vm:
                won = follow_on_vm(rules, deals)
                print("| {} | {} | - | {} | - |".format(RULE_TITLES[rules], len(deals), won))
                continue
            homes = [follow(rules, deal, args.desktop) for deal in deals]
            pars = [par(rules, deal) for deal in deals]
            reached = sum(1 for home, p in zip(homes, pars) if p and home >= p)
            print(
                "| {} | {} | {} ({:.1f}) | {} | {} of {} |".format(
                    RULE_TITLES[rules],
                    len(homes),
                    statistics.median(homes),
                    statistics.mean(homes),
                    sum(1 for home in homes if home == 104),
                    reached,
                    sum(1 for p in pars if p),
                ),
                flush=True,
            )
    return 0


def row(title, counts):
    n = counts["positions"]
    return "| {} | {} | {} ({}) | {} | {} ({}) |".format(
        title,
        n,
        counts["hint"],
        percent(counts["hint"], n),
        counts["exact"],
        counts["random"],
        percent(counts["random"], n),
    )


if __name__ == "__main__":
    sys.exit(main())
