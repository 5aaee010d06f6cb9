"""The wire protocol between the extension (or any client) and the host, version 1.

Every message is a JSON object with a ``type``. Requests and replies are pydantic models
decoded with one discriminated-union ``TypeAdapter`` each; field names are camelCase on the
wire. Each model is declared once, with ``@request`` or ``@reply``: the unions, the lookup
tables by ``type`` and the extension's generated constants
(``extension/tools/gen_wire_constants.py``) all come from those two registries. The same
messages travel over native messaging (length-prefixed frames) and over the loopback
WebSocket server. ``blocksift schema`` prints the JSON Schema; PROTOCOL.md documents every
message and error code."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar, Union, get_args

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter

from .. import __version__
from ..actions.hide import HidePlan, IndexItem, PageSummary
from .constants import (
    ID_ATTR,
    IMPORT_CHUNK_MAX_CHARS,
    IMPORT_MAX_BYTES,
    MAX_ID_LENGTH,
    PROTOCOL_VERSION,
    UNDO_IMPORT_MAX_RANGES,
    ErrorCode,
)
from .results import ExtractionResult, WireModel

RequestId = Annotated[str, Field(min_length=1, max_length=MAX_ID_LENGTH)]
#: How many skipped records an examples.imported reply names (it counts them all).
MAX_SKIPPED_LISTED = 100
#: SQLite's largest integer: a bigger example number or offset cannot even be looked up.
MAX_STORED_INT = 2**63 - 1

#: Request model by ``type``, in declaration order: validating one message builds only its own
#: model's validator. Filled by :func:`request`; the one list of request types.
REQUEST_MODELS: dict[str, type[WireModel]] = {}
#: Reply model by ``type``, filled by :func:`reply`.
REPLY_MODELS: dict[str, type[WireModel]] = {}

_Model = TypeVar("_Model", bound=type[WireModel])


def message_type(model: type[WireModel]) -> str:
    """The ``type`` a message model declares (its ``Literal``)."""
    (name,) = get_args(model.model_fields["type"].annotation)
    return name


def _register(registry: dict[str, type[WireModel]], model: _Model) -> _Model:
    name = message_type(model)
    if name in registry:
        raise TypeError(f"two message models declare type {name!r}")
    registry[name] = model
    return model


def request(model: _Model) -> _Model:
    """Declare a request model (client -> host)."""
    return _register(REQUEST_MODELS, model)


def reply(model: _Model) -> _Model:
    """Declare a reply model (host -> client)."""
    return _register(REPLY_MODELS, model)


# -- requests (client -> host) ------------------------------------------------------------


class RequestModel(WireModel):
    """Base of a request and of every object inside one: its fields take the JSON type their
    schema names and nothing else (pydantic's strict mode). An integer field refuses "1",
    true and 1.0, a boolean refuses 1 and "true", a number refuses "0.5" and true (it takes
    an integer); lax mode read all of them, so a client's mistake passed unseen."""

    model_config = ConfigDict(strict=True)


@request
class HelloRequest(RequestModel):
    """Opens a session: the host answers with its versions and algorithms."""

    type: Literal["hello"]
    id: RequestId
    protocol: int = Field(PROTOCOL_VERSION, description="Protocol version the client speaks")
    client: str = Field("", max_length=200, description="Client name and version, for logs")


Want = Literal["blocks", "main"]


@request
class ExtractRequest(RequestModel):
    """Run one algorithm on one page snapshot."""

    type: Literal["extract"]
    id: RequestId
    url: str | None = Field(None, max_length=8192)
    html: str = Field(description="The page snapshot; elements may carry stamped ids")
    algorithm: str = Field("auto", max_length=64)
    params: dict[str, Any] = Field(default_factory=dict)
    want: list[Want] = Field(default_factory=lambda: ["blocks", "main"], min_length=1,
                             description="Link blocks, main text, or both")
    id_attr: str = Field(ID_ATTR, max_length=64,
                         description="Attribute holding the extension's element ids")
    private: bool = Field(False, description="Private window: nothing may be stored")
    learn_site: bool = Field(False, description="The user allows this site's page structure "
                                                "to be stored for per-site template learning")
    action: Literal["extract", "hide", "reader"] = Field(
        "extract", description="'hide': also return the hide plan (reply field 'hide'): the "
                               "containers to hide, each with kind and reason; 'algorithm' "
                               "then names the main-content algorithm. 'reader': also return "
                               "the page's kind and an index page's stories (reply field "
                               "'page'), without the hide plan's cost")


@request
class CancelRequest(RequestModel):
    """Stop a request the user no longer wants; its reply becomes a CANCELLED error."""

    type: Literal["cancel"]
    id: RequestId
    target: RequestId = Field(description="Id of the request to cancel")


@request
class PingRequest(RequestModel):
    """Liveness check; answered at once, even when the pool is busy."""

    type: Literal["ping"]
    id: RequestId


class MarkedBlock(RequestModel):
    """A block the user marked while labeling: its kind and the ids of its elements."""

    kind: Literal["links", "ad"]
    ids: list[str] = Field(default_factory=list, max_length=100_000)
    text: str = Field("", max_length=100_000)


class ExampleRestore(RequestModel):
    """Undo of a delete: the deleted example's number and the date it was saved."""

    example_id: int = Field(ge=1, le=MAX_STORED_INT)
    created: float = Field(ge=0, description="Seconds since the epoch, as examples.get gave it")


@request
class ExamplesSaveRequest(RequestModel):
    """Store a labeled example: the snapshot, the selected main content, marked blocks."""

    type: Literal["examples.save"]
    id: RequestId
    url: str | None = Field(None, max_length=8192)
    html: str
    title: str = Field("", max_length=2000)
    main_ids: list[str] = Field(default_factory=list, max_length=1_000_000,
                                description="Ids of the elements the user kept as main text")
    blocks: list[MarkedBlock] = Field(default_factory=list)
    algorithm: str = Field("", max_length=64, description="The algorithm whose output was "
                                                         "corrected")
    algorithm_output: dict[str, Any] = Field(default_factory=dict)
    id_attr: str = Field(ID_ATTR, max_length=64)
    private: bool = Field(False, description="Private window: the host refuses to store")
    restore: ExampleRestore | None = Field(
        None, description="Undo of a delete: the example keeps its date, and its number "
                          "when that is free (else it gets a new one)")
    main_text: str | None = Field(
        None, description="The label as text, only with no mainIds: an example stored without "
                    "element ids (a dataset's page, one imported from an export without marked "
                    "blocks) that the options page's Undo or Restore earlier label stores again")


@request
class ExamplesListRequest(RequestModel):
    type: Literal["examples.list"]
    id: RequestId
    limit: int = Field(100, ge=1, le=10_000)
    offset: int = Field(0, ge=0, le=MAX_STORED_INT)


@request
class ExamplesGetRequest(RequestModel):
    type: Literal["examples.get"]
    id: RequestId
    example_id: int = Field(le=MAX_STORED_INT)


@request
class ExamplesDeleteRequest(RequestModel):
    type: Literal["examples.delete"]
    id: RequestId
    example_id: int = Field(le=MAX_STORED_INT)


@request
class ExamplesExportRequest(RequestModel):
    """Export every example to a datasets-format file on this machine (never elsewhere)."""

    type: Literal["examples.export"]
    id: RequestId
    path: str | None = Field(None, max_length=4096,
                             description="Target file; default: exports/ in the data dir")
    with_blocks: bool = False


@request
class ExamplesImportRequest(RequestModel):
    """One chunk of a datasets-format file to import (the options page's *Import*; the
    inverse of ``examples.export``). A file goes as an upload: chunk 0 starts it, each next
    chunk is appended in order, and the one marked ``last`` imports the whole file as
    ``blocksift examples import`` does (checked whole first: a bad line adds nothing). A
    chunk out of order, of an unknown upload, not base64 or past the size cap is refused and
    drops the upload; the host keeps serving."""

    type: Literal["examples.import"]
    id: RequestId
    upload_id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                           description="Names the upload: the same in each of its chunks")
    index: int = Field(ge=0, le=MAX_STORED_INT, description="0, 1, 2, ... in order")
    data: str = Field(max_length=IMPORT_CHUNK_MAX_CHARS,
                      description="The chunk's bytes, base64")
    last: bool = Field(False, description="The file's last chunk: import it now")
    on_duplicate: Literal["skip", "replace", "keep"] = Field(
        "skip", description="A record of a page that has an example already: skip it, store "
                            "it instead (the stored one kept restorable), or keep both")
    name: str = Field("", max_length=255, description="The file's own name (chunk 0), for "
                                                      "messages; '.gz': a gzip file")
    size: int | None = Field(None, ge=0, le=MAX_STORED_INT,
                             description="The whole file's bytes (chunk 0), refused at once "
                                         f"past {IMPORT_MAX_BYTES // (1024 * 1024)} MiB")


