"""Markdown (and the one-headline HTML document) of an extraction's sanitized main HTML.

Input is :attr:`MainText.html`, already reduced by ``content.sanitized_html`` to a small
allowlist of tags, so this renderer handles exactly that set:

* headings that head nothing are left out, as the reader leaves them out
  (:func:`drop_empty_headings`);
* one headline: the title becomes ``# title`` unless the body already has an ``<h1>`` that
  says the same; other ``<h1>`` are demoted, so a note gets a single top heading;
* data tables become Markdown (GFM) tables, their caption a ``Table: ...`` line before them
  (pandoc's caption syntax); layout tables (nested tables, one row or column, paragraphs
  or long prose in cells) are flattened to paragraphs in reading order;
* ``<pre>`` becomes a fenced block carrying the language the page names
  (``class="language-xyz"``, ``lang-xyz``, ``highlight-source-xyz``, ``brush: xyz``);
* images keep their alt text and title; links, emphasis, code spans, lists (nested),
  blockquotes, definition lists and rules map to their Markdown forms.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
#: Tags rendered as blocks (everything else in the allowlist is inline).
BLOCK_TAGS = frozenset({
    "article", "section", "div", "p", "blockquote", "pre", "ul", "ol", "li", "dl", "dt", "dd",
    "figure", "figcaption", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption",
    "hr", "details", "summary", "picture", "aside", *HEADINGS,
})
#: Block content that makes a table cell a layout cell rather than a data cell.
_LAYOUT_CELL_CONTENT = ("p", "div", "ul", "ol", "dl", "blockquote", "pre", "figure", "section",
                        "article", "table", *HEADINGS)
#: A data cell holds a value or a short phrase; a cell longer than this is prose.
LAYOUT_CELL_CHARS = 200

_LANGUAGE_PATTERNS = (
    re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)"),
    re.compile(r"(?:^|\s)highlight-(?:source-)?([\w+#-]+)"),
    re.compile(r"(?:^|\s)brush:\s*([\w+#-]+)"),
    re.compile(r"(?:^|\s)hljs\s+([\w+#-]+)"),
)
_WS = re.compile(r"\s+")
HARD_BREAK = "\\\n"  # backslash-newline: CommonMark's hard line break, no trailing spaces
_PARAGRAPH_BREAK = re.compile(r"(?:[ \t]*\\\n[ \t]*){2,}")
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]])")
_LINE_START_SPECIAL = re.compile(r"^(#{1,6}\s|>|[-+]\s)")
_LINE_START_NUMBER = re.compile(r"^(\d+)([.)]\s)")
_LIST_BLOCK = re.compile(r"^(?:- |\d+\. )")


_WORD = re.compile(r"[^\W_]+")


def _tag(node: etree._Element) -> str | None:
    return node.tag if isinstance(node.tag, str) else None


def parse_fragment(html: str) -> etree._Element:
    """The sanitized HTML as children of one ``<div>``."""
    return lxml_html.fragment_fromstring(html or "", create_parent="div")


def same_headline(title: str, heading_text: str) -> bool:
    """True when a heading says the title: the same words, or the words of one run on
    inside the other's (``"Story | Site"`` vs ``"Story"``); words, not letters: the title
    "T" is not in the heading "Two"."""
    title_n, heading_n = _words(title), _words(heading_text)
    if not title_n or not heading_n:
        return False
    return heading_n in title_n or title_n in heading_n


def _words(text: str) -> str:
    """The text's words, lowercased, each between spaces (so ``in`` finds whole words)."""
    words = _WORD.findall(text.casefold())
    return f" {' '.join(words)} " if words else ""


def _opening_heading(root: etree._Element) -> etree._Element | None:
    """The heading the text opens with (pictures may come first, words may not)."""
    for kind, node, text in _walk(root):
        if kind == "element" and node.tag in HEADINGS:
            return node
        if kind == "text" and text.strip():
            return None
    return None


