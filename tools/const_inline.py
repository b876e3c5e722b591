"""Cross-module constants made module-private before ``mpy-cross`` compiles the board's modules.

MicroPython folds ``NAME = const(20)`` into the code of the module that
defines it, and drops the name altogether when it starts with an underscore.
A constant imported from another module is none of that: each importer keeps
a global for it, loads it at run time, and every public name is an interned
string (a *qstr*) in pools that double as they fill. The game's modules share
about 150 such constants (sizes, tiles, colours, actions), which cost the
board a few KB of its 128 KB heap budget and tip it into the next qstr pool (4.5 KB
at once). So deploy compiles a rewritten copy of each game and adapter
module, one source of each fact kept in the repository:

* ``from british_square.layout import CARD_W`` becomes ``_CARD_W = const(20)``
  on the same line (the other names imported there stay imported), and the
  module's uses of ``CARD_W`` become ``_CARD_W``;
* ``sheet.FELT`` (a module imported as ``from british_square import sheet``)
  becomes ``_FELT``, defined at the end of that import's line;
* each module of the game names its own constants ``_NAME`` too, so even
  the defining module keeps no global for them. A script run on a board
  tree that imports one (a benchmark) is rewritten the same way first
  (``rewrite``).
* ``const`` itself is no longer imported (``from british_square.cards
  import const``) where every use of it is ``NAME = const(...)``: MicroPython's
  parser folds those by their form, and the import cost each module a name
  looked up in all the board's names as it loads, and a global.

Line numbers are kept, so a traceback on the board points at the source. A
name is left alone where the module also binds it (a parameter, a keyword,
an assignment), and the rewritten tree is checked: a constant made private
that some module still reaches by name stops the deploy.
"""

from __future__ import annotations

import ast
import io
import operator
import tokenize
from pathlib import Path

from deploy_shared import DeployError

PACKAGE = "british_square"
# ``from british_square.cards import const``: (module, name, alias), for CPython alone
CONST_IMPORT = (PACKAGE + ".cards", "const", None)
_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
    ast.BitXor: operator.xor,
}
_SMALL_INT = 1 << 30  # MicroPython's const() takes small ints only


def _value(node: ast.expr, names: dict[str, int]) -> int | None:
    """The int value of a const() argument: int literals, known names and
    arithmetic on them; None for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        inner = _value(node.operand, names)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else ~inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _value(node.left, names), _value(node.right, names)
        if left is None or right is None:
            return None
        try:
            return _OPERATORS[type(node.op)](left, right)
        except (ZeroDivisionError, ValueError):
            return None
    return None


def _const_call(node: ast.stmt) -> tuple[str, ast.expr] | None:
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "const"
        and len(node.value.args) == 1
    ):
        return node.targets[0].id, node.value.args[0]
    return None


def _const_folded_only(tree: ast.Module) -> bool:
    """Is every use of the name ``const`` in ``tree`` a ``NAME = const(...)``
    statement's call (which MicroPython's parser folds, bound or not)?"""
    folded = {
        id(node.value.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt) and _const_call(node)
    }
    return all(
        id(node) in folded
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == "const" and isinstance(node.ctx, ast.Load)
    )


def package_consts(root: str | Path) -> dict[str, dict[str, int]]:
    """{module: {NAME: value}} of the public ``NAME = const(...)`` ints of the
    game package under ``root``, worked out from the source (nothing is run)."""
    package_dir = Path(root) / "lib" / PACKAGE
    trees = {
        PACKAGE + "." + path.stem: ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(package_dir.glob("*.py"))
        if path.stem != "__init__"
    }
    known: dict[str, dict[str, int]] = {}  # every const, private ones too

    def consts_of(module: str, seen: tuple[str, ...] = ()) -> dict[str, int]:
        if module in known:
            return known[module]
        if module in seen or module not in trees:
            return {}
        names: dict[str, int] = {}
        for node in trees[module].body:
            if isinstance(node, ast.ImportFrom) and node.module in trees and node.level == 0:
                other = consts_of(node.module, seen + (module,))
                for alias in node.names:
                    if alias.name in other:
                        names[alias.asname or alias.name] = other[alias.name]
            found = _const_call(node)
            if found:
                value = _value(found[1], names)
                if value is not None and -_SMALL_INT <= value < _SMALL_INT:
                    names[found[0]] = value
        known[module] = names
        return names

    result = {}
    for module, tree in trees.items():
        names = consts_of(module)
        own = {found[0] for found in map(_const_call, tree.body) if found}
        public = {n: v for n, v in names.items() if n in own and not n.startswith("_")}
        if public:
            result[module] = public
    return result


def _bound_names(tree: ast.Module, consts: set[str]) -> set[str]:
    """Names a module binds other than by a top-level ``from`` import or one
    of its ``consts``: parameters, keywords, functions, classes, assignments,
    imports."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if node.id not in consts:
                bound.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound


def rewrite(source: str, consts: dict[str, dict[str, int]], module: str) -> str:
    """``source`` (module ``module`` of the board tree) with the package's int
    constants made private constants of its own; line numbers unchanged."""
    tree = ast.parse(source)
    own = {found[0] for found in map(_const_call, tree.body) if found}
    bound = _bound_names(tree, own)
    taken = bound | own
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, int, int, str]] = []  # rows 1-based, columns 0-based
    rename: dict[str, str] = {}
    module_alias: dict[str, tuple[str, int, int]] = {}  # alias -> (module, where its import ends)
    unneeded = _const_folded_only(tree)  # ``const`` itself: imported for CPython alone

    def private(name: str) -> str | None:
        """The private name of constant ``name`` here, or None to leave it be."""
        new = "_" + name
        return None if name in bound or new in taken else new

    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level != 0:
            continue
        if node.module == PACKAGE:
            for alias in node.names:
                full = PACKAGE + "." + alias.name
                if full in consts:
                    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
                    module_alias[alias.asname or alias.name] = (full, *end)
            continue
        if node.module not in consts and node.module != CONST_IMPORT[0]:
            continue
        table = consts.get(node.module, {})
        kept, defined, dropped = [], [], False
        for alias in node.names:
            local = alias.asname or alias.name
            new = private(local) if alias.name in table else None
            if new:
                rename[local] = new
                defined.append("{} = const({})".format(new, table[alias.name]))
            elif unneeded and (node.module, alias.name, alias.asname) == CONST_IMPORT:
                dropped = True
            else:
                kept.append(alias.name + (" as " + alias.asname if alias.asname else ""))
        if defined or dropped:
            parts = ["from {} import {}".format(node.module, ", ".join(kept))] if kept else []
            text = "; ".join(parts + defined)
            end = node.end_lineno or node.lineno
            edits.append((node.lineno, node.col_offset, end, node.end_col_offset or 0, text))
    if module.startswith(PACKAGE + "."):  # the game's own constants
        for name in consts.get(module, {}):
            new = private(name)
            if new:
                rename[name] = new
    import_rows = [(e[0], e[2]) for e in edits]
    extra: dict[tuple[int, int], dict[str, int]] = {}
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or any(a <= tok.start[0] <= b for a, b in import_rows):
            continue
        if i and tokens[i - 1].type == tokenize.OP and tokens[i - 1].string == ".":
            continue  # an attribute, not this module's name
        after = tokens[i + 1 : i + 3]
        if (
            tok.string in module_alias
            and len(after) == 2
            and after[0].string == "."
            and after[1].type == tokenize.NAME
        ):
            full, row, column = module_alias[tok.string]
            attr = after[1].string
            new = private(attr) if attr in consts[full] else None
            if new:
                end = after[1].end
                edits.append((tok.start[0], tok.start[1], end[0], end[1], new))
                extra.setdefault((row, column), {})[new] = consts[full][attr]
            continue
        if tok.string in rename:
            edits.append((*tok.start, *tok.end, rename[tok.string]))
    for (row, column), definitions in extra.items():  # after the import, before a comment
        text = "".join("; {} = const({})".format(n, v) for n, v in sorted(definitions.items()))
        edits.append((row, column, row, column, text))
    for r0, c0, r1, c1, text in sorted(edits, reverse=True):
        merged = lines[r0 - 1][:c0] + text + lines[r1 - 1][c1:]
        lines[r0 - 1 : r1] = [merged] + ["\n"] * (r1 - r0)
    return "".join(lines)


