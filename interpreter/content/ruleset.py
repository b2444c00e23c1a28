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

import dataclasses
import hashlib
import re
import os
import pickle
import stat
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import mechanics
from ..diagnostics import ContentError, Diagnostic, did_you_mean
from ..dsl import ast
from ..dsl import kinds
from ..dsl.check import Vocabulary, allow_hints, check, kind_of
from ..dsl.explain import explain
from ..mechanics.seats import BUILTIN_KINDS, BUILTINS, PLAYER_ATTRIBUTE_KINDS, PLAYER_ATTRIBUTES
from .options import default_problems
from . import checked, overlays as overlaying, presentation, salvage, tables
from .bundled import MANIFEST, RULESETS, available, ruleset_path  # noqa: F401 (re-exported)
from .schema_check import check_file, load_schema, yaml_read_it
from .yaml_source import load_yaml




@dataclass
class Source:
    """One loaded content file."""
    path: str
    data: object
    locator: object
    usable: bool = True        # False: its schema errors leave nothing later stages can read
    overlay: str | None = None  # the expansion (or "fixtures") whose file this is


class Problems:
    """Collects diagnostics from every stage of loading."""

    def __init__(self):
        self.items: list[Diagnostic] = []
        self.sources: dict[str, str] = {}      # file -> the text read, for source lines
        self.lost: set = set()                 # names of entries set aside (see salvage.py)
        self.blind = False                     # a file was unreadable: any name may be lost

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
            shown = [d for d in self.items if not salvage.follows(d, self.lost, self.blind)]
            error = ContentError(_once_per_name(sorted(shown or self.items, key=_order)),
                                 sources=self.sources)
            error.left_out = len(self.items) - len(shown) if shown else 0
            raise error

    def unusable(self, *sources) -> bool:
        """Whether a file the next stage needs could not be read or used."""
        return any(src is None or not src.usable for src in sources)


def _order(d: Diagnostic):
    return (d.file or "", d.line or 0, d.col or 0)


# Codes whose message names the unknown word: one misspelled declaration
# shows at every use, so each word is reported once, where it is first used.
NAME_CODES = {"unknown-name", "dsl-unknown-name", "dsl-unknown-attribute", "dsl-unknown-counter",
              "dsl-unknown-function", "dsl-unknown-verb", "dsl-procedure-call"}


_MISSING_FIELD = re.compile(r"which has no '(\w+)'$")


def _once_per_name(diags: list) -> list:
    """Diagnostics with an unknown name reported once, listing its other uses in the hint.

    A kind error that only says something has no field of that name (a player
    with no 'mvo') is the same typo seen from another side: it joins the group.
    """
    unknown = {re.search(r"'(\w+)'", d.message).group(1): (d.code, d.message)
               for d in diags if d.code in NAME_CODES and re.search(r"'(\w+)'", d.message)}
    groups: dict = {}
    for diag in diags:
        key = (diag.code, diag.message) if diag.code in NAME_CODES else id(diag)
        missing = _MISSING_FIELD.search(diag.message) if diag.code == "dsl-kind" else None
        if missing and missing.group(1) in unknown:
            key = unknown[missing.group(1)]
        groups.setdefault(key, []).append(diag)
    out = []
    for first, *others in groups.values():
        if others:
            places = ", ".join(d.location() for d in others[:3])
            more = f" and {len(others) - 3} more" if len(others) > 3 else ""
            also = f"also used at {places}{more}"
            hint = f"{first.hint} ({also})" if first.hint else also
            first = dataclasses.replace(first, message=f"{first.message} ({len(others) + 1} uses)",
                                        hint=hint)
        out.append(first)
    return out


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
        self.hooks: dict = {}              # hook point -> {"names": [...]} (flow.yaml)
        self.modifier_keys: dict = {}      # modifier key -> its declaration (flow.yaml)
        self.sources = None                # the function naming a seat's records in play
        self.handlers: dict = {}           # record id -> {hook point: effect key}
        self.modifier_fields: dict = {}    # table -> its fields of type modifiers
        self.prepared: dict = {}           # component name -> what its kind built at load (graphs)
        self.zone_fill: dict = {}          # zone -> (where, limit) trees, for zones filled from a table
        self.option_origin: dict = {}      # option -> (Source, path) when an expansion declares it
        self.option_gates: dict = {}       # option -> (expansion, why): must be true to start a game
        self.count_at: dict = {}           # table -> (Source, path) of a count an expansion changed

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

    def scripted_for(self, people: int) -> list:
        """The ids of the scripted seats that sit in a game of ``people`` people."""
        return [sid for sid, spec in self.scripted_seats.items()
                if people in spec.get("for_players", [people])]



