"""The first page's work done once in the worker pool's forkserver, not in every worker.

A worker's first page cost about ten times its next (0.39 s against 0.04 s for a 27 kB
page): it imported the modules the reader and hide answers need (link blocks, FAR-SW's
lines, the hide plan, the metadata), compiled their regular expressions and loaded the
segmenter's model. The pool's forkserver imports this module at its start (its preload,
:class:`~blocksift.service.worker.WorkerPool` with ``warm=True``), which runs one small
page through the reader and the hide actions there; every worker forked from it, the
replacement of a retired or killed one too, starts with all of that done, so the first
click after the browser starts the host is answered as fast as the next.

Best effort: whatever goes wrong here is logged and the workers start as before (the
forkserver survives only an ImportError from its preload, so nothing may escape).
"""

from __future__ import annotations

import logging

log = logging.getLogger("blocksift.warmup")

#: A page with what the actions look at: a menu, a headline, paragraphs, a list of links,
#: a footer (no address: no site's files are read).
WARM_UP_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Warming up | Example</title><meta name="author" content="A. Writer">
<meta property="article:published_time" content="2024-01-02T03:04:05Z"></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li></ul></nav></header>
<main><article><h1>Warming up</h1><p class="byline">By A. Writer, January 2, 2024</p>
<p>The first paragraph of a short story, long enough to be read as text and not as a
caption, with a comma, a second clause and a full stop at its end.</p>
<p>A second paragraph follows it, and it says a little more about the same thing, so that
the page holds a main text of a few sentences for the segmenter to find.</p></article>
<aside><h2>More stories</h2><ul><li><a href="/a">One story</a></li>
<li><a href="/b">Another story</a></li><li><a href="/c">A third story</a></li></ul></aside>
</main><footer><a href="/privacy">Privacy</a> | <a href="/terms">Terms</a></footer>
</body></html>"""


def warm() -> bool:
    """Run :data:`WARM_UP_PAGE` through the default algorithm as the reader and hide ask;
    True when both answered."""
    try:
        from ..algorithms import DEFAULT_ALGORITHM
        from ..wire.constants import ID_ATTR
        from .worker import Job, run_job

        answered = 0
        for action, want in (("reader", ["main"]), ("hide", ["blocks"])):
            outcome = run_job(Job(algorithm=DEFAULT_ALGORITHM, params={}, html=WARM_UP_PAGE,
                                  url=None, want=want, id_attr=ID_ATTR, action=action))
            answered += outcome.ok
            if not outcome.ok:
                log.warning("warm-up %s: %s", action, outcome.error_message)
        return answered == 2
    except Exception:  # a cold worker is slower, never wrong
        log.exception("warm-up failed")
        return False


warm()
