"""``blocksift install`` / ``doctor`` / ``uninstall`` as a user runs them (real processes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from install_support import posix_only, subprocess_env

from blocksift.registration import HOST_NAME

pytestmark = posix_only


def blocksift(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # Entry point of cmd_install directly when main's dispatcher does not list it yet.
    from blocksift.cli import main as cli_main

    wired = "install" in getattr(cli_main, "COMMAND_MODULES", ())
    entry = ["-m", "blocksift"] if wired else ["-m", "blocksift.cli.cmd_install"]
    return subprocess.run([sys.executable, *entry, *args], capture_output=True, text=True,
                          env=subprocess_env(home), timeout=120, check=False)


def snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.slow
def test_install_doctor_uninstall_round_trip(home: Path, tmp_path: Path) -> None:
    (home / ".config" / "google-chrome").mkdir(parents=True)  # Chrome "is installed"
    before = snapshot(tmp_path)

    dry = blocksift(home, "install", "--browser", "chrome", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["dryRun"] is True
    assert snapshot(tmp_path) == before

    done = blocksift(home, "install", "--browser", "chrome", "--browser", "firefox")
    assert done.returncode == 0, done.stderr
    assert (home / ".config/google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json").is_file()

    doctor = blocksift(home, "doctor", "--browser", "chrome", "--browser", "firefox", "--json")
    report = json.loads(doctor.stdout)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert [b["status"] for b in report["browsers"]] == ["ok", "ok"]
    assert all(b["round_trip"]["ok"] for b in report["browsers"])

    text = blocksift(home, "doctor")
    assert text.returncode == 0 and "verdict: OK" in text.stdout

    gone = blocksift(home, "uninstall")
    assert gone.returncode == 0, gone.stderr
    # The host's log and cache (doctor really ran the host) went with the registration;
    # at most the BLOCKSIFT_HOME folder itself is left, empty.
    left = snapshot(tmp_path) - before
    assert left <= {"bs"}, left
    again = blocksift(home, "uninstall")
    assert "nothing to remove" in again.stdout


def test_doctor_exit_code_and_fix_for_a_broken_manifest(home: Path) -> None:
    assert blocksift(home, "install", "--browser", "edge").returncode == 0
    manifest = home / ".config/microsoft-edge/NativeMessagingHosts" / f"{HOST_NAME}.json"
    manifest.write_text(manifest.read_text().replace('"stdio"', '"stdio",,'))
    result = blocksift(home, "doctor", "--browser", "edge", "--no-round-trip")
    assert result.returncode == 1
    assert "not valid JSON" in result.stdout
    assert "fix: blocksift install --browser edge" in result.stdout
    assert "verdict: NOT OK" in result.stdout


def test_bad_option_combination_is_a_usage_error(home: Path) -> None:
    result = blocksift(home, "install", "--browser", "firefox", "--user-data-dir", "/tmp/p")
    assert result.returncode == 2 and "Chromium-family" in result.stderr


def test_installing_for_a_browser_that_is_not_there_says_so(home: Path) -> None:
    (home / ".config" / "chromium" / "Default").mkdir(parents=True)  # Chromium was used
    result = blocksift(home, "install", "--browser", "edge", "--browser", "chromium")
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if "not look installed" in line]
    assert notes == ["note: Microsoft Edge does not look installed here; it will find "
                     "blocksift once it is installed"], result.stdout
    # and having registered it does not make it look installed the next time
    again = blocksift(home, "install", "--dry-run")
    assert "edge" not in again.stdout.splitlines()[0], again.stdout


def test_python_that_cannot_start_the_host_is_refused_in_one_line(home: Path,
                                                                   tmp_path: Path) -> None:
    from install_support import write_script

    before = snapshot(home)
    missing = blocksift(home, "install", "--browser", "firefox", "--python",
                        str(tmp_path / "gone" / "python3"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.count("\n") == 1 and "no such executable file" in missing.stderr
    assert missing.stderr.startswith("blocksift: error: ")  # as every command's errors read
    broken = write_script(tmp_path / "python3", "#!/bin/sh\n"
                          "echo \"ModuleNotFoundError: No module named 'lxml'\" >&2\nexit 1\n")
    refused = blocksift(home, "install", "--browser", "firefox", "--python", str(broken))
    assert refused.returncode == 2, refused.stdout
    assert refused.stderr.count("\n") == 1
    assert "No module named 'lxml'" in refused.stderr and "leave --python out" in refused.stderr
    assert snapshot(home) == before  # nothing registered that could not work


def test_install_help_names_the_default_interpreter(home: Path) -> None:
    result = blocksift(home, "install", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    assert "None" not in text and sys.executable in text


@pytest.mark.slow
def test_uninstall_leaves_no_empty_folder_of_ours_behind(home: Path, tmp_path: Path) -> None:
    """install, a doctor round trip (the host writes its log), uninstall: with no labeled
    examples or settings of the user's, nothing of blocksift's is left, not even a folder."""
    assert blocksift(home, "install", "--browser", "firefox").returncode == 0
    assert blocksift(home, "doctor", "--browser", "firefox").returncode == 0
    assert (tmp_path / "bs" / "state" / "logs").is_dir()  # the host really ran
    dry = blocksift(home, "uninstall", "--dry-run")
    assert str(tmp_path / "bs" / "state") + "\n" in dry.stdout, dry.stdout
    gone = blocksift(home, "uninstall")
    assert gone.returncode == 0, gone.stderr
    left = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "bs").rglob("*")) \
        if (tmp_path / "bs").exists() else []
    assert left == [], left


def _second_venv(root: Path) -> Path:
    """A real virtualenv (no pip) whose Python imports this checkout's blocksift and its
    dependencies through the test environment's site-packages."""
    import site

    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(root)],  # type: ignore[attr-defined]
                   check=True, timeout=120)
    (purelib,) = root.glob("lib/python*/site-packages")
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (purelib / "outer.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in ours))
    return root / "bin" / "python"


def test_install_with_another_python_says_the_other_browsers_switch_too(
        home: Path, tmp_path: Path) -> None:
    first = blocksift(home, "install", "--browser", "chromium", "--browser", "firefox")
    assert first.returncode == 0, first.stderr
    assert "note: the launcher ran" not in first.stdout
    same = blocksift(home, "install", "--browser", "chromium")
    assert "note: the launcher ran" not in same.stdout, same.stdout
    other = _second_venv(tmp_path / "venv2")
    second = blocksift(home, "install", "--browser", "chromium", "--python", str(other))
    assert second.returncode == 0, second.stderr
    notes = [line for line in second.stdout.splitlines() if line.startswith("note: the launcher")]
    assert notes == [f"note: the launcher ran {sys.executable}; it now runs {other}, for "
                     "firefox too (one launcher serves every browser)"], second.stdout


def test_uninstalling_a_browser_not_registered_names_those_that_are(home: Path) -> None:
    done = blocksift(home, "install", "--browser", "chromium", "--browser", "firefox")
    assert done.returncode == 0, done.stderr
    wrong = blocksift(home, "uninstall", "--browser", "chrome")  # meant Chromium
    assert wrong.returncode == 0, wrong.stderr
    assert wrong.stdout.splitlines() == [
        "nothing to remove: blocksift is not registered for Google Chrome; it is registered "
        "for chromium, firefox (`blocksift uninstall --browser NAME`, or no option for all)"]
    assert (home / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json").is_file()


def test_uninstall_ends_saying_which_registrations_stay(home: Path) -> None:
    """The steps alone do not say that uninstalling Chrome's leaves Chromium's and
    Firefox's registrations working."""
    done = blocksift(home, "install", "--browser", "chrome", "--browser", "chromium",
                     "--browser", "firefox")
    assert done.returncode == 0, done.stderr
    dry = blocksift(home, "uninstall", "--browser", "chrome", "--dry-run")
    assert dry.stdout.splitlines()[-1] == (
        f"would unregister {HOST_NAME} for chrome; it would stay registered for chromium, "
        "firefox (`blocksift doctor` checks them)"), dry.stdout
    one = blocksift(home, "uninstall", "--browser", "chrome")
    assert one.returncode == 0, one.stderr
    assert one.stdout.splitlines()[-1] == (
        f"unregistered {HOST_NAME} for chrome; still registered for chromium, firefox "
        "(`blocksift doctor` checks them)"), one.stdout
    rest = blocksift(home, "uninstall")
    assert rest.returncode == 0, rest.stderr
    assert f"unregistered {HOST_NAME} for chromium, firefox; no browser can start it now" \
        in rest.stdout.splitlines(), rest.stdout


def test_a_dry_run_uninstall_says_it_would_keep_the_users_data(home: Path,
                                                                  data_dir: Path) -> None:
    assert blocksift(home, "install", "--browser", "firefox").returncode == 0
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "examples.sqlite").write_bytes(b"")  # the user's labeled examples
    dry = blocksift(home, "uninstall", "--dry-run")
    assert dry.stdout.splitlines()[-1].startswith(
        "would keep your data (labeled examples, models, token): "), dry.stdout
    done = blocksift(home, "uninstall")
    assert done.stdout.splitlines()[-1].startswith("kept your data"), done.stdout
    assert (data_dir / "examples.sqlite").is_file()


@pytest.mark.parametrize("in_the_way, named", [
    (".config", ".config"),                                   # a file where a parent must be
    (".config/chromium/NativeMessagingHosts", ".config/chromium/NativeMessagingHosts"),
])
def test_a_file_in_the_way_is_named_in_one_line_with_what_to_do(home: Path, in_the_way: str,
                                                                named: str) -> None:
    # It read "blocksift: error: [Errno 20] Not a directory: '~/.config/chromium/Native...'"
    (home / in_the_way).parent.mkdir(parents=True, exist_ok=True)
    (home / in_the_way).write_text("", encoding="utf-8")
    done = blocksift(home, "install", "--browser", "chromium")
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: cannot write {home / named}: a file stands "
                           "where a folder must be; install stopped there (move that away, "
                           "then run `blocksift install` again)\n")