# ---------------------------------------------------------------- loading

def load_ruleset(name_or_path: str, expansions=(), fixtures=None) -> Ruleset:
    """Load, validate and compile a ruleset; raises ContentError listing every problem.

    ``fixtures``, a folder with an ``expansion.yaml``, is applied last as an
    expansion is (scenario files use it for test records); its files stay
    inside that folder, as an expansion's do.
    """
    folder = ruleset_path(name_or_path)
    problems = Problems()
    rules = Ruleset(folder)
    manifest = _read(folder, MANIFEST, "game", problems)
    if problems.unusable(manifest):
        _read_named(folder, manifest, problems)          # their own problems, then stop
        problems.raise_if_any()
    problems.blind = bool(problems.lost)   # a manifest entry set aside: any name may follow from it
    m = manifest.data
    rules.id, rules.title = m["id"], m.get("name", m["id"])
    rules.players = m["players"]
    rules.options = m.get("options", {})
    rules.score_keys = score_keys(m["score"])       # [(name, lowest wins)], the score first
    rules.score = rules.score_keys[0][0]
    rules.scripted_seats = m.get("scripted_seats", {})
    rules.manifest = m
    _check_players(manifest, problems)

    components = _read(folder, m["components"], "components", problems, (manifest, ("components",)))
    flow = _read(folder, m["flow"], "flow", problems, (manifest, ("flow",)))
    overlays = _expansion_sources(rules, folder, manifest, expansions, problems)
    if fixtures is not None:
        overlays += _overlay(Path(fixtures), problems)
    overlays = [o for o in overlays if overlaying.check_base(rules, o, problems)]
    base_sources = [_read(folder, f, None, problems, (manifest, ("data", i)))
                    for i, f in enumerate(m.get("data", []))]
    data_sources = list(base_sources)
    claims = overlaying.Claims(problems)
    steps = list(base_sources)
    for overlay in overlays:
        data_sources += overlay["data"]
        steps += [overlaying.RecordChanges(overlay, claims)] + overlay["data"]
    rules.overlays = overlays
    parts = [o[k] for o in overlays for k in ("components", "flow") if o[k] is not None]
    if problems.unusable(components, flow, *parts):
        problems.raise_if_any()
    problems.blind |= problems.unusable(*data_sources) or len(overlays) < len(expansions) + (fixtures is not None)
    rules.base_components, rules.base_flow = components.data, flow.data
    # Each stage below runs even when an earlier one found problems (salvage.py),
    # so one run reports every file; a crash on data already reported is one of those.
    with _after(problems):
        _declare(rules, components, overlays, problems, claims)
        overlaying.claim_flow(overlays, claims)
        overlaying.merge_options(rules, overlays, claims, problems)
        for src in [components] + data_sources + [o["components"] for o in overlays]:
            tables.check_reserved_keys(src, problems)
        tables.load_records(rules, components, steps, problems,
                            base_specs=components.data.get("tables", {}) if overlays else None,
                            base_sources=[s for s in base_sources if s is not None])
        rules.function_names = {name for src in [flow] + [o["flow"] for o in overlays if o["flow"]]
                                for name in src.data.get("functions", {})}
        _check_declared_names(rules, manifest, components, problems)
        _check_option_defaults(rules, manifest, problems)
        _compile_all(rules, components, flow, data_sources, overlays, problems)
    problems.raise_if_any()
    rules.presentation = _presentation(rules, folder, manifest, problems)   # only looks: last
    problems.raise_if_any()
    rules.expansion_summary = {o["name"]: overlaying.summary(rules, o) for o in overlays}
    overlay_sources = [o[k] for o in overlays for k in ("source", "components", "flow")]
    rules.fingerprint = _fingerprint(rules, [manifest, components, flow] + data_sources
                                     + overlay_sources)
    return rules


