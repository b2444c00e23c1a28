"""Load a ruleset folder: read, validate, cross-check and compile its content.

A ruleset is a folder with a manifest ``game.yaml`` naming its other files:
one ``components`` file (counters, variables, zones, grids, tables and
their fields, visibility), one ``flow`` file (procedures and named
functions in the effect language, and the ``start`` program) and ``data``
files holding the records of the declared tables. Expansions are folders
of overlays (``expansion.yaml``) applied on top, by name.

Every problem found is collected with its ``file:line:col``; loading only
succeeds when there are none.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .. import mechanics
from ..diagnostics import ContentError, Diagnostic, did_you_mean
from ..dsl import ast
from ..dsl import kinds
from ..dsl.check import Vocabulary, check
from ..dsl.explain import explain
from ..dsl.parser import DslError, parse_expression, parse_program
from ..engine.evaluate import PLAYER_BUILTINS
from . import tables
from .schema_check import check_schema, load_schema
from .yaml_source import load_yaml

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
MANIFEST = "game.yaml"

# Names every text may use without declaring them.
BUILTIN_NAMES = ("players", "player_count", "options", "game_over", "winners")
GRID_ATTRIBUTES = tuple(sorted({name for names in mechanics.grids.ATTRIBUTE_KINDS.values()
                                for name in names}))
# What the built-in names and a player's built-in attributes hold (see engine.evaluate).
BUILTIN_KINDS = {"players": "list of player", "player_count": "number", "game_over": "bool",
                 "winners": "list of player"}          # options: from the manifest's options
PLAYER_BUILTIN_KINDS = {"seat": "number", "name": "string", "left": "player", "right": "player",
                        "neighbours": "list of player", "place": "number or none"}


def ruleset_path(name_or_path: str) -> Path:
    """A game id (``mygame``) or a folder or manifest path -> the ruleset folder."""
    path = Path(name_or_path)
    if path.name == MANIFEST:
        return path.parent
    if path.is_dir():
        return path
    if (RULESETS / name_or_path / MANIFEST).is_file():
        return RULESETS / name_or_path
    raise FileNotFoundError(f"no ruleset '{name_or_path}' (looked for a folder or rulesets/{name_or_path})")


def available() -> list[str]:
    """The ids of the bundled rulesets."""
    return sorted(p.parent.name for p in RULESETS.glob(f"*/{MANIFEST}"))


@dataclass
class Source:
    """One loaded content file."""
    path: str
    data: object
    locator: object


class Problems:
    """Collects diagnostics from every stage of loading."""

    def __init__(self):
        self.items: list[Diagnostic] = []

    def add(self, code, message, source: Source | None, path=(), *, key=False, hint=None,
            end_col=None):
        if source is None:
            self.items.append(Diagnostic(code, message, hint=hint))
            return
        line, col = source.locator.key_at(path) if key else source.locator.at(path)
        self.items.append(Diagnostic(code, message, source.path, line, col, end_col, hint))

    def extend(self, diagnostics):
        self.items.extend(diagnostics)

    def raise_if_any(self):
        if self.items:
            raise ContentError(sorted(self.items, key=_order))


def _order(d: Diagnostic):
    return (d.file or "", d.line or 0, d.col or 0)


class Ruleset:
    """A loaded game: declarations, records and compiled programs.

    Compiled programs live here, not in game states: a state refers to a
    syntax node by its number in ``nodes``, the same on every load.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.nodes: list = []
        self.node_id: dict = {}
        self.node_source: dict = {}        # node id -> (Source, path) for run-time errors
        self.procedures: dict = {}         # name -> (params, root Block)
        self.functions: dict = {}          # name -> (params, expression)
        self.effects: dict = {}            # "record.field" -> root Block
        self.expressions: dict = {}        # "record.field" -> expression
        self.entities: dict = {}           # id -> record
        self.tables: dict = {}             # table -> [ids]
        self.names: dict = {}              # name -> (tag, value) for evaluate.lookup
        self.visibility: dict = {}         # "kind:name" -> expression
        self.start = None
        self.expansions: list = []

    # ------------------------------------------------------------- queries
    def where(self, node) -> str:
        """``file:line:col`` of a syntax node, for run-time errors."""
        nid = self.node_id.get(id(node))
        origin = self.node_source.get(nid)
        if origin is None:
            return ""
        source, path, base = origin
        line, col = source.locator.text_position(path, node.line - base[0] + 1, node.col)
        return f"{source.path}:{line}:{col}"

    def vocabulary(self):
        """What effect texts may name (for checking texts given at run time)."""
        if self.__dict__.get("_vocabulary") is None:
            self._vocabulary = _vocabulary(self)
        return self._vocabulary

    def add_nodes(self, tree) -> None:
        """Number the nodes of a text compiled after loading (scenario set-ups)."""
        stack = [tree]
        while stack:
            node = stack.pop()
            if id(node) not in self.node_id:
                self.node_id[id(node)] = len(self.nodes)
                self.nodes.append(node)
            stack.extend(node.children())

    def explain(self, node) -> str:
        return explain(node)



