"""The survey: results appended per deal and resumed, the Wilson interval,
the plot, local processes and a Dask cluster."""

import json
import math
import os
import resource
import signal
import subprocess
import sys
import time

import pytest
from refusals import refused

from british_square.desktop.notation import parse_move
from british_square.desktop.solver import ORDERS, PLAIN_LINE_NODES, SOLVER_VERSION, solve_plain
from british_square.desktop.solver.beam import BEAM_FIRST_WIDTH
from british_square.desktop.survey import (
    parse_range,
    plot_distribution,
    read_results,
    run_survey,
    solve_deal,
    solver_version,
    summary,
    wilson,
)
from british_square.engine import Game
from british_square.piles import BRITISH


def wilson_by_definition(successes, n, z=1.959963984540054):
    """The interval's ends found as the p where the score test is at z: the
    roots of (s/n - p)**2 = z**2 p (1 - p) / n, by bisection."""
    phat = successes / n

    def excess(p):
        return (phat - p) ** 2 - z * z * p * (1 - p) / n

    def root(lo, hi):
        for _ in range(200):
            mid = (lo + hi) / 2
            if (excess(lo) > 0) == (excess(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low = 0.0 if successes == 0 else root(0.0, phat)
    high = 1.0 if successes == n else root(phat, 1.0)
    return low, high


@pytest.mark.parametrize("successes,n", [(0, 10), (8, 10), (10, 10), (995, 1000), (17, 40)])
def test_wilson_matches_its_definition(successes, n):
    low, high = wilson(successes, n)
    want_low, want_high = wilson_by_definition(successes, n)
    assert math.isclose(low, want_low, abs_tol=1e-9)
    assert math.isclose(high, want_high, abs_tol=1e-9)


def test_summary_counts_unknowns_as_neither():
    records = {
        1: {"result": "won", "seconds": 1.0},
        2: {"result": "lost", "seconds": 2.0},
        3: {"result": "unknown", "seconds": 3.0},
        4: {"result": "won", "seconds": 0.5},
    }
    s = summary(records)
    assert (s["won"], s["lost"], s["unknown"]) == (2, 1, 1)
    assert s["win_rate_low"] == 0.5 and s["win_rate_high"] == 0.75
    assert s["wilson_low"] == wilson(2, 4)[0] and s["wilson_high"] == wilson(3, 4)[1]


def test_parse_range():
    assert parse_range("3-5") == range(3, 6)
    assert parse_range("7") == range(7, 8)
    for bad in ("5-3", "0-2", "1-32000", "a-b", "1-", "-1"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_a_survey_appends_and_resumes(tmp_path):
    out = tmp_path / "union.jsonl"
    s = run_survey("union", range(1, 3), str(out), seconds=5, jobs=1, progress=False)
    assert s["deals"] == 2 and s["won"] == 2
    lines = out.read_text().splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [1, 2]
    record = json.loads(lines[0])
    assert set(record) == {
        "deal",
        "rules",
        "result",
        "home",
        "moves",
        "nodes",
        "seconds",
        "solver",
        "budget",
        "plain_nodes",
        "python",
    }
    assert record["solver"] == SOLVER_VERSION and record["budget"] == 5
    assert record["python"].startswith(("CPython 3.", "PyPy 3."))
    assert record["plain_nodes"] == 0  # won: no plain search for a better line
    # killed mid-write: the torn line is skipped, the deals done are kept
    with open(out, "a") as handle:
        handle.write('{"deal": 3, "rules": "uni')
    assert sorted(read_results(str(out), "union")) == [1, 2]
    s = run_survey("union", range(1, 4), str(out), seconds=5, jobs=1, progress=False)
    assert s["deals"] == 3
    deals = [r["deal"] for r in read_results(str(out), "union").values()]
    assert sorted(deals) == [1, 2, 3]
    assert out.read_text().count('"deal": 1,') == 1  # deal 1 was not solved again


def test_redo_older_solves_again_only_what_an_older_solver_solved(tmp_path):
    out = tmp_path / "union.jsonl"
    old = {"deal": 1, "rules": "union", "result": "unknown", "home": 9, "nodes": 5, "seconds": 1.0}
    out.write_text(json.dumps(old) + "\n")
    run_survey("union", range(1, 2), str(out), seconds=5, jobs=1, progress=False)
    assert len(out.read_text().splitlines()) == 1  # without redo_older, kept
    s = run_survey(
        "union", range(1, 2), str(out), seconds=5, jobs=1, progress=False, redo_older=True
    )
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [solver_version(r) for r in lines] == [1, SOLVER_VERSION]  # appended, the old kept
    assert s["won"] == 1 and read_results(str(out))[1]["result"] == "won"  # the last line counts
    run_survey("union", range(1, 2), str(out), seconds=5, jobs=1, progress=False, redo_older=True)
    assert len(out.read_text().splitlines()) == 2  # the current version's record stays


def test_redo_unknown_solves_again_only_what_an_older_solver_left_unknown(tmp_path):
    out = tmp_path / "union.jsonl"
    old = {"rules": "union", "home": 9, "nodes": 5, "seconds": 1.0, "solver": 1}
    records = [dict(old, deal=1, result="unknown"), dict(old, deal=2, result="lost")]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    s = run_survey(
        "union", range(1, 3), str(out), seconds=5, jobs=1, progress=False, redo_unknown=True
    )
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], solver_version(r)) for r in lines] == [(1, 1), (2, 1), (1, SOLVER_VERSION)]
    assert s["won"] == 1 and s["lost"] == 1  # deal 2's old verdict stands
    run_survey("union", range(1, 3), str(out), seconds=5, jobs=1, progress=False, redo_unknown=True)
    assert len(out.read_text().splitlines()) == 3
    # an unknown of this solver is solved again only with a bigger budget
    out.write_text(
        json.dumps(dict(old, deal=1, result="unknown", solver=SOLVER_VERSION, budget=2)) + "\n"
    )
    run_survey("union", range(1, 2), str(out), seconds=2, jobs=1, progress=False, redo_unknown=True)
    assert len(out.read_text().splitlines()) == 1
    run_survey("union", range(1, 2), str(out), seconds=3, jobs=1, progress=False, redo_unknown=True)
    assert read_results(str(out))[1]["budget"] == 3