def _presentation(rules, folder: Path, manifest: Source, problems: Problems):
    """The manifest's presentation file, checked; the default presentation without one."""
    name = manifest.data.get("presentation")
    source = name and _read(folder, name, "presentation", problems, (manifest, ("presentation",)))
    laid = [o for o in rules.overlays if o.get("presentation") is not None]
    if not source and not laid:
        return presentation.Presentation()
    if source:
        presentation.check(rules, source, problems)
    for overlay in laid:                             # an expansion's own entries, checked as written
        presentation.check(rules, overlay["presentation"], problems, overlay=True)
    data = overlaying.merge_presentation(source.data if source else {}, laid,
                                         overlaying.Claims(problems), problems)
    return presentation.build(data)


def _read(folder: Path, name: str, schema: str | None, problems: Problems,
          named_at=(None, ())) -> Source | None:
    """Load the YAML file ``name`` of ``folder``; ``named_at`` is the (source, path) naming it."""
    path = _inside(folder, name, "file", problems, *named_at)
    if path is None:
        return None
    try:
        data, locator = load_yaml(path)
    except ContentError as exc:
        problems.extend(exc.diagnostics)
        problems.sources.update(exc.sources)
        return None
    except OSError as exc:
        problems.add("io-error", f"cannot read '{name}': {exc.strerror or exc}", *named_at)
        return None
    source = Source(_shown(path), data, locator)
    problems.sources[source.path] = problems.sources[locator.file] = locator.text
    if schema is not None:
        found = check_file(data, load_schema(schema), locator)
        problems.extend(found)
        if found:                                # set the broken entries aside, check the rest
            source.usable, lost = salvage.prune(data, load_schema(schema))
            problems.lost |= lost
    return source


def _read_named(folder: Path, manifest: Source | None, problems: Problems) -> None:
    """Read the files an unusable manifest names, for their own syntax and schema problems."""
    from .schema_check import error_paths
    m = manifest.data if manifest is not None else None
    if not isinstance(m, dict):
        return
    wrong = {path[:2] for path in error_paths(m, load_schema("game"))}   # reported already
    for key in ("components", "flow"):
        if isinstance(m.get(key), str) and (key,) not in wrong:
            _read(folder, m[key], key, problems, (manifest, (key,)))
    for i, name in enumerate(m.get("data") if isinstance(m.get("data"), list) else []):
        if isinstance(name, str) and ("data",) not in wrong and ("data", i) not in wrong:
            _read(folder, name, None, problems, (manifest, ("data", i)))


class _after:
    """Stages past a problem: an error they raise on content already reported is that problem."""

    def __init__(self, problems: Problems):
        self.problems = problems

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, (KeyError, TypeError, AttributeError,
                                                  ValueError, IndexError)) and self.problems.items:
            self.problems.raise_if_any()
        return False


def _inside(folder: Path, name, kind: str, problems: Problems, source=None, at=()) -> Path | None:
    """``folder / name`` when it is a regular file (``kind`` "file") or a folder
    (``kind`` "folder") inside ``folder``, reached through no symbolic link;
    else None, with the problem reported where ``name`` was written."""
    if not isinstance(name, str):                   # the schema has said so
        return None
    problem = _name_problem(name) or _walk_problem(folder, name, kind)
    if problem is not None:
        code, message, hint = problem
        problems.add(code, message, source, at, hint=hint)
        return None
    return folder / name


def _name_problem(name: str):
    """(code, message, hint) when the path's text alone says it leaves the folder."""
    if "\0" in name:
        return "path-invalid", "a path cannot contain a NUL character", None
    if PurePosixPath(name).is_absolute() or ".." in PurePosixPath(name).parts or "\\" in name:
        return ("path-outside", f"'{name}' is not inside the ruleset's folder",
                "write a path relative to this file's folder, without '..'")
    return None


