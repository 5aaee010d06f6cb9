"""The optional compiled part of the package: the segmenter walk's loop (``_walk.pyx``).
Everything else is in pyproject.toml.

The extension is optional (``optional=True``): where no C compiler is found the install
goes on, and the same loop runs in Python, giving the same features, only slower
(docs/scale.md). It reads lxml's nodes through lxml's public C API and headers
(``lxml.get_include()``) and calls no libxml2 function itself.
"""

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

WALK = Extension("blocksift.algorithms.segmenter._walk",
                 ["host/blocksift/algorithms/segmenter/_walk.pyx"],
                 include_dirs=lxml.get_include())

EXTENSIONS = cythonize([WALK], language_level=3, quiet=True)
for extension in EXTENSIONS:  # after cythonize, whose copies drop the flag
    extension.optional = True

setup(ext_modules=EXTENSIONS)
