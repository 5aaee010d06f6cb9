"""blocksift: link blocks, main text and labeled examples from four published extractors."""

__version__ = "0.1.0"
