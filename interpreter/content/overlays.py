"""Overlays (expansions and scenario fixtures) laid over a base game, and what each may change.

An overlay is a folder with an ``expansion.yaml``. What it may do:

- **records**: add them (its data files); take base records out by id, or a
  whole table's (``remove:``); change some fields of a record by id, the
  others kept (``patch:``, a JSON Merge Patch, RFC 7396: a mapping merges key
  by key, ``null`` deletes an optional field, any other value replaces); or
  give a record anew by id (``replace:``). Every changed record is checked
  against its table as if it were written so in a data file.
- **declarations** (its components file): a table merges key by key
  (``count``, ``description``; ``fields`` field by field, each field given
  whole); every other declaration is added or replaced by name.
- **flow** (its flow file): procedures, functions, hooks and modifiers are
  added or replaced by name; ``sources`` and ``start`` are replaced.
- **options** (its manifest): added by name; ``experimental:`` names one of
  them, a bool, that a new game must set true (so nobody plays an authored,
  unpublished reading by accident).
- **counts**: ``count`` sets a table's count (two expansions setting it are
  in conflict); ``adds: N`` raises it by N, and composes with another's.

Its manifest names its ``base`` game and the base versions it ``fits``. Two
expansions that change the same record, declaration or flow entry are in
conflict, reported at both places. A fixtures overlay (scenario test
records) is applied last and may change anything, with no conflict.
"""
from __future__ import annotations

import re

from ..diagnostics import did_you_mean

FIXTURES = "fixtures"
_VERSION = re.compile(r"^\d+(\.\d+)*$")
_CONSTRAINT = re.compile(r"^\s*(>=|<=|==|!=|>|<)?\s*(\d+(?:\.\d+)*)\s*$")
_COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
            "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


# ---------------------------------------------------------------- versions

