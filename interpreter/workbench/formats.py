"""Diagnostics for editors and CI: coloured text, GitHub annotations and SARIF 2.1.0.

Each renderer takes the same ``Diagnostic`` list as ``diagnostics.render_text``
and ``render_json``; nothing here finds problems, it only says them.
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from ..diagnostics import Diagnostic

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {"error": "error", "warning": "warning", "note": "note"}

_HEADER = re.compile(r"^(\S*?: )?(error|warning|note)(\[[^\]]+\])(: )", re.M)
_CARET = re.compile(r"^(\s*)(\^+)$", re.M)
_COLOURS = {"error": "31;1", "warning": "33;1", "note": "36;1"}


def use_colour(stream) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def colour(text: str) -> str:
    """``render_text`` output with the severity and the carets in ANSI colours."""
    def header(m):
        where, severity, code, sep = m.groups()
        return (f"\x1b[1m{where or ''}\x1b[0m\x1b[{_COLOURS[severity]}m{severity}\x1b[0m"
                f"\x1b[1m{code}\x1b[0m{sep}")
    text = _HEADER.sub(header, text)
    return _CARET.sub(lambda m: f"{m.group(1)}\x1b[32;1m{m.group(2)}\x1b[0m", text)


def summary(diags: list[Diagnostic], left_out: int = 0) -> list[str]:
    """The closing lines: how many of each kind (when more than one kind), then the total."""
    kinds = Counter(d.code for d in diags)
    lines = []
    if len(kinds) > 1:
        lines.append("by kind: " + ", ".join(f"{n} {code}" for code, n in
                                             sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))))
    if left_out:
        lines.append(f"({left_out} more that only follow from these were left out)")
    lines.append(f"{len(diags)} problem(s)")
    return lines


# ---------------------------------------------------------------- GitHub

def github(diags: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands: one ``::error file=...,line=...::message`` per problem."""
    lines = []
    for d in diags:
        props = {"file": d.file, "line": d.line, "col": d.col, "endColumn": d.end_col,
                 "title": f"rulebook {d.code}"}
        shown = ",".join(f"{k}={_escape(str(v), True)}" for k, v in props.items() if v is not None)
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{_github_level(d.severity)} {shown}::{_escape(message)}")
    return "\n".join(lines)


def _github_level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "notice")


def _escape(text: str, prop: bool = False) -> str:
    """The escapes of GitHub's workflow commands (``%``, line breaks; in properties ``:`` and ``,``)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


# ---------------------------------------------------------------- SARIF

def sarif(diags: list[Diagnostic], version: str, root: Path | None = None) -> str:
    """A SARIF 2.1.0 log with one run of the ``rulebook`` tool (for code scanning)."""
    codes = sorted({d.code for d in diags})
    rules = [{"id": code, "name": _rule_name(code), "shortDescription": {"text": code}}
             for code in codes]
    results = [_result(d, codes.index(d.code), root or Path.cwd()) for d in diags]
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "rulebook", "version": version, "rules": rules}},
                     "columnKind": "unicodeCodePoints", "results": results}]}
    return json.dumps(log, indent=2, ensure_ascii=False)


def _rule_name(code: str) -> str:
    """``dsl-unknown-name`` -> ``DslUnknownName`` (SARIF rule names are identifiers)."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", code) if part) or "Problem"


def _result(d: Diagnostic, index: int, root: Path) -> dict:
    text = d.message + (f" (hint: {d.hint})" if d.hint else "")
    result = {"ruleId": d.code, "ruleIndex": index, "level": SARIF_LEVELS.get(d.severity, "error"),
              "message": {"text": text}}
    if d.file is not None:
        region = {key: value for key, value in (("startLine", d.line), ("startColumn", d.col),
                                                ("endColumn", d.end_col))
                  if value is not None and value >= 1}
        physical = {"artifactLocation": {"uri": _uri(d.file, root)}}
        if "startLine" in region:
            physical["region"] = region
        result["locations"] = [{"physicalLocation": physical}]
    return result


def _uri(file: str, root: Path) -> str:
    """A path relative to ``root`` (as code scanning wants), else an absolute ``file:`` URI."""
    path = Path(file)
    if not path.is_absolute():
        return quote(path.as_posix())
    try:
        return quote(path.resolve().relative_to(root.resolve()).as_posix())
    except ValueError:
        return path.resolve().as_uri()
