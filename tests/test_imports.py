"""The package's modules import each other one way: no cycles, the engine
at the ground floor, importing nothing above it, and the board's code
importing nothing of ``desktop/``. And no module imports a test module:
what tests share lives in ``tests/conftest.py`` or a helper module there.

Imports are read with ``ast`` from every module under ``lib/british_square``,
including the imports inside functions (a deferred import is still a
dependency). What a board runs is what deploy copies: its import walk from
``code.py`` and the board's adapter (``tools/board_imports.py``).
"""

import ast
import functools
import sys

from conftest import LIB, ROOT

sys.path.insert(0, str(ROOT / "tools"))
from board_imports import import_closure  # noqa: E402
from deploy_shared import SUPPORTED_BOARDS  # noqa: E402

PACKAGE = "british_square"
DESKTOP = "desktop"  # the subpackage a board never runs


def imported_names(path):
    """The absolute names the module at ``path`` imports, anywhere in it:
    for ``from M import N`` both M and M.N (N may name a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from british_square import view" names a module; "from
            # british_square.engine import Game" names its module
            found.add(node.module)
            found.update(node.module + "." + alias.name for alias in node.names)
    return found


def imported_modules(path):
    """The package's modules that the module at ``path`` imports, anywhere in it."""
    return {
        name[len(PACKAGE) + 1 :] for name in imported_names(path) if name.startswith(PACKAGE + ".")
    }