def _walk_problem(folder: Path, name: str, kind: str):
    """(code, message, hint) when a step of the path is a link, missing or of the wrong kind."""
    path, mode = folder, stat.S_IFDIR
    for part in PurePosixPath(name).parts:
        if not stat.S_ISDIR(mode):
            break
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except OSError as exc:
            return "io-error", f"cannot read '{name}': {exc.strerror or exc}", None
        if stat.S_ISLNK(mode):
            return ("path-symlink", f"'{name}' goes through a symbolic link ('{part}')",
                    "a ruleset reads only its own files: copy the file in")
    else:
        if (stat.S_ISDIR if kind == "folder" else stat.S_ISREG)(mode):
            return None
    shown = "regular file" if kind == "file" else kind
    return "path-not-" + kind, f"'{name}' is not a {shown}", None


def _shown(path: Path) -> str:
    """Paths in messages are relative to the working folder when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _expansion_sources(rules, folder, manifest_source, wanted, problems):
    known = manifest_source.data.get("expansions", {})
    overlays = []
    for name in wanted:
        if name not in known:
            hint = did_you_mean(name, list(known))
            problems.add("unknown-expansion", f"'{rules.id}' has no expansion '{name}'", None,
                         hint=hint)
            continue
        base = _inside(folder, known[name], "folder", problems, manifest_source, ("expansions", name))
        overlay = _overlay(base, problems, name) if base else []
        overlays += overlay
        if overlay:
            rules.expansions.append(name)
    return overlays


def _overlay(base: Path, problems, name: str = "fixtures") -> list:
    """The overlay in folder ``base`` (its ``expansion.yaml`` and the files it names), or []."""
    src = _read(base, "expansion.yaml", "expansion", problems)
    if src is None:
        return []
    parts = {part: _read(base, src.data[part], part, problems, (src, (part,)))
             if part in src.data else None for part in ("components", "flow", "presentation")}
    data = [_read(base, f, None, problems, (src, ("data", i)))
            for i, f in enumerate(src.data.get("data", []))]
    for one in [src, *parts.values(), *data]:
        if one is not None:
            one.overlay = name
    return [{"name": name, "source": src, "data": data, **parts}]


def path_problem(folder: Path, name: str, kind: str):
    """Why ``name`` is not a regular file (``kind`` "file") or folder inside ``folder``
    reached through no link: ``(code, message, hint)``, or None when it is."""
    return _name_problem(name) or _walk_problem(folder, name, kind)


# ---------------------------------------------------------------- declarations

def _declare(rules: Ruleset, components: Source, overlays, problems: Problems, claims) -> None:
    for name, spec in components.data.get("tables", {}).items():
        if isinstance(spec, dict) and "adds" in spec:     # a game has no count to add to
            problems.add("expansion-only", "'adds' raises a base game's count; a game gives its "
                         "own table a count", components, ("tables", name, "adds"), key=True,
                         hint="write count: N")
    c = overlaying.merge_components(components.data, overlays, claims)
    rules.count_at = claims.count_at
    rules.declared = {section: c.get(section, {}) for section in mechanics.COMPONENTS}
    rules.counters = rules.declared["counters"]
    rules.player_vars = rules.declared["player_vars"]
    rules.vars = rules.declared["vars"]
    rules.zones = rules.declared["zones"]
    rules.grids = {name: {"tags": {}, **spec} for name, spec in rules.declared["grids"].items()}
    rules.declared["grids"] = rules.grids
    rules.constants = c.get("constants", {})
    rules.table_specs = c.get("tables", {})
    rules.player_components = {}                      # name -> kind, for p.name
    names = rules.names
    seen: dict = {}

    def declare(name, tag, value, where):
        if name in seen:
            problems.add("duplicate-name", f"'{name}' is declared twice (also in {seen[name]})",
                         components, where, key=True)
            return
        seen[name] = where[0]
        names[name] = (tag, value)

    for name, value in BUILTINS.items():             # first, so a clash is reported
        seen[name] = "the built-in names"
        names[name] = ("builtin", value)
    for name in rules.scripted_seats:                # the seat, or none in games without it
        declare(name, "seat", None, ("scripted_seats", name))
    for section, kind in mechanics.COMPONENTS.items():
        for name, spec in rules.declared[section].items():
            mine = kind.per_player(spec)
            declare(name, "mine" if mine else "table", kind, (section, name))
            if mine:
                rules.player_components.setdefault(name, kind)
    for name, value in rules.constants.items():
        declare(name, "const", value, ("constants", name))
    for name in rules.table_specs:                   # a table's name lists its record ids
        declare(name, "table", None, ("tables", name))



def _check_players(manifest: Source, problems: Problems) -> None:
    """``min <= max``, and the default player count between them."""
    players = manifest.data["players"]
    low, high = players["min"], players["max"]
    if low > high:
        problems.add("players-range", f"at least {low} players but at most {high}", manifest,
                     ("players", "min"))
    elif not low <= players.get("default", low) <= high:
        problems.add("players-range", f"the default player count {players['default']} is not "
                     f"between {low} and {high}", manifest, ("players", "default"))


def _check_option_defaults(rules, manifest: Source, problems: Problems) -> None:
    """Each option's default must be one ``resolve_options`` accepts at every player count."""
    for name, message in default_problems(rules).items():
        spec = rules.options[name]
        if "table" in spec and (spec["table"] not in rules.tables or spec["table"] in rules.incomplete_tables):
            continue                                 # reported already: no cascade
        src, at = rules.option_origin.get(name, (manifest, ("options", name)))
        where = at + ("default",) if "default" in spec else at
        hint = None if "default" in spec else "add a default: a new game uses it when the option is not given"
        problems.add("option-default", message, src, where, key=hint is not None, hint=hint)


