"""docs/install.md, read the way a new user follows it: the set-up commands at its top."""

from __future__ import annotations

import re

from install_support import REPO

DOC = (REPO / "docs" / "install.md").read_text(encoding="utf-8")


def first_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", DOC, re.S)
    assert block, "docs/install.md has no sh block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines()
            if line.split("#")[0].strip()]


def test_set_up_needs_no_pip_into_the_system_python_and_builds_the_extension() -> None:
    commands = first_commands()
    # Debian, Ubuntu and Homebrew refuse `pip install` outside a virtual environment; the
    # README's first command has already installed blocksift into .venv.
    assert not any("pip install" in c for c in commands), commands
    assert commands[:2] == ["blocksift install", "blocksift doctor"], commands
    assert any(c.endswith("extension/build.py") for c in commands), commands
    assert (REPO / "extension" / "build.py").is_file()


def test_says_how_to_load_the_extension_in_each_browser() -> None:
    for words in ("Load unpacked", "extension/dist/chromium", "Load Temporary Add-on",
                  "extension/dist/firefox", "xpinstall.signatures.required"):
        assert words in " ".join(DOC.split()), words
