"""What ``blocksift install`` writes, computed without touching anything (pure planning).

A host manifest's ``path`` must be an absolute executable and cannot carry arguments
(Chrome docs "Native messaging host"; MDN "Native manifests"), so the plan contains a small
launcher that runs ``<python> -m blocksift native`` with the exact interpreter that ran
``install`` (virtualenvs keep working), one manifest per registration and, on Windows, one
``HKEY_CURRENT_USER`` key per browser whose default value is the manifest's path.

The planner takes the platform, home and data directory as arguments so Linux CI can
produce and check the macOS and Windows plans.
"""

from __future__ import annotations

import json
import os
import shlex
import struct
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePath

from pydantic import BaseModel, ConfigDict

from .browsers import (
    CHROMIUM_ORIGIN,
    FIREFOX_EXTENSION_ID,
    HOST_DESCRIPTION,
    HOST_NAME,
    Browser,
    Platform,
    browser,
    manifest_dir,
    path_class,
    registry_key,
)

#: Marks files written by ``blocksift install``; doctor and uninstall look for it.
LAUNCHER_MARKER = "blocksift native-messaging launcher"
#: Sub-directory of the data dir holding the launcher, Windows manifests and the receipt.
NATIVE_DIR = "native-host"
REGISTRY_ROOT = "HKEY_CURRENT_USER"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FileWrite(_Frozen):
    """One file the install writes, with its whole content and POSIX mode."""

    path: str
    content: str
    mode: int


class RegistryWrite(_Frozen):
    """One registry key (under HKEY_CURRENT_USER) and its default (unnamed) value."""

    root: str = REGISTRY_ROOT
    key: str
    value: str


class Registration(_Frozen):
    """One browser registration: where its manifest is and how the browser finds it."""

    browser: str
    manifest_path: str
    registry_key: str | None = None
    user_data_dir: str | None = None

    def same_place(self, other: Registration) -> bool:
        return (self.browser, self.manifest_path, self.registry_key) == (
            other.browser, other.manifest_path, other.registry_key)

    @property
    def label(self) -> str:
        """The browser as the options that name it read ("chromium --user-data-dir D")."""
        return self.browser + (f" --user-data-dir {self.user_data_dir}"
                               if self.user_data_dir else "")


def same_python(a: str, b: str) -> bool:
    """Whether two interpreter paths are one Python of one environment (``bin/python`` and
    ``bin/python3`` of a virtualenv are; a virtualenv's link to the system Python is not)."""
    try:
        return Path(a).parent == Path(b).parent and os.path.samefile(a, b)
    except OSError:
        return False


class InstallPlan(_Frozen):
    platform: str
    python: str
    launcher: FileWrite
    manifests: list[FileWrite]
    registry: list[RegistryWrite]
    registrations: list[Registration]


def launcher_path(platform: Platform, data_dir: PurePath | str) -> PurePath:
    """Where the launcher lives: ``<data_dir>/native-host/blocksift-native-host[.bat]``."""
    cls = path_class(platform)
    name = "blocksift-native-host.bat" if platform == "win32" else "blocksift-native-host"
    return cls(str(data_dir)) / NATIVE_DIR / name


def receipt_path(data_dir: PurePath | str) -> PurePath:
    """The record of what install wrote; uninstall removes exactly that."""
    return PurePath(str(data_dir)) / NATIVE_DIR / "installed.json"


def launcher_script(platform: Platform, python: str, pythonpath: str | None = None) -> str:
    """Launcher text: a POSIX ``sh`` script, or a Windows batch file (CRLF lines).

    ``pythonpath`` is prepended to PYTHONPATH when the interpreter cannot import blocksift
    on its own (a source checkout run with ``pythonpath=host``). Browser arguments (Chromium:
    the caller's origin; Firefox: manifest path and add-on id) are passed through.
    """
    if platform == "win32":
        return _batch_launcher(python, pythonpath)
    lines = [
        "#!/bin/sh",
        f"# {LAUNCHER_MARKER}, written by `blocksift install`.",
        "# Browsers start this file: a host manifest's path cannot carry arguments.",
        f"# interpreter: {python}",
        "# Re-run `blocksift install` instead of editing this file.",
    ]
    # A moved or deleted virtualenv (or checkout) would make the browser report only "Native
    # host has exited"; instead the extension gets one error frame that says what to run.
    lines += _hang_up_wait()
    lines += _gone_check(f"[ -x {shlex.quote(python)} ]",
                         f"its Python, {python}, is gone (a moved or deleted virtual "
                         "environment?)")
    if pythonpath:
        lines += _gone_check(f"[ -d {shlex.quote(pythonpath)} ]",
                             f"its source folder, {pythonpath}, is gone (a moved checkout?)")
        lines.append(f'PYTHONPATH={shlex.quote(pythonpath)}${{PYTHONPATH:+:$PYTHONPATH}}')
        lines.append("export PYTHONPATH")
    lines.append(f'exec {shlex.quote(python)} -m blocksift native "$@"')
    return "\n".join(lines) + "\n"