def _check_returns(rules, manifest: Source, problems: Problems):
    """``returns`` names a built-in way (engine/returns.py) or a flow function of no values."""
    from ..engine.returns import BUILT_IN
    how = manifest.data.get("returns", "win_loss")
    known = sorted(rules.function_names)
    if how not in BUILT_IN and how not in known:
        problems.add("unknown-name", f"returns '{how}' is neither {', '.join(BUILT_IN)} "
                     "nor a flow function", manifest, ("returns",),
                     hint=did_you_mean(how, list(BUILT_IN) + known))


def score_keys(score) -> list[tuple[str, bool]]:
    """``[(name, lowest wins), ...]`` from the manifest's ``score``, the score first."""
    if isinstance(score, str):
        return [(score, False)]
    lowest = score.get("wins") == "lowest"
    keys = [(score["by"], lowest)]
    for tie in score.get("ties", []):
        if isinstance(tie, str):
            keys.append((tie, lowest))
        else:
            keys.append((tie["by"], tie.get("wins", score.get("wins", "highest")) == "lowest"))
    return keys


def _check_declared_names(rules, manifest: Source, components: Source, problems: Problems):
    """Names the manifest and components use must exist: the score, tables of zones and options."""
    for name in manifest.data.get("show", []):
        if name not in rules.player_vars:
            problems.add("unknown-name", f"'{name}' to show is not a player variable", manifest,
                         ("show",), hint=did_you_mean(name, list(rules.player_vars)))
    known = list(rules.counters) + sorted(rules.function_names)
    for k, (name, _) in enumerate(rules.score_keys):
        if name not in known:
            where = ("score",) if isinstance(manifest.data["score"], str) else (
                ("score", "by") if k == 0 else ("score", "ties", k - 1))
            what = "the score" if k == 0 else "the tie-break"
            problems.add("unknown-name", f"{what} '{name}' is neither a counter nor a function",
                         manifest, where, hint=did_you_mean(name, known))
    _check_returns(rules, manifest, problems)
    declared = sorted({name for names in rules.declared.values() for name in names})
    for k, name in enumerate(manifest.data.get("reveal_at_end", [])):
        if name not in declared:
            problems.add("unknown-name", f"'{name}' to reveal at the end is not a declared component",
                         manifest, ("reveal_at_end", k), hint=did_you_mean(name, declared))
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
    attributes = set(rules.player_components) | set(PLAYER_ATTRIBUTES) | {"id"}
    for kind in mechanics.COMPONENTS.values():
        if kind.held(rules):                      # a sparse kind's names only where it is declared
            attributes |= {name for names in kind.attributes.values() for name in names}
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
        verbs=mechanics.VERBS, user_functions=dict(rules.functions),
        hooks={name: spec.get("names", []) for name, spec in rules.hooks.items()})
    _declare_kinds(rules, vocab)
    return vocab


