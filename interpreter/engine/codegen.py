"""Compile a ruleset's expressions to Python source, once per loaded ruleset.

Every ruleset function becomes one Python function ``F(ctx, *args)``: its
parameters and generator variables are Python locals, a call of another
ruleset function is a direct call (the memo looked up first), generators
are loops, and names of the ruleset's declarations are resolved when the
code is generated. Every other expression a program runs (a statement's
condition, a count, a label, a record's condition field) becomes a function
``E(ctx)`` that reads the thread's locals from ``ctx.env`` as before.
``Program.install`` puts each ``E`` on its syntax node (``node._fn``, where
``compile.compiled`` keeps closures), so the machine and the state are
unchanged: frames still name syntax nodes by number.

Content never becomes code. A name, string or number written in content
reaches the generated source only as ``K<n>``, an index into the program's
table of constants, and a local of the effect language only as ``v<n>``, a
name this module makes up; the source itself is made of this module's own
text and of those two kinds of name. Nothing is ever ``eval``-ed from
content. Errors are raised by the same helpers as the closures raise them,
and placed by the machine at the statement that ran, as before.

Verbs, functions, attributes and component kinds are looked up in the
mechanics tables and the ruleset's declarations while generating, so any
registered entry works; a construct this module does not know (or a
generator binding ``self``) is left to the closures of ``compile.py``.
"""
from __future__ import annotations

import functools
import hashlib
import re
import importlib.util
import marshal
import sys

from ..dsl import ast, kinds, lark_cache
from ..mechanics import ATTRIBUTES, FUNCTIONS, VERBS, core
from ..mechanics import grids, programs, zones
from ..mechanics.grids import ROOM_READERS, SIDE_READERS, _Geometry
from ..model import limits
from ..model.limits import _SMALL as SMALL, number, sized
from ..model.values import (PLAYERS, Condition, Grid, Player, Room, RuleError, Side, Zone, describe, items_of,
                            room_name, truth)
from . import budget
from .compile import _BASIC, _MISSING, _PYTHON_ERRORS, _divide, _equal, _int, _member, _plus, compiled, misuse

ENABLED = True
"""Whether games run generated code (tests turn it off to compare with the closures)."""

TRACING = False
"""Whether programs generated from now on tell ``game.tracer`` which arm of an ``if c then a else b``
ran and when the right side of an ``and``/``or`` is evaluated (the trace hook, docs/architecture.md;
the coverage turns it on before loading). Off, the generated code holds no trace point at all."""


class Unsupported(Exception):
    """A construct the generator leaves to the closures."""


# ---------------------------------------------------------------- the compiled code, cached on disk

def compiled_code(source: str, filename: str):
    """``compile(source)``, kept in the user's cache folder (as the parser's tables are, see
    ``dsl/lark_cache.py``): Python's compiler is most of the generator's time, and the source
    of one ruleset is the same from run to run. The file is named by a hash of the source, the
    file name and Python's bytecode version, and read only from a private folder."""
    path = _code_path(source, filename)
    if path is not None:
        try:
            if lark_cache._private(path.parent) and lark_cache._private(path):
                return marshal.loads(path.read_bytes())
        except Exception:              # missing or damaged: compile again
            pass
    code = compile(source, filename, "exec")
    if path is not None:
        _save_code(code, path)
    return code


_KEEP = 32          # compiled programs kept in the cache folder, the newest


def _code_path(source: str, filename: str):
    folder = lark_cache._folder()
    if folder is None:
        return None
    key = "\0".join([source, filename, importlib.util.MAGIC_NUMBER.hex(), sys.version])
    return folder / f"code-{hashlib.sha256(key.encode()).hexdigest()[:32]}.marshal"


def _save_code(code, path) -> None:
    lark_cache.save_newest(path, marshal.dumps(code), _KEEP)    # rulesets in passing do not pile up


# ---------------------------------------------------------------- helpers the generated code calls

def _items(ctx, value):
    """What a generator walks: a list (a zone's cards), charged to the step budget."""
    items = items_of(value, ctx.game.state)
    if type(items) is not list:
        raise RuleError(f"'for' needs a list, got {describe(items)}")
    budget.charge(ctx.game, len(items))
    return items


def _zone_binop(op, a, b, ctx):
    """``==``, ``!=``, ``in``, ``not in``, ``+`` where a zone compares by its cards."""
    state = ctx.game.state
    if type(a) is Zone:
        a = items_of(a, state)
    if type(b) is Zone:
        b = items_of(b, state)
    budget.operands(ctx.game, a, b)
    return _ZONE_OPS[op](a, b)


_ZONE_OPS = {
    "==": _equal,
    "!=": lambda a, b: not _equal(a, b),
    "in": _member,
    "not in": lambda a, b: not _member(a, b),
    "+": _plus,
}


def _compare_error(op, a, b):
    _int(a, op)
    _int(b, op)
    raise AssertionError("unreachable")         # one of them is not a number


def _condition_reader(Ctx, compiled):
    def condition(ctx, record_id, tree):
        """A record's condition field read (``evaluate._field``): ``self`` and ``this`` its locals."""
        fn = tree.__dict__.get("_fn")            # (evaluate's own look-up, without its call)
        return (fn or compiled(tree))(Ctx(ctx.game, {"self": ctx.env.get("self"), "this": record_id}))
    return condition


def _fail(message):
    raise RuleError(message)


def _trace(ctx, node, arm):
    """A trace point (``TRACING``): tell the game's tracer, if it has one, that ``arm`` ran."""
    tracer = ctx.game.tracer
    if tracer is not None:
        tracer.ran(ctx.game, node, arm)


# ---------------------------------------------------------------- helpers of generated blocks

def _after_of(machine):
    """``AFTER(game, th, frame, i, stmt)``, run after a simple statement of a block: a scenario's
    stop, or the programs it asked to run (``machine._block`` does the same); ``_GO_ON`` when the
    block goes on. (The machine is given: it imports this module.)"""
    push_queued, wait = machine._push_queued, machine.WAIT

    def after(game, th, frame, i, stmt):
        if game.pause is not None and game.pause(game):
            game.paused = True
            frame["i"] = i
            if game.queued:
                push_queued(game, th, stmt)
            return wait
        if game.queued:
            frame["i"] = i
            push_queued(game, th, stmt)
            return None
        return _GO_ON
    return after


_GO_ON = object()


def _machine_runs(game, th, frame):
    """A block the generator left out, pushed by one it wrote: the machine runs it (``run_block``)."""
    return None


def _loop_items(value, state) -> list:
    """The items a ``for each`` runs over (as ``machine._for_each`` takes them)."""
    value = items_of(value, state)
    if type(value) is not list:
        raise RuleError(f"'for each' needs a list, got {describe(value)}")
    return list(value)


def _ender(rules):
    """``END(th, frame)`` for this ruleset's generated blocks: a block has run its last statement,
    so its frame goes (and a call's locals with it), and so do the blocks under it that were
    waiting only for it to end (their last statement ran): the machine would resume each now
    just to end it, and nothing happens in between (no statement, no stop, no step)."""

    class Ends(dict):                  # a node numbered after this (a scenario's text): the machine
        def __missing__(self, n):      # resumes its frame, as it would any
            return None

    ends = Ends((k, len(node.body) if node.__class__ is ast.Block else None) for k, node in enumerate(rules.nodes))

    def end(th, frame) -> None:        # (``in`` and ``del``: no call a level; "call" is only ever True)
        frames = th["frames"]
        del frames[-1]
        if "call" in frame:
            del th["envs"][-1]
        while frames:
            below = frames[-1]
            if "i" not in below or below["i"] != ends[below["n"]]:
                return
            del frames[-1]
            if "call" in below:
                del th["envs"][-1]
    return end


def attribute_reader(name: str, rules):
    """``value.name`` for this one name, its likely readers found once (generic dispatch last)."""
    from .evaluate import attribute, player_attribute
    room_reader = ROOM_READERS.get(name)
    entities = rules.entities
    player_kind = rules.player_components.get(name)
    player_value = player_kind.value if player_kind is not None else None
    is_id = name == "id"

    def read(ctx, value):
        kind = type(value)
        if kind is str and not is_id:               # a content record's plain field (most read)
            record = entities.get(value)
            if record is not None:
                field = record.get(name, _MISSING)
                if field is not _MISSING and type(field) is not Condition:
                    return field
        elif kind is Room and room_reader is not None:
            return room_reader(ctx, value)
        elif kind is dict and name in value:
            return value[name]
        elif kind is Player:
            if player_value is not None:
                return player_value(ctx, name, value.seat)
            return player_attribute(value.seat, name, ctx)
        return attribute(value, name, ctx)          # everything else, and every error
    return read


def _unknown_name(name):
    def fail(ctx):
        raise RuleError(f"unknown name '{name}'")
    return fail


# ---------------------------------------------------------------- the program of one ruleset

class Program:
    """The generated code of one ruleset: its source, namespace and compiled functions."""

    def __init__(self, rules):
        self.rules = rules
        self.source = ""
        self.functions: dict = {}          # ruleset function name -> fn(ctx, args) (the Game's table)
        self.roots: dict = {}              # id(node) -> (node, fn(ctx)), installed as node._fn
        self.filters: dict = {}            # id(choice) -> (node, fn(ctx, values)), as node._options
        self.blocks: dict = {}             # id(block) -> (node, fn(game, th, frame)), as node._run
        self.left_out: list = []           # roots the closures run (Unsupported)
        self.namespace: dict = {}          # the generated module's globals (constants as K<n>)
        self.generator = None

    def install(self) -> None:
        """Put each generated expression on its node, where ``evaluate`` finds it."""
        for node, fn in self.roots.values():
            object.__setattr__(node, "_fn", fn)
        for node, fn in self.filters.values():
            object.__setattr__(node, "_options", fn)
        for node, fn in self.blocks.values():
            object.__setattr__(node, "_run", fn)
        for _, tree in self.rules.functions.values():     # a body run alone (a sources function,
            if id(tree) not in self.roots:                 # the score): generated when first run
                object.__setattr__(tree, "_fn", self._first_run(tree))

    def _first_run(self, tree):
        """``fn(ctx)`` for a ruleset function's body evaluated on its own, not called (its values
        in ``ctx.env``): on its first run it is generated (``add``) and puts itself in its place;
        a body the generator leaves out gets the closures."""
        def first(ctx):
            fn = self.add(tree)
            if fn is None:
                from .compile import compiled
                object.__setattr__(tree, "_fn", None)
                fn = compiled(tree)
            return fn(ctx)
        return first

    def add(self, tree):
        """Generate and install one more expression (a text given after loading); its ``fn(ctx)``.

        Left to the closures (None) when the generator does not know a construct in it.
        """
        gen = self.generator
        gen.lines = []
        name = gen.fresh("E")
        try:
            gen.root(name, tree)
        except Unsupported:
            return None
        source = "\n".join(gen.lines) + "\n"
        exec(compile(source, f"<rulebook {self.rules.folder} text>", "exec"), self.namespace)
        self.source += source
        self.roots[id(tree)] = (tree, self.namespace[name])
        object.__setattr__(tree, "_fn", self.namespace[name])
        return self.namespace[name]


def program_of(rules) -> Program:
    """The ruleset's generated program, built and compiled on first use, kept on ``rules``."""
    program = rules.__dict__.get("_program")
    if program is None:
        program = _Generator(rules).build()
        rules._program = program
        program.install()
    return program


def _expression_roots(rules) -> list:
    """Every expression the engine evaluates on its own: those under statements and the rest."""
    parents_expr: set = set()
    for node in rules.nodes:
        if isinstance(node, _EXPRESSIONS):
            for child in node.children():
                parents_expr.add(id(child))
    roots, seen = [], set()

    def add(node):
        if node is not None and isinstance(node, _EXPRESSIONS) and id(node) not in seen:
            seen.add(id(node))
            roots.append(node)
    for node in rules.nodes:
        if isinstance(node, _EXPRESSIONS):
            if id(node) not in parents_expr:
                add(node)
        elif node.__class__ is ast.Call and node.arg.__class__ is ast.Function:
            for arg in node.arg.args:                # a procedure call's values (statements.program)
                add(arg)
    for tree in list(rules.expressions.values()) + list(rules.visibility.values()):
        add(tree)
    return roots


_EXPRESSIONS = ast.EXPRESSIONS


