"""FAR-SW §3.1 preprocessing and §3.2 lines: one feature vector per HTML line."""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice

import numpy as np

from ... import htmltokenizer as tokenizer
from ...content import BLOCK_TAGS
from ...htmltokenizer import RAW_TEXT_ELEMENTS
from ...page import Page
from ...speedups import compiled
from .params import Params

#: The lines' loop compiled (``_lines.pyx``), None where it was not built: the same rows.
_compiled_lines = compiled("blocksift.algorithms.farsw._lines", ("line_rows",))

# --------------------------------------------------------------------------------------------
# §3.1 preprocessing and §3.2 lines and features
# --------------------------------------------------------------------------------------------

# Text between start tags: comments, doctypes and bogus comments (dropped) and end tags
# (kept as tags, group 1 their name), read by the one raw-HTML grammar.
# End tags first, and one without attributes skips the attribute loops (the alternatives
# start with different characters: the order changes no match).
_GAP_RE = re.compile("<(?:/(" + tokenizer.TAG_NAME + ")(?:>|" + tokenizer.ATTRS + ">?)|"
                     + tokenizer.COMMENT + "|" + tokenizer.BOGUS_COMMENT + ")")
_WS_RE = re.compile(r"\s+")
_RAW_TEXT_NAMES = frozenset(RAW_TEXT_ELEMENTS)
_STRUCTURAL_END = frozenset({"body", "html", "head"})

TEXT, START, END = 0, 1, 2


@dataclass
class Line:
    """One preprocessed line of the body source (§3.2) with its raw span."""

    start: int
    end: int
    text_length: int
    output_length: int
    links: int
    images: int
    text: str


@dataclass
class PageLines:
    """The lines of one page and their feature matrix (rows = lines, columns = A-F)."""

    lines: list[Line] = field(default_factory=list)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))


def _body_range(page: Page) -> tuple[int, int, int]:
    """Span of the text between the ``<body>`` tags (§3.1 step 1) and the first ordinal."""
    tags = page.tags
    names = tags.names
    for ordinal, name in enumerate(names):
        if name == "body":
            return tags.tag_ends[ordinal], tags.close_ends[ordinal], ordinal + 1
    start = 0
    for ordinal, name in enumerate(names):
        if name == "head":
            start = tags.close_ends[ordinal]
            break
    return start, len(page.raw), bisect.bisect_left(tags.starts, start)


def _tokens(page: Page, params: Params) -> Iterator[tuple[int, int, int, str]]:
    """Body tokens (kind, start, end, tag name) without useless elements and comments, in
    order (a generator: a minified page is one line, read without a list of its tokens)."""
    raw = page.raw
    tags = page.tags
    begin, stop, ordinal = _body_range(page)
    useless = frozenset(t.lower() for t in params.useless_tags)
    find = raw.find
    gap_tokens = _GAP_RE.finditer
    cursor = begin

    def gap(pos: int, upto: int) -> Iterator[tuple[int, int, int, str]]:
        """The text, end tags and dropped comments between ``pos`` and ``upto``."""
        for match in gap_tokens(raw, pos, upto):
            match_start, match_end = match.span()
            if match_start > pos:
                yield TEXT, pos, match_start, ""
            end_name = match.group(1)
            if end_name is not None:
                name = end_name.lower()
                if name not in useless and name not in _STRUCTURAL_END:
                    yield END, match_start, match_end, name
            pos = match_end
        if upto > pos:
            yield TEXT, pos, upto, ""

    # the start tags from the body's first on, read in step (no indexing per tag)
    for tag_start, name, tag_end, close_end in zip(
            islice(tags.starts, ordinal, None), islice(tags.names, ordinal, None),
            islice(tags.tag_ends, ordinal, None), islice(tags.close_ends, ordinal, None)):
        if tag_start >= stop:
            break
        if tag_start < cursor:  # nested inside a removed element
            continue
        if tag_start > cursor:  # adjacent tags have nothing between them
            if find("<", cursor, tag_start) < 0:  # text alone (every _GAP_RE match has "<")
                yield TEXT, cursor, tag_start, ""
            else:
                yield from gap(cursor, tag_start)
        if name in useless:
            cursor = max(close_end, tag_end)
        else:
            # raw-text elements (textarea, title, xmp, ...) kept whole as one tag token
            if close_end > tag_end and name in _RAW_TEXT_NAMES:
                tag_end = close_end
            yield START, tag_start, tag_end, name
            cursor = tag_end
    if stop > cursor:
        if find("<", cursor, stop) < 0:
            yield TEXT, cursor, stop, ""
        else:
            yield from gap(cursor, stop)


