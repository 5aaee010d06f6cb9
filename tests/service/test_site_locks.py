"""Saving or deleting an example through the real host leaves no lock file beside its site's
adaptation file: the host over native messaging, its real examples database and site files."""

from __future__ import annotations

from pathlib import Path

from test_examples_replace import PAGE, URL, Host


def _sites(home: Path) -> Path:
    return home / "data" / "models" / "auto-sites"


def test_a_saved_and_a_deleted_example_leave_no_lock_file(tmp_path: Path):
    home = tmp_path / "home"
    host = Host(home)
    try:
        saved = host.ask({"type": "examples.save", "id": "s1", "url": URL, "html": PAGE,
                          "mainIds": ["6", "7"], "algorithm": "auto"})
        assert saved["type"] == "examples.saved"
        # the reply came after the site's file was written: it is there, its lock is not
        assert sorted(p.name for p in _sites(home).iterdir()) == ["tides.example.json"]
        other = host.ask({"type": "examples.save", "id": "s2", "html": PAGE,
                          "url": "https://coast.example/tides", "mainIds": ["6"],
                          "algorithm": "auto"})
        assert sorted(p.name for p in _sites(home).iterdir()) == [
            "coast.example.json", "tides.example.json"]
        gone = host.ask({"type": "examples.delete", "id": "d1",
                         "exampleId": saved["exampleId"]})
        assert gone["found"] is True
        # its last page out: the site's file goes, and no lock file of it stays
        assert sorted(p.name for p in _sites(home).iterdir()) == ["coast.example.json"]
        assert other["type"] == "examples.saved"
    finally:
        host.stop()