def _is_headline(title: str, heading: etree._Element, opening: etree._Element | None) -> bool:
    """Whether ``heading`` is the page's headline saying ``title``: an ``<h1>`` or the
    heading the text opens with, as the reader takes them (extension/src/reader.js
    dropRepeatedTitle). A section heading further down that holds the title's words
    ("AI Consulting Services Tailored to Your Business" under the title "AI Consulting
    Services") heads a section of its own: taken for the headline, it stood as ``#`` in the
    middle of the text and the title was missing from the top."""
    return (heading.tag == "h1" or heading is opening) and \
        same_headline(title, heading.text_content())


#: What sets a site's name apart in a title ("Story | Site"; not a dash or a colon, which
#: as often set a subtitle apart: "What is Social Commerce - A guided introduction")
_TITLE_PARTS = re.compile(r"\s[|\u00b7\u00bb]\s")


def _repeats_title(title: str, heading: etree._Element, opening: etree._Element | None
                   ) -> bool:
    """The headline, or any heading saying the title, or its longest part (the story
    without the site's name), and nothing more. Not a heading that is only a piece of
    it: "Review" under "Phone X Review" is a section's heading."""
    said = _words(heading.text_content())
    if not said:
        return False
    longest = max(_TITLE_PARTS.split(title), key=len)
    return _is_headline(title, heading, opening) or said in (_words(title), _words(longest))


def _headline_plan(title: str, root: etree._Element
                   ) -> tuple[bool, etree._Element | None, etree._Element | None]:
    """(prefix the title?, the body heading kept as the headline, the opening heading)."""
    h1s = [h for h in root.iter("h1")]
    opening = _opening_heading(root)
    matching = [h for h in root.iter(*HEADINGS) if _is_headline(title, h, opening)]
    if matching:
        return False, matching[0], opening
    if not title.strip() and h1s:
        return False, h1s[0], opening
    return bool(title.strip()), None, opening


def _page_key(url: str) -> tuple[str, str, str] | None:
    """An address as a page: host without ``www.``, path without its trailing slash, query;
    scheme and fragment left out (``http://x/a/`` and ``https://www.x/a#top`` are one page)."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:  # an address urlsplit refuses ("http://[bad") is no page
        return None
    return (host, parts.path.rstrip("/"), parts.query) if host else None


def unlink_self(heading: etree._Element, url: str | None) -> bool:
    """Unwrap the heading's links to the page itself (a blog's permalink headline): in a
    note, ``# [Title](the page's own address)`` is the address said twice."""
    page = _page_key(url) if url else None
    if page is None:
        return False
    changed = False
    for link in list(heading.iter("a")):
        href = (link.get("href") or "").strip()
        if href and _page_key(urljoin(url, href)) == page:
            link.drop_tag()
            changed = True
    return changed


#: What a heading may head besides text: pictures, tables, code, formulas, embeds (the
#: reader's ``CONTENT_ELEMENTS``, extension/src/reader.js).
_HEADED_CONTENT = frozenset({"img", "picture", "video", "audio", "table", "pre", "math", "svg",
                             "figure", "iframe", "canvas", "hr"})


def _walk(node: etree._Element):
    """``node``'s elements and text in document order: ("element", element) and ("text",
    the element the text is in, text); comments are left out, their tails are not."""
    if node.text and isinstance(node.tag, str):
        yield "text", node, node.text
    for child in node:
        if isinstance(child.tag, str):
            yield "element", child, ""
            yield from _walk(child)
        if child.tail:
            yield "text", node, child.tail


def _within(node: etree._Element, box: etree._Element) -> bool:
    return node is box or any(above is box for above in node.iterancestors())


def _signs_text(heading: etree._Element, following: etree._Element) -> bool:
    """Whether ``heading``, followed by the heading ``following``, signs the text before it
    (a testimonial's quote, then its author's name and role as two headings): in the nearest
    box holding other text there is text before it, after it only headings."""
    for box in heading.iterancestors():
        before = after = passed = False
        for kind, node, text in _walk(box):
            if kind == "element":
                passed = passed or node is heading
                continue
            if not text.strip() or _within(node, heading):
                continue
            if not passed:
                before = True
            elif not any(n.tag in HEADINGS for n in (node, *node.iterancestors())):
                after = True
        holds = _within(following, box)
        if before or after or holds:
            return before and not after and holds
    return False


