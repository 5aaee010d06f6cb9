#!/usr/bin/env python3
"""Assemble the unpacked extension for each browser from one source tree.

``extension/src`` (shared ES modules, pages, the page agent), ``extension/vendor`` and
``extension/icons`` are copied as they are; the manifest is ``platform/manifest.base.json``
deep-merged with ``platform/<browser>/manifest.json`` (background kind, key, gecko id), the
way uBlock Origin Lite builds ``dist/<browser>`` from ``platform/mv3/<browser>``.
``wireconstants.js`` (protocol version, id limits, allowlist, ...) is generated afresh from the
host package in this checkout (``tools/gen_wire_constants.py``), and the manifest's ``version``
is the host's: the two always ship as one version speaking one protocol.

Usage::

    python3 extension/build.py                  # both browsers into extension/dist/<browser>/
    python3 extension/build.py firefox --out /tmp/ext
    python3 extension/build.py chromium --host-permission 'http://127.0.0.1/*'

``--host-permission`` grants a site up front, as the user's click (activeTab) would; the
end-to-end tests use it for the pages they serve on 127.0.0.1, since no one clicks there.
``--expose-pages`` (tests, Firefox) lets a served page open the popup, options and reader pages.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BROWSERS = ("chromium", "firefox")
COPIED = ("src", "vendor", "icons")


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Deep merge: nested objects merge, everything else in ``extra`` replaces ``base``."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def manifest_for(browser: str, host_permissions: tuple[str, ...] = (),
                 expose_pages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The manifest of ``browser``: the shared base plus that browser's bits."""
    if browser not in BROWSERS:
        raise ValueError(f"unknown browser {browser!r}; choose from {', '.join(BROWSERS)}")
    base = json.loads((HERE / "platform" / "manifest.base.json").read_text(encoding="utf-8"))
    extra = json.loads((HERE / "platform" / browser / "manifest.json").read_text(encoding="utf-8"))
    manifest = merge(base, extra)
    manifest["version"] = _wire_constants().constants()["HOST_VERSION"]
    if host_permissions:
        manifest["host_permissions"] = list(host_permissions)
    if expose_pages:
        # Tests only: WebDriver BiDi cannot navigate to moz-extension:// URLs itself, so the
        # test pages open the extension's pages, which must be web-accessible to them.
        manifest["web_accessible_resources"] = [
            {"resources": ["popup.html", "options.html", "reader.html"],
             "matches": list(expose_pages)}]
    return manifest


def build(browser: str, out: Path | None = None, host_permissions: tuple[str, ...] = (),
          expose_pages: tuple[str, ...] = ()) -> Path:
    """Write the unpacked extension for ``browser`` into ``out`` (default dist/<browser>)."""
    target = Path(out) if out else HERE / "dist" / browser
    manifest = manifest_for(browser, host_permissions, expose_pages)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    shutil.copytree(HERE / "src", target, dirs_exist_ok=True)
    shutil.copytree(HERE / "vendor", target / "vendor")
    shutil.copytree(HERE / "icons", target / "icons")
    (target / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    _wire_constants().write(target / "wireconstants.js")
    return target


def _wire_constants():
    """The generator module (tools/gen_wire_constants.py), loaded from its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_wire_constants",
                                                  HERE / "tools" / "gen_wire_constants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def missing_dependencies(script: str, exc: ImportError) -> str:
    """One line for a Python that cannot import the host (the system Python, a new shell
    without the virtual environment): what is missing and how to run the script instead."""
    return (f"{script}: error: it reads the protocol's constants from the blocksift host, "
            f"and this Python ({sys.executable}) cannot import it ({exc}); run it with the "
            f"Python blocksift is installed in: `. .venv/bin/activate` first, or "
            f"`.venv/bin/python {script}`")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("browsers", nargs="*", metavar="BROWSER",
                        help=f"browsers to build: {', '.join(BROWSERS)} (default: both)")
    parser.add_argument("--out", type=Path, help="output dir (only with one browser)")
    parser.add_argument("--host-permission", action="append", default=[],
                        help="grant this match pattern up front (tests)")
    parser.add_argument("--expose-pages", action="append", default=[],
                        help="make popup/options/reader web-accessible to this pattern (tests)")
    args = parser.parse_args(argv)
    browsers = args.browsers or list(BROWSERS)
    unknown = [name for name in browsers if name not in BROWSERS]
    if unknown:
        parser.error(f"unknown browser {unknown[0]!r}; choose from {', '.join(BROWSERS)}")
    if args.out and len(browsers) != 1:
        parser.error("--out needs exactly one browser")
    for browser in browsers:
        try:
            path = build(browser, args.out, tuple(args.host_permission),
                         tuple(args.expose_pages))
        except ImportError as exc:
            print(missing_dependencies("extension/build.py", exc), file=sys.stderr)
            return 2
        print(f"{browser}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