def test_a_folder_where_the_manifest_goes_is_named_not_the_temporary_file(home: Path) -> None:
    # It named the temporary file install writes first: '.../.org.blocksift.host.json.qepxjxea'
    manifest = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    manifest.mkdir(parents=True)
    done = blocksift(home, "install", "--browser", "firefox")
    assert done.returncode == 2
    assert done.stderr.startswith(f"blocksift: error: cannot write {manifest}: a folder stands "
                                  "where a file must be; install stopped there"), done.stderr
    assert "Errno" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_read_only_folder_is_said_in_words_with_what_to_do(tmp_path: Path) -> None:
    # a read-only HOME (uninstall there read "[Errno 30] Read-only file system: '...'");
    # the test runs as root too, where a mode cannot make a folder read-only: the error
    # itself is made here
    import errno

    from blocksift.cli.cmd_install import _problem

    manifest = tmp_path / f"{HOST_NAME}.json"
    exc = OSError(errno.EROFS, "Read-only file system", str(manifest))
    assert _problem(exc, "uninstall") == (
        f"cannot remove {manifest}: read-only file system; uninstall stopped there (make its "
        "folder writable, then run `blocksift uninstall` again)")
    assert _problem(exc, "doctor") == f"cannot check {manifest}: read-only file system"
    assert _problem(ValueError("as it was"), "install") == "as it was"


