"""Registering blocksift's native-messaging host with browsers (issue 7, item 5).

* :mod:`.browsers` - the fixed identifiers, the five browsers and where each looks for a host.
* :mod:`.plan` - a pure planner: launcher, manifests and Windows registry keys to write.
* :mod:`.apply` - writes a plan, keeps a receipt, and uninstalls exactly what was written.
* :mod:`.doctor` - checks every registration and does a real round trip with the host.

docs/install.md is the user guide.
"""

from .apply import Action, Receipt, apply_install, apply_uninstall, load_receipt, plan_uninstall
from .browsers import (
    BROWSER_NAMES,
    BROWSERS,
    CHROMIUM_EXTENSION_ID,
    CHROMIUM_ORIGIN,
    FIREFOX_EXTENSION_ID,
    HOST_NAME,
    Platform,
    current_platform,
    detect,
    extension_id_from_key,
)
from .doctor import DoctorReport, format_report, round_trip, run_doctor
from .plan import InstallPlan, launcher_path, launcher_script, plan_install

__all__ = [
    "BROWSERS", "BROWSER_NAMES", "CHROMIUM_EXTENSION_ID", "CHROMIUM_ORIGIN",
    "FIREFOX_EXTENSION_ID", "HOST_NAME", "Action", "DoctorReport", "InstallPlan", "Platform",
    "Receipt", "apply_install", "apply_uninstall", "current_platform", "detect",
    "extension_id_from_key", "format_report", "launcher_path", "launcher_script",
    "load_receipt", "plan_install", "plan_uninstall", "round_trip", "run_doctor",
]
