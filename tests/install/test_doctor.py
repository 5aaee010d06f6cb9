"""doctor: static checks of each manifest, and real round trips with real host processes."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from install_support import TOY_HOST, posix_only, subprocess_env, write_script

from blocksift.registration import (
    CHROMIUM_ORIGIN,
    HOST_NAME,
    apply_install,
    plan_install,
    round_trip,
    run_doctor,
)
from blocksift.registration.apply import load_receipt
from blocksift.registration.doctor import format_report
from blocksift.registration.plan import launcher_interpreter, launcher_script

pytestmark = posix_only


def install(home: Path, data_dir: Path, browsers: list[str], python: str = sys.executable,
            **kwargs: object) -> None:
    from blocksift.registration.apply import launcher_pythonpath

    plan = plan_install(browsers, platform="linux", home=home, data_dir=data_dir, python=python,
                        pythonpath=launcher_pythonpath(sys.executable), env={}, **kwargs)
    apply_install(plan, data_dir)


def doctor(home: Path, data_dir: Path, **kwargs: object):
    kwargs.setdefault("env", {"PATH": "/nonexistent"})  # no browser detected via PATH
    return run_doctor(platform="linux", home=home, data_dir=data_dir, **kwargs)


def chrome_manifest(home: Path) -> Path:
    return home / ".config/google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json"


def edit(file: Path, **changes: object) -> None:
    doc = json.loads(file.read_text())
    doc.update(changes)
    file.write_text(json.dumps(doc))


def drop(file: Path, key: str) -> None:
    doc = json.loads(file.read_text())
    del doc[key]
    file.write_text(json.dumps(doc))


# -- the real host --------------------------------------------------------------------------


@pytest.mark.slow
def test_install_doctor_uninstall_with_the_real_host(home: Path, data_dir: Path) -> None:
    """The launcher install wrote starts the real ``blocksift native``; hello + ping work."""
    install(home, data_dir, ["chrome", "firefox"])
    report = doctor(home, data_dir, browsers=["chrome", "firefox"], env=None)
    text = format_report(report)
    assert report.ok, text
    for r in report.browsers:
        assert r.status == "ok" and r.round_trip is not None and r.round_trip.ok
        assert r.round_trip.protocol == 1
        # It exits on end of input; under heavy load that can exceed the browsers' 2 s grace
        # (then doctor warns), so only "it exits" is asserted here.
        assert r.round_trip.exit_ms is not None
        assert r.round_trip.hello_ms is not None and r.round_trip.hello_ms > 0
    assert "verdict: OK" in text


# -- static checks ---------------------------------------------------------------------------


def test_nothing_registered_is_not_ok(home: Path, data_dir: Path) -> None:
    report = doctor(home, data_dir, do_round_trip=False)
    assert not report.ok
    assert all(r.status == "not_registered" for r in report.browsers)
    assert any("blocksift install" in n for n in report.notes)


@pytest.mark.parametrize(("damage", "check", "words"), [
    (lambda p: p.write_text('{"name": "org.blocksift.host",'), "valid JSON", "line 1"),
    (lambda p: p.write_text("[]"), "valid JSON", "not an object"),
    (lambda p: edit(p, path="/nowhere/host"), "path", "does not exist"),
    (lambda p: edit(p, path="relative/host"), "path", "relative"),
    (lambda p: edit(p, allowed_origins=["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]),
     "allowed_origins", "forbids our extension"),
    (lambda p: edit(p, allowed_origins=[CHROMIUM_ORIGIN, "chrome-extension://evil/"]),
     "allowed_origins", "other extensions"),
    (lambda p: drop(p, "allowed_origins"), "allowed_origins", "allowed_origins is missing"),
    (lambda p: drop(p, "type"), "type", "type is missing, must be 'stdio'"),
    (lambda p: edit(p, name="org.other.host"), "name", "org.blocksift.host"),
    (lambda p: edit(p, type="socket"), "type", "stdio"),
])
def test_doctor_names_each_broken_manifest_and_the_fix(home: Path, data_dir: Path, damage,
                                                       check: str, words: str) -> None:
    install(home, data_dir, ["chrome"])
    damage(chrome_manifest(home))
    report = doctor(home, data_dir, browsers=["chrome"])
    assert not report.ok
    (r,) = report.browsers
    assert r.status == "broken" and r.round_trip is None  # no round trip on a broken file
    problem = next(p for p in r.problems if p.check == check)
    assert words in problem.message
    assert problem.fix == "blocksift install --browser chrome"
    assert "verdict: NOT OK" in format_report(report)


def test_launcher_not_executable(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["chrome"])
    (data_dir / "native-host" / "blocksift-native-host").chmod(0o644)
    (r,) = doctor(home, data_dir, browsers=["chrome"]).browsers
    assert any(p.check == "path executable" and "chmod" in p.message for p in r.problems)


def test_launcher_whose_interpreter_is_gone(home: Path, data_dir: Path, tmp_path: Path) -> None:
    venv_python = write_script(tmp_path / "venv-python", "#!/bin/sh\nexit 1\n")
    install(home, data_dir, ["firefox"], python=str(venv_python))
    venv_python.unlink()
    (r,) = doctor(home, data_dir, browsers=["firefox"]).browsers
    problem = next(p for p in r.problems if p.check == "interpreter")
    assert "no longer exists" in problem.message and str(venv_python) in problem.message
    # The `blocksift` command went with that virtualenv: the fix runs the doctor's own Python,
    # and it does fix the registration.
    assert problem.fix == f"{sys.executable} -m blocksift install --browser firefox"
    done = subprocess.run(shlex.split(problem.fix), env=subprocess_env(home), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert doctor(home, data_dir, browsers=["firefox"], do_round_trip=False).ok


def test_doctor_finds_the_gone_interpreter_of_a_windows_launcher(tmp_path: Path) -> None:
    """The Windows launcher (a .bat with CRLF lines, as install writes it) names its Python
    in a `rem` line; the doctor reads it there. The registry is a dict (no winreg here); the
    launcher, manifest and interpreter are real files."""
    data = tmp_path / "data"
    python = tmp_path / "venv" / "Scripts" / "python.exe"
    python.parent.mkdir(parents=True)
    python.write_bytes(b"")
    launcher = tmp_path / "blocksift-native-host.bat"
    launcher.write_bytes(launcher_script("win32", str(python)).encode("utf-8"))
    assert launcher.read_bytes().count(b"\r\n") == launcher.read_bytes().count(b"\n")
    assert launcher_interpreter(launcher.read_text(encoding="utf-8")) == str(python)
    plan = plan_install(["chrome"], platform="win32", home=str(tmp_path), data_dir=str(data),
                        python="C:\\Python\\python.exe")
    manifest = tmp_path / "chrome.json"
    manifest.write_text(json.dumps(dict(json.loads(plan.manifests[0].content),
                                        path=str(launcher))))

    class Registry:
        def read_default(self, key: str) -> str | None:
            return str(manifest) if key == plan.registry[0].key else None

    def check():
        report = run_doctor(platform="win32", home=tmp_path, data_dir=data, env={},
                            browsers=["chrome"], registry=Registry(), do_round_trip=False)
        return report.browsers[0]

    assert check().status == "ok" and "interpreter" in check().checks
    python.unlink()
    r = check()
    assert r.status == "broken"
    (problem,) = r.problems
    assert problem.check == "interpreter" and str(python) in problem.message
    assert problem.fix == f"{sys.executable} -m blocksift install --browser chrome"


def test_firefox_manifest_must_name_our_add_on(home: Path, data_dir: Path) -> None:
    install(home, data_dir, ["firefox"])
    manifest = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    edit(manifest, allowed_extensions=["other@example.org"])
    (r,) = doctor(home, data_dir, browsers=["firefox"]).browsers
    assert [p.check for p in r.problems] == ["allowed_extensions"]


def test_user_data_dir_registrations_are_checked(home: Path, data_dir: Path,
                                                 tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    install(home, data_dir, ["chromium"], user_data_dir=profile)
    report = doctor(home, data_dir, browsers=["chromium"], do_round_trip=False)
    assert [(r.user_data_dir, r.status) for r in report.browsers] == \
        [(None, "not_registered"), (str(profile), "ok")]
    assert report.ok
    only = doctor(home, data_dir, browsers=["chromium"], user_data_dir=profile,
                  do_round_trip=False)
    assert [r.location for r in only.browsers] == [
        str(profile / "NativeMessagingHosts" / f"{HOST_NAME}.json")]
    every = doctor(home, data_dir, user_data_dir=profile, do_round_trip=False)
    assert len(every.browsers) == 1 and every.ok  # one file, checked once


def test_windows_registration_is_read_through_the_registry(tmp_path: Path) -> None:
    """The Windows path of doctor (registry key -> manifest) with a dict standing in for
    winreg, which cannot run here; the manifests are real files."""
    data = tmp_path / "data"
    plan = plan_install(["edge", "chrome"], platform="win32", home=str(tmp_path),
                        data_dir=str(data), python="C:\\Python\\python.exe")

    class DictRegistry:
        def __init__(self) -> None:
            self.values: dict[str, str] = {}

        def set_default(self, key: str, value: str) -> None:
            self.values[key] = value

        def read_default(self, key: str) -> str | None:
            return self.values.get(key)

        def delete(self, key: str) -> bool:
            return self.values.pop(key, None) is not None

    registry = DictRegistry()
    launcher = tmp_path / "host.bat"
    launcher.write_text("@echo off\r\n")
    # The Windows plan's paths are Windows paths; point its registry values at real files.
    edge_manifest = tmp_path / "edge.json"
    edge_manifest.write_text(plan.manifests[0].content.replace(
        json.dumps(plan.launcher.path)[1:-1], str(launcher)))
    registry.set_default(plan.registry[0].key, str(edge_manifest))
    report = run_doctor(platform="win32", home=tmp_path, data_dir=data, env={},
                        browsers=["edge", "chrome"], registry=registry, do_round_trip=False)
    edge, chrome = report.browsers
    assert edge.status == "ok" and "registry key" in edge.checks
    assert chrome.status == "not_registered"
    assert "HKEY_CURRENT_USER\\Software\\Google\\Chrome" in chrome.problems[0].message


# -- round trips with stand-in hosts ----------------------------------------------------------


@pytest.fixture
def toy_host(tmp_path: Path) -> Path:
    return write_script(tmp_path / "toy-host", TOY_HOST)


def test_round_trip_with_a_well_behaved_host(toy_host: Path) -> None:
    trip = round_trip([str(toy_host), CHROMIUM_ORIGIN])
    assert trip.ok and trip.host_version == "toy" and trip.exited_on_eof
    assert trip.ping_ms is not None and trip.total_ms is not None


@pytest.mark.parametrize(("mode", "words"), [
    ("prints", "printed text on stdout"),
    ("crash", "closed stdout before answering hello (exit code 3)"),
    ("bad-pong", "error internal: boom"),
])
def test_round_trip_explains_a_misbehaving_host(toy_host: Path, mode: str, words: str) -> None:
    trip = round_trip([str(toy_host), mode], timeout=10)
    assert not trip.ok
    assert words in (trip.error or "")


def test_a_host_that_exits_before_the_hello_is_written_is_explained_the_same(
        toy_host: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the host dies first and the hello meets a closed pipe: under load this is the order a
    # crash often takes, and the report must not depend on it
    from blocksift.registration import doctor

    encode = doctor.encode_frame

    def late(message):
        time.sleep(1.0)  # the toy host has exited by now
        return encode(message)

    monkeypatch.setattr(doctor, "encode_frame", late)
    trip = round_trip([str(toy_host), "crash"], timeout=10)
    assert not trip.ok
    assert "closed stdout before answering hello (exit code 3)" in (trip.error or "")
    assert "no module named lxml" in trip.stderr


def test_round_trip_reports_the_launchers_cannot_start_frame(tmp_path: Path) -> None:
    """A launcher whose checkout moved answers with an id-less error frame and then waits for
    EOF: doctor shows that message at once, and the launcher exits when stdin closes."""
    from blocksift.registration.plan import launcher_script

    launcher = write_script(tmp_path / "blocksift-native-host", launcher_script(
        "linux", sys.executable, pythonpath=str(tmp_path / "moved" / "host")))
    started = time.monotonic()
    trip = round_trip([str(launcher), CHROMIUM_ORIGIN], timeout=30)
    assert not trip.ok and trip.exited_on_eof
    assert "blocksift cannot start" in (trip.error or "")
    assert str(tmp_path / "moved" / "host") in (trip.error or "")
    assert time.monotonic() - started < 10  # not the round trip's own 30 s timeout


def test_round_trip_names_the_exit_code_of_a_launcher_that_found_its_python_gone(
        tmp_path: Path) -> None:
    """The Windows launcher cannot write the error frame: it says so on stderr and exits
    LAUNCHER_GONE_EXIT. A POSIX script stands in for it (no cmd.exe here)."""
    from blocksift.registration.plan import LAUNCHER_GONE_EXIT

    launcher = write_script(tmp_path / "blocksift-native-host", (
        "#!/bin/sh\nprintf '%s\\n' 'blocksift cannot start: its Python, C:\\venv\\python.exe, "
        f"is gone' >&2\nexit {LAUNCHER_GONE_EXIT}\n"))
    trip = round_trip([str(launcher), CHROMIUM_ORIGIN], timeout=30)
    assert not trip.ok
    assert trip.error == (f"the host closed stdout before answering hello (exit code "
                          f"{LAUNCHER_GONE_EXIT}): the launcher could not start the host, its "
                          "Python or its source folder is gone")
    assert "C:\\venv\\python.exe, is gone" in trip.stderr


def test_a_host_that_lingers_after_end_of_input_is_flagged(toy_host: Path) -> None:
    trip = round_trip([str(toy_host), "linger"], timeout=10)
    assert trip.ok  # it answered; the browser would kill it later
    assert trip.exited_on_eof is False and trip.exit_ms is None


def test_doctor_warns_but_passes_a_slow_exiting_host(home: Path, data_dir: Path,
                                                    tmp_path: Path) -> None:
    slow = write_script(tmp_path / "slow-python", TOY_HOST.replace(
        "        sys.exit(0)", "        time.sleep(2.6); sys.exit(0)"))
    install(home, data_dir, ["chrome"], python=str(slow))
    # The launcher runs "<python> -m blocksift native ...": the toy host ignores those args.
    report = doctor(home, data_dir, browsers=["chrome"])
    (r,) = report.browsers
    assert report.ok and r.status == "ok"
    (warning,) = r.problems
    assert warning.severity == "warning" and "to exit" in warning.message
    assert r.round_trip is not None and 2600 <= (r.round_trip.exit_ms or 0) < 5000


def test_round_trip_times_out_on_a_silent_host(toy_host: Path) -> None:
    trip = round_trip([str(toy_host), "silent"], timeout=1.5)
    assert not trip.ok and "no hello reply within 2 s" in (trip.error or "")


def test_round_trip_on_a_missing_program(tmp_path: Path) -> None:
    trip = round_trip([str(tmp_path / "missing")])
    assert not trip.ok and "cannot start" in (trip.error or "")


def test_crash_stderr_reaches_the_report(home: Path, data_dir: Path, tmp_path: Path) -> None:
    crashing = write_script(tmp_path / "py", "#!/bin/sh\necho 'No module named blocksift' >&2\n"
                                             "exit 1\n")
    install(home, data_dir, ["chrome"], python=str(crashing))
    (r,) = doctor(home, data_dir, browsers=["chrome"]).browsers
    problem = next(p for p in r.problems if p.check == "round trip")
    assert "No module named blocksift" in problem.message
    # its Python lacks blocksift: the fix points the launcher at doctor's own Python
    assert problem.fix == f"{sys.executable} -m blocksift install --browser chrome"


def test_other_host_crashes_are_sent_to_the_launcher_by_hand(home: Path, data_dir: Path,
                                                             tmp_path: Path) -> None:
    crashing = write_script(tmp_path / "py", "#!/bin/sh\necho 'Segmentation fault' >&2\n"
                                             "exit 139\n")
    install(home, data_dir, ["chrome"], python=str(crashing))
    (r,) = doctor(home, data_dir, browsers=["chrome"]).browsers
    problem = next(p for p in r.problems if p.check == "round trip")
    assert "Segmentation fault" in problem.message
    assert "by hand" in (problem.fix or "")


def test_sandboxed_browsers_get_a_note(home: Path, data_dir: Path) -> None:
    (home / "snap" / "chromium").mkdir(parents=True)
    (home / ".var" / "app" / "org.mozilla.firefox").mkdir(parents=True)
    report = doctor(home, data_dir, do_round_trip=False)
    notes = " ".join(report.notes)
    assert "Chromium (Snap)" in notes and "blocksift serve" in notes
    assert "Firefox (Flatpak)" in notes and "xdg-native-messaging-proxy" in notes


def test_a_lingering_host_and_its_children_are_killed(tmp_path: Path) -> None:
    """doctor leaves no process behind: the lingering host's child dies with it."""
    import os
    import signal

    pid_file = tmp_path / "child.pid"
    host = write_script(tmp_path / "host", f"""#!/bin/sh
sleep 60 &
echo $! > {pid_file}
exec sleep 60
""")
    trip = round_trip([str(host)], timeout=1)
    assert not trip.ok and trip.exited_on_eof is False
    child = int(pid_file.read_text())

    def gone() -> bool:
        # A zombie (dead, not yet reaped by init) also counts as gone.
        try:
            return Path(f"/proc/{child}/stat").read_text().split()[2] == "Z"
        except (FileNotFoundError, ProcessLookupError):
            return True

    # SIGKILL lands when the kernel next schedules the child; on a loaded machine that
    # can be after round_trip returns, so allow it a moment before calling it a survivor.
    waited_until = time.monotonic() + 5
    while not gone() and time.monotonic() < waited_until:
        time.sleep(0.05)
    if not gone():
        os.kill(child, signal.SIGKILL)
        pytest.fail("the host's child survived doctor")


