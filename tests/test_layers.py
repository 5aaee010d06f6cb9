"""The layer rules of the host package, checked on its imports (every import, lazy ones too).

Layers, bottom up: shared types and parsing (page, tokenizer, results, sites, shingles,
...), algorithms, actions (hide plans built on their results), storage and evaluation, transports (the service, its worker, the wire
format, the WebSocket client and auth), the CLI. An arrow may only point down:

* algorithms import nothing from actions, storage, transports, the CLI or evaluation;
* actions import nothing from storage, transports, the CLI or evaluation;
* storage and evaluation import nothing from transports or the CLI;
* the shared modules import nothing from any layer above them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "blocksift"

ALGORITHMS = ("blocksift.algorithms",)
ACTIONS = ("blocksift.actions",)
STORAGE = ("blocksift.storage",)
EVALUATION = ("blocksift.evaluation",)
TRANSPORTS = ("blocksift.transport", "blocksift.service", "blocksift.worker",
              "blocksift.client", "blocksift.auth", "blocksift.wire", "blocksift.protocol",
              "blocksift.training")
CLI = ("blocksift.cli", "blocksift.__main__", "blocksift.registration")
SHARED = ("blocksift.page", "blocksift.rawscan", "blocksift.htmltokenizer",
          "blocksift.results", "blocksift.content", "blocksift.sites", "blocksift.shingles",
          "blocksift.labeled", "blocksift.paths")

#: (layer, the layers it must not import)
RULES = [
    (ALGORITHMS, ACTIONS + STORAGE + TRANSPORTS + CLI + EVALUATION),
    (ACTIONS, STORAGE + TRANSPORTS + CLI + EVALUATION),
    (STORAGE, TRANSPORTS + CLI),
    (EVALUATION, TRANSPORTS + CLI),
    (SHARED, ALGORITHMS + ACTIONS + STORAGE + EVALUATION + TRANSPORTS + CLI),
]


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str) -> list[tuple[int, str]]:
    """``(line, absolute module)`` of every import in module ``name`` at ``path``, relative
    ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # "from . import x" / "from .. import algorithms" name modules too
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def within(module: str, layer: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in layer)


def violations(modules: dict[str, Path]) -> list[str]:
    found = []
    for name, path in sorted(modules.items()):
        for layer, forbidden in RULES:
            if not within(name, layer):
                continue
            for line, target in imports_of(path, name):
                if within(target, forbidden):
                    found.append(f"{name}:{line} imports {target}")
    return sorted(set(found))


def package_modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def test_no_import_points_up_a_layer():
    modules = package_modules()
    assert len(modules) > 30
    assert violations(modules) == []


@pytest.mark.parametrize("source, where", [
    ("from ..storage import sitestore\n", "algorithms/x.py"),
    ("def f():\n    from ..evaluation.metric import tokens\n", "algorithms/x.py"),
    ("import blocksift.cli.main\n", "algorithms/x.py"),
    ("from ..service import Host\n", "storage/x.py"),
    ("from .. import worker\n", "evaluation/x.py"),
    ("from .algorithms import farsw\n", "page.py"),
])
def test_an_upward_import_is_caught(tmp_path, source, where):
    # the rule check itself can fail: a module placed in a layer with a forbidden import
    fake_root = tmp_path / "blocksift"
    path = fake_root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, "utf-8")
    assert violations({module_name(path, fake_root): path})
