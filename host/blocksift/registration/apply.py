"""Carry out an install plan, keep a receipt of it, and undo exactly that on uninstall.

The receipt (``<data_dir>/native-host/installed.json``) lists every registration with the
directories the install had to create, so uninstall removes what install wrote and nothing
else: a manifest is deleted only when it is ours (its ``name`` is ``org.blocksift.host``),
a directory only when install created it and it is empty, the launcher only when no
registration remains. The Windows registry is touched through :class:`WindowsRegistry`,
a minimal ``winreg`` wrapper used only when ``sys.platform == "win32"``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..paths import write_atomic
from .browsers import BROWSERS, HOST_NAME, Platform, browser
from .plan import (
    NATIVE_DIR,
    FileWrite,
    InstallPlan,
    Registration,
    launcher_path,
    manifest_location,
    receipt_path,
)

ActionVerb = Literal["write", "mkdir", "set-registry", "remove", "rmdir", "delete-registry",
                     "keep"]


class Action(BaseModel):
    """One step install or uninstall takes (or, with ``--dry-run``, would take)."""

    model_config = ConfigDict(frozen=True)
    verb: ActionVerb
    target: str
    detail: str = ""


class ReceiptEntry(BaseModel):
    registration: Registration
    created_dirs: list[str] = Field(default_factory=list)


class Receipt(BaseModel):
    """What install wrote; uninstall's source of truth."""

    version: int = 1
    platform: str
    python: str = ""
    launcher: str = ""
    launcher_created_dirs: list[str] = Field(default_factory=list)
    entries: list[ReceiptEntry] = Field(default_factory=list)


class RegistryAccess(Protocol):
    def set_default(self, key: str, value: str) -> None: ...
    def read_default(self, key: str) -> str | None: ...
    def delete(self, key: str) -> bool: ...


class WindowsRegistry:
    """HKEY_CURRENT_USER through ``winreg`` (Windows only; the rest of the module is pure)."""

    def __init__(self) -> None:
        import winreg  # type: ignore[import-not-found,unused-ignore]

        self._w = winreg

    def set_default(self, key: str, value: str) -> None:
        w = self._w
        with w.CreateKeyEx(w.HKEY_CURRENT_USER, key, 0, w.KEY_WRITE) as handle:
            w.SetValueEx(handle, "", 0, w.REG_SZ, value)

    def read_default(self, key: str) -> str | None:
        w = self._w
        try:
            with w.OpenKey(w.HKEY_CURRENT_USER, key) as handle:
                value, _kind = w.QueryValueEx(handle, "")
        except OSError:
            return None
        return str(value)

    def delete(self, key: str) -> bool:
        try:
            self._w.DeleteKey(self._w.HKEY_CURRENT_USER, key)
        except OSError:
            return False
        return True


def default_registry() -> RegistryAccess | None:
    return WindowsRegistry() if sys.platform == "win32" else None


# -- receipt ------------------------------------------------------------------------------


def load_receipt(data_dir: Path) -> tuple[Receipt | None, str | None]:
    """The receipt and, when it exists but cannot be read, why (never raises)."""
    path = Path(receipt_path(data_dir))
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read {path}: {exc}"
    try:
        return Receipt.model_validate_json(raw), None
    except ValidationError as exc:
        count = exc.error_count()
        return None, (f"{path} (install's record of what it wrote, for uninstall) is damaged "
                      f"({count} problem{'s' if count != 1 else ''}); it was ignored")


def _missing_dirs(directory: Path) -> list[Path]:
    """Directories from the first missing ancestor of ``directory`` down to it."""
    missing: list[Path] = []
    cur = directory
    while not cur.exists():
        missing.append(cur)
        if cur.parent == cur:
            break
        cur = cur.parent
    return list(reversed(missing))


def _save_receipt(data_dir: Path, receipt: Receipt) -> None:
    path = Path(receipt_path(data_dir))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, receipt.model_dump_json(indent=2) + "\n", mode=0o644, keep_mode=False)


# -- install ------------------------------------------------------------------------------


