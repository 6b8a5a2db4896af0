"""Imports go down the layers (core, then one package per game, then the table, then the interfaces), and no
module imports itself through others: read from the source, every import counted (type-only and deferred too)."""

from __future__ import annotations

import ast
from pathlib import Path

import cardlogic

SOURCE = Path(cardlogic.__file__).parent
LAYERS = {"literature": 1, "knektpass": 1, "table": 2, "cli": 3, "bench": 3, "web": 3, "__main__": 3}
"""Below them all (layer 0): the shared core (cards, constraints, inference, belief, dispatch, rating...)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in SOURCE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The cardlogic modules ``name`` imports: ``from package import module`` counts as the module itself."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _layer(name: str) -> int:
    parts = name.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def test_imports_only_go_down_the_layers():
    upward = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if _layer(target) > _layer(name)
    )
    assert upward == []


def test_the_inference_programs_share_the_packed_model_from_below():
    for program in ("exact", "frontier", "sparse"):
        assert "cardlogic.inference.packed" in GRAPH[f"cardlogic.inference.{program}"]
    assert not GRAPH["cardlogic.inference.packed"] & {
        f"cardlogic.inference.{p}" for p in ("exact", "frontier", "sparse")
    }


def test_no_module_imports_itself_through_others():
    """Package ``__init__`` modules re-export their submodules' names, so edges into a package are left out."""
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    graph = {name: targets - packages for name, targets in GRAPH.items() if name not in packages}
    cycles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_files_the_test_run_starts_first_exist():
    from tests.conftest import STARTED_FIRST

    here = Path(__file__).parent
    assert [name for name in STARTED_FIRST if not (here / name).is_file()] == []
