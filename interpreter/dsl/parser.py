"""Parse effect-language text into the frozen syntax tree of ``ast.py``.

Every problem is a ``DslError`` at a (line, col) of the text, never a Lark or
Python exception. A text may nest at most ``MAX_DEPTH`` levels (each block,
bracket and operator is one) and a literal may hold at most ``MAX_DIGITS``
digits or ``MAX_STRING`` characters, so no later stage that walks the tree
recursively (checker, explainer, compiler, evaluator) can run out of stack.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken,
                             VisitError)
from lark.indenter import DedentError, Indenter

from . import ast
from .lark_cache import cached_lark
from ..model.values import TAG as RESERVED      # the tag of engine values in saved states

MAX_DEPTH = 100          # levels of the parse tree; the deepest bundled text has 23
MAX_DIGITS = 18          # digits in a number literal
MAX_STRING = 1000        # characters in a string literal
LIMITS = (MAX_DEPTH, MAX_DIGITS, MAX_STRING)   # as written here: trees kept on disk assume these


class DslError(Exception):
    """An effect-language error at a (line, col) of the effect text."""

    def __init__(self, message: str, line: int = 1, col: int = 1, end_col: int | None = None,
                 code: str = "dsl-syntax", hint: str | None = None):
        super().__init__(message)
        self.message, self.line, self.col = message, line, col
        self.end_col, self.code, self.hint = end_col, code, hint


class _Layout(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token):
        # A line break token runs over blank and comment lines: the indent or
        # dedent it makes is on its last line, where the text starts again.
        line, col = _after_break(token)
        try:
            for made in super().handle_NL(token):
                if made.type != self.NL_type:
                    made = Token(made.type, made.value, token.end_pos, line, col, line, col,
                                 token.end_pos)
                yield made
        except DedentError:
            raise DslError(f"this line's indentation ({col - 1} columns) matches no "
                           f"enclosing block", line, col, code="dsl-indentation",
                           hint="indent it like the block it belongs to") from None


class _ExpressionLayout(_Layout):
    """An expression reads as if in parentheses: line breaks are just spaces."""

    def process(self, stream):
        self.paren_level = 1
        self.indent_level = [0]
        return self._process(stream)


@lru_cache(maxsize=None)
def _lark(start: str = "program") -> Lark:
    """The parser for one start symbol: built once per process, its tables cached on disk."""
    layout = _ExpressionLayout() if start == "expression" else _Layout()
    return cached_lark(Path(__file__).with_name("effects.lark"), postlex=layout, parser="lalr",
                       start=start, propagate_positions=True, maybe_placeholders=True)


def _at(meta_or_token, node_cls, *args):
    """Build ``node_cls(*args)`` carrying the span of a Lark meta or token."""
    m = meta_or_token
    if getattr(m, "empty", False):
        return node_cls(*args)
    return node_cls(*args, line=m.line, col=m.column, end_line=m.end_line, end_col=m.end_column)


def _block(items):
    return tuple(item for item in items if isinstance(item, ast.Node))


@v_args(meta=True)
class _Build(Transformer):
    """Lark tree -> frozen dataclasses, one method per grammar alias."""

    # statements ---------------------------------------------------------
    def program(self, meta, items):
        body = items[0] if items and items[0] is not None else ()
        return _at(meta, ast.Block, body)

    def expression(self, meta, items):
        return items[0]

    def stmts(self, meta, items):
        return _block(items)

    def suite(self, meta, items):
        flat = []
        for item in items:
            flat.extend(item if isinstance(item, tuple) else [item])
        return _at(meta, ast.Block, _block(flat))

    def alternative(self, meta, items):
        return _at(meta, ast.Block, _block(items))

    def amounts(self, meta, items):
        return tuple(items)

    def amount(self, meta, items):
        count, counter = items
        if isinstance(counter, Token):           # gain 2 coin
            return _at(meta, ast.Amount, count, str(counter))
        return _at(meta, ast.Amount, count, None, counter)

    def gain(self, meta, items):
        return _at(meta, ast.Gain, items[0], items[1])

    def spend(self, meta, items):
        return _at(meta, ast.Spend, items[0], items[1])

    def lose(self, meta, items):
        return _at(meta, ast.Lose, items[0], items[1])

    def target(self, meta, items):
        return tuple(str(t) for t in items)

    def assign(self, meta, items):
        return _at(meta, ast.Assign, items[0], items[1])

    def augassign(self, meta, items):
        return _at(meta, ast.AugAssign, items[0], str(items[1]), items[2])

    def set_(self, meta, items):
        return _at(meta, ast.SetTo, items[0], items[1])

    def keyword(self, meta, items):
        return str(items[0])

    def keyword_arg(self, meta, items):
        return (items[0], items[1])

    def call(self, meta, items):
        return _at(meta, ast.Call, str(items[0]), items[1], tuple(items[2:]))

    def call_message(self, meta, items):
        """``tell p "TEXT"``: the text after the value is the verb's ``saying`` keyword."""
        verb, arg, message, *keywords = items
        return _at(meta, ast.Call, str(verb), arg, (("saying", message), *keywords))

    def break_(self, meta, items):
        return _at(meta, ast.Break)

    def pass_(self, meta, items):
        return _at(meta, ast.Pass)

    def if_(self, meta, items):
        cond, body, *rest = items
        branches = [(cond, body)]
        orelse = None
        for item in rest:
            if isinstance(item, tuple):
                branches.append(item)
            elif item is not None:
                orelse = item
        return _at(meta, ast.If, tuple(branches), orelse)

    def elif_(self, meta, items):
        return (items[0], items[1])

    def else_(self, meta, items):
        return items[0]

    def for_each(self, meta, items):
        return _at(meta, ast.ForEach, str(items[0]), items[1], items[2])

    def while_(self, meta, items):
        return _at(meta, ast.While, items[0], items[1])

    def simultaneously(self, meta, items):
        return _at(meta, ast.Simultaneously, str(items[0]), items[1], items[2])

    def as_(self, meta, items):
        return _at(meta, ast.As, items[0], items[1])

    def told(self, meta, items):
        return str(items[0])

    def choose_one(self, meta, items):
        told, prompt, *alternatives = items
        return _at(meta, ast.ChooseOne, tuple(alternatives), _prompt(prompt), told)

    def choose_in(self, meta, items):
        told, prompt, var, iterable, cond, label, body, otherwise = items
        o_label, o_body = otherwise if otherwise else (None, None)
        return _at(meta, ast.ChooseIn, str(var), iterable, cond, label, body, o_label, o_body,
                   _prompt(prompt), told)

    def otherwise(self, meta, items):
        label = _unquote(items[0]) if items[0] is not None else None
        return (label, items[1])

    # expressions ----------------------------------------------------------
    def number(self, meta, items):
        return _at(meta, ast.Literal, int(items[0]))

    def string(self, meta, items):
        return _at(meta, ast.Literal, _unquote(items[0]))

    def true(self, meta, items):
        return _at(meta, ast.Literal, True)

    def false(self, meta, items):
        return _at(meta, ast.Literal, False)

    def none(self, meta, items):
        return _at(meta, ast.Literal, None)

    def name(self, meta, items):
        return _at(meta, ast.Name, str(items[0]))

    def list_(self, meta, items):
        return _at(meta, ast.ListExpr, tuple(i for i in items if i is not None))

    def dict_(self, meta, items):
        return _at(meta, ast.DictExpr, tuple(i for i in items if i is not None))

    def pair(self, meta, items):
        token = items[0]
        key = _unquote(token) if token.type == "STRING" else str(token)
        if key.startswith(RESERVED):              # no record can pass for an engine value
            raise DslError(f"a record's field name cannot begin with '{RESERVED}'", token.line,
                           token.column, token.end_column, code="dsl-reserved-key")
        return (key, items[1])

    def attribute(self, meta, items):
        return _at(meta, ast.Attribute, items[0], str(items[1]))

    def index(self, meta, items):
        return _at(meta, ast.Index, items[0], items[1])

    def function(self, meta, items):
        name, args = str(items[0]), items[1]
        if isinstance(args, ast.Generator):
            return _at(meta, ast.Generator, name, args.element, args.var, args.iterable, args.cond)
        return _at(meta, ast.Function, name, args or ())

    def positional(self, meta, items):
        return tuple(items)

    def generator(self, meta, items):
        return ast.Generator("", items[0], str(items[1]), items[2], items[3])

    def binary(self, meta, items):
        return _at(meta, ast.BinOp, str(items[1]), items[0], items[2])

    def compare_op(self, meta, items):
        return _at(meta, ast.BinOp, str(items[1]), items[0], items[2])

    def in_op(self, meta, items):
        return _at(meta, ast.BinOp, "in", items[0], items[1])

    def not_in_op(self, meta, items):
        return _at(meta, ast.BinOp, "not in", items[0], items[1])

    def or_op(self, meta, items):
        return _at(meta, ast.BoolOp, "or", items[0], items[1])

    def and_op(self, meta, items):
        return _at(meta, ast.BoolOp, "and", items[0], items[1])

    def not_op(self, meta, items):
        return _at(meta, ast.Not, items[0])

    def conditional(self, meta, items):
        return _at(meta, ast.Conditional, items[0], items[1], items[2])

    def negate(self, meta, items):
        return _at(meta, ast.Negate, items[0])


