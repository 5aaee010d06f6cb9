"""Golden pages: every algorithm's reader text on every case of tests/golden/, as recorded.

A case is ``tests/golden/<slug>/`` (``source.html``, ``meta.json``, one expected main text
per algorithm: ``expected.txt`` and ``expected-title.txt`` for ``auto``,
``expected.<algorithm>.txt`` for the others). Every expected file found is checked; there
is no cap on the number of cases. Record or re-record with ``tools/new_golden_case.py``
(a deliberate, reviewed step).
"""

from __future__ import annotations

import importlib.util
import json
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
          for name in new_golden_case.recorded_algorithms(GOLDEN / slug)]


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


def test_every_case_has_expectations_for_every_algorithm():
    assert len(CASES) >= 6
    for slug in CASES:
        assert new_golden_case.recorded_algorithms(GOLDEN / slug) == \
            new_golden_case.algorithms.names(), slug


@pytest.mark.parametrize("slug, algorithm", CHECKS)
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
    page.write_text("<html><head><title>Quay lights</title></head><body><nav>"
                    + " ".join(f'<a href="/{i}">menu {i}</a>' for i in range(8))
                    + "</nav><article><h1>Quay lights</h1>"
                    + "<p>The harbour lights were switched on again after forty years.</p>" * 6
                    + "</article></body></html>", "utf-8")
    monkeypatch.setattr(new_golden_case, "GOLDEN", tmp_path / "golden")
    assert new_golden_case.main(["quay", "--html", str(page), "--note", "test"]) == 0
    case = tmp_path / "golden" / "quay"
    assert new_golden_case.recorded_algorithms(case) == new_golden_case.algorithms.names()
    meta = json.loads((case / "meta.json").read_text("utf-8"))
    assert set(meta["statuses"]) == set(new_golden_case.algorithms.names())
    text = (case / "expected.txt").read_text("utf-8")
    assert "harbour lights" in text
    # a changed expectation is caught by the runner's comparison
    result = new_golden_case.reader_text("auto", page.read_text("utf-8"), None)
    assert result.main.text == text.rstrip("\n")
    assert result.main.text != text.rstrip("\n").replace("harbour", "harbor")
