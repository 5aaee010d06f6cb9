#!/usr/bin/env python3
"""Pack the built extension: a .zip for Chromium-family browsers, an .xpi for Firefox.

    python3 install/pack.py --browser chromium --out dist/
    python3 install/pack.py --browser firefox --out dist/

Source: ``--source DIR``, else a fresh build of the checkout's sources (``extension/build.py``
into a temporary folder, so an earlier ``extension/dist`` that predates the sources is never
shipped), else (no build.py: outside a checkout) ``extension/dist/<browser>/`` or
``extension/`` when it holds a manifest.json. ``manifest.json`` must sit at the archive
root (Chrome Web Store "Prepare your extension"; Firefox .xpi files are plain zips too).

Archives are reproducible: entries sorted by path, every timestamp fixed (SOURCE_DATE_EPOCH
when set, else 1980-01-01, the zip epoch), fixed permissions, no directory entries, and
dotfiles, private keys and build junk left out. Packing twice gives identical bytes.

Checks before packing: the manifest is JSON with ``manifest_version`` 3 and a ``version``;
for Chromium its ``key`` must give our fixed id (else native messaging is refused, since the
host manifest allows only that origin); for Firefox ``browser_specific_settings.gecko.id``
must be ours (Firefox native messaging matches ``allowed_extensions`` against it); and the
build's ``wireconstants.js`` must be what ``extension/tools/gen_wire_constants.py`` generates
from this checkout's host (else: rebuild). ``--store`` drops ``key`` from the Chromium
manifest: the store assigns the id, and one report (PMDevSolutions/Optia#60) says its upload
rejects a manifest with ``key``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The ids come from the host package (one source of truth); the script runs from a checkout.
sys.path.insert(0, str(ROOT / "host"))

from blocksift.registration.browsers import (  # noqa: E402
    CHROMIUM_EXTENSION_ID,
    FIREFOX_EXTENSION_ID,
    extension_id_from_key,
)

TARGETS = {"chromium": ".zip", "firefox": ".xpi"}
#: Never shipped: VCS/editor files, private keys, earlier packages, dependency trees.
EXCLUDED_SUFFIXES = (".pem", ".crx", ".zip", ".xpi", ".key", ".pyc")
EXCLUDED_DIRS = {"node_modules", "__pycache__"}
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


class PackError(Exception):
    """The source cannot be packed; the message says why and what to do."""


def find_source(target: str, root: Path = ROOT) -> Path:
    """Without ``extension/build.py`` (packing outside a checkout): ``extension/dist/<target>/``
    when built, else ``extension/`` when it holds a manifest.json."""
    built = root / "extension" / "dist" / target
    if (built / "manifest.json").is_file():
        return built
    plain = root / "extension"
    if (plain / "manifest.json").is_file():
        return plain
    raise PackError(f"no extension to pack: neither {built}/manifest.json nor "
                    f"{plain}/manifest.json exists; build the extension first or pass --source")


@contextlib.contextmanager
def fresh_build(target: str, root: Path = ROOT) -> Iterator[Path]:
    """The checkout's sources built afresh for ``target`` into a temporary folder (never an
    earlier ``extension/dist`` that may predate the sources); the folder is removed after."""
    with tempfile.TemporaryDirectory(prefix="blocksift-pack-") as tmp:
        out = Path(tmp) / target
        done = subprocess.run([sys.executable, str(root / "extension" / "build.py"), target,
                               "--out", str(out)], capture_output=True, text=True,
                              check=False)
        if done.returncode != 0 or not (out / "manifest.json").is_file():
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise PackError(f"building the extension failed: {last}")
        yield out


def check_manifest(manifest: dict, target: str) -> list[str]:
    """Problems that would make the package useless with our native host (empty = fine)."""
    problems = []
    if manifest.get("manifest_version") != 3:
        problems.append(f"manifest_version is {manifest.get('manifest_version')!r}, expected 3")
    if not isinstance(manifest.get("version"), str):
        problems.append("manifest has no version string")
    if target == "chromium":
        key = manifest.get("key")
        if not isinstance(key, str):
            problems.append("manifest has no 'key': the extension id would depend on the "
                            "install path and the host would refuse it")
        else:
            try:
                got = extension_id_from_key(key)
            except ValueError as exc:
                problems.append(f"manifest 'key' is not base64: {exc}")
            else:
                if got != CHROMIUM_EXTENSION_ID:
                    problems.append(f"manifest 'key' gives id {got}, expected "
                                    f"{CHROMIUM_EXTENSION_ID}")
    else:
        gecko = (manifest.get("browser_specific_settings") or {}).get("gecko") or {}
        if gecko.get("id") != FIREFOX_EXTENSION_ID:
            problems.append(f"browser_specific_settings.gecko.id is {gecko.get('id')!r}, "
                            f"expected {FIREFOX_EXTENSION_ID!r}")
    return problems


def check_wire_constants(source: Path, root: Path = ROOT) -> list[str]:
    """Problems with the build's ``wireconstants.js``: it must be what the host in this
    checkout generates (``extension/tools/gen_wire_constants.py``), or the extension would
    ship speaking another protocol version, id limit or allowlist than the host it talks to."""
    shipped = source / "wireconstants.js"
    if not shipped.is_file():
        if (source / "protocol.js").is_file():
            return ["wireconstants.js is missing; build with extension/build.py"]
        return []  # not our extension's layout (nothing speaks the protocol)
    generator = root / "extension" / "tools" / "gen_wire_constants.py"
    if not generator.is_file():
        return []  # packing outside a checkout: nothing to compare with
    if shipped.read_text(encoding="utf-8") != _render_wire_constants(generator):
        return ["wireconstants.js differs from the host's definitions; rebuild with "
                "python3 extension/build.py"]
    return []


def _render_wire_constants(generator: Path) -> str:
    """What ``gen_wire_constants.py`` generates from this checkout's host; a PackError (one
    line, with the way out) when this Python cannot import the host."""
    spec = importlib.util.spec_from_file_location("gen_wire_constants", generator)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        return module.render()
    except ImportError as exc:
        raise PackError(f"it checks the extension against the blocksift host, and this Python "
                        f"({sys.executable}) cannot import it ({exc}); run it with the Python "
                        "blocksift is installed in: `. .venv/bin/activate` first, or "
                        "`.venv/bin/python install/pack.py ...`") from None


def collect(source: Path) -> list[Path]:
    """Files to ship, relative to ``source``, sorted by their archive name."""
    files = []
    for path in source.rglob("*"):
        rel = path.relative_to(source)
        if any(part.startswith(".") or part in EXCLUDED_DIRS for part in rel.parts):
            continue
        if path.is_symlink() or not path.is_file():
            continue  # symlinks could leak files from outside the extension
        if path.name.lower().endswith(EXCLUDED_SUFFIXES):
            continue
        files.append(rel)
    return sorted(files, key=lambda p: p.as_posix())


def _timestamp() -> tuple[int, int, int, int, int, int]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        t = time.gmtime(max(int(epoch), 315532800))  # zip cannot go before 1980
        return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec - t.tm_sec % 2)
    return ZIP_EPOCH


def pack(target: str, out_dir: Path, source: Path | None = None, *, store: bool = False,
         root: Path = ROOT) -> Path:
    """Write the archive for ``target`` into ``out_dir`` and return its path."""
    if target not in TARGETS:
        raise PackError(f"unknown browser {target!r}; choose chromium or firefox")
    if source is None and (root / "extension" / "build.py").is_file():
        generator = root / "extension" / "tools" / "gen_wire_constants.py"
        if generator.is_file():
            _render_wire_constants(generator)  # before building: the build needs the host too
        with fresh_build(target, root) as built:
            return pack(target, out_dir, built, store=store, root=root)
    source = source if source is not None else find_source(target, root)
    manifest_file = source / "manifest.json"
    try:
        manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PackError(f"{manifest_file} does not exist") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise PackError(f"{manifest_file} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict):
        raise PackError(f"{manifest_file} is not a JSON object")
    problems = check_manifest(manifest, target) + check_wire_constants(source, root)
    if problems:
        raise PackError(f"{manifest_file}: " + "; ".join(problems))
    manifest_bytes = manifest_file.read_bytes()
    if store and target == "chromium":
        manifest.pop("key", None)
        manifest_bytes = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    suffix = "-store" if store and target == "chromium" else ""
    name = f"blocksift-{manifest['version']}-{target}{suffix}{TARGETS[target]}"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / name
    stamp = _timestamp()
    tmp = out.with_name(out.name + ".part")
    try:
        with zipfile.ZipFile(tmp, "w") as archive:
            for rel in collect(source):
                info = zipfile.ZipInfo(rel.as_posix(), date_time=stamp)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3  # "unix", whatever OS packs it
                info.external_attr = 0o100644 << 16
                data = manifest_bytes if rel.as_posix() == "manifest.json" else \
                    (source / rel).read_bytes()
                archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED,
                                 compresslevel=9)
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)  # never leave half an archive behind
        raise
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", required=True, action="append", choices=sorted(TARGETS),
                        help="chromium (zip for Chrome, Chromium, Edge, Brave) or firefox (xpi); "
                             "repeatable")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output directory")
    parser.add_argument("--source", type=Path, help="unpacked extension directory to pack")
    parser.add_argument("--store", action="store_true",
                        help="drop the manifest 'key' (for a Chrome Web Store upload)")
    args = parser.parse_args(argv)
    for target in dict.fromkeys(args.browser):
        try:
            out = pack(target, args.out, args.source, store=args.store)
        except PackError as exc:
            print(f"pack: {exc}", file=sys.stderr)
            return 1
        digest = hashlib.sha256(out.read_bytes()).hexdigest()
        with zipfile.ZipFile(out) as archive:
            count = len(archive.namelist())
        print(f"{out}  {count} files  sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
