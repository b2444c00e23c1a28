"""Safe YAML loading that remembers where every value came from.

PyYAML's parser (libyaml's C parser when available) turns the text into
events and PyYAML's composer turns those into a node graph; this module then
builds plain Python data from the nodes itself. No PyYAML constructor ever
runs, so no tag can create an object, and a `Locator` keeps the position of
every value for the error messages of later stages.

Scalars follow the YAML 1.2 core schema (`yes`, `no`, `on`, `off` stay
strings; `010` is 10), merge keys `<<` have no special meaning, and limits on
size, node count and nesting keep hostile input from eating memory or stack.
"""

from __future__ import annotations

import bisect
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from interpreter.diagnostics import LINE_BREAK, ContentError, Diagnostic

try:
    from yaml.cyaml import CParser as _Parser  # libyaml: fast event parsing
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        """PyYAML's pure-Python reader, scanner and parser."""

        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


MAX_DEPTH = 100  # nesting levels; far beyond real content, well inside Python's stack

_BREAK_CHARS = "\n\r\x85\u2028\u2029"  # as in LINE_BREAK
_TAG = "tag:yaml.org,2002:"
_STANDARD_TAGS = {_TAG + name for name in ("str", "int", "float", "bool", "null", "seq", "map")}

# YAML 1.2 core schema: (tag, pattern, possible first characters).
_NULL = r"~|null|Null|NULL|"
_BOOL = r"true|True|TRUE|false|False|FALSE"
_INT = r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
_FLOAT = (
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_CORE_SCHEMA = [
    ("null", _NULL, ["~", "n", "N", ""]),
    ("bool", _BOOL, list("tTfF")),
    ("int", _INT, list("-+0123456789")),  # before float: "12" is an int
    ("float", _FLOAT, list("-+.0123456789")),
]


class _Resolver(Resolver):
    """PyYAML's resolver with the YAML 1.2 core schema instead of YAML 1.1."""

    yaml_implicit_resolvers: dict = {}


for _name, _pattern, _first in _CORE_SCHEMA:
    _Resolver.add_implicit_resolver(_TAG + _name, re.compile(rf"(?:{_pattern})\Z"), _first)


class _Alias:
    """An alias (`*name`) kept in the node graph, so its own position is known."""

    __slots__ = ("target", "start_mark", "end_mark")

    def __init__(self, target: Node, start_mark, end_mark):
        self.target = target
        self.start_mark = start_mark
        self.end_mark = end_mark


class _Problem(Exception):
    """A problem found while composing or building, before the file name is attached."""

    def __init__(self, code: str, message: str, start, end=None):
        super().__init__(message)
        self.code, self.message, self.start, self.end = code, message, start, end

    def diagnostic(self, file: str) -> Diagnostic:
        line, col = self.start.line + 1, self.start.column + 1
        end_col = None
        if self.end is not None and self.end.line == self.start.line and self.end.column > self.start.column:
            end_col = self.end.column + 1
        return Diagnostic(self.code, self.message, file, line, col, end_col)


class _Composer(Composer):
    """PyYAML's composer, keeping aliases visible and bounding the nesting."""

    def __init__(self):
        super().__init__()
        self._depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            return _Alias(super().compose_node(parent, index), event.start_mark, event.end_mark)
        if self._depth >= MAX_DEPTH:
            raise _Problem("yaml-too-deep", f"nesting deeper than {MAX_DEPTH} levels", event.start_mark)
        # YAML lets a later anchor reuse a name; an alias means the latest one.
        self.anchors.pop(event.anchor, None)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_scalar_node(self, anchor):
        # YAML's non-specific tag `!` makes a scalar a string; PyYAML resolves it.
        quoted_by_tag = self.peek_event().tag == "!"
        node = super().compose_scalar_node(anchor)
        if quoted_by_tag:
            node.tag = _TAG + "str"
        return node


class _Loader(_Composer, _Parser, _Resolver):
    """Events from PyYAML's parser, composed in Python; no constructor at all."""

    def __init__(self, stream):
        _Parser.__init__(self, stream)
        _Composer.__init__(self)
        _Resolver.__init__(self)


class Locator:
    """Positions in one YAML file of the values `load_yaml` returned.

    Paths are tuples of mapping keys and list indices, e.g.
    `("items", 3, "effect")`; positions are 1-based `(line, col)`.
    """

    def __init__(self, file: str, text: str):
        self.file = file
        self._text = text
        self._line_starts = [0] + [match.end() for match in LINE_BREAK.finditer(text)]
        self._values: dict[tuple, tuple[Any, Node]] = {}  # path -> (start mark, node)
        self._keys: dict[tuple, Any] = {}  # path -> start mark of its key

    @property
    def text(self) -> str:
        """The text the values were read from (for showing source lines)."""
        return self._text

    def at(self, path) -> tuple[int, int]:
        """Where the value at `path` starts, else its nearest known ancestor."""
        path = tuple(path)
        while path and path not in self._values:
            path = path[:-1]
        if path not in self._values:
            return (1, 1)
        mark, _ = self._values[path]
        return (mark.line + 1, mark.column + 1)

    def key_at(self, path) -> tuple[int, int]:
        """Where the mapping key holding the value at `path` starts (else `at(path)`)."""
        mark = self._keys.get(tuple(path))
        return (mark.line + 1, mark.column + 1) if mark else self.at(path)

    def text_position(self, path, line: int, col: int) -> tuple[int, int]:
        """Map a 1-based (line, col) inside the string at `path` to the file.

        Exact for single-line plain and quoted scalars and for literal (`|`)
        and folded (`>`) blocks; a close guess around escapes and folds.
        """
        entry = self._values.get(tuple(path))
        if entry is None or not isinstance(entry[1], ScalarNode):
            return self.at(path)
        offsets, starts = self._aligned(tuple(path), entry[1])
        index = starts[min(max(line - 1, 0), len(starts) - 1)] + col - 1
        return self._line_col(offsets[min(max(index, 0), len(offsets) - 1)])

    def _aligned(self, path: tuple, node: ScalarNode) -> tuple[list[int], list[int]]:
        """A scalar's offsets into the file (``_align``) and where each of its lines starts in
        its value, worked out once: a text of many problems asks for each (800 problems in
        one block re-aligned it 800 times, 50 s)."""
        cache = self.__dict__.setdefault("_alignments", {})
        found = cache.get(path)
        if found is None:
            offsets = _align(node.value, self._text, *_source_cells(node, self._text))
            starts = [0]
            for text in node.value.split("\n"):
                starts.append(starts[-1] + len(text) + 1)
            found = cache[path] = (offsets, starts)
        return found

    def _record(self, path: tuple, mark, node: Node, key_mark=None) -> None:
        self._values[path] = (mark, node)
        if key_mark is not None:
            self._keys[path] = key_mark

    def _line_col(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, index) - 1
        return (line + 1, index - self._line_starts[line] + 1)


def load_yaml(
    path: str | Path,
    *,
    text: str | None = None,
    max_bytes: int = 1_000_000,
    max_nodes: int = 200_000,
) -> tuple[Any, Locator]:
    """Load one YAML document as plain data, with a `Locator` for its values.

    Reads `path` unless `text` is given (then `path` only names the source).
    Raises `ContentError` with one diagnostic for any problem in the input;
    an unreadable file raises `OSError` as usual. An empty document is None.
    """
    file = str(path)
    if text is None:
        text = _read(file, max_bytes)
    elif (size := len(text.encode("utf-8", "surrogatepass"))) > max_bytes:
        raise ContentError([_too_large(file, size, max_bytes)])
    text = text.removeprefix("\ufeff")  # libyaml skips a BOM without counting it
    locator = Locator(file, text)
    try:
        root = yaml.compose(text, Loader=_Loader)
        data = None if root is None else _Builder(locator, max_nodes).build(root, ())
    except _Problem as problem:
        diag = problem.diagnostic(file)
    except yaml.YAMLError as error:
        diag = _parser_diagnostic(error, file, text, locator)
    except UnicodeEncodeError as error:  # lone surrogates cannot be handed to libyaml
        line, col = locator._line_col(error.start)
        diag = Diagnostic("yaml-encoding", "text contains an invalid character", file, line, col)
    else:
        return data, locator
    raise ContentError([diag], sources={file: text})


def load_yaml_text(text: str, file: str = "<string>") -> tuple[Any, Locator]:
    """`load_yaml` on text in memory; `file` names it in diagnostics."""
    return load_yaml(file, text=text)


class _Builder:
    """Builds plain data from a node graph, recording positions and counting nodes."""

    def __init__(self, locator: Locator, max_nodes: int):
        self.locator = locator
        self.max_nodes = max_nodes
        self.count = 0
        self._sizes: dict[int, int] = {}  # id(node) -> node count once expanded
        self._sizing: set[int] = set()  # nodes whose size is being computed

    def build(self, node, path: tuple, key_mark=None) -> Any:
        """The plain value of `node`, which sits at `path`."""
        if isinstance(node, _Alias):
            return self._expand(node, path, key_mark)
        self._count(1, node.start_mark)
        if len(path) > MAX_DEPTH:  # aliases can nest deeper than the text does
            raise _Problem("yaml-too-deep", f"nesting deeper than {MAX_DEPTH} levels", node.start_mark)
        _check_tag(node)
        self.locator._record(path, node.start_mark, node, key_mark)
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (index,)) for index, item in enumerate(node.value)]
        return _scalar(node)

    def _expand(self, alias: _Alias, path: tuple, key_mark) -> Any:
        # Aliases become copies; check the whole copy's size before making it,
        # so an alias bomb fails at once instead of after building a mountain.
        size = self._size(alias)
        if self.count + size > self.max_nodes:
            raise _Problem(
                "yaml-too-many-nodes",
                f"expanding this alias would make more than {self.max_nodes} nodes",
                alias.start_mark, alias.end_mark,
            )
        value = self.build(alias.target, path, key_mark)
        self.locator._record(path, alias.start_mark, alias.target, key_mark)
        return value

    def _mapping(self, node: MappingNode, path: tuple) -> dict:
        result: dict = {}
        first_lines: dict = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key in result:
                raise _Problem(
                    "yaml-duplicate-key",
                    f"duplicate key {key!r} (first defined on line {first_lines[key]})",
                    key_node.start_mark, key_node.end_mark,
                )
            first_lines[key] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, path + (key,), key_node.start_mark)
        return result

    def _key(self, key_node) -> Any:
        node = key_node.target if isinstance(key_node, _Alias) else key_node
        if not isinstance(node, ScalarNode):
            raise _Problem("yaml-complex-key", "mapping keys must be scalars", key_node.start_mark)
        self._count(1, key_node.start_mark)
        _check_tag(node)
        return _scalar(node)

    def _count(self, added: int, mark) -> None:
        self.count += added
        if self.count > self.max_nodes:
            raise _Problem("yaml-too-many-nodes", f"more than {self.max_nodes} nodes", mark)

    def _size(self, node) -> int:
        """How many nodes `node` makes once every alias inside it is expanded."""
        if isinstance(node, _Alias):
            if id(node.target) in self._sizing:
                raise _Problem("yaml-recursive-alias", "alias refers to a node that contains it", node.start_mark)
            return self._size(node.target)
        if id(node) not in self._sizes:
            self._sizing.add(id(node))
            children = node.value if isinstance(node, SequenceNode) else []
            if isinstance(node, MappingNode):
                children = [child for pair in node.value for child in pair]
            self._sizes[id(node)] = 1 + sum(self._size(child) for child in children)
            self._sizing.discard(id(node))
        return self._sizes[id(node)]