class _Generator:
    """Writes the Python source of one ruleset's programs (see the module docstring)."""

    def __init__(self, rules):
        from .evaluate import Ctx, evaluate, index      # evaluate imports compile, as this module does
        from . import machine, statements  # noqa: F401 (statements fills machine.SIMPLE, read below)
        self.rules = rules
        self.machine = machine
        self.namespace: dict = {
            "INDEX": index,
            "__builtins__": {"type": type, "bool": bool, "int": int, "str": str, "dict": dict, "list": list,
                             "len": len, "RecursionError": RecursionError},
            "RuleError": RuleError, "Zone": Zone, "Room": Room, "Side": Side, "Player": Player,
            "UNSET": Room.unset, "ROOM_NAMES": _room_names(rules), "CONDITION": _condition_reader(Ctx, compiled),
            "TRUTH": truth, "ITEMS": _items, "ENTITIES": rules.entities, "Condition": Condition,
            "GEO": grids.geometries(rules), "Grid": Grid,
            "LIMITS": limits,
            "ZONE_OP": _zone_binop, "CMP_ERROR": _compare_error, "FAIL": _fail,
            "NUMBER": number, "SIZED": sized, "INT": _int, "DIVIDE": _divide, "PLUS": _plus,
            "MISUSE": misuse, "PYERR": _PYTHON_ERRORS, "BUDGET": budget, "NK": _MISSING,
            "PLAIN": (int, str, type(None)), "KEYED": (int, str, type(None), Player), "TRACE": _trace, "SMALL": SMALL,
            "ERROR": Exception, "AFTER": _after_of(machine), "GO_ON": _GO_ON, "END": _ender(rules), "KEPT": budget.kept, "LOOP_ITEMS": _loop_items, "RANGE": range,
            "CTX": Ctx, "EVAL": evaluate, "PUSH": machine.push, "BREAK": machine._break,
            "LOCATED": machine.located, "INTERNAL": machine.internal, "WAIT": machine.WAIT, "NESTED": _NESTED, "SEATS": PLAYERS,
            "DECIDE": machine._decide, "OTHERWISE": machine.only_otherwise, "CHOICES": machine.choices, "ITEMS_OF": items_of, "DESCRIBE": describe,
        }
        self.tracing = TRACING
        self.consts: dict = {}             # (type, value) or id -> its K name
        self.namespace["ZIP"], self.namespace["SIZED_T"] = zip, budget._SIZED
        self.namespace["RKEYS"], self.namespace["RTAGS"] = _room_keys(rules, self.namespace[self.room_tags()])
        self.namespace["ROOM_ITEMS"], self.namespace["ROOM_TAGS"] = _RoomItems, _tags_of(self.namespace[self.room_tags()])
        self.lines: list = []
        self.temp = 0
        self.fnames: dict = {}             # ruleset function -> its F name
        self.readers: dict = {}            # attribute -> its reader's name
        self.root_names: dict = {}         # id(expression) -> its E name
        self.fields: dict = {}             # attribute -> {record id: plain field} (one table per name)
        self.pure: dict = {}               # table name -> the K name of its reference (pure kinds)
        self.inlinable: dict = {}          # ruleset function -> whether calls of it are written inline
        self.pure_functions: dict = {}     # ruleset function -> whether it reads and never rolls
        self.self_readers: dict = {}       # ruleset function -> whether it may read self (``reads_self``)
        self.written_sizes: dict = {}      # inlinable ruleset function -> nodes a call writes
        self.condition_fields: dict = {}   # attribute -> {record id: its condition's expression}
        self.condition_call_tables: dict = {}  # attribute -> {record id: fn(ctx, record id)}
        self.pure_conditions: dict = {}    # attribute -> whether its conditions are pure (``pure_condition``)
        self.generators = 0                # generators being written, one inside another
        self.runners: set = set()          # node ids of blocks that blocks run directly (``run_block``)
        self.filter_names: dict = {}       # id(choose) -> the name of its options' function
        self.cells: dict | None = None     # per root being written: {key of a common part: its cell}
        self.cell_inits: dict = {}         # generator node id (None: the root) -> cells made NK there
        self.keys_seen: dict = {}          # (id(node), id(scope)) -> (scope, its key), per root
        self.ints: set = set()             # locals that surely hold a number (a count made here)
        self.lists: set = set()            # locals that surely hold a new list (made here, never set again)
        self.bool_functions: dict = {}     # ruleset function -> whether its body ``is_bool``
        self.room_keys: dict = {}          # a loop's local -> its ``_RoomKeys`` (``rooms_walked``)
        self.sorts: dict = {}              # a local (or an expression's text) -> its proven sort (``sort_of``)
        self.result_sorts: dict = {}       # ruleset function -> the proven sort of its value
        self.root_sorts: dict = {}         # id(expression root) -> the proven sort of its value
        self.flow: _Flow | None = None     # per root with cells: what is known of them at the line written
        self.waiting: list = []            # generator loops whose ``for`` line waits (``_Loop``)
        self.bound: dict = {}              # per function written: cell -> loops open at its binding
        self.typing: _Typing | None = None  # per function written: its type tests (``is_``)
        self.heights: dict = {}            # ruleset function of no cycle -> how deep its calls go
        self.in_bounded = False            # whether a bounded function's body is being written
        self.zone_ids = _zone_ids(rules)   # whether every zone only ever holds texts (record ids)

    # ------------------------------------------------------------ names in the source
    def const(self, value) -> str:
        """The name of a constant: the only way a content value reaches the source."""
        key = (type(value), value) if type(value) in (str, int, bool, type(None)) else id(value)
        name = self.consts.get(key)
        if name is None:
            name = f"K{len(self.consts)}"
            self.consts[key] = name
            self.namespace[name] = value
        return name

    def each(self, nodes, prefix: str, write, wanted) -> list:
        """``write(name, node)`` for each wanted node, as ``[(name, node)]``; a node the
        generator does not support leaves no lines and stays with the interpreter."""
        written = []
        for node in nodes:
            if wanted(node):
                mark = len(self.lines)
                name = self.fresh(prefix)
                try:
                    write(name, node)
                    written.append((name, node))
                except Unsupported:
                    del self.lines[mark:]
        return written

    def fresh(self, prefix="t") -> str:
        self.temp += 1
        return f"{prefix}{self.temp}"

    def line(self, depth: int, text: str) -> None:
        if self.flow is not None:
            if self.waiting and not self.waiting[-1].hoisting:
                self.open_loop()                   # the loop's body has more than its invariant cells
            self.flow.follow(depth, text)
        typing = self.typing
        if typing is not None and (typing.loops or typing.once or text.endswith(":")):
            typing.follow(depth, text)
        self.lines.append("    " * depth + text)

    def is_(self, x: str, kind: str, d: int | None = None) -> str:
        """``type(x) is kind`` (kind "truth": whether ``x`` holds), or the local ``_Typing`` keeps
        it in: a parameter's tested inside a loop or three times, a cell's tested in a loop
        its binding is outside of (set once, where its work ends: ``cell``)."""
        raw = _raw_test(x, kind)
        typing = self.typing
        if typing is None or kind not in _FLAGGED and not kind.startswith("upto"):
            return raw
        param = x in typing.params and kind != "truth"
        if not param and (x[0] != "h" or x not in self.bound and (self.flow is None or x not in self.flow.bound)):
            return raw
        if self.waiting and not self.waiting[-1].hoisting:
            self.open_loop()                       # (the line this test is for opens it)
        if d is not None:
            typing.follow(d, "")                   # (the blocks that line is after)
        level, pair = typing.level(), (x, kind)
        if param:
            typing.counts[pair] = typing.counts.get(pair, 0) + 1
            if level or typing.counts[pair] >= 3:
                typing.wanted.add(pair)
        elif level and self.bound.get(x, self.flow.bound.get(x) if self.flow is not None else level) < level:
            typing.wanted.add(pair)
        return f"q{x}{kind.lower()}" if pair in typing.preset else raw

    def flags(self, name: str, d: int) -> None:
        """The flags of ``name`` (a parameter, a cell just worked out) the function reads."""
        for x, kind in sorted(self.typing.preset) if self.typing is not None else ():
            if x == name:
                test = _raw_test(x, kind) if kind != "truth" else _TRUTH.format(x)
                self.line(d, f"q{x}{kind.lower()} = {test}")

    def twice(self, write, *args) -> None:
        """``write(*args)``, a function whose type tests some flags keep (``is_``), written again
        when its first writing found them (only then is it known which tests to write so)."""
        start, temp, preset = len(self.lines), self.temp, set()
        known = set(self.ints), set(self.lists), dict(self.room_keys)
        try:
            for _ in range(3):
                self.typing, self.bound = _Typing(preset), {}
                write(*args)
                wanted = self.typing.wanted
                if wanted <= preset:
                    return
                del self.lines[start:]                 # (and what the generator learnt there)
                self.temp, preset = temp, preset | wanted
                for text, sort in self.typing.sorts.items():
                    self.sorts.pop(text, None)
                    if sort is not None:
                        self.sorts[text] = sort
                self.ints, self.lists, self.room_keys = set(known[0]), set(known[1]), dict(known[2])
            raise Unsupported("flags that do not settle")     # (never seen: left to the closures)
        finally:
            self.typing, self.bound = None, {}

    def open_loop(self) -> None:
        """The ``for`` line of the innermost waiting loop, after the cells it hoisted (``expr``):
        inside it those are set (it has a turn only when ``if items:`` ran them)."""
        loop = self.waiting.pop()
        self.line(loop.depth, loop.text)
        loop.at = len(self.lines) - 1
        if loop.head is None:
            loop.head = loop.at
        flow = self.flow
        flow.levels[loop.nid] = flow.loops
        for cell in loop.hoisted:
            flow.known[cell] = loop.depth + 1

    def begin_loop(self, depth: int, text: str, items: str, nid) -> "_Loop":
        """A loop over ``items`` whose per-turn cells are bound by ``nid``: its ``for`` line waits
        (while cells are kept) for its body's first line that is not a leading loop-invariant cell."""
        loop = _Loop(depth, text, items, nid)
        if self.flow is None:
            self.line(depth, text)
            loop.at = loop.head = len(self.lines) - 1
        else:
            self.waiting.append(loop)
        return loop

    def end_loop(self, loop) -> None:
        """The loop's ``for`` line written, if its body wrote nothing yet."""
        if loop.at is None:
            assert self.waiting[-1] is loop
            self.open_loop()

    # A value's *sort* is what the generator has proven about it from where it came from, not
    # from the checker's guess: a Python type (``Room``, ``Side``, ``int``, ``bool``, ``str``) or
    # ``("list", item sort or None)``. Only origins this module controls prove one: a literal, a
    # comparison, a registered function's declared result (``_RESULTS``, each checked against its
    # code), a list a generator here collected, a loop over a proven list, a ruleset function's
    # body. A parameter, a record field or a local of the thread proves nothing: any value can
    # come through them, so reads of those keep every branch and the generic reader.

    def sort_of(self, text: str):
        """The proven sort of a local, constant or expression text the generator wrote (None: unknown)."""
        found = self.sorts.get(text)
        if found is not None:
            return found
        if text in self.ints:
            return int
        if _CONST.fullmatch(text) and text in self.namespace:
            value = self.namespace[text]
            kind = type(value)
            if kind in _CONST_SORTS:
                return kind
            if kind is list and len(value) < 4096:     # a constant list (never changed): its items'
                items = {type(item) for item in value}
                return ("list", items.pop() if len(items) == 1 and items <= {bool, int, str} else None)
        return None

    def python_type(self, text: str):
        """The Python type of a value of proven sort (None: not known, or one of two: ``_ID_OR_NONE``)."""
        sort = self.sort_of(text)
        return list if type(sort) is tuple else sort if type(sort) is type else None

    def sorted_as(self, text: str, sort) -> str:
        """``text``, its sort noted (None: nothing known)."""
        if self.typing is not None and text not in self.typing.sorts:
            self.typing.sorts[text] = self.sorts.get(text)     # (as it was: ``twice``)
        if sort is not None:
            self.sorts[text] = sort
        else:
            self.sorts.pop(text, None)
        return text

    # ------------------------------------------------------------ whole program
    def build(self) -> Program:
        rules = self.rules
        program = Program(rules)
        program.namespace, program.generator = self.namespace, self
        names = list(rules.functions)
        for k, name in enumerate(names):
            self.fnames[name] = f"F{k}"
        self.callees_first()
        self.work_out_heights()
        kept = {}
        for name in self.callee_order():               # (a caller then knows its callees' sorts)
            params, tree = rules.functions[name]
            mark = len(self.lines)
            try:
                self.twice(self.function, name, params, tree)
                kept[name] = self.fnames[name]
            except Unsupported:
                del self.lines[mark:]
                self.fnames.pop(name)
        roots = []
        bodies = {id(tree) for _, tree in rules.functions.values()}
        trees = [tree for tree in _expression_roots(rules) if id(tree) not in bodies]
        for tree in trees:                          # (a function's body run alone, as the score is,
                                                    # is left to the closures: its calls are generated)
            mark = len(self.lines)
            name = self.fresh("E")
            try:
                self.twice(self.root, name, tree)
                roots.append((name, tree))
                self.root_names[id(tree)] = name
            except Unsupported:
                del self.lines[mark:]
                program.left_out.append(tree)
        filters = self.each(rules.nodes, "C", lambda name, node: self.twice(self.options, name, node),
                            lambda n: n.__class__ is ast.ChooseIn and n.cond is not None)
        self.filter_names = {id(node): name for name, node in filters}
        blocks = self.each(rules.nodes, "B", self.block, lambda n: n.__class__ is ast.Block)
        conditions = self.condition_roots()
        program.source = "\n".join(self.lines) + "\n"
        code = compiled_code(program.source, f"<rulebook {rules.folder}>")
        exec(code, self.namespace)                  # our source only; content is in the constants
        for name, fname in kept.items():
            program.functions[name] = _adapter(name, len(rules.functions[name][0]), self.namespace[fname])
        for name, tree in roots:
            program.roots[id(tree)] = (tree, self.namespace[name])
        for name, node in filters:
            program.filters[id(node)] = (node, self.namespace[name])
        for name, node in blocks:
            program.blocks[id(node)] = (node, self.namespace[name])
        for calls, rid, name in conditions:
            calls[rid] = self.namespace[name]
        generated = {id(node): self.namespace[name] for name, node in blocks}
        for nid in self.runners:                    # a block left to the machine: it runs the frame
            self.namespace[f"R{nid}"] = generated.get(id(rules.nodes[nid]), _machine_runs)
        return program

    def condition_roots(self) -> list:
        """A ``D`` function (``condition_root``) for each condition field the code reads (those
        read only in ``D`` functions too), as ``[(its table, record id, D name)]`` to put in
        the tables once compiled; a field the generator leaves out keeps ``CONDITION``."""
        written, done, names = [], set(), {}
        while len(done) < len(self.condition_call_tables):
            for field in [f for f in self.condition_call_tables if f not in done]:
                done.add(field)
                calls = self.condition_call_tables[field]
                for rid, tree in self.conditions(field).items():
                    if id(tree) not in names:
                        mark, name = len(self.lines), self.fresh("D")
                        try:
                            self.twice(self.condition_root, name, tree)
                        except Unsupported:
                            del self.lines[mark:]
                            name = None
                        names[id(tree)] = name
                    if names[id(tree)] is not None:
                        written.append((calls, rid, names[id(tree)]))
        return written

    def callee_order(self) -> list:
        """The ruleset's functions, each after those it calls (a cycle in the order met), with a
        stack of our own (a chain of 600 functions overflowed Python's, see ``callees_first``)."""
        functions, order, placed = self.rules.functions, [], set()
        for root in functions:
            stack = [(root, iter(self.callees(root)))] if root not in placed else []
            placed.add(root)
            while stack:
                name, todo = stack[-1]
                callee = next((c for c in todo if c not in placed), None)
                if callee is not None:
                    placed.add(callee)
                    stack.append((callee, iter(self.callees(callee))))
                    continue
                stack.pop()
                order.append(name)
        return order

    def callees(self, name: str) -> list:
        functions = self.rules.functions
        return [n.name for n in _walk(functions[name][1]) if n.__class__ in (ast.Function, ast.Generator)
                and n.name in functions]

    def zone_named(self, node) -> bool:
        """Whether ``node`` names one of the table's or the acting player's zones, not a numbered
        group, and every zone holds ids alone (``zone_ids``): a walk of it gives texts."""
        if node.__class__ is not ast.Name or not self.zone_ids:
            return False
        kind, spec = self.rules.names.get(node.id), self.rules.zones.get(node.id)
        return (kind is not None and kind[0] in ("table", "mine") and kind[1] is zones.KIND
                and type(spec) is dict and not spec.get("count"))

    def function(self, name: str, params, tree) -> None:
        """``def F(ctx, *params)``: memo first, then the budget, then the body."""
        fname = self.fnames[name]
        local = {p: self.fresh("v") for p in params}
        me = self.fresh("v")
        selfless = not self.reads_self(name)
        keys = {p: (("param", p), 0, None) for p in params}
        scope = _Scope(local if selfless else dict(local, self=me), dynamic=False,
                       keys=keys if selfless else dict(keys, self=_SELF_KEY))
        args = ", ".join(local[p] for p in params)
        if self.typing is not None:
            self.typing.params = {local[p] for p in params} | {me}
        line = self.line
        bounded = self.bounded(name)
        line(0, f"def {fname}(ctx{', ' if args else ''}{args}{', nested=False' if bounded else ''}):")
        line(1, "game = ctx.game")
        if not selfless:                           # else one value whoever asks: no self in the key
            line(1, f"{me} = ctx.env.get('self')")
        self.memo_key(name, [local[p] for p in params], None if selfless else me)
        mark = len(self.lines)                     # the state's local after the memo (hot_locals)
        if bounded:                                # no depth kept: a step when nested (``bounded``)
            line(1, "if nested or game.depth:")
            line(2, "game.steps -= 1")
            line(2, "if game.steps < 0 or not nested and game.depth >= BUDGET.MAX_CALL_DEPTH:")
        else:
            line(1, "depth = game.depth")
            line(1, "if depth:")
            line(2, "game.steps -= 1")
            line(2, "if depth >= BUDGET.MAX_CALL_DEPTH or game.steps < 0:")
        line(3, f"raise BUDGET.call_exceeded(game, {self.const(tree)})")
        if not bounded:
            line(1, "game.depth = depth + 1")
        line(1, "try:")
        for p in sorted(self.typing.params if self.typing is not None else ()):
            self.flags(p, 2)
        within, self.in_bounded = self.in_bounded, bounded
        try:
            result = self.with_cells(tree, scope, 2, pure=self.is_pure(name))
        finally:
            self.in_bounded = within
        line(2, f"value = {result}")
        if self.sort_of(result) is not None:           # its callers know what it gives
            self.result_sorts[name] = self.sort_of(result)
        line(1, "except RecursionError:")
        line(2, "raise BUDGET.call_error(game) from None")
        if not bounded:
            line(1, "finally:")
            line(2, "game.depth = depth")
        if params:
            line(1, "if key is not None:")
            line(2, "game.memo[key] = value")
        else:
            line(1, "game.memo[key] = value")
        line(1, "return value")
        self.hot_locals(mark, has_game=True)

    def memo_key(self, name: str, args: list, me: str | None) -> None:
        """``key`` of a call in the memo (None: not kept), and the value kept there returned.

        Plain arguments are their own key; a player is keyed by a tagged seat (a tuple is no
        value of the language, so it is mistaken for no argument): rulesets ask a lot about
        players. Arguments all plain (the usual case) take one type test each; a function
        of no arguments that never reads self has one key, a constant."""
        line = self.line
        seat = "None" if me is None else f"None if {me} is None else {me}.seat"

        def look_up(d: int) -> None:
            line(d, "if key in game.memo:")                # (two look-ups when kept, no call)
            line(d + 1, "return game.memo[key]")
        if not args:
            key = self.const((name, None)) if me is None else f"({self.const(name)}, {seat})"
            line(1, f"key = {key}")
            look_up(1)
            return
        line(1, f"if {' and '.join(f'type({a}) in PLAIN' for a in args)}:")
        line(2, f"key = ({self.const(name)}, {seat}{''.join(', ' + a for a in args)})")
        look_up(2)
        tag = self.const("$player")
        plain = " and ".join(f"type({a}) in KEYED" for a in args)        # (plain, or a player)
        keys = "".join(f", ({a} if type({a}) is not Player else ({tag}, {a}.seat))" for a in args)
        if len(args) == 1:                             # one value, not plain: a player, or no key
            plain, keys = f"type({args[0]}) is Player", f", ({tag}, {args[0]}.seat)"
        line(1, f"elif {plain}:")
        line(2, f"key = ({self.const(name)}, {seat}{keys})")
        look_up(2)
        line(1, "else:")
        line(2, "key = None")

    def hot_locals(self, mark: int, has_game: bool = False) -> None:
        """Make ``ctx.game`` and its state locals of the function whose body starts at line
        ``mark`` (``has_game``: ``game`` is one there already) where the body reads them on its
        common paths (the state's parts, the step budget), not only as a fallback's argument:
        neither changes while an expression is worked out (a game's state is set once)."""
        body = self.lines[mark:]
        state = any("ctx.game.state[" in text for text in body)
        game = has_game or any("ctx.game.steps" in text for text in body)
        head = [] if has_game or not game else ["    game = ctx.game"]
        if state:
            head.append(f"    state = {'game' if game else 'ctx.game'}.state")
        if state:
            body = [_STATE.sub("state", text) for text in body]
        if game:
            body = [_GAME.sub("game", text) for text in body]
        self.lines[mark:] = head + body

    def root(self, name: str, tree) -> None:
        """``def E(ctx)``: an expression reading the thread's locals from ``ctx.env``."""
        self.line(0, f"def {name}(ctx):")
        mark = len(self.lines)
        self.line(1, "env = ctx.env")
        result = self.with_cells(tree, _Scope({}, dynamic=True), 1)
        self.line(1, f"return {result}")
        self.root_sorts[id(tree)] = self.sort_of(result)      # (a choice's filter reads its list's)
        self.hot_locals(mark)

    def options(self, name: str, node) -> None:
        """``def C(ctx, values)``: the values a ``choose x in xs if cond`` offers (those for which
        cond holds), ``x`` a Python local while cond is worked out, as the machine binds it."""
        if node.var == "self":
            raise Unsupported("self")
        var = self.fresh("v")
        self.line(0, f"def {name}(ctx, values):")
        mark = len(self.lines)
        self.line(1, "env = ctx.env")
        self.line(1, "out = []")
        inits = len(self.lines)
        listed = self.root_sorts.get(id(node.iterable))      # the machine gives its list's items
        self.sorted_as(var, listed[1] if type(listed) is tuple else str if self.zone_named(node.iterable) else None)
        scope = _Scope({node.var: var}, dynamic=True, keys={node.var: (("var", id(node)), 1, id(node))})
        self.begin_cells(node.cond, scope, 1)
        try:
            loop = self.begin_loop(1, f"for {var} in values:", "values", id(node))
            cond = self.atom(node.cond, scope, 2)
            self.end_loop(loop)
            self.init_cells(loop.at + 1, 2, id(node))
            self.init_cells(inits, 1, None)
        finally:
            self.end_cells()
        self.line(2, f"if {self.holds(cond, node.cond)}:")
        self.line(3, f"out.append({var})")
        self.line(1, "return out")
        self.hot_locals(mark)

    # ------------------------------------------------------------ blocks of statements
    #
    # A block becomes ``def B(game, th, frame)``, run where ``machine._block``
    # would run it, on the same frame: ``frame["i"]`` is the statement to run
    # next, so the state is what the interpreted block leaves at every stop
    # and a saved game resumes either way. Statement ``k`` is guarded by
    # ``if i < k + 1``, so a resumed block skips what it already ran. Simple
    # statements run inline; a compound one is pushed as a frame (an ``if``
    # is decided here, and its branch pushed, as its frame would have done;
    # a ``choose`` lists its options here, its frame pushed only to wait).
    # A block pushed for a block is run by a call (``run_block``), and so is
    # a ``while`` (``run_while``: the machine's runner for it); the end of a
    # block ends those under it that waited only for it (``END``).

    def block(self, name: str, node) -> None:
        line, k = self.line, self.const
        line(0, f"def {name}(game, th, frame):")
        head = len(self.lines)
        line(1, f"i = frame.get({k('i')}, 0)")
        line(1, f"env = th[{k('envs')}][-1]")
        line(1, "ctx = CTX(game, env)")
        line(1, f"frames = th[{k('frames')}]")
        self.block_node = node
        for n, stmt in enumerate(node.body):
            line(1, f"if i < {n + 1}:")
            simple = self.machine.SIMPLE.get(stmt.__class__)
            if simple is not None and self.direct_do(stmt):
                self.do_directly(stmt, n + 1)
            elif simple is not None:
                self.simple_statement(stmt, simple, n + 1)
            elif stmt.__class__ is ast.Break:
                line(2, f"frame[{k('i')}] = {n + 1}")
                line(2, "return BREAK(game, th)")
            elif stmt.__class__ is ast.If:
                self.if_statement(stmt, n + 1)
            elif stmt.__class__ is ast.ChooseIn and stmt.var != "self":
                self.choose_in(stmt, n + 1)
            elif self.runs_through(stmt):
                line(2, f"frame[{k('i')}] = {n + 1}")
                line(2, f"base = len(th[{k('frames')}])")
                self.loop(stmt, 2, 0, [])
            elif stmt.__class__ is ast.While:
                self.run_while(stmt, n + 1)
            else:
                line(2, f"frame[{k('i')}] = {n + 1}")
                line(2, f"PUSH(game, th, {k(stmt)})")
                line(2, "return None")
        line(1, "END(th, frame)")
        line(1, "return None")
        body = "\n".join(self.lines[head + 4:])         # the locals no statement reads go
        for local, at in (("frames", head + 3), ("ctx", head + 2), ("env", head + 1)):
            if re.search(rf"\b{local}\b", body) is None:
                del self.lines[at]
            else:
                body += "\n" + self.lines[at]

    def value_of(self, tree) -> str:
        """A Python expression for an expression node's value: its generated function, or the
        closures (``evaluate``) for one the generator left to them."""
        name = self.root_names.get(id(tree))
        return f"{name}(ctx)" if name is not None else f"EVAL({self.const(tree)}, ctx)"

    def simple_statement(self, stmt, simple, after: int, d: int = 2, frames: list | None = None) -> None:
        """A simple statement, as ``machine._block`` runs it: memo cleared before and after,
        errors placed at it, then a scenario's stop or the programs it asked to run. Inside a
        loop run through, ``frames`` are the frames that loop would have after it, given back
        to the machine then."""
        line, k = self.line, self.const
        at = k(stmt)
        line(d, "if game.memo:")
        line(d + 1, "game.memo.clear()")
        line(d, "try:")
        self.statement_body(stmt, simple, d + 1)
        line(d, "except RuleError as exc:")
        line(d + 1, "game.queued.clear()")
        line(d + 1, f"raise LOCATED(game, exc, {at}) from None")
        line(d, "except ERROR as exc:")
        line(d + 1, "game.queued.clear()")
        line(d + 1, f"raise INTERNAL(game, exc, {at}) from exc")
        line(d, "if game.memo:")
        line(d + 1, "game.memo.clear()")
        line(d, "if game.pause is not None or game.queued:")
        if frames is None:
            line(d + 1, f"went = AFTER(game, th, frame, {after}, {at})")
            line(d + 1, "if went is not GO_ON:")
            line(d + 2, "return went")
        else:
            line(d + 1, f"th[{k('frames')}].extend([{', '.join(frames)}])")
            line(d + 1, f"went = AFTER(game, th, th[{k('frames')}][-1], {after}, {at})")
            line(d + 1, "return None if went is GO_ON else went")

    def statement_body(self, stmt, simple, d: int) -> None:
        line, k = self.line, self.const
        cls = stmt.__class__
        if cls is ast.Pass:
            line(d, "pass")
        elif cls is ast.Assign and len(stmt.target) == 1:
            name = stmt.target[0]
            t = self.fresh()
            line(d, f"{t} = {self.value_of(stmt.value)}")
            line(d, f"if type({t}) is list or type({t}) is dict:")     # (anything else is kept as it is)
            line(d + 1, f"{t} = KEPT(game, {t})")
            if name in self.rules.vars:                  # a local if one is bound, else the game's
                line(d, f"if {k(name)} in env:")
                line(d + 1, f"env[{k(name)}] = {t}")
                line(d, "else:")
                line(d + 1, f"game.state[{k('vars')}][{k(name)}] = {t}")
            else:
                line(d, f"env[{k(name)}] = {t}")
        elif cls is ast.Call and self.procedure_call(stmt):
            self.do_procedure(stmt, d)
        elif cls is ast.Call and not self.verb(stmt).takes_program:
            arg = "None" if stmt.arg is None else self.value_of(stmt.arg)
            t = self.fresh()
            line(d, f"{t} = {arg}")
            keywords = ", ".join(f"{k(key)}: {self.value_of(v)}" for key, v in stmt.keywords)
            line(d, f"game.verbs[{k(stmt.verb)}].run(ctx, {t}, {{{keywords}}})")
        else:
            line(d, f"{k(simple)}(game, ctx, {k(stmt)})")

    @staticmethod
    def verb(stmt):
        return VERBS[stmt.verb]

    def procedure_call(self, stmt) -> bool:
        """``do proc(args)`` with the right number of values (other programs: the statement)."""
        target = stmt.arg
        return (self.verb(stmt).takes_program and target.__class__ is ast.Function
                and target.name in self.rules.procedures
                and len(target.args) == len(self.rules.procedures[target.name][0]))

    def do_procedure(self, stmt, d: int) -> None:
        """As ``statements.call`` with ``statements.program``: the procedure's locals, then the verb."""
        line, k = self.line, self.const
        params, root = self.rules.procedures[stmt.arg.name]
        env = self.fresh()
        line(d, f"{env} = {{{k('self')}: env.get({k('self')})}}")
        values = [self.value_of(a) for a in stmt.arg.args]
        temps = []
        for value in values:
            temps.append(self.fresh())
            line(d, f"{temps[-1]} = {value}")
            line(d, f"if type({temps[-1]}) is list or type({temps[-1]}) is dict:")
            line(d + 1, f"{temps[-1]} = KEPT(game, {temps[-1]}, False)")
        for param, temp in zip(params, temps):
            line(d, f"{env}[{k(param)}] = {temp}")
        keywords = ", ".join(f"{k(key)}: {self.value_of(v)}" for key, v in stmt.keywords)
        line(d, f"game.verbs[{k(stmt.verb)}].run(ctx, ({k(root)}, {env}), {{{keywords}}})")

    def if_statement(self, stmt, after: int) -> None:
        """``if``: what its frame would do (a step, the stack checked, a branch pushed), without the frame."""
        line, k = self.line, self.const
        line(2, f"frame[{k('i')}] = {after}")
        line(2, "game.steps -= 1")
        line(2, f"if game.steps < 0 or len(th[{k('frames')}]) >= BUDGET.MAX_FRAMES:")
        line(3, f"raise BUDGET.exceeded(game, th, {k(stmt)})")
        if self.plain_if_statement(stmt):               # its branches run here, with no frames
            line(2, f"base = len(th[{k('frames')}])")
            self.plain_if(stmt, self.block_node, 2, 0, [])
            return
        for n, (cond, body) in enumerate(stmt.branches):
            c = self.fresh()
            word = "if" if n == 0 else "elif"
            line(2, f"{word} ({c} := {self.value_of(cond)}) is True or ({c} is not False and TRUTH({c}, game.state)):")
            self.step(3, None, body)
            self.run_block(body, {k('n'): self.node_id(body)}, 3)
        if stmt.orelse is not None:
            line(2, "else:")
            self.step(3, None, stmt.orelse)
            self.run_block(stmt.orelse, {k('n'): self.node_id(stmt.orelse)}, 3)

    # A frame a block pushes for a block (an ``if``'s branch, a procedure ``do`` runs) is run
    # here, by a call of that block's function, where the machine would run it next; when it
    # ends without stopping (its frame gone, this block's on top again) this block goes on
    # instead of returning to the machine to be resumed. Python's stack grows with each such
    # call, so above ``_NESTED`` frames the machine runs the pushed frame, as before.

    def run_block(self, body, fields: dict, d: int) -> None:
        """Push the frame ``fields`` of block ``body`` (its budget already charged) and run it."""
        self.runners.add(self.rules.node_id[id(body)])
        self.push_and_run(fields, f"R{self.rules.node_id[id(body)]}", d)

    def push_and_run(self, fields: dict, runner: str, d: int) -> None:
        """Push the frame ``fields`` and call ``runner`` on it; go on in this block only if it
        did not stop (``went``) and this block's frame is on top again."""
        line = self.line
        f = self.fresh("f")
        line(d, f"{f} = {{{', '.join(f'{key}: {value}' for key, value in fields.items())}}}")
        line(d, f"frames.append({f})")
        line(d, "if len(frames) > NESTED:")
        line(d + 1, "return None")
        line(d, f"went = {runner}(game, th, {f})")
        line(d, "if went is not None or not frames or frames[-1] is not frame:")
        line(d + 1, "return went")

    def run_while(self, stmt, after: int) -> None:
        """A ``while`` whose body can stop: its frame pushed (as ``PUSH``) and run here by the
        machine's runner for it (``game.runners``, ``machine._while_runner``), where the machine
        would run it next; when the loop is over without stopping (its frame gone, this block's
        on top again) this block goes on, as ``run_block`` does."""
        line, k = self.line, self.const
        line(2, f"frame[{k('i')}] = {after}")
        self.step(2, None, stmt)
        n = self.node_id(stmt)
        self.push_and_run({k("n"): n}, f"game.runners[{n}]", 2)

    def choose_in(self, stmt, after: int) -> None:
        """``choose x in xs if c``, as ``machine._choose_in`` runs it in the frame it is pushed in:
        the options listed here (errors placed at the statement, as the machine places them), and
        the frame ``{"n", "opts"}`` put on the stack only when there is something to choose from
        (``DECIDE`` reads it there, and leaves it waiting). An option taken at once (the only one)
        runs its body here, as the frame's resumption would have pushed it; an ``otherwise`` left
        alone is logged by ``OTHERWISE`` (``machine.only_otherwise``) and run here, no frame made."""
        line, k = self.line, self.const
        at = k(stmt)
        line(2, f"frame[{k('i')}] = {after}")
        self.step(2, None, stmt)
        values, options = self.fresh(), self.fresh()
        line(2, "try:")
        line(3, f"{values} = ITEMS_OF({self.value_of(stmt.iterable)}, game.state)")
        line(3, f"if type({values}) is not list:")
        needs = k("'choose' needs a list, got ")
        line(4, f"raise RuleError({needs} + DESCRIBE({values}))")
        if stmt.cond is None:
            line(3, f"{options} = list({values})")
        elif id(stmt) in self.filter_names:
            line(3, f"{options} = {self.filter_names[id(stmt)]}(ctx, {values})")
        else:
            line(3, f"{options} = CHOICES(ctx, {at}, {values})")
        line(2, "except RuleError as exc:")
        line(3, f"raise LOCATED(game, exc, {at}) from None")
        line(2, "except ERROR as exc:")
        line(3, f"raise INTERNAL(game, exc, {at}) from exc")
        line(2, f"if {options}:")
        f = self.fresh("f")
        if stmt.otherwise is not None:
            line(3, f"{options}.append(None)")
        line(3, f"{f} = {{{k('n')}: {self.node_id(stmt)}, {k('opts')}: {options}}}")
        line(3, f"frames.append({f})")
        prompt = stmt.prompt or f"choose {stmt.var}"
        decide = f"DECIDE(game, th, {f}, len({options}), {k(prompt)}, env.get({k('self')}))"
        if stmt.otherwise is not None:     # an option and 'otherwise': always a decision
            line(3, f"return {decide}")
            # nothing to choose from: 'otherwise' alone, taken at once without a frame
            line(2, f"OTHERWISE(game, th, {self.node_id(stmt)}, env.get({k('self')}))")
            self.step(2, None, stmt.otherwise)
            self.run_block(stmt.otherwise, {k('n'): self.node_id(stmt.otherwise)}, 2)
            return
        line(3, f"if {decide} is not None:")
        line(4, "return WAIT")
        line(3, "frames.pop()")            # the only option, taken
        line(3, f"env[{k(stmt.var)}] = {options}[0]")
        self.step(3, None, stmt.body)
        self.run_block(stmt.body, {k('n'): self.node_id(stmt.body)}, 3)

    def direct_do(self, stmt) -> bool:
        """``do proc(args)`` with no ``with``: its frame pushed and run here (``do_directly``)."""
        return (stmt.__class__ is ast.Call and not stmt.keywords and self.procedure_call(stmt)
                and self.verb(stmt).run is programs.do)

    def do_directly(self, stmt, after: int) -> None:
        """``do proc(args)`` as ``simple_statement`` runs it and ``machine._push_queued`` pushes
        the call (its budget, its frame ``{"n", "call"}``, its locals), then run here. A scenario's
        stop, or programs the values asked to run, take the statement's own way (``AFTER``)."""
        line, k = self.line, self.const
        at = k(stmt)
        params, root = self.rules.procedures[stmt.arg.name]
        env = self.fresh()
        line(2, "if game.memo:")
        line(3, "game.memo.clear()")
        line(2, "try:")
        line(3, f"{env} = {{{k('self')}: env.get({k('self')})}}")
        temps = []
        for arg in stmt.arg.args:                   # weighed as statements.program keeps them
            temps.append(self.fresh())
            line(3, f"{temps[-1]} = {self.value_of(arg)}")
            line(3, f"if type({temps[-1]}) is list or type({temps[-1]}) is dict:")
            line(4, f"{temps[-1]} = KEPT(game, {temps[-1]}, False)")
        for param, temp in zip(params, temps):
            line(3, f"{env}[{k(param)}] = {temp}")
        line(2, "except RuleError as exc:")
        line(3, "game.queued.clear()")
        line(3, f"raise LOCATED(game, exc, {at}) from None")
        line(2, "except ERROR as exc:")
        line(3, "game.queued.clear()")
        line(3, f"raise INTERNAL(game, exc, {at}) from exc")
        line(2, "if game.memo:")
        line(3, "game.memo.clear()")
        line(2, "if game.pause is not None or game.queued:")
        line(3, f"game.queued.append(({k(root)}, {env}, {{}}))")
        line(3, f"went = AFTER(game, th, frame, {after}, {at})")
        line(3, "if went is not GO_ON:")
        line(4, "return went")
        line(2, "else:")
        line(3, f"frame[{k('i')}] = {after}")
        line(3, "if len(frames) + 1 >= BUDGET.MAX_FRAMES or game.steps < 1:")
        line(4, f"raise BUDGET.exceeded(game, th, {at})")
        line(3, f"th[{k('envs')}].append({env})")
        line(3, "game.steps -= 1")
        self.run_block(root, {k('n'): self.node_id(root), k('call'): "True"}, 3)

    # ------------------------------------------------------------ loops run through
    #
    # A ``for each`` or ``while`` whose body holds only simple statements,
    # ``if``s, ``break`` and such loops (no ``choose``, ``as``,
    # ``simultaneously``: nothing that stops for a decision by itself) runs
    # as a Python loop inside its block, with no frames. It spends the steps
    # and checks the stack depth its frames would have (``base`` is the
    # stack's height under it, ``off`` how many frames the interpreted
    # loop would have above that), and its errors are placed where the
    # frames would place them. A simple statement inside that asks to run
    # programs (``do``, a hook, a signal: they may decide) or meets a
    # scenario's stop turns the loop back into the frames it would have by
    # then (``path``: Python expressions of those frames, outermost first)
    # and leaves the rest to them, so what is saved at a decision is what
    # the interpreted loop saves.

    def runs_through(self, stmt) -> bool:
        """Whether a loop can run as a Python loop: nothing in its body stops by itself."""
        if stmt.__class__ not in (ast.ForEach, ast.While):
            return False
        return self.plain_block(stmt.body)

    def plain_block(self, block, loop: bool = True) -> bool:
        """Whether a block holds only what runs through (a ``break`` only inside a loop run here)."""
        for stmt in block.body:
            cls = stmt.__class__
            if cls in self.machine.SIMPLE or (cls is ast.Break and loop):
                continue
            if cls is ast.If and self.plain_if_statement(stmt, loop):
                continue
            if not self.runs_through(stmt):
                return False
        return True

    def plain_if_statement(self, stmt, loop: bool = False) -> bool:
        """Whether every branch of an ``if`` runs through (outside a loop run here: no ``break``)."""
        bodies = [body for _, body in stmt.branches]
        if stmt.orelse is not None:
            bodies.append(stmt.orelse)
        return all(self.plain_block(body, loop) for body in bodies)

    def node_id(self, node) -> str:
        return self.const(self.rules.node_id[id(node)])

    def step(self, d: int, off: int, node) -> None:
        """A frame pushed at height ``base + off`` (as ``machine.push``; ``off`` None: at the stack's
        height now), its budget error at ``node``.

        Content nested deeper than Python compiles (20 nested loops, 100 indents) keeps its frames.
        """
        if (off or 0) > _DEEPEST_FRAMES or d > _DEEPEST_INDENT:
            raise Unsupported("nested too deep")
        height = "len(frames)" if off is None else f"base + {off}"
        self.line(d, "game.steps -= 1")
        self.line(d, f"if game.steps < 0 or {height} >= BUDGET.MAX_FRAMES:")
        self.line(d + 1, f"raise BUDGET.exceeded(game, th, {self.const(node)})")

    def placed(self, d: int, target: str, value: str, node) -> None:
        """``target = value``, an error placed at ``node`` (the frame the machine would blame)."""
        at = self.const(node)
        self.line(d, "try:")
        self.line(d + 1, f"{target} = {value}")
        self.line(d, "except RuleError as exc:")
        self.line(d + 1, f"raise LOCATED(game, exc, {at}) from None")
        self.line(d, "except ERROR as exc:")
        self.line(d + 1, f"raise INTERNAL(game, exc, {at}) from exc")

    def loop(self, stmt, d: int, off: int, path: list) -> None:
        """A loop pushed at height ``base + off`` with ``path`` under it, run here."""
        line, k = self.line, self.const
        self.step(d, off, stmt)
        if stmt.__class__ is ast.ForEach:
            items, j = self.fresh(), self.fresh("j")
            self.placed(d, items, f"LOOP_ITEMS({self.value_of(stmt.iterable)}, game.state)", stmt)
            line(d, f"for {j} in RANGE(len({items})):")
            me = f"{{{k('n')}: {self.node_id(stmt)}, {k('items')}: {items}, {k('i')}: {j} + 1}}"
            self.step(d + 1, off + 1, stmt)
            line(d + 1, f"env[{k(stmt.var)}] = {items}[{j}]")
        else:
            c = self.fresh()
            line(d, "while True:")
            self.placed(d + 1, c, self.value_of(stmt.cond), stmt)
            line(d + 1, f"if not ({c} is True or ({c} is not False and TRUTH({c}, game.state))):")
            line(d + 2, "break")
            me = f"{{{k('n')}: {self.node_id(stmt)}}}"
            self.step(d + 1, off + 1, stmt)
        self.plain_statements(stmt.body, d + 1, off + 2, path + [me])

    def plain_statements(self, block, d: int, off: int, path: list) -> None:
        """The statements of a block inside a loop run through (its own frame the last of ``path``'s)."""
        line = self.line
        k = self.const
        here = lambda n: f"{{{k('n')}: {self.node_id(block)}, {k('i')}: {n}}}"     # noqa: E731
        line(d, "pass")
        for n, stmt in enumerate(block.body):
            simple = self.machine.SIMPLE.get(stmt.__class__)
            if stmt.__class__ is ast.Break:
                line(d, "break")
                return                                   # what follows never runs
            if simple is not None:
                self.simple_statement(stmt, simple, n + 1, d, path + [here(n + 1)])
            elif stmt.__class__ is ast.If:
                self.step(d, off, stmt)
                self.plain_if(stmt, block, d, off, path + [here(n + 1)])
            else:
                self.loop(stmt, d, off, path + [here(n + 1)])

    def plain_if(self, stmt, block, d: int, off: int, path: list) -> None:
        """``if`` (its frame gone before its branch is pushed: conditions blamed on ``block``)."""
        arms = list(stmt.branches) + ([(None, stmt.orelse)] if stmt.orelse is not None else [])
        for cond, body in arms:
            if cond is None:
                self.plain_arm(body, d, off, path)
                return
            c = self.fresh()
            self.placed(d, c, self.value_of(cond), block)
            self.line(d, f"if {c} is True or ({c} is not False and TRUTH({c}, game.state)):")
            self.plain_arm(body, d + 1, off, path)
            self.line(d, "else:")
            d += 1
        self.line(d, "pass")

    def plain_arm(self, body, d: int, off: int, path: list) -> None:
        self.step(d, off, (body.body or [body])[0])     # as budget.exceeded places a block under a block
        self.plain_statements(body, d, off + 1, path)

    # ------------------------------------------------------------ expressions
    #
    # ``expr`` writes the statements a node needs at ``depth`` and returns a
    # Python expression for its value, to be evaluated right after them.

    def expr(self, node, scope, d: int) -> str:
        method = _EMIT.get(node.__class__)
        if method is None:
            raise Unsupported(node.__class__.__name__)
        if self.cells and node.__class__ not in _UNCELLED:
            found = self.key(node, scope)
            if found is not None and found[0] in self.cells:      # a common part (``plan_cells``)
                value = self.cell(node, scope, d, method, found[0], found[2])
                if self.typing is not None:
                    self.typing.follow(d, "")      # (its value is read at ``d``: its loops are over)
                return value
        value = method(self, node, scope, d)
        if self.typing is not None:
            self.typing.follow(d, "")
        return value

    def cell(self, node, scope, d: int, method, key, loop) -> str:
        """A common part's cell, worked out here as far as the flow needs: not at all where it is
        surely set, without its ``is NK`` test where it surely is not (its ``= NK`` not needed
        either where that is at its binding's own level), and before a loop, under ``if items:``,
        where it leads the body of a loop that does not bind it (``_Loop``)."""
        flow = self.flow
        cell = self.cells[key]
        flow.reach(d)                                  # (a statement at ``d``, after those before)
        if cell is not None and cell in flow.known:
            return cell
        waiting = self.waiting[-1] if self.waiting else None
        hoisted = (waiting is not None and not waiting.hoisting and d == waiting.depth + 1
                   and loop != waiting.nid)
        if hoisted:
            waiting.hoisting = True
            if not waiting.guarded:
                waiting.guarded, waiting.head = True, len(self.lines)
                self.line(waiting.depth, f"if {waiting.items}:")
        elif waiting is not None and not waiting.hoisting:
            self.open_loop()
        if cell is None:
            cell = self.cells[key] = self.fresh("h")
            self.cell_inits.setdefault(loop, []).append(cell)
            flow.bound[cell] = flow.levels[loop]
        level = flow.bound[cell]
        before = self.temp
        if cell not in flow.touched and flow.loops == level:      # surely NK: worked out as it is
            flow.touched.add(cell)
            mark = len(self.lines)
            self.into(cell, method(self, node, scope, d), d, mark, before)
            at = d
        else:
            flow.touched.add(cell)
            flow.tested.add(cell)
            self.line(d, f"if {cell} is NK:")
            if self.typing is not None:
                self.typing.once_at(d, level)
            mark = len(self.lines)
            self.into(cell, method(self, node, scope, d + 1), d + 1, mark, before)
            at = d + 1
            if self.typing is not None:
                self.typing.once_done(d)
        self.flags(cell, at)
        flow.known[cell] = d
        if hoisted:
            waiting.hoisting = False
            waiting.hoisted.append(cell)
        return cell

    def into(self, target: str, value: str, d: int, mark: int, before: int) -> None:
        """``target = value``, where ``value`` was written from line ``mark`` on with the temporaries
        made after ``before``: a temporary made there is renamed ``target`` in those lines (its
        one reader is this assignment), else the value is copied."""
        sort = self.sort_of(value)
        if _TEMP.fullmatch(value) and int(value[1:]) > before and value not in self.room_keys:
            name = re.compile(rf"\b{value}\b")
            self.lines[mark:] = [name.sub(target, text) for text in self.lines[mark:]]
            for known in (self.ints, self.lists):
                if value in known:
                    known.add(target)
        else:
            self.line(d, f"{target} = {value}")
        self.sorted_as(target, sort)

    def atom(self, node, scope, d: int) -> str:
        """A local holding the node's value (evaluated now), or a constant."""
        text = self.expr(node, scope, d)
        if _is_name(text):
            return text
        t = self.fresh()
        self.line(d, f"{t} = {text}")
        if node.__class__ is ast.ListExpr:
            self.lists.add(t)
        return self.sorted_as(t, self.sort_of(text))

    def exprs(self, nodes, scope, d: int) -> list:
        """Several values, evaluated left to right (each in a local)."""
        return [self.atom(n, scope, d) for n in nodes]

    def literal(self, node, scope, d):
        return self.const(node.value)

    def name(self, node, scope, d):
        name = node.id
        if name in scope.names:
            return scope.names[name]
        if not scope.dynamic:
            return self.global_name(name, scope, d)
        k, t = self.const(name), self.fresh()       # a local of the thread's first, if bound
        self.line(d, f"if {k} in env:")
        self.line(d + 1, f"{t} = env[{k}]")
        self.line(d, "else:")
        self.line(d + 1, f"{t} = {self.global_name(name, scope, d + 1)}")
        return t

    def global_name(self, name: str, scope, d: int) -> str:
        """A name of the ruleset's declarations (``evaluate.lookup``), resolved now."""
        kind = self.rules.names.get(name)
        if kind is None:
            return f"{self.const(_unknown_name(name))}(ctx)"
        tag, what = kind
        k = self.const(name)
        if tag == "table":
            if what.pure:                              # a reference: the same value every time
                return self.pure_value(name, what)
            return self.component(what, k, "None")
        if tag == "mine":
            return self.component(what, k, self.my_seat(scope, d))
        if tag == "builtin":
            return f"{self.const(what)}(ctx)"
        if tag == "seat":                              # as ``Game.scripted_seat`` finds it
            t = self.fresh()
            return (f"(SEATS[ctx.game.people + {t}.index({k})] if {k} in ({t} := ctx.game.state[{self.const('scripted')}]) "
                    f"else None)")
        return self.const(what)

    def keys(self, text: str) -> str:
        """``text`` (this module's or a kind's template) with each quoted key made a constant,
        so that the source holds no text in quotes at all (a test checks it)."""
        return _QUOTED.sub(lambda m: self.const(m.group(1)), text)

    def pure_value(self, name: str, kind) -> str:
        """The one constant of a table's reference (a zone, a grid), made once."""
        if name not in self.pure:
            self.pure[name] = self.const(kind.value(None, name, None))
        return self.pure[name]

    def component(self, kind, k: str, owner: str) -> str:
        """A component's value: read from the state directly when its kind says how (``read``);
        a player's reference (``pure``: a grid, a zone) made once per seat and kept."""
        if kind.read is not None:
            return self.keys(kind.read.format(state="ctx.game.state", name=k, owner=owner))
        if kind.pure and owner != "None":
            made = self.pure.get((k, "made"))
            if made is None:
                made = self.pure[k, "made"] = self.const(_Made(kind.value, self.namespace[k]))
            t = self.fresh()
            return f"({t} if ({t} := {made}.get({owner}, NK)) is not NK else {made}.make(ctx, {owner}))"
        return f"{self.const(kind.value)}(ctx, {k}, {owner})"

    def my_seat(self, scope, d: int) -> str:
        """The acting player's seat (``ctx.me``, its error included), in a local."""
        me = scope.names.get("self")
        if me is None:
            me = self.fresh()
            self.line(d, f"{me} = ctx.env.get({self.const('self')})")
        t = self.fresh()
        self.line(d, f"{t} = {me}.seat if {self.is_(me, 'Player', d)} else ctx.me")
        return t

    def list_expr(self, node, scope, d):
        items = self.exprs(node.items, scope, d)
        sorts = {self.sort_of(item) for item in items}
        return self.sorted_as("[" + ", ".join(items) + "]", ("list", sorts.pop() if len(sorts) == 1 else None))

    def dict_expr(self, node, scope, d):
        values = self.exprs([v for _, v in node.pairs], scope, d)
        return "{" + ", ".join(f"{self.const(k)}: {v}" for (k, _), v in zip(node.pairs, values)) + "}"

    def attribute(self, node, scope, d):
        """``obj.name``: the value kinds that may have it are tried inline, the generic reader last
        (which gives every error). Where the checker knows the object's one kind, only its branch."""
        side = self.room_of_side(node.obj, scope) if node.name in _SIDE_ROOM else None
        if side is not None:                           # the side's own fields name its room
            return self.typed_attribute(side, Room, node.name, d)
        obj = self.atom(node.obj, scope, d)
        name = node.name
        reader = self.readers.get(name)
        if reader is None:
            reader = self.readers[name] = self.const(attribute_reader(name, self.rules))
        known = self.sort_of(obj)
        if known in (Room, Side) and name in (ROOM_READERS if known is Room else SIDE_READERS):
            return self.typed_attribute(obj, known, name, d)
        t = self.fresh()
        line = self.line
        sorts = self.owner_sorts(node)
        if (known is str or known is _ID_OR_NONE) and name != "id" and (
                self.record_fields(name) or self.conditions(name)):
            fields = self.record_fields(name)          # a proven text (or none): a record's field,
            line(d, f"if {obj} in {self.const(fields)}:")      # or the reader (none: its error)
            line(d + 1, f"{t} = {self.const(fields)}[{obj}]")
            line(d, "else:")
            if self.conditions(name):
                c = self.fresh()
                line(d + 1, f"{c} = {self.condition_calls(name)}.get({obj})")
                line(d + 1, f"{t} = {reader}(ctx, {obj}) if {c} is None else {c}(ctx, {obj})")
                return t
            line(d + 1, f"{t} = {reader}(ctx, {obj})")
            return self.sorted_as(t, self.field_sort(name))

        def may_be(sort) -> bool:
            return sorts is None or sort in sorts
        fields = self.record_fields(name)
        conditions = self.conditions(name)
        word = "if"
        k = self.const(name)
        kind = self.rules.player_components.get(name) if may_be(Player) else None
        builtin = _PLAYER_INLINE.get(name) if may_be(Player) and name not in self.rules.player_components else None
        if (kind is not None or builtin is not None) and node.obj.__class__ is ast.Name and node.obj.id == "self":
            line(d, f"if {self.is_(obj, 'Player', d)}:")          # self is a player: tried first
            line(d + 1, f"{t} = {self.component(kind, k, obj + '.seat') if kind else builtin.format(v=obj)}")
            word, kind, builtin = "elif", None, None
        if (fields or conditions) and may_be(str):     # a content record's plain field
            line(d, f"{word} {self.is_(obj, 'str', d)}:")
            line(d + 1, f"if {obj} in {self.const(fields)}:")     # (a look-up, not a call)
            line(d + 2, f"{t} = {self.const(fields)}[{obj}]")
            line(d + 1, "else:")
            if conditions:                             # or its condition, evaluated now
                c = self.fresh()
                line(d + 2, f"{c} = {self.condition_calls(name)}.get({obj})")
                line(d + 2, f"{t} = {reader}(ctx, {obj}) if {c} is None else {c}(ctx, {obj})")
            else:
                line(d + 2, f"{t} = {reader}(ctx, {obj})")
            word = "elif"
        if name in ROOM_READERS and may_be(Room):     # (a room of a grid walked is proven: typed_attribute)
            line(d, f"{word} {self.is_(obj, 'Room', d)}:")
            line(d + 1, f"{t} = " + self.keys(_ROOM_INLINE.get(name, "{reader}(ctx, {v})").format(
                v=obj, reader=self.const(ROOM_READERS[name]), tags=self.room_tags())))
            word = "elif"
        if name in SIDE_READERS and may_be(Side):
            line(d, f"{word} {self.is_(obj, 'Side', d)}:")
            line(d + 1, f"{t} = " + self.keys(_SIDE_INLINE.get(name, "{reader}(ctx, {v})").format(
                v=obj, t=t, reader=self.const(SIDE_READERS[name]))))
            word = "elif"
        if may_be(dict):
            line(d, f"{word} {self.is_(obj, 'dict', d)} and {k} in {obj}:")
            line(d + 1, f"{t} = {obj}[{k}]")
            word = "elif"
        if kind is not None or builtin is not None:
            line(d, f"{word} {self.is_(obj, 'Player', d)}:")
            line(d + 1, f"{t} = {self.component(kind, k, obj + '.seat') if kind else builtin.format(v=obj)}")
            word = "elif"
        for value_type, read in self.value_readers(name):
            if may_be(value_type):
                line(d, f"{word} {self.is_(obj, self.const(value_type), d)}:")
                line(d + 1, f"{t} = {self.const(read)}({obj}, {k}, ctx)")
                word = "elif"
        if word == "if":                               # no branch for its kind: the reader alone
            line(d, f"{t} = {reader}(ctx, {obj})")
            return t
        line(d, "else:")
        line(d + 1, f"{t} = {reader}(ctx, {obj})")
        return t

    def field_sort(self, name: str):
        """The one Python type every loaded record's plain field ``name`` has (the scan of the
        entity tables), when no record holds it as a condition: what ``x.name`` gives for a text
        ``x``, for the reader raises for any text that is not a record with that plain field."""
        if self.conditions(name):
            return None
        found = {type(value) for value in self.record_fields(name).values()}
        kind = found.pop() if len(found) == 1 else None
        return kind if kind in (int, str, bool, dict) else ("list", None) if kind is list else None

    def record_fields(self, name: str) -> dict:
        """{record id: its plain field ``name``} (one table per name; none for ``id``)."""
        fields = self.fields.get(name)
        if fields is None:
            fields = self.fields[name] = {rid: record[name] for rid, record in self.rules.entities.items()
                                          if name in record and type(record[name]) is not Condition
                                          } if name != "id" else {}
        return fields

    def room_of_side(self, node, scope) -> str | None:
        """For ``s.room.x`` with ``s`` a proven side, and ``x`` a field a side shares with its room
        (``_SIDE_ROOM``): the side's local, read as the room (no room made); else None, and
        nothing written."""
        if node.__class__ is not ast.Attribute or node.name != "room" or node.obj.__class__ is not ast.Name \
                or node.obj.id not in scope.names or self.sort_of(scope.names[node.obj.id]) is not Side:
            return None
        return scope.names[node.obj.id]

    def typed_attribute(self, obj: str, known, name: str, d: int) -> str:
        """``obj.name`` of a proven room or side (``sort_of``): its reader alone, inline."""
        if known is Room:
            keys = self.room_keys.get(obj)
            text = self.keys(_ROOM_INLINE.get(name, "{reader}(ctx, {v})").format(
                v=obj, reader=self.const(ROOM_READERS[name]), tags=self.room_tags()))
            if keys is not None and name in ("item", "empty", "tags"):
                keys.used.add("tags" if name == "tags" else "item")     # a room of a grid walked
                return self.sorted_as({"item": f"{keys.gi}.get({keys.key})", "tags": keys.tag,
                                       "empty": f"({keys.gi}.get({keys.key}) is None)"}[name],
                                      _ROOM_SORTS.get(name))
            return self.sorted_as(f"({text})", _ROOM_SORTS.get(name))
        t = self.fresh()
        text = self.keys(_SIDE_INLINE.get(name, "{reader}(ctx, {v})").format(
            v=obj, t=t, reader=self.const(SIDE_READERS[name])))
        if "{t}" in _SIDE_INLINE.get(name, ""):      # (its walrus needs the local)
            self.line(d, f"{t} = {text}")
            return self.sorted_as(t, _SIDE_SORTS.get(name))
        return self.sorted_as(f"({text})", _SIDE_SORTS.get(name))

    def owner_sorts(self, node) -> set | None:
        """The one Python type ``node.obj`` has by the checker (``dsl.check``'s owners: a text's
        ``str``, a record's id ``str``, a built record ``dict``, a player, a room ...), as the
        branches of ``attribute`` to write; None (all of them) when its kind is any or a union."""
        kind = self.rules.__dict__.get("owner_kinds", {}).get(id(node))
        if kind is None or kind == kinds.ANY or len(kinds.options_of(kind)) != 1:
            return None
        if kind == kinds.STRING or isinstance(kind, kinds.Record):
            return {str}
        if isinstance(kind, kinds.Plain):
            return {dict}
        value_type = _BASIC.get(kind)
        return None if value_type is None else {value_type}

    def conditions(self, name: str) -> dict:
        """{record id: the expression of its condition field ``name``} (``evaluate._field``)."""
        found = self.condition_fields.get(name)
        if found is None:
            rules = self.rules
            found = self.condition_fields[name] = {} if name == "id" else {
                rid: rules.expressions[record[name].key] for rid, record in rules.entities.items()
                if type(record.get(name)) is Condition}
        return found

    def condition_calls(self, name: str) -> str:
        """The constant {record id: ``fn(ctx, record id)``, its condition field ``name`` worked
        out}: a generated ``D`` function once ``build`` has written it (``condition_root``), the
        closures' reading through ``CONDITION`` until then (or when the generator leaves it out)."""
        calls = self.condition_call_tables.get(name)
        if calls is None:
            calls = self.condition_call_tables[name] = {
                rid: functools.partial(self.namespace["CONDITION"], tree=tree)
                for rid, tree in self.conditions(name).items()}
        return self.const(calls)

    def condition_root(self, name: str, tree) -> None:
        """``def D(ctx, this)``: a record's condition field as ``evaluate._field`` works it out,
        ``self`` the reader's (``ctx`` is the reader's own: a function it calls sees the same
        ``self``), ``this`` the record, and no other local of the thread (a static scope)."""
        me, this = self.fresh("v"), self.fresh("v")
        self.line(0, f"def {name}(ctx, {this}):")
        mark = len(self.lines)
        self.line(1, f"{me} = ctx.env.get({self.const('self')})")
        scope = _Scope({"self": me, "this": this}, dynamic=False,
                       keys={"self": _SELF_KEY, "this": (("param", "this"), 0, None)})
        if self.typing is not None:
            self.typing.params = {this, me}
        for p in (me, this):                         # (the flags ``twice`` found wanted)
            self.flags(p, 1)
        result = self.with_cells(tree, scope, 1)
        self.line(1, f"return {result}")
        self.hot_locals(mark)

    def room_tags(self) -> str:
        """The constant {grid: {(row, col): its tags}}: a room's tags, as grids' geometry has them."""
        tags = self.__dict__.get("_tags")
        if tags is None:
            tags = self._tags = self.const({name: _Geometry(name, None, spec).tags
                                           for name, spec in self.rules.grids.items()})
        return tags

    def value_readers(self, name: str) -> list:
        """(value type, its reader in ``mechanics.ATTRIBUTES``) for the engine values that have
        attribute ``name`` (by the checker's table), rooms' own readers aside (tried first)."""
        by_kind = {kind.name: value_type for kind, value_type in _BASIC.items()}
        found = []
        for kind_name, names in self.rules.vocabulary().value_attributes.items():
            value_type = by_kind.get(kind_name)
            if name in names and value_type in ATTRIBUTES and not (
                    value_type is Room and name in ROOM_READERS or value_type is Side and name in SIDE_READERS):
                found.append((value_type, ATTRIBUTES[value_type]))
        return found

    def index(self, node, scope, d):
        obj, key = self.exprs([node.obj, node.key], scope, d)
        group = self.table_group(node.obj, scope)
        if group is not None:                          # pile[i] of the table's numbered group
            ref, members = group
            same = "" if obj == ref else f"{obj} is {ref} and "         # the group named: no test
            return (f"({members}[{key} - 1] if {same}{self.is_(key, 'int')} and 0 < {key} <= "
                    f"{len(self.namespace[members])} else INDEX({obj}, {key}, ctx.game.state))")
        return (f"({obj}[{key} - 1] if {self.is_(obj, 'list')} and {self.is_(key, 'int')} and 0 < {key} <= len({obj}) "
                f"else INDEX({obj}, {key}, ctx.game.state))")

    def table_group(self, node, scope):
        """(its reference, its zones) when ``node`` names a numbered group of the table's zones,
        which has as many zones as its declaration's ``count``, always (``zones.new_zone``)."""
        if node.__class__ is not ast.Name or node.id in scope.names:
            return None
        kind = self.rules.names.get(node.id)
        spec = self.rules.zones.get(node.id)
        if kind is None or kind[0] != "table" or not getattr(kind[1], "pure", False) \
                or type(spec) is not dict or not spec.get("count"):
            return None
        ref = self.pure_value(node.id, kind[1])
        zone = self.namespace[ref]
        if type(zone) is not Zone or zone.n is not None or zone.of is not None:
            return None
        members = self.pure.get((node.id, "members"))
        if members is None:
            members = self.pure[node.id, "members"] = self.const(
                [Zone(zone.name, None, k) for k in range(1, spec["count"] + 1)])
        return ref, members

    def function_call(self, node, scope, d):
        name = node.name
        if name in self.fnames:                        # the ruleset's own: a direct call
            arity = len(self.rules.functions[name][0])
            if len(node.args) != arity:
                message = f"'{name}' takes {arity} values, got {len(node.args)}"
                return f"FAIL({self.const(message)})"
            args = self.exprs(node.args, scope, d)
            if self.is_inlinable(name):
                return self.inline(node, args, scope, d)
            nested = ", True" if self.in_bounded else ""      # (a bounded function calls only such)
            return self.sorted_as(f"{self.fnames[name]}(ctx{''.join(', ' + a for a in args)}{nested})",
                                  self.result_sorts.get(name))
        if name in self.rules.functions or name not in FUNCTIONS:
            raise Unsupported(name)                    # left to the closures (and their errors)
        if FUNCTIONS[name].fn is zones.top and not FUNCTIONS[name].walks and len(node.args) == 1 \
                and node.args[0].__class__ is ast.Index:
            group = self.table_group(node.args[0].obj, scope)
            if group is not None:
                return self.top_of_group(name, node.args[0], group, scope, d)
        return self.registered_call(name, self.exprs(node.args, scope, d), d)

    def top_of_group(self, name: str, index, group, scope, d: int) -> str:
        """``top(pile[i])`` of a numbered group of the table's zones: pile ``i``'s list read
        straight from the state (any other ``i``: the index and ``top`` as they are)."""
        ref, members = group
        key = self.atom(index.key, scope, d)
        t, zone = self.fresh(), self.fresh()
        self.line(d, f"if {self.is_(key, f'upto{len(self.namespace[members])}', d)}:")
        self.line(d + 1, f"{t} = {t}[0] if ({t} := ctx.game.state[{self.const('zones')}]"
                         f"[{self.const(self.namespace[ref].name)}][{key} - 1]) else None")
        self.line(d, "else:")
        self.line(d + 1, f"{zone} = INDEX({ref}, {key}, ctx.game.state)")
        self.line(d + 1, f"{t} = {self.registered_call(name, [zone], d + 1)}")
        return self.sorted_as(t, self.registered_sort(zones.top))

    def registered_call(self, name: str, args: list, d: int) -> str:
        """A call of registered function ``name`` on the locals ``args``: its common cases inline,
        its value's sort noted where the function's code proves it (``_RESULTS``)."""
        t = self.calling(name, args, d)
        fn = FUNCTIONS[name].fn
        sort = self.registered_sort(fn)
        if fn is core.flatten or fn is core.as_list:   # list(x), flatten(list of lists of X)
            given = self.sort_of(args[0]) if args else None
            sort = None if type(given) is not tuple else given if fn is core.as_list else (
                given[1] if type(given[1]) is tuple else None)
        return self.sorted_as(t, sort) if _is_name(t) else t

    def registered_sort(self, fn):
        """The proven sort of what registered function ``fn`` gives (``_RESULTS``; ``top``: a
        zone's card or none, when every zone holds ids alone: ``zone_ids``)."""
        if fn is zones.top:
            return _ID_OR_NONE if self.zone_ids else None
        return _RESULTS.get(fn)

    def calling(self, name: str, args: list, d: int) -> str:
        fn = FUNCTIONS[name].fn
        cases = [case for case in (_FAST.get(fn), _FAST.get((fn, "record"))) if case and case[0] == len(args)]
        walks = FUNCTIONS[name].walks
        if not cases:
            values = self.fresh()
            self.line(d, f"{values} = [{', '.join(args)}]")
            return self.mechanic(name, values, d, walks=walks, args=args)
        t = self.fresh()                              # the common cases inline, the function else
        word = "if"
        for _, guard, value in cases:
            test = self.folded(self.keys(guard.format(*args, t=t)), args)
            if test == "False":
                continue
            if test == "True":                        # this case surely: nothing else
                self.line(d, f"{t} = {self.keys(value.format(*args, t=t))}")
                if walks:
                    self.charged(walks, args, f"({''.join(a + ', ' for a in args)})", t, d)
                if fn is core.absolute:
                    self.ints.add(t)
                return t
            self.line(d, f"{word} {test}:")
            found = self.keys(value.format(*args, t=t))
            self.line(d + 1, f"{t} = {found}" if found != t else "pass")     # (the guard set it)
            if walks:                                 # charged as the function is: values and result
                self.charged(walks, args, f"({''.join(a + ', ' for a in args)})", t, d + 1)
            word = "elif"
        if word == "if":
            values = self.fresh()
            self.line(d, f"{values} = [{', '.join(args)}]")
            return self.mechanic(name, values, d, t, walks=walks, args=args)
        self.line(d, "else:")
        values = self.fresh()
        self.line(d + 1, f"{values} = [{', '.join(args)}]")
        self.mechanic(name, values, d + 1, t, walks=walks, args=args)
        return t

    # A small ruleset function that reads the state only through pure functions and plain
    # fields is written at its call sites: its body is cheaper than a call and a memo look-up.
    # It can roll no dice (no ``roll``, no condition field), so whether its value is kept for
    # the statement (the memo) changes nothing; the step budget is charged by the loops around.

    def is_inlinable(self, name: str) -> bool:
        known = self.inlinable.get(name)
        if known is None:
            self.inlinable[name] = False               # while looking: a call of itself is a call
            known = self.inlinable[name] = (self.small_and_pure(self.rules.functions[name][1])
                                            and self.written(name) <= _INLINE_WRITTEN)
        return known

    def written(self, name: str) -> int:
        """The syntax nodes a call of inlinable ``name`` writes: its body's and, in turn, its
        inlined callees' (each small body may call three more: a chain of them grew as 3**n)."""
        size = self.written_sizes.get(name)
        if size is None:
            size = self.written_sizes[name] = sum(
                1 + (self.written(n.name) if n.__class__ is ast.Function and n.name in self.rules.functions
                     else 0) for n in _walk(self.rules.functions[name][1]))
        return size

    def small_and_pure(self, tree) -> bool:
        size = 0
        stack = [tree]
        while stack:
            node = stack.pop()
            size += 1
            cls = node.__class__
            if size > _INLINE_NODES or cls is ast.Generator:
                return False
            if cls is ast.Function:
                if node.name in self.rules.functions:
                    if node.name not in self.fnames or not self.is_inlinable(node.name):
                        return False
                    size += _INLINE_NODES // 4         # what the callee adds
                elif not self.pure_call(node):
                    return False
            elif cls is ast.Attribute and self.conditions(node.name):
                return False
            stack.extend(node.children())
        return True

    def pure_call(self, node) -> bool:
        """A call of a registered function that reads the state, changes nothing, rolls no dice."""
        entry = FUNCTIONS.get(node.name)
        if entry is None or not entry.pure:
            return False
        return entry.fn is not core.get or self.plain_key(node)

    def reads_self(self, name: str) -> bool:
        """Whether ruleset function ``name`` (or one it calls) may read the acting player: names
        ``self``, a player's own component or a built-in, reads a condition field, or calls a
        function that is not pure (those may run programs); a cycle counts as reading it."""
        known = self.self_readers.get(name)
        if known is None:
            self.self_readers[name] = True
            names = self.rules.names
            known = self.self_readers[name] = any(
                (cls is ast.Name and (n.id == "self" or names.get(n.id, ("",))[0] in ("mine", "builtin")))
                or (cls is ast.Function and (self.reads_self(n.name) if n.name in self.rules.functions
                                             else n.name not in FUNCTIONS or not FUNCTIONS[n.name].pure))
                or (cls is ast.Generator and (n.name not in FUNCTIONS or not FUNCTIONS[n.name].pure))
                or (cls is ast.Attribute and bool(self.conditions(n.name)))
                for n in _walk(self.rules.functions[name][1]) for cls in (n.__class__,))
        return known

    def callees_first(self) -> None:
        """Work out each function's ``is_pure``, ``reads_self`` and ``is_inlinable`` after its
        callees', with a stack of our own: those look-ups recurse, a few Python frames a call,
        and a chain of 600 functions overflowed Python's stack. A function still being worked
        out is marked as they mark it (impure, reading self, not inlined): on a cycle each gives
        that answer whatever the order, so the answers are theirs."""
        functions = self.rules.functions
        memos = ((self.pure_functions, False), (self.self_readers, True), (self.inlinable, False))

        def enter(name):
            for memo, busy in memos:
                memo[name] = busy
            calls = [n.name for n in _walk(functions[name][1])
                     if n.__class__ is ast.Function and n.name in functions]
            return name, iter(calls)
        for root in functions:
            stack = [enter(root)] if root not in self.pure_functions else []
            while stack:
                name, todo = stack[-1]
                callee = next((c for c in todo if c not in self.pure_functions), None)
                if callee is not None:
                    stack.append(enter(callee))
                    continue
                stack.pop()
                for memo, _ in memos:
                    del memo[name]
                self.is_pure(name), self.reads_self(name), self.is_inlinable(name)

    # A function's calls are counted against ``MAX_CALL_DEPTH`` (``game.depth``, kept by each
    # call and put back after it) so that a function calling itself, directly, through others or
    # through content chosen at run time (a condition field, an impure function: a hook, a
    # modifier's sources), stops before Python's stack does. A *bounded* function can do none of
    # that: it is pure (``is_pure``: it calls only generated pure functions, none of them on a
    # cycle, reads no condition field and calls no impure function) and its calls reach at most
    # ``_BOUNDED_HEIGHT`` deep, so it keeps no depth: at most that many Python frames stand below
    # the deepest counted call. It still charges its step when nested, as every call does. A
    # bounded function calls only bounded ones, and says so (``nested``, passed at its direct
    # calls): those charge their step and need not look at the depth. Any other caller leaves
    # ``nested`` out, and the function reads ``game.depth`` (which a bounded one never changes)
    # for whether it is nested and whether that is too deep, as every call did. So only a call
    # from one bounded function to another is not counted; nothing below a bounded function
    # reads ``game.depth`` but the bounded functions it calls (``programs`` and the closures'
    # calls run only under impure ones).

    def bounded(self, name: str) -> bool:
        """Whether ruleset function ``name`` keeps no call depth (see above)."""
        return self.is_pure(name) and self.heights.get(name, _BOUNDED_HEIGHT + 1) <= _BOUNDED_HEIGHT

    def work_out_heights(self) -> None:
        """``heights``: for each function of no cycle, the most calls deep its calls reach (1: it
        calls none), callees first (``callee_order``); a function on a cycle, or calling one, has none."""
        heights = self.heights
        for name in self.callee_order():
            callees = self.callees(name)
            if all(c in heights for c in callees):
                heights[name] = 1 + max((heights[c] for c in callees), default=0)

    def is_pure(self, name: str) -> bool:
        """Whether ruleset function ``name`` (and all it calls) is pure (``pure_call``); a cycle is not."""
        known = self.pure_functions.get(name)
        if known is None:
            self.pure_functions[name] = False
            known = self.pure_functions[name] = all(
                self.pure_node(n) for n in _walk(self.rules.functions[name][1]))
        return known

    def pure_node(self, node) -> bool:
        cls = node.__class__
        if cls is ast.Generator:
            entry = FUNCTIONS.get(node.name)
            return node.name not in self.rules.functions and entry is not None and entry.pure
        if cls is ast.Function:
            if node.name in self.rules.functions:
                return node.name in self.fnames and self.is_pure(node.name)
            return self.pure_call(node)
        return cls is not ast.Attribute or not self.conditions(node.name)

    def pure_condition(self, node) -> bool:
        """Whether ``node`` reads a condition field every record holds as a pure expression that
        reads no condition field itself: worked out, it changes nothing and rolls nothing, so the
        cells of the root around it keep (it is no cell: its value is the record's). Not for
        ``is_pure``: a function calling one is not *bounded* (its heights do not count it)."""
        if node.__class__ is not ast.Attribute or not self.conditions(node.name):
            return False
        known = self.pure_conditions.get(node.name)
        if known is None:
            known = self.pure_conditions[node.name] = all(
                self.pure_node(n) for tree in self.conditions(node.name).values() for n in _walk(tree))
        return known

    # A part of a pure expression that occurs more than once (``card(i).kind`` in four arms, the
    # same ``back(i)`` in two functions written inline), or that does not read the variable of a
    # generator it is in, gets a cell: ``cell = NK`` where the values it reads are bound (the
    # root's start, or the iteration of the generator whose variable it reads), ``if cell is NK:
    # cell = ...`` where it was. It is worked out where it is first reached, so a part never
    # reached raises nothing, and its value is the same each time: nothing changes the state
    # while a pure expression is worked out, and nothing rolls. Parts are the same when their
    # syntax is and their names are bound to the same values (``key``).

    def with_cells(self, tree, scope, d: int, pure: bool | None = None) -> str:
        """``expr(tree)`` for a whole root, its common parts in cells (none unless all is pure)."""
        mark = len(self.lines)
        self.begin_cells(tree, scope, 0, pure)
        try:
            result = self.expr(tree, scope, d)
            self.init_cells(mark, d, None)
        finally:
            self.end_cells()
        return result

    def begin_cells(self, tree, scope, loop: int, pure: bool | None = None) -> None:
        """The cells of ``tree``, a root inside ``loop`` generators."""
        if pure is None:
            pure = all(self.pure_node(n) or self.pure_condition(n) for n in _walk(tree))
        self.keys_seen = {}
        self.cells = self.plan_cells(tree, scope, loop) if pure and not self.tracing else None
        self.cell_inits = {}
        self.flow = _Flow() if self.cells else None
        self.waiting = []

    def end_cells(self) -> None:
        if self.flow is not None:
            self.bound.update(self.flow.bound)
        self.cells, self.keys_seen, self.flow, self.waiting = None, {}, None, []

    def init_cells(self, mark: int, d: int, loop) -> None:
        """``cell = NK`` at line ``mark`` for the cells bound by ``loop`` (None: the root) that
        some line tests (``cell``: one worked out only where surely NK is set before any read)."""
        cells = self.cell_inits.pop(loop, None)
        if cells and self.flow is not None:
            cells = [cell for cell in cells if cell in self.flow.tested]
        if cells:
            self.lines.insert(mark, "    " * d + " = ".join(cells) + " = NK")

    def plan_cells(self, tree, scope, loop: int) -> dict:
        """{key: None} for the parts of ``tree`` worth a cell: used twice, or inside a generator
        whose variable they do not read. A part inside another one's cell is counted once."""
        events: list = []                      # per part, in order: (key, level, loop, end)
        self.gather(tree, scope, loop, events)
        counts: dict = {}
        for key, level, at, _ in events:
            if key is not None:
                counts[key] = counts.get(key, 0) + 1 + (level < at)
        candidates = {key for key, n in counts.items() if n > 1}
        uses: dict = {}
        seen: set = set()

        def visit(i: int, end: int, cap: int) -> None:
            while i < end:
                key, level, at, stop = events[i]
                if key not in candidates:
                    i += 1
                    continue
                uses[key] = uses.get(key, 0) + 1 + (level < min(at, cap))
                if key not in seen:
                    seen.add(key)
                    visit(i + 1, stop, level)          # worked out once where the cell is
                i = stop
        visit(0, len(events), len(events) + loop + 1)
        return {key: None for key, n in uses.items() if n > 1}

    def gather(self, node, scope, loop: int, events: list) -> None:
        """The parts of ``node`` as ``expr`` will write them (inlined functions' bodies included)."""
        cls = node.__class__
        if cls in _LEAVES:
            return
        at = len(events)
        events.append(None)
        if cls is ast.Generator:
            self.gather(node.iterable, scope, loop, events)
            inner = scope.bind(node.var, "", (("var", id(node)), loop + 1, id(node)))
            for part in (node.cond, node.element):
                if part is not None:
                    self.gather(part, inner, loop + 1, events)
        elif cls is ast.Function and self.inlined(node):
            for arg in node.args:
                self.gather(arg, scope, loop, events)
            params, body = self.rules.functions[node.name]
            names = {p: "" for p in params}
            if self.reads_self(node.name):
                names["self"] = ""
            self.gather(body, _Scope(names, False, self.callee_keys(node, scope)), loop, events)
        else:
            for child in node.children():
                self.gather(child, scope, loop, events)
        found = None if cls in _UNCELLED else self.key(node, scope)
        events[at] = (None, 0, loop, len(events)) if found is None else (found[0], found[1], loop, len(events))

    def inlined(self, node) -> bool:
        """Whether ``function_call`` writes this call's callee inline."""
        name = node.name
        return (name in self.fnames and len(node.args) == len(self.rules.functions[name][0])
                and self.is_inlinable(name))

    def callee_keys(self, node, scope) -> dict:
        """The keys of an inlined callee's parameters (and self), from its call's values."""
        params = self.rules.functions[node.name][0]
        keys = {p: found for p, arg in zip(params, node.args)
                if (found := self.key(arg, scope)) is not None}
        if self.reads_self(node.name):
            me = scope.keys.get("self") if "self" in scope.names and not scope.dynamic else _SELF_KEY
            if me is not None:
                keys["self"] = me
        return keys

    def key(self, node, scope):
        """``_key``, kept per node and scope while one root is written (each part's key is asked
        again for every part around it)."""
        entry = self.keys_seen.get((id(node), id(scope)))
        if entry is not None and entry[0] is scope:
            return entry[1]
        found = self._key(node, scope)
        self.keys_seen[id(node), id(scope)] = (scope, found)     # the scope kept: its id stays its own
        return found

    def _key(self, node, scope):
        """(key, level, loop) of the value ``node`` has in ``scope``: its syntax with each name
        replaced by what it is bound to, the deepest generator it reads (its level, and that
        generator's id as ``loop``; 0 and None: none); None when it may not be kept (it is not
        pure, holds a generator, or reads a value no key names)."""
        cls = node.__class__
        if cls is ast.Literal:
            return ("lit", type(node.value), node.value), 0, None
        if cls is ast.Name:
            if node.id in scope.names:
                return scope.keys.get(node.id)
            return ("env" if scope.dynamic else "name", node.id), 0, None
        if cls is ast.Generator:
            return None
        if cls is ast.Function:
            name = node.name
            if name in self.rules.functions:
                if name not in self.fnames or len(node.args) != len(self.rules.functions[name][0]) \
                        or not self.is_pure(name):
                    return None
            elif not self.pure_call(node):
                return None
            head, parts = ("call", name), node.args
        elif cls is ast.Attribute:
            if self.conditions(node.name):
                return None
            head, parts = (".", node.name), (node.obj,)
        elif cls is ast.DictExpr:
            head, parts = ("{}",) + tuple(k for k, _ in node.pairs), [v for _, v in node.pairs]
        elif cls is ast.BinOp or cls is ast.BoolOp:
            head, parts = (cls.__name__, node.op), (node.left, node.right)
        else:                                          # Index, ListExpr, Conditional, Not, Negate
            head, parts = (cls.__name__,), node.children()
        keys, level, loop = [head], 0, None
        for part in parts:
            found = self.key(part, scope)
            if found is None:
                return None
            keys.append(found[0])
            if found[1] > level:
                level, loop = found[1], found[2]
        return tuple(keys), level, loop

    def plain_key(self, node) -> bool:
        """``get(r, "key", d)`` whose key is a text that no record holds as a condition."""
        key = node.args[1] if len(node.args) == 3 else None
        return key.__class__ is ast.Literal and type(key.value) is str and not self.conditions(key.value)

    def inline(self, node, args: list, scope, d: int) -> str:
        """The body of ruleset function ``node.name`` with its parameters bound to ``args``."""
        params, tree = self.rules.functions[node.name]
        keys = self.callee_keys(node, scope)
        if not self.reads_self(node.name):
            return self.expr(tree, _Scope(dict(zip(params, args)), False, keys), d)
        me = scope.names.get("self")
        if me is None or scope.dynamic:                # as the function sees it: the thread's self
            me = self.fresh("v")
            self.line(d, f"{me} = ctx.env.get({self.const('self')})")
        return self.expr(tree, _Scope(dict(zip(params, args), self=me), False, keys), d)

    def mechanic(self, name: str, values: str, d: int, t: str | None = None, walks=None, args=None) -> str:
        """A call of a registered function; a Python error in it is judged by ``misuse``; with
        ``walks`` (its ``Function.walks``) the call is charged for what it walked."""
        t = t or self.fresh()
        self.line(d, "try:")
        self.line(d + 1, f"{t} = {self.const(FUNCTIONS[name].fn)}(ctx, {values})")
        self.line(d, "except PYERR as exc:")
        self.line(d + 1, f"raise MISUSE(ctx, {self.const(name)}, {values}, exc) from exc")
        if walks:
            self.charged(walks, args, values, t, d)
        return t

    def charged(self, walks: str, args, values: str, t: str, d: int) -> None:
        """The charge of a call that walks its values (``budget.WALKS``), its function called only
        where it may charge: lists, records and texts of ``NODES_PER_STEP`` items in all (``walked``),
        any list or record at all (``written``); values known to be numbers or constants of a
        known length take no test (``args``: the values' locals, None: always called)."""
        call = f"{self.const(budget.WALKS[walks])}(ctx.game, {values}, {t})"
        if args is None or walks not in ("lists", "parts"):
            self.line(d, call)
            return
        terms, known = [], 0
        for value in (args + [t] if walks == "lists" else args):
            if value in self.ints:
                continue
            if _CONST.fullmatch(value) and value in self.namespace:
                constant = self.namespace[value]
                if walks == "lists" and type(constant) in (list, dict, str):
                    known += len(constant)
                elif type(constant) in (list, dict):
                    terms = ["True"]
                    break
                continue
            proven = self.python_type(value)
            if proven is not None:                     # its type known: its length, or nothing
                if walks == "lists" and proven in budget._SIZED:
                    terms.append(f"len({value})")
                elif walks != "lists" and proven in (list, dict):
                    terms.append("True")
                continue
            terms.append(f"(len({value}) if type({value}) in SIZED_T else 0)" if walks == "lists"
                         else f"{self.is_(value, 'list')} or {self.is_(value, 'dict')}")
        if walks == "lists" and terms:
            self.line(d, f"if {' + '.join(terms + ([str(known)] if known else []))} >= {budget.NODES_PER_STEP}:")
        elif walks == "lists":
            if known < budget.NODES_PER_STEP:
                return
            self.line(d, "if True:")
        elif terms:
            self.line(d, f"if {' or '.join(terms)}:")
        else:
            return
        self.line(d + 1, call)

    def generator(self, node, scope, d):
        name = node.name
        if (node.var == "self" or name in self.rules.functions or name not in FUNCTIONS
                or self.generators >= _DEEPEST_GENERATORS):
            raise Unsupported(name)
        items = self.fresh()                         # a fresh local: it may be assigned again
        grid = self.rooms_walked(node, scope, d)
        if grid is not None:
            walked = self.registered_call(node.iterable.name, [grid], d)
        else:
            walked = self.expr(node.iterable, scope, d)
        self.line(d, f"{items} = {walked}")
        self.sorted_as(items, self.sort_of(walked))
        var = self.fresh("v")
        listed = self.sort_of(items)
        self.sorted_as(var, listed[1] if type(listed) is tuple else None)
        inner = scope.bind(node.var, var, (("var", id(node)), self.loop_level(scope) + 1, id(node)))
        self.generators += 1
        if grid is not None:
            self.room_keys[var] = _RoomKeys(grid, items, self.fresh("g"), self.fresh("g"), self.fresh("g"),
                                            self.fresh("g"), self.fresh("g"))
        try:
            return self.generator_loop(node, name, items, var, inner, d)
        finally:
            self.generators -= 1
            self.room_keys.pop(var, None)

    def rooms_walked(self, node, scope, d: int) -> str | None:
        """For ``f(x for r in rooms(g))``, pure: the local of ``g``, whose rooms the loop walks
        with each one's cell key (``room_keys``); None for any other generator."""
        it = node.iterable
        if (it.__class__ is not ast.Function or len(it.args) != 1 or it.name in self.rules.functions
                or FUNCTIONS.get(it.name) is None or FUNCTIONS[it.name].fn is not grids.rooms
                or self.tracing or not all(self.pure_node(n) for n in _walk(node))):
            return None
        return self.atom(it.args[0], scope, d)

    def walk_rooms(self, keys, var: str, at: int, head: int, d: int) -> None:
        """The loop at line ``at`` (its invariant cells from line ``head``) walks ``keys.items`` (rooms: ``rooms(g)`` gave them) with their
        cells' keys and tags, from tables made once where the rooms are the geometry's own and the
        grid's items were found in the state; else the rooms themselves are the keys of ``gi``,
        which reads each one's item as a room's ``item`` does, and their tags are read as the
        loop comes to them (``ROOM_TAGS``): one body either way, no test at each read."""
        g, items, line = keys.grid, keys.items, self.lines
        state = "ctx.game.state"
        setup = [
            f"{keys.gi} = None",
            f"if {self.is_(g, 'Grid', d)} and ({keys.geo} := GEO.get(({g}.grid, {g}.of))) is not None "
            f"and {items} is {keys.geo}.rooms:",
            "    try:",
            f"        {keys.keys} = RKEYS[{g}.grid]",
            f"        {keys.tags} = RTAGS[{g}.grid]",
            f"        {keys.gi} = ({state}['grids'] if {g}.of is None else {state}['players'][{g}.of]['grids'])"
            f"[{g}.grid]['items']",
            "    except ERROR:",
            "        pass",
            f"if {keys.gi} is None:",
            f"    {keys.gi} = ROOM_ITEMS({state})",
            f"    {keys.keys} = {items}",
            f"    {keys.tags} = ROOM_TAGS({items})",
        ]
        if "tags" not in keys.used:
            setup = [text for text in setup if f"{keys.tags} = " not in text]
        line[at] = "    " * d + (f"for {var}, {keys.key}, {keys.tag} in ZIP({items}, {keys.keys}, {keys.tags}):"
                                 if "tags" in keys.used else f"for {var}, {keys.key} in ZIP({items}, {keys.keys}):")
        line[head:head] = ["    " * d + self.keys(text) for text in setup]

    @staticmethod
    def loop_level(scope) -> int:
        """How many generators' variables the scope has bound (the cells' levels)."""
        return max((found[1] for found in scope.keys.values()), default=0)

    def generator_loop(self, node, name, items, var, inner, d):
        fn = FUNCTIONS[name].fn
        early = {core.any_of: "True", core.all_of: "False"}.get(fn)
        t = self.fresh()
        start = len(self.lines)
        self.line(d, f"{t} = {'[]' if early is None else {'True': 'False', 'False': 'True'}[early]}")
        if type(self.sort_of(items)) is tuple:                 # a list for sure: no test
            self.line(d, f"ctx.game.steps -= len({items})")
            self.line(d, "if ctx.game.steps < 0:")
            self.line(d + 1, "BUDGET.charge(ctx.game, 0)")
        else:
            self.line(d, f"if {self.is_(items, 'list', d)}:")            # the common case, without a call
            self.line(d + 1, f"ctx.game.steps -= len({items})")
            self.line(d + 1, "if ctx.game.steps < 0:")
            self.line(d + 2, "BUDGET.charge(ctx.game, 0)")
            self.line(d, "else:")
            self.line(d + 1, f"{items} = ITEMS(ctx, {items})")
        loop = self.begin_loop(d, f"for {var} in {items}:", items, id(node))
        body = d + 1
        if node.cond is not None:
            cond = self.expr(node.cond, inner, body)
            self.line(body, f"if {cond}:")
            body += 1
        element = self.expr(node.element, inner, body)
        self.end_loop(loop)
        self.init_cells(loop.at + 1, d + 1, id(node))
        keys = self.room_keys.get(var)
        if keys is not None and keys.used:
            self.walk_rooms(keys, var, loop.at, loop.head, d)
        if fn is core.count and _is_name(element):          # how many: no list needed
            self.lines[start] = "    " * d + f"{t} = 0"
            self.line(body, f"{t} += 1")
            self.ints.add(t)
            return t
        if early is None:
            self.line(body, f"{t}.append({element})")
            if fn is core.as_list:                          # a new list already: no copy
                self.lists.add(t)
                return self.sorted_as(t, ("list", self.sort_of(element)))
            values = self.fresh()
            self.line(d, f"{values} = [{t}]")
            return self.mechanic(name, values, d)
        self.line(body, f"if {'' if early == 'True' else 'not '}{element}:")   # any/all stop early
        self.line(body + 1, f"{t} = {early}")
        self.line(body + 1, "break")
        return self.sorted_as(t, bool)

    def binop(self, node, scope, d):
        text = self.operation(node, scope, d)
        return self.sorted_as(text, bool) if node.op in _COMPARISONS else text

    def operation(self, node, scope, d):
        op = node.op
        if op in ("in", "not in"):                     # the right side read below (in_tags)
            a, b = self.atom(node.left, scope, d), None
        else:
            a, b = self.exprs([node.left, node.right], scope, d)
        k = self.const(op)
        if op in ("==", "!=", "in", "not in", "+"):        # a zone compares by its cards
            fast = self.equal(node, a, b, scope) if op in ("==", "!=") else None
            if fast is not None:
                return fast if op == "==" else f"(not {fast})"
            if op in ("==", "!="):
                general = self.equal_general(a, b)     # charged
                if op == "!=":
                    general = f"(not {general})"
                tt = self.fresh()                      # two texts, two numbers, two players: as Python has it
                return (f"({a} {op} {b} if ({tt} := type({a})) is type({b}) and ({tt} is str or {tt} is int) "
                        f"else ({a}.seat {op} {b}.seat if {tt} is Player and {self.is_(b, 'Player')} else {general}))")
            if op == "+":
                return self.arithmetic(a, b, "+", f"ZONE_OP({k}, {a}, {b}, ctx)", d, lists=True, node=node)
            if node.left.__class__ is ast.Literal and type(node.left.value) is str and self.tags_short() \
                    and node.right.__class__ is ast.Attribute and node.right.name == "tags":
                return self.in_tags(node.right, a, op, k, scope, d)
            a, b = a, self.atom(node.right, scope, d)
            test = f"{a} in {b}" if op == "in" else f"{a} not in {b}"
            zone = "" if node.left.__class__ is ast.Literal else f" and type({a}) is not Zone"   # a literal is none
            guard = self.folded(f"type({b}) is list{zone} and len({b}) < {budget.NODES_PER_STEP}", [a, b])
            return f"({test} if {guard} else ZONE_OP({k}, {a}, {b}, ctx))"     # a long list: charged there
        if op in ("<", "<=", ">", ">="):
            test = self.ints_test((a, node.left), (b, node.right))
            if not test:
                return f"({a} {op} {b})"
            return f"({a} {op} {b} if {test} else CMP_ERROR({k}, {a}, {b}))"
        if op in ("-", "*"):
            return self.arithmetic(a, b, op, f"NUMBER(INT({a}, {k}) {op} INT({b}, {k}))", d, node=node)
        return f"DIVIDE({a}, {b}, {k})"

    def tags_short(self) -> bool:
        """Whether every room's tags are fewer than ``NODES_PER_STEP`` (as the limit is when the
        program is generated): looking one up is then never charged (``in_tags``)."""
        short = self.__dict__.get("_short")
        if short is None:
            tags = self.namespace[self.room_tags()]
            short = self._short = all(len(found) < budget.NODES_PER_STEP
                                      for cells in tags.values() for found in cells.values())
        return short

    def in_tags(self, node, a: str, op: str, k: str, scope, d: int) -> str:
        """``"text" in room.tags`` (or ``not in``): a room's tags (a grid walked, or any room) looked
        up in the geometry's table; any other value read and tested as ``binop`` tests it."""
        side = self.room_of_side(node.obj, scope)
        obj = side or self.atom(node.obj, scope, d)
        sorts = self.owner_sorts(node)
        t, line, word = self.fresh(), self.line, "if"
        if side is not None or self.sort_of(obj) is Room:     # a proven room (or a side read as its room)
            keys = self.room_keys.get(obj)
            if keys is None:
                return self.sorted_as(f"({a} {op} {self.room_tags()}[{obj}.grid][{obj}.r, {obj}.c])", bool)
            keys.used.add("tags")
            return self.sorted_as(f"({a} {op} {keys.tag})", bool)
        if sorts is None or Room in sorts:
            line(d, f"{word} {self.is_(obj, 'Room', d)}:")
            line(d + 1, f"{t} = {a} {op} {self.room_tags()}[{obj}.grid][{obj}.r, {obj}.c]")
            word = "elif"
        reader = self.readers.get("tags")
        if reader is None:
            reader = self.readers["tags"] = self.const(attribute_reader("tags", self.rules))
        value = self.fresh()
        if word == "elif":
            line(d, "else:")
        inner = d + (word == "elif")
        line(inner, f"{value} = {reader}(ctx, {obj})")
        line(inner, f"{t} = ({a} {op} {value} if {self.is_(value, 'list', inner)} and len({value}) < {budget.NODES_PER_STEP} "
                    f"else ZONE_OP({k}, {a}, {value}, ctx))")
        return t

    def arithmetic(self, a: str, b: str, op: str, otherwise: str, d: int, lists: bool = False,
                   node=None) -> str:
        """``a op b`` on two numbers without a call (past 30 bits ``NUMBER`` checks the size:
        ``limits.number``), and, with ``lists``, two lists or two texts joined (their size
        checked); ``otherwise`` for any other values (and their errors). A literal operand of
        ``node`` leaves out the branches its type cannot take."""
        literals = {type(side.value) for side in (node.left, node.right)
                    if side.__class__ is ast.Literal} if node is not None else set()
        t = self.fresh()
        word = "if"
        known = [side for side in (a, b) if side in self.lists]
        if lists and known:                            # a list and a list, or an error
            unknown = [side for side in (a, b) if side not in self.lists]
            if unknown:
                self.line(d, f"if {self.is_(unknown[0], 'list', d)}:")
            inner = d + bool(unknown)
            self.line(inner, f"{t} = {a} + {b}")
            self.line(inner, f"if len({t}) >= {budget.NODES_PER_STEP}:")    # checked, and charged
            self.line(inner + 1, f"BUDGET.walked(ctx.game, (), SIZED({t}))")
            if unknown:
                self.line(d, "else:")
                self.line(d + 1, f"{t} = {otherwise}")
            return t
        proven = {self.python_type(a), self.python_type(b)} - {None}
        if not literals - {int} and not proven - {int}:
            test = self.ints_test((a, node and node.left), (b, node and node.right))
            if not test:                               # two numbers for sure: no other case
                self.line(d, f"{t} = {a} {op} {b}")
                self.line(d, f"if not {_LOW} <= {t} <= {_HIGH}:")
                self.line(d + 1, f"{t} = NUMBER({t})")
                self.ints.add(t)
                return t
            self.line(d, f"if {test}:")
            self.line(d + 1, f"{t} = {a} {op} {b}")
            self.line(d + 1, f"if not {_LOW} <= {t} <= {_HIGH}:")
            self.line(d + 2, f"{t} = NUMBER({t})")
            word = "elif"
        for kind in (list, str) if lists else ():
            if literals - {kind} or proven - {kind}:
                continue
            test = self.folded(f"type({a}) is {kind.__name__} and type({b}) is {kind.__name__}", [a, b])
            if test == "True" and word == "if":           # both proven lists (or texts): that case only
                self.line(d, f"{t} = {a} + {b}")
                self.line(d, f"if len({t}) >= {budget.NODES_PER_STEP}:")
                self.line(d + 1, f"BUDGET.walked(ctx.game, (), SIZED({t}))")
                joined = {self.sort_of(a), self.sort_of(b)}
                return self.sorted_as(t, joined.pop() if len(joined) == 1 else ("list", None) if kind is list
                                      else str)
            self.line(d, f"{word} {test}:")
            self.line(d + 1, f"{t} = {a} + {b}")
            self.line(d + 1, f"if len({t}) >= {budget.NODES_PER_STEP}:")    # checked, and charged
            self.line(d + 2, f"BUDGET.walked(ctx.game, (), SIZED({t}))")
            word = "elif"
        if not lists:                                  # - and *: a number or an error, always
            self.ints.add(t)
        if word == "if":
            self.line(d, f"{t} = {otherwise}")
            return t
        self.line(d, "else:")
        self.line(d + 1, f"{t} = {otherwise}")
        return t

    def folded(self, test: str, args: list) -> str:
        """A case's test (an ``and`` of parts) with the parts known now left out: a constant's
        type, two constants compared, a number the code made (``ints``), a record's field
        named by a constant that no record holds as a condition. "True", "False" or the rest."""
        if " or " in test:
            return test
        parts, kept = test.split(" and "), []
        for part in parts:
            known = _CONST_TYPE.fullmatch(part)
            if known is not None and known.group(1) in self.namespace:
                value, wanted = self.namespace[known.group(1)], _TYPES.get(known.group(3))
                if wanted is None:
                    kept.append(part)
                elif (type(value) is wanted) != bool(known.group(2)):
                    continue
                else:
                    return "False"
                continue
            known = _CONST_CMP.fullmatch(part)
            if known is not None and known.group(1) in self.namespace and known.group(3) in self.namespace:
                same = self.namespace[known.group(1)] == self.namespace[known.group(3)]
                if same == (known.group(2) == "=="):
                    continue
                return "False"
            known = _LOCAL_TYPE.fullmatch(part)
            if known is not None and _TYPES.get(known.group(3)) is not None \
                    and self.python_type(known.group(1)) is not None:
                if (self.python_type(known.group(1)) is _TYPES[known.group(3)]) != bool(known.group(2)):
                    continue                           # a proven sort: the test is known
                return "False"
            known = _PLAIN_FIELD.fullmatch(part)
            if known is not None and type(self.namespace.get(known.group(1))) is str \
                    and not self.conditions(self.namespace[known.group(1)]):
                continue
            known = _TYPE_PART.fullmatch(part)
            kept.append(part if known is None else self.is_(known.group(1), known.group(2)))
        return " and ".join(kept) if kept else "True"

    def ints_test(self, *sides) -> str:
        """The Python test that each ``(local, node)`` holds a number, leaving out those known
        to: a literal number, or a count the generated code made (``ints``)."""
        return " and ".join(self.is_(a, "int") for a, side in sides
                            if self.sort_of(a) is not int and not (side.__class__ is ast.Literal
                                                                   and type(side.value) is int))

    def equal(self, node, a: str, b: str, scope) -> str | None:
        """``==`` against a literal text, number or none, or a scripted seat's name (a player or
        none), without the general case (or before it)."""
        for lit, other in ((node.right, a), (node.left, b)):
            if lit.__class__ is ast.Literal:
                value = lit.value
                if value is None:
                    return f"({other} is None)"
                if type(value) is str:                 # a zone's cards are never a text
                    return f"({other} == {self.const(value)})"
                if type(value) is int:                 # nor a number; true is not 1
                    return f"({other} == {self.const(value)} and type({other}) is not bool)"
        for seat, other, where in ((node.right, a, b), (node.left, b, a)):
            if self.is_seat(seat, scope):              # a player equals it by its seat, and
                general = self.equal_general(a, b)     # a player is never none (nor a zone)
                return (f"({where} is not None and {other}.seat == {where}.seat if {self.is_(other, 'Player')} "
                        f"else {general})")
        return None

    def is_seat(self, node, scope) -> bool:
        """Whether ``node`` is a scripted seat's name, as ``global_name`` reads it (no local)."""
        return (node.__class__ is ast.Name and node.id not in scope.names and not scope.dynamic
                and self.rules.names.get(node.id, ("",))[0] == "seat")

    def equal_general(self, a: str, b: str) -> str:
        """``a == b`` for any values: a zone by its cards, and a long list charged (``ZONE_OP``)."""
        k = self.const("==")
        fast = f"({a} == {b} and ({self.is_(a, 'bool')}) is ({self.is_(b, 'bool')}))"
        return (f"(ZONE_OP({k}, {a}, {b}, ctx) if {self.is_(a, 'Zone')} or {self.is_(b, 'Zone')} "
                f"or {self.is_(a, 'list')} and len({a}) >= {budget.NODES_PER_STEP} else {fast})")

    def boolop(self, node, scope, d):
        """``and``/``or``: the right side worked out where the left leaves it to decide; two sides
        of true or false whose right side is an expression alone are Python's own ``and``/``or``."""
        left = self.expr(node.left, scope, d)
        copied = not (_TEMP.fullmatch(left) and left not in self.ints and left not in self.lists)
        if not copied:
            t = left                                   # the left side's own temporary: no copy
        else:
            t = self.fresh()                           # a fresh local: it is assigned again below
            self.line(d, f"{t} = {left}")
        first = self.sort_of(left)
        truths = self.is_bool(node.left) or first is bool
        if node.op == "and":
            self.line(d, f"if {self.holds(t, node.left, first)}:")
        elif truths:
            self.line(d, f"if not {t}:")
        else:
            self.line(d, f"if {t} is False or not ({t} is True or TRUTH({t}, ctx.game.state)):")
        if self.tracing:
            self.line(d + 1, f"TRACE(ctx, {self.const(node)}, 'right')")
        mark = len(self.lines)
        right = self.expr(node.right, scope, d + 1)
        second = self.sort_of(right)
        if len(self.lines) == mark and truths and not self.tracing and (
                self.is_bool(node.right) or second is bool):
            del self.lines[mark - 1 - copied:]         # (the ``if``, and the copy of the left side)
            return self.sorted_as(f"({left if copied else t} {node.op} {right})", bool)
        self.line(d + 1, f"{t} = {right}")
        return self.sorted_as(t, first if first == second else None)

    def conditional(self, node, scope, d):
        cond = self.atom(node.cond, scope, d)
        t = self.fresh()
        self.line(d, f"if {self.holds(cond, node.cond)}:")
        if self.tracing:
            self.line(d + 1, f"TRACE(ctx, {self.const(node)}, 'then')")
        before, mark = self.temp, len(self.lines)
        then = self.expr(node.then, scope, d + 1)
        sort = self.sort_of(then)
        self.into(t, then, d + 1, mark, before)
        self.line(d, "else:")
        if self.tracing:
            self.line(d + 1, f"TRACE(ctx, {self.const(node)}, 'else')")
        before, mark = self.temp, len(self.lines)
        orelse = self.expr(node.orelse, scope, d + 1)
        other = self.sort_of(orelse)
        self.into(t, orelse, d + 1, mark, before)
        if t in self.ints and not (then in self.ints and orelse in self.ints):
            self.ints.discard(t)                        # (renamed from one arm only)
        self.lists.discard(t)
        return self.sorted_as(t, sort if sort == other else None)

    def not_expr(self, node, scope, d):
        if node.operand.__class__ is ast.BoolOp and not self.tracing:
            return self.sorted_as(f"(not {self.truth(node.operand, scope, d)})", bool)
        a = self.atom(node.operand, scope, d)
        if self.is_bool(node.operand) or self.sort_of(a) is bool:
            return self.sorted_as(f"(not {a})", bool)
        return self.sorted_as(f"((not {a}) if {self.is_(a, 'bool')} else not TRUTH({a}, ctx.game.state))", bool)

    def truth(self, node, scope, d: int) -> str:
        """A local (or a constant) holding whether ``node``'s value counts as true: an and/or's
        parts each tested for truth once, as they are reached (their values are not needed)."""
        if node.__class__ is not ast.BoolOp:
            value = self.atom(node, scope, d)
            test = self.holds(value, node)
            if test == value:
                return value
            t = self.fresh()
            self.line(d, f"{t} = {test}")
            return self.sorted_as(t, bool)
        t = self.fresh()
        before, mark = self.temp, len(self.lines)
        self.into(t, self.truth(node.left, scope, d), d, mark, before)
        self.line(d, f"if {'' if node.op == 'and' else 'not '}{t}:")
        before, mark = self.temp, len(self.lines)
        self.into(t, self.truth(node.right, scope, d + 1), d + 1, mark, before)
        return self.sorted_as(t, bool)

    def holds(self, value: str, node, sort=None) -> str:
        """The Python test of whether ``value`` (of ``node``) counts as true (a zone by its cards)."""
        if self.is_bool(node) or (sort or self.sort_of(value)) is bool:
            return value
        return self.is_(value, "truth")

    def is_bool(self, node) -> bool:
        """Whether ``node``'s value is always true or false, by its syntax alone (a comparison,
        ``not``, a literal, and/or and if/then/else of those): its truth needs no test."""
        cls = node.__class__
        if cls is ast.BinOp:
            return node.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
        if cls is ast.Not:
            return True
        if cls is ast.Literal:
            return type(node.value) is bool
        if cls is ast.BoolOp:
            return self.is_bool(node.left) and self.is_bool(node.right)
        if cls is ast.Conditional:
            return self.is_bool(node.then) and self.is_bool(node.orelse)
        if cls is ast.Generator:                       # any/all written as loops give true or false
            entry = FUNCTIONS.get(node.name)
            return (node.name not in self.rules.functions and entry is not None
                    and entry.fn in (core.any_of, core.all_of))
        if cls is ast.Function and node.name in self.fnames:     # a function whose body is one of those
            known = self.bool_functions.get(node.name)
            if known is None:
                self.bool_functions[node.name] = False            # a cycle: not known
                known = self.bool_functions[node.name] = self.is_bool(self.rules.functions[node.name][1])
            return known and len(node.args) == len(self.rules.functions[node.name][0])
        return False

    def negate(self, node, scope, d):
        a = self.expr(node.operand, scope, d)
        return f"(-INT({a}, {self.const('-')}))"


