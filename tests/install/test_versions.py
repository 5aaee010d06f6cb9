"""One project, one version: the Python package, the host's hello and the extension's
manifest (what the browser shows, what pack names the archives after) agree."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import tomllib

from install_support import REPO

import blocksift


def test_package_host_and_extension_versions_agree() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    # the version is written once, in blocksift/__init__.py; the build reads it from there
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "blocksift.__version__"}
    spec = importlib.util.spec_from_file_location("blocksift_build", REPO / "extension" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    versions = {"installed distribution": importlib.metadata.version("blocksift"),
                "blocksift.__version__": blocksift.__version__,
                "chromium manifest": build.manifest_for("chromium")["version"],
                "firefox manifest": build.manifest_for("firefox")["version"]}
    assert len(set(versions.values())) == 1, versions
