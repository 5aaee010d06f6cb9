"""Helpers shared by the subcommands: params from ``--param k=v``, reading pages."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


class CommandError(Exception):
    """A user-facing error: printed as ``blocksift: error: ...`` with exit code 2."""


class PageNotDataset(CommandError):
    """An HTML page given where a dataset goes (:func:`dataset_path`)."""


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``["d_t=40", "distance=code"]`` -> ``{"d_t": 40, "distance": "code"}``.

    Values that parse as JSON (numbers, true/false, null, lists) are decoded; others stay
    strings.
    """
    params: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"--param needs key=value, got {pair!r}")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
        decoded = params[key.strip()]
        if (isinstance(decoded, float) and not math.isfinite(decoded)) or (
                isinstance(decoded, str)
                and decoded.strip().lower().lstrip("+-") in ("nan", "inf", "infinity")):
            # pydantic reads them as floats: 'threshold=nan' was refused as 'should be less
            # than or equal to 1', and a parameter without bounds took it
            raise CommandError(f"--param {pair}: not a finite number")
    return params


class _AlgorithmOption(argparse.Action):
    """``--algo NAME``: a second one was dropped silently (``eval --algo auto --algo
    linkblocks`` scored linkblocks alone). With ``several`` each is kept in ``algos`` (the
    first is ``algo`` too); else a second is a usage error."""

    def __init__(self, *args: Any, several: bool = False, **kwargs: Any) -> None:
        self.several = several
        super().__init__(*args, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given = getattr(namespace, "algos", None) or []
        if given and not self.several:
            command = parser.prog.split()[-1]
            parser.error(f"--algo given twice ({given[0]}, then {values}): {command} runs one "
                         "algorithm")
        if values not in given:  # named twice: scored once
            given = [*given, values]
        namespace.algos = given
        setattr(namespace, self.dest, given[0])


def add_algorithm_arguments(parser: argparse.ArgumentParser, default: str | None = None,
                            several: bool = False) -> None:
    """``--algo`` and ``--param``; ``several``: ``--algo`` repeatable (``args.algos``)."""
    from ..algorithms import DEFAULT_ALGORITHM

    parser.add_argument("--algo", "--algorithm", dest="algo", default=default or DEFAULT_ALGORITHM,
                        action=_AlgorithmOption, several=several,
                        help="algorithm name (see `blocksift algorithms`; default %(default)s)"
                        + ("; repeat to compare several" if several else ""))
    parser.set_defaults(algos=None)
    parser.add_argument("--param", "-p", action="append", default=[], metavar="KEY=VALUE",
                        help="algorithm parameter, repeatable (values are JSON when they parse)")


def add_model_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", metavar="PATH",
                        help="a model file for an algorithm that learns one (auto: from "
                             "`blocksift train auto`; farsw: from `blocksift train farsw`), or "
                             "auto's shipped 'fast' model (about a third faster; as good on "
                             "modern pages, a little worse on old news sites) or 'lite' (for "
                             "crawls: about 1.6 times the default's pages per CPU-second, "
                             "without the papers' signals); "
                             "default: the packaged or your trained model")


def resolve_model(module: Any, path: str | None) -> str | None:
    """``--model PATH`` checked and loaded once up front (a one-line error if it is not a
    model for this algorithm); the absolute path workers load it from, or None."""
    if not path:
        return None
    import os

    from ..crawl import ExtractorConfigError, check_model_path

    try:
        check_model_path(module, path)
        module.load_model(path)
    except ExtractorConfigError as exc:
        raise CommandError(str(exc)) from None
    except Exception as exc:  # a file of another kind, damaged, or another model's
        raise CommandError(f"cannot load {path} as a model for {module.NAME}: "
                           f"{type(exc).__name__}: {exc}") from None
    if path in getattr(module, "BUNDLED_MODELS", {}):
        return path  # a shipped model's name, not a file here
    return os.path.abspath(path)


def load_algorithm(name: str, params: dict[str, Any]) -> tuple[Any, Any]:
    """The algorithm module and its validated params, or a :class:`CommandError`."""
    from pydantic import ValidationError

    from .. import algorithms

    try:
        module = algorithms.load(name)
    except algorithms.UnknownAlgorithm:
        raise CommandError(f"unknown algorithm {name!r}; known: "
                           f"{', '.join(algorithms.names())}") from None
    try:
        return module, module.Params.model_validate(params)
    except ValidationError as exc:
        raise CommandError(params_message(name, module.Params, exc)) from None