_QUOTED = re.compile(r"'([a-z_]+)'")
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
_ID_OR_NONE = "a text or none"       # the sort of a zone's top card: no one Python type (``python_type``)
_CONST_SORTS = (bool, int, str, Grid, Room, Side)       # constants whose Python type is their sort
_TEMP = re.compile(r"t\d+")          # a temporary ``fresh`` made: its one reader is the caller
_CONST = re.compile(r"K\d+")
_CONST_TYPE = re.compile(r"type\((K\d+)\) is (not )?(\w+)")
_CONST_CMP = re.compile(r"(K\d+) (==|!=) (K\d+)")
_LOCAL_TYPE = re.compile(r"type\(([tvh]\d+)\) is (not )?(\w+)")
_PLAIN_FIELD = re.compile(r"type\(ENTITIES\[\w+\]\.get\((K\d+)\)\) is not Condition")
_TYPES = {"int": int, "str": str, "list": list, "dict": dict, "bool": bool, "Zone": Zone, "Room": Room,
          "Side": Side, "Grid": Grid, "Player": Player}
_GAME = re.compile(r"\bctx\.game\b")
_STATE = re.compile(r"\bctx\.game\.state\b")

# The size test of a number the code made: ``NUMBER`` gives back any number below 64 bits (and
# refuses one of more than MAX_DIGITS digits), so the test may pass it fewer. These bounds are
# one CPython digit (below 2**30): 3.11 compares such numbers in an ``if`` without a call
# (COMPARE_OP_INT_JUMP), where 2**63 took PyObject_RichCompare at every test. Literals in the
# source, so constants (``-SMALL`` made a number at every test).
_LOW, _HIGH = -(2 ** 30 - 1), 2 ** 30 - 1
_LEAVES = (ast.Literal, ast.Name)
_UNCELLED = (ast.Literal, ast.Name, ast.ListExpr, ast.DictExpr, ast.Generator)   # never a cell
_SELF_KEY = (("self",), 0, None)       # the acting player, as ``ctx.env.get('self')`` gives it


