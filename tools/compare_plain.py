"""The solver beside a plain depth-first search, on the same deals and budget.

    .venv/bin/python tools/compare_plain.py --rules union --deals 1-10 --budget 10

Runs ``solve_plain`` (exact keys, every legal move in the engine's order,
no symmetry, no safe moves, no bound, no hunts) on each deal, appends its
record to ``docs/survey/plain.jsonl`` (resumed like a survey), and prints
both searches' settled deals and positions per second, the solver's taken
from ``docs/survey/<rules>.jsonl`` for the same deals.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square.desktop.notation import rules_from_name  # noqa: E402
from british_square.desktop.solver import UNKNOWN, WON, solve_plain  # noqa: E402
from british_square.desktop.survey import parse_range, read_results  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.piles import RULE_NAMES  # noqa: E402

SURVEYS = ROOT / "docs" / "survey"


def line(name, records):
    settled = sum(1 for r in records if r["result"] != UNKNOWN)
    won = sum(1 for r in records if r["result"] == WON)
    seconds = sum(r["seconds"] for r in records)
    nodes = sum(r["nodes"] for r in records)
    best = sorted(r["home"] for r in records)
    return "{:<7} settled {}/{} (won {}), median best {} cards, {:,.0f} positions/s".format(
        name, settled, len(records), won, best[len(best) // 2], nodes / seconds
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", choices=RULE_NAMES, required=True)
    parser.add_argument("--deals", required=True)
    parser.add_argument("--budget", type=float, default=10.0)
    args = parser.parse_args(argv)
    deals = parse_range(args.deals)
    out = SURVEYS / "plain.jsonl"
    done = read_results(str(out), args.rules)
    with open(out, "a", encoding="utf-8") as handle:
        for deal in deals:
            if deal in done:
                continue
            found = solve_plain(Game.new_deal(deal, rules_from_name(args.rules)), args.budget)
            record = {
                "deal": deal,
                "rules": args.rules,
                "result": found.result,
                "home": found.home,
                "nodes": found.nodes,
                "seconds": round(found.seconds, 3),
            }
            handle.write(json.dumps(record) + "\n")
            handle.flush()
            done[deal] = record
    solver = read_results(str(SURVEYS / "{}.jsonl".format(args.rules)), args.rules)
    print(line("plain", [done[d] for d in deals]))
    if all(d in solver for d in deals):
        print(line("solver", [solver[d] for d in deals]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
