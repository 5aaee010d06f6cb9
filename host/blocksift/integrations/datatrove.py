"""blocksift in datatrove pipelines: a WARC reader and an extractor step.

``pip install 'blocksift[datatrove]'``. A FineWeb-style pipeline with blocksift in place of
trafilatura::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter
    from blocksift.integrations.datatrove import BlocksiftExtractor, BlocksiftWarcReader

    LocalPipelineExecutor(pipeline=[
        BlocksiftWarcReader("crawl/", glob_pattern="*.warc.gz"),
        BlocksiftExtractor(algorithm="auto"),
        JsonlWriter("out/"),
    ], tasks=8, workers=8, logging_dir="logs/").run()

:class:`BlocksiftExtractor` subclasses datatrove's ``BaseExtractor``, so each page runs in
its per-document timeout sandbox (a child process killed and replaced on timeout); it works
unchanged under ``LocalPipelineExecutor``, ``SlurmPipelineExecutor`` and
``RayPipelineExecutor``. :class:`BlocksiftWarcReader` reads with FastWARC and the same
decoding and record accounting as ``blocksift batch --warc``; datatrove's own
``WarcReader`` also works in front of the extractor.
"""

from __future__ import annotations

from typing import Any

from datatrove.data import DocumentsPipeline
from datatrove.io import DataFolderLike
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.pipeline.readers.base import BaseDiskReader
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

from ..crawl import PageExtractor
from ..warc import DEFAULT_MAX_BYTES, Skip, WarcCounts, iter_warc


class BlocksiftExtractor(BaseExtractor):
    """Main text of each document's HTML with a blocksift algorithm.

    Options mirror ``blocksift batch``: ``algorithm`` (``--algo``), ``params`` (``--param``)
    and ``model_path`` (a trained model, for algorithms that learn one). ``timeout`` is
    datatrove's per-document limit in seconds (its default of 1 s is tight for long pages,
    and a timeout restarts the sandbox, which reloads the model).

    Beyond ``doc.text``, the step sets ``doc.metadata["title"]`` and
    ``doc.metadata["extraction_status"]`` (``ok``, ``empty``, ``not_suitable``). Documents
    whose text comes out empty are dropped, as datatrove's extractors do.
    """

    name = "🧹 blocksift"

    def __init__(self, algorithm: str = "auto", params: dict[str, Any] | None = None,
                 model_path: str | None = None, timeout: float = 5.0):
        super().__init__(timeout)
        self.extractor = PageExtractor(algorithm, params, model_path)  # fails fast if invalid

    def extract(self, text: str) -> str:
        """The main text of the HTML ``text`` (datatrove's extractor interface)."""
        return self.extractor(text)["text"]

    def extract_fields(self, html: str, url: str | None = None) -> dict[str, Any]:
        """Title, text and status of one page; runs inside the sandbox's child process."""
        return self.extractor(html, url)

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1
            ) -> DocumentsPipeline:
        """``BaseExtractor.run`` passing the URL in and the title out, in the same sandbox."""
        with ExtractorSandbox(timeout=self.timeout, warmup_text=("", None)) as sandbox:
            for doc in data:
                self.stat_update(StatHints.total)
                with self.track_time():
                    try:
                        fields = sandbox.process_document((doc.text, doc.metadata.get("url")),
                                                          self.extract_fields)
                        self.stat_update("extracted")
                    except TimeoutError:
                        self.stat_update("timeout")
                        logger.warning("⏰ Timeout while extracting a page. Skipping record.")
                        continue
                    except EOFError:
                        self.stat_update("broken_process")
                        logger.warning("Extractor process died, a new one takes the next page")
                        continue
                    except Exception as exc:  # one bad page must not stop the task
                        self.stat_update("clean_error")
                        if not self._warned_error:
                            logger.warning(f'❌ Error "{exc}" while extracting a page. Skipping '
                                           f"record. This message will only appear once.")
                            self._warned_error = True
                        continue
                doc.text = fields["text"]
                doc.metadata["title"] = fields["title"]
                doc.metadata["extraction_status"] = fields["status"]
                if doc.text:
                    self.stat_update(StatHints.forwarded)
                    self.update_doc_stats(doc)
                    yield doc
                else:
                    self.stat_update(StatHints.dropped)


class BlocksiftWarcReader(BaseDiskReader):
    """HTML responses of WARC files as documents (text = decoded HTML, id = WARC-Record-ID).

    Reads with FastWARC, decodes with the HTTP charset then ``<meta>``, resumes after a
    damaged gzip member, and counts every record in the step's stats: ``records``,
    ``documents`` and one ``skipped: <reason>`` per reason (not-html, truncated, ...), so
    ``records = documents + skipped`` in each task's stats file. Metadata: ``url``, ``date``,
    ``http_status``, ``content_type``, ``charset``, ``warc_file``, ``offset``.
    """

    name = "🕷 blocksift WARC"
    _requires_dependencies = ["fastwarc"]

    def __init__(self, data_folder: DataFolderLike, paths_file: Any = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, limit: int = -1, skip: int = 0,
                 file_progress: bool = False, doc_progress: bool = False,
                 default_metadata: dict | None = None, recursive: bool = True,
                 glob_pattern: str | None = None, shuffle_files: bool = False):
        super().__init__(data_folder, paths_file, limit, skip, file_progress, doc_progress,
                         None, "text", "id", default_metadata, recursive, glob_pattern,
                         shuffle_files)
        self.max_bytes = max_bytes

    def read_file(self, filepath: str) -> DocumentsPipeline:
        counts = WarcCounts()
        index = 0
        try:
            for item in iter_warc(filepath, self.max_bytes, counts, opener=self.data_folder.open):
                if isinstance(item, Skip):
                    self.stat_update(f"skipped: {item.reason}")
                    continue
                document = self.get_document_from_dict(
                    {"text": item.html, "id": item.record_id, "url": item.url, **item.metadata},
                    filepath, index)
                index += 1
                if document is not None:
                    yield document
        finally:
            self.stat_update("records", value=counts.records, unit="input_file")
