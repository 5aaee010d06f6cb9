"""What "site" means, once: the key every component groups pages by.

``site_key(url)`` is the host of the URL, lower-case, without a trailing dot and without a
leading ``www.``; user info and port are not part of it, and an internationalized name
has one key whether written in Unicode or in its ``xn--`` form. The site store, the
examples store, FAR-SW's per-site rules, cross-validation and linkblocks all use it, so a
page labeled under one spelling of a URL is found under any other.

``registered_domain(host)`` is coarser: the domain a registrant holds (``bbc.co.uk`` for
``news.bbc.co.uk``), guessed without a public-suffix list: the last two labels, or three
under a two-letter country code with a short second level (``co.uk``, ``com.cn``). Only
linkblocks' external-link judgment needs it (an option, off by default); a template is a
property of a host, so everything that learns per site uses ``site_key``.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def normalize_host(host: str) -> str:
    """``host`` lower-case, without a trailing dot, internationalized labels in Unicode."""
    host = host.strip().rstrip(".").lower()
    if not host:
        return ""
    if host.isascii() and "xn--" not in host:
        return host
    try:  # both spellings of an internationalized name give the same Unicode form
        return host.encode("idna").decode("ascii").encode("ascii").decode("idna")
    except UnicodeError:
        return host


def host_of(url: str | None) -> str:
    """The normalized host of ``url`` (user info and port dropped); "" when it has none."""
    if not url or not isinstance(url, str):
        return ""
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return ""
    return normalize_host(host) if host else ""


def site_key(url: str | None) -> str | None:
    """The site of ``url``: its normalized host without ``www.``; None when it has no host."""
    host = host_of(url)
    if not host:
        return None
    return host[4:] if host.startswith("www.") and len(host) > 4 else host


def registered_domain(host: str) -> str:
    """Registered-domain guess for a host: the last two labels, three under a two-letter
    country code with a short second level (``bbc.co.uk``, ``sina.com.cn``)."""
    labels = [part for part in normalize_host(host).split(".") if part]
    if labels and labels[0] == "www":
        labels = labels[1:]
    if len(labels) >= 3 and len(labels[-1]) == 2 and len(labels[-2]) <= 3:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])
