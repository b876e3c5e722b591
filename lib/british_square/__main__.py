"""The desktop command, for tools, bug reports and tests (see ``--help``).

Desktop only: ``tools/deploy.py`` never puts it on a board, so it uses
``argparse``. Every error, argparse's own included, is one ``error:`` line on
standard error and exit status 2; ``--help`` exits 0.
"""

import argparse
import json
import sys

from british_square.cards import NO_CARD, SUITS, card_name
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.engine import BUILDS_DOWN, BUILDS_UP, RULE_NAMES, Game
from british_square.notation import (
    DEAD_NAMES,
    RULE_TITLES,
    STATUS_NAMES,
    game_from_dict,
    move_dict,
    move_from_dict,
    move_text,
    parse_move,
    parse_number,
    parse_position,
    pile_text,
    position_dict,
    position_text,
    quoted,
    rules_from_name,
)
from british_square.search import dead_search

PROG = "python3 -m british_square"
DESCRIPTION = """\
Deal, list moves, play, show and solve British Square positions; survey deals.

POSITION is the one-line position text (quote it) or a JSON object (text
starting with "{"), or "-" to read either from standard input. MOVE is the
two-letter notation (aF, Wb, SW) or a JSON move ({"from": "waste", "to": 0}).
The formats are described in README.md, "Text formats"."""

# Ample for any position or move (their numbers have at most 2 digits), and far
# below the thousands of digits at which CPython refuses to convert a number.
JSON_NUMBER_DIGITS = 6


class UsageError(ValueError):
    """A command line argparse refuses."""


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors raised as one line instead of printed."""

    def error(self, message):
        raise UsageError("{} (see: {} --help)".format(message, self.prog))


def deal_number(token):
    """The deal number argument: ASCII digits, MIN_DEAL-MAX_DEAL."""
    try:
        return parse_number(token, "deal number", MIN_DEAL, MAX_DEAL)
    except ValueError as error:  # argparse would replace a ValueError's message with its own
        raise argparse.ArgumentTypeError(str(error)) from None


def _json_int(digits):
    if len(digits.lstrip("-")) > JSON_NUMBER_DIGITS:
        raise ValueError("number {} is too long".format(quoted(digits)))
    return int(digits)


def _json_object(pairs):
    """A dict from JSON's key/value pairs; a key given twice is an error, not
    the last one silently winning."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError("key {} given twice".format(quoted(key)))
        out[key] = value
    return out


def read_json(text, what):
    try:
        return json.loads(text, parse_int=_json_int, object_pairs_hook=_json_object)
    except RecursionError:  # CPython's parser recurses once per level of nesting
        raise ValueError("bad JSON {}: nested too deeply".format(what)) from None
    except ValueError as error:
        raise ValueError("bad JSON {}: {}".format(what, error)) from None


def read_position(text):
    """A game from the text or JSON position (``-``: standard input)."""
    if text == "-":
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError:
            raise ValueError("bad position on standard input: not UTF-8 text") from None
    if text.lstrip().startswith("{"):
        return game_from_dict(read_json(text, "position"))
    return parse_position(text)


def read_move(token, game):
    if token.lstrip().startswith("{"):
        return move_from_dict(read_json(token, "move"), game)
    return parse_move(token, game)


def write_position(game, as_json):
    if as_json:
        print(json.dumps(position_dict(game)))
    else:
        print(position_text(game))


def show(game):
    """A plain-text picture of the position, for people."""
    lines = []
    lines.append(
        "{}   score {}/104   {}".format(
            RULE_TITLES[game.rules], game.score(), STATUS_NAMES[game.status()]
        )
    )
    arrows = {BUILDS_UP: "up", BUILDS_DOWN: "down"}
    if game.columns == 4:
        names = ["  {:<5}".format(pile_text(c)) for c in range(4)]
        lines.append("".join(names))
        tallest = max(game.column_height(c) for c in range(4))
        for depth in range(tallest):
            row = []
            for c in range(4):
                card = game.card(c, depth)
                if card == NO_CARD:
                    row.append("       ")
                    continue
                mark = "." if depth == game.base_count(c) and depth else " "
                row.append(" {}{:<5}".format(mark, card_name(card)))
            lines.append("".join(row).rstrip())
        lines.append(
            "".join("  {:<5}".format(arrows.get(game.direction(c), "free")) for c in range(4))
        )
    else:
        for r in range(4):
            row = []
            for c in range(r * 4, r * 4 + 4):
                top = game.top(c)
                text = "--" if top == NO_CARD else card_name(top)
                row.append(
                    "{}:{}({}){:<4}".format(
                        pile_text(c), text, game.column_height(c), arrows.get(game.direction(c), "")
                    )
                )
            lines.append("  ".join(row).rstrip())
    shown = min(game.waste_count, 8)  # the top card last
    waste = " ".join(card_name(game.waste_card(k)) for k in range(shown - 1, -1, -1))
    lines.append("stock {} cards   waste {}".format(game.stock_count, waste or "-"))
    found = []
    for suit in range(4):
        top = game.foundation_top(suit)
        found.append("{} {}".format(SUITS[suit], "-" if top == NO_CARD else card_name(top)[0]))
    verdict = next(dead_search(game, 500))  # run in one go: its one value is the verdict
    lines.append("foundations " + "  ".join(found) + "   dead test: " + DEAD_NAMES[verdict])
    return "\n".join(lines)