def params_message(name: str, params_class: Any, error: Any) -> str:
    """One line for a ``--param`` that ``params_class`` (pydantic) refused: a word it does
    not know is named with the nearest known one and the whole list (pydantic says only
    "Extra inputs are not permitted"); a bad value is named with what was wrong."""
    from difflib import get_close_matches

    from ..algorithms import params_problems

    unknown = [str(e["loc"][0]) for e in error.errors()
               if e["type"] == "extra_forbidden" and e["loc"]]
    if not unknown:
        return f"invalid params for {name}: {params_problems(error)}"
    known = list(params_class.model_fields)
    by_lower = {key.lower(): key for key in known}

    def hint(word: str) -> str:
        close = get_close_matches(word.lower(), list(by_lower), n=1)
        return f" (did you mean {by_lower[close[0]]}?)" if close else ""

    if len(unknown) == 1:
        named = f"parameter {unknown[0]!r} for {name}{hint(unknown[0])}"
    else:
        named = f"parameters for {name}: " + ", ".join(f"{word!r}{hint(word)}"
                                                       for word in unknown)
    return f"unknown {named}; its parameters: {', '.join(known)}"


#: Leading bytes of common non-text files, named in the error a user sees.
_MAGIC = ((b"\x7fELF", "an ELF executable"), (b"%PDF", "a PDF document"),
          (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
          (b"GIF8", "a GIF image"), (b"PK\x03\x04", "a ZIP archive"),
          (b"\x1f\x8b", "gzip data"), (b"MZ", "a Windows executable"))
_CONTROL_BYTES = bytes(set(range(32)) - {9, 10, 12, 13} | {127})


def binary_kind(data: bytes) -> str | None:
    """What ``data`` is when it is clearly not a text page (magic bytes, many NULs, control
    bytes), else None. UTF-16 pages (BOM) and pages with a few stray NULs count as text."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    sample = data[:8192]
    nuls = sample.count(b"\x00")
    # a stray NUL in a page (browsers read it as U+FFFD) is text; a sample with many NULs
    # (a NUL-filled file, UTF-16 without its BOM, random bytes), or NULs and no markup, is not
    if nuls and (nuls > max(8, len(sample) // 1024) or b"<" not in sample):
        return "binary data"
    if sample and len(sample) - len(sample.translate(None, _CONTROL_BYTES)) > len(sample) // 10:
        return "binary data"
    return None


def dataset_path(name: str, pages: str = "for one page: blocksift extract {name}") -> Path:
    """A dataset's file (:func:`blocksift.labeled.resolve`), or a :class:`CommandError` when
    it is an HTML page: given to eval, train, cluster -d or examples import, a page was
    "line 1: not JSON (Expecting value)", which did not say what was wrong."""
    import gzip

    from ..labeled import resolve

    try:
        path = resolve(name)
    except FileNotFoundError as exc:  # it names the sets there are, the nearest first
        raise CommandError(str(exc)) from None
    try:
        with (gzip.open if path.suffix == ".gz" else open)(path, "rb") as handle:
            head = handle.read(1024)
    except (OSError, EOFError):
        return path  # the reader says what is wrong with it
    if head.lstrip(b" \t\r\n\f\xef\xbb\xbf")[:1] == b"<":
        raise PageNotDataset(f"{name} is an HTML page, not a dataset (JSON lines of labeled "
                             f"pages, docs/evaluation.md); {pages.format(name=name)}")
    return path


def stdin_stream() -> Any:
    """``sys.stdin`` for reading, or a :class:`CommandError` when the shell closed it."""
    if sys.stdin is None or sys.stdin.closed:
        raise CommandError("standard input is closed; redirect a file to it or pipe input in")
    return sys.stdin


#: Largest page a gzip-compressed input may expand to (the host's own frame limit).
MAX_GUNZIPPED_BYTES = 64 * 1024 * 1024
#: Largest input read as one page: a device, an endless pipe or a video named page.html
#: would otherwise be read until the memory runs out.
MAX_INPUT_BYTES = 256 * 1024 * 1024


def _read_at_most(stream: Any, source: str) -> bytes:
    """All of ``stream`` (a binary file or response), or a CommandError past
    :data:`MAX_INPUT_BYTES`."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise CommandError(f"{source} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB; "
                           "not read as a page")
    return data


def _gunzipped(data: bytes, source: str) -> bytes:
    """``data`` decompressed when it is gzip (a page saved as ``page.html.gz``), within
    :data:`MAX_GUNZIPPED_BYTES` so that a small bomb cannot fill the memory."""
    import zlib

    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        page = inflater.decompress(data, MAX_GUNZIPPED_BYTES + 1)
    except zlib.error as exc:
        raise CommandError(f"{source} is damaged gzip data: {exc}") from None
    if len(page) > MAX_GUNZIPPED_BYTES or inflater.unconsumed_tail:
        raise CommandError(f"{source} expands to more than "
                           f"{MAX_GUNZIPPED_BYTES // (1024 * 1024)} MiB; not read")
    if not inflater.eof:
        raise CommandError(f"{source} is truncated gzip data")
    return page


