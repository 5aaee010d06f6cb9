"""``blocksift doctor``: check every registration the way a browser would use it.

For each browser: is the manifest where the browser looks (Windows: does the registry key
name it)? Is it valid JSON with the right ``name``, ``type`` and an absolute, executable
``path``? Do ``allowed_origins`` / ``allowed_extensions`` name exactly our extension? Does
the launcher's interpreter still exist? Then a real round trip: start the host the way the
browser does (same argv, cwd = the host's directory), send ``hello`` and ``ping`` frames
(32-bit native-endian length + UTF-8 JSON, Chrome docs "Native messaging protocol"), check
the replies and time them, close stdin and check that the host exits (browsers kill a host
that lingers; browser-testing.md section 8, pitfall 6).

Every problem carries the command that fixes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shlex
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..transport.native import read_exactly
from .apply import RegistryAccess, default_registry, load_receipt
from .browsers import (
    BROWSERS,
    CHROMIUM_ORIGIN,
    FIREFOX_EXTENSION_ID,
    HOST_NAME,
    Browser,
    Platform,
    browser,
    detect,
    path_class,
    registry_key,
    sandboxed_browsers,
)
from .plan import LAUNCHER_GONE_EXIT, launcher_interpreter, manifest_location, same_python

Severity = Literal["error", "warning", "info"]
#: Browsers refuse host messages above 1 MiB (Chrome docs; measured in browser-testing.md).
MAX_HOST_MESSAGE = 1024 * 1024
#: Start-up + hello on a loaded 2-core machine stays well below this (first reply ~0.3 s).
DEFAULT_TIMEOUT_S = 20.0
#: Browsers wait about this long after closing stdin before killing the host.
EXIT_GRACE_S = 2.0
#: Extra wait to tell a slow exit from a host that ignores end of input.
EXIT_EXTRA_WAIT_S = 3.0


class Reinstall(BaseModel):
    """A fix that is ``blocksift install`` for one registration: what its command is made of,
    so the fixes of several browsers can be said as one command."""

    browser: str
    user_data_dir: str | None = None
    #: run through this interpreter (``<python> -m blocksift``), not the ``blocksift`` on PATH
    python: str | None = None
    #: what to do before installing again ("run `...` by hand to see its error"), if anything
    first: str | None = None


class Problem(BaseModel):
    severity: Severity
    check: str
    message: str
    fix: str | None = None
    #: ``fix`` as its parts, where it installs again (None: another kind of fix, or none)
    reinstall: Reinstall | None = None


class RoundTrip(BaseModel):
    ok: bool
    command: list[str]
    hello_ms: float | None = None
    ping_ms: float | None = None
    total_ms: float | None = None
    host_version: str | None = None
    protocol: int | None = None
    exited_on_eof: bool | None = None
    exit_ms: float | None = None
    error: str | None = None
    stderr: str = ""


class BrowserReport(BaseModel):
    browser: str
    label: str
    detected: bool
    location: str
    registry_key: str | None = None
    user_data_dir: str | None = None
    status: Literal["ok", "broken", "not_registered"]
    checks: list[str] = Field(default_factory=list)
    problems: list[Problem] = Field(default_factory=list)
    round_trip: RoundTrip | None = None
    #: Label of the browser whose round trip this row reuses: Chromium-family browsers start
    #: the host with the same command, so it is measured once, not once per row.
    round_trip_measured_for: str | None = None


class DoctorReport(BaseModel):
    platform: str
    ok: bool
    browsers: list[BrowserReport]
    notes: list[str] = Field(default_factory=list)
    #: The one command that fixes every problem found (one ``blocksift install`` for all the
    #: browsers), None when there is nothing to fix or the fixes differ (each problem's own
    #: ``fix`` then says it)
    fix: str | None = None
    #: the browsers (labels) ``fix`` fixes
    fix_for: list[str] = Field(default_factory=list)


# -- framing ------------------------------------------------------------------------------


def encode_frame(message: Mapping[str, Any]) -> bytes:
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return struct.pack("=I", len(data)) + data


def _reader(stream: Any, out: queue.Queue[tuple[str, Any]]) -> None:
    """Frames from the host's stdout, as ("frame", dict) / ("bad", why) / ("eof", None)."""
    try:
        while True:
            header = read_exactly(stream, 4)
            if len(header) < 4:
                out.put(("eof", None))
                return
            (length,) = struct.unpack("=I", header)
            if length > MAX_HOST_MESSAGE:
                out.put(("bad", (f"the host sent a {length}-byte frame; browsers accept at "
                                 f"most {MAX_HOST_MESSAGE} (or it printed text on stdout)")))
                return
            body = read_exactly(stream, length)
            if len(body) < length:
                out.put(("bad", f"frame cut short: {len(body)} of {length} bytes"))
                return
            try:
                message = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                out.put(("bad", f"frame is not UTF-8 JSON: {exc}"))
                return
            out.put(("frame", message))
    except (OSError, ValueError) as exc:
        out.put(("bad", f"reading the host failed: {exc}"))


