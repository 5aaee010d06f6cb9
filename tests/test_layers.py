"""The layer rules of the host package, checked on its imports (every import, lazy ones too).

Layers, bottom up:

1. shared types and parsing: page, tokenizer, sites, the address a saved page names for
   itself, shingles, labeled pages, metadata and its title scorer,
   Markdown rendering, WARC and JSON-LD reading, tables for a terminal, the optional compiled modules'
   import (``speedups``), and the wire format's foundations (``wire.constants``: version, limits, error codes; ``wire.results``:
   the one result model every algorithm returns);
2. algorithms;
3. actions (hide plans built on their results);
4. the wire messages (``wire.protocol``: requests and replies, which carry hide plans);
5. storage (and file exports), evaluation and offline work (``auto_training``,
   ``crawl``, the datatrove and Ray integrations);
6. the service (``service/``: sessions, the worker pool, training jobs);
7. transports (``transport/``: native messaging, the WebSocket server, its client and auth);
8. the CLI and browser registration.

An arrow may only point down; each rule below lists what a layer must not import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "blocksift"

SHARED = ("blocksift.page", "blocksift.rawscan", "blocksift.htmltokenizer",
          "blocksift.content", "blocksift.sites", "blocksift.page_address",
          "blocksift.shingles", "blocksift.labeled",
          "blocksift.paths", "blocksift.repair", "blocksift.metadata", "blocksift.titles",
          "blocksift.render_markdown", "blocksift.warc", "blocksift.index_prices", "blocksift.json_ld",
          "blocksift.terminal", "blocksift.speedups", "blocksift.wire.constants",
          "blocksift.wire.results")
ALGORITHMS = ("blocksift.algorithms",)
ACTIONS = ("blocksift.actions",)
MESSAGES = ("blocksift.wire.protocol",)
STORAGE = ("blocksift.storage", "blocksift.export")
EVALUATION = ("blocksift.evaluation", "blocksift.auto_training", "blocksift.crawl",
              "blocksift.integrations")
SERVICE = ("blocksift.service",)
TRANSPORTS = ("blocksift.transport",)
CLI = ("blocksift.cli", "blocksift.__main__", "blocksift.registration")

#: (layer, the layers it must not import)
RULES = [
    (SHARED, ALGORITHMS + ACTIONS + MESSAGES + STORAGE + EVALUATION + SERVICE + TRANSPORTS
     + CLI),
    (ALGORITHMS, ACTIONS + MESSAGES + STORAGE + EVALUATION + SERVICE + TRANSPORTS + CLI),
    (ACTIONS, MESSAGES + STORAGE + EVALUATION + SERVICE + TRANSPORTS + CLI),
    (MESSAGES, STORAGE + EVALUATION + SERVICE + TRANSPORTS + CLI),
    (STORAGE, SERVICE + TRANSPORTS + CLI),
    (EVALUATION, SERVICE + TRANSPORTS + CLI),
    (SERVICE, TRANSPORTS + CLI),
    (TRANSPORTS, CLI),
]
LAYERS = (SHARED, ALGORITHMS, ACTIONS, MESSAGES, STORAGE, EVALUATION, SERVICE, TRANSPORTS, CLI)


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


def test_every_module_has_a_layer():
    # a new module must be placed in a layer, or the rules would not see its imports
    # (the package roots ``blocksift`` and ``blocksift.wire`` import nothing: no layer needed)
    roots = ("blocksift", "blocksift.wire")
    modules = package_modules()
    unplaced = [name for name in modules if name not in roots
                and sum(within(name, layer) for layer in LAYERS) != 1]
    assert unplaced == []
    assert [imports_of(modules[name], name) for name in roots] == [[], []]


@pytest.mark.parametrize("source, where", [
    ("from ..storage import sitestore\n", "algorithms/x.py"),
    ("def f():\n    from ..evaluation.metric import tokens\n", "algorithms/x.py"),
    ("import blocksift.cli.main\n", "algorithms/x.py"),
    ("from ..service import Host\n", "storage/x.py"),
    ("from ..service import worker\n", "evaluation/x.py"),
    ("from .algorithms import farsw\n", "page.py"),
    ("from .protocol import REQUEST_MODELS\n", "wire/results.py"),
    ("from ..actions.hide import HidePlan\n", "wire/constants.py"),
    ("from ..service.session import Service\n", "wire/protocol.py"),
    ("from ..wire.protocol import ResultReply\n", "algorithms/x.py"),
    ("from ..transport import ws\n", "service/session.py"),
    ("def f():\n    from ..cli.main import main\n", "transport/x.py"),
])
def test_an_upward_import_is_caught(tmp_path, source, where):
    # the rule check itself can fail: a module placed in a layer with a forbidden import
    fake_root = tmp_path / "blocksift"
    path = fake_root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, "utf-8")
    assert violations({module_name(path, fake_root): path})