def _checked(data: bytes, source: str) -> bytes:
    if data.startswith(b"\x1f\x8b"):
        data = _gunzipped(data, source)
        source = f"{source} (decompressed)"
    kind = binary_kind(data)
    if kind is not None:
        raise CommandError(f"{source} is {kind}, not an HTML page")
    return data


#: An element tag, comment or doctype: what any HTML page holds and other text does not.
_MARKUP = re.compile(r"<[A-Za-z!/?]")


def text_kind(html: str) -> str | None:
    """What the decoded ``html`` is when it is text but clearly not a page (JSON, JSON lines,
    text without a single tag), with a hint of what to do with it; else None. Read as a page,
    such a file came out as its own "main text", exit code 0, as if it had been one."""
    text = html.lstrip(" \t\r\n\f\ufeff")
    if not text or _MARKUP.search(text) and text[:1] not in "{[":
        return None
    if text[:1] in "{[":
        first = text.split("\n", 1)[0]
        for whole, candidate in ((True, text), (False, first)):
            try:
                value = json.loads(candidate)
            except ValueError:
                continue
            if not whole and "\n" in text.strip():
                return "JSON lines, not an HTML page; for their pages: blocksift batch < FILE"
            if isinstance(value, dict) and isinstance(value.get("html"), str):
                return ("JSON, not an HTML page; for the page it holds: "
                        "jq -r .html FILE | blocksift extract -")
            return "JSON, not an HTML page"
    if _MARKUP.search(text):
        return None
    return "text without any HTML markup, not an HTML page"


def _page(data: bytes, source: str, charset: str | None = None, path: bool = False) -> str:
    """``data`` (:func:`_checked`) decoded, or a CommandError when it is text that is not a
    page (:func:`text_kind`); the hint names the file when ``source`` is a ``path``."""
    import shlex

    from ..page import decode_html

    html = decode_html(_checked(data, source), charset)
    kind = text_kind(html)
    if kind is not None:
        named = kind.replace("FILE", shlex.quote(source)) if path else kind
        raise CommandError(f"{source} is {named}")
    return html


def read_source(source: str, timeout: float = 20.0) -> tuple[str, str | None]:
    """Read a page from a file path, a URL or ``-`` (stdin); returns (html, url).

    Binary input (an executable, an image, a NUL-filled file) is a :class:`CommandError`:
    decoded as text it would come out as pages of garbage "main text"; so is text that is
    not a page (JSON, text without markup: :func:`text_kind`). A gzip-compressed page is
    read decompressed.
    """
    if source == "-":
        stream = stdin_stream()
        if stream.isatty():
            print("blocksift: reading HTML from the terminal; end it with Ctrl-D",
                  file=sys.stderr)
        try:
            data = _read_at_most(stream.buffer, "standard input")
        except OSError as exc:
            raise CommandError(f"cannot read standard input: {exc.strerror or exc}") from None
        return _page(data, "standard input"), None
    if source.startswith(("http://", "https://")):
        import http.client
        import urllib.request

        try:
            request = urllib.request.Request(source, headers={"User-Agent": "blocksift"})
            with urllib.request.urlopen(request, timeout=timeout) as response:
                data = _read_at_most(response, source)
                charset = response.headers.get_content_charset()
        except (OSError, http.client.HTTPException) as exc:  # HTTPException: "a b" as a host,
            # a reply cut short
            raise CommandError(f"cannot fetch {source}: {_not_fetched(exc, timeout)}") from None
        except (ValueError, OverflowError) as exc:  # an address urllib or the socket refuses
            # ("http://[::1", a port past 65535)
            raise CommandError(f"cannot fetch {source}: not a valid URL ({exc})") from None
        return _page(data, source, charset), source
    path = Path(source)
    try:
        with path.open("rb") as handle:
            data = _read_at_most(handle, source)
    except OSError as exc:
        if _OTHER_SCHEME.match(source):
            raise CommandError(f"cannot fetch {source}: only http:// and https:// URLs are "
                               "fetched") from None
        hint = ("; for a web page give its URL with https://"
                if isinstance(exc, FileNotFoundError) and _looks_like_a_url(source) else "")
        raise CommandError(f"cannot read {source}: {exc.strerror or exc}{hint}") from None
    return _page(data, source, path=True), None


def _not_fetched(exc: BaseException, timeout: float) -> str:
    """Why a URL could not be fetched, in words ("<urlopen error [Errno -2] Name or service
    not known>" was urllib's repr)."""
    import socket
    import ssl
    import urllib.error

    if isinstance(exc, urllib.error.HTTPError):
        return f"the server answered HTTP {exc.code} {exc.reason}".rstrip()
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, socket.gaierror):
        return f"no such host, or no network ({reason.strerror or reason})"
    if isinstance(reason, TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(reason, ssl.SSLCertVerificationError):
        return f"its TLS certificate is not trusted ({reason.verify_message or reason})"
    if isinstance(reason, ssl.SSLError):
        why = reason.reason.replace("_", " ").lower() if reason.reason else str(reason)
        return f"the TLS connection failed ({why})"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason)


