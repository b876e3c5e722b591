"""Every shell example in README.md and docs/*.md runs here.

The examples are the lines of the pages' ```sh blocks (comments stripped).
Each line must match one of ``EXAMPLES`` below, whose check runs it (or, for
``make test``, checks that CI runs it) and checks what the README says it
does; a line that matches none fails ``test_every_shell_example_is_run``, so
a new example cannot go untested.
"""

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT
from drives import make_compiler, make_drive, snapshot

import british_square
from british_square.desktop.games import legal_moves
from british_square.desktop.notation import (
    parse_move,
    parse_position,
    position_dict,
    position_text,
    rules_from_name,
)
from british_square.engine import Game
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_target, move_text

README = ROOT / "README.md"
# The front door and the pages behind it: every shell example in them is run.
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MOST_LINES = 250
VENV_BIN = Path(sys.executable).parent  # the venv pytest runs in
FENCE = "```"


def strip_comment(line):
    """``line`` without a trailing ``# comment`` (a ``#`` outside quotes, after a space)."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def shell_examples(text):
    """(line number, command) for every line of every ```sh block in ``text``."""
    examples = []
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if not in_block:
            in_block = line.strip() == FENCE + "sh"
        elif line.strip() == FENCE:
            in_block = False
        elif strip_comment(line):
            examples.append((number, strip_comment(line)))
    return examples


def run(command, env=None, **kwargs):
    """``command`` through bash in the repository, with the venv first on PATH."""
    run_env = dict(os.environ, PATH=str(VENV_BIN) + os.pathsep + os.environ["PATH"])
    # as typed at a shell: not a sub-make of `make test ARGS=...`, whose
    # variables make would pass on to the example's `make`
    run_env.update(MAKEFLAGS=None, MFLAGS=None, MAKELEVEL=None, ARGS=None)
    run_env.update(env or {})
    for name in [name for name, value in run_env.items() if value is None]:
        del run_env[name]
    return subprocess.run(
        ["bash", "-c", command],
        cwd=kwargs.pop("cwd", ROOT),
        env=run_env,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


def succeeded(result):
    assert result.returncode == 0, "exit {}:\n{}{}".format(
        result.returncode, result.stdout, result.stderr
    )
    return result.stdout


# ------------------------------------------------------------- the checks


@contextlib.contextmanager
def set_aside(path, tmp_path):
    """Around an example that writes ``path`` in the repository: someone's
    earlier file there is put back afterwards, and a folder the example made
    for it is removed."""
    had_folder = path.parent.exists()
    kept = tmp_path / ("kept-" + path.name)
    if path.exists():
        shutil.move(path, kept)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
        if kept.exists():
            shutil.move(kept, path)
        elif not had_folder:
            shutil.rmtree(path.parent, ignore_errors=True)


def check_make_play(command, match, tmp_path):
    """No screen: plays headless, writes shots/play.png and exits."""
    with set_aside(ROOT / "shots" / "play.png", tmp_path) as shot:
        succeeded(run(command, env={"DISPLAY": None, "WAYLAND_DISPLAY": None}))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def check_make_bundle(command, match, tmp_path):
    """Writes dist/british-square-VERSION.zip (with a stand-in mpy-cross): a
    folder per CircuitPython major version, README.txt beside them."""
    name = "british-square-{}.zip".format(british_square.__version__)
    with set_aside(ROOT / "dist" / name, tmp_path) as bundle:
        compiler = make_compiler(tmp_path / "cp9")
        succeeded(run(command, env={"MPY_CROSS": str(compiler)}))
        with zipfile.ZipFile(bundle) as zf:
            folders = {name.split("/")[0] for name in zf.namelist()}
        assert folders == {"README.txt", "CircuitPython 9.x", "CircuitPython 10.x"}


def ci_run_with_fake_make(tmp_path):
    """Run .ci/run with a ``make`` that only records its arguments and the VM
    variables (running the suite from inside itself would never end)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    record = tmp_path / "make-calls"
    fake = bin_dir / "make"
    fake.write_text(
        '#!/bin/sh\necho "$* | ${CIRCUITPYTHON_VM:-} | ${MPY_CROSS:-}" >> "%s"\n' % record
    )
    fake.chmod(0o755)
    env = {"PATH": "{}{}{}".format(bin_dir, os.pathsep, os.environ["PATH"])}
    ci = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run")],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    succeeded(ci)
    calls = [line.split(" | ") for line in record.read_text().splitlines()]
    return ci.stdout, calls


# The tests the commands below run as they are written (the whole suite would
# run inside itself): the VM tier's plumbing, which starts the VM and
# mpy-cross from other folders.
VM_PROBE = "tests/test_vm_plumbing.py"


def check_make_test(command, match, tmp_path):
    """What CI runs: .ci/run calls ``make test`` (and nothing else). Run as
    written, with no VM named, it says at the end how many tests of the VM
    tier it skipped and where to read how to run them."""
    _out, calls = ci_run_with_fake_make(tmp_path)
    assert [call[0] for call in calls] == ["test"]
    unset = {"CIRCUITPYTHON_VM": None, "MPY_CROSS": None}
    out = succeeded(run('{} ARGS="-q {}"'.format(command, VM_PROBE), env=unset))
    said = r"^2 tests of the CircuitPython VM tier skipped: .*docs/testing\.md"
    assert re.search(said, out, re.M), out


def check_make_test_on_the_vm(command, match, tmp_path):
    """CI runs ``make test`` with the VM variables the README names, when
    ../shared/vm is there (and says it skips the VM tier otherwise). Run as
    written from the repository's folder, the relative paths hold wherever
    the tests start the VM and mpy-cross."""
    out, calls = ci_run_with_fake_make(tmp_path)
    assert [call[0] for call in calls] == ["test"]
    vm, mpy_cross = (ROOT / match["vm"]).resolve(), (ROOT / match["mpy_cross"]).resolve()
    if not vm.exists():
        assert "the VM tier will be skipped" in out
        pytest.skip("no {} beside the repository: the command cannot run here".format(match["vm"]))
    assert [Path(path).resolve() for path in calls[0][1:]] == [vm, mpy_cross]
    out = succeeded(run('{} ARGS="-q {}"'.format(command, VM_PROBE)))
    assert re.search(r"^\d+ passed in ", out, re.M) and "skipped" not in out, out


def check_deploy(command, match, tmp_path):
    """A deploy to a fake CIRCUITPY drive (a PyGamer's boot_out.txt, a
    stand-in mpy-cross): the game goes on it; --dry-run writes nothing."""
    drive = make_drive(tmp_path / "CIRCUITPY")
    compiler = make_compiler(tmp_path / "cp9")
    before = snapshot(drive)
    args = "{} --drive '{}'".format(match["args"] or "", drive).strip()
    if command.startswith("make"):
        command = 'make deploy ARGS="{}"'.format(args)
    else:
        command = "{} {}".format(command, "--drive '{}'".format(drive))
    out = succeeded(run(command, env={"MPY_CROSS": str(compiler)}))
    if "--dry-run" in args:
        assert snapshot(drive) == before
        assert "code.py" in out
    else:
        assert (drive / "code.py").read_text() == (ROOT / "code.py").read_text()
        assert (drive / "lib" / "british_square" / "engine.mpy").exists()


def deal_position(number, rules="british"):
    return position_text(Game.new_deal(int(number), rules_from_name(rules)))


def check_deal(command, match, tmp_path):
    """Prints deal N's one-line position."""
    assert succeeded(run(command)).strip() == deal_position(match["deal"])


def check_deal_json(command, match, tmp_path):
    """Prints deal N of the named rule set as a JSON position."""
    game = Game.new_deal(int(match["deal"]), rules_from_name(match["rules"]))
    assert json.loads(succeeded(run(command))) == position_dict(game)


def check_moves(command, match, tmp_path):
    """Lists the legal moves of deal N."""
    game = Game.new_deal(int(match["deal"]))
    assert succeeded(run(command)).split() == [move_text(m) for m in legal_moves(game)]


def check_play(command, match, tmp_path):
    """Plays the moves on deal N and prints the position they lead to."""
    game = parse_position(deal_position(match["deal"]))
    for token in match["moves"].split():
        game.play(parse_move(token, game))
    assert succeeded(run(command)).strip() == position_text(game)


def check_show(command, match, tmp_path):
    """Shows deal N's position as text."""
    assert succeeded(run(command)).strip()


def check_show_stdin(command, match, tmp_path):
    """``show -`` reads the position (JSON here) from standard input: the same
    picture as ``show`` of the one-line position."""
    same = 'python3 -m british_square show "$(python3 -m british_square deal {})"'.format(
        match["deal"]
    )
    assert succeeded(run(command)) == succeeded(run(same))


def check_hint(command, match, tmp_path):
    """Prints the board's hint for deal N: its only move, the deal."""
    game = Game.new_deal(int(match["deal"]))
    assert legal_moves(game) == [move(STOCK, WASTE)]
    assert succeeded(run(command)).strip() == "SW"


def check_hint_json(command, match, tmp_path):
    """Prints the hint for deal N as JSON, as the docs say: its only move,
    the deal, and how many positions the search looked at."""
    printed = json.loads(succeeded(run(command)))
    assert printed["hint"] == {"from": "stock", "to": "waste"}
    assert set(printed) == {"hint", "positions"} and printed["positions"] >= 0


def check_hint_position(command, match, tmp_path):
    """Prints the board's hint for the position: the card that can go home."""
    m = parse_move(succeeded(run(command)).strip(), parse_position(match["position"]))
    assert move_target(m) == FOUNDATION


def check_cli_help(command, match, tmp_path):
    """Prints the usage of every subcommand and exits 0."""
    out = succeeded(run(command))
    assert all(word in out for word in ("deal", "moves", "play", "show"))


def check_solve_deal(command, match, tmp_path):
    """Wins the Union Square deal and prints a line that replays to 104 home."""
    first, line = succeeded(run(command)).splitlines()
    assert first == "won: 104 cards home"
    game = Game.new_deal(int(match["deal"]), rules_from_name(match["rules"]))
    for token in line.split():
        game.play(parse_move(token, game))
    assert game.is_won()


def check_solve_position(command, match, tmp_path):
    """Proves the worked example lost with 2 cards home, as JSON."""
    answer = json.loads(succeeded(run(command)))
    assert answer["result"] == "lost" and answer["home"] == 2
    game = parse_position(match["position"])
    for token in answer["moves"]:
        game.play(parse_move(token, game))
    assert game.score() == 2


def check_survey(command, match, tmp_path):
    """Solves the deals into the results file (in a scratch folder) and ends
    with the win rate and its interval; run again, it has nothing left to do."""
    out = succeeded(run(command, cwd=tmp_path)).strip().splitlines()[-1]
    count = int(match["last"]) - int(match["first"]) + 1
    assert out.startswith("{}: {} deals, {} won".format(match["rules"], count, count)), out
    assert "95% Wilson" in out
    results = tmp_path / match["out"]
    assert len(results.read_text().splitlines()) == count
    assert succeeded(run(command, cwd=tmp_path)).strip().splitlines()[-1] == out
    assert len(results.read_text().splitlines()) == count


def check_survey_verify(command, match, tmp_path):
    """Checks records of a results file in the repository: every one confirmed."""
    lines = succeeded(run(command, cwd=ROOT)).strip().splitlines()
    count = int(match["count"])
    assert lines[0].startswith("checking {} of ".format(count)), lines[0]
    assert lines[-1] == "{0} of {0} confirmed".format(count)
    assert all(line.startswith("ok deal ") for line in lines[1:-1])


def check_publish_survey(command, match, tmp_path):
    """Writes par files that are the ones in the repository, and the plot."""
    out = succeeded(run(command + " --lib {0} --plot {0}/home.png".format(tmp_path)))
    assert out.startswith("| rule set |")
    assert (tmp_path / "home.png").read_bytes()[:4] == b"\x89PNG"
    made = sorted(tmp_path.glob("par_*.bin"))
    assert made
    for path in made:
        assert path.read_bytes() == (ROOT / "lib" / "british_square" / path.name).read_bytes()


CLI = r"python3 -m british_square"
DEAL = r'"\$\(python3 -m british_square deal (?P<deal>\d+)\)"'
EXAMPLES = (
    (r"make play", check_make_play),
    (r"make test", check_make_test),
    (r"make bundle", check_make_bundle),
    (
        r"CIRCUITPYTHON_VM=(?P<vm>\S+) MPY_CROSS=(?P<mpy_cross>\S+) make test",
        check_make_test_on_the_vm,
    ),
    (r'make deploy(?: ARGS="(?P<args>[^"]*)")?', check_deploy),
    (r"(?:\.venv/bin/python )?tools/deploy\.py(?P<args>(?: --?[\w-]+)*)", check_deploy),
    (CLI + r" --help", check_cli_help),
    (CLI + r" deal (?P<deal>\d+)", check_deal),
    (CLI + r" deal (?P<deal>\d+) --rules (?P<rules>\w+) --json", check_deal_json),
    (CLI + r" moves " + DEAL, check_moves),
    (CLI + r" play " + DEAL + r"(?P<moves>(?: \w\w)+)", check_play),
    (CLI + r" show " + DEAL, check_show),
    (CLI + r" hint " + DEAL, check_hint),
    (CLI + r" hint --json " + DEAL, check_hint_json),
    (CLI + r' hint "(?P<position>[^"$]+)"', check_hint_position),
    (CLI + r" deal (?P<deal>\d+) --json \| " + CLI + r" show -", check_show_stdin),
    (CLI + r" solve --deal (?P<deal>\d+) --rules (?P<rules>\w+)", check_solve_deal),
    (CLI + r' solve "(?P<position>[^"]+)" --json', check_solve_position),
    (
        CLI + r" survey --rules (?P<rules>\w+) --deals (?P<first>\d+)-(?P<last>\d+)"
        r" --budget \d+ --out (?P<out>\S+)",
        check_survey,
    ),
    (
        CLI + r" survey --rules (?P<rules>\w+) --out (?P<out>\S+) --verify (?P<count>\d+)",
        check_survey_verify,
    ),
    (r"(?:\.venv/bin/python )?tools/publish_survey\.py", check_publish_survey),
)

# README examples known to be wrong today: strict, so that this test fails
# (and the entry must go) once they work.
KNOWN_FALSE = {}


def handlers(command):
    return [(check, m) for pattern, check in EXAMPLES if (m := re.fullmatch(pattern, command))]


def page_examples():
    """(page name, line number, command) of every shell example in ``PAGES``."""
    return [
        (page.relative_to(ROOT).as_posix(), number, command)
        for page in PAGES
        for number, command in shell_examples(page.read_text())
    ]


def example_params():
    params = []
    for page, number, command in page_examples():
        marks = ()
        if command in KNOWN_FALSE:
            marks = pytest.mark.xfail(strict=True, reason=KNOWN_FALSE[command])
        label = "{}:{} {}".format(page, number, command)
        params.append(pytest.param(command, marks=marks, id=label))
    return params


def test_the_readme_is_a_front_door():
    """At most 250 lines, and its first screen gives the two commands."""
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MOST_LINES
    examples = shell_examples(README.read_text())
    first_screen = [command for number, command in examples if number <= 40]
    assert first_screen[:2] == ["make play", "make test"]


def test_every_shell_example_is_run():
    examples = page_examples()
    assert shell_examples(README.read_text()), "no ```sh block found in README.md"
    unknown = [
        "{} line {}: {!r}".format(page, number, command)
        for page, number, command in examples
        if len(handlers(command)) != 1
    ]
    assert not unknown, (
        "shell examples that no check in tests/test_readme.py runs (add one to "
        "EXAMPLES):\n" + "\n".join(unknown)
    )