def _declare_kinds(rules: Ruleset, vocab: Vocabulary) -> None:
    """The kind of every declared name, player field, table field and grid attribute."""
    table_of = {rid: record["table"] for rid, record in rules.entities.items()}.get

    def value(v):
        return kinds.of_value(v, table_of)

    fields = vocab.player_fields
    fields.update({name: kinds.parse_kind(k) for name, k in PLAYER_ATTRIBUTE_KINDS.items()})
    names = vocab.kinds
    names.update({name: kinds.parse_kind(k) for name, k in BUILTIN_KINDS.items()})
    names["options"] = kinds.Plain(tuple(sorted((name, _option_kind(spec))
                                                for name, spec in rules.options.items())))
    for section, kind in mechanics.COMPONENTS.items():      # each kind says what its names hold
        for name, spec in rules.declared[section].items():
            (fields if kind.per_player(spec) else names)[name] = kind.language_kind(spec, value)
    names.update({name: kinds.union(kinds.PLAYER, kinds.NONE) for name in rules.scripted_seats})
    names.update({name: value(v) for name, v in rules.constants.items()})
    names.update({name: kinds.ListOf(kinds.Record(name)) for name in rules.table_specs})
    names.update({rid: kinds.Record(record["table"]) for rid, record in rules.entities.items()})
    names.update({rid: kinds.ListOf(kinds.Record(table)) for rid, table in rules.copy_sets.items()})
    names.update({name: fields[name] for name in vocab.mine if name in fields})
    for table, spec in rules.table_specs.items():
        vocab.tables[table] = {"id": kinds.Record(table), "name": kinds.STRING,
                               "text": kinds.STRING, "table": kinds.STRING,
                               **{n: tables.field_kind(f) for n, f in spec.get("fields", {}).items()}}
    for kind in filter(lambda kind: kind.held(rules), mechanics.COMPONENTS.values()):
        vocab.value_attributes.update({
            owner: {name: kinds.parse_kind(k) for name, k in attrs.items()}
            for owner, attrs in kind.attributes.items()})


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
    return kinds.ListOf(item) if kind in ("subset", "per_seat") else item


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


_PARSER = __name__.split(".")[0] + ".dsl.parser"