def _prompt(token) -> str | None:
    return _unquote(token) if token is not None else None


def _unquote(token) -> str:
    return str(token)[1:-1]


_BUILD = _Build()

# Friendlier names for the grammar's terminals in "expected ..." messages.
_TOKEN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "end of line",
    "COLON": "':'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "EQUAL": "'='", "COMMA": "','", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "$END": "end of text", "COMPARE": "a comparison", "SEMICOLON": "';'", "VBAR": "'|'",
    "ADD": "'+' or '-'", "MUL": "'*', '/' or '%'", "AUGOP": "'+=' or '-='", "DOT": "'.'",
    "LBRACE": "'{'", "RBRACE": "'}'",
}


def parse_program(text: str) -> ast.Block:
    """Parse statements (an effect, a flow step). Raises DslError."""
    return _parse(text, "program")


def parse_expression(text: str):
    """Parse one expression (a condition, a value, an expectation). Raises DslError."""
    return _parse(text, "expression")


def _parse(text: str, start: str):
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark(start).parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source) from None
    except DedentError as exc:                   # handled in _Layout; kept as a safety net
        raise DslError(f"inconsistent indentation: {exc}", *_last_line(source)) from None
    except LarkError as exc:                      # anything else Lark may raise
        raise DslError(f"cannot parse: {exc}") from None
    _check_limits(tree)
    try:
        return _BUILD.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DslError):    # a reserved record key, found while building
            raise exc.orig_exc from None
        raise DslError(f"cannot parse: {exc.orig_exc}", *_start(exc.obj)) from None


