"""The pure install plan for Linux, macOS and Windows, and the launchers it contains."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest
from install_support import PUBLIC_KEY_B64, REPO, posix_only, write_script

from blocksift.paths import write_atomic
from blocksift.registration import (
    BROWSER_NAMES,
    CHROMIUM_EXTENSION_ID,
    FIREFOX_EXTENSION_ID,
    HOST_NAME,
    extension_id_from_key,
    plan_install,
)
from blocksift.registration.plan import (
    LAUNCHER_GONE_EXIT,
    gone_message,
    launcher_interpreter,
    launcher_script,
)

ORIGIN = f"chrome-extension://{CHROMIUM_EXTENSION_ID}/"


def test_extension_id_is_the_hash_of_the_manifest_key() -> None:
    assert extension_id_from_key(PUBLIC_KEY_B64) == CHROMIUM_EXTENSION_ID
    # One changed byte of key gives another id: the check can fail.
    assert extension_id_from_key(PUBLIC_KEY_B64.replace("MIIB", "MIIC", 1)) != \
        CHROMIUM_EXTENSION_ID


def test_committed_extension_manifests_carry_our_key() -> None:
    manifests = [p for p in (REPO / "extension").rglob("manifest*.json")
                 if "node_modules" not in p.parts] if (REPO / "extension").is_dir() else []
    keyed = [p for p in manifests if "key" in json.loads(p.read_text(encoding="utf-8"))]
    if not keyed:
        pytest.skip("no extension manifest with a key in this checkout yet")
    for path in keyed:
        assert extension_id_from_key(json.loads(path.read_text())["key"]) == \
            CHROMIUM_EXTENSION_ID, path


LINUX_DIRS = {
    "chrome": ".config/google-chrome/NativeMessagingHosts",
    "chromium": ".config/chromium/NativeMessagingHosts",
    "edge": ".config/microsoft-edge/NativeMessagingHosts",
    "brave": ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "firefox": ".mozilla/native-messaging-hosts",
}
MAC_DIRS = {
    "chrome": "Library/Application Support/Google/Chrome/NativeMessagingHosts",
    "chromium": "Library/Application Support/Chromium/NativeMessagingHosts",
    "edge": "Library/Application Support/Microsoft Edge/NativeMessagingHosts",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "firefox": "Library/Application Support/Mozilla/NativeMessagingHosts",
}
WINDOWS_KEYS = {
    "chrome": r"Software\Google\Chrome\NativeMessagingHosts\org.blocksift.host",
    "chromium": r"Software\Chromium\NativeMessagingHosts\org.blocksift.host",
    "edge": r"Software\Microsoft\Edge\NativeMessagingHosts\org.blocksift.host",
    "brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\org.blocksift.host",
    "firefox": r"Software\Mozilla\NativeMessagingHosts\org.blocksift.host",
}


@pytest.mark.parametrize(("platform", "dirs"), [("linux", LINUX_DIRS), ("darwin", MAC_DIRS)])
def test_posix_plan_puts_each_manifest_in_the_browsers_user_directory(
        tmp_path: Path, platform: str, dirs: dict[str, str]) -> None:
    home, data = tmp_path / "home", tmp_path / "data"
    plan = plan_install(BROWSER_NAMES, platform=platform, home=home, data_dir=data,
                        python="/opt/venv/bin/python", env={})
    launcher = str(data / "native-host" / "blocksift-native-host")
    assert plan.launcher.path == launcher and plan.launcher.mode == 0o755
    assert plan.registry == []
    got = {reg.browser: reg.manifest_path for reg in plan.registrations}
    assert got == {name: str(home / d / f"{HOST_NAME}.json") for name, d in dirs.items()}
    for write, reg in zip(plan.manifests, plan.registrations, strict=True):
        doc = json.loads(write.content)
        assert doc["name"] == HOST_NAME and doc["type"] == "stdio" and doc["path"] == launcher
        if reg.browser == "firefox":
            assert doc["allowed_extensions"] == [FIREFOX_EXTENSION_ID]
            assert "allowed_origins" not in doc
        else:
            assert doc["allowed_origins"] == [ORIGIN]
            assert "allowed_extensions" not in doc


def test_windows_plan_writes_registry_keys_naming_manifests_in_the_data_dir() -> None:
    data = r"C:\Users\Ann Lee\AppData\Local\blocksift"
    plan = plan_install(BROWSER_NAMES, platform="win32", home=r"C:\Users\Ann Lee",
                        data_dir=data, python=r"C:\Users\Ann Lee\venv\Scripts\python.exe")
    launcher = data + r"\native-host\blocksift-native-host.bat"
    assert plan.launcher.path == launcher
    keys = {w.key: w.value for w in plan.registry}
    assert set(keys) == set(WINDOWS_KEYS.values())
    for name, key in WINDOWS_KEYS.items():
        manifest = data + rf"\native-host\{name}\org.blocksift.host.json"
        assert keys[key] == manifest
        write = next(m for m in plan.manifests if m.path == manifest)
        assert json.loads(write.content)["path"] == launcher
    assert all(w.root == "HKEY_CURRENT_USER" for w in plan.registry)
    text = plan.launcher.content
    assert text.startswith("@echo off\r\n") and text.endswith("\r\n")
    assert '"C:\\Users\\Ann Lee\\venv\\Scripts\\python.exe" -m blocksift native %*' in text


def test_windows_launcher_escapes_percent_and_sets_pythonpath() -> None:
    text = launcher_script("win32", r"C:\50%\python.exe", pythonpath=r"C:\src\host")
    assert '"C:\\50%%\\python.exe" -m blocksift native %*' in text
    assert "rem interpreter: C:\\50%%\\python.exe" in text  # cmd.exe expands rem lines too
    assert 'set "PYTHONPATH=C:\\src\\host;%PYTHONPATH%"' in text
    assert launcher_interpreter(text) == r"C:\50%\python.exe"


#: The line after which the Windows launcher is read in the UTF-8 code page.
TO_UTF8 = 'if defined BLOCKSIFT_OLD_CP "%SystemRoot%\\System32\\chcp.com" 65001 >nul\r\n'


def written_bat(tmp_path: Path, python: str, pythonpath: str | None = None) -> bytes:
    """The Windows launcher's bytes, written by install's own writer."""
    plan = plan_install(["chrome"], platform="win32", home=r"C:\Users\x", data_dir=r"C:\d",
                        python=python, pythonpath=pythonpath)
    target = tmp_path / "blocksift-native-host.bat"
    write_atomic(target, plan.launcher.content, mode=plan.launcher.mode, keep_mode=False)
    return target.read_bytes()


def test_windows_launcher_switches_cmd_to_utf8_before_a_non_ascii_path(tmp_path: Path) -> None:
    """cmd.exe reads a batch file in the console's code page (OEM: 437, 850...): a UTF-8
    'José' read so is 'Jos├⌐' and the Python is not found. The file stays UTF-8 (no BOM,
    which cmd.exe would run as part of the first command) and its ASCII-only head switches
    the code page to 65001 before the first line that can hold other characters."""
    python = r"C:\Users\José\Envs\ünï 名前\Scripts\python.exe"
    raw = written_bat(tmp_path, python, pythonpath=r"C:\Users\José\src\host")
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert raw.count(b"\n") == raw.count(b"\r\n")
    head, switch, rest = raw.decode("utf-8").partition(TO_UTF8)
    assert switch, "no switch to the UTF-8 code page"
    assert (head + switch).isascii() and not rest.isascii()
    assert head.startswith("@echo off\r\n")
    assert ('for /f "tokens=2 delims=:." %%a in (\'"%SystemRoot%\\System32\\chcp.com"\') '
            'do set "BLOCKSIFT_OLD_CP=%%a"\r\n') in head
    # What cmd.exe reads after the switch: the path as written.
    assert f'"{python}" -m blocksift native %*\r\n' in rest
    assert f'if exist "{python}" goto python_found\r\n' in rest
    assert 'if exist "C:\\Users\\José\\src\\host\\" goto source_found\r\n' in rest
    # What it read before (the OEM code page): another path, which does not exist.
    assert python not in raw.decode("cp850")
    # The code page it found is put back, then the host's exit code is the launcher's.
    assert rest.endswith('if defined BLOCKSIFT_OLD_CP "%SystemRoot%\\System32\\chcp.com" '
                         '%BLOCKSIFT_OLD_CP% >nul\r\nexit /b %BLOCKSIFT_EXIT%\r\n')
    assert 'set "BLOCKSIFT_EXIT=%ERRORLEVEL%"\r\n:done\r\n' in rest
    # The doctor reads the interpreter back from the file.
    assert launcher_interpreter(raw.decode("utf-8")) == python


def cmd_echo(line: str) -> str:
    """What cmd.exe prints for ``>&2 echo TEXT`` (delayed expansion off): %% is %, and
    outside double quotes a caret makes the next character plain."""
    prefix = ">&2 echo "
    assert line.startswith(prefix)
    text = line[len(prefix):]
    assert "%" not in text.replace("%%", "")  # no variable would be expanded
    text = text.replace("%%", "%")
    out, quoted, i = [], False, 0
    while i < len(text):
        char = text[i]
        if char == '"':
            quoted = not quoted
        elif char == "^" and not quoted:
            i += 1
            char = text[i]
        elif char in "&|<>" and not quoted:
            raise AssertionError(f"unescaped {char!r} would end the echo: {line}")
        out.append(char)
        i += 1
    return "".join(out)


@pytest.mark.parametrize("python", [
    r"C:\Users\Ann Lee\venv\Scripts\python.exe",
    r"C:\Users\A&B (x)\50% ^off\<odd>|\Scripts\python.exe",
])
def test_windows_launcher_says_when_its_python_is_gone(tmp_path: Path, python: str) -> None:
    """The sh launcher's check, in batch: a missing Python gets one line on stderr naming it
    and the exit code LAUNCHER_GONE_EXIT (the doctor names it), not cmd.exe's "The system
    cannot find the path specified" and a port that closes."""
    lines = written_bat(tmp_path, python).decode("utf-8").split("\r\n")
    check = lines.index(f'if exist "{python.replace("%", "%%")}" goto python_found')
    assert lines[check - 1] == f'set "BLOCKSIFT_EXIT={LAUNCHER_GONE_EXIT}"'
    message = cmd_echo(lines[check + 1])
    assert message == gone_message(f"its Python, {python}, is gone (a moved or deleted "
                                   "virtual environment, or an uninstalled Python?)")
    assert lines[check + 2:check + 4] == ["goto done", ":python_found"]
    run = lines.index(f'"{python.replace("%", "%%")}" -m blocksift native %*')
    assert check < run < lines.index(":done")
    assert LAUNCHER_GONE_EXIT not in (0, 1, 2, 3, 9009)  # the host's, cmd.exe's not-found