def apply_install(plan: InstallPlan, data_dir: Path, *, dry_run: bool = False,
                  registry: RegistryAccess | None = None) -> list[Action]:
    """Write the launcher, the manifests and (Windows) the registry keys; record them."""
    if plan.registry and registry is None and not dry_run:
        registry = default_registry()
        if registry is None:
            raise RuntimeError("this plan writes Windows registry keys; run it on Windows")
    receipt, _problem = load_receipt(data_dir)
    if receipt is None or receipt.platform != plan.platform:
        receipt = Receipt(platform=plan.platform)
    actions: list[Action] = []

    def write(file: FileWrite) -> list[str]:
        target = Path(file.path)
        created = _missing_dirs(target.parent)
        actions.extend(Action(verb="mkdir", target=str(d)) for d in created)
        actions.append(Action(verb="write", target=file.path, detail=f"mode {file.mode:o}"))
        if not dry_run:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, file.content, mode=file.mode, keep_mode=False)
        return [str(d) for d in created]

    launcher_dirs = write(plan.launcher)
    if receipt.launcher != plan.launcher.path:
        receipt.launcher_created_dirs = []
    receipt.launcher_created_dirs = sorted(
        set(receipt.launcher_created_dirs) | set(launcher_dirs), key=len)
    receipt.launcher = plan.launcher.path
    receipt.python = plan.python
    for manifest, reg in zip(plan.manifests, plan.registrations, strict=True):
        created = write(manifest)
        old = next((e for e in receipt.entries if e.registration.same_place(reg)), None)
        if old is not None:
            created = sorted(set(old.created_dirs) | set(created), key=len)
            receipt.entries.remove(old)
        receipt.entries.append(ReceiptEntry(registration=reg, created_dirs=created))
    for write_key in plan.registry:
        actions.append(Action(verb="set-registry", target=rf"{write_key.root}\{write_key.key}",
                              detail=f"(default) = {write_key.value}"))
        if not dry_run and registry is not None:
            registry.set_default(write_key.key, write_key.value)
    if not dry_run:
        _save_receipt(data_dir, receipt)
    return actions


# -- uninstall ----------------------------------------------------------------------------


def _is_our_manifest(path: Path, launcher: str | None = None) -> bool:
    """Ours: valid JSON naming our host (and, when given, pointing at our launcher)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(doc, dict) or doc.get("name") != HOST_NAME:
        return False
    return launcher is None or doc.get("path") == launcher


def _names_another_host(path: Path) -> str | None:
    """The other host a manifest at our path now names, if someone replaced ours. A damaged
    file (not JSON) at a path we recorded is still ours to remove."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(doc, dict) and isinstance(doc.get("name"), str) and doc["name"] != HOST_NAME:
        return str(doc["name"])
    return None


