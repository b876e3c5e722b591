"""Write the board's par files from survey results.

    .venv/bin/python tools/make_par.py docs/survey/*.jsonl

Each results file (JSON lines from ``python3 -m british_square survey``)
gives, per deal, the most cards home found; ``lib/british_square/par_<rules>.bin``
gets one byte per deal (deal N at offset N - 1): that number, 104 for a won
deal, 0 for a deal no file has. A deal in several files keeps its best.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square.deal import MAX_DEAL  # noqa: E402
from british_square.engine import RULE_NAMES  # noqa: E402
from british_square.survey import read_results  # noqa: E402


def par_bytes(records):
    """The par file's bytes for ``records`` (deal -> record)."""
    data = bytearray(MAX_DEAL)
    for deal, record in records.items():
        if 1 <= deal <= MAX_DEAL and 0 <= record["home"] <= 104:
            data[deal - 1] = max(data[deal - 1], record["home"])
    return bytes(data)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="survey results files (JSON lines)")
    parser.add_argument(
        "--folder", default=str(ROOT / "lib" / "british_square"), help="where the .bin files go"
    )
    args = parser.parse_args(argv)
    for rules in RULE_NAMES:
        records = {}
        for path in args.results:
            for deal, record in read_results(path, rules).items():
                if deal not in records or record["home"] > records[deal]["home"]:
                    records[deal] = record
        if not records:
            continue
        out = Path(args.folder) / "par_{}.bin".format(rules)
        out.write_bytes(par_bytes(records))
        won = sum(1 for r in records.values() if r["result"] == "won")
        print("{}: {} deals, {} won -> {}".format(rules, len(records), won, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