def test_windows_launcher_says_when_its_source_folder_is_gone(tmp_path: Path) -> None:
    lines = written_bat(tmp_path, r"C:\Python\python.exe",
                        pythonpath="C:\\src\\host\\").decode("utf-8").split("\r\n")
    check = lines.index('if exist "C:\\src\\host\\" goto source_found')  # a folder only
    assert "its source folder, C:\\src\\host\\, is gone" in cmd_echo(lines[check + 1])
    assert lines[check + 2:check + 5] == [
        "goto done", ":source_found", 'set "PYTHONPATH=C:\\src\\host\\;%PYTHONPATH%"']


def test_xdg_config_home_moves_chromium_family_dirs_not_firefox(tmp_path: Path) -> None:
    xdg = tmp_path / "cfg"
    plan = plan_install(["chrome", "firefox"], platform="linux", home=tmp_path / "h",
                        data_dir=tmp_path / "d", python="/usr/bin/python3",
                        env={"XDG_CONFIG_HOME": str(xdg)})
    paths = {r.browser: r.manifest_path for r in plan.registrations}
    assert paths["chrome"] == str(xdg / "google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json")
    assert paths["firefox"] == str(tmp_path / "h/.mozilla/native-messaging-hosts"
                                   / f"{HOST_NAME}.json")
    relative = plan_install(["chrome"], platform="linux", home=tmp_path / "h",
                            data_dir=tmp_path / "d", python="/usr/bin/python3",
                            env={"XDG_CONFIG_HOME": "relative/dir"})
    assert relative.registrations[0].manifest_path.startswith(str(tmp_path / "h/.config"))