class _Compiler:
    """Parse every text once, map errors into the YAML file, number the nodes."""

    def __init__(self, rules: Ruleset, problems: Problems):
        self.rules, self.problems = rules, problems
        self.pending: list = []            # (tree, source, path, params, base) checked at the end
        self.parsed: dict = {}             # (file, path) -> tree: the copies of a record share theirs
        self.kept: dict = {}               # file -> (digest, trees parsed before, trees parsed now)

    # A file's trees are kept on disk (content/checked.py) under a digest of its text and the
    # parser's limits: the same file parses to the same trees, so a fresh load unpickles them.
    def _stored(self, text, source: Source, path: tuple, expression: bool):
        if source.path not in self.kept:
            parser = sys.modules.get(_PARSER)       # not imported yet: its limits are as written
            now = parser and (parser.MAX_DEPTH, parser.MAX_DIGITS, parser.MAX_STRING)
            limits = now if parser and now != parser.LIMITS else ()      # a test lowered them
            whole = getattr(source.locator, "text", None)
            key = None if whole is None else checked.digest("parsed", whole, repr(limits))
            self.kept[source.path] = (key, key and checked.stored("parsed", key) or {}, {})
        entry = self.kept[source.path][1].get((path, expression))
        if entry is not None and entry[0] == text:
            try:
                return pickle.loads(entry[1])
            except Exception:              # damaged: parse it again
                return None
        return None

    def _keep(self, text, source: Source, path: tuple, expression: bool, tree) -> None:
        self.kept[source.path][2][(path, expression)] = (text, pickle.dumps(tree, protocol=5))

    def save(self) -> None:
        """Keep the trees of every file that parsed something new."""
        for key, before, now in self.kept.values():
            if key and now:
                checked.store("parsed", key, {**before, **now})

    def parse(self, text, source: Source, path: tuple, *, expression=False, params=()):
        key = (source.path, path, expression)
        if key not in self.parsed:
            self.parsed[key] = self._parse(text, source, path, expression=expression, params=params)
        return self.parsed[key]

    def _parse(self, text, source: Source, path: tuple, *, expression=False, params=()):
        if not isinstance(text, str):
            self.problems.add("content-type", "expected effect-language text", source, path,
                              hint=yaml_read_it(text))
            return None
        tree = self._stored(text, source, path, expression)
        if tree is None:
            from ..dsl.parser import DslError, parse_expression, parse_program   # Lark: only here
            try:
                tree = parse_expression(text) if expression else parse_program(text)
            except DslError as exc:
                self.report(source, path, exc.line, exc.col, exc.code, exc.message, exc.hint,
                            exc.end_col)
                return None
            self._keep(text, source, path, expression, tree)
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
        owners = self.rules.__dict__.setdefault("owner_kinds", {})    # for codegen's direct reads
        _infer_results(vocab, [tree for tree, *_ in self.pending])
        allow_hints()
        for tree, source, path, params in self.pending:
            for p in check(tree, vocab, params, owners):
                line, col, end = p.span()
                self.report(source, path, line, col, p.code, p.message, p.hint, end)
            self._number(tree, source, path)
        allow_hints()                              # texts checked later (scenarios) have their own

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


def _infer_results(vocab: Vocabulary, trees) -> None:
    """Each ruleset function's result inferred after those of the functions it calls.

    The checker infers a callee's result inside its caller's (several Python frames a
    level), so a chain of 200 functions each calling the next overflowed Python's stack
    at load. Here the chain is walked with a stack of our own, callees first, in the order
    the checker meets the calls; a function still being inferred gives anything, as it
    does in the checker, so the kinds are the checker's own.
    """
    functions, results = vocab.user_functions, vocab.results

    def calls(tree) -> list:                      # as the checker meets them: values first
        found, stack = [], [(tree, False)] if tree is not None else []
        while stack:
            node, done = stack.pop()
            if done:
                found.append(node.name)
            else:
                if node.__class__ in (ast.Function, ast.Generator) and node.name in functions:
                    stack.append((node, True))
                stack.extend((child, False) for child in reversed(node.children()))
        return found

    for tree in trees:
        for root in calls(tree):
            if root in results:
                continue
            results[root] = kinds.ANY
            stack = [(root, iter(calls(functions[root][1])))]
            while stack:
                name, todo = stack[-1]
                callee = next((c for c in todo if c not in results), None)
                if callee is not None:
                    results[callee] = kinds.ANY
                    stack.append((callee, iter(calls(functions[callee][1]))))
                    continue
                stack.pop()
                params, body = functions[name]
                if body is not None:
                    results[name] = kind_of(body, vocab, params)


def _compile_all(rules, components, flow, data_sources, overlays, problems) -> None:
    compiler = _Compiler(rules, problems)
    flows = [flow] + [o["flow"] for o in overlays if o["flow"] is not None]
    for src in flows:                                 # an expansion's entries replace by name
        rules.hooks.update(src.data.get("hooks", {}))
        rules.modifier_keys.update(src.data.get("modifiers", {}))
        rules.sources = src.data.get("sources", rules.sources)
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
        _compile_zone_fill(rules, src, compiler)
    tables.compile_fields(rules, data_sources, compiler)
    _check_program_names(rules, components, flows, problems)
    compiler.finish()
    compiler.save()
    for name, spec in list(rules.functions.items()):
        if spec[1] is None:
            rules.functions.pop(name, None)


