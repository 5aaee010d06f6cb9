"""Saving a reader-view article as Markdown, HTML or EPUB into the folder the user chose.

The extension cannot write files where a person keeps notes; the host can. The user picks a
folder once (options page -> ``export.folder``); ``export.save`` writes one new file there and
never anywhere else (:func:`blocksift.paths.path_within`), never over an existing file.
The article HTML is sanitized again here (the same allowlist as the reader), so a file holds
no script whatever the client sent.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .paths import config_dir, path_within, write_atomic

FORMATS = ("markdown", "html", "epub")
SUFFIX = {"markdown": ".md", "html": ".html", "epub": ".epub"}
_SETTINGS = "export.json"


class ExportError(ValueError):
    """A request the host cannot serve as asked (no folder chosen, bad folder)."""


@dataclass
class Article:
    """What the reader shows: title, byline, date, address and the sanitized article HTML."""

    title: str
    html: str
    url: str = ""
    authors: list[str] = field(default_factory=list)
    published: str = ""
    site_name: str = ""
    language: str = ""
    #: "rtl" or "ltr" (the metadata's ``direction``); "" when unknown
    direction: str = ""
    #: a product's price as the reader's details line shows it, amount and currency in the
    #: page's language ("$34.00", "34,00 €"); "" for none
    price: str = ""


def settings_file() -> Path:
    return config_dir() / _SETTINGS


def chosen_folder() -> Path | None:
    """The folder the user chose, or None before they chose one."""
    try:
        data = json.loads(settings_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    folder = data.get("folder") if isinstance(data, dict) else None
    return Path(folder) if isinstance(folder, str) and folder else None


def choose_folder(folder: str) -> Path:
    """Remember ``folder`` (absolute, an existing directory the host can write to)."""
    path = Path(folder).expanduser()
    if not path.is_absolute():
        raise ExportError(f"{folder!r} is not an absolute path; give the full path of a folder")
    if not path.is_dir():
        raise ExportError(f"{path} is not an existing folder")
    probe = path / ".blocksift-write-test"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ExportError(f"cannot write into {path}: {exc.strerror or exc}") from None
    resolved = path.resolve()
    target = settings_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    # whole or not at all: a half-written settings file would lose the folder chosen before
    write_atomic(target, json.dumps({"folder": str(resolved)}))
    return resolved


def file_name(article: Article, fmt: str) -> str:
    """``2024-03-14 harbour-lights-return.md``: date first so a notes folder sorts by day."""
    text = unicodedata.normalize("NFKC", article.title or "article").casefold()
    slug = re.sub(r"[^\w]+", "-", text).strip("-")[:80].strip("-") or "article"
    day = article.published[:10] if re.match(r"\d{4}-\d{2}-\d{2}", article.published) else ""
    return f"{day + ' ' if day else ''}{slug}{SUFFIX[fmt]}"


def save(article: Article, fmt: str, folder: Path | None = None) -> Path:
    """Write ``article`` as ``fmt`` into the chosen folder; returns the new file's path."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    folder = folder or chosen_folder()
    if folder is None:
        raise ExportError("no export folder chosen yet: choose one in blocksift's options")
    if not folder.is_dir():
        raise ExportError(f"the export folder {folder} no longer exists; choose it again")
    article.html = sanitize(article.html)
    data = render(article, fmt)
    name = file_name(article, fmt)
    stem, suffix = name[: -len(SUFFIX[fmt])], SUFFIX[fmt]
    for attempt in range(1, 1000):
        candidate = path_within(folder, name if attempt == 1 else f"{stem} ({attempt}){suffix}")
        try:
            with open(candidate, "xb") as handle:  # "x": never overwrite a note
                handle.write(data)
            return candidate
        except FileExistsError:
            continue
    raise ExportError(f"too many files named {name} in {folder}")


def render(article: Article, fmt: str) -> bytes:
    if fmt == "markdown":
        return markdown(article).encode("utf-8")
    if fmt == "html":
        return standalone_html(article).encode("utf-8")
    return epub(article)


def sanitize(fragment: str) -> str:
    import nh3

    from .content import SAFE_ATTRIBUTES, SAFE_TAGS, SAFE_URL_SCHEMES, safe_url_attribute

    return nh3.clean(fragment or "", tags=SAFE_TAGS, attributes=SAFE_ATTRIBUTES,
                     attribute_filter=safe_url_attribute, url_schemes=SAFE_URL_SCHEMES,
                     link_rel="noopener noreferrer", strip_comments=True)


