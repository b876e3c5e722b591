"""Publish survey results: the board's par files, the plot and the docs table.

    .venv/bin/python tools/publish_survey.py            # docs/survey/*.jsonl

Reads ``docs/survey/<rules>.jsonl`` (from ``python3 -m british_square
survey``), and ``docs/survey/<rules>-par.jsonl`` where there is one: a
quicker survey of more deals, at a shorter budget, run for par alone
(British Square, whose deals are not settled in any budget, has par on 1000
deals this way), and ``docs/survey/<rules>-proof.jsonl``: verdicts alone,
no line searched (the census's ``british-proof`` stream), which give no par.
It writes

* ``lib/british_square/par_<rules>.bin``: one byte per deal (deal N at offset
  N - 1, 31999 bytes), the most cards home found by either survey, 104 for a
  won deal, 0 for a deal not surveyed;
* ``docs/survey-home.png``: the cards-home distribution per rule set (the
  best of either survey for each deal);

and prints a Markdown table of the results, a row per survey file, what is
proved of every British deal (``proved``: a deal is won or lost if any file
says so), the deals each survey left unknown, and where each deal's par came
from (the budget of its record); ``--write-docs`` puts them in
docs/solver.md between its ``survey:start`` and ``survey:end`` marks, and
the figures a player reads (``expectations``: British Square's typical
cards home, how often and on how many deals the others are won; what is
proved) into every place
that says them.
"""

import argparse
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square.deal import MAX_DEAL  # noqa: E402
from british_square.desktop.notation import RULE_TITLES  # noqa: E402
from british_square.desktop.solver import LOST, UNKNOWN, WON  # noqa: E402
from british_square.desktop.survey import plot_distribution, rate_text, read_results, summary  # noqa: E402
from british_square.piles import RULE_NAMES  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from docs_marks import write_marked  # noqa: E402

TABLE_START = "<!-- survey:start -->"
TABLE_END = "<!-- survey:end -->"


def best_of(*surveys):
    """Per deal, the record that brings the most cards home of ``surveys``
    (each deal -> record); the first survey's where they tie."""
    best = {}
    for records in reversed(surveys):
        for deal, record in records.items():
            if deal not in best or record["home"] >= best[deal]["home"]:
                best[deal] = record
    return dict(sorted(best.items()))


# The budget of a record made before records kept theirs (solver version 1),
# by results file: the surveys' own budgets (docs/solver.md, Results).
_VERSION_1_BUDGETS = {"": "10 s", "british": "60 s", "british-par": "2 s or 60 s"}


def interpreter(record):
    """The Python that solved ``record``: "CPython" for records from before
    records named theirs (all of them ran on CPython), else "PyPy" or
    "CPython" as its ``python`` says."""
    return record.get("python", "CPython").split()[0]


def budget_text(record, file_name):
    """The budget ``record`` (of results file ``file_name``, e.g.
    "british-par") was solved with, as the par table says it."""
    if "budget" not in record:
        return _VERSION_1_BUDGETS.get(file_name, _VERSION_1_BUDGETS[""]) + " (version 1)"
    if record.get("budget_nodes"):  # a count: the same on any interpreter
        text = "{:,} positions".format(record["budget_nodes"])
    else:
        text = "{:g} s".format(record["budget"])
        if interpreter(record) != "CPython":  # a second there does more: say where
            text += " on " + interpreter(record)
    return text + " + plain line" if record.get("plain_nodes") else text


def unknown_text(surveys):
    """A line per survey with deals it left unknown: the rule set and the deals."""
    lines = []
    for title, records in surveys:
        unknown = sorted(d for d, r in records.items() if r["result"] == UNKNOWN)
        if unknown and ", for par" not in title and ", proofs" not in title:  # many: no list
            shown = ", ".join(str(d) for d in unknown)
            lines.append("- {}, {} unknown: {}".format(title, len(unknown), shown))
    return "\n".join(lines)


