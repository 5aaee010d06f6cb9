"""Pages the end-to-end tests generate at run time (too large or too port-specific to commit).

* ``big.html`` -- a 5 MB page: many sections, each an article paragraph and a link list.
* ``long-article.html`` -- one article whose main text is over 1.2 MB, so the host's reply
  (main HTML + text) is over 1 MiB and must arrive in chunks.
* ``xss.html`` -- an article full of XSS payloads; every payload that runs reports to
  ``/__hit?p=<n>&ctx=<location.protocol>`` so tests can tell the page's own context
  (``http:``, expected) from the reader view's (``chrome-extension:``/``moz-extension:``,
  must never happen).
* ``closed-menus.html`` -- the bundled article with three closed dropdown menus beside it
  (opacity 0 or ``visibility: hidden``, their boxes kept, as many sites' menus until hovered).
"""

from __future__ import annotations

import html
from pathlib import Path

WORDS = ("tide moon ocean current wave harbour sailor chart coast storm gravity orbit"
         " season shore reef island current depth salt river delta estuary").split()


def sentence(i: int, length: int = 24) -> str:
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(length)]
    return " ".join(words).capitalize() + "."


def paragraph(i: int, sentences: int = 8) -> str:
    return " ".join(sentence(i * 31 + k) for k in range(sentences))


def big_page(target_bytes: int = 5 * 1024 * 1024) -> str:
    head = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A very large page"
            "</title></head><body><nav id='nav'>"
            + " ".join(f"<a href='/s{i}'>Section {i}</a>" for i in range(12)) + "</nav><main id='main'>")
    parts = [head]
    size = len(head)
    i = 0
    while size < target_bytes:
        links = "".join(f"<li><a href='/r/{i}/{k}'>Related story {i}.{k}</a></li>" for k in range(6))
        chunk = (f"<section id='s{i}'><h2>Part {i}</h2><p>{paragraph(i)}</p>"
                 f"<p>{paragraph(i + 1)}</p><aside class='related'><ul>{links}</ul></aside></section>")
        parts.append(chunk)
        size += len(chunk)
        i += 1
    parts.append("</main><footer id='footer'>"
                 + " ".join(f"<a href='/f{k}'>Footer {k}</a>" for k in range(8))
                 + "</footer></body></html>")
    return "".join(parts)


def long_article(target_chars: int = 1_300_000) -> str:
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A very long article"
             "</title></head><body><nav id='nav'>"
             + " ".join(f"<a href='/n{i}'>Nav {i}</a>" for i in range(8))
             + "</nav><article id='article'><h1>A very long article</h1>"]
    size = 0
    i = 0
    while size < target_chars:
        # numbered: the sentences cycle, and a paragraph repeated word for word is shown once
        text = f"Part {i}. {paragraph(i, 10)}"
        parts.append(f"<p>{text}</p>")
        size += len(text)
        i += 1
    parts.append("<p id='last'>The end of the very long article.</p></article></body></html>")
    return "".join(parts)


def xss_page(hit_url: str) -> str:
    def beacon(n: int) -> str:
        return f"new Image().src='{hit_url}?p={n}&ctx='+location.protocol"

    def attr(n: int) -> str:
        return html.escape(beacon(n), quote=True)

    payloads = [
        f"<script>{beacon(1)}</script>",
        f"<img src='/missing.png' onerror=\"{attr(2)}\" alt='broken'>",
        f"<a href=\"javascript:{attr(3)}\" id='js-link'>a javascript: link</a>",
        f"<svg onload=\"{attr(4)}\"><circle r='5'></circle></svg>",
        f"<iframe srcdoc=\"&lt;script&gt;{attr(5)}&lt;/script&gt;\"></iframe>",
        f"<object data=\"javascript:{attr(6)}\"></object>",
        f"<math><mtext><table><mglyph><style><img src=x onerror=\"{attr(7)}\"></style></mglyph></table></mtext></math>",
        f"<noscript><p title=\"</noscript><img src=x onerror={attr(8)}>\"></p></noscript>",
        f"<form action=\"javascript:{attr(9)}\"><button id='form-button'>Send</button></form>",
        f"<details open ontoggle=\"{attr(11)}\"><summary>Details</summary>toggle</details>",
        f"<a href=\"jav&#x09;ascript:{attr(12)}\" id='tab-link'>an obfuscated link</a>",
        f"<img src=\"data:image/svg+xml,&lt;svg xmlns='http://www.w3.org/2000/svg' onload='{attr(13)}'/&gt;\" alt='svg'>",
        f"<div style=\"background:url(javascript:{attr(14)})\">styled</div>",
        f"<video><source onerror=\"{attr(16)}\"></video>",
        f"<p id='click-me' onclick=\"{attr(17)}\">A paragraph with a click handler: click it.</p>",
        f"<template><img src=x onerror=\"{attr(18)}\"></template>",
        f"<a href=\"data:text/html,&lt;script&gt;{attr(19)}&lt;/script&gt;\" id='data-link'>a data: link</a>",
        f"<textarea><img src=x onerror=\"{attr(20)}\"></textarea>",
        f"<img src=x onerror=\"{attr(21)}\" data-src=\"javascript:{attr(21)}\">",
        f"<a href='https://example.org/' onmouseover=\"{attr(22)}\" id='hover-link'>a link with a handler</a>",
    ]
    body = []
    for i, payload in enumerate(payloads):
        body.append(f"<p>{paragraph(i, 3)}</p>{payload}")
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A page full of XSS"
            f"</title><base href='/'><meta http-equiv='refresh' content='600;url=javascript:{attr(10)}'>"
            "</head><body><nav id='nav'>"
            + " ".join(f"<a href='/n{i}'>Nav {i}</a>" for i in range(8))
            + "</nav><article id='article'><h1>A page full of XSS</h1>"
            + "".join(body)
            + "<p id='safe-end'>The last honest paragraph of this page.</p></article></body></html>")


def closed_menus_page(article: str) -> str:
    """``article`` (pages/article.html) with three closed dropdown menus after its header."""
    menus = "".join(
        f'\n<nav class="menu" id="menu-{name.lower()}" aria-label="{name} menu" '
        f'style="left: {200 + 240 * k}px"><ul>'
        + "".join(f'<li><a href="/{name.lower()}/{i}">{name} topic {i}</a></li>'
                  for i in range(1, 9))
        + "</ul></nav>"
        for k, name in enumerate(("Coasts", "Weather", "Science")))
    style = ("  .menu { position: absolute; top: 40px; width: 220px; padding: 8px; "
             "background: #fff; }\n"
             "  #menu-coasts, #menu-weather { opacity: 0; }\n"
             "  #menu-science { visibility: hidden; }\n</style>")
    return (article.replace("<title>How tides work</title>",
                            "<title>How tides work, with closed menus</title>", 1)
            .replace("</style>", style, 1).replace("</header>\n", "</header>" + menus + "\n", 1))


def generate_pages(folder: Path, hit_url: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "big.html").write_text(big_page(), encoding="utf-8")
    (folder / "long-article.html").write_text(long_article(), encoding="utf-8")
    (folder / "xss.html").write_text(xss_page(hit_url), encoding="utf-8")
    article = (Path(__file__).resolve().parent / "pages" / "article.html").read_text(encoding="utf-8")
    (folder / "closed-menus.html").write_text(closed_menus_page(article), encoding="utf-8")