# ---------------------------------------------------------------- loading

def load_ruleset(name_or_path: str, expansions=()) -> Ruleset:
    """Load, validate and compile a ruleset; raises ContentError listing every problem."""
    folder = ruleset_path(name_or_path)
    problems = Problems()
    rules = Ruleset(folder)
    manifest = _read(folder / MANIFEST, "game", problems)
    problems.raise_if_any()
    m = manifest.data
    rules.id, rules.title = m["id"], m.get("name", m["id"])
    rules.players = m["players"]
    rules.options = m.get("options", {})
    rules.score = m["score"]
    rules.manifest = m

    components = _read(folder / m["components"], "components", problems)
    flow = _read(folder / m["flow"], "flow", problems)
    problems.raise_if_any()
    overlays = _expansion_sources(rules, folder, m, expansions, problems)
    problems.raise_if_any()

    _declare(rules, components, overlays, problems)
    problems.raise_if_any()
    data_sources = [_read(folder / f, None, problems) for f in m.get("data", [])]
    for overlay in overlays:
        data_sources += overlay["data"]
    problems.raise_if_any()
    tables.load_records(rules, components, data_sources, problems)
    _check_declared_names(rules, manifest, components, problems)
    problems.raise_if_any()

    _compile_all(rules, components, flow, data_sources, overlays, problems)
    problems.raise_if_any()
    overlay_sources = [o[k] for o in overlays for k in ("source", "components", "flow")]
    rules.fingerprint = _fingerprint(rules, [manifest, components, flow] + data_sources
                                     + overlay_sources)
    return rules


def _read(path: Path, schema: str | None, problems: Problems) -> Source | None:
    try:
        data, locator = load_yaml(path)
    except ContentError as exc:
        problems.extend(exc.diagnostics)
        return None
    except OSError as exc:
        problems.add("io-error", f"cannot read {path}: {exc.strerror or exc}", None)
        return None
    source = Source(_shown(path), data, locator)
    if schema is not None:
        problems.extend(check_schema(data, load_schema(schema), locator))
    return source


