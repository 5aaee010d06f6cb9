"""The one output model every algorithm returns, shared by transports, CLI and evaluation.

Spans are ``[start, end)`` offsets in Unicode code points into the exact HTML string the
host received. Element ids are the values of the id attribute the extension stamped
(``data-bsid``); pages without ids (CLI, files) get XPaths instead. Serialized with
camelCase aliases for the extension (see PROTOCOL.md).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

BlockKind = Literal["links", "main", "content", "ad", "nav", "comments", "other"]
Status = Literal["ok", "not_suitable", "empty"]


class WireModel(BaseModel):
    """Base for wire models: camelCase on the wire, snake_case in Python, strict fields."""

    # defer_build: a model's validator is built on first use, so importing the protocol
    # (two dozen models) stays cheap on the host's cold start.
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid",
                              defer_build=True)


class Block(WireModel):
    """A region of the page an algorithm found: a link block, a main-text block, ..."""

    kind: BlockKind = Field(description="What the block is: link block, main text, ...")
    algorithm: str = Field(description="Name of the algorithm that found the block")
    score: float = Field(description="Algorithm-specific strength; see each algorithm's docs")
    start: int = Field(ge=0, description="Span start in the submitted HTML (code points)")
    end: int = Field(ge=0, description="Span end, exclusive")
    element_ids: list[str] = Field(default_factory=list,
                                   description="Stamped ids of the elements the block covers")
    xpaths: list[str] = Field(default_factory=list,
                              description="XPaths of the covered elements (pages without ids)")
    link_count: int | None = Field(default=None, description="Links inside the block")
    features: dict[str, float] = Field(default_factory=dict,
                                       description="Per-block measurements (for the overlay)")
    confidence: float | None = Field(default=None, ge=0, le=1,
                                     description="How sure a learned labeler is of ``kind``")
    reasons: list[str] = Field(default_factory=list,
                               description="Why the block is what it is, in words (top reasons)")


class Price(WireModel):
    """A product's price as the page's structured data states it."""

    amount: str = Field(description="Decimal amount, '.' before the cents: '1299.99'")
    currency: str = Field(description="ISO 4217 code: 'USD'")


class Picture(WireModel):
    """A picture the page's structured data names, as the reader shows it."""

    url: str = Field(description="Absolute http(s) address of the picture")
    alt: str = Field("", description="What it shows (the product's name)")


class PageMetadata(WireModel):
    """Who wrote the main text, when and where (blocksift.metadata fills it in)."""

    title: str = Field("", description="The article's title as a reader sees it")
    authors: list[str] = Field(default_factory=list, description="Author names, byline order")
    published: str = Field("", description="Publication date, ISO YYYY-MM-DD; '' if unknown")
    site_name: str = Field("", description="The publication's name (og:site_name, host name)")
    language: str = Field("", description="BCP 47 language tag of the main text (the "
                          "nearest lang around it, else the page's), '' if unknown")
    direction: Literal["", "ltr", "rtl"] = Field(
        "", description="Writing direction of the main text: the nearest dir around it, else "
        "'rtl' for a right-to-left language or letters; '' if unknown (older hosts)")
    words: int = Field(0, ge=0, description="Words of the main text (CJK characters count one)")
    reading_minutes: int = Field(0, ge=0, description="Reading time at 230 words a minute")
    price: Price | None = Field(None, description="A product page's one price, from its "
                                "structured data (JSON-LD offers, product:price meta)")
    picture: Picture | None = Field(None, description="A product page's picture, from its "
                                    "structured data (JSON-LD Product image, og:image)")


class MainText(WireModel):
    """The main text chosen for the reader view."""

    title: str = ""
    text: str = Field("", description="Plain text, paragraphs separated by blank lines")
    html: str = Field("", description="Sanitized HTML of the main content (allowlist)")
    element_ids: list[str] = Field(default_factory=list)
    xpaths: list[str] = Field(default_factory=list)
    metadata: PageMetadata | None = Field(None, description="Byline, date, site, language")


class ExtractionResult(WireModel):
    """What one algorithm says about one page."""

    algorithm: str
    status: Status = Field("ok", description="'not_suitable': the algorithm declines the page")
    message: str = Field("", description="Why the status is what it is, for people")
    blocks: list[Block] = Field(default_factory=list)
    main: MainText | None = None
    stats: dict[str, float] = Field(
        default_factory=dict,
        description="Page-level measurements (LCR, CCR, ...); auto adapted to the page's site "
                    "(stage 'site'): site_pages, the site's labeled pages, and site_examples, "
                    "how many of them are the user's saved examples (absent: not known)")
    stage: str = Field("", description="Which stage of a fallback ladder produced the result")
    extra: dict[str, Any] = Field(default_factory=dict, exclude=True,
                                  description="Host-side data for observers, never sent")