#: Exit code of a launcher that cannot start the host (its Python or source folder is gone):
#: EX_CONFIG of sysexits.h, which neither the host (0, 1, 2) nor cmd.exe (9009: command not
#: found; 3: path not found) uses, so the doctor can name it.
LAUNCHER_GONE_EXIT = 78

#: Error code of the launcher's own error frame (the wire's INTERNAL, 3xxx: the host could
#: not do the work); the registration layer does not import the wire package.
_LAUNCHER_ERROR_CODE = 3004


def gone_message(what: str) -> str:
    """What the extension shows when the launcher cannot start the host."""
    return (f"blocksift cannot start: {what}. Run `blocksift install` again with the Python "
            "that has blocksift, then `blocksift doctor`.")


def error_frame(message: str) -> bytes:
    """One native-messaging frame (32-bit length in native byte order, then UTF-8 JSON): an
    error reply with no request id, which fails every request the extension has pending."""
    body = json.dumps({"type": "error", "id": None, "code": _LAUNCHER_ERROR_CODE,
                       "name": "internal", "message": message}).encode("ascii")
    return struct.pack("=I", len(body)) + body


#: The most a launcher that cannot start the host waits for the browser to hang up (s).
HANG_UP_WAIT_S = 5


def _hang_up_wait() -> list[str]:
    """sh function run after the error frame: close stdout, then wait until the browser closes
    our stdin, at most HANG_UP_WAIT_S.

    Exiting at once races the browser's first write (the extension's hello): a write into a
    pipe nobody reads any more fails, and Chromium then reports "Error when communicating
    with the native messaging host" and drops the frame it had not read yet. Closing stdout
    tells the browser we are done, so it hangs up (closes our stdin) as soon as it has read.

    POSIX sh only (macOS has no ``timeout``): ``cat`` reads until EOF and a watchdog
    subshell stops it after the bound; the watchdog (with its ``sleep``) is stopped and both
    are reaped before the function returns, so nothing outlives the launcher. Background
    jobs of a non-interactive shell read /dev/null, hence fd 3 to hand ``cat`` our stdin.
    In the watchdog's trap, ``$!`` is its ``sleep`` once forked, else the inherited value;
    that ``sleep`` gets SIGKILL: just forked, it still has the trap's handler until it execs,
    and a TERM then is swallowed (seen with dash: the watchdog then lasted the whole bound).
    stderr goes too, once the message is out: dash's ``wait`` reports a job a signal ended
    ("Terminated"), which the browser would log as a second line: the reader stopped at the
    bound, or a watchdog stopped before it set its trap (a loaded machine runs it late).
    """
    return [
        f"# After an error frame: wait (at most {HANG_UP_WAIT_S} s) for the browser to close our",
        "# stdin; exiting at once can fail the browser's first write and lose the frame.",
        "# Quiet from here: dash reports a job a signal ended (\"Terminated\") on stderr.",
        "wait_for_hang_up() {",
        "  exec >/dev/null 2>&1",
        "  [ -t 0 ] && return",
        "  exec 3<&0",
        "  cat <&3 >/dev/null 3<&- &",
        "  reader=$!",
        "  exec 3<&-",
        "  (",
        "    inherited=$!",
        "    trap '[ \"$!\" = \"$inherited\" ] || { kill -s KILL \"$!\"; wait \"$!\"; } "
        "2>/dev/null; exit 0' TERM",
        f"    sleep {HANG_UP_WAIT_S} &",
        "    wait \"$!\"",
        "    kill \"$reader\" 2>/dev/null",
        "  ) </dev/null >/dev/null 2>&1 &",
        "  watchdog=$!",
        "  wait \"$reader\"",
        "  kill \"$watchdog\" 2>/dev/null",
        "  wait \"$watchdog\"",
        "}",
    ]