def _shown(path: Path) -> str:
    """Paths in messages are relative to the working folder when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _expansion_sources(rules, folder, manifest, wanted, problems):
    known = manifest.get("expansions", {})
    overlays = []
    for name in wanted:
        if name not in known:
            hint = did_you_mean(name, list(known))
            problems.add("unknown-expansion", f"'{rules.id}' has no expansion '{name}'", None,
                         hint=hint)
            continue
        base = folder / known[name]
        src = _read(base / "expansion.yaml", "expansion", problems)
        if src is None:
            continue
        overlay = {"name": name, "source": src,
                   "data": [_read(base / f, None, problems) for f in src.data.get("data", [])],
                   "components": _read(base / src.data["components"], "components", problems)
                   if "components" in src.data else None,
                   "flow": _read(base / src.data["flow"], "flow", problems)
                   if "flow" in src.data else None}
        overlays.append(overlay)
        rules.expansions.append(name)
    return overlays


# ---------------------------------------------------------------- declarations

def _merged(base: dict, overlays, part: str) -> dict:
    """Overlay sections by name: an expansion may add or replace declarations."""
    out = {key: dict(value) if isinstance(value, dict) else value for key, value in base.items()}
    for overlay in overlays:
        src = overlay[part]
        if src is None:
            continue
        for section, entries in src.data.items():
            if isinstance(entries, dict) and isinstance(out.get(section), dict):
                out[section].update(entries)
            else:
                out[section] = entries
    return out


def _declare(rules: Ruleset, components: Source, overlays, problems: Problems) -> None:
    c = _merged(components.data, overlays, "components")
    rules.counters = c.get("counters", {})
    rules.player_vars = c.get("player_vars", {})
    rules.vars = c.get("vars", {})
    rules.zones = c.get("zones", {})
    rules.grids = {name: {"tags": {}, **spec} for name, spec in c.get("grids", {}).items()}
    rules.constants = c.get("constants", {})
    rules.table_specs = c.get("tables", {})
    names = rules.names
    seen: dict = {}

    def declare(name, tag, value, where):
        if name in seen:
            problems.add("duplicate-name", f"'{name}' is declared twice (also as a {seen[name]})",
                         components, where, key=True)
            return
        seen[name] = tag
        names[name] = (tag, value)

    for name in BUILTIN_NAMES:                       # first, so a clash is reported
        seen[name] = "built-in name"
        names[name] = ("builtin", _BUILTINS[name])
    for name in rules.vars:
        declare(name, "var", None, ("vars", name))
    for name, spec in rules.zones.items():
        declare(name, "zone" if not spec.get("per_player") else "mine", None, ("zones", name))
    for name in rules.counters:
        declare(name, "mine", None, ("counters", name))
    for name in rules.player_vars:
        declare(name, "mine", None, ("player_vars", name))
    for name, spec in rules.grids.items():
        if spec.get("per_player"):
            declare(name, "mine", None, ("grids", name))
        else:
            declare(name, "const", {"grid": name, "of": None}, ("grids", name))
    for name, value in rules.constants.items():
        declare(name, "const", value, ("constants", name))
    for name in rules.table_specs:                   # a table's name lists its record ids
        declare(name, "table", None, ("tables", name))



_BUILTINS = {
    "players": lambda ctx: [{"player": i} for i in range(len(ctx.game.state["players"]))],
    "player_count": lambda ctx: len(ctx.game.state["players"]),
    "options": lambda ctx: ctx.game.state["options"],
    "game_over": lambda ctx: ctx.game.state["result"] is not None,
    "winners": lambda ctx: [{"player": i} for i in (ctx.game.state["result"] or {}).get("winners", [])],
}


def _check_declared_names(rules, manifest: Source, components: Source, problems: Problems):
    """Names the manifest and components use must exist: the score, tables of zones and options."""
    for name in manifest.data.get("show", []):
        if name not in rules.player_vars:
            problems.add("unknown-name", f"'{name}' to show is not a player variable", manifest,
                         ("show",), hint=did_you_mean(name, list(rules.player_vars)))
    if rules.score not in rules.counters:
        problems.add("unknown-name", f"the score '{rules.score}' is not a counter", manifest,
                     ("score",), hint=did_you_mean(rules.score, list(rules.counters)))
    for name, spec in rules.zones.items():
        if "from" in spec and spec["from"] not in rules.tables:
            problems.add("unknown-name", f"zone '{name}' starts from an unknown table '{spec['from']}'",
                         components, ("zones", name, "from"),
                         hint=did_you_mean(spec["from"], list(rules.tables)))
    for name, spec in rules.options.items():
        if "table" in spec and spec["table"] not in rules.tables:
            problems.add("unknown-name", f"option '{name}' lists an unknown table '{spec['table']}'",
                         manifest, ("options", name, "table"),
                         hint=did_you_mean(spec["table"], list(rules.tables)))


# ---------------------------------------------------------------- compiling

def _vocabulary(rules: Ruleset) -> Vocabulary:
    attributes = set(rules.counters) | set(rules.player_vars) | set(GRID_ATTRIBUTES)
    attributes |= {n for n, s in rules.zones.items() if s.get("per_player")}
    attributes |= {n for n, s in rules.grids.items() if s.get("per_player")}
    attributes |= set(PLAYER_BUILTINS) | {"id"}
    attributes |= set(rules.options)
    for spec in rules.table_specs.values():
        attributes |= tables.field_names(spec.get("fields", {}))
    for record in rules.entities.values():
        attributes |= _record_keys(record)
    for value in rules.constants.values():
        attributes |= _record_keys(value)
    functions = {name: f.signature for name, f in mechanics.FUNCTIONS.items()}
    for name, (params, _) in rules.functions.items():
        functions[name] = kinds.Signature(f"{name}({', '.join(params)})", name,
                                          (kinds.ANY,) * len(params), None, kinds.ANY)
    vocab = Vocabulary(
        names=set(rules.names), attributes=attributes, counters=set(rules.counters),
        variables=set(rules.vars),
        mine={name for name, (tag, _) in rules.names.items() if tag == "mine"},
        functions=functions,
        procedures={name: len(params) for name, (params, _) in rules.procedures.items()},
        verbs=mechanics.VERBS, user_functions=dict(rules.functions))
    _declare_kinds(rules, vocab)
    return vocab


def _declare_kinds(rules: Ruleset, vocab: Vocabulary) -> None:
    """The kind of every declared name, player field, table field and grid attribute."""
    table_of = {rid: record["table"] for rid, record in rules.entities.items()}.get

    def value(v):
        return kinds.of_value(v, table_of)

    def zone(spec):
        z = kinds.Zone(kinds.Record(spec["from"]) if "from" in spec else kinds.ANY)
        return kinds.Group(z) if "count" in spec else z

    fields = vocab.player_fields
    fields.update({name: kinds.parse_kind(k) for name, k in PLAYER_BUILTIN_KINDS.items()})
    fields.update({name: kinds.NUMBER for name in rules.counters})
    fields.update({name: value(spec.get("default") if isinstance(spec, dict) else spec)
                   for name, spec in rules.player_vars.items()})
    fields.update({n: zone(s) for n, s in rules.zones.items() if s.get("per_player")})
    fields.update({n: kinds.GRID for n, s in rules.grids.items() if s.get("per_player")})
    names = vocab.kinds
    names.update({name: kinds.parse_kind(k) for name, k in BUILTIN_KINDS.items()})
    names["options"] = kinds.Plain(tuple(sorted((name, _option_kind(spec))
                                                for name, spec in rules.options.items())))
    names.update({name: value(default) for name, default in rules.vars.items()})
    names.update({n: zone(s) for n, s in rules.zones.items() if not s.get("per_player")})
    names.update({n: kinds.GRID for n, s in rules.grids.items() if not s.get("per_player")})
    names.update({name: value(v) for name, v in rules.constants.items()})
    names.update({name: kinds.ListOf(kinds.Record(name)) for name in rules.table_specs})
    names.update({rid: kinds.Record(record["table"]) for rid, record in rules.entities.items()})
    names.update({name: fields[name] for name in vocab.mine if name in fields})
    for table, spec in rules.table_specs.items():
        vocab.tables[table] = {"id": kinds.Record(table), "name": kinds.STRING,
                               "text": kinds.STRING, "table": kinds.STRING,
                               **{n: tables.field_kind(f) for n, f in spec.get("fields", {}).items()}}
    vocab.value_attributes.update({
        owner: {name: kinds.parse_kind(k) for name, k in attrs.items()}
        for owner, attrs in mechanics.grids.ATTRIBUTE_KINDS.items()})


def _option_kind(spec: dict):
    """What ``options.NAME`` holds, from the option's declaration (see engine/options.py)."""
    kind = spec.get("type", "choice")
    if kind == "bool":
        return kinds.BOOL
    if kind == "seats":
        return kinds.ListOf(kinds.NUMBER)
    values = spec.get("values") or []
    item = (kinds.Record(spec["table"]) if "table" in spec
            else kinds.union(*map(kinds.of_value, values)) if values else kinds.ANY)
    return kinds.ListOf(item) if kind == "subset" else item


