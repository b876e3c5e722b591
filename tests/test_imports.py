"""The package's modules import each other one way: no cycles, and the engine
at the ground floor, importing nothing above it.

Imports are read with ``ast`` from every module under ``lib/british_square``,
including the imports inside functions (a deferred import is still a
dependency).
"""

import ast

from conftest import LIB

PACKAGE = "british_square"


def imported_modules(path):
    """The package's modules that the module at ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from british_square import view" names a module; "from
            # british_square.engine import Game" names its module
            names = [node.module] + [node.module + "." + alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == PACKAGE and len(parts) > 1:
                found.add(parts[1])
    return found


def import_graph():
    modules = {path.stem: path for path in (LIB / PACKAGE).glob("*.py")}
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
    assert "deal" in graph["engine"]  # Game.new_deal imports it when called
    assert "screens" in graph["app"]  # loaded only when a screen is shown


def test_no_module_imports_one_that_imports_it():
    found = [set(c) for c in cycles(import_graph())]
    assert not found, "import cycles: {}".format(found)


def test_the_engine_is_the_ground_floor():
    graph = import_graph()
    assert graph["cards"] == set() and graph["deal"] == set()
    assert graph["engine"] <= {"cards", "deal"}
