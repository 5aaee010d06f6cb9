"""Where the host may write an export a client asked for: the one path policy.

A request over native messaging or WebSocket may name the file to write (``examples.export``).
The host writes it only inside the default exports folder (``<data dir>/exports``), the
reader's export folder the user chose on the options page (:func:`blocksift.export.chosen_folder`)
or a folder allowed with ``blocksift examples export-folders --add DIR`` (kept in
``<config dir>/export-folders.json``), and only as a ``.jsonl`` or ``.jsonl.gz`` file; the
containment rule is :func:`blocksift.paths.path_within` (``..`` and symlinks resolved), the
same one the reader's ``export.save`` uses. The CLI's own ``examples export PATH`` is the user
typing a path and is not limited.
"""

from __future__ import annotations

import json
from pathlib import Path

DEFAULT_FILE_NAME = "pages.jsonl.gz"
_SUFFIXES = (".jsonl", ".jsonl.gz")


class ExportPathRefused(ValueError):
    """The requested export path is outside every folder the user allowed."""


def default_folder() -> Path:
    from ..paths import data_dir

    return data_dir() / "exports"


def _folders_file() -> Path:
    from ..paths import config_dir

    return config_dir() / "export-folders.json"


def chosen_folders() -> list[Path]:
    """Folders the user allowed for exports (besides the default one)."""
    try:
        listed = json.loads(_folders_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [Path(item) for item in listed if isinstance(item, str)] \
        if isinstance(listed, list) else []


def set_chosen_folders(folders: list[Path]) -> None:
    from ..paths import ensure_private_dir, write_atomic

    path = _folders_file()
    ensure_private_dir(path.parent)
    unique = list(dict.fromkeys(str(Path(f).expanduser().resolve()) for f in folders))
    write_atomic(path, json.dumps(unique, indent=1))


def allowed_folders() -> list[Path]:
    from ..export import chosen_folder

    reader_folder = chosen_folder()
    return [default_folder(), *([reader_folder] if reader_folder else []), *chosen_folders()]


def export_target(requested: str | None, file_name: str = DEFAULT_FILE_NAME) -> Path:
    """The file to write for a client's export request, or :class:`ExportPathRefused`.

    ``requested``: None (the default folder), a folder (the file is ``file_name`` in it) or a
    ``.jsonl``/``.jsonl.gz`` file; relative paths are taken inside the default folder.
    """
    default = default_folder()
    if not requested:
        return default / file_name
    if "\x00" in requested:
        raise ExportPathRefused("the export path holds a NUL character")
    candidate = Path(requested).expanduser()
    if not candidate.is_absolute():
        candidate = default / candidate
    if not candidate.name.endswith(_SUFFIXES):
        candidate = candidate / file_name
    # Resolve symlinks and "..", then require the result inside an allowed folder.
    from ..paths import PathOutsideFolder, path_within

    for folder in allowed_folders():
        try:
            return path_within(folder.expanduser(), candidate)
        except PathOutsideFolder:
            continue
    allowed = ", ".join(str(f) for f in allowed_folders())
    raise ExportPathRefused(
        f"exports are written only inside {allowed}; allow another folder with "
        "`blocksift examples export-folders --add DIR`")