def _split_source(raw: str, tokens: Iterable[tuple[int, int, int, str]]
                  ) -> list[list[tuple[int, int, int, str]]]:
    """Newline lines (§3.2); a text token is cut at newlines, a tag never is."""
    lines: list[list[tuple[int, int, int, str]]] = []
    current: list[tuple[int, int, int, str]] = []
    for token in tokens:
        kind, start, end, _ = token
        if kind != TEXT:
            current.append(token)
            continue
        pos = start
        newline = raw.find("\n", pos, end)
        while newline != -1:
            if newline > pos:
                current.append((TEXT, pos, newline, ""))
            lines.append(current)
            current = []
            pos = newline + 1
            newline = raw.find("\n", pos, end)
        if end > pos:
            current.append((TEXT, pos, end, ""))
    lines.append(current)
    return lines


def _split_blocks(line: list[tuple[int, int, int, str]]) -> list[list[tuple[int, int, int, str]]]:
    """Re-split a line before block-level start tags and after block-level end tags."""
    pieces: list[list[tuple[int, int, int, str]]] = []
    current: list[tuple[int, int, int, str]] = []
    for token in line:
        kind, _, _, name = token
        if kind == START and name in BLOCK_TAGS and current:
            pieces.append(current)
            current = []
        current.append(token)
        if kind == END and name in BLOCK_TAGS:
            pieces.append(current)
            current = []
    if current:
        pieces.append(current)
    return pieces


#: An ``<a`` tag's attribute text starting with ``href=`` has an href (the common case).
_HREF_FIRST_RE = re.compile(r"\s+href\s*=", re.I)


def _has_href(attrs: str) -> bool:
    """Whether a tag's attribute text has an ``href`` attribute (the tokenizer's reading)."""
    return _HREF_FIRST_RE.match(attrs) is not None or (
        tokenizer.attribute(attrs, "href") is not None)


def _measure(raw: str, tokens: list[tuple[int, int, int, str]], with_text: bool = True
             ) -> Line | None:
    """Features B, C, E, F and the output text of one line; None for a blank line (§3.1).

    ``with_text=False`` leaves ``Line.text`` empty (the features alone, for callers that only
    score lines)."""
    whole: list[str] = []
    text_parts: list[str] = []
    reading: list[str] = []
    links = images = 0
    for kind, start, end, name in tokens:
        piece = raw[start:end]
        whole.append(piece)
        if kind == TEXT:
            text_parts.append(piece)
            reading.append(piece)
        else:
            if kind == START:
                if name == "a" and _has_href(piece[2:]):
                    links += 1
                elif name == "img":
                    images += 1
            if name in BLOCK_TAGS or name == "br":
                reading.append(" ")
    # str.split() and the \s of _WS_RE are the same white space: a collapse-and-strip
    cleaned = " ".join("".join(whole).split())
    if not cleaned:
        return None
    output = " ".join("".join(text_parts).split()) if text_parts else ""
    text = _WS_RE.sub(" ", tokenizer.unescape("".join(reading))).strip() if with_text else ""
    return Line(start=tokens[0][1], end=tokens[-1][2],
                text_length=len(cleaned.encode("utf-8", "surrogatepass")),
                output_length=len(output.encode("utf-8", "surrogatepass")),
                links=links, images=images, text=text)