def _check_tag(node: Node) -> None:
    """Refuse any tag but the standard ones, and standard tags on the wrong kind of node."""
    if node.tag not in _STANDARD_TAGS:
        raise _Problem("yaml-unsafe-tag", f"tag {_short_tag(node.tag)} is not allowed", node.start_mark)
    expected = {MappingNode: _TAG + "map", SequenceNode: _TAG + "seq"}.get(type(node))
    if expected and node.tag != expected:
        raise _Problem("yaml-invalid-value", f"a {node.id} cannot be tagged {_short_tag(node.tag)}", node.start_mark)


def _scalar(node: ScalarNode) -> Any:
    """The Python value of a scalar node whose tag is standard."""
    kind, text = node.tag[len(_TAG):], node.value
    try:
        if kind == "str":
            return text
        if kind == "null" and re.fullmatch(_NULL, text):
            return None
        if kind == "bool" and re.fullmatch(_BOOL, text):
            return text.lower() == "true"
        if kind == "int" and re.fullmatch(_INT, text):
            return _to_int(text)
        if kind == "float" and re.fullmatch(_FLOAT, text):
            return _to_float(text)
        if kind == "float" and re.fullmatch(_INT, text):
            return float(_to_int(text))
    except ValueError as error:  # e.g. more digits than Python will convert
        raise _Problem("yaml-invalid-value", f"cannot read {kind}: {error}", node.start_mark) from None
    raise _Problem("yaml-invalid-value", f"{_clip(text)!r} is not a valid !!{kind}", node.start_mark, node.end_mark)


