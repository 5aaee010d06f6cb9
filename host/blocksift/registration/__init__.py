"""Registering blocksift's native-messaging host with browsers (issue 7, item 5).

* :mod:`.browsers` - the fixed identifiers, the five browsers and where each looks for a host.
* :mod:`.plan` - a pure planner: launcher, manifests and Windows registry keys to write.
* :mod:`.apply` - writes a plan, keeps a receipt, and uninstalls exactly what was written.
* :mod:`.doctor` - checks every registration and does a real round trip with the host.

docs/install.md is the user guide.
"""

from __future__ import annotations

import importlib
from typing import Any

# Names resolve on first use (PEP 562): `blocksift install --help` needs only .browsers, and
# the doctor's and planner's imports must not slow down every command that lists these names.
_SUBMODULE_OF = {
    **dict.fromkeys(("Action", "Receipt", "apply_install", "apply_uninstall", "load_receipt",
                     "plan_uninstall"), "apply"),
    **dict.fromkeys(("BROWSER_NAMES", "BROWSERS", "CHROMIUM_EXTENSION_ID", "CHROMIUM_ORIGIN",
                     "FIREFOX_EXTENSION_ID", "HOST_NAME", "Platform", "current_platform",
                     "detect", "extension_id_from_key"), "browsers"),
    **dict.fromkeys(("DoctorReport", "format_report", "round_trip", "run_doctor"), "doctor"),
    **dict.fromkeys(("InstallPlan", "launcher_path", "launcher_script", "plan_install"),
                    "plan"),
}


def __getattr__(name: str) -> Any:
    submodule = _SUBMODULE_OF.get(name)
    if submodule is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{submodule}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULE_OF))


__all__ = [
    "BROWSERS", "BROWSER_NAMES", "CHROMIUM_EXTENSION_ID", "CHROMIUM_ORIGIN",
    "FIREFOX_EXTENSION_ID", "HOST_NAME", "Action", "DoctorReport", "InstallPlan", "Platform",
    "Receipt", "apply_install", "apply_uninstall", "current_platform", "detect",
    "extension_id_from_key", "format_report", "launcher_path", "launcher_script",
    "load_receipt", "plan_install", "plan_uninstall", "round_trip", "run_doctor",
]
