"""Deploy's rewrite of shared constants (tools/const_inline.py): what it
changes, what it leaves alone, and that the game's tree needs no global for
the constants it makes private."""

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import const_inline  # noqa: E402
from deploy_shared import DeployError  # noqa: E402

CONSTS = {
    "british_square.layout": {"CARD_W": 20, "GAP": 3},
    "british_square.sheet": {"FELT": 0, "MARK": 8},
}


def test_an_imported_constant_is_defined_in_place_and_its_uses_renamed():
    source = (
        "from british_square.layout import (\n"
        "    CARD_W,\n"
        "    Layout,\n"
        ")\n"
        "x = CARD_W * 2  # CARD_W in a comment stays\n"
        "text = 'CARD_W'\n"
    )
    out = const_inline.rewrite(source, CONSTS, "british_square.app")
    lines = out.splitlines()
    assert len(lines) == len(source.splitlines())  # tracebacks keep their line numbers
    assert lines[0] == "from british_square.layout import Layout; _CARD_W = const(20)"
    assert lines[1:4] == ["", "", ""]
    assert lines[4] == "x = _CARD_W * 2  # CARD_W in a comment stays"
    assert lines[5] == "text = 'CARD_W'"


def test_a_module_attribute_becomes_a_constant_defined_after_its_import():
    source = "from british_square import sheet  # the sheet\nc = sheet.FELT + sheet.PALETTE\n"
    out = const_inline.rewrite(source, CONSTS, "british_square.view")
    assert out.splitlines() == [
        "from british_square import sheet; _FELT = const(0)  # the sheet",
        "c = _FELT + sheet.PALETTE",
    ]


def test_names_the_module_binds_itself_are_left_alone():
    source = (
        "from british_square.layout import CARD_W, GAP\n"
        "def f(GAP=1):\n"
        "    return GAP + CARD_W\n"
        "obj.CARD_W = 1\n"
    )
    out = const_inline.rewrite(source, CONSTS, "british_square.app")
    assert out.splitlines() == [
        "from british_square.layout import GAP; _CARD_W = const(20)",
        "def f(GAP=1):",
        "    return GAP + _CARD_W",
        "obj.CARD_W = 1",  # an attribute of something else
    ]


def test_a_game_module_renames_its_own_constants_and_a_script_keeps_its_own():
    source = "from british_square.cards import const\nFELT = const(0)\nMARK = const(FELT + 8)\n"
    out = const_inline.rewrite(source, CONSTS, "british_square.sheet")
    assert out.splitlines()[1:] == ["_FELT = const(0)", "_MARK = const(_FELT + 8)"]
    other = const_inline.rewrite(source, CONSTS, "bench_heap")
    # not the game's module: its names stay public (``const``'s import goes, as anywhere)
    assert other == source.replace("from british_square.cards import const", "")


def test_const_itself_is_not_imported_where_the_parser_folds_every_use():
    folded = "from british_square.cards import const, NO_CARD\n_A = const(3)\nB = const(_A + 1)\n"
    consts = {"british_square.cards": {"NO_CARD": 255}}
    out = const_inline.rewrite(folded, consts, "british_square.sheet")
    assert out.splitlines() == ["_NO_CARD = const(255)", "_A = const(3)", "B = const(_A + 1)"]
    called = "from british_square.cards import const\nx = [const(3)]\n"  # a call at run time
    assert const_inline.rewrite(called, consts, "british_square.sheet") == called


def test_constant_values_are_worked_out_from_the_source(tmp_path):
    package = tmp_path / "lib" / "british_square"
    package.mkdir(parents=True)
    (package / "sheet.py").write_text("A = const(20)\n_B = const(A * 2)\nNOT = 3\n")
    (package / "layout.py").write_text(
        "from british_square.sheet import A\n"
        "W = const(A + 1)\nH = const(-(W << 2) // 3)\nBIG = const(1 << 40)\nS = const('x')\n"
    )
    assert const_inline.package_consts(tmp_path) == {
        "british_square.sheet": {"A": 20},
        "british_square.layout": {"W": 21, "H": -28},  # no long ints, no strings
    }


