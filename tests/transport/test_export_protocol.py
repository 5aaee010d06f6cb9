"""Saving the reader's article into the user's folder over the protocol, with the real host."""

from __future__ import annotations

import zipfile

import pytest

ARTICLE = ("<p>First paragraph.</p><script>alert(1)</script>"
           "<pre><code class='language-py'>print(1)</code></pre>")


def save(host, fmt: str, rid: str, **extra):
    host.send({"type": "export.save", "id": rid, "format": fmt, "title": "Harbour: lights",
               "html": ARTICLE, "url": "https://news.example/a", "authors": ["Erin Cunningham"],
               "published": "2024-03-14", "siteName": "The Herald", "language": "en", **extra})
    return host.recv()


def test_export_needs_a_chosen_folder_then_writes_only_there(host, tmp_path):
    refused = save(host, "markdown", "s0")
    assert refused["type"] == "error" and "options" in refused["message"]

    host.send({"type": "export.folder", "id": "f0", "folder": "relative/path"})
    assert host.recv()["code"] == 1007
    host.send({"type": "export.folder", "id": "f1", "folder": str(tmp_path / "missing")})
    assert "not an existing folder" in host.recv()["message"]

    vault = tmp_path / "vault"
    vault.mkdir()
    host.send({"type": "export.folder", "id": "f2", "folder": str(vault)})
    assert host.recv() == {"type": "export.folder", "id": "f2", "folder": str(vault.resolve())}
    host.send({"type": "export.folder", "id": "f3"})
    assert host.recv()["folder"] == str(vault.resolve())

    saved = save(host, "markdown", "s1")
    assert saved["type"] == "export.saved", saved
    path = vault / "2024-03-14 harbour-lights.md"
    assert saved["path"] == str(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('---\ntitle: "Harbour: lights"\nauthor:\n  - "Erin Cunningham"\n'
                           'date: 2024-03-14\nurl: "https://news.example/a"\n')
    assert "First paragraph." in text and "print(1)" in text and "alert" not in text

    again = save(host, "markdown", "s2")  # never overwrites a note
    assert again["path"] == str(vault / "2024-03-14 harbour-lights (2).md")
    assert path.read_text(encoding="utf-8") == text

    page = save(host, "html", "s3")
    written = (vault / "2024-03-14 harbour-lights.html").read_text(encoding="utf-8")
    assert page["bytes"] == len(written.encode()) and "<script" not in written
    assert "By Erin Cunningham · 2024-03-14 · The Herald" in written


def test_epub_is_a_valid_book(host, tmp_path):
    pytest.importorskip("ebooklib", reason="EPUB export needs the export extra (ebooklib)")
    host.send({"type": "export.folder", "id": "f", "folder": str(tmp_path)})
    host.recv()
    saved = save(host, "epub", "e1")
    assert saved["type"] == "export.saved", saved
    with zipfile.ZipFile(saved["path"]) as book:
        assert book.read("mimetype") == b"application/epub+zip"
        chapter = next(name for name in book.namelist() if name.endswith("article.xhtml"))
        body = book.read(chapter).decode()
    assert "First paragraph." in body and "Erin Cunningham" in body and "alert" not in body


def test_path_within_refuses_escapes(tmp_path):
    from blocksift.paths import PathOutsideFolder, path_within

    assert path_within(tmp_path, "a.md") == (tmp_path / "a.md").resolve()
    for name in ("../a.md", "/etc/passwd", "sub/../../a.md", "."):
        with pytest.raises(PathOutsideFolder):
            path_within(tmp_path, name)
    (tmp_path / "link").symlink_to("/tmp")
    with pytest.raises(PathOutsideFolder):
        path_within(tmp_path, "link/x.md")


def test_render_returns_the_markdown_without_writing(host, tmp_path):
    host.send({"type": "export.render", "id": "r1", "format": "markdown", "title": "T",
               "html": ARTICLE, "authors": ["A B"]})
    reply = host.recv()
    assert reply["type"] == "export.rendered" and reply["format"] == "markdown"
    assert reply["text"].startswith('---\ntitle: "T"\nauthor:\n  - "A B"\n---\n')
    assert "First paragraph." in reply["text"] and "alert" not in reply["text"]
    host.send({"type": "export.render", "id": "r2", "format": "epub", "title": "T", "html": ""})
    assert host.recv()["code"] == 1007


def test_render_of_a_right_to_left_article_says_its_direction(host):
    host.send({"type": "export.render", "id": "d1", "format": "html", "title": "מדידת גובה המים",
               "html": "<p>בנמל חיפה עולה הים.</p><pre dir='ltr'>x = 1</pre>", "language": "he",
               "direction": "rtl"})
    reply = host.recv()
    assert reply["type"] == "export.rendered", reply
    assert '<html lang="he" dir="rtl">' in reply["text"] and '<pre dir="ltr">' in reply["text"]
    host.send({"type": "export.render", "id": "d2", "format": "html", "title": "T", "html": "",
               "direction": "sideways"})
    assert host.recv()["code"] == 1007


def test_render_of_a_product_carries_its_price(host):
    host.send({"type": "export.render", "id": "p1", "format": "markdown", "title": "Trail Mug",
               "html": "<p>Thrown by hand.</p>", "price": "$34.00"})
    reply = host.recv()
    assert reply["type"] == "export.rendered", reply
    assert reply["text"].startswith('---\ntitle: "Trail Mug"\nprice: "$34.00"\n---\n'), reply
    host.send({"type": "export.render", "id": "p2", "format": "html", "title": "Trail Mug",
               "html": "<p>Thrown by hand.</p>", "price": "$34.00"})
    assert "<small>$34.00</small>" in host.recv()["text"]
