"""Persistent stores of the host: per-site templates (:mod:`.sitestore`)."""

from .sitestore import SiteStore, site_key

__all__ = ["SiteStore", "site_key"]
