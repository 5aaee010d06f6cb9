"""The optional compiled part of the package: the segmenter walk's loop (``_walk.pyx``), the
trees' walk (``_trees.pyx``), the tag scan's loop (``_rawscan.pyx``), FAR-SW's lines
(``farsw/_lines.pyx``), linkblocks' link scan (``_linkblocks.pyx``), auto-rules' text measure
(``_auto_rules.pyx``) and two checks of the raw page before its parse (``_rawchecks.pyx``).
Everything else is in pyproject.toml.

The extensions are optional (``optional=True``): where no C compiler is found the install
goes on, and the same code runs in Python and numpy, giving the same features and scores,
only slower (docs/scale.md). The walk reads lxml's nodes through lxml's public C API and headers
(``lxml.get_include()``) and calls no libxml2 function itself.
"""

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

WALK = Extension("blocksift.algorithms.segmenter._walk",
                 ["host/blocksift/algorithms/segmenter/_walk.pyx"],
                 include_dirs=lxml.get_include())
TREES = Extension("blocksift.algorithms.segmenter._trees",
                  ["host/blocksift/algorithms/segmenter/_trees.pyx"])
RAW_CHECKS = Extension("blocksift._rawchecks", ["host/blocksift/_rawchecks.pyx"])
RAW_SCAN = Extension("blocksift._rawscan", ["host/blocksift/_rawscan.pyx"])
FARSW_LINES = Extension("blocksift.algorithms.farsw._lines",
                        ["host/blocksift/algorithms/farsw/_lines.pyx"])
LINK_SCAN = Extension("blocksift.algorithms._linkblocks",
                      ["host/blocksift/algorithms/_linkblocks.pyx"])
RULES_TEXT = Extension("blocksift.algorithms._auto_rules",
                       ["host/blocksift/algorithms/_auto_rules.pyx"])

EXTENSIONS = cythonize([WALK, TREES, RAW_CHECKS, RAW_SCAN, FARSW_LINES, LINK_SCAN,
                        RULES_TEXT], language_level=3, quiet=True,
                       include_path=["host"])  # the .pxd the scans share
for extension in EXTENSIONS:  # after cythonize, whose copies drop the flag
    extension.optional = True

setup(ext_modules=EXTENSIONS)
