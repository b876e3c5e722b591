"""The survey: solve a range of deals, append each result as a JSON line,
and sum up with the win rate, its Wilson interval and a plot.

Desktop only, like ``__main__`` (nothing on the board imports it): it uses
multiprocessing, and optionally Dask distributed (``pip install
british-square[cluster]``), tqdm and matplotlib.

The results file has one JSON object per finished deal (``deal``, ``rules``,
``result``, ``home``, ``moves``, ``nodes``, ``seconds``, since solver
version 2 ``solver``, ``budget`` and ``plain_nodes``, and since the census
ran on PyPy ``python``, the interpreter whose processor seconds ``seconds``
and ``budget`` count; with a budget of positions ``budget_nodes``, and
``budget`` is its guard), appended and flushed
as each deal ends, so an interrupted survey resumes: deals already in the
file are not solved again (with ``redo_older``, unless an older solver
solved them; with ``redo_unknown``, unless an older solver or a smaller
budget left them unknown). A deal's last line is its record.
"""

import json
import math
import os
import platform
import stat

from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.desktop.notation import rules_from_name
from british_square.desktop.solver import (
    LOST,
    ORDERS,
    PLAIN_LINE_NODES,
    SOLVER_VERSION,
    UNKNOWN,
    VERDICTS,
    WON,
    solve,
    solve_plain,
)
from british_square.engine import Game
from british_square.piles import RULE_NAMES, move_text

# Budgets are processor seconds, and PyPy does about three times the work of
# CPython in one: a record names the interpreter its seconds were counted on.
_PYTHON = "{} {}".format(platform.python_implementation(), platform.python_version())

# z for a two-sided 95% interval
_Z95 = 1.959963984540054


def solve_deal(rules_name, deal, seconds, proof_only=False, nodes=0):
    """One deal's record (a plain dict: it crosses process and network
    borders): ``solve`` for ``seconds``, or ``nodes`` positions with
    ``seconds`` a guard (``"budget_nodes"`` in the record), then, for a deal not won, the plain
    search in each move order (``ORDERS``) for ``PLAIN_LINE_NODES``
    positions, whose line is kept if it brings more cards home (see
    ``PLAIN_LINE_NODES``). ``proof_only``: the verdict alone, no line
    search (``"proof_only": true`` in the record; its line is no par)."""
    game = Game.new_deal(deal, rules_from_name(rules_name))
    found = solve(game, seconds, proof_only=proof_only, nodes=nodes)
    plain_nodes = 0
    if found.result != WON and not proof_only:
        for order in ORDERS:
            plain = solve_plain(game, math.inf, PLAIN_LINE_NODES, order)
            plain_nodes += plain.nodes
            found.seconds += plain.seconds
            if plain.home > found.home:
                found.home = plain.home
                found.moves = plain.moves
    record = {
        "deal": deal,
        "rules": rules_name,
        "result": found.result,
        "home": found.home,
        "moves": " ".join(move_text(m) for m in found.moves),
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
        "solver": SOLVER_VERSION,
        "budget": seconds,
        "plain_nodes": plain_nodes,
        "python": _PYTHON,
    }
    if nodes:
        record["budget_nodes"] = nodes
    if proof_only:
        record["proof_only"] = True
    return record


def solver_version(record):
    """The version of the solver that made ``record`` (1 before it was kept)."""
    return record.get("solver", 1)


def read_results(path, rules_name=None, keep="last"):
    """The records of ``rules_name`` (``None``: all) in a results file
    (missing: none), by deal: each deal's last line (``keep="last"``, its
    verdict now) or the line bringing the most cards home (``"best"``, for
    par: an older solver with a longer budget may have found more). A line
    that is not a whole record is a ``ValueError`` naming its number, but
    for a last line with no line end: a survey killed mid-write left it, and
    it is skipped."""
    records = {}
    if not os.path.exists(path):
        return records
    try:
        with open(path, "rb") as handle:  # lines of bytes: a bad one is named by its number
            for number, line in enumerate(iter(lambda: handle.readline(LINE_LIMIT + 1), b""), 1):
                if len(line) > LINE_LIMIT:  # read no further: a line may never end
                    message = "{!r} line {}: over {} bytes: not a results record"
                    raise ValueError(message.format(path, number, LINE_LIMIT))
                try:
                    record = results_record(line)
                except ValueError as error:
                    if line.endswith(b"\n"):
                        raise ValueError("{!r} line {}: {}".format(path, number, error)) from None
                    continue
                if rules_name is not None and record["rules"] != rules_name:
                    continue
                before = records.get(record["deal"])
                if keep == "last" or before is None or record["home"] > before["home"]:
                    records[record["deal"]] = record
    except OSError as error:
        raise ValueError("cannot read {!r}: {}".format(path, error.strerror)) from None
    return records