def _to_int(text: str) -> int:
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


def _to_float(text: str) -> float:
    special = text.lower().lstrip("+-")
    if special == ".inf":
        return -math.inf if text.startswith("-") else math.inf
    if special == ".nan":
        return math.nan
    return float(text)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------- reading


def _read(file: str, max_bytes: int) -> str:
    """The file's text, refusing anything but a regular file of at most `max_bytes`.

    The file is opened without blocking (a FIFO would wait for a writer) and
    checked with fstat before a byte is read, so a device such as /dev/zero
    or a file over the limit is refused without reading it.
    """
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ContentError([Diagnostic("yaml-not-a-file", "not a regular file", file)])
        if info.st_size > max_bytes:
            raise ContentError([_too_large(file, info.st_size, max_bytes)])
        data = stream.read(max_bytes + 1)  # the size may lie (a growing file, /proc)
    if len(data) > max_bytes:
        raise ContentError([_too_large(file, len(data), max_bytes)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        good = data[: error.start].decode("utf-8")
        line = len(LINE_BREAK.findall(good)) + 1
        col = len(LINE_BREAK.split(good)[-1]) + 1
        message = f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})"
        raise ContentError([Diagnostic("yaml-encoding", message, file, line, col)]) from None


def _too_large(file: str, size: int, max_bytes: int) -> Diagnostic:
    message = f"file is {size:,} bytes, over the limit of {max_bytes:,} bytes"
    return Diagnostic("yaml-too-large", message, file, 1, 1)


