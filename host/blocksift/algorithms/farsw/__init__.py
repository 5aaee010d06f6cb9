"""FAR-SW: fuzzy association rules and a sliding window over HTML lines (seed 004).

Zhan Bu, Chengcui Zhang, Zhengyou Xia, Jiandong Wang, "An FAR-SW based approach for
webpage information extraction" (Information Systems Frontiers, 2014). Implemented:

* §3.1 preprocessing: the text between the ``<body>`` tags, blank lines and redundant
  white-space deleted, "useless" elements removed with their content;
* §3.2 one feature vector per line: A Index (i/N), B TextLength, C OutputTextLength
  (UTF-8 bytes), D Density = C/B, E LinkNum, F ImgNum;
* §3.3 Equations (1)-(3) (MIN/Mean/MAX weighted by alpha = 0.5), the Fig. 3 membership
  functions, Steps 1-5 (scalar cardinality, best region per feature, significance 0.5,
  Apriori at support 0.5, adoption of the rules with the most items);
* §3.4 Steps 6-7: a line is topical when it satisfies an adopted rule; topical lines with at
  most Phi - 1 non-topical lines between them form a block bounded by the non-topical line
  just before and just after (Phi = 5);
* §3.5 Equations (4)-(5): line Score = T + O + D - L - I on normalised features, a block is
  kept when its mean line Score is > 1.5; the kept blocks are the main text.

Decisions where the paper is silent or garbled (each a named :class:`Params` field):

* ``useless_tags`` (§3.1, Table 1 is garbled): script, style, noscript, template, iframe,
  svg, canvas, object, embed and HTML comments are removed with their content.
* ``line_mode`` (§3.2 works on source lines): ``"source"`` keeps the paper's newline lines;
  ``"blocks"`` breaks before every block-level start tag and after every block-level end
  tag; ``"auto"`` (default) keeps source lines and re-splits only a line longer than
  ``long_line_chars`` that way, because minified HTML (and the live DOM of many modern
  pages) puts a whole page on a few lines, where one "line" would hold the whole page. A
  tag is never split across lines (the paper's raw lines can be; counting tags needs them
  whole).
* ``score_normalization`` (§3.5 says only "normalised to [0, 1]"): ``"rank"`` (default)
  maps the two lengths T and O to the fraction of the page's lines with a strictly smaller
  value, so one giant line cannot crush every other line, and divides the two counts L and
  I by the page maximum (most lines have none); ``"max"`` divides all four by the page
  maximum. D is a ratio already in [0, 1].
* ``index_normalization`` (§3.2): Index is i/N by default (the paper's setting for training
  on several sites); the other features stay in bytes and counts.
* Training statistics (Equations (1)-(3)) over several pages: MIN/Mean/MAX are computed per
  page for its topical and non-topical lines and averaged over the training pages (a pooled
  minimum or maximum over hundreds of pages is an outlier, not a template property); on one
  page this is exactly the paper's computation.
* ``page_weighting`` (default ``"pages"``): in Steps 2 and 5 every training page weighs 1,
  shared by its topical lines, so pages with hundreds of hard-wrapped lines do not decide
  the rules alone; ``line_weighting="bytes"`` (off) weighs a line by its output bytes.
* ``fallback_best_block`` (off): keep the best block when none scores above the cutoff.
* ``attach_tag_lines`` (off): join lines holding only tags to the next line with text.
* Support (Step 5) counts the lines whose significant region set contains the item set
  (Table 8: "appears in all the 13 ... support 13/13 = 1"); a line is tested against a rule
  by requiring every item's membership >= ``significance`` (mirrors Step 4).
* ``two_region_bce`` (§4.1, Fig. 7 is missing from the paper): off by default; when on,
  features B, C and E get two regions Low' (1 up to L, 0 from H) and High' = 1 - Low'.
* Training labels: a line is topical when at least ``label_overlap`` of its 4-gram shingles
  (the dataset metric's tokens) occur in the gold text; a line of 1-3 tokens is topical when
  its tokens occur contiguously in the gold.
* Output: the chosen lines' text (one paragraph per line, entities decoded) is
  ``main.text``; ``main.html`` is :func:`blocksift.content.render_main` of the elements lying
  wholly inside a chosen block's span, and the block's ``element_ids`` are those elements.

The package holds one concern a module: ``params`` (settings), ``model`` (model types and
files), ``lines`` (§3.1-3.2), ``rules`` (§3.3), ``window`` (§3.4-3.5), ``training`` (Stage 1)
and ``extract`` (Stage 2); every public name is importable from ``blocksift.algorithms.farsw``.
"""

from __future__ import annotations

from .extract import Analysis, analyse, extract  # noqa: F401
from .lines import END, START, TEXT, Line, PageLines, line_features, page_lines  # noqa: F401
from .model import (  # noqa: F401
    DEFAULT_MODEL_RESOURCE,
    FarswModel,
    FeatureStats,
    ModelError,
    RuleSet,
    TrainingError,
    TrainingSet,
    _host,
    default_model,
    default_model_text,
    load_model,
    save_model,
)
from .params import (  # noqa: F401
    FEATURE_NAMES,
    FEATURES,
    MODEL,
    MODEL_FORMAT_VERSION,
    NAME,
    REGIONS2,
    REGIONS3,
    TWO_REGION_FEATURES,
    Params,
)
from .rules import (  # noqa: F401
    apriori,
    frequent_regions,
    learn_rules,
    membership2,
    membership3,
    memberships,
    regions_of,
    scalar_cardinality,
    significant_transactions,
    topical_flags,
    weighted_stats,
)
from .training import (  # noqa: F401
    TrainingSample,
    format_rules,
    label_lines,
    make_sample,
    train,
    train_from_samples,
    train_ruleset,
)
from .window import block_score, line_scores, sliding_window  # noqa: F401

__all__ = [
    "MODEL",
    "NAME",
    "FarswModel",
    "FeatureStats",
    "ModelError",
    "Params",
    "RuleSet",
    "TrainingError",
    "analyse",
    "apriori",
    "block_score",
    "extract",
    "format_rules",
    "learn_rules",
    "line_features",
    "line_scores",
    "load_model",
    "membership2",
    "membership3",
    "page_lines",
    "save_model",
    "sliding_window",
    "train",
    "train_from_samples",
]