#: Tokens read at once by :func:`_cleaned_longer_than`.
_LONG_LINE_CHUNK = 256
#: A line of this many tokens is checked for being long already (then measured as it goes).
_STREAM_TOKENS = 4096


def _cleaned_longer_than(raw: str, line: list[tuple[int, int, int, str]], limit: int) -> bool:
    """Whether the line's source, white space collapsed, is more than ``limit`` UTF-8 bytes
    (``_measure``'s ``text_length``), read a chunk of tokens at a time.

    Collapsing a concatenation keeps every chunk's collapsed text and at most adds a space
    between two, so the chunks' lengths add up to a lower bound: a minified page (one line
    holding the whole page) is known to be long after its first chunk, without building its
    whole text and the list of its words.
    """
    total = 0
    for first in range(0, len(line), _LONG_LINE_CHUNK):
        chunk = " ".join("".join([raw[start:end] for _, start, end, _ in
                                  line[first:first + _LONG_LINE_CHUNK]]).split())
        total += len(chunk) if chunk.isascii() else len(chunk.encode("utf-8", "surrogatepass"))
        if total > limit:
            return True
    if len(line) <= _LONG_LINE_CHUNK:
        return False  # one chunk: its length is the line's
    cleaned = " ".join("".join([raw[start:end] for _, start, end, _ in line]).split())
    return len(cleaned.encode("utf-8", "surrogatepass")) > limit


def page_lines(page: Page, params: Params, with_text: bool = True) -> PageLines:
    """Preprocess the page (§3.1) and measure the six features of every line (§3.2).

    ``with_text=False`` leaves every ``Line.text`` empty (the features are the same), for
    callers that only score lines.
    """
    raw = page.raw
    tokens = _tokens(page, params)
    source = _split_source(raw, tokens)
    groups: list[list[tuple[int, int, int, str]]] = []
    for line in source:
        if not line:
            continue
        if params.line_mode == "blocks":
            groups.extend(_split_blocks(line))
        elif params.line_mode == "auto" and (line[-1][2] - line[0][1]) > params.long_line_chars:
            # measure cleaned length only when the raw span is long enough to matter
            if _cleaned_longer_than(raw, line, params.long_line_chars):
                groups.extend(_split_blocks(line))
            else:
                groups.append(line)
        else:
            groups.append(line)
    if params.attach_tag_lines:
        groups = _attach_tag_lines(raw, groups)
    lines = [m for m in (_measure(raw, g, with_text) for g in groups if g) if m is not None]
    return PageLines(lines=lines, features=_feature_matrix(lines, params))


def _attach_tag_lines(raw: str, groups: list[list[tuple[int, int, int, str]]]
                      ) -> list[list[tuple[int, int, int, str]]]:
    """Join every line without text to the next line that has text (the last ones backward)."""
    out: list[list[tuple[int, int, int, str]]] = []
    pending: list[tuple[int, int, int, str]] = []
    for group in groups:
        pending.extend(group)
        if any(kind == TEXT and raw[start:end].strip() for kind, start, end, _ in group):
            out.append(pending)
            pending = []
    if pending:
        if out:
            out[-1] = out[-1] + pending
        else:
            out.append(pending)
    return out


def _feature_matrix(lines: Sequence[Line], params: Params) -> np.ndarray:
    """Rows of (Index, TextLength, OutputTextLength, Density, LinkNum, ImgNum), §3.2."""
    n = len(lines)
    matrix = np.zeros((n, 6), dtype=float)
    if not n:
        return matrix
    index = np.arange(1, n + 1, dtype=float)
    matrix[:, 0] = index / n if params.index_normalization else index
    matrix[:, 1] = [line.text_length for line in lines]
    matrix[:, 2] = [line.output_length for line in lines]
    matrix[:, 3] = matrix[:, 2] / np.maximum(matrix[:, 1], 1.0)
    matrix[:, 4] = [line.links for line in lines]
    matrix[:, 5] = [line.images for line in lines]
    return matrix