# A results record's line is a few KB (a won Union Square line of 1 200
# moves: 4 KB): a longer one is not a record, and is not read to its end.
LINE_LIMIT = 1 << 20

# What a results record holds that the summary, the plot and the tools read.
_WHOLE = (("deal", MIN_DEAL, MAX_DEAL), ("home", 0, 104), ("nodes", 0, None))


def results_record(line):
    """The record one line of a results file (bytes) holds; ``ValueError``
    saying what is wrong with it."""
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("not a results record: JSON nested too deeply") from None
    except ValueError:
        raise ValueError("not a results record (a JSON object on one line)") from None
    if not isinstance(record, dict):
        raise ValueError("not a results record (a JSON object on one line)")
    for name, low, high in _WHOLE:
        value = record.get(name)
        if type(value) is not int or value < low or (high is not None and value > high):
            most = "" if high is None else " to {}".format(high)
            raise ValueError("{!r} is not a whole number from {}{}".format(name, low, most))
    seconds = record.get("seconds")
    if type(seconds) not in (int, float) or not 0 <= seconds < math.inf:
        raise ValueError("'seconds' is not a number of seconds")
    if record.get("rules") not in RULE_NAMES:
        raise ValueError("'rules' is not one of {}".format(", ".join(RULE_NAMES)))
    if record.get("result") not in VERDICTS:
        raise ValueError("'result' is not one of {}".format(", ".join(VERDICTS)))
    version = solver_version(record)
    if type(version) is not int or not 1 <= version <= SOLVER_VERSION:
        raise ValueError("'solver' is not a version from 1 to {}".format(SOLVER_VERSION))
    return record


def wilson(successes, n, z=_Z95):
    """The Wilson score interval (low, high) for ``successes`` of ``n``."""
    if not n:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(records):
    """Counts, the win rate and its Wilson intervals, as Solvitaire reports
    them: unknowns are neither wins nor losses, so the rate lies between
    won / all (every unknown lost) and (won + unknown) / all (every unknown
    won); each end has its own 95% interval."""
    n = len(records)
    won = sum(1 for r in records.values() if r["result"] == WON)
    lost = sum(1 for r in records.values() if r["result"] == LOST)
    unknown = n - won - lost
    seconds = sorted(r["seconds"] for r in records.values())
    return {
        "deals": n,
        WON: won,
        LOST: lost,
        UNKNOWN: unknown,
        "win_rate_low": won / n if n else 0.0,
        "win_rate_high": (won + unknown) / n if n else 0.0,
        "wilson_low": wilson(won, n)[0],
        "wilson_high": wilson(won + unknown, n)[1],
        "median_seconds": seconds[n // 2] if n else 0.0,
        "total_seconds": sum(seconds),
    }


def rate_text(s, dash="-", label=""):
    """The win rate of summary ``s`` and its Wilson interval: a range while
    deals are unknown (all lost .. all won)."""
    low = "{:.1%}".format(s["win_rate_low"])
    if s[UNKNOWN]:
        low += dash + "{:.1%}".format(s["win_rate_high"])
    return "{} ({}{:.1%}{}{:.1%})".format(low, label, s["wilson_low"], dash, s["wilson_high"])


def summary_text(rules_name, s):
    rate = "win rate " + rate_text(s, "-", "95% Wilson: ")
    return "{}: {} deals, {} won, {} lost, {} unknown; {}; median {:.2f} s a deal".format(
        rules_name, s["deals"], s[WON], s[LOST], s[UNKNOWN], rate, s["median_seconds"]
    )


def parse_range(text):
    """``"A-B"`` or ``"A"`` as a range of deal numbers (1-31999)."""
    from british_square.desktop.notation import parse_number

    first, dash, last = text.partition("-")
    low = parse_number(first, "deal number", MIN_DEAL, MAX_DEAL)
    high = parse_number(last, "deal number", MIN_DEAL, MAX_DEAL) if dash else low
    if high < low:
        raise ValueError("bad deal range {!r}: {} is below {}".format(text, high, low))
    return range(low, high + 1)


def _local_results(rules_name, deals, seconds, jobs, proof_only=False, nodes=0):
    """Records as they finish, on ``jobs`` local processes."""
    if jobs == 1:
        for deal in deals:
            yield solve_deal(rules_name, deal, seconds, proof_only, nodes)
        return
    import multiprocessing

    # Started fresh ("spawn"), not forked: a fork copies whatever locks the
    # parent's other threads held at that moment (a test runner's, a
    # library's), and a worker that inherits a held one waits for ever.
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_ignore_interrupts) as pool:
        tasks = [(rules_name, deal, seconds, proof_only, nodes) for deal in deals]
        yield from pool.imap_unordered(_solve_task, tasks)


