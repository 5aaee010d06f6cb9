"""The README's two commands are what a new user types first: on stock Debian/Ubuntu and
Homebrew the system Python refuses `pip install` outside a virtual environment, and there
is no bare `python` command. .ci/run runs exactly these commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
#: A command line starting with `python` (a module or a script), not prose about it.
BARE_PYTHON = re.compile(r"(?:^|(?<=[\s`(]))python (?:-m \w|[\w./-]+\.py\b)")


def readme_command(number: int) -> str:
    match = re.search(rf"^# {number}\. .*\n(.+)$", README, flags=re.M)
    assert match, f"README has no command {number}"
    return match.group(1)


@pytest.mark.parametrize("number", [1, 2])
def test_readme_commands_install_into_a_virtualenv(number):
    command = readme_command(number)
    steps = [step.strip() for step in command.split("&&")]
    assert steps[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"], steps
    assert all("pip install" not in step for step in steps[:2])
    assert not BARE_PYTHON.search(command)


def test_ci_runs_the_readme_commands_as_written():
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert 'readme_command 1' in script and 'readme_command 2' in script
    assert "pip install" not in script.split("readme_command()")[1], \
        ".ci/run must not install anything the README does not"


def test_docs_and_scripts_never_assume_a_bare_python_command():
    places = [REPO / "README.md", *(REPO / "docs").glob("*.md"),
              *(REPO / "benchmarks").glob("*.py"), REPO / "benchmarks" / "README.md",
              REPO / "install" / "pack.py", REPO / "extension" / "build.py",
              *(REPO / "tools").glob("*.py")]
    offenders = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
                 for path in places if path.exists()
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if BARE_PYTHON.search(line) and "```" not in line]
    assert not offenders, "\n".join(offenders)


def test_readme_says_batch_reads_gzip_and_what_ctrl_c_leaves():
    """The README's command-line section names gzip JSONL on stdin and what each long
    command leaves when Ctrl-C stops it, in the words batch prints."""
    from blocksift.cli.cmd_batch import interrupted_summary

    section = README.split("## Command line", 1)[1].split("### Exit codes", 1)[0]
    prose = " ".join(section.split())
    assert "blocksift batch < pages.jsonl.gz > out.jsonl" in prose
    said = interrupted_summary(120, 400, "out.jsonl", parquet=False)
    assert f"`blocksift: interrupted: {said}`" in prose
    ctrl_c = prose[prose.index("Ctrl-C (exit 130)"):]
    assert "`examples import`" in ctrl_c and "`eval`" in ctrl_c and "`--warc`" in ctrl_c


def test_readme_names_every_command_whose_bar_can_be_forced():
    """Each command taking --progress is named where the README says so (only batch and
    eval were, when cluster, train and examples import took it too)."""
    import subprocess
    import sys

    prose = " ".join(README.split("## Command line", 1)[1].split("### Exit codes", 1)[0]
                     .split())
    said = prose[prose.index("`--progress` /"):][:300]
    for name in ("batch", "eval", "cluster", "train", "examples import"):
        helped = subprocess.run([sys.executable, "-m", "blocksift", *name.split(), "--help"],
                                capture_output=True, text=True, timeout=120)
        assert "--progress" in helped.stdout, name
        assert name == "batch" or f"`{name}`" in said, (name, said)