@pytest.mark.parametrize("command", example_params())
def test_readme_example(command, tmp_path):
    found = handlers(command)
    if len(found) != 1:
        pytest.fail("no single check for {!r}: see test_every_shell_example_is_run".format(command))
    check, match = found[0]
    check(command, match, tmp_path)


def test_an_unknown_example_is_reported():
    text = "```sh\nmake play   # fine\nrm -rf /   # nobody checks this\n```\n"
    examples = shell_examples(text)
    assert examples == [(2, "make play"), (3, "rm -rf /")]
    assert [len(handlers(command)) for _, command in examples] == [1, 0]


def test_deploy_script_lines_run_against_a_fake_drive_too(tmp_path):
    command = ".venv/bin/python tools/deploy.py --dry-run"
    [(check, match)] = handlers(command)
    check(command, match, tmp_path)


def test_comments_go_but_a_hash_in_quotes_stays():
    assert strip_comment("make play ARGS=\"--keys 'a #b'\"  # note") == (
        "make play ARGS=\"--keys 'a #b'\""
    )
    assert strip_comment("# only a comment") == ""


def heading_anchors(text):
    """GitHub's anchors for the headings of a Markdown text."""
    anchors = set()
    for line in text.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("page", [page.relative_to(ROOT).as_posix() for page in PAGES])
def test_links_stay_in_the_repository(page):
    """A clone has only the repository: every relative link must land in it."""
    source = ROOT / page
    text = source.read_text()
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (source.parent / path).resolve() if path else source
        assert linked.is_relative_to(ROOT) and linked.exists(), "{}: {}".format(page, target)
        if anchor:
            assert anchor in heading_anchors(linked.read_text()), "{}: {}".format(page, target)