_HOST = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?$", re.I)
_FILE_SUFFIX = re.compile(r"\.(?:x?html?|xml|txt|gz|jsonl?|md|json)$", re.I)


def _looks_like_a_url(source: str) -> bool:
    """A missing "file" that reads as a web address typed without its scheme
    ("www.example.com", "example.org/news/today"): a host name first ("page.html" and
    "out/page.htm" are not)."""
    host = source.split("/", 1)[0]
    return bool(_HOST.match(host)) and not _FILE_SUFFIX.search(host)
#: A URL with a scheme that is not fetched ("ftp://...", "file://...").
_OTHER_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


def run_guarded(func: Any) -> Any:
    """Decorator: turn :class:`CommandError` into a message on stderr and exit code 2."""

    def wrapper(args: argparse.Namespace) -> int:
        try:
            return int(func(args) or 0)
        except CommandError as exc:
            print(f"blocksift: error: {exc}", file=sys.stderr)
            return 2

    return wrapper


#: The longest time limit a command takes (a day): time_t and timers overflow near infinity.
MAX_SECONDS = 86400.0


def seconds(text: str) -> float:
    """An argparse type for a time limit: a positive, finite number of seconds up to a day
    ("nan" passed a `<= 0` check and made every page time out; "inf" overflowed a timer)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most {MAX_SECONDS:g}, got {text!r}")
    return value


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type for a whole number of at least ``least`` ("--rounds -3" reached
    LightGBM and came back as an internal error; "--limit -5" scored nothing)."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        return value

    read.__name__ = f"whole number of at least {least}"
    return read


def share(text: str) -> float:
    """An argparse type for a share strictly between 0 and 1 ("--train-fraction 7" was taken
    and ignored by every algorithm but clustering)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be above 0 and below 1, got {text!r}")
    return value


def worker_count(text: str) -> int:
    """An argparse type for a number of extraction processes: at least 1, at most four per
    core (each is a Python process holding a model; "-j 1000" would start a thousand of them
    at once, and extraction gains nothing past one per core)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    most = 4 * (os.cpu_count() or 1)
    if not 1 <= value <= most:
        raise argparse.ArgumentTypeError(
            f"must be 1 to {most} (four per core on this machine), got {value}")
    return value


def add_progress_arguments(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress``, the same on every command with a bar."""
    parser.add_argument("--progress", dest="progress", action="store_true", default=None,
                        help="show a progress bar on stderr even when it is not a terminal")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="no progress bar (default when stderr is not a terminal)")


def want_progress(flag: bool | None = None) -> bool:
    """Progress bars only on an interactive stderr, unless forced."""
    return sys.stderr.isatty() if flag is None else flag


#: How the lines of ``train auto --per-site`` and ``examples import`` name where a record's
#: address came from (:func:`blocksift.labeled.record_address`).
ADDRESS_SOURCES = {"saved from": "the browser's saved-from comment",
                   "canonical": "<link rel=canonical>", "og:url": "og:url"}


def own_address_said(sources: list[str], noun: str) -> str:
    """'3 records without a "url" read under the address their page names for itself (2 by
    <link rel=canonical>, 1 by og:url)': what a dataset command says of the records it read
    as ``extract`` reads a saved page; ``sources`` holds one where-from per such record."""
    from collections import Counter

    counted = Counter(sources)
    by = ", ".join(f"{counted[key]} by {name}" for key, name in ADDRESS_SOURCES.items()
                   if counted[key])
    return (f"{_count(len(sources), noun)} without a \"url\" read under the address "
            f"{'their page names' if len(sources) != 1 else 'its page names'} for itself ({by})")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


#: Why a record has no address at all, as the lines of those commands say it.
NO_ADDRESS = ("no \"url\", and the page names no address of its own (no saved-from comment, "
              "<link rel=canonical> or og:url)")


def note(text: str) -> None:
    """``text`` on stderr: one line when piped (for grep), wrapped at the terminal's width
    under a two-space indent in a terminal (not cut mid-word by it)."""
    from ..terminal import display_width, terminal_width

    width = terminal_width(sys.stderr)
    if width is None or display_width(text) <= width - 1:
        print(text, file=sys.stderr)
        return
    import textwrap

    print(textwrap.fill(text, width=max(width - 1, 40), subsequent_indent="  ",
                        break_on_hyphens=False, break_long_words=False), file=sys.stderr)
