"""The import graph against the layers docs/architecture.md states: no cycle, nothing upward.

The graph is built from the code: every module under automa/ is parsed (ast, nothing is
imported) and every import counts, wherever it stands: at the top, inside a function, or under
`if TYPE_CHECKING:`. Each says that one module depends on another. A function-level import
hides a cycle from the interpreter, not from the design; a TYPE_CHECKING import makes no
runtime cycle either, but the dependency it states must still point downward, and a pair of
modules that name each other's types is one concept split in two. `importlib.import_module`
with a constant name counts too; a computed name (cli/main.py loads its command modules by
name) cannot be followed.

The layer order is read from the block between the `import-layers` markers in
docs/architecture.md, so the document and the code cannot drift apart. One line per layer,
highest first; units on one line (`cli | web`) are peers that never import each other. A unit
is a package under automa/ (`engine`) or a top-level module (`errors`); modules of one unit
may import each other, without cycles.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "automa"
ARCHITECTURE = REPO / "docs" / "architecture.md"
BEGIN, END = "<!-- import-layers -->", "<!-- /import-layers -->"

Edge = tuple[str, str]  # (importing module, imported module), dotted names



@dataclass(frozen=True)
class Layers:
    """The documented order: each unit's layer, counted from 0 at the top."""

    rank: Mapping[str, int]
    notes: Mapping[str, str]  # a unit's comment in the block ("future" marks one not yet built)

    def allows(self, importer: str, imported: str) -> bool:
        """Within a unit anything goes (cycles are checked apart); across units, only down.
        A unit the block does not place is reported by its own test, not here."""
        if importer not in self.rank or imported not in self.rank:
            return True
        return importer == imported or self.rank[imported] > self.rank[importer]


@dataclass(frozen=True)
class Graph:
    edges: Mapping[Edge, tuple[Path, int]]  # each edge with the first line it is made on
    modules: frozenset[str]
    root: Path  # the package folder


def parse_layers(text: str) -> Layers:
    """The block between the markers: one layer a line, highest first, peers split by `|`,
    `#` starting a comment."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(f"expected one {BEGIN} ... {END} block")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rank: dict[str, int] = {}
    notes: dict[str, str] = {}
    for line in block.splitlines():
        names, _, note = line.partition("#")
        if not names.strip() or names.strip().startswith("```"):
            continue
        layer = len(set(rank.values()))
        for name in (part.strip() for part in names.split("|")):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise ValueError(f"not a unit name in the layer block: {name!r}")
            if name in rank:
                raise ValueError(f"{name} stands twice in the layer block")
            rank[name], notes[name] = layer, note.strip()
    return Layers(rank, notes)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    """`automa.engine.turn` -> `engine`; `automa.errors` -> `errors`; `automa` -> `__init__`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every name a module imports, with its line: `import a.b`, `from a import b` (as a.b,
    which may be a module or a name in a), relative imports, and
    `importlib.import_module("constant")`."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                yield (base if alias.name == "*" else f"{base}.{alias.name}"), node.lineno
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (getattr(node.func, "attr", None) == "import_module"
                   or getattr(node.func, "id", None) == "import_module")):
            yield node.args[0].value, node.lineno


def owning_module(name: str, modules: frozenset[str]) -> str | None:
    """The module a dotted name lies in (`automa.geometry.moves.Move` -> automa.geometry.moves);
    None outside the package."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def build_graph(root: Path = PACKAGE) -> Graph:
    paths = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    modules = frozenset(paths)
    edges: dict[Edge, tuple[Path, int]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line in sorted(imported_names(tree, module, path.name == "__init__.py"),
                                 key=lambda found: found[1]):  # the first line names an edge
            target = owning_module(name, modules)
            if target is not None and target != module:
                edges.setdefault((module, target), (path, line))
    return Graph(edges, modules, root)


def successors_of(edges: Iterable[Edge]) -> dict[str, list[str]]:
    successors: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        successors.setdefault(a, []).append(b)
        successors.setdefault(b, [])
    return successors


def tangles(successors: Mapping[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative): the
    modules that reach each other through their imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in successors:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(successors[node]):
                work.append((node, child + 1))
                nxt = successors[node][child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """One cycle through the first module of every tangle, for the message."""
    successors = successors_of(edges)
    return [_cycle_in(tangle, successors) for tangle in tangles(successors)]


def cycle_report(edges: Iterable[Edge], graph: Graph) -> list[str]:
    """A line per tangle: one cycle with where each import is made, and the tangle's other
    modules when it holds more than that cycle."""
    successors = successors_of(edges)
    lines = []
    for tangle in tangles(successors):
        cycle = _cycle_in(tangle, successors)
        others = sorted(set(tangle) - set(cycle))
        lines.append(" -> ".join(cycle) + " (" + ", ".join(where(graph, e) for e in
                                                           pairwise(cycle)) + ")"
                     + (f"; tangled with {', '.join(others)}" if others else ""))
    return lines


def _cycle_in(component: list[str], successors: Mapping[str, list[str]]) -> list[str]:
    """A shortest cycle through the component's first module (breadth first, inside it)."""
    members, first = set(component), component[0]
    came_from: dict[str, str] = {}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for nxt in successors[node]:
                if nxt == first:
                    path = [node]
                    while path[-1] != first:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), first]
                if nxt in members and nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle in the component {component}")


