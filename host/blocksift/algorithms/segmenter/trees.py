"""Gradient-boosted trees evaluated with numpy only, and their saved form.

All trees of an ensemble are packed into flat arrays (one row per node: feature, threshold,
left child, right child, value; leaves point to themselves), so prediction walks every tree
for every row at once: ``max_depth`` steps of fancy indexing, no Python loop over trees or
rows. Per-feature contributions along each row's paths (Saabas) explain a prediction: each
split adds the change of the expected value from a node to the child taken to the split's
feature.

The model file is a ``.npz`` holding the arrays and a JSON header (format version, feature
names, thresholds, training summary).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...paths import write_atomic
from ...speedups import compiled

# The walk compiled (``_trees.pyx``), where the install found a C compiler; the numpy walk
# gives the same leaves. BLOCKSIFT_NO_SPEEDUPS=1 keeps to numpy.
_compiled_trees = compiled("blocksift.algorithms.segmenter._trees",
                           needs=("leaf_states", "leaf_values"))

FORMAT_VERSION = 1
#: A node as the compiled walk reads it (``_trees.pyx``'s ``Node``, C's alignment).
NODE_DTYPE = np.dtype([("threshold", np.float64), ("feature", np.int32), ("left", np.int32),
                       ("right", np.int32), ("nan_left", np.uint8)], align=True)
#: Rows evaluated at once (memory: a few arrays of rows x trees x 8 bytes; 512 rows of 200
#: trees keep them under a megabyte each, and most pages are one chunk).
CHUNK_ROWS = 512
#: ``distinct=True``: walk every row when more than this share of them is distinct (the
#: search for kinds of rows did not pay).
DISTINCT_MAX_SHARE = 0.5


@dataclass
class TreeEnsemble:
    """A sum of regression trees on a raw (logit) scale, as flat node arrays.

    The arrays are read, never changed, after construction: the walk's tables are built
    from them once, in ``__post_init__``."""

    feature: np.ndarray       # int32, -1 at leaves
    threshold: np.ndarray     # float64; go left when x <= threshold
    left: np.ndarray          # int32 absolute node index; leaves point to themselves
    right: np.ndarray
    value: np.ndarray         # float64: leaf value, or the node's expected value
    default_left: np.ndarray  # bool: where NaN goes
    roots: np.ndarray         # int32 root node index of each tree
    depth: int
    feature_names: list[str] = field(default_factory=list)
    n_classes: int = 1        # >1: trees cycle through classes (multiclass softmax)

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_lightgbm_dump(cls, dump: dict[str, Any], feature_names: list[str]
                           ) -> TreeEnsemble:
        """Pack LightGBM's ``Booster.dump_model()`` (numerical splits only)."""
        feature, threshold, left, right, value, default_left, roots = [], [], [], [], [], [], []
        depth = 0

        def add(node: dict, level: int) -> int:
            nonlocal depth
            depth = max(depth, level)
            index = len(feature)
            feature.append(-1)
            threshold.append(0.0)
            left.append(index)
            right.append(index)
            default_left.append(True)
            if "leaf_value" in node:
                value.append(float(node["leaf_value"]))
                return index
            if node.get("decision_type", "<=") != "<=":
                raise ValueError("only numerical '<=' splits are supported")
            value.append(float(node.get("internal_value", 0.0)))
            feature[index] = int(node["split_feature"])
            threshold[index] = float(node["threshold"])
            default_left[index] = bool(node.get("default_left", True))
            left[index] = add(node["left_child"], level + 1)
            right[index] = add(node["right_child"], level + 1)
            return index

        for tree in dump["tree_info"]:
            roots.append(add(tree["tree_structure"], 0))
        return cls(np.asarray(feature, np.int32), np.asarray(threshold, np.float64),
                   np.asarray(left, np.int32), np.asarray(right, np.int32),
                   np.asarray(value, np.float64), np.asarray(default_left, bool),
                   np.asarray(roots, np.int32), depth, list(feature_names),
                   int(dump.get("num_class", 1)))

    # -- evaluating ----------------------------------------------------------------------

    def __post_init__(self) -> None:
        self._build_walk_tables()
        self._bins: list[tuple[int, np.ndarray]] | None = None

    def _build_walk_tables(self) -> None:
        """Node tables of the walk, built once at load: indexed by a *doubled* node index
        (state ``2 * node``), so the child taken is ``children[state + go_left]`` with no
        multiply per step. Leaves split on feature 0 at +inf and point to themselves on both
        sides, so pairs already at a leaf stay there whatever their row holds."""
        inner = self.feature >= 0
        self._inner = np.repeat(inner, 2)
        self._split_feature = np.repeat(np.maximum(self.feature, 0).astype(np.intp), 2)
        self._split_threshold = np.repeat(np.where(inner, self.threshold, np.inf), 2)
        self._nan_left = np.repeat(np.asarray(self.default_left, bool), 2)
        self._children = 2 * np.stack([self.right, self.left], axis=1).ravel().astype(np.intp)
        self._roots = 2 * np.asarray(self.roots, np.intp)
        self._node_value = np.repeat(np.asarray(self.value, np.float64), 2)
        if _compiled_trees is not None:
            nodes = np.zeros(len(self.feature), NODE_DTYPE)
            nodes["threshold"], nodes["feature"] = self.threshold, self.feature
            nodes["left"], nodes["right"] = self.left, self.right
            nodes["nan_left"] = self.default_left
            self._nodes, self._root_nodes = nodes, np.asarray(self.roots, np.int32)
            self._leaf_value = np.ascontiguousarray(self.value, np.float64)

    def _walk(self, x: np.ndarray) -> np.ndarray:
        """Doubled leaf index (``2 * node``) of every (row, tree), flat in row-major order:
        compiled where it was built, else in numpy (:meth:`_walk_numpy`)."""
        if _compiled_trees is None:
            return self._walk_numpy(x)
        out = np.empty(len(x) * len(self._roots), dtype=np.intp)
        _compiled_trees.leaf_states(x, self._root_nodes, self._nodes, out)
        return out

    def _leaf_values(self, x: np.ndarray) -> np.ndarray:
        """The value of the leaf of every (row, tree), shape (rows, trees): compiled straight
        from the walk where it was built (no index array between), else taken by index."""
        if _compiled_trees is None:
            return self._node_value.take(self._walk(x)).reshape(len(x), len(self._roots))
        out = np.empty((len(x), len(self._roots)))
        _compiled_trees.leaf_values(x, self._root_nodes, self._nodes, self._leaf_value,
                                    out.reshape(-1))
        return out

    def _walk_numpy(self, x: np.ndarray) -> np.ndarray:
        """Doubled leaf index (``2 * node``) of every (row, tree), flat in row-major order.

        Level by level over all (row, tree) pairs at once; every other level the pairs
        already at a leaf drop out when they are a fifth or more of those left, so the work
        follows the paths' lengths rather than the deepest tree's depth. Each step is a few
        whole-array numpy calls (``take`` without ``out=``, which would copy to check
        bounds; ``compress`` rather than boolean indexing, which is slower).
        """
        flat_x = x.reshape(-1)
        n_rows, n_trees = len(x), len(self._roots)
        has_nan = bool(np.isnan(flat_x).any())
        out = np.empty(n_rows * n_trees, dtype=np.intp)
        position = np.arange(n_rows * n_trees)
        state = np.tile(self._roots, n_rows)
        row_start = np.repeat(np.arange(n_rows, dtype=np.intp) * (x.shape[1] if n_rows else 0),
                              n_trees)
        for level in range(self.depth):
            if level % 2 == 1:
                inner = self._inner.take(state)
                left = np.count_nonzero(inner)
                if left < 0.8 * len(state):
                    out[position] = state
                    position = position.compress(inner)
                    state = state.compress(inner)
                    row_start = row_start.compress(inner)
                    if not left:
                        break
            index = self._split_feature.take(state)
            index += row_start
            values = flat_x.take(index)
            go_left = values <= self._split_threshold.take(state)
            if has_nan:
                go_left = np.where(np.isnan(values), self._nan_left.take(state), go_left)
            state += go_left
            state = self._children.take(state)
        out[position] = state
        return out

    def _leaves(self, x: np.ndarray) -> np.ndarray:
        """Leaf node index of every (row, tree)."""
        x = np.ascontiguousarray(x, dtype=np.float64)
        return (self._walk(x) >> 1).reshape(len(x), len(self.roots))

    def split_bins(self) -> list[tuple[int, np.ndarray]]:
        """Per feature some split uses: (its column, its distinct thresholds in order)."""
        if self._bins is None:
            inner = self.feature >= 0
            columns = self.feature[inner]
            thresholds = self.threshold[inner]
            self._bins = [(int(f), np.unique(thresholds[columns == f]))
                          for f in np.unique(columns).tolist()]
        return self._bins

    def distinct_rows(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Rows that every split sends the same way, found once: (index of one row of each
        kind, the kind of every row), or None when most rows differ.

        A row's kind is, per feature a split uses, which gap between that feature's
        thresholds its value falls in (NaN its own gap): two rows of one kind take the same
        branch at every node of every tree, so they get the same score exactly.
        """
        return kinds(gaps(x, self.split_bins()))

    def raw(self, x: np.ndarray, distinct: bool = False) -> np.ndarray:
        """Raw scores: (rows,) for binary, (rows, classes) for multiclass.

        Rows go in chunks, so memory stays bounded on a page of a million blocks.
        ``distinct``: first find the kinds of rows (:meth:`distinct_rows`) and walk each kind
        once; the scores are the same. It pays on long pages that repeat a few kinds of
        block thousands of times, and costs a few milliseconds where rows differ.
        """
        x = np.asarray(x, dtype=np.float64)
        if distinct and len(x):
            found = self.distinct_rows(x)
            if found is not None:
                first, kind = found
                return self._raw(x[first])[kind]
        return self._raw(x)

    def _raw(self, x: np.ndarray) -> np.ndarray:
        shape = (len(x),) if self.n_classes == 1 else (len(x), self.n_classes)
        out = np.zeros(shape)
        for start in range(0, len(x), CHUNK_ROWS):
            part = np.ascontiguousarray(x[start:start + CHUNK_ROWS])
            leaf_values = self._leaf_values(part)
            if self.n_classes == 1:
                out[start:start + len(part)] = leaf_values.sum(axis=1)
            else:
                out[start:start + len(part)] = leaf_values.reshape(
                    len(part), -1, self.n_classes).sum(axis=1)
        return out

    def predict(self, x: np.ndarray, distinct: bool = False) -> np.ndarray:
        """Probabilities: sigmoid (binary) or softmax (multiclass) of :meth:`raw`."""
        raw = self.raw(x, distinct)
        if self.n_classes == 1:
            return 1.0 / (1.0 + np.exp(-raw))
        raw = raw - raw.max(axis=1, keepdims=True)
        e = np.exp(raw)
        return e / e.sum(axis=1, keepdims=True)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Saabas contributions (rows, features) of a binary model's raw score.

        Each split on the path adds ``value(child) - value(node)`` to the split's feature;
        the row's raw score is the sum of the roots' values and its contributions. Pairs
        (row, tree) at a leaf add nothing and drop out; the others are summed per level in
        the same order as when every pair walks the full depth.
        """
        x = np.asarray(x, dtype=np.float64)
        width = len(self.feature_names) or int(self.feature.max()) + 1
        n_trees = len(self._roots)
        out = np.zeros((len(x), width))
        for start in range(0, len(x), CHUNK_ROWS):
            part = np.ascontiguousarray(x[start:start + CHUNK_ROWS])
            flat_x = part.reshape(-1)
            has_nan = bool(np.isnan(flat_x).any())
            pair_rows = np.repeat(np.arange(len(part), dtype=np.intp), n_trees)
            state = np.tile(self._roots, len(part))
            x_start = pair_rows * part.shape[1]
            same_width = part.shape[1] == width
            cell_start = x_start if same_width else pair_rows * width
            flat = np.zeros(len(part) * width)
            for _ in range(self.depth):
                inner = self._inner.take(state)
                left = np.count_nonzero(inner)
                if left < len(state):  # leaves point to themselves: no delta, no feature
                    state = state.compress(inner)
                    x_start = x_start.compress(inner)
                    cell_start = (x_start if same_width
                                  else cell_start.compress(inner))
                    if not left:
                        break
                feat = self._split_feature.take(state)
                values = flat_x.take(feat + x_start)
                go_left = values <= self._split_threshold.take(state)
                if has_nan:
                    go_left = np.where(np.isnan(values), self._nan_left.take(state), go_left)
                nxt = self._children.take(state + go_left)
                flat += np.bincount(feat + cell_start,
                                    weights=self._node_value.take(nxt)
                                    - self._node_value.take(state),
                                    minlength=len(flat))
                state = nxt
            out[start:start + len(part)] = flat.reshape(len(part), width)
        return out

    # -- saving --------------------------------------------------------------------------

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The node arrays under ``prefix`` (for one ``.npz`` holding several ensembles)."""
        return {f"{prefix}.feature": self.feature, f"{prefix}.threshold": self.threshold,
                f"{prefix}.left": self.left, f"{prefix}.right": self.right,
                f"{prefix}.value": self.value, f"{prefix}.default_left": self.default_left,
                f"{prefix}.roots": self.roots}

    def header(self) -> dict[str, Any]:
        return {"depth": self.depth, "n_classes": self.n_classes,
                "feature_names": self.feature_names}

    @classmethod
    def from_arrays(cls, data: Any, prefix: str, header: dict[str, Any]) -> TreeEnsemble:
        return cls(data[f"{prefix}.feature"], data[f"{prefix}.threshold"],
                   data[f"{prefix}.left"], data[f"{prefix}.right"], data[f"{prefix}.value"],
                   data[f"{prefix}.default_left"], data[f"{prefix}.roots"],
                   int(header["depth"]), list(header["feature_names"]),
                   int(header.get("n_classes", 1)))


class ModelError(ValueError):
    """A model file that cannot be read (missing, corrupt, other format version)."""


def gaps(x: np.ndarray, bins: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """Per row of ``x`` and (column, thresholds) of ``bins``: which gap between the
    thresholds the row's value falls in (-1: NaN)."""
    # rarely NaN: one look at the whole matrix spares one per column
    return column_gaps(lambda column: x[:, column], bins, len(x),
                       has_nan=bool(np.isnan(x).any()))


def column_gaps(read: Callable[[int], np.ndarray], bins: list[tuple[int, np.ndarray]],
                n_rows: int, has_nan: bool = True) -> np.ndarray:
    """:func:`gaps` of ``n_rows`` rows whose columns ``read(column)`` gives one at a time
    (``has_nan`` False: no column holds NaN)."""
    codes = np.empty((n_rows, len(bins)), dtype=np.int32)
    for j, (column, edges) in enumerate(bins):
        values = read(column)
        if n_rows and (values == values[0]).all():  # one value, not NaN: one search
            codes[:, j] = np.searchsorted(edges, values[0], side="left")
            continue
        codes[:, j] = np.searchsorted(edges, values, side="left")
        if has_nan:
            codes[np.isnan(values), j] = -1
    return codes


def union_bins(ensembles: list[TreeEnsemble], n_columns: int) -> list[tuple[int, np.ndarray]]:
    """The thresholds of every ensemble's splits on each of the first ``n_columns`` columns
    together: rows in one gap of these are in one gap of each ensemble's."""
    edges: dict[int, list[np.ndarray]] = {}
    for ensemble in ensembles:
        for column, thresholds in ensemble.split_bins():
            if column < n_columns:
                edges.setdefault(column, []).append(thresholds)
    return [(column, np.unique(np.concatenate(parts))) for column, parts in sorted(edges.items())]


def kinds(codes: np.ndarray, max_share: float = DISTINCT_MAX_SHARE
          ) -> tuple[np.ndarray, np.ndarray] | None:
    """Rows of equal ``codes`` (:func:`gaps`): (index of the first row of each kind, the kind
    of every row), or None when more than ``max_share`` of the rows differ.

    Kinds are told apart by a 64-bit hash of the codes (fixed odd weights, so runs are
    repeatable), and checked against the codes themselves: a collision walks every row.
    """
    if not len(codes):
        return None
    keys = codes.astype(np.uint64) @ _hash_weights(codes.shape[1])  # wraps modulo 2**64
    _, first, kind = np.unique(keys, return_index=True, return_inverse=True)
    if len(first) > max_share * len(codes):
        return None
    kind = kind.reshape(-1)
    if not np.array_equal(codes[first][kind], codes):
        return None
    return first, kind


def _hash_weights(count: int) -> np.ndarray:
    return np.random.default_rng(0).integers(
        1, 2**63, size=count, dtype=np.int64).astype(np.uint64) | np.uint64(1)


def save(path: Path | str, ensembles: dict[str, TreeEnsemble], meta: dict[str, Any]) -> Path:
    """Write ensembles and ``meta`` to one compressed ``.npz`` (deterministic bytes)."""
    path = Path(path)
    header = {"format": "blocksift-segmenter", "version": FORMAT_VERSION, "meta": meta,
              "ensembles": {name: e.header() for name, e in ensembles.items()}}
    arrays: dict[str, np.ndarray] = {}
    for name, ensemble in ensembles.items():
        arrays.update(ensemble.arrays(name))
    arrays["header"] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    path.parent.mkdir(parents=True, exist_ok=True)
    # whole or not at all: a crash or Ctrl-C mid-write leaves the earlier model as it was; a
    # model keeps the mode of the one it replaces, a new one is 0644
    return write_atomic(path, buffer.getvalue(), mode=0o644)


def load(path: Path | str) -> tuple[dict[str, TreeEnsemble], dict[str, Any]]:
    """Read a model file written by :func:`save`: ensembles by name and the meta dict."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            if header.get("format") != "blocksift-segmenter":
                raise ModelError(f"{path}: not a segmenter model")
            if header.get("version") != FORMAT_VERSION:
                raise ModelError(f"{path}: model format {header.get('version')}, "
                                 f"this host reads {FORMAT_VERSION}")
            ensembles = {name: TreeEnsemble.from_arrays(data, name, h)
                         for name, h in header["ensembles"].items()}
    except (OSError, KeyError, ValueError) as exc:
        if isinstance(exc, ModelError):
            raise
        raise ModelError(f"{path}: cannot read the model ({exc})") from exc
    return ensembles, header.get("meta", {})
