"""Find script-capable constructs in sanitized HTML, read as lxml parses it.

Independent of the sanitizer's own rules: every element and every attribute of the parsed
output is looked at. A URL is read as a browser reads it (entities decoded by the parser,
ASCII tab/newline removed anywhere, controls and spaces trimmed at the ends, scheme
case-insensitive) and must be http(s), mailto, relative, or, for an image source only,
``data:image/``.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml import html as lxml_html

#: Elements that run script, load active content, navigate, submit, restyle or re-base.
FORBIDDEN_ELEMENTS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "param", "base",
    "meta", "link", "style", "form", "input", "button", "textarea", "select", "option",
    "svg", "template", "noscript", "xmp", "plaintext", "noembed", "noframes", "animate",
    "set", "animatetransform", "animatemotion", "handler", "use", "foreignobject", "image",
    "isindex", "keygen", "portal", "xml", "video", "audio", "track", "marquee", "dialog",
    "maction", "annotation-xml", "html", "body", "head", "title",
})
#: Attributes holding a URL (or a list of them) in HTML, SVG or MathML.
URL_ATTRIBUTES = frozenset({
    "href", "src", "srcset", "cite", "action", "formaction", "poster", "background",
    "xlink:href", "data", "codebase", "code", "archive", "dynsrc", "lowsrc", "longdesc",
    "usemap", "ping", "manifest", "profile", "classid", "icon", "itemtype", "data-src",
    "data-srcset", "values", "to", "from", "by",
})
#: Attributes that carry no URL and no script: plain values the reader may keep.
INERT_ATTRIBUTES = frozenset({
    "title", "alt", "width", "height", "sizes", "type", "media", "colspan", "rowspan", "scope",
    "span", "start", "reversed", "value", "datetime", "encoding", "display", "class", "rel",
    "lang", "dir", "stretchy", "fence", "separator", "lspace", "rspace", "mathvariant",
    "displaystyle", "scriptlevel", "columnspan", "linethickness", "notation", "id",
})
#: Attributes that are script or style, whatever their value.
FORBIDDEN_ATTRIBUTES = frozenset({"style", "srcdoc", "formaction", "action", "xmlns",
                                  "attributename", "contenteditable", "autofocus",
                                  "http-equiv"})
_IGNORED = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROLS = "".join(chr(c) for c in range(0x21))


def url_problem(value: str, *, image: bool) -> str | None:
    cleaned = _IGNORED.sub("", value).strip(_CONTROLS)
    found = _SCHEME.match(cleaned)
    if found is None:
        return None
    scheme = found.group(1).lower()
    if scheme in ("http", "https", "mailto"):
        return None
    if image and scheme == "data" and cleaned[5:].lstrip().lower().startswith("image/"):
        return None
    return f"{scheme}: URL"


def srcset_urls(value: str) -> list[str]:
    """Candidate URLs, read both as the srcset parser does (split at whitespace) and as a
    URL reader that first drops tabs and newlines does: either reading must be safe."""
    urls = []
    for text in (value, _IGNORED.sub("", value)):
        urls += [candidate.strip().split()[0] for candidate in text.split(",")
                 if candidate.strip()]
    return urls


def problems(sanitized: str) -> list[str]:
    """Every script-capable construct in ``sanitized`` (empty: clean)."""
    if not sanitized.strip():
        return []
    found: list[str] = []
    # a whole document, so that what the parser moves to <head> (a leading <script>,
    # <meta>, <base>) is looked at too; only the three wrapper elements are skipped
    root = lxml_html.document_fromstring(f"<html><head></head><body>{sanitized}</body></html>")
    wrappers = {root, root.find("head"), root.find("body")}
    for element in root.iter():
        if element in wrappers:
            continue
        if not isinstance(element.tag, str):
            if isinstance(element, etree._ProcessingInstruction):
                found.append("processing instruction")
            continue  # comments carry no script (and nh3 strips them)
        tag = element.tag.lower().rpartition("}")[2].rpartition(":")[2]
        if tag in FORBIDDEN_ELEMENTS:
            found.append(f"<{tag}> element")
        for name, value in element.attrib.items():
            attribute = name.lower().rpartition("}")[2]
            if attribute.startswith("on"):
                found.append(f"<{tag} {attribute}> handler")
            if attribute in FORBIDDEN_ATTRIBUTES:
                found.append(f"<{tag} {attribute}> attribute")
            if attribute in URL_ATTRIBUTES or attribute.endswith(":href"):
                image = tag in ("img", "source") and attribute in ("src", "srcset")
                urls = srcset_urls(value) if attribute.endswith("srcset") else [value]
                for url in urls:
                    problem = url_problem(url, image=image)
                    if problem:
                        found.append(f"<{tag} {attribute}={value[:60]!r}>: {problem}")
            elif attribute not in INERT_ATTRIBUTES:
                found.append(f"<{tag} {attribute}> unexpected attribute")
    return found
