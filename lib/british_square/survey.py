"""The survey: solve a range of deals, append each result as a JSON line,
and sum up with the win rate, its Wilson interval and a plot.

Desktop only, like ``__main__`` (nothing on the board imports it): it uses
multiprocessing, and optionally Dask distributed (``pip install
british-square[cluster]``), tqdm and matplotlib.

The results file has one JSON object per finished deal (``deal``, ``rules``,
``result``, ``home``, ``moves``, ``nodes``, ``seconds``), appended and flushed
as each deal ends, so an interrupted survey resumes: deals already in the
file are not solved again.
"""

import json
import math
import os

from british_square.engine import RULE_NAMES, Game
from british_square.notation import move_text, rules_from_name
from british_square.solver import LOST, UNKNOWN, WON, solve

# z for a two-sided 95% interval
_Z95 = 1.959963984540054


def solve_deal(rules_name, deal, seconds):
    """One deal's record (a plain dict: it crosses process and network borders)."""
    game = Game.new_deal(deal, rules_from_name(rules_name))
    found = solve(game, seconds)
    return {
        "deal": deal,
        "rules": rules_name,
        "result": found.result,
        "home": found.home,
        "moves": " ".join(move_text(m) for m in found.moves),
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
    }


def read_results(path, rules_name=None):
    """The records in a results file (missing file: none), by deal; a line
    that is not a whole record (a survey killed mid-write) is skipped."""
    records = {}
    if not os.path.exists(path):
        return records
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
                deal = record["deal"]
                if record["result"] not in (WON, LOST, UNKNOWN):
                    continue
            except (ValueError, KeyError, TypeError):
                continue
            if rules_name is None or record.get("rules") == rules_name:
                records[deal] = record
    return records


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
        "won": won,
        "lost": lost,
        "unknown": unknown,
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
    if s["unknown"]:
        low += dash + "{:.1%}".format(s["win_rate_high"])
    return "{} ({}{:.1%}{}{:.1%})".format(low, label, s["wilson_low"], dash, s["wilson_high"])


def summary_text(rules_name, s):
    rate = "win rate " + rate_text(s, "-", "95% Wilson: ")
    return "{}: {} deals, {} won, {} lost, {} unknown; {}; median {:.2f} s a deal".format(
        rules_name, s["deals"], s["won"], s["lost"], s["unknown"], rate, s["median_seconds"]
    )


def parse_range(text):
    """``"A-B"`` or ``"A"`` as a range of deal numbers (1-31999)."""
    from british_square.deal import MAX_DEAL, MIN_DEAL
    from british_square.notation import parse_number

    first, dash, last = text.partition("-")
    low = parse_number(first, "deal number", MIN_DEAL, MAX_DEAL)
    high = parse_number(last, "deal number", MIN_DEAL, MAX_DEAL) if dash else low
    if high < low:
        raise ValueError("bad deal range {!r}: {} is below {}".format(text, high, low))
    return range(low, high + 1)


def _local_results(rules_name, deals, seconds, jobs):
    """Records as they finish, on ``jobs`` local processes."""
    if jobs == 1:
        for deal in deals:
            yield solve_deal(rules_name, deal, seconds)
        return
    import multiprocessing

    # Started fresh ("spawn"), not forked: a fork copies whatever locks the
    # parent's other threads held at that moment (a test runner's, a
    # library's), and a worker that inherits a held one waits for ever.
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        tasks = [(rules_name, deal, seconds) for deal in deals]
        yield from pool.imap_unordered(_solve_task, tasks)


def _solve_task(task):
    return solve_deal(*task)


def _cluster_results(rules_name, deals, seconds, scheduler):
    """Records as they finish, on the Dask cluster at ``scheduler`` (an
    address, or a ``distributed.Client``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install 'british-square[cluster]'") from None
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = client.map(
            solve_deal, [rules_name] * len(deals), list(deals), [seconds] * len(deals), pure=False
        )
        for future in as_completed(futures):
            yield future.result()
    finally:
        if client is not scheduler:
            client.close()


def run_survey(
    rules_name, deals, out, seconds=10.0, jobs=0, scheduler=None, progress=True, plot=None
):
    """Solve the ``deals`` not yet in the results file ``out``, appending each
    record as it comes; return the summary of every record of ``rules_name``
    in the file for those deals."""
    done = read_results(out, rules_name)
    todo = [d for d in deals if d not in done]
    if scheduler is not None:
        results = _cluster_results(rules_name, todo, seconds, scheduler)
    else:
        results = _local_results(rules_name, todo, seconds, jobs or os.cpu_count() or 1)
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="deal", desc=rules_name)
    torn = False  # a survey killed mid-line left a torn record: end it first
    if os.path.exists(out) and os.path.getsize(out):
        with open(out, "rb") as handle:
            handle.seek(-1, os.SEEK_END)
            torn = handle.read(1) != b"\n"
    with open(out, "a", encoding="utf-8") as handle:
        if torn:
            handle.write("\n")
        for record in results:
            handle.write(json.dumps(record) + "\n")
            handle.flush()
            done[record["deal"]] = record
            if bar is not None:
                bar.update(1)
                bar.set_postfix(won=sum(1 for r in done.values() if r["result"] == WON))
    if bar is not None:
        bar.close()
    wanted = {d: done[d] for d in deals if d in done}
    if plot:
        plot_distribution({rules_name: wanted}, plot)
    return summary(wanted)


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
        axis.set_title("{}: deals {}-{}".format(name, min(records), max(records)))
        axis.set_xlim(0, 105)
        axis.set_ylabel("deals")
        axis.legend(loc="upper center", fontsize="small")
    axes[-1, 0].set_xlabel("cards home (best line found; 104 = won)")
    figure.savefig(path, dpi=80)
    pyplot.close(figure)