#: An inclusive run of example ids, ``[first, last]`` (first <= last).
IdRange = Annotated[list[Annotated[int, Field(ge=1, le=MAX_STORED_INT)]],
                    Field(min_length=2, max_length=2)]


def _ordered_ranges(ranges: list[list[int]]) -> list[list[int]]:
    for first, last in ranges:
        if first > last:
            raise ValueError(f"a range of ids is [first, last] with first <= last, not "
                             f"[{first}, {last}]")
    return ranges


@request
class ExamplesUndoImportRequest(RequestModel):
    """Take back one import (the options page's *Undo import*): the ids its
    ``examples.imported`` gave as ``addedRanges``. Each of them still stored is deleted, and
    the earlier label it replaced (``onDuplicate: replace``) is stored again as it was, in one
    transaction; ids deleted or labeled again since are left alone and counted."""

    type: Literal["examples.undoImport"]
    id: RequestId
    ranges: Annotated[list[IdRange], AfterValidator(_ordered_ranges)] = Field(
        min_length=1, max_length=UNDO_IMPORT_MAX_RANGES,
        description="The import's ids as inclusive [first, last] runs (its addedRanges)")


@request
class ExamplesRepairRequest(RequestModel):
    """Keep a damaged examples database aside and rebuild it from what SQLite can read."""

    type: Literal["examples.repair"]
    id: RequestId