def browser_argv(b: Browser, launcher: str, manifest: str) -> list[str]:
    """The argv a browser starts the host with (Chromium: the caller origin; Firefox: the
    manifest path and the add-on id; MDN "Native messaging", browser-testing.md section 3)."""
    if b.family == "firefox":
        return [launcher, manifest, FIREFOX_EXTENSION_ID]
    return [launcher, CHROMIUM_ORIGIN]


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    proc.wait()


def round_trip(command: list[str], *, timeout: float = DEFAULT_TIMEOUT_S,
               env: Mapping[str, str] | None = None, cwd: str | None = None) -> RoundTrip:
    """Start the host, send hello + ping, check the replies, close stdin, see it exit."""
    result = RoundTrip(ok=False, command=command)
    started = time.perf_counter()
    try:
        # Own process group (POSIX): a hung host is killed with any workers it started.
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=cwd or str(Path(command[0]).parent),
                                env=dict(env) if env is not None else None,
                                start_new_session=os.name == "posix")
    except OSError as exc:
        result.error = f"cannot start {command[0]}: {exc}"
        return result
    frames: queue.Queue[tuple[str, Any]] = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, frames), daemon=True).start()
    errors: list[bytes] = []
    err_thread = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    err_thread.start()
    deadline = started + timeout
    refused: list[str] = []  # why a write to the host's input failed, if one did

    def send(message: dict[str, Any]) -> None:
        """One frame to the host. A host that closed its input has most often exited: what
        its output and exit code say is read next (whichever happened first, the write or
        the exit, the answer is the same)."""
        assert proc.stdin is not None
        try:
            proc.stdin.write(encode_frame(message))
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            refused.append(str(exc))

    def expect(kind: str, request_id: str) -> dict[str, Any] | None:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                result.error = (f"the host stopped reading its input: {refused[0]}" if refused
                                else f"no {kind} reply within {timeout:.0f} s")
                return None
            try:
                tag, value = frames.get(timeout=left)
            except queue.Empty:
                continue
            if tag == "eof":
                try:
                    code: int | None = proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    code = None
                result.error = (f"the host closed stdout before answering {kind}"
                                + (f" (exit code {code})" if code is not None else ""))
                if code == LAUNCHER_GONE_EXIT:
                    # The Windows launcher's way to say it (a batch file cannot write the
                    # error frame the sh launcher sends): its stderr line names the path.
                    result.error += (": the launcher could not start the host, its Python "
                                     "or its source folder is gone")
                return None
            if tag == "bad":
                result.error = value
                return None
            if isinstance(value, dict) and value.get("id") is None \
                    and value.get("type") == "error":
                # No request id: it answers every pending request, as the extension reads it
                # (the launcher's "blocksift cannot start", sent before it waits for EOF).
                result.error = f"the host answered {kind} with error {value.get('name')}: " \
                               f"{value.get('message')}"
                return None
            if not isinstance(value, dict) or value.get("id") != request_id:
                continue  # unrelated frame (e.g. a log event); keep waiting
            if value.get("type") == "error":
                result.error = f"the host answered {kind} with error {value.get('name')}: " \
                               f"{value.get('message')}"
                return None
            if value.get("type") != kind:
                result.error = f"expected a {kind} reply, got {value.get('type')!r}"
                return None
            return value

    try:
        send({"type": "hello", "id": "doctor-hello", "client": "blocksift-doctor"})
        hello = expect("hello", "doctor-hello")
        if hello is not None:
            result.hello_ms = round((time.perf_counter() - started) * 1000, 1)
            result.host_version = hello.get("hostVersion") or hello.get("host_version")
            result.protocol = hello.get("protocol")
            sent = time.perf_counter()
            send({"type": "ping", "id": "doctor-ping"})
            if expect("pong", "doctor-ping") is not None:
                now = time.perf_counter()
                result.ping_ms = round((now - sent) * 1000, 2)
                result.total_ms = round((now - started) * 1000, 1)
                result.ok = True
    except (BrokenPipeError, OSError) as exc:
        result.error = result.error or f"the host stopped reading its input: {exc}"
    finally:
        closed = time.perf_counter()
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()  # type: ignore[union-attr]
        try:
            # Wait past the browsers' grace period to tell a slow exit from none at all.
            proc.wait(timeout=EXIT_GRACE_S + EXIT_EXTRA_WAIT_S)
            result.exit_ms = round((time.perf_counter() - closed) * 1000, 1)
            result.exited_on_eof = result.exit_ms <= EXIT_GRACE_S * 1000
        except subprocess.TimeoutExpired:
            result.exited_on_eof = False
            _kill_tree(proc)
        err_thread.join(timeout=1)
        result.stderr = b"".join(errors).decode("utf-8", "replace")[-2000:]
    return result


