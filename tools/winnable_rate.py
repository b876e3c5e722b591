"""How often ``solve`` wins full British layouts built to be winnable.

    .venv/bin/python tools/winnable_rate.py --layouts 20 --budget 15
    .venv/bin/python tools/winnable_rate.py --layouts 100 --rollouts 300000

Builds layouts with ``british_square.desktop.winnable.winnable_layout``
(seeds 0, 1, ...: each walked back from every card home, with its winning
line; a walk that ends with no layout is skipped), solves each for
``--budget`` processor seconds and prints one line a layout and the count
won. A "lost" on one of them would be a false proof: it stops the tool with
an error. ``--rollouts N`` runs the nested rollouts (British Square's win
hunt) alone instead, for N positions a layout: a count, so the same wins on
every machine and run, for comparing changes to the rollouts.
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square.desktop.solver import LOST, WON, solve  # noqa: E402
from british_square.desktop.solver.rollouts import nested_rollouts  # noqa: E402
from british_square.desktop.winnable import winnable_layout  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first walk's seed")
    parser.add_argument(
        "--budget", type=float, default=15.0, help="processor seconds a layout (not --rollouts)"
    )
    parser.add_argument(
        "--rollouts", type=int, default=0, metavar="N", help="the rollouts alone, N positions"
    )
    args = parser.parse_args(argv)
    won = tried = 0
    for seed in range(args.first, args.first + args.layouts):
        built = winnable_layout(seed)
        if built is None:
            continue
        started = time.process_time()
        if args.rollouts:
            found = nested_rollouts(built[0], float("inf"), args.rollouts)
        else:
            found = solve(built[0], args.budget)
        seconds = time.process_time() - started
        if found.result == LOST:
            raise SystemExit("layout {} is winnable, and solve says lost".format(seed))
        tried += 1
        won += found.result == WON
        print(seed, found.result, found.home, found.nodes, "{:.1f} s".format(seconds))
        sys.stdout.flush()
    spent = "{} positions".format(args.rollouts) if args.rollouts else "{:g} s".format(args.budget)
    print("won {} of {} layouts at {}".format(won, tried, spent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
