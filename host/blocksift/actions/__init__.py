"""User-facing actions built on the algorithms' results (what to hide, how to show a page).

Actions depend on algorithms, never the reverse: each is a pure function of a parsed
:class:`~blocksift.page.Page` and the results the algorithms returned for it.
"""