# -- checks -------------------------------------------------------------------------------


def _install_command(b: Browser, user_data_dir: str | None, python: str | None = None) -> str:
    """The command that registers ``b`` again; with ``python``, run through that interpreter
    (``<python> -m blocksift``) rather than whichever ``blocksift`` is on PATH."""
    program = f"{shlex.quote(python)} -m blocksift" if python else "blocksift"
    cmd = f"{program} install --browser {b.name}"
    return cmd + (f" --user-data-dir '{user_data_dir}'" if user_data_dir else "")


def _reinstall(b: Browser, user_data_dir: str | None, python: str | None = None,
               first: str | None = None) -> dict[str, Any]:
    """A :class:`Problem`'s ``fix`` and ``reinstall`` for installing ``b`` again."""
    command = _install_command(b, user_data_dir, python)
    return {"fix": f"{first}, then {command}" if first else command,
            "reinstall": Reinstall(browser=b.name, user_data_dir=user_data_dir, python=python,
                                   first=first)}


def one_fix(reports: list[BrowserReport], detected: Iterable[str]
            ) -> tuple[str | None, list[str]]:
    """The one command that fixes every problem of ``reports``, and the browsers (labels) it
    fixes; (None, []) when nothing needs fixing or the fixes differ.

    One launcher serves every browser, and one ``blocksift install`` registers several: the
    fixes ``install --browser chromium`` and ``install --browser firefox`` are one command.
    It is a plain ``blocksift install`` where that registers exactly the browsers to fix and
    ones that work (the browsers found here, else every browser, all of them checked), else
    it names the browsers. A profile's registration (``--user-data-dir``) has a command of
    its own."""
    fixed = [(r, p) for r in reports for p in r.problems if p.severity != "info" and p.fix]
    if not fixed:
        return None, []
    labels = list(dict.fromkeys(r.label for r, _ in fixed))
    fixes = {p.fix for _, p in fixed}
    if len(fixes) == 1:
        return fixes.pop(), labels
    steps = {(p.reinstall.user_data_dir, p.reinstall.python, p.reinstall.first)
             if p.reinstall is not None else None for _, p in fixed}
    if len(steps) != 1 or None in steps:
        return None, []
    user_data_dir, python, first = steps.pop()
    if user_data_dir is not None:
        return None, []  # one profile holds one registration: one browser, said above
    names = [b.name for b in BROWSERS
             if any(p.reinstall is not None and p.reinstall.browser == b.name for _, p in fixed)]
    plain = list(detected) or [b.name for b in BROWSERS]
    status = {r.browser: r.status for r in reports if r.user_data_dir is None}
    program = f"{shlex.quote(python)} -m blocksift" if python else "blocksift"
    if all(name in names or status.get(name) == "ok" for name in plain) \
            and set(names) <= set(plain):
        command = f"{program} install"
    else:
        command = f"{program} install " + " ".join(f"--browser {name}" for name in names)
    return (f"{first}, then {command}" if first else command), labels