@request
class TrainRequest(RequestModel):
    """Retrain a learned algorithm from the captured examples (and optional datasets)."""

    type: Literal["train"]
    id: RequestId
    algorithm: Literal["farsw"] = "farsw"
    use_examples: bool = True
    datasets: list[str] = Field(default_factory=list, max_length=32)


@request
class ExportFolderRequest(RequestModel):
    """Ask for the export folder, or set it (``folder``): the one place exports are written."""

    type: Literal["export.folder"]
    id: RequestId
    folder: str | None = Field(None, max_length=4096,
                               description="Absolute path of an existing folder; omit to ask")


@request
class ExportSaveRequest(RequestModel):
    """Save the reader's article as a new file in the export folder."""

    type: Literal["export.save"]
    id: RequestId
    format: Literal["markdown", "html", "epub"]
    title: str = Field("", max_length=2000)
    html: str = Field(max_length=32 * 1024 * 1024,
                      description="The article's HTML; the host sanitizes it again")
    url: str = Field("", max_length=8192)
    authors: list[str] = Field(default_factory=list, max_length=50)
    published: str = Field("", max_length=40)
    site_name: str = Field("", max_length=500)
    language: str = Field("", max_length=35)
    direction: Literal["", "ltr", "rtl"] = Field(
        "", description="The article's writing direction (the metadata's); '' if unknown")
    price: str = Field("", max_length=100, description=(
        "A product's price as the reader shows it ('$34.00', in the page's language); "
        "'' for none"))


@request
class ExportRenderRequest(ExportSaveRequest):
    """The text export.save would write (Markdown or HTML), returned instead of written:
    the reader's "Copy as Markdown"."""

    type: Literal["export.render"]  # type: ignore[assignment]
    format: Literal["markdown", "html"]  # type: ignore[assignment]


Request = Annotated[Union[tuple(REQUEST_MODELS.values())], Field(discriminator="type")]
REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(Request, config={"defer_build": True})


# -- replies (host -> client) -------------------------------------------------------------


class AlgorithmDescription(WireModel):
    """One algorithm as the hello reply describes it."""

    name: str
    summary: str
    paper: str
    params_schema: dict[str, Any]


class StoreProblem(WireModel):
    """A store SQLite could not read: what was kept aside and how to restore it."""

    store: Literal["sites", "examples"]
    path: str
    problem: str
    state: Literal["replaced", "refused", "repaired"]
    kept_aside: list[str]
    restore: str
    when: str


