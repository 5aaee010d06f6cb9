"""Golden pages: every algorithm's reader text and every user action's output on every case of
tests/golden/, as recorded.

A case is ``tests/golden/<slug>/`` (``source.html``, ``meta.json``, one expected main text
per algorithm: ``expected.txt`` and ``expected-title.txt`` for ``auto``,
``expected.<algorithm>.txt`` for the others; and per action the host's answer to the
extension's request: ``expected.hide.json``, the hide plan, also what the overlay draws by
default, and ``expected.overlay.json``, the overlay's paper-mode link blocks). Every expected
file found is checked; there is no cap on the number of cases. Record or re-record with
``tools/new_golden_case.py`` (a deliberate, reviewed step).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"

_spec = importlib.util.spec_from_file_location("new_golden_case",
                                               ROOT / "tools" / "new_golden_case.py")
new_golden_case = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(new_golden_case)

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "source.html").exists())
CHECKS = [(slug, name) for slug in CASES
          for name in new_golden_case.recorded_checks(GOLDEN / slug)]
READER_CHECKS = [(slug, name) for slug, name in CHECKS
                 if name not in new_golden_case.ACTIONS]
ACTION_CHECKS = [(slug, name) for slug, name in CHECKS if name in new_golden_case.ACTIONS]


def first_difference(expected: str, actual: str) -> str:
    exp, act = expected.split("\n\n"), actual.split("\n\n")
    for index, (want, got) in enumerate(zip(exp, act)):
        if want != got:
            return (f"paragraph {index + 1} differs:\n  expected: {want[:300]!r}\n"
                    f"  actual:   {got[:300]!r}")
    if len(exp) != len(act):
        longer, name = (exp, "expected") if len(exp) > len(act) else (act, "actual")
        return (f"{name} has {abs(len(exp) - len(act))} more paragraph(s), first: "
                f"{longer[min(len(exp), len(act))][:300]!r}")
    return "texts differ in whitespace only"


def first_json_difference(expected: object, actual: object, where: str = "$") -> str:
    """Where two JSON values first differ, as a path and the two values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(expected.keys() | actual.keys()):
            if expected.get(key, "<missing>") != actual.get(key, "<missing>"):
                return first_json_difference(expected.get(key, "<missing>"),
                                             actual.get(key, "<missing>"), f"{where}.{key}")
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (want, got) in enumerate(zip(expected, actual)):
            if want != got:
                return first_json_difference(want, got, f"{where}[{index}]")
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items expected, {len(actual)} found"
    return f"{where}:\n  expected: {json.dumps(expected)[:300]}\n  actual:   {json.dumps(actual)[:300]}"


def test_every_case_has_expectations_for_every_algorithm_and_action():
    assert len(CASES) >= 6
    for slug in CASES:
        assert new_golden_case.recorded_checks(GOLDEN / slug) == new_golden_case.checks(), slug


@pytest.mark.parametrize("slug, action", ACTION_CHECKS)
def test_golden_action(slug: str, action: str):
    case = GOLDEN / slug
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    html = (case / "source.html").read_text(encoding="utf-8")
    expected = (case / new_golden_case.expected_file(action)).read_text("utf-8")
    actual = new_golden_case.action_output(action, html, meta.get("url"))
    assert actual == expected, f"{slug} / {action}: " + first_json_difference(
        json.loads(expected), json.loads(actual))


@pytest.mark.parametrize("slug, algorithm", READER_CHECKS)
def test_golden_reader_text(slug: str, algorithm: str):
    case = GOLDEN / slug
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    html = (case / "source.html").read_text(encoding="utf-8")
    expected = (case / new_golden_case.expected_file(algorithm)).read_text("utf-8")
    expected = expected.rstrip("\n")
    result = new_golden_case.reader_text(algorithm, html, meta.get("url"))
    text = result.main.text if result.main else ""
    assert text == expected, f"{slug} / {algorithm}: {first_difference(expected, text)}"
    if algorithm == "auto":
        title = (case / "expected-title.txt").read_text("utf-8").rstrip("\n")
        assert result.main is not None and result.main.title == title


