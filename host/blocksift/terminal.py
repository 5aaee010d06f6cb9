"""Text for a person's terminal: tables of figures, one table when it fits, else stacked.

A column is as wide as its title or its widest cell. Piped or redirected, every table is
printed whole, one line per row (what a script or a file wants). In a terminal narrower
than the table, the columns are dealt into blocks printed one under the other, each
repeating the key columns (the dataset, the algorithm) so that every line still says what
it is about: eval's 120-column table wrapped every row in a 100-column terminal.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import TextIO


@dataclass
class Column:
    title: str
    cells: list[str] = field(default_factory=list)
    left: bool = False  # text, aligned left (figures align right)
    key: bool = False  # repeated in every block when the table is stacked
    gap: int = 1  # spaces before the column
    group: str = ""  # columns of one group stay in one block when stacked, if they fit

    @property
    def width(self) -> int:
        return max([display_width(self.title), *map(display_width, self.cells)])

    def cell(self, text: str) -> str:
        return pad(text, self.width, left=self.left)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: two for a wide (CJK) character, none for a
    combining mark; ``len()`` counted a Chinese title as half its width."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def clip(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` terminal columns."""
    used = 0
    for index, ch in enumerate(text):
        used += display_width(ch)
        if used > columns:
            return text[:index]
    return text


def pad(text: str, columns: int, left: bool = True) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    fill = " " * max(columns - display_width(text), 0)
    return text + fill if left else fill + text


def figure(value: float | None, known: bool = True, digits: int = 3) -> str:
    """A share or score for a cell; ``-`` when there is none (not a fake 0)."""
    return f"{value:.{digits}f}" if value is not None and known else "-"


def terminal_width(stream: TextIO | None = None) -> int | None:
    """Columns of the terminal ``stream`` (stdout) shows, or None when it is not one."""
    stream = sys.stdout if stream is None else stream
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # closed or replaced by something without a tty
        return None
    with contextlib.suppress(ValueError):
        if int(os.environ.get("COLUMNS", "")) > 0:  # as shutil: the user's $COLUMNS first
            return int(os.environ["COLUMNS"])
    # then the terminal ``stream`` itself shows: shutil asks standard output's, which is a
    # file when the output is redirected (``extract page.html > out.txt``), and says 80
    with contextlib.suppress(AttributeError, ValueError, OSError):
        columns = os.get_terminal_size(stream.fileno()).columns
        if columns > 0:
            return columns
    return shutil.get_terminal_size().columns


def _block(columns: list[Column], rows: int) -> list[str]:
    def line(cells: list[str]) -> str:
        text = ""
        for index, (column, cell) in enumerate(zip(columns, cells)):
            text += (" " * column.gap if index else "") + column.cell(cell)
        return text.rstrip()

    header = line([c.title for c in columns])
    body = [line([c.cells[row] for c in columns]) for row in range(rows)]
    rule_width = max(len(text) for text in [header, *body])
    return [header, "-" * rule_width, *body]


def _span(columns: list[Column]) -> int:
    return sum(c.width for c in columns) + sum(c.gap for c in columns[1:])


def render(columns: list[Column], width: int | None) -> list[str]:
    """The table's lines: whole when ``width`` is None or the table fits in it, else in
    blocks of fewer than ``width`` columns (a single column wider than that gets a block of
    its own), separated by an empty line. A line as wide as the terminal leaves the cursor
    past its end, and some terminals then wrap it onto an empty line, as :func:`say` keeps to
    ``width - 1``: hide's fold table, given a ninth setting, drew 80-column lines in 80."""
    rows = len(columns[0].cells) if columns else 0
    width = None if width is None else width - 1
    if width is None or _span(columns) <= width:
        return _block(columns, rows)
    keys = [c for c in columns if c.key]
    blocks: list[list[Column]] = []
    current: list[Column] = []
    rest = [c for c in columns if not c.key]
    for index, column in enumerate(rest):
        # a group starting here goes whole into the next block when it does not fit in this
        # one but fits in one of its own (clustering's four scores with clustering)
        together = [column]
        if column.group and (not index or rest[index - 1].group != column.group):
            together = [c for c in rest[index:] if c.group == column.group]
        if current and (_span(keys + current + together) > width
                        and _span(keys + together) <= width
                        or _span(keys + current + [column]) > width):
            blocks.append(current)
            current = []
        current.append(column)
    if current:
        blocks.append(current)
    lines: list[str] = []
    for number, block in enumerate(blocks):
        if number:
            lines.append("")
        lines += _block(keys + block, rows)
    return lines


def say(text: str, first: str = "", rest: str = "  ", width: int | None = None,
        stream: TextIO | None = None) -> None:
    """``text`` after ``first`` on one line when piped (a line per item, for grep), wrapped
    at the terminal's ``width`` under the ``rest`` indent in a terminal (long lines wrapped
    mid-word at column 0); to ``stream`` (default standard output)."""
    stream = sys.stdout if stream is None else stream
    if width is None or display_width(first + text) <= width:
        print(first + text, file=stream)
        return
    import textwrap

    print(textwrap.fill(text, width=max(width - 1, 40), initial_indent=first,
                        subsequent_indent=rest, break_on_hyphens=False,
                        break_long_words=False), file=stream)  # a path stays whole


def print_table(columns: list[Column], stream: TextIO | None = None) -> None:
    stream = sys.stdout if stream is None else stream
    for line in render(columns, terminal_width(stream)):
        print(line, file=stream)