def test_a_private_constant_still_used_by_name_stops_the_deploy():
    left = {
        "lib/x.py": "from british_square.sheet import FELT\n",
        "code.py": "from british_square import sheet\nprint(sheet.MARK)\n",
        "hw/ok.py": "from british_square.sheet import small_tile\n",
    }
    assert const_inline.still_named(left, CONSTS) == [
        "lib/x.py: british_square.sheet.FELT",
        "code.py: british_square.sheet.MARK",
    ]


def test_the_game_tree_rewrites_cleanly_and_drops_every_shared_constant():
    consts = const_inline.package_consts(ROOT)
    assert len(consts["british_square.layout"]) >= 20 and len(consts["british_square.sheet"]) >= 20
    texts = {}
    for path in sorted((ROOT / "lib" / "british_square").glob("*.py")):
        texts["lib/british_square/" + path.name] = ("british_square." + path.stem, path.read_text())
    for name in ("vm", "pygamer", "pybadge"):
        texts["hw/{}.py".format(name)] = (name, (ROOT / "hw" / (name + ".py")).read_text())
    code = {"code.py": (ROOT / "code.py").read_text()}
    out = const_inline.board_sources(texts, ROOT, code)
    for path, text in out.items():
        compile(text, path, "exec")  # still Python
        assert text.count("\n") == texts[path][1].count("\n"), path
    layout = out["lib/british_square/layout.py"]
    assert "\nCARD_W" not in layout and "GAP = const(" not in layout.replace("_GAP = const(", "")
    # the screens' numbering is constants only: a board's modules never load it
    assert not [path for path, text in out.items() if "british_square.screen_ids import" in text]
    # nor ``const`` (folded by the parser): a name each module looks up as it loads, and a global
    assert [path for path, text in out.items() if "import const" in text] == [
        "lib/british_square/cards.py"  # where CPython's stand-in is defined
    ]


def test_a_rewrite_that_leaves_a_private_name_reached_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(const_inline, "rewrite", lambda text, consts, module: text)
    texts = {
        "lib/british_square/app.py": (
            "british_square.app",
            "from british_square import sheet\nsheet.FELT\n",
        )
    }
    with pytest.raises(DeployError, match="still used by name"):
        const_inline.board_sources(texts, ROOT)


def test_a_constant_imported_from_a_module_that_only_imports_it_stops_the_deploy(tmp_path):
    # engine imports STOCK from piles: on the board engine holds _STOCK, so
    # "from engine import STOCK" would be an ImportError there, not on the desktop
    package = tmp_path / "lib" / "british_square"
    package.mkdir(parents=True)
    sources = {
        "piles": "from british_square.cards import const\nSTOCK = const(16)\n",
        "engine": "from british_square.piles import STOCK\ndef top():\n    return STOCK\n",
        "scene": "from british_square.engine import STOCK, top\n",
    }
    for name, text in sources.items():
        (package / (name + ".py")).write_text(text)
    texts = {
        "lib/british_square/{}.py".format(name): ("british_square." + name, text)
        for name, text in sources.items()
    }
    with pytest.raises(DeployError) as refused:
        const_inline.board_sources(texts, tmp_path)
    assert str(refused.value).splitlines()[1:] == [
        "  lib/british_square/scene.py: british_square.engine.STOCK"
        " (defined in british_square.piles)"
    ]
    texts["lib/british_square/scene.py"] = (
        "british_square.scene",
        "from british_square.engine import top\nfrom british_square.piles import STOCK\n",
    )
    scene = const_inline.board_sources(texts, tmp_path)["lib/british_square/scene.py"]
    assert scene.splitlines()[1] == "_STOCK = const(16)"


def test_the_names_a_module_binds_include_its_if_and_try_blocks_and_nothing_inside_a_def():
    tree = const_inline.ast.parse(
        "import a.b\nfrom c import d as e\ntry:\n    from m import const\nexcept ImportError:\n"
        "    def const(v):\n        inner = v\n        return inner\n"
        "X, (Y, Z) = 1, (2, 3)\nfor i in []: pass\nclass K:\n    attr = 1\n"
        "squares = [n * n for n in range(3)]\n"
    )
    names = {"a", "e", "const", "X", "Y", "Z", "i", "K", "squares"}
    assert const_inline._module_names(tree) == names
