"""The FAR-SW model: learned statistics and rules (§3.3), per-site rule sets, model files."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...paths import write_atomic
from ...sites import site_key
from .params import MODEL_FORMAT_VERSION, NAME

# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------


class FeatureStats(BaseModel):
    """MIN, Mean and MAX of one feature, Equations (1)-(3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min: float
    mean: float
    max: float


class RuleSet(BaseModel):
    """What Steps 1-5 learn from one training set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stats: dict[str, FeatureStats] = Field(description="Per feature letter A-F")
    frequent_regions: dict[str, float] = Field(description="Table 6: item -> scalar cardinality")
    rules: list[list[str]] = Field(description="Adopted rules (highest order), items like "
                                   "'A.Middle'")
    support: dict[str, float] = Field(default_factory=dict,
                                      description="Support of each adopted rule")
    pages: int = 0
    lines: int = 0
    topical_lines: int = 0


class TrainingSet(BaseModel):
    """Where a model's rules came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: str = ""
    pages: int = 0
    sites: int = 0
    sha256: str = Field("", description="Hash of the training pages (ids, HTML, gold), in order")


class FarswModel(BaseModel):
    """A trained FAR-SW model: one inter-site rule set, optionally one per site."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format_version: int = MODEL_FORMAT_VERSION
    algorithm: Literal["farsw"] = NAME
    params: dict[str, Any] = Field(description="Feature-shaping params used in training")
    ruleset: RuleSet
    sites: dict[str, RuleSet] = Field(default_factory=dict,
                                      description="Per-site rule sets (train --per-site)")
    training: TrainingSet = Field(default_factory=TrainingSet)

    def to_json(self) -> str:
        """Deterministic JSON (sorted keys, fixed float rounding)."""
        return json.dumps(self.model_dump(mode="json"), indent=1, sort_keys=True,
                          ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> FarswModel:
        """Parse a model; :class:`ModelError` on a bad or newer file."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ModelError(f"model is not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise ModelError("model must be a JSON object")
        version = data.get("format_version")
        if version != MODEL_FORMAT_VERSION:
            raise ModelError(f"model format {version!r} is not supported "
                             f"(this version reads {MODEL_FORMAT_VERSION})")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ModelError(f"invalid model: {exc}") from exc

    def ruleset_for(self, url: str | None) -> tuple[RuleSet, str]:
        """The per-site rule set matching ``url``'s host, else the inter-site one."""
        if self.sites and url:
            host = _host(url)
            if host:
                for site in sorted(self.sites, key=len, reverse=True):
                    # a site recorded by hand or by an older version: read it as a key
                    key = site_key(f"//{site}") or site
                    if host == key or host.endswith("." + key):
                        return self.sites[site], site
        return self.ruleset, ""


class ModelError(ValueError):
    """A model file cannot be used."""


class TrainingError(ValueError):
    """The training data yields no usable rules."""


def _host(url: str) -> str:
    """The site of ``url`` (:func:`blocksift.sites.site_key`), "" when it has none."""
    return site_key(url) or ""




# --------------------------------------------------------------------------------------------
# Model files
# --------------------------------------------------------------------------------------------

DEFAULT_MODEL_RESOURCE = "farsw-default.json"


def default_model_text() -> str:
    """The packaged default inter-site model (trained on the dev datasets)."""
    return (resources.files("blocksift") / "data" / DEFAULT_MODEL_RESOURCE).read_text("utf-8")


@lru_cache(maxsize=1)
def default_model() -> FarswModel:
    """The packaged default model, parsed once per process."""
    return FarswModel.from_json(default_model_text())


def load_model(path: Path | str | None = None) -> FarswModel:
    """A model from ``path``; None: the user's model if it exists, else the packaged one."""
    if path is None:
        from ...paths import model_path

        user = model_path(NAME)
        if user.is_file():
            return FarswModel.from_json(user.read_text("utf-8"))
        return FarswModel.from_json(default_model_text())
    try:
        return FarswModel.from_json(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise ModelError(f"{path}: {exc.strerror or exc}") from exc


def save_model(model: FarswModel, path: Path | str) -> Path:
    """Write ``model`` as JSON, whole or not at all (a crash or a full disk during
    ``train farsw`` leaves the earlier model; two trainings never share a temporary)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, model.to_json())