def check_manifest(b: Browser, manifest_path: Path, platform: Platform,
                   user_data_dir: str | None = None) -> tuple[list[str], list[Problem],
                                                              dict[str, Any] | None]:
    """Static checks of one manifest file: what passed, what failed, and the document."""
    fix = _reinstall(b, user_data_dir)
    passed: list[str] = []
    problems: list[Problem] = []
    try:
        raw = manifest_path.read_bytes()
    except OSError as exc:
        problems.append(Problem(severity="error", check="manifest readable",
                                message=f"cannot read {manifest_path}: {exc}", **fix))
        return passed, problems, None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problems.append(Problem(severity="error", check="valid JSON",
                                message=f"{manifest_path} is not UTF-8: {exc}", **fix))
        return passed, problems, None
    except json.JSONDecodeError as exc:
        problems.append(Problem(
            severity="error", check="valid JSON",
            message=f"{manifest_path} is not valid JSON (line {exc.lineno}, column "
                    f"{exc.colno}: {exc.msg}); the browser reports the host as not found",
            **fix))
        return passed, problems, None
    if not isinstance(doc, dict):
        problems.append(Problem(severity="error", check="valid JSON",
                                message=f"{manifest_path} holds a JSON {type(doc).__name__}, "
                                        "not an object", **fix))
        return passed, problems, None
    passed.append("valid JSON")

    def need(ok: bool, check: str, message: str) -> None:
        if ok:
            passed.append(check)
        else:
            problems.append(Problem(severity="error", check=check, message=message, **fix))

    def said(key: str) -> str:
        """How a field reads to the user: its value, or that the file has none."""
        return f"{key} is missing" if key not in doc else f"{key} is {doc[key]!r}"

    need(doc.get("name") == HOST_NAME, "name",
         f"{said('name')}, must be {HOST_NAME!r} (what the extension connects to)")
    if platform != "win32":
        need(manifest_path.name == f"{HOST_NAME}.json", "file name",
             f"file is named {manifest_path.name!r}; Linux and macOS browsers look for "
             f"{HOST_NAME}.json")
    need(doc.get("type") == "stdio", "type",
         f"{said('type')}, must be 'stdio'")
    if b.family == "firefox":
        want, key = [FIREFOX_EXTENSION_ID], "allowed_extensions"
    else:
        want, key = [CHROMIUM_ORIGIN], "allowed_origins"
    got = doc.get(key)
    if got == want:
        passed.append(key)
    elif isinstance(got, list) and want[0] in got:
        problems.append(Problem(severity="error", check=key,
                                message=f"{key} also lets other extensions start the host: "
                                        f"{[x for x in got if x != want[0]]}; it must name only "
                                        f"{want[0]}", **fix))
    else:
        problems.append(Problem(severity="error", check=key,
                                message=f"{said(key)}; it must be {want!r}, otherwise "
                                        "the browser forbids our extension to start the host",
                                **fix))
    path_value = doc.get("path")
    cls = path_class(platform)
    if not isinstance(path_value, str) or not path_value:
        need(False, "path", "path is missing")
        return passed, problems, doc
    if platform == "win32":
        # Windows allows a path relative to the manifest's directory.
        target = Path(path_value) if cls(path_value).is_absolute() else \
            manifest_path.parent / path_value
    else:
        if not cls(path_value).is_absolute():
            need(False, "path", f"path {path_value!r} is relative; Linux and macOS need an "
                                "absolute path")
            return passed, problems, doc
        target = Path(path_value)
    if not target.is_file():
        need(False, "path", f"path {path_value} does not exist")
        return passed, problems, doc
    if platform == "win32":
        need(target.suffix.lower() in {".exe", ".bat", ".cmd", ".com"}, "path executable",
             f"path {path_value} is not an .exe/.bat/.cmd file Windows can start")
    else:
        need(os.access(target, os.X_OK), "path executable",
             f"path {path_value} is not executable (chmod +x), so the browser cannot start it")
    try:
        interpreter = launcher_interpreter(target.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        interpreter = None
    if interpreter is not None:
        if Path(interpreter).is_file():
            passed.append("interpreter")
        else:
            # The `blocksift` command most often went with that virtualenv; the Python
            # running this check has blocksift, so the fix names it.
            problems.append(Problem(
                severity="error", check="interpreter",
                message=f"the launcher runs {interpreter}, which no longer exists (a removed "
                        "virtualenv?); install again with a Python that has blocksift",
                **_reinstall(b, user_data_dir, python=sys.executable)))
    return passed, problems, doc


def _lacking_module(stderr: str, launcher: Path) -> tuple[str, str] | None:
    """(the launcher's Python, the module it could not import) when the host failed that
    way and another Python (the one running this check, which has them) could serve."""
    found = re.findall(r"No module named '?([\w.]+)'?", stderr)
    if not found:
        return None
    try:
        python = launcher_interpreter(launcher.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    if python is None:
        return None
    if same_python(python, sys.executable):
        return None  # the same Python: pointing the launcher at it again changes nothing
    return python, found[-1]


def _registrations_to_check(platform: Platform, home: Path, data_dir: Path,
                            env: Mapping[str, str], names: list[str],
                            user_data_dir: Path | None) -> list[tuple[Browser, str, str | None]]:
    """(browser, manifest path, user_data_dir) for every place to inspect."""
    places: list[tuple[Browser, str, str | None]] = []
    if user_data_dir is not None:
        for name in names:
            b = browser(name)
            if b.supports_user_data_dir:
                places.append((b, str(manifest_location(b, platform, home, data_dir, env,
                                                        user_data_dir)), str(user_data_dir)))
        return places
    for name in names:
        b = browser(name)
        places.append((b, str(manifest_location(b, platform, home, data_dir, env)), None))
    receipt, _ = load_receipt(data_dir)
    for entry in receipt.entries if receipt else []:
        reg = entry.registration
        if reg.user_data_dir and reg.browser in names:
            places.append((browser(reg.browser), reg.manifest_path, reg.user_data_dir))
    return places


def _unique_places(places: list[tuple[Browser, str, str | None]]
                   ) -> list[tuple[Browser, str, str | None]]:
    """One check per manifest file (a profile dir serves any Chromium-family browser)."""
    seen: set[str] = set()
    out = []
    for place in places:
        if place[1] not in seen:
            seen.add(place[1])
            out.append(place)
    return out


def run_doctor(*, platform: Platform, home: Path, data_dir: Path,
               env: Mapping[str, str] | None = None, browsers: Iterable[str] | None = None,
               user_data_dir: Path | None = None, do_round_trip: bool = True,
               timeout: float = DEFAULT_TIMEOUT_S,
               registry: RegistryAccess | None = None) -> DoctorReport:
    """Check every registration (all browsers unless ``browsers`` names some)."""
    env = dict(env) if env is not None else dict(os.environ)
    names = list(dict.fromkeys(browsers)) if browsers else [b.name for b in BROWSERS]
    for name in names:
        browser(name)
    if platform == "win32" and registry is None:
        registry = default_registry()
    detected = set(detect(platform, home, env))
    notes: list[str] = []
    _receipt, receipt_problem = load_receipt(data_dir)
    notes.extend(sandboxed_browsers(platform, home))
    notes.extend(store_problem_notes())
    reports: list[BrowserReport] = []
    trips: dict[tuple[str, ...], tuple[RoundTrip, str]] = {}
    places = _unique_places(_registrations_to_check(platform, home, data_dir, env, names,
                                                    user_data_dir))
    for b, where, udd in places:
        key = registry_key(b) if platform == "win32" else None
        report = BrowserReport(browser=b.name, label=b.label, detected=b.name in detected,
                               location=where, registry_key=key, user_data_dir=udd,
                               status="ok")
        fix = _reinstall(b, udd)
        manifest_path = Path(where)
        if key is not None:
            value = registry.read_default(key) if registry is not None else None
            if value is None:
                report.status = "not_registered"
                report.problems.append(Problem(
                    severity="warning" if b.name in detected else "info",
                    check="registry key",
                    message=f"HKEY_CURRENT_USER\\{key} is missing", **fix))
                reports.append(report)
                continue
            report.checks.append("registry key")
            manifest_path = Path(value)
            report.location = value
        if not manifest_path.is_file():
            if key is not None:
                report.status = "broken"
                report.problems.append(Problem(
                    severity="error", check="manifest present",
                    message=f"the registry key names {value}, which does not exist", **fix))
            else:
                report.status = "not_registered"
                report.problems.append(Problem(
                    severity="warning" if (b.name in detected or udd) else "info",
                    check="manifest present",
                    message=f"no manifest at {manifest_path}"
                            + ("" if b.name in detected or udd else
                               f" ({b.label} does not look installed)"),
                    **fix))
            reports.append(report)
            continue
        report.checks.append("manifest present")
        passed, problems, doc = check_manifest(b, manifest_path, platform, udd)
        report.checks.extend(passed)
        report.problems.extend(problems)
        if any(p.severity == "error" for p in problems):
            report.status = "broken"
        elif do_round_trip and doc is not None:
            path_value = str(doc["path"])
            argv = browser_argv(b, path_value, str(manifest_path))
            cache_key = tuple(argv)
            if cache_key in trips:
                trip, report.round_trip_measured_for = trips[cache_key]
            else:
                trip = round_trip(argv, timeout=timeout, env=env)
                trips[cache_key] = (trip, b.label)
            report.round_trip = trip
            if trip.ok:
                report.checks.append("round trip")
                if trip.exited_on_eof is False:
                    # The browser kills such a host after its grace period: not fatal.
                    took = (f"took {trip.exit_ms / 1000:.1f} s" if trip.exit_ms is not None
                            else f"did not exit within {EXIT_GRACE_S + EXIT_EXTRA_WAIT_S:.0f} s")
                    report.problems.append(Problem(
                        severity="warning", check="exit on end of input",
                        message=f"the host {took} to exit after its input closed; browsers "
                                f"kill it after about {EXIT_GRACE_S:.0f} s",
                        fix=None))
            else:
                report.status = "broken"
                hint = f"; host stderr: {trip.stderr.strip()[-300:]}" if trip.stderr.strip() \
                    else ""
                lacking = _lacking_module(trip.stderr, Path(path_value))
                if lacking is not None:
                    # Its Python lost blocksift (or a dependency): the Python running this
                    # check has them, so the fix points the launcher at it.
                    python, module = lacking
                    report.problems.append(Problem(
                        severity="error", check="round trip",
                        message=f"{trip.error}{hint}; the launcher's Python, {python}, cannot "
                                f"import {module} (uninstalled from it?)",
                        **_reinstall(b, udd, python=sys.executable)))
                else:
                    report.problems.append(Problem(
                        severity="error", check="round trip",
                        message=f"{trip.error}{hint}",
                        **_reinstall(b, udd, first=f"run `{path_value}` by hand to see its "
                                                   "error")))
        reports.append(report)
    registered = [r for r in reports if r.status != "not_registered"]
    broken = [r for r in reports if r.status == "broken"]
    if receipt_problem:
        # Installing again writes the record anew, for the browsers registered now.
        again = " ".join(f"--browser {name}" for name in dict.fromkeys(
            r.browser for r in registered if r.user_data_dir is None))
        notes.insert(0, f"{receipt_problem}; `blocksift install{' ' + again if again else ''}` "
                        "writes it again")
    if not registered:
        checked = {r.location for r in reports}
        elsewhere = list(dict.fromkeys(
            browser(e.registration.browser).label + (
                f" in the profile {e.registration.user_data_dir}"
                if e.registration.user_data_dir else "")
            for e in (_receipt.entries if _receipt else [])
            if e.registration.manifest_path not in checked))
        if elsewhere:  # --browser or --user-data-dir left them out (Chrome is not Chromium)
            asked = ", ".join(dict.fromkeys(
                f"the profile {r.user_data_dir}" if r.user_data_dir else r.label
                for r in reports))
            notes.append(f"blocksift is not registered for {asked}; it is registered for "
                         f"{', '.join(elsewhere)}: `blocksift doctor` checks every browser")
        else:
            notes.append("blocksift is not registered with any browser: run `blocksift install`")
    one, one_for = one_fix(reports, [b.name for b in BROWSERS if b.name in detected])
    return DoctorReport(platform=platform, ok=bool(registered) and not broken,
                        browsers=reports, notes=notes, fix=one, fix_for=one_for)


def store_problem_notes() -> list[str]:
    """One line per store SQLite could not read: what was kept aside, how to restore it."""
    from ..storage import health

    lines = []
    for note in health.problems():
        name = {"sites": "site store", "examples": "examples database"}.get(
            str(note.get("store")), str(note.get("store")))
        state = {"replaced": "was replaced by a fresh one",
                 "refused": "is refused until repaired",
                 "repaired": "was repaired"}.get(str(note.get("state")), "")
        aside = note.get("keptAside") or []
        kept = f"; kept aside: {', '.join(aside)}" if aside else ""
        lines.append(f"{name} {note.get('path')} {state} ({note.get('when')}): "
                     f"{note.get('problem')}{kept}. {note.get('restore')}")
    return lines


def format_report(report: DoctorReport) -> str:
    """Human-readable doctor output: one block per browser, a verdict, the fixes."""
    lines: list[str] = []
    for r in report.browsers:
        mark = {"ok": "OK     ", "broken": "BROKEN ", "not_registered": "absent "}[r.status]
        where = f"--user-data-dir {r.user_data_dir}" if r.user_data_dir else r.location
        lines.append(f"{mark} {r.label:<15} {where}")
        if r.checks and r.status != "not_registered":
            lines.append(f"        passed: {', '.join(r.checks)}")
        if r.round_trip is not None and r.round_trip.ok and r.round_trip_measured_for:
            lines.append(f"        round trip: the same host command as "
                         f"{r.round_trip_measured_for} (measured once, above)")
        elif r.round_trip is not None and r.round_trip.ok:
            rt = r.round_trip
            exit_text = f", exit {rt.exit_ms} ms after EOF" if rt.exit_ms is not None else ""
            lines.append(f"        round trip: hello {rt.hello_ms} ms (start-up included), "
                         f"ping {rt.ping_ms} ms{exit_text}, host {rt.host_version}, "
                         f"protocol {rt.protocol}")
        fixes: list[str] = []  # after the browser's problems, each once: they often share it
        for p in r.problems:
            if p.severity == "info":
                lines.append(f"        note: {p.message}")
                continue
            lines.append(f"        {p.severity}: {p.message}")
            if p.fix and report.fix is None and p.fix not in fixes:
                fixes.append(p.fix)
        lines.extend(f"        fix: {fix}" for fix in fixes)
    if report.fix is not None:
        # one command fixes them all: said once, not once per browser
        lines.append(f"fix: {report.fix}" + (
            f"  (one command for {', '.join(report.fix_for[:-1])} and {report.fix_for[-1]})"
            if len(report.fix_for) > 1 else ""))
    for note in report.notes:
        lines.append(f"note: {note}")
    broken = sum(r.status == "broken" for r in report.browsers)
    ok = sum(r.status == "ok" for r in report.browsers)
    if report.ok:
        lines.append(f"verdict: OK - {ok} registration(s) work, none broken")
    else:
        lines.append(f"verdict: NOT OK - {broken} broken, {ok} working")
    return "\n".join(lines)
