"""The command line run as a real process, as a user runs it (shared by the CLI tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "article.html"
DATASET = REPO / "tests" / "fixtures" / "dataset"


def blocksift(*args: str, stdin: str | None = None, home: Path | None = None
              ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"))
    if home is not None:
        env["BLOCKSIFT_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "blocksift", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO)