def version_key(text: str) -> tuple:
    """``"1.10"`` -> ``(1, 10)``, trailing zeros dropped, so 1.0 == 1 and 1.10 > 1.9."""
    parts = [int(p) for p in str(text).split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def fits(version: str, spec: str) -> bool | None:
    """Whether ``version`` meets every comma-separated constraint of ``spec``
    (``">= 1.0, < 2"``; a bare version means ``==``); None when ``spec`` is unreadable."""
    for part in str(spec).split(","):
        match = _CONSTRAINT.match(part)
        if match is None:
            return None
        op, wanted = match.group(1) or "==", match.group(2)
        if not _COMPARE[op](version_key(version), version_key(wanted)):
            return False
    return True


def check_base(rules, overlay: dict, problems) -> bool:
    """The overlay names this game as its base, and fits its version; False if not."""
    src, data = overlay["source"], overlay["source"].data
    label = overlay["name"]
    if data.get("base") != rules.id:
        problems.add("expansion-base", f"'{label}' is an expansion of '{data.get('base')}', "
                     f"not of '{rules.id}'", src, ("base",))
        return False
    spec = data.get("fits")
    if spec is None:
        return True
    version = rules.manifest.get("version")
    answer = fits(version, spec) if version is not None else False
    if answer is None:
        problems.add("expansion-version", f"cannot read the versions '{spec}'", src, ("fits",),
                     hint="write constraints such as '>= 1.0, < 2' (operators >= > <= < == !=)")
        return False
    if not answer:
        have = f"version {version}" if version is not None else "no version"
        problems.add("expansion-version", f"'{label}' fits {rules.id} {spec}; this {rules.id} "
                     f"has {have}", src, ("fits",),
                     hint=None if version is not None else "give the base game a version in its game.yaml")
        return False
    return True


# ---------------------------------------------------------------- declarations

def merge_components(base: dict, overlays, claims: "Claims") -> dict:
    """The base components with each overlay's laid on: tables merged, the rest by name."""
    out = {key: dict(value) if isinstance(value, dict) else value for key, value in base.items()}
    for overlay in overlays:
        src = overlay["components"]
        if src is None:
            continue
        for section, entries in src.data.items():
            if not isinstance(entries, dict):
                claims.claim(overlay, ("declaration", section), src, (section,), f"'{section}'")
                out[section] = entries
                continue
            into = out.setdefault(section, {})
            if not isinstance(into, dict):
                into = out[section] = {}
            for name, spec in entries.items():
                if section == "tables" and isinstance(into.get(name), dict) and isinstance(spec, dict):
                    into[name] = _merge_table(into[name], spec, overlay, src, name, claims)
                else:
                    if section == "tables" and isinstance(spec, dict) and "adds" in spec:
                        _no_count(name, src, claims)
                    claims.claim(overlay, ("declaration", section, name), src, (section, name),
                                 f"the declaration '{section}.{name}'")
                    into[name] = spec
    for name, more in claims.adds.items():           # after every count set: adds compose with it
        table = out.get("tables", {}).get(name)
        if isinstance(table, dict) and isinstance(table.get("count"), int):
            table["count"] += more
    return out


def _no_count(name: str, src, claims) -> None:
    """``adds`` on a table that has no count (one the expansion declares itself, or a base
    table without one): nothing to add to."""
    claims.problems.add("bad-table", f"table '{name}' has no count to add to", src,
                        ("tables", name, "adds"), key=True,
                        hint="give the count itself (count: N), or leave the count out")


def _merge_table(table: dict, spec: dict, overlay, src, name, claims) -> dict:
    out = dict(table)
    for key, value in spec.items():
        if key == "adds" and isinstance(value, int):     # composes: no claim, no conflict
            if table.get("count") is None:
                _no_count(name, src, claims)
                continue
            claims.adds[name] = claims.adds.get(name, 0) + value
            if name not in claims.count_at:
                claims.count_at[name] = (src, ("tables", name, key))
            continue
        if key == "fields" and isinstance(value, dict):
            fields = dict(out.get("fields", {}))
            for field, declared in value.items():
                claims.claim(overlay, ("field", name, field), src, ("tables", name, "fields", field),
                             f"field '{field}' of table '{name}'")
                fields[field] = declared
            out["fields"] = fields
        else:
            fine = claims.claim(overlay, ("table", name, key), src, ("tables", name, key),
                                f"'{key}' of table '{name}'")
            out[key] = value
            if key == "count":                         # a count in conflict is not checked
                claims.count_at[name] = (src, ("tables", name, key)) if fine else None
    return out


def merge_options(rules, overlays, claims: "Claims", problems) -> None:
    """Each expansion's ``options`` added to the game's; its ``experimental`` option, a bool
    that must be true to start a game, kept in ``rules.option_gates``."""
    for overlay in overlays:
        src = overlay["source"]
        for name, spec in (src.data.get("options") or {}).items():
            claims.claim(overlay, ("option", name), src, ("options", name), f"the option '{name}'")
            if name in rules.manifest.get("options", {}):
                problems.add("duplicate-name", f"the base game has an option '{name}' already",
                             src, ("options", name), key=True)
                continue
            rules.options = {**rules.options, name: spec}
            rules.option_origin[name] = (src, ("options", name))
        gate = src.data.get("experimental")
        if gate is None:
            continue
        spec = rules.options.get(gate["option"])
        if spec is None or spec.get("type") != "bool":
            problems.add("unknown-name", f"'{gate['option']}' is not a bool option of "
                         f"'{overlay['name']}'", src, ("experimental", "option"),
                         hint="declare it under this manifest's options: with type: bool, default: false")
            continue
        rules.option_gates[gate["option"]] = (overlay["name"], gate["why"])


def claim_flow(overlays, claims: "Claims") -> None:
    """Each flow entry an expansion adds or replaces, for conflicts between expansions."""
    for overlay in overlays:
        src = overlay["flow"]
        if src is None:
            continue
        for section, entries in src.data.items():
            if isinstance(entries, dict):
                for name in entries:
                    claims.claim(overlay, ("flow", section, name), src, (section, name),
                                 f"the {section[:-1] if section.endswith('s') else section} '{name}'")
            else:
                claims.claim(overlay, ("flow", section), src, (section,), f"'{section}'")


class Claims:
    """Who changed what: two expansions changing one thing is a conflict, said at both places."""

    def __init__(self, problems):
        self.problems = problems
        self.by: dict = {}           # key -> (overlay name, source, path)
        self.count_at: dict = {}     # table -> (source, path) of the count an expansion last set
        self.adds: dict = {}         # table -> records the expansions' ``adds`` put on its count

    def claim(self, overlay, key, src, path, what: str) -> bool:
        """Note who changes ``key``; False (and a problem) if another expansion did already."""
        name = overlay["name"]
        first = self.by.get(key)
        if first is not None and first[0] != name and FIXTURES not in (first[0], name):
            other, osrc, opath = first
            line, col = osrc.locator.key_at(opath)
            self.problems.add("expansion-conflict", f"expansions '{other}' and '{name}' both "
                              f"change {what} (also at {osrc.path}:{line}:{col})", src, path,
                              key=True, hint=f"'{other}' changes it at {osrc.path}:{line}:{col}; "
                              "play them apart, or make one expansion of both")
            return False
        if first is None or name != FIXTURES:
            self.by[key] = (name, src, path)
        return True


# ---------------------------------------------------------------- presentation

_LISTS = ("hidden", "details", "cards")             # joined: each expansion's names added
_SCALARS = ("opponent_lines", "score")              # replaced whole


def merge_presentation(base: dict, overlays, claims: Claims, problems) -> dict:
    """The base presentation with each expansion's laid on: a mapping (names, records, titles,
    members, words, layouts, tallies) key by key, the lists joined, a panel's names added at
    its end or ``after:`` a name in it, the scalars replaced. Two expansions setting one key
    conflict; additions never do."""
    out = {key: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
           for key, v in base.items()}
    for overlay in overlays:
        src = overlay["presentation"]
        for section, value in src.data.items():
            if section in _LISTS:
                out[section] = list(out.get(section, [])) + [n for n in value if n not in out.get(section, [])]
            elif section in _SCALARS:
                claims.claim(overlay, ("presentation", section), src, (section,), f"'{section}'")
                out[section] = value
            elif section == "panels":
                panels = out.setdefault("panels", {})
                for panel, change in value.items():
                    laid = _lay_panel(panels.get(panel), change, src, ("panels", panel), problems)
                    if laid is not None:
                        panels[panel] = laid
            else:
                into = out.setdefault(section, {})
                for key, entry in value.items():
                    claims.claim(overlay, ("presentation", section, key), src, (section, key),
                                 f"the presentation's {section} entry '{key}'")
                    into[key] = entry
    return out


def _lay_panel(names, change, src, path, problems):
    """A base panel with an expansion's names added: a list at its end, ``{after, add}`` after
    that name. A panel the base leaves out shows every component already: kept so."""
    if names is None:
        return None
    add = change if isinstance(change, list) else change["add"]
    at = len(names)
    if isinstance(change, dict):
        if change["after"] not in names:
            problems.add("unknown-name", f"'{change['after']}' is not in the base game's "
                         f"'{path[-1]}' panel", src, path + ("after",), hint=did_you_mean(change["after"], names))
        else:
            at = names.index(change["after"]) + 1
    return names[:at] + [n for n in add if n not in names] + names[at:]


# ---------------------------------------------------------------- records

class RecordChanges:
    """One overlay's ``remove:``, ``patch:`` and ``replace:``, run by the record loader
    after the records of the base and of earlier overlays are in, before its own."""

    def __init__(self, overlay: dict, claims: Claims):
        self.overlay, self.claims = overlay, claims
        self.src = overlay["source"]

    def __call__(self, rules, problems, add_record) -> None:
        data = self.src.data
        for table, which in (data.get("remove") or {}).items():
            self._remove(rules, problems, table, which)
        for rid, fields in (data.get("replace") or {}).items():
            self._change(rules, problems, "replace", rid, fields, add_record)
        for rid, fields in (data.get("patch") or {}).items():
            self._change(rules, problems, "patch", rid, fields, add_record)

    def _remove(self, rules, problems, table, which) -> None:
        path = ("remove", table)
        if table not in rules.table_specs:
            problems.add("unknown-name", f"'{table}' is not a table", self.src, path, key=True,
                         hint=did_you_mean(table, list(rules.table_specs)))
            rules.incomplete_tables |= set(rules.table_specs)     # no count can be trusted now
            return
        ids = _whole_ids(rules, table) if which == "all" else which
        for k, rid in enumerate(ids):
            at = path if which == "all" else path + (k,)
            if self._find(rules, problems, rid, at, "remove", table) is None:
                continue
            for one in rules.names[rid][1] if rid in rules.copy_sets else [rid]:
                _drop(rules, one)
            rules.copy_sets.pop(rid, None)
            rules.names.pop(rid, None)
            rules.removed[rid] = (self.src, at)
            rules.overlay_changes.setdefault(self.overlay["name"], _empty())["removes"].setdefault(
                table, []).append(rid)

    def _change(self, rules, problems, how, rid, fields, add_record) -> None:
        at = (how, rid)
        table = self._find(rules, problems, rid, at, how)
        if table is None:
            return
        ones = rules.names[rid][1] if rid in rules.copy_sets else [rid]
        for k, one in enumerate(ones):
            old = {key: v for key, v in rules.entities[one].items() if key != "table"}
            record = merge_patch(old, fields) if how == "patch" else dict(fields)
            record["id"] = one
            place = rules.tables[table].index(one)
            _drop(rules, one)
            origin = rules.record_origin_before.get(one) if how == "patch" else None
            add_record(rules, table, record, self.src, at, problems, base_origin=origin,
                       check=k == 0)
            if one in rules.tables[table]:                   # back in its place in the table
                rules.tables[table].remove(one)
                rules.tables[table].insert(place, one)
            if k > 0:
                rules.copies.add(one)
        if rid in rules.copy_sets:
            rules.names[rid] = ("const", ones)
        what = "replaces" if how == "replace" else "patches"
        rules.overlay_changes.setdefault(self.overlay["name"], _empty())[what].setdefault(
            table, []).append(rid)

    def _find(self, rules, problems, rid, at, how, table=None):
        """The table of record ``rid`` (claimed for this overlay), or None, said where."""
        one = rules.names[rid][1][0] if rid in rules.copy_sets else rid
        record = rules.entities.get(one) if isinstance(one, str) else None
        if record is None or (table is not None and record["table"] != table):
            if table is not None and table in rules.incomplete_tables:
                return None                            # a record left out is reported already
            known = rules.tables.get(table, []) if table else list(rules.entities)
            where = f" in table '{table}'" if table else ""
            removed = rules.removed.get(rid)
            hint = (f"it is removed at {removed[0].path}:{removed[0].locator.at(removed[1])[0]}"
                    if removed else did_you_mean(rid, known))
            problems.add("unknown-record", f"no record '{rid}'{where} to {how}", self.src, at,
                         key=how != "remove", hint=hint)
            if table is not None:
                rules.incomplete_tables.add(table)           # its count is off by this one
            return None
        owner = None if ("record", rid) in self.claims.by else rules.record_overlay.get(one)
        self.claims.claim(self.overlay, ("record", rid), self.src, at, f"record '{rid}'")
        if owner is not None and owner != self.overlay["name"] and FIXTURES not in (owner, self.overlay["name"]):
            src, path = rules.record_origin[one]
            line, col = src.locator.at(path)
            problems.add("expansion-conflict", f"expansions '{owner}' and '{self.overlay['name']}' "
                         f"both change record '{rid}' (also at {src.path}:{line}:{col})", self.src,
                         at, key=how != "remove", hint=f"'{owner}' adds it at {src.path}:{line}:{col}")
        return record["table"]


def _empty() -> dict:
    return {"removes": {}, "replaces": {}, "patches": {}}


def _whole_ids(rules, table) -> list:
    """The ids of a table's records, a record with copies once (by its own id)."""
    seen, out = set(), []
    for rid in rules.tables[table]:
        whole = rid.split("#", 1)[0]
        if whole not in seen:
            seen.add(whole)
            out.append(whole)
    return out


def _drop(rules, rid) -> None:
    record = rules.entities.pop(rid)
    rules.tables[record["table"]].remove(rid)
    rules.names.pop(rid, None)
    rules.record_origin_before[rid] = rules.record_origin.pop(rid)
    rules.copies.discard(rid)


def merge_patch(target, patch):
    """RFC 7396: mappings merge key by key, ``None`` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


# ---------------------------------------------------------------- what each expansion does

def summary(rules, overlay: dict) -> dict:
    """What one overlay adds, replaces and removes, for ``rulebook info``."""
    name = overlay["name"]
    changes = rules.overlay_changes.get(name, _empty())
    changed = {rid for how in ("replaces", "patches") for ids in changes[how].values() for rid in ids}
    adds: dict = {}
    for rid, owner in rules.record_overlay.items():
        if owner == name and rid not in rules.copies and rid in rules.entities and rid not in changed:
            adds.setdefault(rules.entities[rid]["table"], []).append(rid)
    out = {"adds": [_count(n, t) for t, n in adds.items()], "replaces": [], "removes": []}
    for part, base in (("components", rules.base_components), ("flow", rules.base_flow)):
        for section, names in _sections(overlay, part, base).items():
            for kind, listed in names.items():
                if listed:
                    out[kind].append(f"{section}: {', '.join(listed)}")
    if overlay["source"].data.get("options"):
        out["adds"].append(f"options: {', '.join(overlay['source'].data['options'])}")
    out["replaces"] += [f"{t}: {', '.join(ids)} (whole)" for t, ids in changes["replaces"].items()]
    out["replaces"] += [f"{t}: {', '.join(ids)} (fields)" for t, ids in changes["patches"].items()]
    out["removes"] += [_count(ids, t) for t, ids in changes["removes"].items()]
    return out


def _count(ids, table) -> str:
    return f"{len(ids)} {table}" if len(ids) > 3 else f"{table}: {', '.join(ids)}"


def _sections(overlay, part, base: dict) -> dict:
    """``{section: {"adds": [names], "replaces": [names]}}`` of an overlay's components or flow."""
    src = overlay[part]
    out: dict = {}
    if src is None:
        return out
    for section, entries in src.data.items():
        have = base.get(section)
        names = list(entries) if isinstance(entries, dict) else [section]
        into = out.setdefault(section, {"adds": [], "replaces": []})
        for n in names:
            old = have.get(n) if isinstance(have, dict) and isinstance(entries, dict) else have
            if section == "tables" and old is not None:       # merged key by key: say which
                keys = [f"field {f}" for f in entries[n].get("fields", {})] + \
                       [f"count +{v}" if k == "adds" else k for k, v in entries[n].items() if k != "fields"]
                n = f"{n} ({', '.join(keys)})"
            into["replaces" if old is not None else "adds"].append(n)
    return out
