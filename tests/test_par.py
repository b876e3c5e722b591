"""Par files: one byte a deal, read by seeking (desktop and CircuitPython VM)."""

import shutil
from pathlib import Path

import pytest
from conftest import LIB, ROOT

from british_square import par as par_module
from british_square.desktop.survey import read_results
from british_square.engine import Game
from british_square.piles import AMERICAN, BRITISH, RULE_NAMES, UNION

SURVEYS = ROOT / "docs" / "survey"


@pytest.fixture
def par_folder(tmp_path, monkeypatch):
    """Par files in ``tmp_path`` instead of beside the module, and no
    shipped lines (which a new deal takes first where a rule set has them)."""
    monkeypatch.setattr(par_module, "par_path", lambda rules: str(tmp_path / par_name(rules)))
    monkeypatch.setattr(par_module, "random_line_deal", lambda rules: 0)
    return tmp_path


def par_name(rules):
    return "par_{}.bin".format(RULE_NAMES[rules])


def write_par(folder, rules, values):
    data = bytearray(31999)
    for deal, value in values.items():
        data[deal - 1] = value
    (folder / par_name(rules)).write_bytes(bytes(data))


def test_the_par_files_are_named_as_the_engine_names_the_rule_sets():
    # par keeps its own copy of the names, to stand without the engine
    for rules in (BRITISH, AMERICAN, UNION):
        path = par_module.par_path(rules).replace("\\", "/")
        assert path.endswith("/british_square/" + par_name(rules))


def test_par_reads_the_byte_of_its_deal(par_folder):
    write_par(par_folder, UNION, {1: 104, 2: 87, 31999: 104})
    assert par_module.par(UNION, 1) == 104
    assert par_module.par(UNION, 2) == 87
    assert par_module.par(UNION, 3) == 0  # not surveyed
    assert par_module.par(UNION, 31999) == 104


def test_par_trusts_nothing_it_reads(par_folder):
    assert par_module.par(BRITISH, 5) == 0  # no file
    write_par(par_folder, BRITISH, {5: 200})
    assert par_module.par(BRITISH, 5) == 0  # more than 104 cards: damaged
    for deal in (0, -1, 32000):
        assert par_module.par(BRITISH, deal) == 0
    (par_folder / par_name(AMERICAN)).write_bytes(b"\x10" * 10)  # cut short
    assert par_module.par(AMERICAN, 10) == 16
    assert par_module.par(AMERICAN, 11) == 0


def test_a_random_par_deal_is_one_with_par(par_folder):
    with_par = {3: 104, 64: 12, 65: 1, 31999: 7}
    write_par(par_folder, BRITISH, {**with_par, 70: 200})  # 200: damaged, not par
    assert {par_module.random_par_deal(BRITISH) for _ in range(200)} == set(with_par)
    assert par_module.random_par_deal(AMERICAN) == 0  # no file: none