_SIBLINGS = ("elif ", "else:", "except", "finally:")


def _raw_test(x: str, kind: str) -> str:
    """The test ``is_`` writes or keeps in a flag: ``x``'s type is ``kind``; "truth": ``x`` holds;
    "upto<n>": ``x`` is a number from 1 to n (a numbered group's member)."""
    if kind == "truth":
        return f"{x} is True or ({x} is not False and TRUTH({x}, ctx.game.state))"
    if kind.startswith("upto"):
        return f"type({x}) is int and 0 < {x} <= {kind[4:]}"
    return f"type({x}) is {kind}"


_FLAGGED = {"int", "str", "dict", "list", "bool", "Player", "Room", "Side", "Grid", "Zone", "truth"}
_TYPE_PART = re.compile(r"type\(([vh]\d+)\) is (int|str|dict|list|bool|Player|Room|Side|Grid|Zone)")
_TRUTH = "({0} is True or ({0} is not False and TRUTH({0}, ctx.game.state)))"


def _walk(tree):
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children())


_DEEPEST_FRAMES = 16       # a block's loops run through: at most 8 inside one another...
_DEEPEST_INDENT = 48       # ...and their ifs and elifs this many indents deep (Python's limits: 20, 100)
_NESTED = 32              # frames on a stack under which a block runs the blocks it pushes itself
_DEEPEST_GENERATORS = 8    # generators inside one another written as loops (Python: 20 nested blocks)
_BOUNDED_HEIGHT = 8        # the deepest calls of a function that keeps no call depth (``bounded``)
_INLINE_NODES = 60         # the largest function body (in syntax nodes) written at its call sites
_INLINE_WRITTEN = 120      # ...and the most nodes one call writes, its inlined callees' with it