def upward(edges: Iterable[Edge], layers: Layers) -> list[Edge]:
    return sorted(e for e in edges if not layers.allows(unit_of(e[0]), unit_of(e[1])))


def in_cycles(edges: Iterable[Edge]) -> set[Edge]:
    """The edges that close a cycle: both ends in one strongly connected component."""
    edges = list(edges)
    component_of = {m: i for i, tangle in enumerate(tangles(successors_of(edges)))
                    for m in tangle}
    return {(a, b) for a, b in edges
            if a in component_of and component_of.get(b) == component_of[a]}


def where(graph: Graph, edge: Edge) -> str:
    path, line = graph.edges[edge]
    return f"{path.relative_to(graph.root.parent)}:{line}"


@pytest.fixture(scope="module")
def graph() -> Graph:
    return build_graph()


@pytest.fixture(scope="module")
def layers() -> Layers:
    return parse_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def test_every_unit_of_the_code_has_its_layer(graph: Graph, layers: Layers) -> None:
    units = {unit_of(m) for m in graph.modules}
    missing = sorted(units - set(layers.rank))
    assert not missing, f"docs/architecture.md's layer block does not place {missing}"
    unbuilt = sorted(u for u in set(layers.rank) - units if "future" not in layers.notes[u])
    assert not unbuilt, f"the layer block names {unbuilt}: no such package or module " \
                        "(mark a layer not yet built with a `# future` note)"


def test_nothing_imports_upward(graph: Graph, layers: Layers) -> None:
    found = [f"{where(graph, e)}: {e[0]} imports {e[1]}: {broken_rule(e, layers)}"
             for e in upward(graph.edges, layers)]
    assert not found, "\n".join(found)


def broken_rule(edge: Edge, layers: Layers) -> str:
    low, high = unit_of(edge[0]), unit_of(edge[1])
    if layers.rank[low] == layers.rank[high]:
        return f"the peers {low} and {high} never import each other (docs/architecture.md)"
    return f"{high} stands above {low} in docs/architecture.md"


def test_no_import_cycle(graph: Graph) -> None:
    found = cycle_report(graph.edges, graph)
    assert not found, "\n".join(found)


# The checker itself, on made-up inputs: a checker that sees nothing would pass everything.

def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    root = tmp_path / "automa"
    (root / "low").mkdir(parents=True)
    (root / "high").mkdir()
    for init in (root / "__init__.py", root / "low" / "__init__.py",
                 root / "high" / "__init__.py"):
        init.write_text("")
    (root / "errors.py").write_text("")
    (root / "low" / "a.py").write_text("from . import b\n")
    (root / "low" / "b.py").write_text("from automa.low.a import thing\n")
    (root / "high" / "top.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "import automa.errors\n"
        "if TYPE_CHECKING:\n    from automa.low import a\n"
        "def late():\n    from ..low.b import other\n"
        "    importlib.import_module('automa.low')\n")
    edges = set(build_graph(root).edges)
    assert edges == {("automa.low.a", "automa.low.b"), ("automa.low.b", "automa.low.a"),
                     ("automa.high.top", "automa.errors"), ("automa.high.top", "automa.low.a"),
                     ("automa.high.top", "automa.low.b"), ("automa.high.top", "automa.low")}
    assert cycles(edges) == [["automa.low.a", "automa.low.b", "automa.low.a"]]
    layers = parse_layers(f"{BEGIN}\n```\nhigh | side\nlow  # x\nerrors\n```\n{END}")
    assert upward(edges | {("automa.low.b", "automa.high.top"),
                           ("automa.side.s", "automa.high.top")}, layers) \
        == [("automa.low.b", "automa.high.top"), ("automa.side.s", "automa.high.top")]


def test_the_layer_block_is_read_as_written() -> None:
    layers = parse_layers(f"prose\n{BEGIN}\n```text\na | b  # front\n\nc\n```\n{END}\nmore")
    assert layers.rank == {"a": 0, "b": 0, "c": 1}
    assert layers.notes["a"] == "front"
    with pytest.raises(ValueError, match="twice"):
        parse_layers(f"{BEGIN}\na\na\n{END}")
    with pytest.raises(ValueError, match="one"):
        parse_layers("no block")
