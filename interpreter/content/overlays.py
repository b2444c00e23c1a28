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
  whole; ``grows_by: N`` adds N to the count, and several expansions' growths
  add up); every other declaration is added or replaced by name.
- **flow** (its flow file): procedures, functions, hooks and modifiers are
  added or replaced by name; ``sources`` and ``start`` are replaced.

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

def merge_components(base: dict, overlays, claims: "Claims", base_source=None) -> dict:
    """The base components with each overlay's laid on: tables merged, the rest by name."""
    out = {key: dict(value) if isinstance(value, dict) else value for key, value in base.items()}
    for name, table in (base.get("tables") or {}).items():
        if isinstance(table, dict) and "grows_by" in table:
            claims.problems.add("bad-table", f"table '{name}': grows_by is for an expansion's "
                                "table", base_source, ("tables", name, "grows_by"), key=True,
                                hint="a base game gives its table's count")
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
                    claims.claim(overlay, ("declaration", section, name), src, (section, name),
                                 f"the declaration '{section}.{name}'")
                    if section == "tables" and isinstance(spec, dict) and "grows_by" in spec:
                        spec = {k: v for k, v in spec.items() if k != "grows_by"}
                        _grow(spec, entries[name]["grows_by"], overlay, src, name, claims)
                    into[name] = spec
    return out


def _merge_table(table: dict, spec: dict, overlay, src, name, claims) -> dict:
    out = dict(table)
    for key, value in spec.items():
        if key == "fields" and isinstance(value, dict):
            fields = dict(out.get("fields", {}))
            for field, declared in value.items():
                claims.claim(overlay, ("field", name, field), src, ("tables", name, "fields", field),
                             f"field '{field}' of table '{name}'")
                fields[field] = declared
            out["fields"] = fields
        elif key == "grows_by":
            _grow(out, value, overlay, src, name, claims)
        else:
            claims.claim(overlay, ("table", name, key), src, ("tables", name, key),
                         f"'{key}' of table '{name}'")
            out[key] = value
    return out


def _grow(table: dict, more, overlay, src, name, claims) -> None:
    """``grows_by: N``: N records more than the count so far. Several expansions' growths add up
    (each adds its own records), so they share the claim on the count; a count set outright does not."""
    path = ("tables", name, "grows_by")
    if table.get("count") is None:
        claims.problems.add("bad-table", f"table '{name}' has no count to grow", src, path,
                            key=True, hint="give the count itself, or leave the count out")
        return
    claims.claim(overlay, ("table", name, "count"), src, path, f"'count' of table '{name}'",
                 shared=True)
    table["count"] = table["count"] + more


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
        self.shared: set = set()     # keys whose claim so far adds up with another's

    def claim(self, overlay, key, src, path, what: str, shared: bool = False) -> None:
        """``shared``: claims that add up (a table's growth) clash only with one that is not."""
        name = overlay["name"]
        first = self.by.get(key)
        if shared and first is not None and key in self.shared:
            return
        if first is not None and first[0] != name and FIXTURES not in (first[0], name):
            other, osrc, opath = first
            line, col = osrc.locator.key_at(opath)
            self.problems.add("expansion-conflict", f"expansions '{other}' and '{name}' both "
                              f"change {what} (also at {osrc.path}:{line}:{col})", src, path,
                              key=True, hint=f"'{other}' changes it at {osrc.path}:{line}:{col}; "
                              "play them apart, or make one expansion of both")
            return
        if first is None or name != FIXTURES:
            self.by[key] = (name, src, path)
            if shared:
                self.shared.add(key)
            else:
                self.shared.discard(key)


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
                       [f"count +{v}" if k == "grows_by" else k for k, v in entries[n].items()
                        if k != "fields"]
                n = f"{n} ({', '.join(keys)})"
            into["replaces" if old is not None else "adds"].append(n)
    return out