def test_user_data_dir_registers_inside_the_profile(tmp_path: Path) -> None:
    plan = plan_install(["chromium"], platform="linux", home=tmp_path, data_dir=tmp_path / "d",
                        python="/usr/bin/python3", user_data_dir=tmp_path / "profile")
    assert plan.registrations[0].manifest_path == str(
        tmp_path / "profile" / "NativeMessagingHosts" / f"{HOST_NAME}.json")
    assert plan.registrations[0].user_data_dir == str(tmp_path / "profile")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"browsers": ["firefox"], "user_data_dir": "/p"}, "Chromium-family"),
    ({"browsers": ["chrome", "edge"], "user_data_dir": "/p"}, "one browser"),
    ({"browsers": ["chrome"], "user_data_dir": "C:\\p", "platform": "win32"}, "registry"),
    ({"browsers": ["opera"]}, "unknown browser"),
    ({"browsers": []}, "no browser"),
    ({"browsers": ["chrome"], "python": "python3"}, "absolute"),
])
def test_bad_requests_are_refused_with_a_reason(kwargs: dict, message: str) -> None:
    args = {"platform": "linux", "home": "/home/u", "data_dir": "/d", "python": "/usr/bin/py"}
    args.update(kwargs)
    browsers = args.pop("browsers")
    with pytest.raises(ValueError, match=message):
        plan_install(browsers, **args)