def package_modules():
    """{name inside the package ("engine", "desktop.notation"; a subpackage by
    its own name): source} of every module of the package but its root."""
    modules = {}
    for path in sorted((LIB / PACKAGE).rglob("*.py")):
        parts = path.relative_to(LIB / PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            modules[".".join(parts)] = path
    return modules


def import_graph():
    modules = package_modules()
    return {
        name: {m for m in imported_modules(path) if m in modules and m != name}
        for name, path in modules.items()
    }


def reachable(graph, start):
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for child in graph[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def cycles(graph):
    """The groups of modules that import each other, directly or through
    others (each group holds at least one import cycle)."""
    reach = {name: reachable(graph, name) for name in graph}
    groups = {
        frozenset({name} | {other for other in reach[name] if name in reach[other]})
        for name in graph
        if name in reach[name]
    }
    return sorted(groups, key=sorted)


def test_the_cycle_finder_finds_cycles_and_only_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": set()}
    assert cycles(graph) == [frozenset("abc")]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "deal" in graph["piles"]  # Game.new_deal imports it when called
    assert "screens" in graph["app"]  # loaded only when a screen is shown


def test_no_module_imports_one_that_imports_it():
    found = [set(c) for c in cycles(import_graph())]
    assert not found, "import cycles: {}".format(found)


def test_the_engine_is_the_ground_floor():
    graph = import_graph()
    assert graph["cards"] == set() and graph["deal"] == set()
    assert graph["piles"] <= {"cards", "deal"}
    assert graph["engine"] <= {"cards", "piles"}


def is_desktop(name):
    return name == DESKTOP or name.startswith(DESKTOP + ".")


def test_the_graph_sees_the_desktop_subpackage():
    graph = import_graph()
    assert "desktop.notation" in graph["desktop.cli"]
    assert "piles" in graph["desktop.notation"]


@functools.lru_cache(maxsize=1)
def board_modules():
    """The package's modules deploy copies to some board, by name inside the package."""
    shipped = set()
    for board in SUPPORTED_BOARDS:
        for module in import_closure(ROOT, board).modules:
            if module.name.startswith(PACKAGE + "."):
                shipped.add(module.name[len(PACKAGE) + 1 :])
    return frozenset(shipped)


def test_no_module_a_board_runs_imports_desktop_code():
    desktop = sorted(name for name in board_modules() if is_desktop(name))
    assert not desktop, "board code imports desktop modules: {}".format(desktop)


def test_every_module_in_the_packages_top_folder_runs_on_a_board():
    # but the desktop command's entry point: what no board runs goes in desktop/
    top = {name for name in package_modules() if "." not in name and not is_desktop(name)}
    assert sorted(top - board_modules()) == ["__main__"], "move them to desktop/"


MOST_LINES = 500  # a module a reader takes in at one sitting (issue 21)


def test_no_module_of_the_package_or_the_adapters_is_over_500_lines():
    paths = dict(package_modules())
    paths.update(("hw/" + path.name, path) for path in sorted((ROOT / "hw").glob("*.py")))
    lines = {name: len(path.read_text().splitlines()) for name, path in paths.items()}
    long = {name: count for name, count in lines.items() if count > MOST_LINES}
    assert not long, "split them by job: {}".format(long)


def test_the_architecture_page_names_every_module():
    # docs/architecture.md is where a reader finds a module's job: none left out
    text = (ROOT / "docs" / "architecture.md").read_text()
    folders = (ROOT / "hw", ROOT / "lib" / "british_square")
    files = {path.name for folder in folders for path in folder.rglob("*.py")}
    missing = sorted(name for name in files - {"__init__.py"} if name not in text)
    assert not missing, "say what each does in docs/architecture.md: {}".format(missing)


TESTS = ROOT / "tests"


def imports_of_test_modules(folders):
    """(path, test module) of every import of one of tests/test_*.py by a
    module under one of ``folders``, anywhere in it."""
    tests = {path.stem for path in TESTS.glob("test_*.py")}
    return [
        (path.relative_to(folder.parent).as_posix(), name)
        for folder in folders
        for path in sorted(folder.rglob("*.py"))
        for name in sorted(imported_names(path))
        if name.split(".")[0] in tests
    ]


def test_the_test_import_finder_sees_every_form_of_import(tmp_path):
    folder = tmp_path / "helpers"
    (folder / "deeper").mkdir(parents=True)
    (folder / "a.py").write_text("def later():\n    from test_app import press\n")
    (folder / "deeper" / "b.py").write_text("import test_words as words\nimport words_text\n")
    assert imports_of_test_modules([folder]) == [
        ("helpers/a.py", "test_app"),
        ("helpers/a.py", "test_app.press"),
        ("helpers/deeper/b.py", "test_words"),
    ]


def test_no_module_imports_a_test_module():
    # a test module imported by another ties the two together and hides what
    # the tests share: that goes in conftest.py or a helper module
    found = imports_of_test_modules([TESTS, ROOT / "tools"])
    assert not found, "move what they share out of the test modules: {}".format(found)


def test_the_adapter_table_names_every_part_the_game_reads_of_a_machine():
    # docs/architecture.md's table is the adapters' interface: what the game
    # reads of ``hardware`` (directly or by getattr) is there, and no more
    import re

    table = (ROOT / "docs" / "architecture.md").read_text().split("## The hardware adapter")[1]
    first_cells = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    declared = {name for cell in first_cells for name in re.findall(r"`(\w+)", cell)}
    read = set()
    sources = sorted((LIB / PACKAGE).glob("*.py")) + [ROOT / "code.py"]
    for path in sources:
        text = path.read_text()
        read.update(re.findall(r"\bhardware\.(\w+)", text))
        read.update(re.findall(r"getattr\((?:self\.)?(?:app\.)?hardware, \"(\w+)\"", text))
    assert read and read == declared, (sorted(read - declared), sorted(declared - read))


def test_the_architecture_page_says_what_the_adapters_read_of_the_session():
    # "What the adapters read of the session" in docs/architecture.md: every
    # name the modules of hw/ reach through ``app`` (the pointer's
    # ``screens`` too), to its second part, is there
    import re

    text = (ROOT / "docs" / "architecture.md").read_text()
    said = " ".join(text.split("What the adapters read of the session")[1].split("\n\n")[0].split())
    named = set(re.findall(r"`([\w.]+)`", said))
    used = set()
    for path in sorted((ROOT / "hw").glob("*.py")):
        source = path.read_text()
        used.update(re.findall(r"\bapp\.([a-z_]+(?:\.[a-z_]+)*)", source))
        used.update("screens." + chain for chain in re.findall(r"\bscreens\.([a-z_.]+)", source))
    # a part named whole covers its own reading (``app.screens``, then ``screens.current``)
    missing = {
        chain
        for chain in used
        if chain not in named and not any(name.startswith(chain + ".") for name in named)
    }
    assert used and not missing, sorted(missing)


def test_the_architecture_page_says_what_the_screens_read_of_the_session():
    # "What the screens read of the session" in docs/architecture.md: every
    # name of ``app`` the screens' modules use is there
    import re

    text = (ROOT / "docs" / "architecture.md").read_text()
    said = text.split("What the screens read of the session")[1].split("\n\n")[0]
    named = set(re.findall(r"`(\w+)`", said))
    used = set()
    for name in ("screens", "menu", "results", "first_start", "deal_entry", "shortcuts"):
        source = (LIB / PACKAGE / (name + ".py")).read_text()
        used.update(re.findall(r"\bapp\.([a-z_]+)", source))  # (app.App: the class)
    assert used and not used - named, sorted(used - named)