def _parser_diagnostic(error: yaml.YAMLError, file: str, text: str, locator: Locator) -> Diagnostic:
    """A `yaml-syntax` diagnostic for an error raised by PyYAML's reader, scanner, parser or composer."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        message = error.problem or error.context or "invalid YAML"
        if error.context and error.problem:
            message += f" ({error.context})"
        if mark is None:
            return Diagnostic("yaml-syntax", message, file, 1, 1)
        if "maximum nesting depth" in message:       # libyaml's own limit (PyYAML >= 6.0.4)
            return Diagnostic("yaml-too-deep", f"nesting deeper than {MAX_DEPTH} levels",
                              file, mark.line + 1, mark.column + 1)
        tab = text[mark.index : mark.index + 1] == "\t"
        hint = "indent with spaces: YAML does not allow tabs here" if tab else \
            _quote_hint(message, _line(text, mark.line))
        return Diagnostic("yaml-syntax", message, file, mark.line + 1, mark.column + 1, hint=hint)
    character = getattr(error, "character", None)
    if isinstance(error, yaml.reader.ReaderError) and isinstance(character, int):
        # libyaml reports a byte offset; the character itself is easier to find.
        line, col = locator._line_col(max(0, text.find(chr(character))))
        message = f"character U+{character:04X} is not allowed: {error.reason}"
        return Diagnostic("yaml-syntax", message, file, line, col)
    return Diagnostic("yaml-syntax", str(error), file, 1, 1)


def _line(text: str, n: int) -> str:
    """Line ``n`` (0-based) of ``text``, or "" past its end (a mark at the very end)."""
    lines = LINE_BREAK.split(text or "")
    return lines[n] if 0 <= n < len(lines) else ""


def _quote_hint(message: str, line: str) -> str | None:
    """What to write instead when YAML took part of an expression for its own syntax."""
    if message.startswith("mapping values are not allowed"):
        key, _, value = line.strip().removeprefix("- ").partition(": ")
        quoted = value.strip().replace("'", "''")
        return ("YAML reads ': ' (a colon, then a space) as the start of a mapping; if the value "
                f"is one expression or text, put it in quotes: {key}: '{quoted}'")
    if "while parsing a flow" in message:
        return ("inside [ ] or { }, YAML reads [ ] { } , and ': ' as its own: put an expression "
                "that holds them in quotes (\"b[1] > 0\"), or write the list one item a line (- b[1] > 0)")
    return None


# ---------------------------------------------------------------- text positions


def _source_cells(node: ScalarNode, text: str) -> tuple[list[int], int]:
    """Indexes into `text` of the characters a scalar's value is made from,
    and the index just past them.

    Leaves out what is never part of the value: tags and anchors written before
    it, quotes, a block header, and the indentation of each line.
    """
    start, end = _skip_properties(text, node.start_mark.index), node.end_mark.index
    if node.style in ("|", ">"):
        header_end = LINE_BREAK.search(text, start, end)
        start = header_end.end() if header_end else end
        return _unindent(text, start, end, _block_indent(node.value, text, start, end)), end
    if node.style in ("'", '"'):
        start, end = start + 1, end - 1
    return _unindent(text, start, end, None), end


def _skip_properties(text: str, index: int) -> int:
    """Index just past any `!tag` and `&anchor` starting at `index`."""
    while index < len(text) and text[index] in "!&":
        while index < len(text) and not text[index].isspace():
            index += 1
        while index < len(text) and text[index].isspace():
            index += 1
    return index


def _block_indent(value: str, text: str, start: int, end: int) -> int:
    """A block scalar's content indentation: what its first text line loses in the value."""
    source_line = next((line for line in LINE_BREAK.split(text[start:end]) if line.strip()), "")
    value_line = next((line for line in value.split("\n") if line.strip()), "")
    return _leading_spaces(source_line) - _leading_spaces(value_line)