def _ignore_interrupts():
    """A worker leaves Ctrl-C to the survey, which stops the pool (one
    line, not a traceback from every worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _solve_task(task):
    return solve_deal(*task)


def _connect(scheduler):
    """A ``distributed.Client`` of the Dask scheduler at ``scheduler`` (an
    address; a client is taken as it is); ``ValueError`` if there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install 'british-square[cluster]'") from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout=30)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ValueError(
            "cannot reach the Dask scheduler {!r}: {}".format(scheduler, error)
        ) from None


def _cluster_results(rules_name, deals, seconds, client, proof_only=False, nodes=0):
    """Records as they finish, on the Dask cluster of ``client``."""
    from distributed import as_completed

    n = len(deals)
    tasks = ([rules_name] * n, list(deals), [seconds] * n, [proof_only] * n, [nodes] * n)
    futures = client.map(solve_deal, *tasks, pure=False)
    for future in as_completed(futures):
        yield future.result()


def same_file(first, second):
    """Do the paths ``first`` and ``second`` name one file, links followed
    (a hard link too), whether it is there yet or not?"""
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them not there yet: where each would be made
        return os.path.realpath(first) == os.path.realpath(second)


def check_output(path, what, signature=None):
    """May ``what`` be written at ``path``? Nothing there yet (in a folder
    that is), or a regular file, starting with ``signature`` if one is given
    (or empty); ``ValueError`` (one line) for anything else: a folder, a
    device (``/dev/full``), a FIFO, a folder that is not there."""
    if not os.path.exists(path):
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            raise ValueError("cannot write {!r}: there is no folder {!r}".format(path, folder))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ValueError("cannot write {!r}: the folder {!r} is read-only".format(path, folder))
        return
    if not os.path.isfile(path):
        raise ValueError("{!r} is not a regular file: not {}".format(path, what))
    if signature is None:
        return
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(signature))
    except OSError as error:
        raise ValueError("cannot read {!r}: {}".format(path, error.strerror)) from None
    if head not in (b"", signature):
        raise ValueError("{!r} is not {}: left as it is".format(path, what))


