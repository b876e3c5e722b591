"""The desktop command, ``python3 -m british_square``, for tools, bug reports
and tests (see ``--help``).

Desktop only: ``tools/deploy.py`` never puts it on a board, so it uses
``argparse``. Every error, argparse's own included, is one ``error:`` line on
standard error and exit status 2 (standard output full, closed or a pipe
closed early, standard input closed, too); ``--help`` exits 0; Ctrl-C ends
it with status 130, quietly.
"""

import argparse
import json
import os
import sys

from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.desktop.games import legal_moves, show
from british_square.desktop.notation import (
    game_from_dict,
    move_dict,
    move_from_dict,
    parse_move,
    parse_number,
    parse_position,
    position_dict,
    position_text,
    quoted,
    rules_from_name,
)
from british_square.engine import Game
from british_square.piles import RULE_NAMES, move_text

PROG = "python3 -m british_square"
DESCRIPTION = """\
Deal, list moves, play, show, hint and solve British Square positions; survey deals.

POSITION is the one-line position text (quote it) or a JSON object (text
starting with "{"), or "-" to read either from standard input. MOVE is the
two-letter notation (aF, Wb, SW) or a JSON move ({"from": "waste", "to": 0}).
The formats are described in docs/desktop.md, "Text formats"."""

# Ample for any position or move (their numbers have at most 2 digits), and far
# below the thousands of digits at which CPython refuses to convert a number.
JSON_NUMBER_DIGITS = 6
# Characters of standard input read as a position: far more than any position takes.
MAX_INPUT = 1 << 20
MAX_JOBS = 1024  # survey --jobs
MAX_BUDGET = 86400  # seconds: a day
# A budget of positions unless --budget is given alone: the same verdict and
# line on any machine (about 5 s of CPython for American), seconds then only
# a guard.
DEFAULT_NODES = 100_000
GUARD_SECONDS = 600.0
MAX_NODES = 10**9


class UsageError(ValueError):
    """A command line argparse refuses."""