def make_parser():
    parser = Parser(
        prog=PROG,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    as_json = Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON instead of text")

    deal = commands.add_parser(
        "deal", parents=[as_json], help="print the position of a deal", allow_abbrev=False
    )
    deal.add_argument(
        "number",
        metavar="NUMBER",
        type=deal_number,
        help="deal number, {}-{} (PySolFC's numbers)".format(MIN_DEAL, MAX_DEAL),
    )
    deal.add_argument(
        "--rules", choices=RULE_NAMES, default=RULE_NAMES[0], help="rule set (default: british)"
    )

    moves = commands.add_parser(
        "moves", parents=[as_json], help="list the legal moves of a position", allow_abbrev=False
    )
    moves.add_argument("position", metavar="POSITION")

    play = commands.add_parser(
        "play",
        parents=[as_json],
        help="play moves from a position and print the position reached",
        allow_abbrev=False,
    )
    play.add_argument("position", metavar="POSITION")
    play.add_argument("moves", metavar="MOVE", nargs="*")

    show_command = commands.add_parser(
        "show", help="draw a position as text, for people", allow_abbrev=False
    )
    show_command.add_argument("position", metavar="POSITION")

    solve_command = commands.add_parser(
        "solve",
        parents=[as_json],
        help="search a position or deal for the most cards home: won, lost or unknown",
        allow_abbrev=False,
    )
    solve_command.add_argument("position", metavar="POSITION", nargs="?")
    solve_command.add_argument("--deal", type=deal_number, help="solve this deal instead")
    solve_command.add_argument(
        "--rules", choices=RULE_NAMES, default=RULE_NAMES[0], help="rule set of --deal"
    )
    solve_command.add_argument(
        "--budget", type=seconds_argument, default=10.0, help="seconds to search (default: 10)"
    )

    survey = commands.add_parser(
        "survey",
        help="solve a range of deals, append results, and print the win rate",
        allow_abbrev=False,
    )
    survey.add_argument("--rules", choices=RULE_NAMES, default=RULE_NAMES[0])
    survey.add_argument("--deals", required=True, metavar="A-B", help="deal numbers, e.g. 1-1000")
    survey.add_argument("--jobs", type=int, default=0, help="local processes (default: all cores)")
    survey.add_argument(
        "--budget", type=seconds_argument, default=10.0, help="seconds a deal (default: 10)"
    )
    survey.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler to run on")
    survey.add_argument(
        "--out", metavar="FILE", help="results, JSON lines (default: survey-RULES.jsonl)"
    )
    survey.add_argument("--plot", metavar="PNG", help="also plot the cards-home distribution")
    survey.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def seconds_argument(token):
    try:
        value = float(token)
    except ValueError:
        value = -1.0
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError("bad budget {}: seconds, 0-86400".format(quoted(token)))
    return value


def solve_command(args):
    from british_square.solver import solve

    if (args.position is None) == (args.deal is None):
        raise UsageError("solve takes a POSITION or --deal N (see: {} solve --help)".format(PROG))
    if args.deal is not None:
        game = Game.new_deal(args.deal, rules_from_name(args.rules))
    else:
        game = read_position(args.position)
    found = solve(game, args.budget)
    line = [move_text(m) for m in found.moves]
    if args.json:
        print(
            json.dumps(
                {
                    "result": found.result,
                    "home": found.home,
                    "moves": line,
                    "nodes": found.nodes,
                    "seconds": round(found.seconds, 3),
                }
            )
        )
    else:
        print("{}: {} cards home".format(found.result, found.home))
        print(" ".join(line) or "(no moves)")


def survey_command(args):
    from british_square.survey import parse_range, run_survey, summary_text

    deals = parse_range(args.deals)
    if args.jobs < 0:
        raise UsageError("bad --jobs {}: 0 (all cores) or more".format(args.jobs))
    out = args.out or "survey-{}.jsonl".format(args.rules)
    totals = run_survey(
        args.rules,
        deals,
        out,
        seconds=args.budget,
        jobs=args.jobs,
        scheduler=args.scheduler,
        progress=not args.quiet,
        plot=args.plot,
    )
    print(summary_text(args.rules, totals))


def main(argv):
    args = make_parser().parse_args(argv)
    if args.command == "deal":
        write_position(Game.new_deal(args.number, rules_from_name(args.rules)), args.json)
        return 0
    if args.command == "solve":
        solve_command(args)
        return 0
    if args.command == "survey":
        survey_command(args)
        return 0
    game = read_position(args.position)
    if args.command == "show":
        print(show(game))
    elif args.command == "moves":
        if args.json:
            print(json.dumps([move_dict(m) for m in game.moves()]))
        else:
            print(" ".join(move_text(m) for m in game.moves()))
    else:  # play
        for token in args.moves:
            game.play(read_move(token, game))
        write_position(game, args.json)
    return 0


def run():
    try:
        status = main(sys.argv[1:])
    except ValueError as error:
        print("error: {}".format(error), file=sys.stderr)
        status = 2
    sys.exit(status)


if __name__ == "__main__":
    run()