# Registered functions whose value always has one sort (``sort_of``): each gives it or raises,
# whatever it is given (``grids``: lists of the geometry's rooms and sides; ``count`` a length).
_RESULTS = {
    grids.rooms: ("list", Room), grids.row: ("list", Room), grids.column: ("list", Room),
    grids.tagged: ("list", Room), grids.adjacent: ("list", Room), grids.neighbours: ("list", Room),
    grids.sides: ("list", Side), grids.room: Room, grids.side: Side, core.count: int,
}

_GEO = "type({v}) is Grid and ({t} := GEO.get(({v}.grid, {v}.of))) is not None"
_GEO_ROOM = "type({v}) is Room and ({t} := GEO.get(({v}.grid, {v}.of))) is not None"

# Registered functions whose common case is written inline: fn -> (number of values, the case
# (a Python test over the values' locals {0}, {1}...), its value there); any other values go
# to the function itself, its errors with them. Each case gives what the function gives.
_FAST = {
    core.count: (1, "type({0}) is list", "len({0})"),
    core.absolute: (1, "type({0}) is int", "{0} if {0} >= 0 else -{0}"),
    core.first: (1, "type({0}) is list", "{0}[0] if {0} else None"),
    core.as_list: (1, "type({0}) is list", "list({0})"),
    core.get: (3, "type({0}) is dict and type({1}) is str", "{0}.get({1}, {2})"),
    (core.get, "record"): (3, "type({0}) is str and type({1}) is str and {1} != 'id' and {0} in ENTITIES "
                              "and type(ENTITIES[{0}].get({1})) is not Condition",      # a plain field
                           "ENTITIES[{0}].get({1}, {2})"),
    # A grid's rooms and lines, a room's sides and neighbours: from its geometry, made once (the
    # function itself makes it, and reads anything that is not a grid's or a room's own).
    grids.rooms: (1, _GEO.format(v="{0}", t="{t}"), "{t}.rooms"),
    grids.row: (2, _GEO.format(v="{0}", t="{t}"), "{t}.rows.get({1}, [])"),
    grids.column: (2, _GEO.format(v="{0}", t="{t}"), "{t}.cols.get({1}, [])"),
    grids.tagged: (2, _GEO.format(v="{0}", t="{t}") + " and type({1}) is str and {1} in {t}.tagged",
                   "{t}.tagged[{1}]"),
    grids.sides: (1, "type({0}) is Room and ({t} := {0}.sides) is not UNSET", "{t}"),     # the geometry's
    grids.adjacent: (1, _GEO_ROOM.format(v="{0}", t="{t}") + " and ({t} := {t}.adjacent.get(({0}.r, {0}.c))) is not None",
                     "{t}"),
    zones.top: (1, "type({0}) is Zone and {0}.n is not None",      # one pile of a group: its list
                "{t}[0] if ({t} := (ctx.game.state['zones'] if {0}.of is None else "
                "ctx.game.state['players'][{0}.of]['zones'])[{0}.name][{0}.n - 1]) else None"),
}