def test_a_record_of_a_solver_version_not_yet_made_is_refused(tmp_path):
    out = tmp_path / "union.jsonl"
    record = {"deal": 1, "rules": "union", "result": "won", "home": 104, "nodes": 5, "seconds": 1.0}
    for version in (SOLVER_VERSION + 1, 0, "2", 1.0):
        out.write_text(json.dumps(dict(record, solver=version)) + "\n")
        with pytest.raises(ValueError, match="line 1: 'solver' is not a version"):
            read_results(str(out))


def test_a_deal_not_won_keeps_the_best_plain_line_of_every_order():
    # deal 12102 (issue 35): the plain search brings 18 cards home in the
    # solver's order and 25 in the engine's, each in PLAIN_LINE_NODES
    # positions (measured), and the solver's own line at 1 s fewer; par is
    # at least the best plain line, and the line is one the engine plays
    record = solve_deal("british", 12102, 1.0)
    game = Game.new_deal(12102, BRITISH)
    plains = [solve_plain(game, math.inf, PLAIN_LINE_NODES, order) for order in ORDERS]
    assert record["plain_nodes"] == sum(plain.nodes for plain in plains)
    assert record["home"] >= max(plain.home for plain in plains) >= 25
    for token in record["moves"].split():
        game.play(parse_move(token, game))
    assert game.score() == record["home"]


def test_a_proof_only_record_has_no_line_search(tmp_path):
    record = solve_deal("british", 12001, 60.0, proof_only=True)
    assert record["result"] == "lost" and record["proof_only"] is True
    assert record["plain_nodes"] == 0 and record["nodes"] < 1000
    # and a survey skips the deals another results file settled
    settled = tmp_path / "british.jsonl"
    settled.write_text(json.dumps(record) + "\n")
    out = tmp_path / "british-proof.jsonl"
    s = run_survey(
        "british", range(12001, 12002), str(out), 60, 1, progress=False, settled_in=[str(settled)]
    )
    assert s["deals"] == 0 and out.read_text() == ""


