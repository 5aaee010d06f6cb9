"""The benchmark scripts are run by hand, not by the suite, so a name the package drops or
renames would break them unseen (the docs quote their commands for every figure). Each
script's imports of blocksift must resolve, and every ``module.attribute`` it reads of an
imported blocksift module must exist."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


def _blocksift_imports(tree: ast.AST) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(alias -> module path, for names bound to modules) and (module, name) of every
    ``from blocksift... import name`` anywhere in the script."""
    modules: dict[str, str] = {}
    names: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "blocksift" and alias.asname:
                    modules[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "blocksift":
            for alias in node.names:
                names.append((node.module, alias.name))
                candidate = f"{node.module}.{alias.name}"
                try:
                    importlib.import_module(candidate)
                except ImportError:
                    continue  # a function or class, not a submodule
                modules[alias.asname or alias.name] = candidate
    return modules, names


def _attributes(node: ast.AST, shadowed: frozenset[str] = frozenset()
                ) -> list[tuple[ast.Attribute, frozenset[str]]]:
    """Every ``name.attribute`` read under ``node``, with the names a function around it
    binds locally (its arguments and assignments: a local ``metadata`` is not the module)."""
    found = []
    for child in ast.iter_child_nodes(node):
        inner = shadowed
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = child.args
            bound = {a.arg for a in arguments.args + arguments.kwonlyargs + arguments.posonlyargs}
            bound |= {n.id for n in ast.walk(child)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            inner = shadowed | frozenset(bound)
        if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name):
            found.append((child, inner))
        found += _attributes(child, inner)
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_what_a_benchmark_reads_of_blocksift_exists(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
    modules, names = _blocksift_imports(tree)
    missing = []
    for module, name in names:
        if not hasattr(importlib.import_module(module), name):
            missing.append(f"from {module} import {name}")
    loaded = {alias: importlib.import_module(path) for alias, path in modules.items()}
    for node, shadowed in _attributes(tree):
        name = node.value.id
        if name in loaded and name not in shadowed and not hasattr(loaded[name], node.attr):
            missing.append(f"{modules[name]}.{node.attr} (line {node.lineno})")
    assert not missing, f"{script.name} reads what blocksift no longer has: {missing}"
