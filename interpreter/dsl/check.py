"""Check an effect-language tree against a ruleset's vocabulary, before play.

Every name, attribute, counter, verb, keyword and function a text uses must
be declared by the ruleset or the mechanics table; each problem comes back
with the node to point at and, when a close match exists, a "did you mean".

The checker is a visitor with one method per node class. Each expression
gets a kind (``kinds.py``) from the declarations and the signatures in the
mechanics table, and certain misuse is a problem: a board's field asked of
a player, a counter used as a zone, a string compared with ``<``. Where a
kind cannot be known it is "anything" and nothing is reported, so correct
content is never refused. Statements are followed path by path, so a local
read where it may not have been set is reported too.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import ast
from .explain import explain
from .kinds import (ANY, BOOL, EFFECT, GRID, HOOK, NONE, NUMBER, PLAYER, PROGRAM, ROOM, SIDE, STRING, TRACK,
                    Group, Kind, ListOf, Plain, Record, Signature, Zone, fits, iterated,
                    options_of, substitute, union)

RESERVED = {"self": "the acting player", "this": "the record whose text this is"}
_CONTAINER = union(ListOf(), Zone(), Group(), Plain(), STRING)


@dataclass
class Vocabulary:
    """What effect texts of one ruleset may name, and the kind of each thing.

    The kind tables may be left empty (then every kind is "anything").
    """
    names: set = field(default_factory=set)          # globals: vars, zones, tables, ids, ...
    variables: set = field(default_factory=set)      # the game variables, which may be set
    mine: set = field(default_factory=set)           # names that are self's (counters, ...)
    attributes: set = field(default_factory=set)     # anything after a dot
    counters: set = field(default_factory=set)       # gain / spend / lose targets
    functions: dict = field(default_factory=dict)    # name -> Signature (or arity; None: any)
    procedures: dict = field(default_factory=dict)   # name -> arity
    verbs: dict = field(default_factory=dict)        # name -> mechanics.Verb
    hooks: dict = field(default_factory=dict)        # hook point -> the names its handlers see
    kinds: dict = field(default_factory=dict)        # global name -> Kind
    player_fields: dict = field(default_factory=dict)  # a player's attribute -> Kind
    tables: dict = field(default_factory=dict)       # table -> {field: Kind}
    value_attributes: dict = field(default_factory=dict)  # "grid"/"room"/"side" -> {name: Kind}
    user_functions: dict = field(default_factory=dict)    # name -> (params, tree), for results
    results: dict = field(default_factory=dict)      # ruleset function -> its inferred result


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


MAX_HINT_WORK = 500_000
"""Names that did-you-mean hints may compare words with until ``allow_hints`` is called
again (the loader calls it once a load; then hints stop). Each hint compares its word with
every candidate: 1,600 unknown names among 4,000 counters took a minute, a file of them days;
half a million comparisons are a second or two, and hundreds of hints in a real ruleset."""
_hint_work = [MAX_HINT_WORK]


def allow_hints() -> None:
    """A fresh allowance of MAX_HINT_WORK comparisons for did-you-mean hints."""
    _hint_work[0] = MAX_HINT_WORK


def suggest(word: str, candidates) -> str | None:
    if _hint_work[0] < len(candidates):
        _hint_work[0] = 0                          # spent: callers need not gather candidates
        return None
    _hint_work[0] -= len(candidates)
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


def check(tree: ast.Node, vocab: Vocabulary, params=(), owners: dict | None = None) -> list[Problem]:
    """All problems in one text; ``params`` are names bound by the caller (a tuple of
    names, of any kind, or a dict of name -> Kind). ``owners``, if given, gets
    {id(attribute node): the kind of its object} (the code generator's direct reads)."""
    problems: list[Problem] = []
    checker = Checker(vocab, params, tree, problems)
    checker.owners = owners
    checker.visit(tree)
    return problems


def kind_of(tree: ast.Node, vocab: Vocabulary, params=()) -> Kind:
    """The kind of an expression (problems aside)."""
    return Checker(vocab, params, tree, []).visit(tree)


@dataclass(frozen=True)
class Scope:
    """What is known at one point of a text: the kind of each local that may
    be set, and which locals are set on every path that gets here."""
    kinds: dict
    definite: frozenset

    def bind(self, name: str, kind: Kind) -> "Scope":
        return Scope({**self.kinds, name: kind}, self.definite | {name})


def join(scopes) -> Scope | None:
    """Where paths meet: a local may be any kind it had, and is set if set on every path."""
    live = [s for s in scopes if s is not None]        # None: a path that never gets here
    if not live:
        return None
    kinds: dict = {}
    for scope in live:
        for name, kind in scope.kinds.items():
            kinds[name] = union(kinds[name], kind) if name in kinds else kind
    return Scope(kinds, frozenset.intersection(*(s.definite for s in live)))


class Checker:
    """Visits one text: ``visit`` gives an expression's kind, or follows a statement."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        _check_visitors(cls)

    def __init__(self, vocab: Vocabulary, params, tree, out: list):
        self.vocab, self.out = vocab, out
        given = params if isinstance(params, dict) else {name: ANY for name in params}
        self.params = {"self": PLAYER, **given}
        self.locals = bound_names(tree) - vocab.variables - set(self.params)
        self.scope: Scope | None = Scope({}, frozenset())
        self.breaks: list = []          # per loop being visited: the scopes at its breaks
        self.muted = 0                  # >0: a first pass over a loop body, report nothing
        self.owners: dict | None = None  # id(attribute) -> its object's kind, all visits joined

    def visit(self, node):
        return getattr(self, "visit_" + node.__class__.__name__)(node)

    def report(self, node, code, message, hint=None, tail=None) -> None:
        if not self.muted:
            self.out.append(Problem(node, code, message, hint, tail))

    def expect(self, node, kind: Kind, wanted: Kind, what: str) -> bool:
        """Report (code ``dsl-kind``) when ``node`` of ``kind`` certainly is not ``wanted``."""
        if fits(kind, wanted):
            return True
        self.report(node, "dsl-kind", f"{what} needs {wanted}, but {explain(node)} is {kind}")
        return False

    # ------------------------------------------------------------ expressions
    def visit_Literal(self, node):
        value = node.value
        if value is None:
            return NONE
        return BOOL if isinstance(value, bool) else NUMBER if isinstance(value, int) else STRING

    def visit_Name(self, node):
        return self.read(node.id, node)

    def read(self, name: str, node) -> Kind:
        vocab = self.vocab
        if name in self.params:
            return self.params[name]
        if name in self.locals and self.scope is not None and name not in vocab.names:
            scope = self.scope
            if name not in scope.definite:
                said = ("is read where it may not be set (it is set only on some paths before this)"
                        if name in scope.kinds else "is read before it is set")
                self.report(node, "dsl-unset", f"'{name}' {said}")
            return scope.kinds.get(name, ANY)
        if name in self.locals:
            return ANY
        if name not in vocab.names:
            sig = vocab.functions.get(name)
            hint = (f"'{name}' is a function: {getattr(sig, 'text', name + '(...)')}" if name in vocab.functions
                    else f"'{name}' is a verb: a statement of its own" if name in vocab.verbs
                    else suggest(name, self.locals | set(self.params) | vocab.names) if _hint_work[0] else None)
            self.report(node, "dsl-unknown-name", f"unknown name '{name}'", hint)
            return ANY
        return vocab.kinds.get(name, ANY)

    def visit_ListExpr(self, node):
        return ListOf(union(*map(self.visit, node.items)) if node.items else ANY)

    def visit_DictExpr(self, node):
        return Plain(tuple(sorted((key, self.visit(value)) for key, value in node.pairs)))

    def visit_Attribute(self, node):
        owner = self.visit(node.obj)
        if self.owners is not None:
            seen = self.owners.get(id(node))
            self.owners[id(node)] = owner if seen is None else union(seen, owner)
        if node.name not in self.vocab.attributes:
            self.report(node, "dsl-unknown-attribute", f"unknown attribute '{node.name}'",
                        suggest(node.name, self.vocab.attributes), tail=node.name)
            return ANY
        return self.attribute(owner, node.name, node, node.obj)

    def attribute(self, owner: Kind, name: str, node, obj_node) -> Kind:
        """The kind of ``owner.name``; a problem at ``node`` if no option of ``owner`` has it."""
        found = [k for k in map(lambda o: self._attribute_of(o, name), options_of(owner))
                 if k is not None]
        if found or owner == ANY or not options_of(owner):
            return union(*found) if found else ANY
        where = self._known_as(name)
        said = f"'{name}' is {where}, but " if where else ""
        tail = "" if where else f", which has no '{name}'"
        self.report(node, "dsl-kind", f"{said}{explain(obj_node)} is {owner}{tail}")
        return ANY

    def _attribute_of(self, kind: Kind, name: str) -> Kind | None:
        vocab = self.vocab
        if kind == ANY or kind == STRING:               # text may be a record's id
            return ANY
        if kind == PLAYER:
            return vocab.player_fields.get(name) if vocab.player_fields else ANY
        if isinstance(kind, Record):
            if not vocab.tables:
                return ANY
            tables = [kind.table] if kind.table else list(vocab.tables)
            found = [vocab.tables.get(t, {}).get(name) for t in tables]
            found = [k for k in found if k is not None]
            return union(*found) if found else None
        if isinstance(kind, Plain):
            return kind.field(name)
        if kind in (GRID, ROOM, SIDE, TRACK):
            attributes = vocab.value_attributes.get(kind.name)
            return ANY if attributes is None else attributes.get(name)
        return None                                  # numbers, lists, zones ... have no fields

    def _known_as(self, name: str) -> str:
        """Where ``name`` is an attribute ("a field of boards"), to say what was meant."""
        vocab = self.vocab
        tables = sorted(t for t, fields in vocab.tables.items() if name in fields)
        words = []
        if tables and len(tables) == len(vocab.tables) and len(tables) > 1:
            words.append("a field of every table")
        elif tables:
            words.append(f"a field of {' and '.join(tables)}")
        owners = (["players"] if name in vocab.player_fields else []) + sorted(
            f"{kind}s" for kind, names in vocab.value_attributes.items() if name in names)
        if owners:
            words.append(f"an attribute of {', '.join(owners)}")
        return " and ".join(words)

    def visit_Index(self, node):
        container, key = self.visit(node.obj), self.visit(node.key)
        found, numbered = [], False
        for option in options_of(container):
            if option == ANY:
                found.append(ANY)
            elif isinstance(option, (ListOf, Zone, Group)):
                found.append(iterated(option))
                numbered = True
            elif isinstance(option, Plain):
                literal = node.key.value if isinstance(node.key, ast.Literal) else None
                found.append(option.field(literal) or ANY if isinstance(literal, str) else
                             option.value if option.fields is None else ANY)
        if not found and options_of(container):
            self.report(node, "dsl-kind", f"{explain(node.obj)} is {container}: it cannot be "
                                          f"indexed")
            return ANY
        if numbered and len(found) == 1:
            self.expect(node.key, key, NUMBER, "an index into a list")
        return union(*found) if found else ANY

    def visit_Function(self, node):
        args = [self.visit(arg) for arg in node.args]
        return self.call(node, node.name, list(zip(node.args, args)))

    def visit_Generator(self, node):
        items = self.iterate(node.iterable, self.visit(node.iterable), "'for'")
        saved = self.scope
        if saved is not None:
            self.scope = saved.bind(node.var, items)
        if node.cond is not None:
            self.visit(node.cond)
        element = self.visit(node.element)
        self.scope = saved
        return self.call(node, node.name, [(node, ListOf(element))])

    def call(self, node, name: str, args: list) -> Kind:
        """A function call: its arity and the kinds of its values, from its signature."""
        vocab = self.vocab
        if name not in vocab.functions:
            if name in vocab.procedures:
                self.report(node, "dsl-procedure-call",
                            f"'{name}' is a procedure: run it with 'do {name}(...)'")
            else:
                # A near miss of a declared function is the likelier slip than a verb's name
                hint = suggest(name, set(vocab.functions) | set(vocab.procedures))
                if name in vocab.names:
                    hint = f"'{name}' is a name, not a function: write it without brackets"
                elif name in vocab.verbs and hint is None:
                    hint = f"'{name}' is a verb: write '{name} ...' as a statement"
                self.report(node, "dsl-unknown-function", f"unknown function '{name}'", hint)
            return ANY
        sig = vocab.functions[name]
        if not isinstance(sig, Signature):               # a bare arity (or None: any)
            if sig is not None and len(args) != sig:
                self.report(node, "dsl-arity", f"'{name}' takes {sig} value(s), got {len(args)}")
            return self.result_of(name)
        if not sig.takes(len(args)):
            self.report(node, "dsl-arity",
                        f"'{name}' takes {sig.arity} value(s), got {len(args)}: {sig.text}")
            return substitute(sig.result, {})
        binds: dict = {}
        for i, (arg_node, kind) in enumerate(args):
            wanted = sig.param(i)
            if not fits(kind, wanted, binds):
                self.report(arg_node, "dsl-kind", f"{name}() needs {wanted}, but "
                            f"{explain(arg_node)} is {kind}: {sig.text}")
        if name in vocab.user_functions:
            return self.result_of(name)
        return substitute(sig.result, binds)

    def result_of(self, name: str) -> Kind:
        """A ruleset function's result, inferred once from its body (parameters: anything)."""
        results = self.vocab.results
        if name not in results:
            params, tree = self.vocab.user_functions.get(name, ((), None))
            results[name] = ANY                          # while inferring: recursion gives anything
            if tree is not None:
                results[name] = kind_of(tree, self.vocab, params)
        return results[name]

    def visit_BinOp(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op in ("==", "!="):
            return BOOL
        if op in ("in", "not in"):
            self.expect(node.right, right, _CONTAINER, f"'{op}'")
            return BOOL
        if op == "+":
            return self.plus(node, left, right)
        for side, kind in ((node.left, left), (node.right, right)):
            self.expect(side, kind, NUMBER, f"'{op}'")
        return BOOL if op in ("<", "<=", ">", ">=") else NUMBER

    def plus(self, node, left: Kind, right: Kind) -> Kind:
        """Numbers add, texts and lists join; anything else cannot be added."""
        def sorts(kind):
            return {name for name, k in (("number", NUMBER), ("string", STRING), ("list", ListOf()))
                    if fits(kind, k)}
        common = sorts(left) & sorts(right)
        if not common:
            self.report(node, "dsl-kind", f"cannot add {left} and {right}")
            return ANY
        if common == {"number"}:
            return NUMBER
        if common == {"string"}:
            return STRING
        if common == {"list"}:
            return ListOf(union(iterated(left) or ANY, iterated(right) or ANY))
        return ANY

    def visit_BoolOp(self, node):
        return union(self.visit(node.left), self.visit(node.right))

    def visit_Conditional(self, node):
        self.visit(node.cond)
        return union(self.visit(node.then), self.visit(node.orelse))

    def visit_Not(self, node):
        self.visit(node.operand)
        return BOOL

    def visit_Negate(self, node):
        self.expect(node.operand, self.visit(node.operand), NUMBER, "'-'")
        return NUMBER

    def iterate(self, node, kind: Kind, what: str) -> Kind:
        """What iterating ``node`` gives; a problem if it is certainly not a list."""
        items = iterated(kind)
        if items is None:
            self.report(node, "dsl-kind", f"{what} needs a list, but {explain(node)} is {kind}")
            return ANY
        return items

    # ------------------------------------------------------------ statements
    def visit_Block(self, node):
        for statement in node.body:
            self.visit(statement)

    def visit_Pass(self, node):
        pass

    def visit_Break(self, node):
        if self.breaks:
            self.breaks[-1].append(self.scope)
        self.scope = None                                # nothing after it runs

    def visit_Amount(self, node):
        if node.counter is not None:                     # named by a value: a string
            self.counter_value(node.counter)
        elif node.name not in self.vocab.counters:
            self.report(node, "dsl-unknown-counter", f"'{node.name}' is not a counter",
                        suggest(node.name, self.vocab.counters), tail=node.name)
        what = node.name or explain(node.counter)
        self.expect(node.count, self.visit(node.count), NUMBER, f"'{what}'")

    def counter_value(self, expr) -> None:
        """``of EXPR``: a string, and when written out as one, a declared counter."""
        self.expect(expr, self.visit(expr), STRING, "'of' (a counter's name)")
        if expr.__class__ is ast.Literal and type(expr.value) is str and \
                expr.value not in self.vocab.counters:
            self.report(expr, "dsl-unknown-counter", f"'{expr.value}' is not a counter",
                        suggest(expr.value, self.vocab.counters))

    def _resources(self, node):
        for amount in node.amounts:
            self.visit(amount)
        if node.who is not None:
            self.expect(node.who, self.visit(node.who), PLAYER, "'for'")

    visit_Gain = visit_Spend = visit_Lose = _resources

    def visit_Assign(self, node):
        value = self.visit(node.value)
        self.store(node, node.target, value)

    def visit_AugAssign(self, node):
        if len(node.target) == 1:
            current = self.read(node.target[0], node)
            value = self.combine(node, node.op, current, self.visit(node.value))
            self.store(node, node.target, value)
        else:
            self.store(node, node.target, self.visit(node.value), op=node.op)

    def combine(self, node, op: str, current: Kind, value: Kind) -> Kind:
        """What ``current += value`` (or ``-=``) holds afterwards."""
        if op == "+=":
            if current != ANY and fits(current, ListOf()) and iterated(value) is None:   # a list grows by one item
                return ListOf(union(iterated(current) or ANY, value))
            return self.plus(node, current, value)
        for kind in (current, value):
            if not fits(kind, NUMBER):
                self.report(node, "dsl-kind", f"'-=' needs numbers, not {kind}")
                return ANY
        return NUMBER

    def store(self, node, target: tuple, value: Kind, op=None) -> None:
        """``x = v`` (a local or a game variable) or ``p.field = v`` (a player's)."""
        vocab, head = self.vocab, target[0]
        if len(target) == 1:
            if head in RESERVED:
                self.report(node, "dsl-reserved",
                            f"'{head}' is {RESERVED[head]}: it cannot be assigned")
            elif head in vocab.names and head not in vocab.variables:
                hint = f"write self.{head} = ..." if head in vocab.mine else None
                self.report(node, "dsl-hides-name", f"'{head}' is declared by the ruleset: a "
                                                    f"local of that name would hide it", hint)
            elif head in vocab.variables:
                self.set_value(node, head, vocab.kinds.get(head, ANY), value)
            elif self.scope is not None and head not in self.params:
                self.scope = self.scope.bind(head, value)
            return
        if head not in self.locals and head not in self.params and head not in vocab.names:
            self.report(node, "dsl-unknown-name", f"unknown name '{head}'",
                        suggest(head, self.locals | vocab.names))
            return
        owner = self.read(head, node)
        path = head
        for name in target[1:]:
            if name not in vocab.attributes:
                self.report(node, "dsl-unknown-attribute", f"unknown attribute '{name}'",
                            suggest(name, vocab.attributes))
                return
        for name in target[1:-1]:
            owner = self.attribute(owner, name, node, ast.Name(path))
            path += f".{name}"
        self.set_field(node, ast.Name(path), owner, target[-1], value, op)

    def set_field(self, node, owner_node, owner: Kind, name: str, value: Kind, op=None) -> None:
        """Only a player's fields can be set; the value must fit what the field holds."""
        if not fits(owner, PLAYER):
            self.report(node, "dsl-kind", f"only a player's fields can be set, but "
                                          f"{explain(owner_node)} is {owner}")
            return
        held = self.attribute(owner, name, node, owner_node)
        if op is not None:
            value = self.combine(node, op, held, value)
        self.set_value(node, f"{explain(owner_node)}.{name}", held, value)

    def set_value(self, node, what: str, held: Kind, value: Kind) -> None:
        if value != NONE and not fits(value, held):        # none may always be stored
            self.report(node, "dsl-kind", f"'{what}' holds {held}, not {value}")

    def visit_SetTo(self, node):
        value, target = self.visit(node.value), node.target
        if target.__class__ is ast.Attribute:
            owner = self.visit(target.obj)
            if target.name not in self.vocab.attributes:
                self.visit(target)                       # reports the spelling
            else:
                self.set_field(target, target.obj, owner, target.name, value)
        elif target.__class__ is ast.Name and target.id in self.vocab.variables:
            self.set_value(target, target.id, self.vocab.kinds.get(target.id, ANY), value)
        else:
            self.report(target, "dsl-bad-target",
                        "'set' needs a player's field (p.coin) or a game variable")

    def visit_Call(self, node):
        verb = self.vocab.verbs.get(node.verb)
        if verb is None:
            sig = self.vocab.functions.get(node.verb)
            hint = (f"'{node.verb}' is a function, used in an expression: {getattr(sig, 'text', node.verb)}"
                    if sig is not None else
                    suggest(node.verb, set(self.vocab.verbs) | {"gain", "spend", "lose", "choose"}))
            self.report(node, "dsl-unknown-verb", f"unknown verb '{node.verb}'", hint)
            for child in node.children():
                self.visit(child)
            return
        if verb.arg and node.arg is None:
            self.report(node, "dsl-missing-value",
                        f"'{node.verb}' needs a value: {verb.summary}")
        given = [k for k, _ in node.keywords]
        for keyword in given:
            if keyword not in verb.keywords:
                said = "a text after its value" if keyword == "saying" else f"'{keyword}'"
                self.report(node, "dsl-bad-keyword",
                            f"'{node.verb}' does not take {said}: {verb.summary}")
        for keyword in verb.required:
            if keyword not in given:
                said = "a text after its value" if keyword == "saying" else f"'{keyword} ...'"
                self.report(node, "dsl-missing-keyword",
                            f"'{node.verb}' needs {said}: {verb.summary}")
        sig = verb.signature
        wanted = {word: kind for word, kind, _ in sig.keywords}
        if node.arg is not None:
            self.verb_value(node, node.arg, sig.arg)
        for keyword, expr in node.keywords:
            kind = self.visit(expr)
            if keyword in wanted:
                self.expect(expr, kind, wanted[keyword], f"'{node.verb} ... {keyword}'")

    def verb_value(self, node, arg, wanted: Kind | None) -> None:
        procedures = self.vocab.procedures
        if wanted == HOOK:
            self.hook_point(node)
            return
        if wanted == PROGRAM and arg.__class__ is ast.Function and arg.name in procedures:
            arity = procedures[arg.name]
            if len(arg.args) != arity:
                self.report(arg, "dsl-arity",
                            f"'{arg.name}' takes {arity} value(s), got {len(arg.args)}")
            for value in arg.args:
                self.visit(value)
            return
        kind = self.visit(arg)
        if wanted == PROGRAM:                            # not a procedure: a record's effect
            wanted = EFFECT
        if wanted is not None:
            self.expect(arg, kind, wanted, f"'{node.verb}'")

    def hook_point(self, node) -> None:
        """``signal "point" with {names}``: a declared point, given exactly its declared names."""
        target, hooks = node.arg, self.vocab.hooks
        if not (target.__class__ is ast.Literal and type(target.value) is str):
            self.report(target, "dsl-hook", 'a hook point is named by a string: signal "name"')
            return
        if target.value not in hooks:
            self.report(target, "dsl-unknown-hook", f"unknown hook point '{target.value}'",
                        suggest(target.value, hooks))
            return
        declared = sorted(hooks[target.value])
        given = dict(node.keywords).get("with")
        if given is None:
            if declared:
                self.report(node, "dsl-hook", f"'{target.value}' needs 'with' its names {declared}")
            return
        if given.__class__ is ast.DictExpr and sorted(k for k, _ in given.pairs) != declared:
            self.report(given, "dsl-hook", f"'{target.value}' takes the names {declared}, got "
                                           f"{sorted(k for k, _ in given.pairs)}")

    def visit_If(self, node):
        start, ends = self.scope, []
        for cond, body in node.branches:
            self.scope = start
            self.visit(cond)
            self.visit(body)
            ends.append(self.scope)
        self.scope = start
        if node.orelse is not None:
            self.visit(node.orelse)
        ends.append(self.scope)
        self.scope = join(ends)

    def loop(self, body, enter) -> None:
        """A loop body runs zero or more times: visit it twice (the second time with
        what the first left behind), reporting only the second time.

        A loop met during an outer loop's first pass is visited once: two passes
        at every level would make the visits grow as 2**depth (twenty nested loops
        took minutes), and that first pass only gathers kinds for the second.
        """
        start = self.scope
        self.breaks.append([])
        if self.muted:
            self.scope = enter(start)
            self.visit(body)
            self.scope = join([start, self.scope] + self.breaks.pop())
            return
        self.muted += 1
        self.scope = enter(start)
        self.visit(body)
        self.muted -= 1
        again = join([start, self.scope])
        if again is not None and start is not None:
            again = Scope(again.kinds, start.definite)
        self.breaks[-1] = []
        self.scope = enter(again)
        self.visit(body)
        self.scope = join([start, self.scope] + self.breaks.pop())

    def visit_ForEach(self, node):
        items = self.iterate(node.iterable, self.visit(node.iterable), "'for each'")
        self.loop(node.body, lambda scope: scope and scope.bind(node.var, items))

    def visit_While(self, node):
        def enter(scope):
            self.scope = scope
            self.visit(node.cond)
            return scope
        self.loop(node.body, enter)

    def visit_Simultaneously(self, node):
        kind = self.visit(node.iterable)
        items = self.iterate(node.iterable, kind, "'simultaneously'")
        if not fits(items, PLAYER):
            self.report(node.iterable, "dsl-kind", f"'simultaneously for each' needs a list of "
                                                   f"players, but {explain(node.iterable)} is {kind}")
        start = self.scope
        self.breaks.append([])
        self.scope = start and start.bind(node.var, items)
        self.visit(node.body)
        self.breaks.pop()
        self.scope = start                      # each player's locals end with the block

    def visit_As(self, node):
        self.expect(node.who, self.visit(node.who), PLAYER, "'as'")
        self.visit(node.body)

    def visit_ChooseOne(self, node):
        start, ends = self.scope, []
        for alternative in node.alternatives:
            self.scope = start
            self.visit(alternative)
            ends.append(self.scope)
        self.scope = join(ends)

    def visit_ChooseIn(self, node):
        items = self.iterate(node.iterable, self.visit(node.iterable), "'choose'")
        start = self.scope
        self.scope = start and start.bind(node.var, items)
        for part in (node.cond, node.label):
            if part is not None:
                self.visit(part)
        self.visit(node.body)
        chosen = self.scope
        self.scope = start
        if node.otherwise is not None:
            self.visit(node.otherwise)
        self.scope = join([chosen, self.scope])


def _check_visitors(cls) -> None:
    """Every ``visit_X`` names a node class (a misspelt one would never run)."""
    for name in vars(cls):
        if name.startswith("visit_") and name != "visit_" and not hasattr(ast, name[6:]):
            raise TypeError(f"{cls.__name__}.{name}: there is no node class '{name[6:]}'")


_check_visitors(Checker)