def test_a_damaged_receipt_is_named_with_the_command_that_writes_it_again(
        home: Path, data_dir: Path, tmp_path: Path) -> None:
    install(home, data_dir, ["chrome", "firefox"])
    receipt = data_dir / "native-host" / "installed.json"
    receipt.write_text('{"version": 1,')
    report = doctor(home, data_dir, do_round_trip=False)
    assert report.ok  # the registrations work; only uninstall's record is lost
    (note,) = [n for n in report.notes if "damaged" in n]
    assert note == (f"{receipt} (install's record of what it wrote, for uninstall) is damaged "
                    "(1 problem); it was ignored; `blocksift install --browser chrome "
                    "--browser firefox` writes it again")
    command = note.split("`")[1].replace("blocksift", f"{sys.executable} -m blocksift", 1)
    done = subprocess.run(shlex.split(command), env=subprocess_env(home), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    again = doctor(home, data_dir, do_round_trip=False)
    assert again.ok and not [n for n in again.notes if "damaged" in n]
    assert {e.registration.browser for e in load_receipt(data_dir)[0].entries} == \
        {"chrome", "firefox"}


@pytest.mark.slow
def test_a_launcher_python_without_blocksift_gets_the_doctors_python_as_fix(
        home: Path, data_dir: Path, tmp_path: Path) -> None:
    """A real virtualenv that lacks blocksift (as after `pip uninstall blocksift` in it):
    the host cannot start; the fix points the launcher at the Python running doctor."""
    venv = tmp_path / "bare venv"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)],  # type: ignore[attr-defined]
                   check=True, timeout=120)
    python = venv / "bin" / "python"
    plan = plan_install(["chromium"], platform="linux", home=home, data_dir=data_dir,
                        python=str(python), env={})  # no PYTHONPATH: it has no blocksift
    apply_install(plan, data_dir)
    (r,) = doctor(home, data_dir, browsers=["chromium"], env=None).browsers
    (problem,) = r.problems
    assert problem.check == "round trip" and "No module named blocksift" in problem.message
    assert f"the launcher's Python, {python}, cannot import blocksift" in problem.message
    assert problem.fix == f"{sys.executable} -m blocksift install --browser chromium"
    done = subprocess.run(shlex.split(problem.fix), env=subprocess_env(home), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert doctor(home, data_dir, browsers=["chromium"], env=None).ok


def test_doctor_for_an_unregistered_browser_names_the_registered_ones(home: Path,
                                                                      data_dir: Path) -> None:
    install(home, data_dir, ["chromium", "firefox"])
    report = doctor(home, data_dir, browsers=["chrome"], do_round_trip=False)  # meant Chromium
    assert not report.ok
    assert report.notes[-1] == ("blocksift is not registered for Google Chrome; it is "
                                "registered for Chromium, Firefox: `blocksift doctor` checks "
                                "every browser")  # the browsers by name, as elsewhere
    assert doctor(home, data_dir, do_round_trip=False).ok
    profile = doctor(home, data_dir, user_data_dir=home / "p", do_round_trip=False)
    assert profile.notes[-1] == (f"blocksift is not registered for the profile {home / 'p'}; "
                                 "it is registered for Chromium, Firefox: "
                                 "`blocksift doctor` checks every browser")


def test_doctor_with_nothing_registered_says_run_install(home: Path, data_dir: Path) -> None:
    report = doctor(home, data_dir, browsers=["chrome"], do_round_trip=False)
    assert report.notes[-1] == ("blocksift is not registered with any browser: run "
                                "`blocksift install`")


# -- the fix, once -------------------------------------------------------------------------


def fix_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("fix:")]