def par_sources_table(sources):
    """Where par came from: a row per (rule set, budget) with its deals."""
    rows = ["| rule set | par from a record solved at | deals |", "|---|---|---|"]
    for title, counts in sources:
        for budget, count in sorted(counts.items()):
            rows.append("| {} | {} | {:,} |".format(title, budget, count))
    return "\n".join(rows)


# How many of each rule set's hardest settled deals the report lists.
HARD_DEALS = 5


def hard_deals(settled):
    """The report of the deals that took the most positions to settle: for
    each (title, records) of ``settled`` (its records of any file), the
    ``HARD_DEALS`` deals whose cheapest settling record looked at the most
    positions (a count: the same on any machine), with its seconds, its
    Python and its solver version. A settling record is a win (its search
    ends there) or a proof alone (``proof_only``): a whole survey's "lost"
    counts the line it searched after its proof too."""
    rows = [
        "| rule set | deal | verdict | positions | seconds | on | solver |",
        "|---|---|---|---|---|---|---|",
    ]
    for title, records in settled:
        cheapest = {}
        for r in records:
            known = cheapest.get(r["deal"])
            settles = r["result"] == WON or (r["result"] == LOST and r.get("proof_only"))
            if settles and (known is None or r["nodes"] < known["nodes"]):
                cheapest[r["deal"]] = r
        done = sorted(cheapest.values(), key=lambda r: (-r["nodes"], r["deal"]))
        for record in done[:HARD_DEALS]:
            rows.append(
                "| {} | {} | {} | {:,} | {:.1f} | {} | {} |".format(
                    title,
                    record["deal"],
                    record["result"],
                    record["nodes"],
                    record["seconds"],
                    interpreter(record),
                    record.get("solver", 1),
                )
            )
    return "\n".join(rows)


def par_bytes(records):
    """The par file's bytes for ``records`` (deal -> record)."""
    data = bytearray(MAX_DEAL)
    for deal, record in records.items():
        if 1 <= deal <= MAX_DEAL and 0 <= record["home"] <= 104:
            data[deal - 1] = record["home"]
    return bytes(data)


def deal_ranges(deals):
    """The sorted deal numbers ``deals`` as runs: "1–1007, 7001–7100"
    (more than eight runs: their count and span)."""
    runs = []
    for deal in deals:
        if runs and deal == runs[-1][1] + 1:
            runs[-1][1] = deal
        else:
            runs.append([deal, deal])
    if len(runs) > 8:  # a census between settled deals: too many runs to read
        return "{:,} deals in {}–{}".format(len(deals), runs[0][0], runs[-1][1])
    return ", ".join("{}–{}".format(a, b) if a < b else str(a) for a, b in runs)


def by_interpreter(title, records):
    """``(title, records)`` as rows of the table, one per interpreter: a
    second solves more on PyPy, so its seconds are not CPython's (a PyPy
    row's title says so)."""
    rows = {}
    for deal, record in records.items():
        rows.setdefault(interpreter(record), {})[deal] = record
    return [
        (title if name == "CPython" else "{} ({})".format(title, name), rows[name])
        for name in sorted(rows)
    ]