def line_features(page: Page, params: Params) -> tuple[np.ndarray, np.ndarray]:
    """The start offsets and the feature matrix of ``page_lines(page, params,
    with_text=False)``, without its per-line objects: lines are measured as they are cut,
    and a line of one token (the most common) is measured without joining pieces.
    Compiled where the install built ``_lines`` (the Python loop below is the same)."""
    if params.attach_tag_lines:  # joins lines across the page: the plain path
        lines = page_lines(page, params, with_text=False)
        return np.asarray([ln.start for ln in lines.lines], dtype=np.int64), lines.features
    if _compiled_lines is not None:
        tags = page.tags
        begin, stop, ordinal = _body_range(page)
        # machine integers, as the scan leaves them (a repaired page's scan holds lists)
        starts, tag_ends, close_ends = (
            offsets if isinstance(offsets, array) else array("q", offsets)
            for offsets in (tags.starts, tags.tag_ends, tags.close_ends))
        columns = _compiled_lines.line_rows(
            page.raw, starts, tags.names, tag_ends, close_ends, begin, stop,
            ordinal, frozenset(t.lower() for t in params.useless_tags), _RAW_TEXT_NAMES,
            _STRUCTURAL_END, BLOCK_TAGS, params.line_mode, params.long_line_chars,
            _GAP_RE.match, _has_href)
        return columns[:, 0].copy(), _line_matrix(columns, params)
    raw = page.raw
    mode = params.line_mode
    long_line = params.long_line_chars
    rows: list[tuple[int, int, int, int, int]] = []

    def measure(line: list[tuple[int, int, int, str]]) -> tuple[int, int, int, int, int] | None:
        """_measure(with_text=False)'s (start, text_length, output_length, links, images)."""
        if len(line) == 1:  # one token: its own cleaned text, no joining
            kind, start, end, name = line[0]
            cleaned = " ".join(raw[start:end].split())
            if not cleaned:
                return None
            size = len(cleaned) if cleaned.isascii() else len(
                cleaned.encode("utf-8", "surrogatepass"))
            if kind == TEXT:
                return start, size, size, 0, 0
            return (start, size, 0,
                    1 if kind == START and name == "a" and _has_href(raw[start + 2:end]) else 0,
                    1 if kind == START and name == "img" else 0)
        if len(line) == 2:  # text then a tag (an indented tag, the next most common)
            (kind, start, text_end, _), (tag_kind, tag_start, end, name) = line
            if kind == TEXT and tag_kind != TEXT and tag_start == text_end:
                cleaned = " ".join(raw[start:end].split())
                if not cleaned:
                    return None
                output = " ".join(raw[start:text_end].split())
                return (start,
                        len(cleaned) if cleaned.isascii() else len(
                            cleaned.encode("utf-8", "surrogatepass")),
                        len(output) if output.isascii() else len(
                            output.encode("utf-8", "surrogatepass")),
                        1 if tag_kind == START and name == "a"
                        and _has_href(raw[tag_start + 2:end]) else 0,
                        1 if tag_kind == START and name == "img" else 0)
        # the line's source is read in one slice when nothing was dropped between its tokens
        text_parts: list[str] = []
        n_links = n_images = 0
        line_start = previous_end = line[0][1]
        contiguous = True
        for kind, start, end, name in line:
            if start != previous_end:
                contiguous = False
            previous_end = end
            if kind == TEXT:
                text_parts.append(raw[start:end])
            elif kind == START:
                if name == "a":
                    if _has_href(raw[start + 2:end]):
                        n_links += 1
                elif name == "img":
                    n_images += 1
        whole = (raw[line_start:previous_end] if contiguous
                 else "".join([raw[start:end] for _, start, end, _ in line]))
        cleaned = " ".join(whole.split())
        if not cleaned:
            return None
        output = " ".join("".join(text_parts).split()) if text_parts else ""
        return (line_start,
                len(cleaned) if cleaned.isascii() else len(
                    cleaned.encode("utf-8", "surrogatepass")),
                len(output) if output.isascii() else len(output.encode("utf-8", "surrogatepass")),
                n_links, n_images)

    add_row = rows.append

    def measure_groups(groups: Iterable[list[tuple[int, int, int, str]]]) -> None:
        for group in groups:
            measured = measure(group)
            if measured is not None:
                add_row(measured)

    def finish(line: list[tuple[int, int, int, str]], long_known: bool = False) -> None:
        """Measure a newline line (re-split at block tags when the mode says so).

        ``long_known``: the line's start was found long and measured already (``line`` is
        the rest of it, from a block boundary on)."""
        if long_known:
            measure_groups(_split_blocks(line))
            return
        if mode == "blocks" or (mode == "auto" and line[-1][2] - line[0][1] > long_line):
            if mode == "auto":
                # the cleaned length alone decides; the whole line is measured only if kept
                if not _cleaned_longer_than(raw, line, long_line):
                    measured = measure(line)
                    if measured is not None:
                        add_row(measured)
                    return
            measure_groups(_split_blocks(line))
            return
        measured = measure(line)
        if measured is not None:
            add_row(measured)

    def flush_known_long(line: list[tuple[int, int, int, str]], long_known: bool
                         ) -> list[tuple[int, int, int, str]] | None:
        """A line that is already long (its start says so: only more can follow) is
        re-split at block tags whatever comes next: measure its finished groups now and
        return its last, open group (None: not known long yet). Re-splitting that group
        with what follows gives the groups of the whole line (a boundary resets the split)."""
        if mode == "source" or not (long_known or mode == "blocks" or (
                line[-1][2] - line[0][1] > long_line
                and _cleaned_longer_than(raw, line, long_line))):
            return None
        groups = _split_blocks(line)
        measure_groups(groups[:-1])
        return groups[-1]

    # _split_source's newline lines, each measured when it ends; a minified page's one line
    # is measured a few thousand tokens at a time once it is known long
    current: list[tuple[int, int, int, str]] = []
    long_known = False
    check_at = _STREAM_TOKENS  # a line not yet long is checked again at twice the tokens
    for token in _tokens(page, params):
        kind, start, end, _ = token
        newline = raw.find("\n", start, end) if kind == TEXT else -1
        if newline == -1:
            current.append(token)
            if len(current) >= check_at:
                rest = flush_known_long(current, long_known)
                if rest is not None:
                    current, long_known = rest, True
                check_at = max(_STREAM_TOKENS, 2 * len(current))
            continue
        pos = start
        while newline != -1:
            if newline > pos:
                current.append((TEXT, pos, newline, ""))
            if current:
                finish(current, long_known)
                current = []
            long_known, check_at = False, _STREAM_TOKENS
            pos = newline + 1
            newline = raw.find("\n", pos, end)
        if end > pos:
            current.append((TEXT, pos, end, ""))
    if current:
        finish(current, long_known)
    n = len(rows)
    # from a flat iterator: numpy reads a list of tuples element by element, twice as slow
    columns = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=5 * n).reshape(n, 5)
    return columns[:, 0].copy(), _line_matrix(columns, params)


def _line_matrix(columns: np.ndarray, params: Params) -> np.ndarray:
    """The feature matrix (§3.2) of lines measured as rows of (start, text length, output
    length, links, images)."""
    n = len(columns)
    matrix = np.zeros((n, 6), dtype=float)
    if not n:
        return matrix
    index = np.arange(1, n + 1, dtype=float)
    matrix[:, 0] = index / n if params.index_normalization else index
    matrix[:, 1] = columns[:, 1]
    matrix[:, 2] = columns[:, 2]
    matrix[:, 3] = matrix[:, 2] / np.maximum(matrix[:, 1], 1.0)
    matrix[:, 4] = columns[:, 3]
    matrix[:, 5] = columns[:, 4]
    return matrix
