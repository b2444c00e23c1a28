"""Check an effect-language tree against a ruleset's vocabulary.

Every name, attribute, counter, verb, keyword and function a text uses must
be declared by the ruleset or the mechanics table; each problem comes back
with the node to point at and, when a close match exists, a "did you mean".
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import ast


@dataclass
class Vocabulary:
    """What effect texts of one ruleset may name."""
    names: set = field(default_factory=set)          # globals: vars, zones, tables, ids, ...
    variables: set = field(default_factory=set)      # the game variables, which may be set
    mine: set = field(default_factory=set)           # names that are self's (counters, ...)
    attributes: set = field(default_factory=set)     # anything after a dot
    counters: set = field(default_factory=set)       # gain / spend / lose targets
    functions: dict = field(default_factory=dict)    # name -> arity (None: any)
    procedures: dict = field(default_factory=dict)   # name -> arity
    verbs: dict = field(default_factory=dict)        # name -> mechanics.Verb
    hooks: dict = field(default_factory=dict)        # hook point -> the names its handlers see


@dataclass(frozen=True)
class Problem:
    node: ast.Node
    code: str
    message: str
    hint: str | None = None
    tail: str | None = None     # point at this word at the end of the node, not the whole node

    def span(self) -> tuple[int, int, int | None]:
        """(line, col, end_col) to underline."""
        node = self.node
        one_line = node.end_line == node.line
        if self.tail and one_line:
            return node.line, node.end_col - len(self.tail), node.end_col
        return node.line, node.col, node.end_col if one_line else None


def suggest(word: str, candidates) -> str | None:
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def bound_names(tree: ast.Node) -> set:
    """Every local a text binds anywhere (assignments, loops, choices, generators)."""
    names = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Assign, ast.AugAssign)) and len(node.target) == 1:
            names.add(node.target[0])
        elif isinstance(node, (ast.ForEach, ast.Simultaneously, ast.ChooseIn, ast.Generator)):
            names.add(node.var)
        stack.extend(node.children())
    return names


def check(tree: ast.Node, vocab: Vocabulary, params=()) -> list[Problem]:
    """All problems in one text; ``params`` are names bound by the caller."""
    local = bound_names(tree) | set(params) | {"self"}
    problems: list[Problem] = []
    _walk(tree, vocab, local, problems)
    return problems


def _walk(node, vocab: Vocabulary, local: set, out: list) -> None:
    kind = node.__class__
    if kind is ast.Name:
        if node.id not in local and node.id not in vocab.names:
            out.append(Problem(node, "dsl-unknown-name", f"unknown name '{node.id}'",
                               suggest(node.id, local | vocab.names)))
    elif kind is ast.Attribute:
        if node.name not in vocab.attributes:
            out.append(Problem(node, "dsl-unknown-attribute", f"unknown attribute '{node.name}'",
                               suggest(node.name, vocab.attributes), tail=node.name))
    elif kind is ast.Amount:
        if node.name not in vocab.counters:
            out.append(Problem(node, "dsl-unknown-counter", f"'{node.name}' is not a counter",
                               suggest(node.name, vocab.counters), tail=node.name))
    elif kind in (ast.Function, ast.Generator):
        _check_function(node, vocab, out)
    elif kind is ast.SetTo:
        target = node.target
        if not (target.__class__ is ast.Attribute or
                (target.__class__ is ast.Name and target.id in vocab.variables)):
            out.append(Problem(target, "dsl-bad-target",
                               "'set' needs a player's field (p.coin) or a game variable"))
    elif kind is ast.Call:
        _check_call(node, vocab, out)
        target = node.arg
        verb = vocab.verbs.get(node.verb)
        if (verb is not None and verb.arg == "program" and target.__class__ is ast.Function
                and target.name in vocab.procedures):
            for child in target.args + tuple(e for _, e in node.keywords):
                _walk(child, vocab, local, out)
            return
    elif kind in (ast.Assign, ast.AugAssign):
        head = node.target[0]
        if len(node.target) == 1 and head in vocab.names and head not in vocab.variables:
            hint = f"write self.{head} = ..." if head in vocab.mine else None
            out.append(Problem(node, "dsl-hides-name",
                               f"'{head}' is declared by the ruleset: a local of that name "
                               f"would hide it", hint))
        if len(node.target) > 1 and head not in local and head not in vocab.names:
            out.append(Problem(node, "dsl-unknown-name", f"unknown name '{head}'",
                               suggest(head, local | vocab.names)))
        for name in node.target[1:]:
            if name not in vocab.attributes:
                out.append(Problem(node, "dsl-unknown-attribute", f"unknown attribute '{name}'",
                                   suggest(name, vocab.attributes)))
    for child in node.children():
        _walk(child, vocab, local, out)


def _check_function(node, vocab: Vocabulary, out: list) -> None:
    name = node.name
    if name in vocab.functions:
        arity = vocab.functions[name]
        given = 1 if node.__class__ is ast.Generator else len(node.args)
        if arity is not None and given != arity:
            out.append(Problem(node, "dsl-arity", f"'{name}' takes {arity} value(s), got {given}"))
    elif name in vocab.procedures:
        out.append(Problem(node, "dsl-procedure-call",
                           f"'{name}' is a procedure: run it with 'do {name}(...)'"))
    else:
        out.append(Problem(node, "dsl-unknown-function", f"unknown function '{name}'",
                           suggest(name, set(vocab.functions) | set(vocab.procedures))))


def _check_call(node: ast.Call, vocab: Vocabulary, out: list) -> None:
    verb = vocab.verbs.get(node.verb)
    if verb is None:
        out.append(Problem(node, "dsl-unknown-verb", f"unknown verb '{node.verb}'",
                           suggest(node.verb, set(vocab.verbs) | {"gain", "spend", "lose", "choose"})))
        return
    if verb.arg and node.arg is None:
        out.append(Problem(node, "dsl-missing-value", f"'{node.verb}' needs a value: {verb.summary}"))
    given = [k for k, _ in node.keywords]
    for keyword in given:
        if keyword not in verb.keywords:
            out.append(Problem(node, "dsl-bad-keyword",
                               f"'{node.verb}' does not take '{keyword}': {verb.summary}"))
    for keyword in verb.required:
        if keyword not in given:
            out.append(Problem(node, "dsl-missing-keyword",
                               f"'{node.verb}' needs '{keyword} ...': {verb.summary}"))
    if verb.arg == "hook":
        _check_hook(node, vocab, out)
    if verb.arg == "program":
        target = node.arg
        if target.__class__ is ast.Function and target.name in vocab.procedures:
            arity = vocab.procedures[target.name]
            if len(target.args) != arity:
                out.append(Problem(target, "dsl-arity",
                                   f"'{target.name}' takes {arity} value(s), got {len(target.args)}"))


def _check_hook(node: ast.Call, vocab: Vocabulary, out: list) -> None:
    """``signal "point" with {names}``: a declared point, given exactly its declared names."""
    target = node.arg
    if not (target.__class__ is ast.Literal and type(target.value) is str):
        out.append(Problem(target, "dsl-hook", "a hook point is named by a string: signal \"name\""))
        return
    if target.value not in vocab.hooks:
        out.append(Problem(target, "dsl-unknown-hook", f"unknown hook point '{target.value}'",
                           suggest(target.value, vocab.hooks)))
        return
    declared = sorted(vocab.hooks[target.value])
    given = dict(node.keywords).get("with")
    if given is None:
        if declared:
            out.append(Problem(node, "dsl-hook", f"'{target.value}' needs 'with' its names {declared}"))
        return
    if given.__class__ is ast.DictExpr and sorted(k for k, _ in given.pairs) != declared:
        out.append(Problem(given, "dsl-hook",
                           f"'{target.value}' takes the names {declared}, got "
                           f"{sorted(k for k, _ in given.pairs)}"))
