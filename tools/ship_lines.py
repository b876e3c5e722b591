"""Write the winning lines a board ships (``lib/british_square/lines_<rules>.bin``).

For each rule set in ``RULES``: the first ``COUNT`` deals the
survey (``docs/survey/<rules>.jsonl``) won with a line of at most
``par.MAX_LINE`` moves that never comes back to a position (so no move of
it takes back the one before), each replayed through the engine to a win.
New game deals one of them on a board (``par.random_line_deal``), and a hint
on its line is the line's next move (``par.line_move``).

    python tools/ship_lines.py            # write the files
    python tools/ship_lines.py --check    # exit 1 if they are not what the survey gives
"""

import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square import par  # noqa: E402
from british_square.desktop.notation import parse_move  # noqa: E402
from british_square.desktop.solver.moves import position_key  # noqa: E402
from british_square.engine import Game  # noqa: E402
from british_square.piles import AMERICAN, RULE_NAMES  # noqa: E402

COUNT = 500  # deals a rule set: about 280 KB of flash for American's
# The rule sets that ship lines (par.LINE_DEALS says how many each has):
# American's. Union Square's solver wins run to a thousand moves and more.
RULES = (AMERICAN,)


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


def chosen(rules, count=COUNT):
    """(deal, moves) of the first ``count`` deals of ``rules`` with a line to ship."""
    records = {}
    path = ROOT / "docs" / "survey" / (RULE_NAMES[rules] + ".jsonl")
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


def main(argv):
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