# The state of the grid a room or side ``v`` lies on (``grids._data``).
_GRID_DATA = ("(ctx.game.state['grids'] if {v}.of is None else ctx.game.state['players'][{v}.of]['grids'])"
              "[{v}.grid]")

# A room's item, as ``grids.room_item`` reads it, its cell's key kept on the room (or the side).
_ITEM = _GRID_DATA + "['items'].get({v}.cell)"


# A player's built-in attributes read without a call (as ``seats.PLAYER_ATTRIBUTES`` has them),
# where no player component of the ruleset has the name.
_PLAYER_INLINE = {
    "seat": "({v}.seat + 1)",
    "scripted": "({v}.seat >= ctx.game.people)",
}


# A side's attributes read without a call: its room, the room across (the geometry's, kept on
# the side) and whether its edge is walled (the edge's key, as ``grids.edge_key`` names it, kept
# on the side too: ``Side``).
_SIDE_INLINE = {
    "room": "{v}.home",
    "across": "{t} if ({t} := {v}.across) is not UNSET else {reader}(ctx, {v})",
    "side": "{v}.side",
    "walled": "({v}.edge in " + _GRID_DATA + "['walls'])",
}


def _zone_ids(rules) -> bool:
    """Whether every zone holds texts alone, always: a zone starts empty or with a table's items
    (``zones.new_zone``), so when every table a zone is filled from holds texts (this scan of
    the loaded tables), cards only move from zone to zone (``move``, ``split``, ``arrange`` and
    ``fill`` take what a zone holds, the auction a bid's card or a lot's id), and a saved
    state's zones are texts by its schema, no zone ever holds anything else."""
    return all(type(item) is str for spec in rules.zones.values() if type(spec) is dict and "from" in spec
               for item in rules.tables[spec["from"]])