def _dict_keys(tree) -> set:
    keys, stack = set(), [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.DictExpr):
            keys.update(k for k, _ in node.pairs)
        stack.extend(node.children())
    return keys


def _record_keys(value) -> set:
    """Field names used inside nested records (``card.cost.coin``)."""
    keys: set = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return keys


class _Compiler:
    """Parse every text once, map errors into the YAML file, number the nodes."""

    def __init__(self, rules: Ruleset, problems: Problems):
        self.rules, self.problems = rules, problems
        self.pending: list = []            # (tree, source, path, params, base) checked at the end

    def parse(self, text, source: Source, path: tuple, *, expression=False, params=()):
        if not isinstance(text, str):
            self.problems.add("content-type", "expected effect-language text", source, path)
            return None
        try:
            tree = parse_expression(text) if expression else parse_program(text)
        except DslError as exc:
            self.report(source, path, exc.line, exc.col, exc.code, exc.message, exc.hint, exc.end_col)
            return None
        self.pending.append((tree, source, path, params))
        return tree

    def report(self, source, path, line, col, code, message, hint=None, end_col=None):
        fline, fcol = source.locator.text_position(path, line, col)
        end = fcol + (end_col - col) if end_col else None
        self.problems.items.append(Diagnostic(code, message, source.path, fline, fcol, end, hint))

    def finish(self) -> None:
        """Check names (now that every declaration is known) and number the nodes."""
        vocab = self.rules.vocabulary()
        for tree, *_ in self.pending:              # record fields built in the texts
            vocab.attributes |= _dict_keys(tree)
        for tree, source, path, params in self.pending:
            for p in check(tree, vocab, params):
                line, col, end = p.span()
                self.report(source, path, line, col, p.code, p.message, p.hint, end)
            self._number(tree, source, path)

    def _number(self, tree, source, path) -> None:
        rules = self.rules
        stack = [tree]
        while stack:
            node = stack.pop()
            nid = len(rules.nodes)
            rules.nodes.append(node)
            rules.node_id[id(node)] = nid
            rules.node_source[nid] = (source, path, (1, 1))
            stack.extend(reversed(list(node.children())))