def _direction(article: Article) -> str:
    """The article's direction: as sent, else its language's ("ar" is written right to
    left), "" when neither says."""
    from .content import language_direction

    return article.direction if article.direction in ("ltr", "rtl") \
        else language_direction(article.language)


def _yaml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def markdown(article: Article) -> str:
    """Markdown with YAML front matter (title, author, date, price, url, site) for notes
    apps."""
    to_markdown = _markdown_function()
    lines = ["---", f"title: {_yaml(article.title)}"]
    if article.authors:
        lines.append("author:")
        lines += [f"  - {_yaml(name)}" for name in article.authors]
    if article.published:
        lines.append(f"date: {article.published[:10]}")
    if article.price:
        lines.append(f"price: {_yaml(article.price)}")
    if article.url:
        lines.append(f"url: {_yaml(article.url)}")
    if article.site_name:
        lines.append(f"site: {_yaml(article.site_name)}")
    # as Pandoc reads them: its HTML and EPUB writers set the document's lang and dir
    if article.language:
        lines.append(f"lang: {_yaml(article.language)}")
    if _direction(article) == "rtl":
        lines.append("dir: rtl")
    lines.append("---")
    return "\n".join(lines) + "\n\n" + to_markdown(article.title, article.html, article.url) + "\n"


def _markdown_function():
    """The project's one HTML-to-Markdown function, wherever it lives."""
    from .render_markdown import to_markdown

    return to_markdown


def _byline(article: Article) -> str:
    parts = []
    if article.authors:
        parts.append("By " + ", ".join(article.authors))
    if article.published:
        parts.append(article.published[:10])
    if article.price:  # after the date, as in the reader's details line
        parts.append(article.price)
    if article.site_name:
        parts.append(article.site_name)
    return " · ".join(parts)


def standalone_html(article: Article) -> str:
    """One self-contained HTML file: the article, its byline and a link to the original."""
    esc = html_lib.escape
    lang = f' lang="{esc(article.language)}"' if article.language else ""
    direction = _direction(article)
    lang += f' dir="{direction}"' if direction else ""
    source = f'<p><a href="{esc(article.url)}">{esc(article.url)}</a></p>' if article.url \
        else ""
    return (f"<!doctype html>\n<html{lang}>\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{esc(article.title)}</title>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<style>body{max-width:40em;margin:2em auto;padding:0 1em;font:18px/1.6 Georgia,"
            "serif}img{max-width:100%;height:auto}pre{overflow-x:auto;background:#f3f3f6;"
            "padding:.8em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
            "padding:.3em .6em}</style>\n</head>\n<body>\n<article>\n"
            f"<h1>{esc(article.title)}</h1>\n<p><small>{esc(_byline(article))}</small></p>\n"
            f"{source}\n{article.html}\n</article>\n</body>\n</html>\n")


def epub(article: Article) -> bytes:
    """An EPUB 3 book of one chapter (ebooklib, the ``export`` extra)."""
    import io
    import uuid

    try:
        from ebooklib import epub as epublib
    except ImportError:
        raise ExportError("EPUB needs ebooklib: pip install 'blocksift[export]'") from None
    from lxml import etree
    from lxml import html as lxml_html

    book = epublib.EpubBook()
    book.set_identifier(article.url or f"urn:uuid:{uuid.uuid4()}")
    book.set_title(article.title or "Article")
    book.set_language(article.language or "en")
    direction = _direction(article)
    if direction:
        book.set_direction(direction)  # the spine's page-progression-direction
    for name in article.authors:
        book.add_author(name)
    # EPUB chapters are XHTML: reserialize the HTML fragment as XML
    root = lxml_html.fragment_fromstring(article.html or "<p></p>", create_parent="div")
    body = etree.tostring(root, method="xml", encoding="unicode")
    chapter = epublib.EpubHtml(title=article.title or "Article", file_name="article.xhtml",
                               lang=article.language or "en", direction=direction or None)
    chapter.content = (f"<h1>{html_lib.escape(article.title)}</h1>"
                       f"<p><small>{html_lib.escape(_byline(article))}</small></p>{body}")
    book.add_item(chapter)
    book.toc = [chapter]
    book.spine = ["nav", chapter]
    book.add_item(epublib.EpubNcx())
    book.add_item(epublib.EpubNav())
    out = io.BytesIO()
    epublib.write_epub(out, book)
    return out.getvalue()
