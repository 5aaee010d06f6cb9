"""The extractors, one module each; this registry knows them by name without importing them.

Every algorithm module exposes the same contract:

* ``NAME`` -- its registry name;
* ``Params`` -- a frozen pydantic model whose defaults are the paper's values;
* ``MODEL`` -- ``None``, ``"site"`` (learned per site: clustering) or ``"trained"`` (farsw);
* ``extract(page, params, model=None) -> ExtractionResult`` -- a pure function of the
  parsed :class:`~blocksift.page.Page`, the params and (for learned algorithms) the model.

Transports, storage, CLI and evaluation depend on this package, never the reverse.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class AlgorithmInfo:
    """Where an algorithm lives and what it is, known before it is imported."""

    name: str
    module: str
    summary: str
    paper: str

    def load(self) -> ModuleType:
        """Import the algorithm's module (lazily: the host starts without it)."""
        return importlib.import_module(self.module)


ALGORITHMS: dict[str, AlgorithmInfo] = {
    info.name: info
    for info in (
        AlgorithmInfo("auto", "blocksift.algorithms.auto",
                      "Main text for the reader view: a learned block segmenter (main, links, "
                      "comments, ad, other) over the four papers' signals and page structure",
                      "combination; see docs/auto.md"),
        AlgorithmInfo("auto-rules", "blocksift.algorithms.auto_rules",
                      "The earlier hand-tuned auto: readability-style scoring, structural "
                      "hints, landmark pruning, headline and title",
                      "combination; see docs/auto.md"),
        AlgorithmInfo("linkblocks", "blocksift.algorithms.linkblocks",
                      "Logical link blocks from one scan of the raw HTML",
                      "seeds 000 and 001 (Wang et al., logical link blocks)"),
        AlgorithmInfo("linkdensity", "blocksift.algorithms.linkdensity",
                      "Level-by-level link-density search of the tag tree",
                      "seed 003 (Gunasundari and Karthikeyan, content extraction by links)"),
        AlgorithmInfo("clustering", "blocksift.algorithms.clustering",
                      "Per-site template clustering and block density H(b)",
                      "seed 002 (Wang, Chen and Dai, extraction by webpage clustering)"),
        AlgorithmInfo("farsw", "blocksift.algorithms.farsw",
                      "Fuzzy association rules and a sliding window over HTML lines",
                      "seed 004 (Bu et al., FAR-SW)"),
    )
}

DEFAULT_ALGORITHM = "auto"


class UnknownAlgorithm(KeyError):
    """No algorithm of that name is registered or installed."""


def names() -> list[str]:
    """Names of the algorithms whose module is present, in registry order."""
    available = []
    for name, info in ALGORITHMS.items():
        if importlib.util.find_spec(info.module) is not None:
            available.append(name)
    return available


def load(name: str) -> ModuleType:
    """The module of algorithm ``name``; :class:`UnknownAlgorithm` when there is none."""
    info = ALGORITHMS.get(name)
    if info is None or importlib.util.find_spec(info.module) is None:
        raise UnknownAlgorithm(name)
    return info.load()


def make_params(name: str, values: dict[str, Any] | None = None) -> Any:
    """Validate ``values`` against the algorithm's ``Params`` (raises ``ValidationError``)."""
    params_cls = load(name).Params
    return params_cls.model_validate(values or {})


def text_without_spans(module: ModuleType, params: Any, model: Any) -> bool:
    """Whether ``module`` can read a text-only page parsed without spans
    (``Page(spans=False)``) with these params and model (its ``text_without_spans``)."""
    decide = getattr(module, "text_without_spans", None)
    return decide is not None and bool(decide(params, model))


def params_problems(error: Any) -> str:
    """A pydantic ``ValidationError`` of an algorithm's params in one line a user reads:
    ``field: message; ...`` (a rule between fields is named ``params``)."""
    return "; ".join(
        f"{'.'.join(map(str, e['loc'])) or 'params'}: "
        f"{e['msg'].removeprefix('Value error, ')}" for e in error.errors())


def params_schema(name: str) -> dict[str, Any]:
    """JSON Schema of the algorithm's params, defaults included."""
    return load(name).Params.model_json_schema()


__all__ = ["ALGORITHMS", "AlgorithmInfo", "DEFAULT_ALGORITHM", "UnknownAlgorithm", "load",
           "make_params", "names", "params_problems", "params_schema"]