def test_a_survey_on_local_processes(tmp_path):
    out = tmp_path / "union.jsonl"
    s = run_survey("union", range(4, 6), str(out), seconds=5, jobs=2, progress=False)
    assert s["deals"] == 2


def test_a_survey_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "union.jsonl"
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        s = run_survey("union", range(6, 8), str(out), seconds=5, scheduler=client, progress=False)
    assert s["deals"] == 2
    assert sorted(read_results(str(out))) == [6, 7]


def test_the_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    records = {
        d: {"result": r, "home": h, "seconds": 1.0}
        for d, r, h in [(1, "won", 104), (2, "lost", 30), (3, "unknown", 12)]
    }
    path = tmp_path / "home.png"
    plot_distribution({"british": records, "union": {1: dict(records[1])}}, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_survey_command(tmp_path):
    out = tmp_path / "r.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "british_square",
            "survey",
            "--rules",
            "union",
            "--deals",
            "8-9",
            "--jobs",
            "1",
            "--budget",
            "5",
            "--out",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("union: 2 deals, 2 won, 0 lost, 0 unknown; win rate 100.0%")
    bad = subprocess.run(
        [sys.executable, "-m", "british_square", "survey", "--deals", "9-8"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error:")


def test_par_takes_the_best_of_the_survey_and_the_quicker_run_for_par(tmp_path):
    import json
    import subprocess
    import sys

    from conftest import ROOT

    def record(deal, result, home):
        return {"deal": deal, "rules": "british", "result": result, "home": home,
                "moves": [], "nodes": 10, "seconds": 1.0}  # fmt: skip

    surveys = tmp_path / "survey"
    surveys.mkdir()
    (surveys / "british.jsonl").write_text(
        "\n".join(json.dumps(r) for r in (record(1, "unknown", 12), record(2, "lost", 9)))
    )
    (surveys / "british-par.jsonl").write_text(
        "\n".join(json.dumps(r) for r in (record(1, "unknown", 15), record(2, "unknown", 7),
                                          record(5, "unknown", 20),
                                          dict(record(1, "lost", 13), solver=2)))
    )  # fmt: skip
    tool = [sys.executable, str(ROOT / "tools" / "publish_survey.py"), "--surveys", str(surveys)]
    out = subprocess.run(
        tool + ["--lib", str(tmp_path), "--plot", str(tmp_path / "p.png")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    par = (tmp_path / "par_british.bin").read_bytes()
    # the best line of either file and of any solver version (deal 1's 15,
    # not its newer 13); a proved loss's exact 9
    assert par[:5] == bytes((15, 9, 0, 0, 20))
    assert "| British Square | 1–2 |" in out
    assert "| British Square, for par | 1–2, 5 | 0 | 1 | 2 |" in out  # deal 1's newer verdict
    # proofs counted on PyPy are a row of their own: its seconds are not CPython's
    pypy = "PyPy 3.9.16"
    (surveys / "british-proof.jsonl").write_text(
        "\n".join(json.dumps(r) for r in (record(3, "lost", 2),
                                          dict(record(4, "lost", 0), python=pypy),
                                          dict(record(6, "unknown", 5), python=pypy)))
    )  # fmt: skip
    out = subprocess.run(
        tool + ["--lib", str(tmp_path), "--plot", str(tmp_path / "p.png")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "| British Square, proofs | 3 | 0 | 1 | 0 |" in out
    assert "| British Square, proofs (PyPy) | 4, 6 | 0 | 1 | 1 |" in out
    assert "every deal: 4 of the 31,999 deals proved lost, 0 won, 2 more tried" in out
    # par from a line found on PyPy says so: its 2 s are worth more
    (surveys / "british-par.jsonl").write_text(
        json.dumps(dict(record(7, "lost", 30), budget=2.0, plain_nodes=10, python=pypy))
    )
    out = subprocess.run(
        tool + ["--lib", str(tmp_path), "--plot", str(tmp_path / "p.png")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "| British Square | 2 s on PyPy + plain line | 1 |" in out


def survey(*args, timeout=60):
    """The survey command, as a user runs it, in at most 1 GB of memory (a
    survey that read a file without end would take the machine's)."""
    return subprocess.run(
        [sys.executable, "-m", "british_square", "survey", "--rules", "union", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)),
    )


def odd_file(kind, path):
    """What to give a command for a file that cannot be one: ``path`` made
    the ``kind`` of file it names ("a folder", "a FIFO"), or that device
    ("/dev/full"; a skip where there is none)."""
    if kind.startswith("/dev/"):
        if not os.path.exists(kind):
            pytest.skip("needs " + kind)
        return kind
    if kind == "a folder":
        path.mkdir()
    else:
        assert kind == "a FIFO", kind
        os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "kind, named",
    [
        ("a folder", "is not a regular file"),
        ("a missing folder", "there is no folder"),
        ("/dev/full", "'/dev/full' is not a regular file"),
        ("a FIFO", "is not a regular file"),  # opened to append, it would wait for ever
        ("a text file", "line 1: not a results record"),
    ],
)
def test_a_results_file_that_cannot_be_one_is_refused_before_any_deal(tmp_path, kind, named):
    out = tmp_path / "r.jsonl"
    if kind == "a missing folder":
        out = tmp_path / "missing" / "r.jsonl"
    elif kind == "a text file":
        out.write_text("# my notes\nnot a survey\n")
    else:
        out = odd_file(kind, out)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = survey("--deals", "1-2", "--budget", "30", "--jobs", "1", "--quiet", "--out", out)
    assert refused(result, named), result
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if kind == "a text file":
        assert out.read_text() == "# my notes\nnot a survey\n"


UNSETTLING = {
    "missing": "cannot read {!r}: No such file or directory",
    "a folder": "{!r} is not a regular file",
    "/dev/zero": "'/dev/zero' is not a regular file",  # read, it never ends
    "a FIFO": "{!r} is not a regular file",  # read, it waits for a writer for ever
    "a line of 2 MB": "{!r} line 1: over 1048576 bytes",
}


@pytest.mark.parametrize("kind", sorted(UNSETTLING))
def test_a_settled_in_file_that_cannot_be_one_is_refused_before_any_deal(tmp_path, kind):
    """Issue 50.10: --settled-in is checked as --out is, before any deal: a
    missing file is an error, not no deals settled."""
    named = UNSETTLING[kind]
    settled = tmp_path / "settled.jsonl"
    if kind == "a line of 2 MB":
        settled.write_bytes(b"{" + b" " * (2 << 20))
    elif kind != "missing":
        settled = odd_file(kind, settled)
    out = tmp_path / "r.jsonl"
    result = survey("--deals", "1-2", "--budget", "30", "--jobs", "1", "--quiet",
                    "--out", out, "--settled-in", settled, timeout=30)  # fmt: skip
    assert refused(result, named.format(str(settled))), result
    assert not out.exists()


def test_a_plot_not_named_png_is_refused_before_any_deal(tmp_path):
    """Issue 50.10: matplotlib picks the format by the name, so x.foo failed
    only once the whole survey had run."""
    out = tmp_path / "r.jsonl"
    result = survey("--deals", "1-2", "--budget", "30", "--jobs", "1", "--quiet",
                    "--out", out, "--plot", tmp_path / "x.foo")  # fmt: skip
    assert refused(result, "--plot {!r}: the plot is a PNG file".format(str(tmp_path / "x.foo")))
    assert not out.exists() and not (tmp_path / "x.foo").exists()


@pytest.mark.parametrize(
    "plot, named",
    [
        ("file/home.png", "there is no folder 'file'"),
        ("folder", "is not a regular file"),
        ("notes.txt", "is not a PNG file: left as it is"),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_before_any_deal(tmp_path, plot, named):
    (tmp_path / "file").write_text("a file")
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("my notes")
    out = tmp_path / "r.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "british_square", "survey", "--rules", "union", "--deals", "1-2",
         "--budget", "30", "--jobs", "1", "--quiet", "--out", str(out), "--plot", plot],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert refused(result, named), result
    assert not out.exists() and (tmp_path / "notes.txt").read_text() == "my notes"


@pytest.mark.parametrize("how", ["new", "empty", "a symbolic link", "a hard link"])
def test_the_plot_and_the_results_as_one_file_are_refused_before_any_deal(tmp_path, how):
    # issue 37: each passed its own check (new, or empty), and the plot
    # overwrote the results
    out = tmp_path / "r.jsonl"
    plot = out
    if how != "new":
        out.write_bytes(b"")
    if how == "a symbolic link":
        plot = tmp_path / "home.png"
        plot.symlink_to(out.name)
    elif how == "a hard link":
        plot = tmp_path / "home.png"
        os.link(out, plot)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = survey("--deals", "1", "--budget", "30", "--jobs", "1", "--quiet",
                    "--out", out, "--plot", plot)  # fmt: skip
    assert refused(result, "--out and --plot are one file, {!r}".format(str(plot))), result
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert how == "new" or out.read_bytes() == b""


def test_a_dangling_link_to_the_results_as_the_plot_is_refused(tmp_path):
    plot = tmp_path / "home.png"
    plot.symlink_to("r.jsonl")  # the results file, not made yet
    result = survey("--deals", "1", "--budget", "30", "--jobs", "1", "--quiet",
                    "--out", tmp_path / "r.jsonl", "--plot", plot)  # fmt: skip
    assert refused(result, "are one file"), result
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home.png"]


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_a_path_with_a_line_break_is_named_in_one_quoted_line(tmp_path, option):
    # issue 37: the error line ran over two
    bad = str(tmp_path / "no\nfolder" / "r.png")
    paths = {"--out": str(tmp_path / "r.jsonl"), "--plot": str(tmp_path / "home.png")}
    paths[option] = bad
    result = survey("--deals", "1", "--budget", "30", "--jobs", "1", "--quiet",
                    "--out", paths["--out"], "--plot", paths["--plot"])  # fmt: skip
    assert refused(result, repr(bad)), result


def record_line(**changes):
    record = {"deal": 1, "rules": "union", "result": "won", "home": 104, "moves": "",
              "nodes": 10, "seconds": 1.5}  # fmt: skip
    record.update(changes)
    return json.dumps({k: v for k, v in record.items() if v is not None})


@pytest.mark.parametrize(
    "line, named",
    [
        (record_line(seconds=None), "'seconds'"),
        (record_line(home=None), "'home'"),
        (record_line(deal=[1]), "'deal'"),
        (record_line(deal=True), "'deal'"),
        (record_line(deal=40000), "'deal'"),
        (record_line(home=105), "'home'"),
        (record_line(seconds=-1), "'seconds'"),
        (record_line(seconds="1"), "'seconds'"),
        (record_line(nodes=1.5), "'nodes'"),
        (record_line(rules="klondike"), "'rules'"),
        (record_line(result="draw"), "'result'"),
        ("[1, 2]", "not a results record"),
        ('{"deal": ' + "[" * 100000 + "]" * 100000 + "}", "not a results record: JSON nested"),
        ('{"deal": 1' + "0" * 5000 + "}", "not a results record"),
    ],
)
def test_a_damaged_results_line_is_named_by_its_number(tmp_path, line, named):
    out = tmp_path / "r.jsonl"
    text = record_line(deal=2) + "\n" + line + "\n" + record_line(deal=3) + "\n"
    out.write_text(text)
    with pytest.raises(ValueError, match="r.jsonl' line 2: " + named):
        read_results(str(out))
    result = survey("--deals", "1-4", "--budget", "30", "--jobs", "1", "--quiet", "--out", out)
    assert refused(result, "line 2: " + named[:20]), result
    assert out.read_text() == text


def test_a_results_file_that_is_not_utf8_is_named_by_its_line(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_bytes(record_line().encode() + b"\n" + b'{"deal": "\xff"}\n')
    with pytest.raises(ValueError, match="line 2: not UTF-8 text"):
        read_results(str(out))


def test_a_survey_starts_no_more_workers_than_deals(tmp_path, monkeypatch):
    import multiprocessing

    started = []

    class Pool:
        """A pool that says how many workers it was asked for, and runs in line."""

        def __init__(self, processes, initializer=None):
            started.append(processes)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def imap_unordered(self, function, tasks):
            return map(function, tasks)

    context = type("Context", (), {"Pool": Pool})

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: context)
    out = tmp_path / "union.jsonl"
    s = run_survey("union", range(1, 3), str(out), seconds=5, jobs=8, progress=False)
    assert s["deals"] == 2 and started == [2]
    s = run_survey("union", range(1, 3), str(out), seconds=5, jobs=8, progress=False)
    assert s["deals"] == 2 and started == [2]  # nothing left to solve: no pool at all
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    run_survey("union", range(3, 5), str(out), seconds=5, progress=False)  # --jobs 0: a core each
    assert started == [2, 2]


@pytest.mark.parametrize("jobs", ["\uff13", " 3", "1_0", "-1", "1025", "03"])
def test_jobs_is_ascii_digits(jobs, tmp_path):
    result = survey("--deals", "1", "--jobs", jobs, "--quiet", "--out", tmp_path / "r.jsonl")
    assert refused(result, "--jobs"), result


def test_ctrl_c_stops_a_survey_and_its_workers_quietly(tmp_path):
    """As a terminal sends it: to the survey and its workers at once."""
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "british_square", "survey", "--deals", "1-40", "--jobs", "2",
         "--budget", "600", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        time.sleep(4)  # the workers are under way (or starting: as quiet)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130 and stdout == "" and stderr == ""
    end = time.monotonic() + 20
    while time.monotonic() < end:  # no worker left behind in its group
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("workers left running")


def test_what_to_expect_of_each_rule_set_is_one_figure_everywhere(tmp_path):
    """British Square's typical cards home and the others' win rates come
    from the par files; every place a player reads them says the same."""
    import shutil

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from publish_survey import (
        PLACES,
        PROVED_PAGES,
        TYPICAL_PAGES,
        WON_PAGES,
        expectations,
        proved,
        write_expectations,
    )

    figures = expectations()
    # (the median moves as the census gives more deals par: 16, then 15)
    assert 10 <= figures["median"] <= 20
    assert figures["american"] == figures["union"] == "100"
    assert figures["won-american"] == "31 999 of all 31 999 deals"
    # what is proved of the British deals, from the census's results (issue 50.5:
    # rules.md said deals 1-1759 where the README said all 31 999)
    surveys = ROOT / "docs" / "survey"
    streams = [surveys / "british{}.jsonl".format(s) for s in ("", "-par", "-proof")]
    figures["proved"] = proved([read_results(str(path), "british") for path in streams])
    files = {path for path, _, _ in PLACES} | set(TYPICAL_PAGES) | set(PROVED_PAGES)
    files |= {page for pages in WON_PAGES.values() for page in pages}
    for path in files:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    write_expectations(figures, tmp_path)  # writing them again changes nothing
    for path in files:
        assert (tmp_path / path).read_text() == (ROOT / path).read_text(), path
    rules_british = (ROOT / "lib/british_square/words.txt").read_text()
    assert "|about {} of 104 home.".format(figures["median"]) in rules_british
    assert "|   can't win: aim ~{} home".format(figures["median"]) in rules_british


def test_what_is_proved_of_british_deals_says_when_every_one_is():
    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from publish_survey import proved

    lost = {deal: {"result": "lost"} for deal in range(1, 32000)}
    assert proved([lost]) == "every one of the 31,999 deals is proved lost"
    open_one = {**lost, 5: {"result": "unknown"}}
    assert proved([open_one]) == (
        "31,998 of the 31,999 deals proved lost, 0 won, 1 more tried and not yet settled"
    )
    # a verdict in any file settles the deal
    assert proved([open_one, {5: {"result": "lost"}}]) == proved([lost])
    won_one = {**lost, 7: {"result": "won"}}
    assert proved([won_one]) == (
        "every one of the 31,999 deals is settled: 1 won, 31,998 proved lost"
    )


def test_the_hard_deal_report_lists_each_deals_cheapest_settling_record_by_positions():
    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from publish_survey import HARD_DEALS, hard_deals

    def record(deal, result, nodes, **more):
        found = {"deal": deal, "result": result, "nodes": nodes, "seconds": nodes / 1000}
        return dict(dict(found, proof_only=True), **more)

    records = [record(d, "lost", 1000 * d) for d in range(1, 10)]
    records += [
        record(9, "lost", 500),  # settled again, cheaper: its cost is this one's
        record(50, "unknown", 10**9),  # not settled: never listed
        record(8, "won", 8000),  # the same positions as deal 8's loss: listed once
        record(60, "lost", 10**9, proof_only=False),  # its count has a line search in it
    ]
    lines = hard_deals([("British Square", records)]).splitlines()[2:]
    deals = [int(line.split("|")[2]) for line in lines]
    assert deals == [8, 7, 6, 5, 4][:HARD_DEALS]
    assert "| 8,000 | 8.0 | CPython | 1 |" in lines[0]


def test_every_british_deal_proved_lost_has_a_versioned_solvers_proof():
    # a record of solver version 1 says neither its budget nor its solver:
    # no British "lost" rests on one alone (issue 49.3)
    from conftest import ROOT

    lost, proved = set(), set()
    for name in ("british", "british-par", "british-proof"):
        path = ROOT / "docs" / "survey" / (name + ".jsonl")
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["result"] == "lost":
                lost.add(record["deal"])
                if solver_version(record) >= 2:
                    proved.add(record["deal"])
    assert lost and sorted(lost - proved) == []


def test_a_records_budget_says_whether_it_was_positions_or_seconds():
    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from publish_survey import budget_text

    counted = {"budget": 600.0, "budget_nodes": 100000, "plain_nodes": 5, "python": "PyPy 7"}
    assert budget_text(counted, "union") == "100,000 positions + plain line"
    assert budget_text({"budget": 60.0, "python": "PyPy 7"}, "british") == "60 s on PyPy"


def test_the_census_script_parses_and_names_its_streams():
    from conftest import ROOT

    script = str(ROOT / "tools" / "census.sh")
    assert subprocess.run(["sh", "-n", script]).returncode == 0
    run = subprocess.run(["sh", script], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.startswith("usage: tools/census.sh british-proof|british-par|")


def test_what_solver_md_says_of_the_deals_settled_late_is_what_their_records_say():
    # the prose after the results table quotes records by hand: each figure
    # is held to its record here (issue 49.2)
    from conftest import ROOT, grouped

    text = " ".join((ROOT / "docs" / "solver.md").read_text().split())
    records = {}
    for name in ("american", "union"):
        for line in (ROOT / "docs" / "survey" / (name + ".jsonl")).read_text().splitlines():
            record = json.loads(line)
            records.setdefault((name, record["deal"]), []).append(record)

    def by_budget(name, deal, budget_nodes, solver=None):
        found = [
            r
            for r in records[(name, deal)]
            if r.get("budget_nodes") == budget_nodes
            and (solver is None or r.get("solver", 1) == solver)
        ]
        assert found, (name, deal, budget_nodes)
        return found[-1]

    for deal in (915, 8394, 29701):
        won = records[("american", deal)][-1]
        assert won["result"] == "won" and grouped(won["nodes"]) in text
    for name, deal in (("union", 364), ("union", 5632)):
        assert by_budget(name, deal, 5000000)["result"] == "won"
    at_two = by_budget("american", 5632, 2000000, 6)
    at_twenty = by_budget("american", 5632, 20000000, 6)
    at_hundred = by_budget("american", 5632, 100000000, 6)
    assert at_two["result"] == at_twenty["result"] == at_hundred["result"] == "unknown"
    assert "at 2 000 000 positions it stalls at {} cards home".format(at_two["home"]) in text
    assert (
        "at 20 000 000 positions ({} s of CPython) at {},".format(
            grouped(round(at_twenty["seconds"])), at_twenty["home"]
        )
        in text
    )
    assert (
        "at 100 000 000 positions ({} s of PyPy) at {}.".format(
            grouped(round(at_hundred["seconds"])), at_hundred["home"]
        )
        in text
    )
    # version 7's beam searches won it: the deal's last record
    won = records[("american", 5632)][-1]
    assert won["result"] == "won" and won["solver"] == 7 and won["budget_nodes"] == 20000000
    assert (
        "won it at 20 000 000 positions, in {} ({} s of PyPy)".format(
            grouped(won["nodes"]), round(won["seconds"])
        )
        in text
    )
    assert "a line of {} moves".format(len(won["moves"].split())) in text
    assert "first search keeps {} positions a layer".format(grouped(BEAM_FIRST_WIDTH)) in text