def drop_empty_headings(root: etree._Element) -> bool:
    """Remove the headings that head nothing, as the reader does (``dropEmptyHeadings``,
    extension/src/reader.js): followed by a heading of their rank or above, or by the end of
    the text (a carousel's "Similar Items", whose items the algorithm left out); not one that
    signs the text before it. True when one was removed."""
    empty: list[etree._Element] = []
    heading: etree._Element | None = None  # the last heading seen with nothing under it yet
    for kind, node, text in list(_walk(root)):
        if heading is not None and _within(node, heading):
            continue
        if kind == "text":
            if text.strip():
                heading = None
            continue
        if node.tag in HEADINGS:
            if heading is not None and node.tag[1] <= heading.tag[1] \
                    and not _signs_text(heading, node):
                empty.append(heading)
            heading = node
        elif node.tag in _HEADED_CONTENT:
            heading = None
    if heading is not None:
        empty.append(heading)
    for node in empty:
        node.drop_tree()  # its tail stays
    return bool(empty)


def _inner_html(root: etree._Element) -> str:
    return escape(root.text or "", quote=False) + "".join(
        lxml_html.tostring(child, encoding="unicode") for child in root)


def html_document(title: str, html: str, url: str | None = None) -> str:
    """``--format html``: the main HTML under exactly one headline (``<h1>``; the page's
    other ``<h1>`` become ``<h2>``, as in Markdown), without the headings that head nothing
    (:func:`drop_empty_headings`); the headline's links to ``url`` itself unwrapped."""
    root = parse_fragment(html)
    changed = drop_empty_headings(root)
    prefix, kept, _ = _headline_plan(title or "", root)
    if kept is not None:
        changed = unlink_self(kept, url) or changed
    for heading in list(root.iter(*HEADINGS)):
        wanted = "h1" if heading is kept else "h2" if heading.tag == "h1" else heading.tag
        if heading.tag != wanted:
            heading.tag = wanted
            changed = True
    if changed:
        html = _inner_html(root)
    return f"<h1>{escape(title)}</h1>\n{html}" if prefix else html


def to_markdown(title: str, html: str, url: str | None = None) -> str:
    """Markdown of a main text (see the module docstring); the headline's links to ``url``
    itself are unwrapped (:func:`unlink_self`)."""
    root = parse_fragment(html)
    drop_empty_headings(root)
    prefix, kept, opening = _headline_plan(title or "", root)
    if kept is not None:
        unlink_self(kept, url)
    for heading in list(root.iter(*HEADINGS)):
        if heading is kept:
            heading.tag = "h1"
        elif _repeats_title(title or "", heading, opening):
            heading.drop_tree()  # the headline said again (a title repeated in the body)
        elif heading.tag == "h1":
            heading.tag = "h2"
    try:
        blocks = _blocks(root, depth=0)
    except RecursionError:
        # pathologically deep markup: plain paragraphs beat no output
        blocks = [_escape_text(p) for p in _plain_paragraphs(root)]
    if prefix:
        blocks.insert(0, f"# {_escape_text(_WS.sub(' ', title).strip())}")
    return "\n\n".join(block for block in blocks if block.strip()).strip()


def _plain_paragraphs(root: etree._Element) -> list[str]:
    from .content import paragraphs

    return paragraphs([root])


# --- blocks ---------------------------------------------------------------------------------


def _blocks(node: etree._Element, depth: int) -> list[str]:
    """Markdown blocks of ``node``'s content (its text, children and their tails)."""
    out: list[str] = []
    inline: list[str] = [_text(node.text)]

    def flush() -> None:
        # two or more <br> in a row are how old pages separate paragraphs
        for piece in _PARAGRAPH_BREAK.split("".join(inline)):
            paragraph = _clean_inline(piece)
            if paragraph:
                out.append(_escape_line_start(paragraph))
        inline.clear()

    for child in node:
        tag = _tag(child)
        if tag is None:
            inline.append(_text(child.tail))
            continue
        if tag in BLOCK_TAGS:
            flush()
            out.extend(_block(child, tag, depth + 1))
        else:
            inline.append(_inline(child, depth + 1))
        inline.append(_text(child.tail))
    flush()
    return out