def _gone_check(test: str, what: str) -> list[str]:
    """sh lines: unless ``test`` holds, tell the browser (a frame on stdout, unless that is a
    terminal) and the user (stderr) what to do, wait for the browser to hang up (bounded), and exit
    LAUNCHER_GONE_EXIT."""
    message = gone_message(what)
    frame = error_frame(message)
    header = "".join(f"\\{byte:03o}" for byte in frame[:4])
    return [
        f"if ! {test}; then",
        f"  printf '%s\\n' {shlex.quote(message)} >&2",
        # Run by hand in a terminal (doctor's advice for a host that fails), not a browser:
        # the frame would only print its binary length and the message again.
        f"  [ -t 1 ] || printf '{header}%s' {shlex.quote(frame[4:].decode('ascii'))}",
        "  wait_for_hang_up",
        f"  exit {LAUNCHER_GONE_EXIT}",
        "fi",
    ]


#: cmd.exe's chcp, by full path (a chcp.bat earlier on PATH must not run instead).
_CHCP = r'"%SystemRoot%\System32\chcp.com"'


def _bat_percent(text: str) -> str:
    """``text`` as cmd.exe reads it back after its %-expansion, which runs on every line of
    a batch file, ``rem`` and quoted text included (``%~`` even aborts the whole file)."""
    return text.replace("%", "%%")


def _bat_echo(text: str) -> str:
    """``text`` escaped to be printed by ``echo`` exactly: % doubled; outside double quotes,
    ^ & | < > behind a caret (inside them cmd.exe takes those literally, and a caret too)."""
    out: list[str] = []
    quoted = False
    for char in _bat_percent(text):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "^&|<>":
            out.append("^")
        out.append(char)
    return "".join(out)


def _batch_launcher(python: str, pythonpath: str | None) -> str:
    r"""The Windows launcher: a batch file (CRLF lines), written as UTF-8 without a BOM.

    cmd.exe decodes a batch file line by line in the console's code page (the OEM one,
    e.g. 437 or 850), so a UTF-8 path such as ``C:\Users\José\...`` came out as
    ``Jos├⌐`` and the Python was not found. As CPython's venv ``activate.bat`` does
    (bpo-32409; virtualenv and uv followed), the ASCII-only head switches the code page to
    UTF-8 (65001) before the first line that can hold other characters and puts the old
    one back at the end. Encoding in the OEM code page instead fails for a path it cannot
    represent (virtualenv tried it: pypa/virtualenv#943). Chromium starts a batch host as
    ``cmd.exe /d /s /c`` with a hidden console, Firefox with CREATE_NO_WINDOW: both have a
    console, which chcp needs; without one the switch is skipped.

    When the Python (or the checkout's ``host`` folder) is gone, the launcher prints one
    line on stderr naming it and exits LAUNCHER_GONE_EXIT instead of cmd.exe's "The
    system cannot find the path specified"; a batch file cannot write the sh launcher's
    binary error frame, so the extension sees the port close and names ``blocksift
    doctor``, which names the exit code.
    """
    lines = [
        "@echo off",
        f"rem {LAUNCHER_MARKER}, written by `blocksift install`.",
        "rem Browsers start this file: a host manifest's path cannot carry arguments.",
        "rem Re-run `blocksift install` instead of editing this file.",
        "rem UTF-8 text: read in the UTF-8 code page (65001) from here on, the old one restored.",
        "setlocal DisableDelayedExpansion",
        'set "BLOCKSIFT_OLD_CP="',
        f'for /f "tokens=2 delims=:." %%a in (\'{_CHCP}\') do set "BLOCKSIFT_OLD_CP=%%a"',
        f"if defined BLOCKSIFT_OLD_CP {_CHCP} 65001 >nul",
        # Only now may a line hold a character outside ASCII.
        f"rem interpreter: {_bat_percent(python)}",
        f'set "BLOCKSIFT_EXIT={LAUNCHER_GONE_EXIT}"',
    ]

    def gone_check(test: str, label: str, what: str) -> list[str]:
        return [f"if exist {test} goto {label}",
                f">&2 echo {_bat_echo(gone_message(what))}",
                "goto done",
                f":{label}"]

    lines += gone_check(f'"{_bat_percent(python)}"', "python_found",
                        f"its Python, {python}, is gone (a moved or deleted virtual "
                        "environment, or an uninstalled Python?)")
    if pythonpath:
        # A trailing backslash makes `if exist` true for a folder only.
        lines += gone_check(f'"{_bat_percent(pythonpath.rstrip(chr(92)))}\\"', "source_found",
                            f"its source folder, {pythonpath}, is gone (a moved checkout?)")
        lines.append(f'set "PYTHONPATH={_bat_percent(pythonpath)};%PYTHONPATH%"')
    lines += [
        f'"{_bat_percent(python)}" -m blocksift native %*',
        'set "BLOCKSIFT_EXIT=%ERRORLEVEL%"',
        ":done",
        f"if defined BLOCKSIFT_OLD_CP {_CHCP} %BLOCKSIFT_OLD_CP% >nul",
        "exit /b %BLOCKSIFT_EXIT%",
    ]
    return "\r\n".join(lines) + "\r\n"


