"""Read aloud in the reader view, with the browsers' real speech synthesis, in Chromium and Firefox.

On Linux both browsers speak through speech-dispatcher (Chromium only with
``--enable-speech-dispatcher``). The ``speech_engine`` fixture starts one for each test: a
PulseAudio null sink (it plays in real time, so sentences take as long as spoken; an ALSA null
device swallows a sentence in ~30 ms) and speech-dispatcher with the espeak-ng voices, reached
through ``SPEECHD_ADDRESS`` by the browser the test starts. Where these programs are absent
(``apt-get install speech-dispatcher speech-dispatcher-espeak-ng espeak-ng pulseaudio``),
the live test skips and says so. Checks are on the reader's DOM: the state it writes on
``<html data-blocksift-speech*>``, the highlighted range, the status line.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import e2e_harness as harness
import pytest

CONTENT = "document.getElementById('content')"
STATE = "document.documentElement.dataset"
SPEECH_DISPATCHER = shutil.which("speech-dispatcher")
PULSEAUDIO = shutil.which("pulseaudio")
ESPEAK_MODULE = Path("/usr/lib/speech-dispatcher-modules/sd_espeak-ng")
BIDI_KEYS = {"Tab": "\ue004", "Enter": "\ue007", "Shift": "\ue008", "Escape": "\ue00c"}


def _engine_missing() -> str | None:
    if not SPEECH_DISPATCHER or not ESPEAK_MODULE.exists():
        return "speech-dispatcher with espeak-ng is not installed (apt-get install speech-dispatcher speech-dispatcher-espeak-ng espeak-ng)"
    if not PULSEAUDIO:
        return "pulseaudio is not installed (its null sink makes speech take real time: apt-get install pulseaudio)"
    return None


def _wait_for_socket(path: Path, process: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        if path.exists():
            with socket.socket(socket.AF_UNIX) as probe:
                try:
                    probe.connect(str(path))
                    return
                except OSError:
                    pass
        time.sleep(0.05)
    raise TimeoutError(f"{path} did not open")


@pytest.fixture()
def speech_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private PulseAudio null sink and speech-dispatcher (espeak-ng) for this test's browser."""
    reason = _engine_missing()
    if reason:
        pytest.skip(reason)
    # unix socket paths must stay under 108 bytes: pytest's tmp_path can be longer
    work = Path(tempfile.mkdtemp(prefix="bs-speech-"))
    (work / "home").mkdir()
    (work / "conf" / "modules").mkdir(parents=True)
    (work / "conf" / "speechd.conf").write_text(
        'LogLevel 2\nAddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\n'
        'DefaultModule espeak-ng\nAudioOutputMethod "pulse"\n', encoding="utf-8")
    (work / "conf" / "modules" / "espeak-ng.conf").write_text("", encoding="utf-8")
    pulse_socket, speech_socket = work / "pulse-native", work / "speechd-socket"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work / "home"), "XDG_RUNTIME_DIR": str(work),
           "PULSE_SERVER": f"unix:{pulse_socket}"}
    processes: list[subprocess.Popen] = []
    log = (work / "engine.log").open("wb")
    try:
        processes.append(subprocess.Popen(
            [PULSEAUDIO, "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
             "--disable-shm=yes", "-L", "module-null-sink sink_name=silent",
             "-L", f"module-native-protocol-unix socket={pulse_socket} auth-anonymous=1"],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        _wait_for_socket(pulse_socket, processes[-1])
        processes.append(subprocess.Popen(
            [SPEECH_DISPATCHER, "-s", "-t", "0", "-C", str(work / "conf"), "-c", "unix_socket",
             "-S", str(speech_socket), "-P", str(work / "speechd.pid")],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        _wait_for_socket(speech_socket, processes[-1])
        monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{speech_socket}")
        monkeypatch.setattr(harness, "CHROMIUM_FLAGS", [*harness.CHROMIUM_FLAGS, "--enable-speech-dispatcher"])
        yield work
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture()
def no_voice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Speech synthesis present, no voice: speech-dispatcher's address leads nowhere (so an
    installed one is not started either), as on a machine without a speech engine."""
    monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'no-speechd'}")
    monkeypatch.setattr(harness, "CHROMIUM_FLAGS", [*harness.CHROMIUM_FLAGS, "--enable-speech-dispatcher"])


def press(tab: harness.Tab, key: str) -> None:
    """A real key press (Playwright in Chromium, WebDriver BiDi input in Firefox)."""
    if isinstance(tab, harness.ChromiumTab):
        tab.page.keyboard.press(key)
        return
    keys = [BIDI_KEYS.get(part, part) for part in key.split("+")]
    actions = [{"type": "keyDown", "value": k} for k in keys] + [{"type": "keyUp", "value": k} for k in reversed(keys)]
    tab.browser.bidi("input.performActions", {"context": tab.context, "actions": [
        {"type": "key", "id": "keyboard", "actions": actions}]})


def open_reader(browser: harness.Browser, site: harness.Site, name: str) -> harness.Tab:
    page = browser.new_tab(site.url(name))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    return page


def speech(page: harness.Tab) -> dict:
    """The reader's read-aloud state and what is highlighted, read in one go."""
    return page.evaluate(
        f"({{state: {STATE}.blocksiftSpeech, index: +{STATE}.blocksiftSpeechIndex,"
        f" rate: +{STATE}.blocksiftSpeechRate, started: +{STATE}.blocksiftSpeechStarted,"
        f" sentence: {STATE}.blocksiftSpeechSentence, listen: document.getElementById('listen').textContent,"
        " highlighted: [...(CSS.highlights.get('blocksift-speaking') ?? [])].map(r => r.toString().trim()),"
        f" block: {CONTENT}.querySelector('.speaking')?.textContent ?? null,"
        " engineSpeaking: speechSynthesis.speaking,"
        " status: document.getElementById('action-status').textContent})")


def test_read_aloud_speaks_highlights_pauses_resumes_and_changes_speed(
        browser_name: str, speech_engine: Path, tmp_path: Path, host: harness.HostInstall,
        site: harness.Site, artifacts: Path) -> None:
    with harness.launch(browser_name, tmp_path, host, launchpad=site.url("blank.html", host="localhost")) as browser:
        page = open_reader(browser, site, "reader-structure.html")
        voices = page.wait_for("speechSynthesis.getVoices().length || new Promise(r => "
                               "speechSynthesis.addEventListener('voiceschanged', () => r(speechSynthesis.getVoices().length)))")
        assert voices > 0
        # the fastest speed first, so that sentences pass quickly; then Listen
        page.evaluate("(s => (s.value = '2', s.dispatchEvent(new Event('change')), true))(document.getElementById('speech-rate'))")
        assert speech(page)["rate"] == 2
        page.evaluate("document.getElementById('listen').click(), true")
        page.wait_for(f"+{STATE}.blocksiftSpeechStarted >= 1")  # the engine's own start event
        # the title first, highlighted in the header
        now = speech(page)
        assert now["state"] == "playing" and now["index"] == 0 and now["listen"] == "Pause"
        assert now["sentence"] == "Measuring the tide with Python"
        assert now["highlighted"] == [now["sentence"]] and now["block"] is None
        assert page.evaluate("document.querySelector('.speaking')?.id") == "title"
        assert now["status"].startswith("Reading aloud: sentence 1 of ")
        assert page.evaluate("getComputedStyle(document.querySelector('#title.speaking')).backgroundColor")\
            != page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.screenshot(artifacts / "reading-title.png")

        # the engine ends the title: the article's first sentence is read and highlighted
        page.wait_for(f"+{STATE}.blocksiftSpeechIndex >= 1", timeout=60)
        now = speech(page)
        assert now["state"] == "playing" and now["index"] == 1
        assert now["sentence"].startswith("Tide gauges record the height of the sea")
        assert now["highlighted"] == [now["sentence"]]
        assert now["block"].startswith("Tide gauges record")
        assert page.evaluate("document.querySelector('#title.speaking')") is None
        assert page.evaluate("getComputedStyle(document.querySelector('#content .speaking')).backgroundColor")\
            != page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.screenshot(artifacts / "reading-first-sentence.png")

        # and the next
        page.wait_for(f"+{STATE}.blocksiftSpeechIndex >= 2", timeout=60)
        now = speech(page)
        assert now["state"] == "playing" and now["highlighted"] == [now["sentence"]]
        assert not now["sentence"].startswith("Tide gauges")
        page.screenshot(artifacts / "reading-next-sentence.png")

        # Pause (the same button): the voice stops and the place stays
        page.evaluate("document.getElementById('listen').click(), true")
        page.wait_for("!speechSynthesis.speaking")
        paused = speech(page)
        assert paused["state"] == "paused" and paused["listen"] == "Resume"
        assert paused["status"].startswith("Paused at sentence")
        time.sleep(3)  # longer than the engine takes to say a sentence at 2×: nothing moves
        assert speech(page) == paused
        page.screenshot(artifacts / "paused.png")

        # Resume: the paused sentence is spoken again (a new start event from the engine)
        page.evaluate("document.getElementById('listen').click(), true")
        page.wait_for(f"+{STATE}.blocksiftSpeechStarted > {paused['started']}")
        now = speech(page)
        assert now["state"] == "playing" and now["index"] >= paused["index"]

        # speed: the current sentence starts again at the new rate
        before, after = page.evaluate(
            "(() => { const s = document.getElementById('speech-rate'); const before = +document.documentElement"
            ".dataset.blocksiftSpeechIndex; s.value = '1.5'; s.dispatchEvent(new Event('change'));"
            " return [before, +document.documentElement.dataset.blocksiftSpeechIndex]; })()")
        assert after == before
        started = speech(page)["started"]
        page.wait_for(f"+{STATE}.blocksiftSpeechStarted > {started}")
        assert speech(page)["rate"] == 1.5

        # the same from the keyboard: ] faster, [ slower, L pause and resume, N next, B back,
        # Shift+L stop
        page.evaluate("document.activeElement?.blur(), true")
        press(page, "]")
        assert speech(page)["rate"] == 1.75
        press(page, "[")
        assert speech(page)["rate"] == 1.5
        press(page, "l")
        page.wait_for(f"{STATE}.blocksiftSpeech === 'paused' && !speechSynthesis.speaking")
        at = speech(page)["index"]
        press(page, "n")
        assert speech(page)["index"] == at + 1 and speech(page)["state"] == "paused"
        press(page, "l")
        page.wait_for(f"{STATE}.blocksiftSpeech === 'playing'")
        now = speech(page)
        assert now["index"] == at + 1 and now["highlighted"] == [now["sentence"]]
        press(page, "b")
        assert speech(page)["index"] == at
        page.wait_for(f"+{STATE}.blocksiftSpeechStarted > {now['started']}")
        press(page, "Shift+L")
        page.wait_for(f"{STATE}.blocksiftSpeech === 'idle' && !speechSynthesis.speaking")
        now = speech(page)
        assert now["highlighted"] == [] and now["block"] is None and now["listen"] == "Listen"
        assert now["status"] == ""


def test_read_aloud_without_a_voice_says_so(browser_name: str, no_voice: None, tmp_path: Path,
                                             host: harness.HostInstall, site: harness.Site,
                                             artifacts: Path) -> None:
    with harness.launch(browser_name, tmp_path, host, launchpad=site.url("blank.html", host="localhost")) as browser:
        page = open_reader(browser, site, "reader-structure.html")
        assert page.evaluate("speechSynthesis.getVoices().length") == 0
        page.evaluate("document.activeElement?.blur(), true")
        press(page, "l")
        said = page.wait_for("document.getElementById('action-status').textContent")
        assert said.startswith("No voice is installed for speech; ")
        assert page.evaluate("document.getElementById('action-status').classList.contains('bad')")
        now = speech(page)
        assert now["state"] == "idle" and now["listen"] == "Listen" and now["highlighted"] == []
        page.screenshot(artifacts / "no-voice.png")


def test_sentences_in_the_page_skip_code_and_math_and_every_control_is_reachable_by_tab(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-structure.html")
    # speech.js's splitting on a real DOM: ranges hold exactly the sentence, across inline
    # elements; code and formulas are not read
    html = ("<h2>High water</h2><p>The sea rose <b>4.62 m</b> at nine. It fell again by noon!</p>"
            "<pre><code>x = 1. y = 2.</code></pre><p>The formula <math><mi>x</mi></math> is short.</p>"
            "<ul><li>One item. <em>Two</em> items.</li></ul>")
    for segmenter in (True, False):
        found = page.evaluate(
            "import('./speech.js').then(m => { const box = document.createElement('div');"
            f" box.innerHTML = {json.dumps(html)};"
            f" return m.sentences(box, 'en', {{useSegmenter: {json.dumps(segmenter)}}})"
            ".map(s => [s.text, s.range.toString(), s.block.tagName]); })")
        assert [text for text, _, _ in found] == [
            "High water", "The sea rose 4.62 m at nine.", "It fell again by noon!",
            "The formula  is short.", "One item.", "Two items."], (segmenter, found)
        for text, in_range, _ in found:
            assert in_range.replace("x", "") == text
        assert [block for _, _, block in found][:3] == ["H2", "P", "P"]
    # the reader's own: its title first, then its article, nothing else of the page
    titled = page.evaluate(
        "import('./speech.js').then(m => { const root = document.createElement('main');"
        " root.innerHTML = '<header><p>The Herald</p><h1 id=\"title\">High water</h1><p>By A. Writer</p>"
        "</header><article id=\"content\"><p>The sea rose. It fell.</p></article><footer><p>Found by"
        " blocksift.</p></footer>'; return m.readerSentences(root, 'en')"
        ".map(s => [s.text, s.block.id || s.block.tagName]); })")
    assert titled == [["High water", "title"], ["The sea rose.", "P"], ["It fell.", "P"]]

    # Tab walks every toolbar control, the read-aloud ones included; Enter opens the Aa panel
    # and Tab goes on into its choices
    page.evaluate("document.activeElement?.blur(), true")
    reached = []
    for _ in range(20):
        press(page, "Tab")
        reached.append(page.evaluate("document.activeElement.id || document.activeElement.textContent"))
    for control in ("back", "listen", "speech-rate", "copy-markdown", "save-markdown", "save-html",
                    "save-epub", "display", "print", "keys"):
        assert control in reached, (control, reached)
    # ? shows the keys, Esc closes that list (and stays in the reader)
    press(page, "?")
    assert not page.evaluate("document.getElementById('keys-help').hidden")
    assert "Shift+L" in page.evaluate("document.getElementById('keys-list').textContent")
    press(page, "Escape")
    assert page.evaluate("document.getElementById('keys-help').hidden")
    assert page.evaluate("location.pathname") == "/reader.html"
    while page.evaluate("document.activeElement.id") != "display":
        press(page, "Tab")
    if browser.name == "firefox":
        # Firefox 153 does not activate a focused button from a WebDriver BiDi Enter or Space
        # (measured: the keydown arrives, no click follows); the buttons are native ones
        return
    press(page, "Enter")
    assert not page.evaluate("document.getElementById('display-panel').hidden")
    press(page, "Tab")
    assert page.evaluate("document.activeElement.dataset.themeChoice") == "light"
    page.screenshot(artifacts / "keyboard-display-panel.png")