@posix_only
def test_posix_launcher_runs_the_interpreter_with_browser_arguments(tmp_path: Path) -> None:
    """Execute a real launcher whose 'interpreter' (in a path with a space and a quote)
    reports the argv and PYTHONPATH it got."""
    odd = tmp_path / "it's a dir"
    odd.mkdir()
    fake_python = write_script(odd / "python", "#!/bin/sh\nprintf '%s\\n' \"$@\" "
                                               "\"PYTHONPATH=$PYTHONPATH\"\n")
    launcher = write_script(tmp_path / "launcher",
                            launcher_script("linux", str(fake_python), pythonpath=str(odd)))
    out = subprocess.run([str(launcher), ORIGIN, "--parent-window=0"], capture_output=True,
                         text=True, check=True, env={"PATH": "/usr/bin:/bin",
                                                     "PYTHONPATH": "/keep"}).stdout
    assert out.splitlines() == ["-m", "blocksift", "native", ORIGIN, "--parent-window=0",
                                f"PYTHONPATH={odd}:/keep"]
    assert launcher_interpreter(launcher.read_text()) == str(fake_python)


def test_launcher_interpreter_ignores_foreign_files() -> None:
    assert launcher_interpreter("#!/bin/sh\n# interpreter: /usr/bin/python3\n") is None


def test_windows_paths_are_windows_paths() -> None:
    plan = plan_install(["edge"], platform="win32", home="C:\\Users\\u",
                        data_dir="C:\\Users\\u\\AppData\\Local\\blocksift",
                        python="C:\\Python311\\python.exe")
    assert PureWindowsPath(plan.manifests[0].path).is_absolute()
    assert "/" not in plan.manifests[0].path


def test_plan_is_json_serialisable_for_dry_run_output(tmp_path: Path) -> None:
    plan = plan_install(["chrome"], platform="darwin", home=tmp_path, data_dir=tmp_path / "d",
                        python=sys.executable)
    again = type(plan).model_validate_json(plan.model_dump_json())
    assert again == plan