def plan_uninstall(data_dir: Path, *, platform: Platform, home: Path,
                   env: Mapping[str, str] | None = None, browsers: Iterable[str] | None = None,
                   user_data_dir: Path | None = None,
                   registry: RegistryAccess | None = None) -> tuple[list[Action], Receipt | None]:
    """Steps that remove our registrations (all, or those of ``browsers``/``user_data_dir``)
    and the receipt that results (None once nothing is left)."""
    names = set(browsers) if browsers else None
    for name in names or ():
        browser(name)  # unknown names are an error, not a silent no-op
    receipt, _problem = load_receipt(data_dir)
    launcher = receipt.launcher if receipt else str(launcher_path(platform, data_dir))
    entries = list(receipt.entries) if receipt else []

    def selected(reg: Registration) -> bool:
        if names is not None and reg.browser not in names:
            return False
        if user_data_dir is not None:
            return reg.user_data_dir == str(user_data_dir)
        return True

    chosen = [e for e in entries if selected(e.registration)]
    kept = [e for e in entries if not selected(e.registration)]
    # Registrations without a receipt entry (receipt lost): our manifests at the standard
    # places that point at our launcher.
    known = {e.registration.manifest_path for e in entries}
    for b in BROWSERS:
        if names is not None and b.name not in names:
            continue
        if user_data_dir is not None and not b.supports_user_data_dir:
            continue
        where = str(manifest_location(b, platform, home, data_dir, env, user_data_dir))
        if where not in known and Path(where).is_file() and _is_our_manifest(Path(where),
                                                                             launcher):
            chosen.append(ReceiptEntry(registration=Registration(
                browser=b.name, manifest_path=where,
                user_data_dir=str(user_data_dir) if user_data_dir else None)))
            known.add(where)
    actions: list[Action] = []
    still_used = {e.registration.manifest_path for e in kept}
    for entry in chosen:
        reg = entry.registration
        path = Path(reg.manifest_path)
        if reg.manifest_path in still_used:
            continue
        if path.is_file():
            other = _names_another_host(path)
            if other is None:
                actions.append(Action(verb="remove", target=str(path)))
            else:
                actions.append(Action(verb="keep", target=str(path),
                                      detail=f"now names {other!r}, not {HOST_NAME}; "
                                             "left alone"))
        if reg.registry_key and (registry is None
                                 or registry.read_default(reg.registry_key) is not None):
            actions.append(Action(verb="delete-registry",
                                  target=rf"HKEY_CURRENT_USER\{reg.registry_key}"))
        actions.extend(Action(verb="rmdir", target=d, detail="if empty")
                       for d in sorted(entry.created_dirs, key=len, reverse=True))
    new_receipt: Receipt | None = None
    if kept and receipt is not None:
        new_receipt = receipt.model_copy(update={"entries": kept})
    elif Path(launcher).exists() or receipt is not None:
        if Path(launcher).exists():
            actions.append(Action(verb="remove", target=launcher))
        rpath = Path(receipt_path(data_dir))
        if rpath.exists():
            actions.append(Action(verb="remove", target=str(rpath)))
        actions.append(Action(verb="rmdir", target=str(Path(data_dir) / NATIVE_DIR),
                              detail="if empty"))
        for d in sorted(receipt.launcher_created_dirs if receipt else [], key=len,
                        reverse=True):
            actions.append(Action(verb="rmdir", target=d, detail="if empty"))
    unique = list(dict.fromkeys(actions))  # a directory may be recorded twice
    return unique, new_receipt


def apply_uninstall(data_dir: Path, *, platform: Platform, home: Path,
                    env: Mapping[str, str] | None = None,
                    browsers: Iterable[str] | None = None, user_data_dir: Path | None = None,
                    dry_run: bool = False,
                    registry: RegistryAccess | None = None) -> list[Action]:
    """Remove our registrations; see :func:`plan_uninstall`."""
    if registry is None and platform == "win32" and sys.platform == "win32":
        registry = default_registry()
    actions, new_receipt = plan_uninstall(data_dir, platform=platform, home=home, env=env,
                                          browsers=browsers, user_data_dir=user_data_dir,
                                          registry=registry)
    if dry_run:
        return actions
    done: list[Action] = []
    for action in actions:
        target = Path(action.target)
        if action.verb == "remove":
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        elif action.verb == "rmdir":
            try:
                target.rmdir()
            except OSError:
                continue  # not empty (someone else's files) or already gone: leave it
        elif action.verb == "delete-registry" and registry is not None:
            registry.delete(action.target.split("\\", 1)[1])
        done.append(action)
    if new_receipt is not None:
        _save_receipt(data_dir, new_receipt)
    return done


def launcher_pythonpath(python: str) -> str | None:
    """The directory to put on the launcher's PYTHONPATH, or None when ``python`` imports
    this very blocksift by itself (installed package, virtualenv).

    Asks the interpreter, without PYTHON* variables and from a neutral directory, which
    blocksift it would import; a source checkout (pytest's ``pythonpath=host``) needs
    its ``host`` directory added.
    """
    import blocksift

    ours = Path(blocksift.__file__).resolve().parent
    probe = "import blocksift, os; print(os.path.dirname(os.path.realpath(blocksift.__file__)))"
    import subprocess

    try:
        with tempfile.TemporaryDirectory() as neutral:
            done = subprocess.run([python, "-E", "-c", probe], capture_output=True, text=True,
                                  cwd=neutral, timeout=30, check=False)
        if done.returncode == 0 and Path(done.stdout.strip()).resolve() == ours:
            return None
    except (OSError, subprocess.SubprocessError):
        pass
    return str(ours.parent)