def table(surveys):
    """The Markdown table: a row per (title, records) of ``surveys``."""
    rows = [
        "| rule set | deals | won | lost | unknown | win rate (95% Wilson) "
        "| median s | mean s | positions/s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for title, records in surveys:
        s = summary(records)
        rate = rate_text(s, "–")
        nodes = sum(r["nodes"] for r in records.values())
        rows.append(
            "| {} | {} | {} | {} | {} | {} | {:.2f} | {:.2f} | {:,.0f} |".format(
                title,
                deal_ranges(sorted(records)),
                s[WON],
                s[LOST],
                s[UNKNOWN],
                rate,
                s["median_seconds"],
                s["total_seconds"] / s["deals"],
                nodes / s["total_seconds"],
            )
        )
    return "\n".join(rows)


def proved(surveys):
    """What is proved of the British deals, from ``surveys`` (each deal ->
    its last record): a deal is won or lost if any of them says so (each
    verdict is a proof), unsettled if tried and not; the text says it."""
    verdicts = {}
    for records in surveys:
        for deal, record in records.items():
            if record["result"] != UNKNOWN or deal not in verdicts:
                verdicts[deal] = record["result"]
    counts = Counter(verdicts.values())
    if counts[LOST] + counts[WON] == MAX_DEAL:  # every deal settled
        if not counts[WON]:
            return "every one of the {:,} deals is proved lost".format(MAX_DEAL)
        text = "every one of the {:,} deals is settled: {:,} won, {:,} proved lost"
        return text.format(MAX_DEAL, counts[WON], counts[LOST])
    text = "{:,} of the {:,} deals proved lost, {:,} won, {:,} more tried and not yet settled"
    return text.format(counts[LOST], MAX_DEAL, counts[WON], counts[UNKNOWN])


PROVED_PAGES = ("README.md", "docs/solver.md", "docs/rules.md")

# Where each figure is said (the par files are its one source), as the file
# says it: (file from the root, pattern with one group, what fills the group).
_WORDS = "lib/british_square/words.txt"
PLACES = (
    (_WORDS, r"\|   can't win: aim ~(\d+) home", "median"),
    (_WORDS, r"\|about (\d+) of 104 home", "median"),
    (_WORDS, r"\|\[american\]  American\n\|   ([\d.]+)% can be won", "american"),
    (_WORDS, r"\|\[union\]  Union Square\n\|   ([\d.]+)% can be won", "union"),
    ("README.md", r"\| the solver wins ([\d.]+)% of deals \| the solver", "american"),
    ("README.md", r"% of deals \| the solver wins ([\d.]+)% of deals \|", "union"),
    ("docs/handheld.md", r"the solver wins ([\d.]+)% of American deals", "american"),
    ("docs/handheld.md", r"and ([\d.]+)% of Union\nSquare's", "union"),
)
TYPICAL_PAGES = ("README.md", "docs/rules.md", "docs/solver.md", "docs/handheld.md")
# How many deals the solver won of those with par (every deal, for these two).
WON_PAGES = {"american": ("docs/rules.md",), "union": ("docs/rules.md",)}


def won_percent(won, surveyed):
    """``won`` of ``surveyed`` as a percentage with the decimals it needs
    not to round up to 100: "99.9", "99.99"."""
    if won == surveyed:
        return "100"
    for places in (1, 2, 3):
        text = "{:.{}f}".format(won * 100 / surveyed, places)
        if float(text) < 100:
            break
    return text


def expectations(lib=ROOT / "lib" / "british_square"):
    """What a player reads of each rule set, from the par files in ``lib``:
    British Square's cards home on a typical deal (the median par, its range
    and the deals it is over), and the share of American and Union Square
    deals the solver won."""
    figures = {}
    for name in ("british", "american", "union"):
        par = [value for value in (Path(lib) / "par_{}.bin".format(name)).read_bytes() if value]
        if name == "british":
            figures.update(median=int(statistics.median(par)), low=min(par), high=max(par))
            figures["deals"] = len(par)
        else:
            won = sum(1 for value in par if value == 104)
            figures[name] = won_percent(won, len(par))
            figures["won-" + name] = "{} of all {} deals".format(spaced(won), spaced(len(par)))
    typical = "about {median} cards home ({low} to {high}, over the {deals:,} deals with par)"
    figures["typical"] = typical.format(**figures)
    return figures


def spaced(number):
    """``number`` with a space between thousands, as the rules page writes it."""
    return "{:,}".format(number).replace(",", " ")


def write_expectations(figures, root=ROOT):
    """Put ``figures`` in every place that says them; the places found in each file
    (``figures["proved"]``, if there, between the proved marks)."""
    for path, pattern, key in PLACES:
        page = Path(root) / path
        value = str(figures[key])
        text, found = re.subn(pattern, lambda m, value=value: _filled(m, value), page.read_text())
        if not found:
            raise SystemExit("{}: no place for {} ({})".format(path, key, pattern))
        page.write_text(text)
    marked = [(TYPICAL_PAGES, "typical")]
    marked += [(pages, "won-" + name) for name, pages in WON_PAGES.items()]
    if "proved" in figures:
        marked.append((PROVED_PAGES, "proved"))
    for pages, key in marked:
        for path in pages:
            try:
                write_marked(Path(root) / path, key, figures[key])
            except ValueError as error:
                raise SystemExit(str(error)) from None


def _filled(match, value):
    """``match``'s text with its group replaced by ``value``."""
    whole, start = match.group(0), match.start(0)
    return whole[: match.start(1) - start] + value + whole[match.end(1) - start :]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--surveys", default=str(ROOT / "docs" / "survey"))
    parser.add_argument("--lib", default=str(ROOT / "lib" / "british_square"))
    parser.add_argument("--plot", default=str(ROOT / "docs" / "survey-home.png"))
    parser.add_argument("--write-docs", action="store_true", help="put the table in docs/solver.md")
    args = parser.parse_args(argv)
    by_rules = {}
    surveys = []
    sources = []  # per rule set: how many deals' par came from each budget
    settled = []  # per rule set: the records that settled a deal (hard_deals)
    british_proved = proved(())
    for name in RULE_NAMES:
        title = RULE_TITLES[RULE_NAMES.index(name)]
        paths = [str(Path(args.surveys) / "{}{}.jsonl".format(name, s)) for s in ("", "-par")]
        records, quick = (read_results(path, name) for path in paths)
        proofs = read_results(str(Path(args.surveys) / "{}-proof.jsonl".format(name)), name)
        for suffix, found in (("", records), (", for par", quick), (", proofs", proofs)):
            if found:
                surveys += by_interpreter(title + suffix, found)
        if name == "british":
            british_proved = proved((records, quick, proofs))
        settled.append((title, [r for found in (records, proofs) for r in found.values()]))
        # par: the longest line of any record, of any solver version
        kept = []
        for path, suffix in zip(paths, ("", "-par")):
            lines = read_results(path, name, keep="best")
            for record in lines.values():
                record["par_budget"] = budget_text(record, name + suffix)
            kept.append(lines)
        best = best_of(*kept)
        if best:
            by_rules[name] = best
            (Path(args.lib) / "par_{}.bin".format(name)).write_bytes(par_bytes(best))
            sources.append((title, Counter(record["par_budget"] for record in best.values())))
    if not by_rules:
        parser.error("no survey results in {!r}".format(args.surveys))
    plot_distribution(by_rules, args.plot)
    british = "British Square, every deal: " + british_proved + "."
    hardest = "The deals that took the most positions to settle, a win or a proof alone "
    hardest += "(`HARD_DEALS` a rule set):\n\n"
    hardest += hard_deals(settled)
    parts = (table(surveys), british, unknown_text(surveys), par_sources_table(sources), hardest)
    text = "\n\n".join(part for part in parts if part)  # no deal unknown: no line for them
    print(text)
    if args.write_docs:
        page = ROOT / "docs" / "solver.md"
        before, start, rest = page.read_text().partition(TABLE_START)
        _, end, after = rest.partition(TABLE_END)
        if not (start and end):
            parser.error("docs/solver.md has no {} ... {} marks".format(TABLE_START, TABLE_END))
        page.write_text(before + start + "\n" + text + "\n" + end + after)
        write_expectations(dict(expectations(args.lib), proved=british_proved))
    return 0


if __name__ == "__main__":
    sys.exit(main())