def test_a_random_par_deal_is_drawn_without_counting_the_file(par_folder, monkeypatch):
    """Where deals with par are many, a draw finds one in a few byte reads:
    the file is never counted out (a quarter of a second on a board), and
    each deal with par is as likely as another."""
    write_par(par_folder, BRITISH, {deal: 20 for deal in range(1, 16001)})  # half of them

    def counted(*args):
        raise AssertionError("the par file was counted out")

    monkeypatch.setattr(par_module, "_deals", counted)
    picks = [par_module.random_par_deal(BRITISH) for _ in range(4000)]
    assert all(1 <= deal <= 16000 for deal in picks)
    quarters = [sum(1 for deal in picks if (deal - 1) // 4000 == q) for q in range(4)]
    assert all(850 <= count <= 1150 for count in quarters), quarters  # about 1000 each


def test_a_random_won_deal_is_a_won_one(par_folder):
    won = {3: 104, 64: 104, 65: 104, 20000: 104, 31999: 104}
    write_par(par_folder, UNION, {**won, 4: 103, 5: 50})
    picked = {par_module.random_won_deal(UNION) for _ in range(200)}
    assert picked == set(won)
    write_par(par_folder, AMERICAN, {7: 99})
    assert par_module.random_won_deal(AMERICAN) == 0
    assert par_module.random_won_deal(BRITISH) == 0  # no file


def test_the_won_deals_the_menu_counts_on_are_the_shipped_par_files():
    # the menu's "Winnable only: none" for a rule set with no deal won, from
    # the counts par.py keeps: a count of the file on the board took 0.3 s
    for rules, name in enumerate(RULE_NAMES):
        data = (LIB / "british_square" / "par_{}.bin".format(name)).read_bytes()
        assert par_module.WON_DEALS[rules] == data.count(bytes([104])), name
        assert par_module.has_won_deal(rules) == (104 in data)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_the_shipped_par_files_hold_the_survey_results(rules):
    path = LIB / "british_square" / "par_{}.bin".format(rules)
    results = SURVEYS / "{}.jsonl".format(rules)
    if not path.exists():
        pytest.skip("no par file for {}".format(rules))
    data = path.read_bytes()
    assert len(data) == 31999
    records = read_results(str(results), rules, keep="best")  # of any solver version
    assert records, "a par file needs its survey results"
    quick = read_results(str(SURVEYS / "{}-par.jsonl".format(rules)), rules, keep="best")
    for deal in range(1, 32000):
        record = records.get(deal)
        if deal in quick and (record is None or quick[deal]["home"] > record["home"]):
            record = quick[deal]
        expected = record["home"] if record else 0
        assert data[deal - 1] == expected, deal
        if record:
            assert (expected == 104) == (record["result"] == "won")


def test_par_is_at_least_what_the_plain_search_finds_on_a_sample():
    """Par is a target: on deals the survey has solved since the plain line
    came in (solver version 2), never below the plain depth-first search's
    PLAIN_LINE_NODES positions (three British deals spread over them)."""
    import math

    from british_square.desktop.solver import PLAIN_LINE_NODES, solve_plain
    from british_square.desktop.survey import solver_version

    data = (LIB / "british_square" / "par_british.bin").read_bytes()
    surveyed = sorted(
        deal
        for name in ("british.jsonl", "british-par.jsonl")
        for deal, record in read_results(str(SURVEYS / name), "british").items()
        if solver_version(record) >= 2
    )
    assert len(surveyed) >= 3, "no British deals surveyed with the plain line yet"
    for deal in (surveyed[0], surveyed[len(surveyed) // 2], surveyed[-1]):
        plain = solve_plain(Game.new_deal(deal, BRITISH), math.inf, PLAIN_LINE_NODES)
        assert data[deal - 1] >= plain.home, deal


# Reading allocates only the file object and its path, freed at once (the
# game imports random anyway): well under 1 KB, however big the file.
VM_SCRIPT = """
import gc
import random
from british_square import par
print([par.par(2, d) for d in (1, 2, 3, 31999, 0, 32000)])
print(par.has_won_deal(2), par.random_won_deal(2) in (1, 31999), par.par(0, 1))
gc.collect()
free = gc.mem_free()
par.par(2, 31999)
one = free - gc.mem_free()
gc.collect()
free = gc.mem_free()
par.random_won_deal(2)
print("alloc", one, free - gc.mem_free())
"""


def test_par_runs_on_circuitpython_in_little_heap(vm, tmp_path):
    package = tmp_path / "british_square"
    package.mkdir()
    for name in ("__init__.py", "cards.py", "par.py"):
        shutil.copy(LIB / "british_square" / name, package / name)
    data = bytearray(31999)
    data[0] = 104
    data[1] = 60
    data[31998] = 104
    (package / "par_union.bin").write_bytes(bytes(data))
    # Union Square ships lines: a lines file with none, so New game draws from par
    (package / "lines_union.bin").write_bytes(par_module.LINES_MAGIC + bytes(2))
    out = vm.run_code(VM_SCRIPT, tmp_path, heap="20K", path=(tmp_path,)).stdout.splitlines()
    assert out[:2] == ["[104, 60, 0, 104, 0, 0]", "True True 0"]
    word, one, pick = out[2].split()
    # a pick opens two files: the lines file (none in it here), then the par file
    assert int(one) < 1024 and int(pick) < 3072, out[2]


def test_a_new_deal_under_rules_with_shipped_lines_is_one_of_them():
    shipped = set()
    for rules in (BRITISH, AMERICAN, UNION):
        picks = {par_module.random_par_deal(rules) for _ in range(60)}
        picks |= {par_module.random_won_deal(rules) for _ in range(60)}
        if par_module.LINE_DEALS[rules]:
            data = Path(par_module.lines_path(rules)).read_bytes()
            last = int.from_bytes(data[4:6], "little")
            at = par_module.LINES_HEAD + par_module.LINES_ENTRY * (last - 1)
            assert data[at:at + 2] != b"\0\0"  # the last deal has a line
            shipped = {
                deal
                for deal in range(1, last + 1)
                if data[6 + 6 * (deal - 1) : 6 + 6 * (deal - 1) + 2] != b"\0\0"
            }
            assert picks <= shipped and len(picks) > 30
        else:
            assert all(par_module.par(rules, deal) for deal in picks - {0})  # surveyed, as ever
    assert shipped