def _block(node: etree._Element, tag: str, depth: int) -> list[str]:
    if tag in HEADINGS:
        text = _clean_inline(_inline_content(node, depth))
        return [f"{'#' * int(tag[1])} {text}"] if text else []
    if tag == "hr":
        return ["---"]
    if tag == "pre":
        return [_fence(node)]
    if tag in ("ul", "ol"):
        return [_list(node, tag, depth)]
    if tag in ("blockquote", "aside"):  # a note (content.py's aside) quoted, as GitHub's are
        inner = "\n\n".join(_blocks(node, depth))
        return ["\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))] \
            if inner else []
    if tag == "table":
        return _table(node, depth)
    if tag == "dt":
        text = _clean_inline(_inline_content(node, depth))
        return [f"**{text}**"] if text else []
    return _blocks(node, depth)


def _list(node: etree._Element, tag: str, depth: int) -> str:
    start = node.get("start", "1")
    number = int(start) if start.isdigit() else 1
    items: list[str] = []
    for child in node:
        if _tag(child) != "li":
            continue
        marker = f"{number}. " if tag == "ol" else "- "
        number += 1
        body = ""
        for block in _blocks(child, depth):
            # a nested list follows its item's text directly, keeping the list tight
            joiner = "\n" if _LIST_BLOCK.match(block) else "\n\n"
            body = f"{body}{joiner}{block}" if body else block
        lines = body.split("\n")
        indent = " " * len(marker)
        rendered = marker + lines[0] + "".join(
            f"\n{indent}{line}" if line else "\n" for line in lines[1:])
        items.append(rendered)
    return "\n".join(items)


def code_language(node: etree._Element) -> str:
    """The language a ``<pre>`` (or its ``<code>``) names in its class, else ''."""
    candidates = [node, *node.iter("code")]
    for element in candidates:
        classes = element.get("class") or ""
        for pattern in _LANGUAGE_PATTERNS:
            match = pattern.search(classes)
            if match:
                return match.group(1).lower()
    return ""


def _fence(node: etree._Element) -> str:
    code = node.text_content().strip("\n")
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{code_language(node)}\n{code}\n{fence}"


# --- tables ---------------------------------------------------------------------------------


def _rows(table: etree._Element) -> list[etree._Element]:
    """The table's own rows (not those of nested tables), head first, foot last."""
    head, body, foot = [], [], []
    for child in table:
        tag = _tag(child)
        if tag == "tr":
            body.append(child)
        elif tag in ("thead", "tbody", "tfoot"):
            rows = [row for row in child if _tag(row) == "tr"]
            {"thead": head, "tbody": body, "tfoot": foot}[tag].extend(rows)
    return head + body + foot


def _cells(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if _tag(cell) in ("td", "th")]


def is_data_table(table: etree._Element) -> bool:
    """A table of data (rows and columns of values), not one that lays out a page."""
    if any(True for _ in table.iterdescendants("table")):
        return False  # nested tables are page layout
    rows = _rows(table)
    if not rows:
        return False
    width = max(len(_cells(row)) for row in rows)
    if width < 2 and not (len(rows) >= 2 and _has_header(table, rows)):
        return False
    if len(rows) < 2 and not _has_header(table, rows):
        return False
    for row in rows:
        for cell in _cells(row):
            if any(True for _ in cell.iterdescendants(*_LAYOUT_CELL_CONTENT)):
                return False
            if len(_WS.sub(" ", cell.text_content()).strip()) > LAYOUT_CELL_CHARS:
                return False
    return True


def _has_header(table: etree._Element, rows: list[etree._Element]) -> bool:
    return (any(_tag(child) in ("thead", "caption") for child in table)
            or any(_tag(cell) == "th" for cell in _cells(rows[0])))


def _table(table: etree._Element, depth: int) -> list[str]:
    if not is_data_table(table):
        return _blocks(table, depth)  # layout: the cells' content as paragraphs
    rows = _rows(table)
    if not _WS.sub("", table.text_content()) and next(table.iter("img"), None) is None:
        return []  # a table with no content left would print as bare pipes
    grid: list[list[str]] = []
    for row in rows:
        cells: list[str] = []
        for cell in _cells(row):
            # a table row is one line: a break inside a cell is written as <br>, which
            # GitHub-flavoured Markdown renders in cells
            text = (_clean_inline(_inline_content(cell, depth)).replace("|", "\\|")
                    .replace(HARD_BREAK, "<br>").replace("\n", " "))
            cells.append(text)
            span = cell.get("colspan", "1")
            cells.extend([""] * (min(int(span), 50) - 1 if span.isdigit() and int(span) > 1
                                 else 0))
        grid.append(cells)
    width = max(len(cells) for cells in grid)
    grid = [cells + [""] * (width - len(cells)) for cells in grid]
    lines = [_row_line(grid[0]), _row_line(["---"] * width)]
    lines.extend(_row_line(cells) for cells in grid[1:])
    out = []
    caption = next((child for child in table if _tag(child) == "caption"), None)
    if caption is not None:
        text = _clean_inline(_inline_content(caption, depth))
        if text:
            out.append(f"Table: {text}")
    out.append("\n".join(lines))
    return out


def _row_line(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


# --- inline ---------------------------------------------------------------------------------


def _text(text: str | None) -> str:
    return _escape_text(_WS.sub(" ", text)) if text else ""


def _escape_text(text: str) -> str:
    return _INLINE_SPECIAL.sub(r"\\\1", text)


def _escape_line_start(paragraph: str) -> str:
    """A paragraph that would read as a heading, quote or list item is escaped."""
    paragraph = _LINE_START_SPECIAL.sub(lambda m: "\\" + m.group(1), paragraph)
    return _LINE_START_NUMBER.sub(lambda m: m.group(1) + "\\" + m.group(2), paragraph)


def _clean_inline(text: str) -> str:
    """Collapse the spaces of rendered inline text; hard breaks only between lines."""
    lines = [" ".join(line.split()) for line in text.split(HARD_BREAK)]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return HARD_BREAK.join(lines)


def _inline_content(node: etree._Element, depth: int) -> str:
    pieces = [_text(node.text)]
    for child in node:
        if _tag(child) is not None:
            rendered = _inline(child, depth + 1)
            if _tag(child) in BLOCK_TAGS:
                rendered = f" {rendered} "  # a block inside a cell or heading: a space apart
            pieces.append(rendered)
        pieces.append(_text(child.tail))
    return "".join(pieces)


def _wrap(marker: str, inner: str) -> str:
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return f"{lead}{marker}{core}{marker}{trail}"


def _inline(node: etree._Element, depth: int) -> str:
    tag = _tag(node)
    if tag == "br":
        return HARD_BREAK
    if tag == "img":
        alt = _escape_text(_WS.sub(" ", node.get("alt") or "").strip())
        src = (node.get("src") or "").replace(" ", "%20").replace(")", "%29")
        if not src:
            return alt
        title = node.get("title")
        title_part = f' "{title.replace(chr(34), chr(92) + chr(34))}"' if title else ""
        return f"![{alt}]({src}{title_part})"
    if tag in ("code", "kbd", "samp") and node.getparent() is not None:
        code = _WS.sub(" ", node.text_content())
        if not code.strip():
            return code
        longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
        ticks = "`" * (longest + 1)
        pad = " " if code.startswith("`") or code.endswith("`") else ""
        return f"{ticks}{pad}{code}{pad}{ticks}"
    inner = _inline_content(node, depth)
    if tag in ("strong", "b"):
        return _wrap("**", inner)
    if tag in ("em", "i", "cite", "dfn"):
        return _wrap("*", inner)
    if tag in ("del", "s"):
        return _wrap("~~", inner)
    if tag == "q":
        return f"“{inner.strip()}”"
    if tag == "a":
        href = (node.get("href") or "").replace(" ", "%20").replace(")", "%29")
        text = inner.strip()
        if not href:
            return inner
        if not text:
            return ""
        if text == _escape_text(href):
            return f"<{href}>"
        return f"[{text}]({href})"
    return inner