@reply
class HelloReply(WireModel):
    type: Literal["hello"] = "hello"
    id: str
    protocol: int = PROTOCOL_VERSION
    host_version: str = __version__
    algorithms: list[AlgorithmDescription]
    max_frame_bytes: int = Field(description="Largest request frame the host accepts")
    default_algorithm: str = Field(description="What the host extracts with by default")
    max_reply_bytes: int | None = Field(description="Replies above this arrive as chunks; "
                                                    "null: this transport never chunks")
    store_problems: list[StoreProblem] = Field(
        default_factory=list, description="stores SQLite could not read (tell the user)")
    actions: list[str] = Field(default_factory=lambda: ["extract", "hide"],
                               description="The extract request's actions this host knows")


class Timing(WireModel):
    """Where a reply's time went: waiting for a worker, building the page's tag scan and
    tree, the algorithm itself, and the whole request as the host saw it."""

    queue_ms: float = 0.0
    parse_ms: float = 0.0
    algorithm_ms: float = 0.0
    total_ms: float = 0.0


class PricedIndexItem(IndexItem):
    """One story of an index page as the reader gets it: with a shop's product, the price
    its card shows (blocksift.index_prices)."""

    price: str = Field("", max_length=40, description=(
        "The price the story's card shows, as written ('$34.00'); '' for none or several"))


class ReaderPageSummary(PageSummary):
    """The reader's page summary: :class:`PageSummary` with each story's price."""

    index: list[PricedIndexItem] = Field(default_factory=list,  # type: ignore[assignment]
                                         description="Index pages: the page's stories")
    sells: bool = Field(False, description=(
        "Index pages: the page says it sells (schema.org calls its stories products, an "
        "add-to-cart control, a product page's predicted type; "
        "blocksift.index_prices.sale_cues): its stories are products"))


@reply
class ResultReply(WireModel):
    type: Literal["result"] = "result"
    id: str
    result: ExtractionResult
    hide: HidePlan | None = Field(None, description="With action 'hide': what to hide")
    page: ReaderPageSummary | None = Field(
        None, description="With action 'reader': the page's kind and an index page's stories")
    timing: Timing


@reply
class ErrorReply(WireModel):
    type: Literal["error"] = "error"
    id: str | None = Field(None, description="Request id, when the request could be read")
    code: int
    name: str
    message: str


@reply
class PongReply(WireModel):
    type: Literal["pong"] = "pong"
    id: str


@reply
class CancelledReply(WireModel):
    """Acknowledges a cancel request (the cancelled request itself gets CANCELLED)."""

    type: Literal["cancelled"] = "cancelled"
    id: str
    target: str
    found: bool


@reply
class ChunkReply(WireModel):
    """One piece of a reply too large for one frame; join ``data`` in ``seq`` order."""

    type: Literal["chunk"] = "chunk"
    id: str
    seq: int = Field(ge=0)
    count: int = Field(ge=1)
    data: str


class ExampleSummary(WireModel):
    example_id: int
    url: str | None
    title: str
    created: float
    site: str | None
    main_chars: int
    main_ids: int
    blocks: int
    algorithm: str
    replaces: int | None = Field(None, description="The example of the same page this one "
                                                   "replaced, kept restorable (examples.get)")


@reply
class ExamplesSavedReply(WireModel):
    type: Literal["examples.saved"] = "examples.saved"
    id: str
    example_id: int
    main_chars: int
    replaced: list[int] = Field(default_factory=list,
                                description="Examples of the same page (URL without fragment) "
                                            "this one replaced; examples.get still finds them")


@reply
class ExamplesListReply(WireModel):
    type: Literal["examples.list"] = "examples.list"
    id: str
    items: list[ExampleSummary]
    total: int


@reply
class ExampleItemReply(WireModel):
    type: Literal["examples.item"] = "examples.item"
    id: str
    example: dict[str, Any]


@reply
class ExamplesDeletedReply(WireModel):
    type: Literal["examples.deleted"] = "examples.deleted"
    id: str
    example_id: int
    found: bool


@reply
class ExamplesExportedReply(WireModel):
    type: Literal["examples.exported"] = "examples.exported"
    id: str
    path: str
    count: int
    replaced: bool = Field(False, description="the file held an earlier export, which this one "
                                              "took the place of")


@reply
class ExamplesReceivedReply(WireModel):
    """A chunk of an upload (examples.import) taken; send the next one."""

    type: Literal["examples.received"] = "examples.received"
    id: str
    upload_id: str
    index: int = Field(ge=0)
    bytes: int = Field(ge=0, description="The upload's bytes received so far")


class ImportSkipped(WireModel):
    url: str
    reason: str


