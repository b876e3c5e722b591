"""How often ``solve`` wins full British layouts built to be winnable.

    .venv/bin/python tools/winnable_rate.py --layouts 20 --budget 15

Builds layouts with ``british_square.desktop.winnable.winnable_layout``
(seeds 0, 1, ...: each walked back from every card home, with its winning
line), solves each for ``--budget`` processor seconds and prints one line a
layout and the count won. A "lost" on one of them would be a false proof:
it stops the tool with an error.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square.desktop.solver import LOST, WON, solve  # noqa: E402
from british_square.desktop.winnable import winnable_layout  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first walk's seed")
    parser.add_argument("--budget", type=float, default=15.0, help="processor seconds a layout")
    args = parser.parse_args(argv)
    won = tried = 0
    for seed in range(args.first, args.first + args.layouts):
        built = winnable_layout(seed)
        if built is None:
            continue
        found = solve(built[0], args.budget)
        if found.result == LOST:
            raise SystemExit("layout {} is winnable, and solve says lost".format(seed))
        tried += 1
        won += found.result == WON
        print(seed, found.result, found.home, found.nodes, "{:.1f} s".format(found.seconds))
        sys.stdout.flush()
    print("won {} of {} layouts at {:g} s".format(won, tried, args.budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
