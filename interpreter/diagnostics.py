"""Compiler-style diagnostics shared by every stage of the interpreter.

A `Diagnostic` names a problem and where it is (`file:line:col`); `render_text`
prints it the way compilers do, with the source line and a caret under the
column; `render_json` gives the same for machines (`--format json`).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# The line breaks YAML (libyaml) counts, so line numbers agree with the parser.
LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in some input, with its position (1-based) if known.

    `code` is a short kebab-case name with a family prefix ("yaml-syntax",
    "schema-unknown-key"); `end_col` (exclusive) widens the caret to a span.
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    end_col: int | None = None
    hint: str | None = None
    severity: str = "error"

    def location(self) -> str:
        """`file:line:col`, leaving out the parts that are unknown."""
        parts = (self.file, self.line, self.col)
        return ":".join(str(part) for part in parts if part is not None)

    def to_dict(self) -> dict:
        """Plain JSON-ready fields; `Diagnostic(**d)` rebuilds the diagnostic."""
        return dataclasses.asdict(self)


class ContentError(Exception):
    """Input that cannot be used; carries every diagnostic found.

    `sources` optionally maps file names to their text, for showing source
    lines of input that was never on disk.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic], *, sources: Mapping[str, str] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(self.diagnostics)

    def __str__(self) -> str:
        return render_text(self.diagnostics, sources=self.sources)


def render_text(diags: Iterable[Diagnostic], *, sources: Mapping[str, str] | None = None) -> str:
    """Render diagnostics as a compiler would, one block per diagnostic.

    Each block is the header `path:line:col: error[code]: message`, then the
    source line (from `sources[file]`, else left out: a file is never read
    again here, since it may not be what the loader read),
    a caret line under the column, and `= hint: ...` when there is a hint.
    """
    lines_by_file: dict[str, list[str] | None] = {}
    blocks = []
    for diag in diags:
        if diag.file is not None and diag.file not in lines_by_file:
            lines_by_file[diag.file] = _source_lines(diag.file, sources)
        blocks.append(_render_one(diag, lines_by_file.get(diag.file)))
    return "\n".join(blocks)


def render_json(diags: Iterable[Diagnostic]) -> str:
    """Diagnostics as a JSON list of `Diagnostic.to_dict()` objects."""
    return json.dumps([diag.to_dict() for diag in diags], indent=2, ensure_ascii=False)


def did_you_mean(word: object, candidates: Iterable[object]) -> str | None:
    """`"did you mean 'x'?"` for the closest candidate to `word`, or None."""
    names = [str(candidate) for candidate in candidates]
    matches = difflib.get_close_matches(str(word), names, n=1)
    return f"did you mean '{matches[0]}'?" if matches else None


def _render_one(diag: Diagnostic, source: list[str] | None) -> str:
    location = diag.location()
    header = f"{diag.severity}[{diag.code}]: {diag.message}"
    out = [f"{location}: {header}" if location else header]
    if source is not None and diag.line is not None and 1 <= diag.line <= len(source):
        text = source[diag.line - 1]
        out.append(f"  {text}")
        if diag.col is not None:
            out.append(f"  {_caret(text, diag.col, diag.end_col)}")
    if diag.hint:
        out.append(f"  = hint: {diag.hint}")
    return "\n".join(out)


def _caret(text: str, col: int, end_col: int | None) -> str:
    """`^` (or `^^^` up to `end_col`) padded to sit under column `col` of `text`."""
    # Tabs stay tabs and wide (East Asian) characters take two cells, so the
    # caret lines up in a terminal whatever the line contains.
    pad = "".join(_blank_like(char) for char in text[: col - 1])
    pad += " " * max(0, col - 1 - len(text))
    width = end_col - col if end_col is not None and end_col > col else 1
    return pad + "^" * width


def _blank_like(char: str) -> str:
    if char == "\t":
        return "\t"
    return "  " if unicodedata.east_asian_width(char) in ("W", "F") else " "


def _source_lines(file: str, sources: Mapping[str, str] | None) -> list[str] | None:
    if sources is None or file not in sources:
        return None
    return LINE_BREAK.split(sources[file])