def _check_limits(tree: Tree) -> None:
    """Refuse a tree deeper than MAX_DEPTH or a literal over its size, at its position.

    Iterative, so the check itself cannot overflow the stack.
    """
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            _check_literal(node)
            continue
        if depth > MAX_DEPTH:
            raise DslError(f"the text nests more than {MAX_DEPTH} levels deep", *_start(node),
                           code="dsl-too-deep",
                           hint="each block, bracket and operator is a level: "
                                "split it with a procedure or a function")
        stack.extend((child, depth + 1) for child in node.children if child is not None)


def _check_literal(token: Token) -> None:
    if token.type == "NUMBER" and len(token) > MAX_DIGITS:
        raise DslError(f"a number of {len(token):,} digits is over the limit of {MAX_DIGITS}",
                       token.line, token.column, token.column + min(len(token), 40),
                       code="dsl-too-large")
    if token.type == "STRING" and len(token) - 2 > MAX_STRING:
        raise DslError(f"a text of {len(token) - 2:,} characters is over the limit of {MAX_STRING:,}",
                       token.line, token.column, code="dsl-too-large")


def _start(node) -> tuple[int, int]:
    """(line, col) where a Lark tree or token starts, (1, 1) when unknown."""
    while not isinstance(node, Token):
        meta = getattr(node, "meta", None)
        if meta is not None and not getattr(meta, "empty", True):
            return meta.line, meta.column
        children = [child for child in getattr(node, "children", ()) if child is not None]
        if not children:
            return 1, 1
        node = children[0]
    return node.line or 1, node.column or 1


def _after_break(token: Token) -> tuple[int, int]:
    """(line, col) of the first character after a line-break token."""
    text = str(token)
    indent = text.rsplit("\n", 1)[-1]
    return token.line + text.count("\n"), len(indent) + 1


def _syntax_error(exc: UnexpectedInput, source: str) -> DslError:
    line, col = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedCharacters):
        char = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        return DslError(f"unexpected character {char!r}", line, col)
    if isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        if token.type == "$END":
            line, col = _last_line(source)
            found = "end of text"
        elif token.type in ("_NL",):
            found = "end of line"
        elif token.type in ("_INDENT", "_DEDENT"):
            found = "indentation" if token.type == "_INDENT" else "end of an indented block"
            line, col = token.line, token.column
        else:
            found = repr(str(token))
        expected = sorted({_TOKEN_WORDS.get(t, _literal(t)) for t in exc.expected})
        shown = ", ".join(expected[:6]) + (", ..." if len(expected) > 6 else "")
        end = col + len(str(token)) if token.type not in ("$END", "_NL", "_INDENT", "_DEDENT") else None
        return DslError(f"unexpected {found}; expected {shown}", line, col, end)
    return DslError(str(exc).splitlines()[0], line, col)


def _literal(terminal: str) -> str:
    """Lark names anonymous keyword terminals like IF or __ANON_0; show the word."""
    try:
        pattern = _lark().get_terminal(terminal).pattern
        return repr(pattern.value)
    except (KeyError, AttributeError):
        return terminal.lower()


def _last_line(source: str) -> tuple[int, int]:
    lines = source.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1