def _leading_spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _unindent(text: str, start: int, end: int, indent: int | None) -> list[int]:
    """Indexes in `text[start:end]` without line indentation: up to `indent`
    spaces of every line of a block, or, for a flow scalar (`indent` None),
    every leading blank of the lines after its first."""
    cells, drop = [], indent or 0
    for index in range(start, end):
        char = text[index]
        if drop and (char == " " or (indent is None and char == "\t")):
            drop -= 1
            continue
        drop = 0
        cells.append(index)
        if char in _BREAK_CHARS and not text.startswith("\r\n", index):
            drop = end if indent is None else indent
    return cells


def _align(value: str, text: str, cells: list[int], end: int) -> list[int]:
    """For each character of `value`, and one past its end, an index into `text`.

    Walks the value and its source cells side by side. A blank in the value
    that is not in the source (from a folded line or an escape) maps to where
    the walk stands; any other character skips ahead to its match.
    """
    stops = cells + [end]
    offsets, j = [], 0
    for char in value:
        k = j
        if char not in " \t\n":
            while k < len(cells) and text[cells[k]] != char:
                k += 1
        found = k < len(cells) and text[cells[k]] == char
        if found:
            j = k
        offsets.append(stops[j])
        j += found
    offsets.append(stops[j])
    return offsets
