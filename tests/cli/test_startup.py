"""Start-up imports only what the command needs (speed is measured in
benchmarks/bench_startup.py; these tests pin the cause: which modules load)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_terminal import REPO

PROBE = """
import json, sys
from blocksift.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print("\\n@@" + json.dumps(sorted(sys.modules)))
"""
HEAVY = ("pydantic", "lxml", "numpy", "tqdm", "nh3", "websockets", "asyncio", "sqlite3",
         "charset_normalizer", "platformdirs")


def modules_after(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True,
                          text=True, timeout=120, cwd=REPO,
                          env=dict(os.environ, PYTHONPATH=str(REPO / "host")))
    return set(json.loads(done.stdout.rsplit("\n@@", 1)[1]))


def top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_version_and_help_import_no_command_and_no_dependency(args):
    loaded = modules_after(*args)
    ours = {m for m in loaded if m.startswith("blocksift")}
    assert ours == {"blocksift", "blocksift.cli", "blocksift.cli.main"}, ours
    assert not top_level(loaded) & set(HEAVY), top_level(loaded) & set(HEAVY)


def test_a_command_imports_only_its_own_module():
    loaded = modules_after("extract", "--help")
    commands = {m for m in loaded if m.startswith("blocksift.cli.cmd_")}
    assert commands == {"blocksift.cli.cmd_extract"}
    assert not {m for m in loaded if m.startswith("blocksift.registration")}
    assert not top_level(loaded) & {"tqdm", "websockets", "asyncio", "nh3", "sqlite3"}


def test_doctor_help_does_not_load_the_doctor():
    loaded = modules_after("doctor", "--help")
    registration = {m for m in loaded if m.startswith("blocksift.registration")}
    assert registration == {"blocksift.registration", "blocksift.registration.browsers"}


def test_version_does_not_even_build_a_parser():
    assert "argparse" not in modules_after("--version")
