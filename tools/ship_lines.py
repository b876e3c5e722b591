"""Write the winning lines a board ships (``lib/british_square/lines_<rules>.bin``).

For each rule set in ``RULES``: the first ``COUNT`` deals its records
(``SOURCES``, in ``docs/survey/``) won with a line of at most
``par.MAX_LINE`` moves that never comes back to a position (so no move of
it takes back the one before), each replayed through the engine to a win.
New game deals one of them on a board (``par.random_line_deal``), and a hint
on its line is the line's next move (``par.line_move``).

American's lines are its survey's. Union Square's survey looks for a win,
not a short one, and its wins run to a thousand moves and more, so its
lines are hunted apart (``hunt``): the shortest win of ``HUNT_RUNS`` greedy
runs of ``GREEDY_NODES`` positions each, a record a deal in
``union-lines.jsonl``. The budget is a count of positions, so a deal gets
the same line on any machine.

    python tools/ship_lines.py            # write the files
    python tools/ship_lines.py --check    # exit 1 if they are not what the records give
    nice python tools/ship_lines.py hunt union 1-1200   # hunt the deals the file lacks
"""

import json
import platform
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square import par  # noqa: E402
from british_square.desktop.notation import parse_move  # noqa: E402
from british_square.desktop.solver import SOLVER_VERSION  # noqa: E402
from british_square.desktop.solver.greedy import GREEDY_NODES, greedy  # noqa: E402
from british_square.desktop.solver.moves import position_key  # noqa: E402
from british_square.desktop.solver.solution import WON  # noqa: E402
from british_square.desktop.survey import parse_range, whole_lines_end  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.piles import AMERICAN, RULE_NAMES, UNION, move_text  # noqa: E402

COUNT = 500  # deals a rule set: about 280 KB of flash each
# The rule sets that ship lines (par.LINE_DEALS says how many each has), and
# the records their lines are chosen from
RULES = (AMERICAN, UNION)
SOURCES = {AMERICAN: "american.jsonl", UNION: "union-lines.jsonl"}
HUNT_RUNS = 16  # greedy runs a deal: the first without noise, then seeds 1, 2 ...
HUNT_GUARD = 600.0  # seconds: an outer guard only (a run of 1000 positions takes one)


def winning_line(deal, rules, tokens):
    """The moves of ``tokens`` (the survey's line for ``deal``) if they win
    from the deal, never come back to a position and fit ``par.MAX_LINE``;
    else None."""
    if len(tokens) > par.MAX_LINE:
        return None
    game = Game.new_deal(deal, rules)
    seen = {position_key(game)}
    moves = []
    for token in tokens:
        m = parse_move(token, game)
        game.play(m)
        key = position_key(game)
        if key in seen:
            return None
        seen.add(key)
        moves.append(m)
    return moves if game.is_won() else None


def hunt(deal, rules):
    """The record of ``deal``'s hunt under ``rules``: the shortest win of
    ``HUNT_RUNS`` greedy runs (``result`` "won"), else the line of the run
    bringing the most cards home ("unknown": the hunt proves nothing)."""
    best, nodes = None, 0
    for run in range(HUNT_RUNS):
        found = greedy(Game.new_deal(deal, rules), HUNT_GUARD, GREEDY_NODES, run or None)
        nodes += found.nodes
        if best is None or (found.result == WON) > (best.result == WON):
            best = found
        elif found.result == best.result == WON and len(found.moves) < len(best.moves):
            best = found
        elif best.result != WON and found.home > best.home:
            best = found
    return {
        "deal": deal,
        "rules": RULE_NAMES[rules],
        "result": best.result,
        "home": best.home,
        "moves": " ".join(move_text(m) for m in best.moves),
        "nodes": nodes,
        "runs": HUNT_RUNS,
        "run_nodes": GREEDY_NODES,
        "solver": SOLVER_VERSION,
        "python": "{} {}".format(platform.python_implementation(), platform.python_version()),
    }