def test_the_tool_records_a_new_case_that_the_runner_then_checks(tmp_path, monkeypatch):
    page = tmp_path / "page.html"
    # distinct sentences: six copies of one leave the segmenter unsure, and hide holds back
    sentences = [
        "The harbour lights were switched on again after forty years, to the cheers of a "
        "crowd on the quay.",
        "Volunteers restored the lamps over two winters, replacing the glass and rewiring "
        "every post by hand.",
        "The council paid for the cables; the fishermen's guild paid for the bulbs and the "
        "paint.",
        "Visitors can walk the quay from dusk until midnight, when the lights dim to save "
        "power.",
        "A small plaque by the steps names everyone who worked on the lamps, from the welders "
        "to the painters.",
        "The old keeper's logbook, found in the loft of the harbour office, is on show at the "
        "library."]
    page.write_text("<html><head><title>Quay lights</title></head><body><nav>"
                    + " ".join(f'<a href="/{i}">menu {i}</a>' for i in range(8))
                    + "</nav><article><h1>Quay lights</h1>"
                    + "".join(f"<p>{s}</p>" for s in sentences)
                    + "</article></body></html>", "utf-8")
    monkeypatch.setattr(new_golden_case, "GOLDEN", tmp_path / "golden")
    assert new_golden_case.main(["quay", "--html", str(page), "--note", "test"]) == 0
    case = tmp_path / "golden" / "quay"
    assert new_golden_case.recorded_checks(case) == new_golden_case.checks()
    meta = json.loads((case / "meta.json").read_text("utf-8"))
    assert set(meta["statuses"]) == set(new_golden_case.algorithms.names())
    text = (case / "expected.txt").read_text("utf-8")
    assert "harbour lights" in text
    # a changed expectation is caught by the runner's comparison
    result = new_golden_case.reader_text("auto", page.read_text("utf-8"), None)
    assert result.main.text == text.rstrip("\n")
    assert result.main.text != text.rstrip("\n").replace("harbour", "harbor")
    plan = json.loads((case / "expected.hide.json").read_text("utf-8"))
    assert [t["xpath"] for t in plan["targets"]] == ["/html/body/nav"]
    assert new_golden_case.action_output("hide", page.read_text("utf-8"), None) == \
        (case / "expected.hide.json").read_text("utf-8")


def test_a_changed_expected_file_fails_the_golden_check(tmp_path, monkeypatch):
    # copy a real case, alter one expected value per kind, and run the real test bodies on it
    slug = CASES[0]
    copy = tmp_path / "golden" / slug
    copy.parent.mkdir()
    shutil.copytree(GOLDEN / slug, copy)
    monkeypatch.setattr(sys.modules[__name__], "GOLDEN", copy.parent)
    test_golden_action(slug, "hide")
    test_golden_reader_text(slug, "linkdensity")
    plan = json.loads((copy / "expected.hide.json").read_text("utf-8"))
    plan["pageKind"] = "index" if plan["pageKind"] == "article" else "article"
    (copy / "expected.hide.json").write_text(json.dumps(plan, indent=1) + "\n", "utf-8")
    with pytest.raises(AssertionError, match="pageKind"):
        test_golden_action(slug, "hide")
    overlay = json.loads((copy / "expected.overlay.json").read_text("utf-8"))
    overlay["blocks"] = overlay["blocks"][1:] + [{"kind": "links", "start": 0, "end": 1}]
    (copy / "expected.overlay.json").write_text(json.dumps(overlay, indent=1) + "\n", "utf-8")
    with pytest.raises(AssertionError, match="overlay"):
        test_golden_action(slug, "overlay")
    text = copy / "expected.linkdensity.txt"
    text.write_text(text.read_text("utf-8").replace(" ", "  ", 1) + "x\n", "utf-8")
    with pytest.raises(AssertionError, match="linkdensity"):
        test_golden_reader_text(slug, "linkdensity")
