"""The test suite keeps off the person's own blocksift folders (tests/conftest.py)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from blocksift import paths


def test_the_suites_per_user_folders_are_a_temporary_home():
    home = Path(os.environ["BLOCKSIFT_HOME"])
    assert home.is_relative_to(Path(tempfile.gettempdir()))
    for where in (paths.data_dir(), paths.config_dir(), paths.state_dir(), paths.cache_dir(),
                  paths.model_path("farsw")):
        assert Path(where).is_relative_to(home)