def board_script(text: str, root: str | Path) -> str:
    """A script to run on a board tree (a benchmark, a check) with the game's
    constants it names made its own, as deploy rewrites the game's modules:
    on the board the modules keep no public constants."""
    return rewrite(text, package_consts(root), "__main__")


def still_named(sources: dict[str, str], consts: dict[str, dict[str, int]]) -> list[str]:
    """Where a rewritten tree still reaches, by name, a constant that its own
    module made private: "file: module.NAME" lines."""
    gone = {module: set(names) for module, names in consts.items()}
    found = []
    for path, text in sources.items():
        tree = ast.parse(text)
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in gone:
                for alias in node.names:
                    if alias.name in gone[node.module]:
                        found.append("{}: {}.{}".format(path, node.module, alias.name))
            elif isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = PACKAGE + "." + alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and aliases.get(node.value.id) in gone
                and node.attr in gone[aliases[node.value.id]]
            ):
                found.append("{}: {}.{}".format(path, aliases[node.value.id], node.attr))
    return found


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level, in ``if``/``try`` blocks
    too (not inside its functions and classes)."""
    found: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if isinstance(node, (ast.Lambda, ast.comprehension)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return found


def unbound_imports(
    modules: dict[str, str], sources: dict[str, str], consts: dict[str, dict[str, int]]
) -> list[str]:
    """Where one of ``sources`` ({path: source}) imports from one of
    ``modules`` ({module name: source, as the board gets it}) a name that
    module does not bind: "file: module.NAME" lines, saying where a constant
    is defined. A constant a module only imports is none of its names on
    the board (the rewrite made it private there): it is imported from the
    module that defines it."""
    bound = {name: _module_names(ast.parse(text)) for name, text in modules.items()}
    found = []
    for path, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in bound):
                continue
            for alias in node.names:
                full = node.module + "." + alias.name
                if alias.name in bound[node.module] or full in modules or alias.name == "*":
                    continue
                home = [m for m, names in sorted(consts.items()) if alias.name in names]
                where = " (defined in {})".format(home[0]) if home else ""
                found.append("{}: {}{}".format(path, full, where))
    return found


def board_sources(
    texts: dict[str, tuple[str, str]], root: str | Path, others: dict[str, str] | None = None
) -> dict[str, str]:
    """{drive path: source to compile} for ``texts`` ({drive path: (module
    name, source)}, the game's and adapters' modules); DeployError when a
    constant made private is still reached by name there or in ``others``
    (sources that go to the board as they are: code.py), or a name is
    imported from one of them that does not bind it on the board."""
    consts = package_consts(root)
    rewritten = {path: rewrite(text, consts, name) for path, (name, text) in texts.items()}
    everything = {**rewritten, **(others or {})}
    left = still_named(everything, consts)
    if left:
        raise DeployError(
            "constants made private for the board are still used by name:\n  " + "\n  ".join(left)
        )
    modules = {name: rewritten[path] for path, (name, _) in texts.items()}
    unbound = unbound_imports(modules, everything, consts)
    if unbound:
        raise DeployError(
            "names imported from a module that has none of that name on the board:\n  "
            + "\n  ".join(unbound)
        )
    return rewritten