def launcher_interpreter(text: str) -> str | None:
    """The interpreter a launcher written by :func:`launcher_script` runs (None if not ours)."""
    if LAUNCHER_MARKER not in text:
        return None
    for line in text.splitlines():
        if line.startswith("# interpreter: "):
            return line[len("# interpreter: "):]
        if line.startswith("rem interpreter: "):  # as cmd.exe reads it: %% is one %
            return line[len("rem interpreter: "):].replace("%%", "%")
    return None


def manifest_document(b: Browser, launcher: str) -> dict[str, object]:
    """The host manifest for ``b``: only our extension may start the host."""
    doc: dict[str, object] = {
        "name": HOST_NAME,
        "description": HOST_DESCRIPTION,
        "path": launcher,
        "type": "stdio",
    }
    if b.family == "firefox":
        doc["allowed_extensions"] = [FIREFOX_EXTENSION_ID]
    else:
        doc["allowed_origins"] = [CHROMIUM_ORIGIN]
    return doc


def manifest_text(b: Browser, launcher: str) -> str:
    return json.dumps(manifest_document(b, launcher), indent=2) + "\n"


def manifest_location(b: Browser, platform: Platform, home: PurePath | str,
                      data_dir: PurePath | str, env: Mapping[str, str] | None = None,
                      user_data_dir: PurePath | str | None = None) -> PurePath:
    """Where ``b``'s manifest goes. Windows has no fixed directory (the registry points at
    the file), so it lives in our data dir, one per browser."""
    cls = path_class(platform)
    file_name = f"{HOST_NAME}.json"
    if user_data_dir is not None:
        return cls(str(user_data_dir)) / "NativeMessagingHosts" / file_name
    directory = manifest_dir(b, platform, cls(str(home)), env)
    if directory is None:
        return cls(str(data_dir)) / NATIVE_DIR / b.name / file_name
    return directory / file_name


def plan_install(browsers: Iterable[str], *, platform: Platform, home: PurePath | str,
                 data_dir: PurePath | str, python: str, pythonpath: str | None = None,
                 env: Mapping[str, str] | None = None,
                 user_data_dir: PurePath | str | None = None) -> InstallPlan:
    """Everything install would write for ``browsers`` (names from BROWSER_NAMES).

    ``user_data_dir`` (Linux/macOS, Chromium family only) registers with a browser started
    with ``--user-data-dir``: it reads ``<dir>/NativeMessagingHosts`` and ignores the
    default user-level directory.
    """
    chosen = [browser(name) for name in dict.fromkeys(browsers)]
    if not chosen:
        raise ValueError("no browser to register")
    if user_data_dir is not None:
        if platform == "win32":
            raise ValueError("--user-data-dir is for Linux and macOS; Windows browsers find "
                             "hosts through the registry only")
        wrong = [b.name for b in chosen if not b.supports_user_data_dir]
        if wrong:
            raise ValueError(f"--user-data-dir is for Chromium-family browsers, not {wrong[0]}; "
                             "Firefox reads $HOME/.mozilla/native-messaging-hosts (set HOME)")
        if len(chosen) > 1:
            raise ValueError("--user-data-dir takes one browser (one profile directory)")
    cls = path_class(platform)
    if not cls(python).is_absolute():
        raise ValueError(f"the interpreter path must be absolute, got {python!r}")
    launcher = launcher_path(platform, data_dir)
    launcher_file = FileWrite(path=str(launcher),
                              content=launcher_script(platform, python, pythonpath), mode=0o755)
    manifests: list[FileWrite] = []
    registry: list[RegistryWrite] = []
    registrations: list[Registration] = []
    for b in chosen:
        where = manifest_location(b, platform, home, data_dir, env, user_data_dir)
        manifests.append(FileWrite(path=str(where), content=manifest_text(b, str(launcher)),
                                   mode=0o644))
        key = registry_key(b) if platform == "win32" else None
        if key is not None:
            registry.append(RegistryWrite(key=key, value=str(where)))
        registrations.append(Registration(
            browser=b.name, manifest_path=str(where), registry_key=key,
            user_data_dir=str(user_data_dir) if user_data_dir is not None else None))
    return InstallPlan(platform=platform, python=python, launcher=launcher_file,
                       manifests=manifests, registry=registry, registrations=registrations)