def _check_program_names(rules, components, flows, problems) -> None:
    """Counter hooks, the sources function and each component kind's links name real things."""
    for section, kind in mechanics.COMPONENTS.items():
        for name, spec in rules.declared[section].items():
            if kind.check is not None:
                kind.check(rules, name, spec, problems, components)
            if kind.prepare is not None:
                rules.prepared[name] = kind.prepare(rules, name, spec)
    for name, spec in rules.counters.items():
        hook = spec.get("on_gain") if isinstance(spec, dict) else None
        if hook is None:
            continue
        if hook not in rules.procedures:
            problems.add("unknown-name", f"counter '{name}' runs an unknown procedure '{hook}'",
                         components, ("counters", name, "on_gain"),
                         hint=did_you_mean(hook, list(rules.procedures)))
        elif len(rules.procedures[hook][0]) > 1:
            problems.add("bad-hook", f"'{hook}' runs after a gain: it may take one value (the "
                         "amount), not more", components, ("counters", name, "on_gain"))
    declared = [src for src in flows if "sources" in src.data]
    name = rules.sources
    if name is None:
        if rules.handlers or rules.modifier_fields:
            problems.add("missing-sources", "records have handlers or modifiers, so flow.yaml must "
                         "name the function giving each seat's records in play ('sources: NAME')",
                         flows[0])
    elif name not in rules.functions:
        problems.add("unknown-name", f"the sources function '{name}' is not a function",
                     declared[-1], ("sources",), hint=did_you_mean(name, list(rules.functions)))
    elif len(rules.functions[name][0]) != 1:
        problems.add("bad-sources", f"'{name}' must take one value (a seat)", declared[-1],
                     ("sources",))


def _compile_zone_fill(rules, components, compiler) -> None:
    """A zone filled ``from`` a table may keep only ``where`` records, ``limit`` of them."""
    for name, spec in components.data.get("zones", {}).items():
        if not isinstance(spec, dict) or not ({"where", "limit"} & set(spec)):
            continue
        trees = []
        for key, params in (("where", {"this": kinds.Record(spec.get("from"))}), ("limit", {})):
            trees.append(compiler.parse(spec[key], components, ("zones", name, key), expression=True,
                                        params=params) if key in spec else None)
        if "from" not in spec:
            compiler.problems.add("zone-fill", f"zone '{name}': where and limit need 'from: TABLE'",
                                  components, ("zones", name), key=True)
        rules.zone_fill[name] = tuple(trees)


def _compile_views(rules, components, compiler) -> None:
    """``visible_to`` conditions on counters, variables and grids (names: viewer, owner)."""
    shared = {}       # one tree per text: a rule repeated (a YAML alias) is checked once
    for kind in mechanics.COMPONENTS:
        for name, spec in components.data.get(kind, {}).items():
            if isinstance(spec, dict) and "visible_to" in spec:
                text = spec["visible_to"]
                if isinstance(text, str) and text in shared:
                    tree = shared[text]
                else:
                    tree = compiler.parse(text, components, (kind, name, "visible_to"),
                                          expression=True,
                                          params={"viewer": kinds.PLAYER, "owner": kinds.PLAYER})
                    if isinstance(text, str):
                        shared[text] = tree
                rules.visibility[f"{kind}:{name}"] = tree


def _fingerprint(rules, sources) -> str:
    digest = hashlib.sha256()
    for src in sources:
        if src is not None:
            digest.update(Path(src.path).name.encode())
            data = src.data
            if isinstance(data, dict) and "presentation" in data:   # how it looks is not the rules
                data = {k: v for k, v in data.items() if k != "presentation"}
            digest.update(repr(data).encode())
    digest.update(",".join(rules.expansions).encode())
    return digest.hexdigest()[:16]