def check_input(path, what):
    """May ``what`` be read at ``path``? A regular file that is there (links
    followed); ``ValueError`` (one line) for anything else: nothing there, a
    folder, a device (``/dev/zero`` never ends), a FIFO (reading it waits
    for a writer for ever)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise ValueError("cannot read {!r}: {}".format(path, error.strerror)) from None
    if not stat.S_ISREG(mode):
        raise ValueError("{!r} is not a regular file: not {}".format(path, what))


def whole_lines_end(path):
    """Where the last whole line of the file at ``path`` ends: its size, or
    less when a survey (or a hunt: tools/ship_lines.py) killed mid-write
    left a torn record after it."""
    with open(path, "rb") as handle:
        end = handle.seek(0, os.SEEK_END)
        while end:
            step = min(end, 4096)
            handle.seek(end - step)
            line_end = handle.read(step).rfind(b"\n")
            if line_end >= 0:
                return end - step + line_end + 1
            end -= step
    return 0


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_survey(
    rules_name,
    deals,
    out,
    seconds=10.0,
    jobs=0,
    scheduler=None,
    progress=True,
    plot=None,
    redo_older=False,
    redo_unknown=False,
    proof_only=False,
    settled_in=(),
    nodes=0,
):
    """Solve the ``deals`` not yet in the results file ``out`` (with
    ``redo_older``, also those an older solver solved; with
    ``redo_unknown``, those an older solver or a smaller budget left
    unknown; never those a results file of ``settled_in`` has won or
    lost), appending each
    record as it comes, on ``jobs`` local processes (0: one a core, never
    more than deals to solve) or the Dask ``scheduler``; return the summary
    of every record of ``rules_name`` in the file for those deals.

    Everything is checked before the first deal is solved (``ValueError``,
    one line, each path in it quoted): the results file (a file of records,
    or none yet), each ``settled_in`` file (a file of records that is
    there), the plot's path (a ``.png`` name, not the results file's, links
    followed), the libraries the progress bar and the plot need, the
    scheduler. ``proof_only``: each deal's verdict alone (``solve_deal``);
    ``nodes``: a budget of positions, ``seconds`` its guard."""
    if plot and same_file(out, plot):  # each check alone passes a new or empty file
        raise ValueError(
            "--out and --plot are one file, {!r}: the plot would write over the results".format(
                plot
            )
        )
    check_output(out, "a results file")
    for path in settled_in:
        check_input(path, "a results file")
    done = read_results(out, rules_name)  # every line checked: only ours is appended to
    settled = set()
    for path in settled_in:
        records = read_results(path, rules_name)
        settled.update(d for d, r in records.items() if r["result"] != UNKNOWN)

    def to_solve(d):
        if d in settled:
            return False
        if d not in done:
            return True
        older = solver_version(done[d]) < SOLVER_VERSION
        if not redo_unknown or done[d]["result"] != UNKNOWN:
            return redo_older and older
        if nodes:
            return older or done[d].get("budget_nodes", 0) < nodes
        return older or done[d].get("budget", seconds) < seconds

    todo = [d for d in deals if to_solve(d)]
    if plot:
        check_output(plot, "a PNG file", PNG_SIGNATURE)
        if not os.fspath(plot).lower().endswith(".png"):  # matplotlib's format is the name's
            raise ValueError("--plot {!r}: the plot is a PNG file, named *.png".format(plot))
        _library("matplotlib", "--plot")
    tqdm = _library("tqdm", "the progress bar (or --quiet)").tqdm if progress and todo else None
    client = None if scheduler is None or not todo else _connect(scheduler)
    bar = None
    try:
        end = whole_lines_end(out) if os.path.exists(out) else 0
        with open(out, "a", encoding="utf-8") as handle:
            handle.truncate(end)  # the torn record of a survey killed mid-write
            if client is not None:
                results = _cluster_results(rules_name, todo, seconds, client, proof_only, nodes)
            else:
                jobs = min(jobs or os.cpu_count() or 1, len(todo))
                results = ()
                if todo:
                    results = _local_results(rules_name, todo, seconds, jobs, proof_only, nodes)
            if tqdm is not None:
                bar = tqdm(total=len(todo), unit="deal", desc=rules_name)
            for record in results:
                handle.write(json.dumps(record) + "\n")
                handle.flush()
                done[record["deal"]] = record
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(won=sum(1 for r in done.values() if r["result"] == WON))
    except OSError as error:  # a full disk: the records written so far stay
        raise ValueError("cannot write {!r}: {}".format(out, error.strerror)) from None
    finally:
        if bar is not None:
            bar.close()
        if client is not None and client is not scheduler:
            client.close()
    wanted = {d: done[d] for d in deals if d in done}
    if plot:
        plot_distribution({rules_name: wanted}, plot)
    return summary(wanted)


def _library(name, wanting):
    """The module ``name``, or ``ValueError`` saying what wants it."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        message = "{} needs {}: pip install 'british-square[survey]'"
        raise ValueError(message.format(wanting, name)) from None


def plot_distribution(by_rules, path):
    """A PNG of how many deals reach each number of cards home, one panel
    per rule set (won deals at 104; unknown deals at their best line)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    names = [name for name in RULE_NAMES if by_rules.get(name)]
    figure, axes = pyplot.subplots(
        len(names), 1, figsize=(7, 2.4 * len(names)), squeeze=False, constrained_layout=True
    )
    for axis, name in zip(axes[:, 0], names):
        records = by_rules[name]
        for result, colour in ((WON, "tab:green"), (LOST, "tab:red"), (UNKNOWN, "tab:gray")):
            homes = [r["home"] for r in records.values() if r["result"] == result]
            if homes:
                axis.hist(
                    homes,
                    bins=range(0, 106),
                    color=colour,
                    label="{} ({})".format(result, len(homes)),
                    alpha=0.85,
                )
        axis.set_title("{}: {:,} deals".format(name, len(records)))
        axis.set_xlim(0, 105)
        axis.set_ylabel("deals")
        axis.legend(loc="upper center", fontsize="small")
    axes[-1, 0].set_xlabel("cards home (best line found; 104 = won)")
    figure.savefig(path, dpi=80)
    pyplot.close(figure)