def browsers_found(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> None:
    """The browsers doctor finds installed (this machine's PATH may hold some)."""
    from blocksift.registration import doctor as doctor_module

    monkeypatch.setattr(doctor_module, "detect", lambda *args, **kwargs: list(names))


def test_one_command_that_fixes_every_browser_is_said_once(home: Path, data_dir: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # it said 'fix: blocksift install --browser chrome', then '... --browser firefox'
    browsers_found(monkeypatch, [])
    install(home, data_dir, ["chrome", "firefox"])
    chrome_manifest(home).write_text('{"name": "org.blocksift.host",')
    (data_dir / "native-host" / "blocksift-native-host").unlink()  # both name it
    report = doctor(home, data_dir, do_round_trip=False)
    assert [r.status for r in report.browsers if r.status != "not_registered"] == \
        ["broken", "broken"]
    # no browser looks installed here: a plain install would register all five
    assert report.fix == "blocksift install --browser chrome --browser firefox"
    assert report.fix_for == ["Google Chrome", "Firefox"]
    text = format_report(report)
    assert fix_lines(text) == ["fix: blocksift install --browser chrome --browser firefox  "
                               "(one command for Google Chrome and Firefox)"], text
    done = subprocess.run([sys.executable, "-m", "blocksift", *shlex.split(report.fix)[1:]],
                          env=subprocess_env(home), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert doctor(home, data_dir, do_round_trip=False).ok


def test_the_browsers_found_here_are_fixed_by_a_plain_install(
        home: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    browsers_found(monkeypatch, ["chromium", "firefox"])
    install(home, data_dir, ["chromium", "firefox"])
    (data_dir / "native-host" / "blocksift-native-host").unlink()
    report = doctor(home, data_dir, do_round_trip=False)
    assert report.fix == "blocksift install" and report.fix_for == ["Chromium", "Firefox"]
    # a browser doctor was not asked about would be registered too: named instead
    asked = doctor(home, data_dir, browsers=["firefox"], do_round_trip=False)
    assert asked.fix == "blocksift install --browser firefox"


def test_one_browsers_problems_with_the_same_fix_say_it_once(home: Path,
                                                            data_dir: Path) -> None:
    install(home, data_dir, ["chrome"])
    edit(chrome_manifest(home), name="org.other.host", type="socket")
    report = doctor(home, data_dir, browsers=["chrome"])
    (r,) = report.browsers
    assert [p.check for p in r.problems] == ["name", "type"]
    assert fix_lines(format_report(report)) == ["fix: blocksift install --browser chrome"]


def test_fixes_that_differ_are_said_per_browser(home: Path, data_dir: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    browsers_found(monkeypatch, [])
    profile = tmp_path / "profile"
    install(home, data_dir, ["chrome"])
    install(home, data_dir, ["chromium"], user_data_dir=profile)
    chrome_manifest(home).write_text("[]")
    edit(profile / "NativeMessagingHosts" / f"{HOST_NAME}.json", type="socket")
    report = doctor(home, data_dir, browsers=["chrome", "chromium"], do_round_trip=False)
    assert report.fix is None
    assert fix_lines(format_report(report)) == [
        "fix: blocksift install --browser chrome",
        f"fix: blocksift install --browser chromium --user-data-dir '{profile}'"]
