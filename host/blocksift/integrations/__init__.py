"""Adapters for crawl-scale engines: :mod:`.datatrove` and :mod:`.ray` (optional extras).

Each imports its engine at import time; the core package never imports them.
"""