class OutputError(ValueError):
    """Standard output cannot take the command's output."""


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors raised as one line instead of printed."""

    def error(self, message):
        raise UsageError("{} (see: {} --help)".format(message, self.prog))

    def print_help(self, file=None):
        # argparse's own printing passes over a failed write: --help > /dev/full said nothing
        if file is not None:
            return super().print_help(file)
        out(self.format_help().rstrip("\n"))


def number_argument(what, low, high):
    """An argparse type: ASCII digits, ``low``-``high`` (``parse_number``)."""

    def number(token):
        try:
            return parse_number(token, what, low, high)
        except ValueError as error:  # argparse would replace a ValueError's message with its own
            raise argparse.ArgumentTypeError(str(error)) from None

    return number


deal_number = number_argument("deal number", MIN_DEAL, MAX_DEAL)


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


def standard_input():
    """What standard input holds, as text (``ValueError``: closed, not
    text, longer than any position)."""
    if sys.stdin is None:
        raise ValueError("no position on standard input: it is closed")
    try:
        text = sys.stdin.read(MAX_INPUT + 1)
    except UnicodeDecodeError:
        raise ValueError("bad position on standard input: not UTF-8 text") from None
    except OSError as error:
        raise ValueError("cannot read standard input: {}".format(error.strerror)) from None
    if len(text) > MAX_INPUT:
        raise ValueError("bad position on standard input: over {} characters".format(MAX_INPUT))
    return text


def read_position(text):
    """A game from the text or JSON position (``-``: standard input)."""
    if text == "-":
        text = standard_input()
    if text.lstrip().startswith("{"):
        return game_from_dict(read_json(text, "position"))
    return parse_position(text)


def read_move(token, game):
    if token.lstrip().startswith("{"):
        return move_from_dict(read_json(token, "move"), game)
    return parse_move(token, game)


def out(text=None):
    """Print a line of the command's output, or (no ``text``) flush what is
    printed; ``OutputError`` if standard output cannot take it."""
    try:
        if text is None:
            sys.stdout.flush()
        else:
            print(text)
    except OSError as error:
        raise OutputError("cannot write to standard output: {}".format(error.strerror)) from None


def write_position(game, as_json):
    out(json.dumps(position_dict(game)) if as_json else position_text(game))


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

    def position_command(name, help_text, parents=(as_json,)):
        """A command that takes a POSITION."""
        command = commands.add_parser(
            name, parents=list(parents), help=help_text, allow_abbrev=False
        )
        command.add_argument("position", metavar="POSITION")
        return command

    position_command("moves", "list the legal moves of a position")
    play = position_command("play", "play moves from a position and print the position reached")
    play.add_argument("moves", metavar="MOVE", nargs="*")
    position_command("show", "draw a position as text, for people", parents=())
    position_command(
        "hint", "the move Menu > Hint suggests on the board (same search, same budget)"
    )

    solve_command = commands.add_parser(
        "solve",
        parents=[as_json],
        help="search a position or deal for the most cards home: won, lost or unknown",
        allow_abbrev=False,
    )
    solve_command.add_argument("position", metavar="POSITION", nargs="?")
    solve_command.add_argument("--deal", type=deal_number, help="solve this deal instead")
    solve_command.add_argument(
        "--rules",
        choices=RULE_NAMES,
        help="rule set of --deal (default: british), or the one POSITION must have",
    )
    add_budget(solve_command, "")

    survey = commands.add_parser(
        "survey",
        help="solve a range of deals, append results, and print the win rate",
        allow_abbrev=False,
    )
    survey.add_argument("--rules", choices=RULE_NAMES, default=RULE_NAMES[0])
    survey.add_argument("--deals", metavar="A-B", help="deal numbers, e.g. 1-1000")
    survey.add_argument(
        "--jobs",
        type=number_argument("--jobs", 0, MAX_JOBS),
        default=0,
        help="local processes, at most one a deal (default: 0, one a core)",
    )
    add_budget(survey, " a deal")
    survey.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler to run on")
    survey.add_argument(
        "--out", metavar="FILE", help="results, JSON lines (default: survey-RULES.jsonl)"
    )
    survey.add_argument("--plot", metavar="PNG", help="also plot the cards-home distribution")
    survey.add_argument("--quiet", action="store_true", help="no progress bar")
    survey.add_argument(
        "--redo-older",
        action="store_true",
        help="solve again the deals an older solver version solved",
    )
    survey.add_argument(
        "--redo-unknown",
        action="store_true",
        help="solve again the deals an older solver or a smaller budget left unknown",
    )
    survey.add_argument(
        "--proof-only",
        action="store_true",
        help="each deal's verdict alone: no search for its best line (no par)",
    )
    survey.add_argument(
        "--verify",
        type=number_argument("--verify", 0, MAX_DEAL),
        metavar="N",
        help="solve nothing: check N records of --out drawn at random, and each --verify-deal",
    )
    survey.add_argument(
        "--verify-deal",
        action="append",
        default=[],
        type=deal_number,
        metavar="D",
        help="with --verify: check deal D's record too (may be repeated)",
    )
    survey.add_argument(
        "--seed", type=number_argument("--seed", 0, 1 << 30), help="the draw of --verify"
    )
    survey.add_argument(
        "--settled-in",
        action="append",
        default=[],
        metavar="FILE",
        help="skip the deals this results file has won or lost (may be repeated)",
    )
    return parser


def add_budget(command, each):
    """``--nodes`` and ``--budget`` of ``command``, ``each`` saying what for ("a deal")."""
    command.add_argument(
        "--nodes",
        type=number_argument("--nodes", 1, MAX_NODES),
        help="positions{}: the same answer on any machine (default: {:,}, unless --budget "
        "alone)".format(each, DEFAULT_NODES),
    )
    command.add_argument(
        "--budget",
        type=seconds_argument,
        help="seconds{}, in ASCII digits, 0.5 for half a second: alone, the budget (what it "
        "finds depends on the machine); with --nodes, a guard (default: 600)".format(each),
    )


def budget_of(args):
    """(seconds, positions) of a command's budget: ``--nodes`` positions (by
    default ``DEFAULT_NODES``) with ``--budget`` seconds as a guard, or
    ``--budget`` seconds alone (positions 0)."""
    if args.budget is not None and args.nodes is None:
        return args.budget, 0
    return args.budget or GUARD_SECONDS, args.nodes or DEFAULT_NODES


def seconds_argument(token):
    """A budget: seconds in ASCII digits, whole or with a decimal point and
    more digits (``0.5``), more than 0 and at most ``MAX_BUDGET``; not what
    else ``float`` takes (``1e3``, ``inf``, ``1_0``, spaces, other scripts'
    digits)."""
    whole, point, fraction = token.partition(".")
    digits = whole + fraction
    if 0 < len(token) <= 12 and whole and (fraction or not point):
        if all("0" <= c <= "9" for c in digits) and 0 < float(token) <= MAX_BUDGET:
            return float(token)
    message = "bad budget {}: seconds in ASCII digits (0.5: half a second), more than 0, at most {}"
    raise argparse.ArgumentTypeError(message.format(quoted(token), MAX_BUDGET))


def solve_command(args):
    from british_square.desktop.solver import solve

    if (args.position is None) == (args.deal is None):
        raise UsageError("solve takes a POSITION or --deal N (see: {} solve --help)".format(PROG))
    if args.deal is not None:
        game = Game.new_deal(args.deal, rules_from_name(args.rules or RULE_NAMES[0]))
    else:
        game = read_position(args.position)
        if args.rules not in (None, RULE_NAMES[game.rules]):
            message = "the position is a {} one, not --rules {}"
            raise ValueError(message.format(RULE_NAMES[game.rules], args.rules))
    seconds, nodes = budget_of(args)
    found = solve(game, seconds, nodes=nodes)
    line = [move_text(m) for m in found.moves]
    if args.json:
        out(
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
        out("{}: {} cards home".format(found.result, found.home))
        out(" ".join(line) or "(no moves)")


def hint_command(game, as_json):
    """Print the board's hint (``hint.Hinter``, as the game makes it, with its
    default budget) for the position as it is (no history: no shipped line
    is followed): the move, or that there is none."""
    from british_square.hint import NO_HINT, Hinter

    hinter = Hinter()
    m = hinter.suggest(game)
    if as_json:
        found = None if m == NO_HINT else move_dict(m)
        out(json.dumps({"hint": found, "positions": hinter.positions}))
    else:
        out("(no hint)" if m == NO_HINT else move_text(m))


def survey_command(args):
    """A survey, or with ``--verify`` its records checked: 1 if one is not confirmed."""
    from british_square.desktop.survey import parse_range, run_survey, summary_text

    path = args.out or "survey-{}.jsonl".format(args.rules)
    if args.verify is not None:
        from british_square.desktop.verify import verify

        failed = verify(path, args.rules, args.verify, args.verify_deal, args.seed, say=out)
        return 1 if failed else 0
    if args.verify_deal or args.seed is not None:
        raise UsageError("--verify-deal and --seed go with --verify N")
    if args.deals is None:
        message = "survey takes --deals A-B, or --verify N (see: {} survey --help)"
        raise UsageError(message.format(PROG))
    deals = parse_range(args.deals)
    seconds, nodes = budget_of(args)
    totals = run_survey(
        args.rules,
        deals,
        path,
        seconds=seconds,
        nodes=nodes,
        jobs=args.jobs,
        scheduler=args.scheduler,
        progress=not args.quiet,
        plot=args.plot,
        redo_older=args.redo_older,
        redo_unknown=args.redo_unknown,
        proof_only=args.proof_only,
        settled_in=args.settled_in,
    )
    out(summary_text(args.rules, totals))
    return 0


def main(argv):
    args = make_parser().parse_args(argv)
    if args.command == "deal":
        write_position(Game.new_deal(args.number, rules_from_name(args.rules)), args.json)
        return 0
    if args.command == "solve":
        solve_command(args)
        return 0
    if args.command == "survey":
        return survey_command(args)
    game = read_position(args.position)
    if args.command == "show":
        out(show(game))
    elif args.command == "hint":
        hint_command(game, args.json)
    elif args.command == "moves":
        if args.json:
            out(json.dumps([move_dict(m) for m in legal_moves(game)]))
        else:
            out(" ".join(move_text(m) for m in legal_moves(game)))
    else:  # play
        for number, token in enumerate(args.moves, 1):
            try:
                game.play(read_move(token, game))
            except ValueError as error:  # which of the moves: the same text may come twice
                where = "move {} of {}: ".format(number, len(args.moves))
                raise ValueError(where + str(error)) from None
        write_position(game, args.json)
    return 0


def run():
    """``main`` as a command: its errors as one line, its output flushed
    (where it fails, that is the error), Ctrl-C as status 130."""
    try:
        try:
            if sys.stdout is None:
                raise OutputError("standard output is closed: nowhere to write")
            status = main(sys.argv[1:])
        except SystemExit as done:  # --help, once printed
            status = done.code
        out()
    except KeyboardInterrupt:
        status = 130
    except ValueError as error:
        if isinstance(error, OutputError) and sys.stdout is not None:
            # what the buffer holds goes nowhere, not into a second error at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("error: {}".format(error), file=sys.stderr)
        status = 2
    sys.exit(status)
