"""Survey records checked again (``survey --verify``): a record's verdict is
a claim, and this confirms it without trusting the file.

- **won**: its line is played from the deal through the engine, each move
  checked legal, and must end with every card home;
- **lost**: the proof is run again (``solve`` with ``proof_only``, one
  complete search, as the census made it) and must end lost. For a
  ``proof_only`` record of a solver whose proof is this one's
  (``PROOF_SINCE``), it must also have looked at the same number of
  positions: the search is deterministic, so a count that differs means
  the file or the solver changed. A lost record of a whole survey counts
  the line searched after its proof too, and a record of an older solver
  another search: their verdict alone is compared;
- **unknown**: no claim, nothing to confirm (it is counted).

Seconds are only an outer guard (``guard``): a proof that does not finish
in them is "not confirmed", never a pass.
"""

import random

from british_square.desktop.notation import parse_move, rules_from_name
from british_square.desktop.solver import LOST, SOLVER_VERSION, UNKNOWN, WON, solve
from british_square.desktop.survey import read_results, solver_version
from british_square.engine import Game

# The first solver version whose proof is this one's: versions 5 to 7
# changed the line searches and the hunts for a win, no proof
# (``solver.SOLVER_VERSION``'s notes).
PROOF_SINCE = 4
# Seconds a proof may take again before it counts as not confirmed: ten
# times the census's budget, for a slower machine.
GUARD_SECONDS = 600.0


def replays_to_a_win(record):
    """Does ``record``'s line, played from its deal, win it? (None, or what is wrong.)"""
    game = Game.new_deal(record["deal"], rules_from_name(record["rules"]))
    for number, token in enumerate(record["moves"].split(), 1):
        try:
            game.play(parse_move(token, game))
        except ValueError as error:
            return "move {} ({}) is not legal there: {}".format(number, token, error)
    if not game.is_won():
        return "its line ends with {} cards home, not 104".format(game.score())
    return None


def check(record, guard=GUARD_SECONDS):
    """``record`` checked again: (confirmed, what was found), in words."""
    result = record["result"]
    if result == WON:
        wrong = replays_to_a_win(record)
        return (wrong is None, wrong or "its line replays to a win")
    if result != LOST:
        return (True, "unknown: no claim")
    game = Game.new_deal(record["deal"], rules_from_name(record["rules"]))
    found = solve(game, guard, proof_only=True)
    if found.result == UNKNOWN:
        return (False, "not confirmed in {:g} s".format(guard))
    if found.result != LOST:
        return (False, "the search says {}".format(found.result))
    if record.get("proof_only") and PROOF_SINCE <= solver_version(record) <= SOLVER_VERSION:
        if found.nodes != record["nodes"]:
            text = "proved lost, but in {:,} positions, not the {:,} recorded"
            return (False, text.format(found.nodes, record["nodes"]))
        return (True, "proved lost again, in the {:,} positions recorded".format(found.nodes))
    return (True, "proved lost again (solver {}: the verdict alone)".format(solver_version(record)))


def chosen(records, count, deals, seed):
    """The records to check: ``count`` of ``records`` (deal -> record) drawn
    at random with ``seed``, and those of ``deals``, in deal order; a deal
    named with no record is a ``ValueError``."""
    missing = [deal for deal in deals if deal not in records]
    if missing:
        raise ValueError("no record of deal {}".format(", ".join(map(str, missing))))
    drawn = random.Random(seed).sample(sorted(records), min(count, len(records)))
    return [records[deal] for deal in sorted(set(drawn) | set(deals))]


def verify(path, rules_name, count, deals=(), seed=None, guard=GUARD_SECONDS, say=print):
    """Check ``count`` records of ``path`` drawn at random and those of
    ``deals`` (each deal's last record of ``rules_name``), a line each
    through ``say``, then the tally; how many were not confirmed."""
    if seed is None:
        seed = random.randrange(1 << 30)
    records = read_results(path, rules_name)
    picked = chosen(records, count, deals, seed)
    say("checking {} of {} records of {} (seed {})".format(len(picked), len(records), path, seed))
    failed = 0
    for record in picked:
        confirmed, what = check(record, guard)
        failed += not confirmed
        mark = "ok" if confirmed else "NOT CONFIRMED"
        say("{} deal {} {}: {}".format(mark, record["deal"], record["result"], what))
    say("{} of {} confirmed".format(len(picked) - failed, len(picked)))
    return failed