@reply
class ExamplesImportedReply(WireModel):
    """What an upload's import did, as ``blocksift examples import`` says it."""

    type: Literal["examples.imported"] = "examples.imported"
    id: str
    upload_id: str
    name: str = Field(description="The file's name, as chunk 0 gave it")
    bytes: int = Field(ge=0)
    added: int = Field(ge=0, description="Examples stored")
    replaced: int = Field(ge=0, description="Stored examples the file's took the place of "
                                            "(kept restorable; onDuplicate 'replace')")
    skipped: list[ImportSkipped] = Field(
        default_factory=list, description=f"The first {MAX_SKIPPED_LISTED} records not "
                                          "imported, each with why")
    skipped_count: int = Field(0, ge=0, description="Every record not imported")
    own_address: int = Field(0, ge=0, description="Records without a 'url' stored under the "
                                                  "address their page names for itself")
    no_address: int = Field(0, ge=0, description="Records stored of no site (no address at "
                                                 "all): they adapt none")
    added_ranges: list[IdRange] | None = Field(
        None, max_length=UNDO_IMPORT_MAX_RANGES,
        description="The added examples' ids as inclusive [first, last] runs (one run: an "
                    "import's ids are consecutive), for examples.undoImport; null when they "
                    f"would take more than {UNDO_IMPORT_MAX_RANGES} runs (no undo offered)")


@reply
class ExamplesImportUndoneReply(WireModel):
    """What examples.undoImport took back."""

    type: Literal["examples.importUndone"] = "examples.importUndone"
    id: str
    removed: int = Field(ge=0, description="Imported examples deleted")
    restored: int = Field(ge=0, description="Earlier labels they had replaced, stored again "
                                            "with their ids and dates")
    missing: int = Field(ge=0, description="Imported ids no longer stored (deleted, or "
                                           "labeled again since): left alone")
    relabeled: int = Field(0, ge=0, description="Of the missing, those a newer label of their "
                                                "page replaced (the newer label stays)")
    missing_ids: list[int] = Field(default_factory=list, description="The first "
                                   f"{MAX_SKIPPED_LISTED} missing ids")


@reply
class ExamplesRepairedReply(WireModel):
    type: Literal["examples.repaired"] = "examples.repaired"
    id: str
    damaged: bool = Field(description="false: the database was readable, nothing was done")
    recovered: int = Field(description="examples copied into the fresh database")
    kept_aside: list[str] = Field(description="the damaged file(s), renamed, never deleted")


@reply
class ProgressReply(WireModel):
    """Progress of a long request (training); ``total`` 0 when unknown."""

    type: Literal["progress"] = "progress"
    id: str
    stage: str
    done: int = 0
    total: int = 0


@reply
class TrainedReply(WireModel):
    type: Literal["trained"] = "trained"
    id: str
    algorithm: str
    model_path: str
    pages: int
    rules: list[str]


@reply
class ExportFolderReply(WireModel):
    """The export folder the user chose (null: none yet)."""

    type: Literal["export.folder"] = "export.folder"
    id: str
    folder: str | None


@reply
class ExportSavedReply(WireModel):
    type: Literal["export.saved"] = "export.saved"
    id: str
    path: str = Field(description="The new file, inside the export folder")
    bytes: int = Field(ge=0)


@reply
class ExportRenderedReply(WireModel):
    type: Literal["export.rendered"] = "export.rendered"
    id: str
    format: Literal["markdown", "html"]
    text: str


Reply = Annotated[Union[tuple(REPLY_MODELS.values())], Field(discriminator="type")]
REPLY_ADAPTER: TypeAdapter[Any] = TypeAdapter(Reply, config={"defer_build": True})


def error(code: ErrorCode, message: str, request_id: str | None = None) -> ErrorReply:
    """An error reply with the code's number and name."""
    return ErrorReply(id=request_id, code=int(code), name=code.name.lower(), message=message)


def json_schema() -> dict[str, Any]:
    """JSON Schema of every request and reply (``blocksift schema``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"blocksift protocol v{PROTOCOL_VERSION}",
        "protocolVersion": PROTOCOL_VERSION,
        "request": REQUEST_ADAPTER.json_schema(by_alias=True),
        "reply": REPLY_ADAPTER.json_schema(by_alias=True),
        "errorCodes": {code.name.lower(): int(code) for code in ErrorCode},
    }
