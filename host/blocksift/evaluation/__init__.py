"""Scoring extractors against labeled pages (the format of the shared dev datasets)."""
