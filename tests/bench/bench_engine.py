"""Engine benchmark, run under CircuitPython's VM (``make bench``).

For each rule set: heap held by a freshly dealt game, heap allocated by a
legal-move generation into a caller's buffer, by an apply+undo and by reading
every card through the game's readers, history bytes per move, and the cost
of dealing, generating legal moves, apply+undo, reading the position and the
dead-position test, in empty-loop units calibrated around each sample
(benchlib: the median of 15 rounds, with its spread).
"""

import gc
import sys

sys.path.append("lib")
sys.path.append("tests/bench")
sys.path.append("tests/vm")

from benchlib import (  # noqa: E402
    allocated,
    held,
    loop_unit_ns,
    mean_of,
    measure,
    report,
    report_cost,
)
from engine_api import read_all  # noqa: E402
from playout import policy_move  # noqa: E402

from british_square import deal  # noqa: E402, F401  (imported up front: not part of a game's heap)
from british_square.engine import MAX_MOVES, Game  # noqa: E402
from british_square.piles import RULE_NAMES, STOCK, WASTE, move  # noqa: E402
from british_square.search import DeadSearch  # noqa: E402


def midgame(number, rules, buffer, steps=60):
    """A position some moves into deal ``number`` (a fixed policy, as in the VM tests)."""
    game = Game.new_deal(number, rules)
    for step in range(steps):
        m = policy_move(game, step, number, buffer)
        if m is None:
            break
        game.push(m)
    return game


def exhausted(number, rules, buffer):
    """A position with the stock dealt out: where the game runs the dead test."""
    game = midgame(number, rules, buffer, steps=400)
    while game.stock_count:
        game.push(move(STOCK, WASTE))
    return game


def legal_moves_costs(game, buffer):
    """Legal-move generation over every position of ``game``'s history: the
    mean cost over the positions (a ``Measured``), the worst position's cost
    and the mean number of moves."""
    per_position = []
    moves = 0
    while True:
        moves += game.legal_moves(buffer)
        per_position.append(measure(lambda: game.legal_moves(buffer)))
        if game.undo() is None:
            break
    worst = max(m.value for m in per_position)
    return mean_of(per_position), round(worst), moves / len(per_position)


def bench_rules(rules, buffer):
    name = RULE_NAMES[rules]
    fresh, _ = held(lambda: Game.new_deal(7, rules))
    report(name, "fresh_game_heap", fresh, "bytes", "held by a freshly dealt game (<= 1024)")
    game = midgame(7, rules, buffer)
    generate = allocated(lambda: game.legal_moves(buffer))
    report(name, "legal_moves_alloc", generate, "bytes", "per legal-move generation (0)")
    game.legal_moves(buffer)
    first = move(buffer[0], buffer[1])

    def apply_undo():
        game.push(first)
        game.undo()

    apply_undo()  # the history has room now: steady state
    report(name, "apply_undo_alloc", allocated(apply_undo), "bytes", "per apply+undo (0)")
    cards = game.cards_left()
    report(
        name,
        "readers_alloc",
        allocated(lambda: read_all(game)),
        "bytes",
        "reading all {} cards left through Game.card, waste_card, ... (0)".format(cards),
    )
    long_game = midgame(7, rules, buffer, steps=1000)
    moves = long_game.history_count
    report(
        name,
        "history_bytes_per_move",
        round(2 * moves / moves, 2),
        "bytes",
        "history entry per move (<= 2); chunks of {} bytes in all after {} moves".format(
            sum(len(chunk) for chunk in long_game.history), moves
        ),
    )
    deal_cost = measure(lambda: Game.new_deal(7, rules))
    report_cost(name, "deal_cost", deal_cost, "deal a new game (<= 20000)")
    mean, worst, count = legal_moves_costs(midgame(7, rules, buffer), buffer)
    report_cost(
        name,
        "legal_moves_cost",
        mean,
        "mean over a playout's positions, {:.1f} moves each; worst {} (<= 1500)".format(
            count, worst
        ),
    )
    report_cost(name, "apply_undo_cost", measure(apply_undo), "apply+undo (<= 300)")
    report_cost(
        name,
        "read_all_cost",
        measure(lambda: read_all(game)),
        "every card left ({}) read through the readers, as a full redraw reads them".format(cards),
    )
    late = exhausted(7, rules, buffer)
    dead = DeadSearch(200, buffer)  # as the game holds it: made once
    held_bytes, _ = held(lambda: DeadSearch(200, buffer))

    def dead_test():  # in one go: it never looks at more than its budget
        dead.start(late)
        return dead.step(201)

    verdict = ("alive", "dead", "unknown")[dead_test()]
    report_cost(
        name,
        "dead_test_cost",
        measure(dead_test),
        "dead test, budget 200 positions (the game's), stock empty: {}".format(verdict),
    )
    gc.collect()
    report(
        name,
        "dead_test_alloc",
        allocated(dead_test),
        "bytes",
        "heap a dead test allocates once made (0; collector off)",
    )
    report(name, "dead_test_held", held_bytes, "bytes", "its tables, made once (budget 200)")


def main():
    note = "one empty for-loop iteration on this machine (its speed, not a cost)"
    report_cost("engine", "loop_unit_ns", loop_unit_ns(), note, unit="ns", digits=1)
    buffer = bytearray(2 * MAX_MOVES)
    for rules in range(3):
        bench_rules(rules, buffer)


main()