def _room_names(rules) -> dict:
    """{(row, col): a room's name there} for every cell of the ruleset's grids (``describe``)."""
    return {(r, c): room_name(Room("", None, r, c)) for spec in rules.grids.values()
            for r in range(1, spec["rows"] + 1) for c in range(1, spec["cols"] + 1)}


# A room's attributes read without a call (``v`` the room's local): its fields, and its item
# by grids' own reader of the state.
_ROOM_INLINE = {
    "row": "{v}.r",
    "col": "{v}.c",
    "item": _ITEM,
    "empty": f"({_ITEM} is None)",
    "tags": "{tags}[{v}.grid][{v}.r, {v}.c]",
    "name": "ROOM_NAMES.get(({v}.r, {v}.c)) or {reader}(ctx, {v})",
}


# The sorts of a room's and a side's attributes (as their readers give them, ``sort_of``), and
# a room's fields a side has too (``room_of_side``): a side stands for its room in their reads.
_ROOM_SORTS = {"row": int, "col": int, "empty": bool, "tags": ("list", str), "name": str, "grid": Grid}
_SIDE_SORTS = {"room": Room, "side": str, "walled": bool, "boundary": bool, "name": str}
_SIDE_ROOM = ("row", "col", "item", "empty", "tags")


class _RoomItems:
    """The items of the rooms a loop walks (``walk_rooms``) where the geometry's tables do not
    serve: ``get(room)`` reads a room's item as a room's ``item`` does (its errors too)."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def get(self, room):
        return grids.room_item(self.state, room)


def _tags_of(tags: dict):
    """``ROOM_TAGS(rooms)``: each room's tags, as a room's ``tags`` reads them (``tags``: {grid:
    {(row, col): tags}}), read as a loop comes to the room."""
    def walk(rooms):
        for room in rooms:
            yield tags[room.grid][room.r, room.c]
    return walk


class _RoomKeys:
    """The locals of a loop over a grid's rooms (``walk_rooms``): the grid, its rooms, its
    geometry, the cells' keys and tags walked alongside (their lists, each room's), the grid's
    items (None where the rooms are not the geometry's), and what the body read (``used``)."""

    def __init__(self, grid, items, geo, lists, key, gi, tag):
        self.grid, self.items, self.geo, self.gi = grid, items, geo, gi
        self.keys, self.key = lists, key
        self.tags, self.tag = lists + "t", tag
        self.used: set = set()


def _room_keys(rules, tags: dict) -> tuple:
    """({grid: its rooms' cell keys}, {grid: their tags}), in the order of a geometry's rooms
    (the tags the very lists a room's ``tags`` reads, ``tags``: {grid: {(row, col): tags}})."""
    keys, tagged = {}, {}
    for name, spec in rules.grids.items():
        rooms = _Geometry(name, None, spec).rooms
        keys[name] = [room.cell for room in rooms]
        tagged[name] = [tags[name][room.r, room.c] for room in rooms]
    return keys, tagged


class _Flow:
    """What the generator knows of a root's cells at the line it is writing, followed line by
    line as it writes them (``_Generator.line``: a line's depth is its block, a line ending in a
    colon opens one, ``elif``/``else``/``except``/``finally`` go on the block before): which
    cells some path to here has worked out (``touched``: the others are surely NK where no loop
    opened since their binding), and in which block each is surely set (``known``)."""

    __slots__ = ("touched", "known", "heads", "loops", "last", "levels", "bound", "tested")

    def __init__(self):
        self.touched: set = set()          # cells worked out on some path to the line
        self.known: dict = {}              # cell -> the depth of the block in which it is surely set
        self.heads: list = []              # open blocks: [depth, kind, touched before it, touched in its arms]
        self.loops = 0                     # loops open around the line
        self.last = 0                      # the depth of the line before
        self.levels: dict = {None: 0}      # binding (None: the root, else a generator's id) -> loops open
        self.bound: dict = {}              # cell -> the loops open at its binding
        self.tested: set = set()           # cells an ``is NK`` test reads: they need their ``= NK``

    def follow(self, depth: int, text: str) -> None:
        """The line ``text`` written at ``depth``."""
        sibling = text.startswith(_SIBLINGS)
        self.reach(depth, sibling)
        heads = self.heads
        if sibling and heads and heads[-1][0] == depth:    # another arm: as before the first
            head = heads[-1]
            if head[1] == "if":
                head[3] |= self.touched
                self.touched = set(head[2])
            return
        if text.endswith(":"):
            if text.startswith(("for ", "while ")):
                heads.append([depth, "loop", None, None])
                self.loops += 1
            elif text.startswith("if "):
                heads.append([depth, "if", set(self.touched), set()])
            else:
                heads.append([depth, "other", None, None])


    def reach(self, depth: int, sibling: bool = False) -> None:
        """The blocks a statement at ``depth`` (``sibling``: an arm of the one before) is after."""
        if depth < self.last:                              # blocks left: what was set there goes
            known = self.known
            for cell in [c for c, at in known.items() if at > depth]:
                del known[cell]
        self.last = depth
        heads = self.heads
        while heads and (heads[-1][0] > depth or heads[-1][0] == depth and not sibling):
            head = heads.pop()
            if head[1] == "if":                            # paths meet: touched on any of them
                self.touched |= head[3]
            elif head[1] == "loop":
                self.loops -= 1


class _Typing:
    """A function's type tests as they are written (``_Generator.is_``): the loops open at the
    line (a loop-invariant cell's work, under its ``is NK``, runs once: as outside them), the
    tests each parameter had, the flags wanted and those this writing keeps (``preset``)."""

    __slots__ = ("preset", "params", "wanted", "counts", "loops", "once", "sorts")

    def __init__(self, preset: set):
        self.preset, self.params = preset, set()
        self.wanted: set = set()
        self.counts: dict = {}
        self.loops: list = []              # the depths of the loops open
        self.once: list = []               # the depths of the loop-invariant cells' works open
        self.sorts: dict = {}              # the generator's sorts this writing changed: as they were

    def follow(self, depth: int, text: str) -> None:
        loops, once = self.loops, self.once
        while loops and loops[-1] >= depth:
            loops.pop()
        while once and once[-1] >= depth:
            once.pop()
        if text.endswith(":") and text.startswith(("for ", "while ")):
            loops.append(depth)

    def once_at(self, depth: int, bound: int) -> None:
        """An ``is NK`` test written at ``depth`` of a cell bound inside ``bound`` loops."""
        if bound < len(self.loops):
            self.once.append(depth)

    def once_done(self, depth: int) -> None:
        """The work under the ``is NK`` test at ``depth`` written."""
        while self.once and self.once[-1] >= depth:
            self.once.pop()

    def level(self) -> int:
        return 0 if self.once else len(self.loops)


class _Loop:
    """A generator's loop being written: its ``for`` line waits while the body's first lines are
    cells of values no turn changes (bound outside it); those go before it, under ``if items:``
    (run at the first turn's start, as they would have been, and tested at no other)."""

    __slots__ = ("depth", "text", "items", "nid", "at", "head", "guarded", "hoisting", "hoisted")

    def __init__(self, depth: int, text: str, items: str, nid):
        self.depth, self.text, self.items, self.nid = depth, text, items, nid
        self.at = None                     # the ``for`` line's index, once written
        self.head = None                   # the index of its first line (``if items:`` or the ``for``)
        self.guarded = False               # ``if items:`` written
        self.hoisting = False              # a hoisted cell being written
        self.hoisted: list = []            # the cells worked out before it


class _Scope:
    """The effect-language locals that are Python locals here; ``dynamic``: others are in ``env``."""

    __slots__ = ("names", "dynamic", "keys")

    def __init__(self, names: dict, dynamic: bool, keys: dict | None = None):
        self.names, self.dynamic = names, dynamic
        self.keys = keys if keys is not None else {}   # name -> its value's ``key`` (common parts)

    def bind(self, name: str, local: str, key=None) -> "_Scope":
        keys = {**self.keys, name: key} if key is not None else {
            k: v for k, v in self.keys.items() if k != name}
        return _Scope({**self.names, name: local}, self.dynamic, keys)


def _is_name(text: str) -> bool:
    return text.isidentifier()


class _Made(dict):
    """{seat: the reference a pure component kind makes for it} (its value reads no state, and
    engine values never change, so one value per seat serves every game of the ruleset)."""

    def __init__(self, value, name: str):
        super().__init__()
        self.value, self.name = value, name

    def make(self, ctx, owner):
        made = self.value(ctx, self.name, owner)
        if type(owner) is int:
            self[owner] = made
        return made


def _adapter(name: str, arity: int, fn):
    """The generated function as the Game's table calls functions: ``f(ctx, args)``."""
    def call(ctx, args):
        if len(args) != arity:
            raise RuleError(f"'{name}' takes {arity} values, got {len(args)}")
        return fn(ctx, *args)
    return call


_EMIT = {
    ast.Literal: _Generator.literal,
    ast.Name: _Generator.name,
    ast.ListExpr: _Generator.list_expr,
    ast.DictExpr: _Generator.dict_expr,
    ast.Attribute: _Generator.attribute,
    ast.Index: _Generator.index,
    ast.Function: _Generator.function_call,
    ast.Generator: _Generator.generator,
    ast.BinOp: _Generator.binop,
    ast.BoolOp: _Generator.boolop,
    ast.Conditional: _Generator.conditional,
    ast.Not: _Generator.not_expr,
    ast.Negate: _Generator.negate,
}