def hunt_deals(rules, deals):
    """Hunt the ``deals`` (a range) that ``SOURCES[rules]`` lacks, a record
    appended (and flushed) as each ends: stopped, even mid-record, it goes on
    where it was, as a survey does. A line there that is not a hunt's record
    is a ``ValueError`` naming it, and nothing is written. (A hunt's record
    has no seconds, so that it is the same on any machine: not the
    survey's ``read_results``.)"""
    path = ROOT / "docs" / "survey" / SOURCES[rules]
    whole = path.read_bytes()[: whole_lines_end(path)] if path.exists() else b""
    done = set()
    for number, text in enumerate(whole.splitlines(), 1):
        try:
            done.add(json.loads(text)["deal"])
        except (ValueError, TypeError, KeyError):
            raise ValueError("{} line {}: not a hunt's record".format(path, number)) from None
    with open(path, "a") as out:
        out.truncate(len(whole))  # the torn record of a hunt killed mid-write
        for deal in deals:
            if deal not in done:
                record = hunt(deal, rules)
                out.write(json.dumps(record) + "\n")
                out.flush()
                print(deal, record["result"], len(record["moves"].split()), flush=True)


def chosen(rules, count=COUNT):
    """(deal, moves) of the first ``count`` deals of ``rules`` with a line to ship."""
    records = {}
    path = ROOT / "docs" / "survey" / SOURCES[rules]
    for text in path.read_text().splitlines():
        record = json.loads(text)
        if record["result"] == "won" and record.get("moves"):
            records[record["deal"]] = record["moves"].split()  # the last record of a deal
    found = []
    for deal in sorted(records):
        moves = winning_line(deal, rules, records[deal])
        if moves is not None:
            found.append((deal, moves))
            if len(found) == count:
                break
    return found


def file_bytes(found):
    """The lines file (``par``'s docstring) of ``found``: (deal, moves) in order."""
    last = found[-1][0] if found else 0
    lines = dict(found)
    at = par.LINES_HEAD + par.LINES_ENTRY * last
    entries, body = [], []
    for deal in range(1, last + 1):
        moves = lines.get(deal, ())
        entries.append(struct.pack("<HI", len(moves), at if moves else 0))
        body.append(bytes(b for m in moves for b in (m >> 8, m & 0xFF)))
        at += len(body[-1])
    return par.LINES_MAGIC + struct.pack("<H", last) + b"".join(entries) + b"".join(body)


def shipped(rules):
    """(deal, moves) of every line in the shipped file of ``rules``, in order."""
    data = Path(par.lines_path(rules)).read_bytes()
    if data[:4] != par.LINES_MAGIC:
        raise ValueError("{} is no lines file".format(par.lines_path(rules)))
    (last,) = struct.unpack_from("<H", data, 4)
    found = []
    for deal in range(1, last + 1):
        entry = par.LINES_HEAD + par.LINES_ENTRY * (deal - 1)
        count, start = struct.unpack_from("<HI", data, entry)
        if count:
            moves = [data[k] << 8 | data[k + 1] for k in range(start, start + 2 * count, 2)]
            found.append((deal, moves))
    return found


def main(argv):
    if argv[:1] == ["hunt"]:  # only into a file of hunts: never into a survey's
        try:
            if len(argv) != 3 or argv[1] != RULE_NAMES[UNION]:
                raise ValueError("usage: ship_lines.py hunt union A-B")
            deals = parse_range(argv[2])
            hunt_deals(UNION, deals)
        except ValueError as error:
            print("ship_lines: {}".format(error), file=sys.stderr)
            return 2
        return 0
    stale = []
    for rules in RULES:
        path = Path(par.lines_path(rules))
        data = file_bytes(chosen(rules))
        if "--check" in argv:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(path.name)
        else:
            path.write_bytes(data)
            print("wrote {} ({} bytes)".format(path, len(data)))
    if stale:
        print("not what the survey gives: {}; run tools/ship_lines.py".format(", ".join(stale)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
