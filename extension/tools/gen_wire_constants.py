#!/usr/bin/env python3
"""Write extension/src/wireconstants.js from the host's wire definitions.

    python3 extension/tools/gen_wire_constants.py            # rewrite the file in the tree
    python3 extension/tools/gen_wire_constants.py --check    # exit 1 when it is out of date

The extension speaks the host's protocol, so every constant the two must agree on (protocol
version, id limit and attribute, version string, request and reply types, error codes, the
sanitizer's allowlist, ...) is read here from the host package and written as one ES module.
``extension/build.py`` writes it into every build, ``install/pack.py`` refuses to pack a build
whose copy differs, and ``tests/extension/test_wire_constants.py`` fails when the copy in the
tree is stale. Nothing in the file is edited by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, get_args

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "extension" / "src" / "wireconstants.js"

#: What the reader view's DOMPurify pass drops from the host's allowlist: responsive-image
#: sources (the snapshot already resolved the image in use), so <source> and its attributes.
READER_DROPS_TAGS = frozenset({"source"})
READER_DROPS_ATTRIBUTES = frozenset({"srcset", "sizes", "media"})


def _host() -> None:
    """Import the host from this checkout, not whatever blocksift is installed."""
    host = str(ROOT / "host")
    if host not in sys.path:
        sys.path.insert(0, host)


def _choices(model: Any, field: str) -> list[str]:
    """The values of a ``Literal`` field (or of a list of one), in declaration order."""
    annotation = model.model_fields[field].annotation
    args = get_args(annotation)
    if args and not isinstance(args[0], str):  # list[Literal[...]]
        args = get_args(args[0])
    return list(args)


def _bound(model: Any, field: str, kind: str) -> Any:
    """A numeric field's bound (``kind``: ``ge`` or ``le``) as the host's model declares it."""
    for rule in model.model_fields[field].metadata:
        if getattr(rule, kind, None) is not None:
            return getattr(rule, kind)
    raise LookupError(f"{model.__name__}.{field} has no {kind} bound")


def constants() -> dict[str, Any]:
    """Every shared constant, by its name in the extension."""
    _host()
    from blocksift import __version__
    from blocksift.actions.hide import HIDE_PLAN_VERSION
    from blocksift.content import (
        RTL_LANGUAGES,
        RTL_SCRIPTS,
        SAFE_ATTRIBUTES,
        SAFE_TAGS,
        SAFE_URL_SCHEMES,
    )
    from blocksift.wire import protocol
    from blocksift.wire.constants import (
        HIDDEN_ATTR,
        ID_ATTR,
        IMPORT_CHUNK_MAX_CHARS,
        IMPORT_MAX_BYTES,
        MAX_ID_LENGTH,
        PROTOCOL_VERSION,
        UNDO_IMPORT_MAX_RANGES,
        ErrorCode,
    )

    attributes = set().union(*SAFE_ATTRIBUTES.values())
    return {
        "PROTOCOL_VERSION": PROTOCOL_VERSION,
        "HOST_VERSION": __version__,
        "ID_ATTR": ID_ATTR,
        "HIDDEN_ATTR": HIDDEN_ATTR,
        "MAX_ID_LENGTH": MAX_ID_LENGTH,
        "REQUEST_TYPES": list(protocol.REQUEST_MODELS),
        "REPLY_TYPES": list(protocol.REPLY_MODELS),
        "ERROR_CODES": {code.name.lower(): int(code) for code in ErrorCode},
        "WANTS": _choices(protocol.ExtractRequest, "want"),
        "REQUEST_ACTIONS": _choices(protocol.ExtractRequest, "action"),
        "EXPORT_FORMATS": _choices(protocol.ExportSaveRequest, "format"),
        # how many examples one examples.list may ask for (the extension checks it first)
        "EXAMPLES_LIST_MAX": _bound(protocol.ExamplesListRequest, "limit", "le"),
        # examples.import: base64 characters a chunk may carry, bytes an upload may have
        "IMPORT_CHUNK_MAX_CHARS": IMPORT_CHUNK_MAX_CHARS,
        "IMPORT_MAX_BYTES": IMPORT_MAX_BYTES,
        # examples.undoImport: the most [first, last] runs of ids one request may carry
        "UNDO_IMPORT_MAX_RANGES": UNDO_IMPORT_MAX_RANGES,
        "HIDE_PLAN_VERSION": HIDE_PLAN_VERSION,
        "READER_ALLOWED_TAGS": sorted(SAFE_TAGS - READER_DROPS_TAGS),
        "READER_ALLOWED_ATTRIBUTES": sorted(attributes - READER_DROPS_ATTRIBUTES),
        "SAFE_URL_SCHEMES": sorted(SAFE_URL_SCHEMES),
        "RTL_LANGUAGES": sorted(RTL_LANGUAGES),
        "RTL_SCRIPTS": sorted(RTL_SCRIPTS),
    }


def _js(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return f"Object.freeze({text})" if isinstance(value, (list, dict)) else text


def render() -> str:
    """The text of wireconstants.js."""
    lines = [
        "// Generated from the host's wire definitions by extension/tools/gen_wire_constants.py.",
        "// Do not edit: change the host and run the script (the build and pack steps check it).",
        "",
    ]
    for name, value in constants().items():
        lines.append(f"export const {name} = {_js(value)};")
    return "\n".join(lines) + "\n"


def write(target: Path = TARGET) -> Path:
    target.write_text(render(), encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the file in the tree differs from the host's")
    parser.add_argument("--out", type=Path, default=TARGET, help="file to write or check")
    args = parser.parse_args(argv)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != render():
            print(f"{args.out} is out of date with the host; run "
                  "python3 extension/tools/gen_wire_constants.py", file=sys.stderr)
            return 1
        return 0
    print(write(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