def _compile_all(rules, components, flow, data_sources, overlays, problems) -> None:
    compiler = _Compiler(rules, problems)
    flows = [flow] + [o["flow"] for o in overlays if o["flow"] is not None]
    for src in flows:
        for name, spec in src.data.get("functions", {}).items():
            params = spec.get("params", [])
            tree = compiler.parse(spec["expr"], src, ("functions", name, "expr"),
                                  expression=True, params=params)
            rules.functions[name] = (params, tree)
        for name, spec in src.data.get("procedures", {}).items():
            params = spec.get("params", [])
            tree = compiler.parse(spec["do"], src, ("procedures", name, "do"), params=params)
            rules.procedures[name] = (params, tree)
        if "start" in src.data:
            rules.start = compiler.parse(src.data["start"], src, ("start",))
    for src in [components] + [o["components"] for o in overlays if o["components"] is not None]:
        _compile_views(rules, src, compiler)          # an expansion's rules replace by name
    tables.compile_fields(rules, data_sources, compiler)
    compiler.finish()
    for name, spec in list(rules.functions.items()):
        if spec[1] is None:
            rules.functions.pop(name, None)


def _compile_views(rules, components, compiler) -> None:
    """``visible_to`` conditions on counters, variables and grids (names: viewer, owner)."""
    for kind in ("counters", "player_vars", "grids", "zones"):
        for name, spec in components.data.get(kind, {}).items():
            if isinstance(spec, dict) and "visible_to" in spec:
                tree = compiler.parse(spec["visible_to"], components, (kind, name, "visible_to"),
                                      expression=True,
                                      params={"viewer": kinds.PLAYER, "owner": kinds.PLAYER})
                rules.visibility[f"{kind}:{name}"] = tree


def _fingerprint(rules, sources) -> str:
    digest = hashlib.sha256()
    for src in sources:
        if src is not None:
            digest.update(Path(src.path).name.encode())
            digest.update(repr(src.data).encode())
    digest.update(",".join(rules.expansions).encode())
    return digest.hexdigest()[:16]