def test_doctor_in_a_terminal_wraps_its_sentences_under_their_label(home: Path) -> None:
    # in an 80-column terminal its lines ran to 200 columns, wrapped by the terminal at
    # column 0 in the middle of a word
    import shutil

    script = shutil.which("script")
    if script is None:
        pytest.skip("script (util-linux) runs a command in a terminal")
    assert blocksift(home, "install", "--browser", "chromium",
                     "--browser", "firefox").returncode == 0
    manifest = home / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json"
    manifest.write_text('{"name": "org.blocksift.host", ')
    command = " ".join([sys.executable, "-m", "blocksift", "doctor", "--no-round-trip",
                        "--browser", "chromium", "--browser", "firefox"])
    shown = subprocess.run([script, "-qec", f"stty cols 80 rows 40; {command}", "/dev/null"],
                           capture_output=True, text=True, env=subprocess_env(home),
                           timeout=120, check=False).stdout.replace("\r\n", "\n")
    lines = shown.splitlines()
    assert any(line.startswith("BROKEN  Chromium") for line in lines), shown
    long = [line for line in lines if len(line) > 80 and len(line.split()) > 2
            and not line.startswith(("OK ", "BROKEN ", "absent "))]  # a path stays whole
    assert not long, shown
    error = next(i for i, line in enumerate(lines) if line.startswith("        error: "))
    assert lines[error + 1].startswith(" " * 15) and lines[error + 1][15] != " ", shown
    passed = next(i for i, line in enumerate(lines)
                  if line.startswith("        passed: ") and "valid JSON" in line)
    assert lines[passed + 1].startswith(" " * 16) and lines[passed + 1][16] != " ", shown
    # piped, each stays one line (for grep)
    piped = blocksift(home, "doctor", "--no-round-trip", "--browser", "chromium",
                      "--browser", "firefox").stdout
    assert any(line.startswith("        error: ") and "not found" in line
               for line in piped.splitlines()), piped
