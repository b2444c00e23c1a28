"""Rule coverage: which effect-text branches, records and cited rule ids ever ran.

Games are traced through the engine's trace hook (``Game.tracer``, see
``trace.py``): each statement a block runs, an ``if`` that took no branch,
a ``choose`` filter that kept or left out a value, and the arm of an
``if c then a else b`` expression that ran and the right side of an ``and``/``or``
evaluated, recorded by node number, which is the same on every load of the
same ruleset. A branch is a block (a program, the body of an ``if`` arm, a
loop's body, an option), an ``if`` without ``else`` taking no arm, either arm
of an ``if`` expression, the right side of an ``and``/``or``, or either
outcome of a ``choose`` filter. A record ran when one of its effect texts
did; a rule id ran when it is cited on a line of a block that ran, or by a
record that ran. A simulated game is traced alone: the copies a bot's
look-ahead plays are not counted (a scenario's bots' are).
"""
from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from pathlib import Path

from ..dsl import ast
from .trace import Hits, every_game, expression_arms

# A rule id: parts in capitals (a part may hold digits, 'SS-2P-01'), then two digits;
# 'X-03/04' and 'X-RULE-01..05' name several.
_ID = re.compile(r"([A-Z][A-Z0-9]*(?:-[0-9]*[A-Z][A-Z0-9]*)*-)(\d{2})((?:/\d{2})*)(?:\.\.(\d{2}))?")


@contextlib.contextmanager
def tracing(load):
    """Load a ruleset (``load()``) so that its games report the arms of ``if`` expressions too,
    and trace the games played inside: yields ``(rules, hits)``.

    Every game of the ruleset made inside is traced (a scenario's, which loads its own copy,
    too); a simulated game given ``hits`` as its own tracer (``Game.new(tracer=)``) alone is
    what simulations should count, so call ``play`` for those.
    """
    with expression_arms():
        rules = load()
        hits = Hits(rules.fingerprint)
        with every_game(hits):
            yield rules, hits


def play(rules, plan, which, hits, advance=lambda: None, jobs: int = 1) -> None:
    """Play games ``which`` of ``plan`` in ``jobs`` processes (``parallel.run``, as simulate does),
    each traced alone (not its bots' look-ahead copies), and add what they ran to ``hits``.

    Each game's row brings back its own hits; their union is the same for any ``jobs``.
    A worker must be a fork of this process, whose ruleset was compiled with the
    trace points of expressions (``tracing``); where processes cannot fork, one plays all.
    """
    import dataclasses
    import multiprocessing
    from .parallel import run
    if "fork" not in multiprocessing.get_all_start_methods():
        jobs = 1                       # a fresh worker would load the ruleset without them
    with every_game(None):
        rows = run(rules, dataclasses.replace(plan, trace=True), list(which), jobs, advance)
    for row in rows:
        hits.hits.update((nid, arm) for nid, arm in row["hits"])


def rule_ids(text: str) -> set[str]:
    """The rule ids cited in ``text``; ``X-03/04`` and ``X-RULE-01..05`` name several."""
    out = set()
    for part in _ID.finditer(text):
        prefix, first, more, last = part.group(1), int(part.group(2)), part.group(3), part.group(4)
        numbers = {first} | {int(n) for n in more.split("/") if n}
        if last:
            numbers |= set(range(first, int(last) + 1))
        out |= {f"{prefix}{n:02d}" for n in numbers}
    return out


def texts(rules) -> dict:
    """Each effect text's name -> its root (procedures, record effects, the start, functions,
    record conditions)."""
    roots = {f"procedure {name}": tree for name, (_, tree) in rules.procedures.items()}
    roots.update({f"effect {key}": tree for key, tree in rules.effects.items()})
    if rules.start is not None:
        roots["start"] = rules.start
    roots.update({f"function {name}": tree for name, (_, tree) in rules.functions.items()})
    roots.update({f"condition {key}": tree for key, tree in rules.expressions.items()})
    return {name: tree for name, tree in roots.items() if id(tree) in rules.node_id}


def report(rules, runs: dict[str, set]) -> dict:
    """Coverage of ``rules`` by each run (``{"scenarios": hits, "simulations": hits}``, each a
    set of ``(node number, arm)`` as ``Hits`` records)."""
    found = branches(rules)
    blocks = {nid: (text, node) for nid, (text, node, kind, _) in found.items()
              if kind == "block"}
    ran = {label: {key for key, (_, _, _, hit) in found.items() if hit in seen}
           for label, seen in runs.items()}
    records = _records(rules)
    lines = _lines(rules, blocks)
    cited = _cited(rules)
    held = {rid: _record_rules(rules, rid) for rid in records}
    out = {"game": rules.id, "runs": list(runs), "branches": [], "records": [], "rules": []}
    for key, (text, node, kind, _) in sorted(found.items(), key=lambda kv: _place(kv[1][1], rules)):
        out["branches"].append({"text": text, "branch": kind, "at": _block_at(rules, node),
                                **{label: key in ran[label] for label in runs}})
    for rid, roots in sorted(records.items()):
        out["records"].append({"record": rid, "table": rules.entities[rid]["table"],
                               "at": _record_at(rules, rid),
                               **{label: bool(roots & ran[label]) for label in runs}})
    for rule, places in sorted(cited.items()):
        entry = {"rule": rule, "at": f"{places[0][0]}:{places[0][1]}"}
        for label in runs:
            hit = any(lines[nid] & set(places) for nid in ran[label] if nid in blocks)
            hit = hit or any(rule in held[rid] and roots & ran[label]
                             for rid, roots in records.items())
            entry[label] = hit
        traceable = any(set(places) & spans for spans in lines.values()) or any(
            rule in held[rid] for rid in records)
        if traceable:
            out["rules"].append(entry)
    out["summary"] = {kind: {label: [sum(1 for e in out[kind] if e[label]), len(out[kind])]
                             for label in runs} for kind in ("branches", "records", "rules")}
    return out


# What each kind of branch is called, and the trace point that says it ran.
BRANCH_KINDS = ("block", "no arm of the if", "then", "else", "choice kept", "choice left out",
                "right side of and", "right side of or")


def branches(rules) -> dict:
    """Every branch of every effect text: key -> (text's name, node to place it, kind, hit).

    ``hit`` is the ``(node number, arm)`` the trace hook reports when it runs; a block's key
    is its own node number (records and rule ids are found by those).
    """
    found, number = {}, rules.node_id
    for name, root in texts(rules).items():
        stack = [root]
        while stack:
            node = stack.pop()
            stack.extend(node.children())
            nid = number.get(id(node))
            kind = node.__class__
            if nid is None:
                continue
            if kind is ast.Block and node.body and id(node.body[0]) in number:
                found.setdefault(nid, (name, node, "block", (number[id(node.body[0])], None)))
            elif kind is ast.If and node.orelse is None:
                found.setdefault((nid, "else"), (name, node, "no arm of the if", (nid, "else")))
            elif kind is ast.Conditional:
                found.setdefault((nid, "then"), (name, node.then, "then", (nid, "then")))
                found.setdefault((nid, "else"), (name, node.orelse, "else", (nid, "else")))
            elif kind is ast.BoolOp:                 # short-circuit: the right side may never run
                found.setdefault((nid, "right"), (name, node.right, f"right side of {node.op}",
                                                  (nid, "right")))
            elif kind is ast.ChooseIn and node.cond is not None:
                found.setdefault((nid, "kept"), (name, node.cond, "choice kept", (nid, "kept")))
                found.setdefault((nid, "dropped"), (name, node.cond, "choice left out",
                                                    (nid, "dropped")))
    return found


def _lines(rules, blocks) -> dict:
    """Node number -> the (file, line) pairs its own statements are written on."""
    out = defaultdict(set)
    for nid, (_, block) in blocks.items():
        for stmt in block.body:
            stack = [stmt]
            while stack:
                node = stack.pop()
                where = rules.where(node).rsplit(":", 2)
                if len(where) == 3:
                    out[nid].add((where[0], int(where[1])))
                if not isinstance(node, ast.Block):      # a nested block counts for itself
                    stack.extend(node.children())
    return out


def _cited(rules) -> dict:
    """Rule id -> the (file, line) places of the ruleset's files that cite it."""
    from ..content.ruleset import _shown
    out = defaultdict(list)
    for path in sorted(Path(rules.folder).rglob("*.yaml")):
        shown = _shown(path)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in rule_ids(line):
                out[rule].append((shown, number))
    return out


def _records(rules) -> dict:
    """Record id -> the node numbers of its effect texts' roots."""
    out = defaultdict(set)
    for key, tree in rules.effects.items():
        rid = key.split(".", 1)[0]
        if rid in rules.entities and id(tree) in rules.node_id:
            out[rid].add(rules.node_id[id(tree)])
    return out


def _record_rules(rules, rid) -> set:
    found, stack = set(), [rules.entities[rid]]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found |= rule_ids(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _record_at(rules, rid) -> str:
    src, path = rules.record_origin[rid]
    line, col = src.locator.at(path)
    return f"{src.path}:{line}:{col}"


def _block_at(rules, node) -> str:
    """Where a branch is written: a block's first statement (the block starts at the ``:``)."""
    if node.__class__ is ast.Block and node.body:
        return rules.where(node.body[0])
    return rules.where(node)


def _place(node, rules):
    file, _, rest = _block_at(rules, node).partition(":")
    line, _, col = rest.partition(":")
    return file, int(line or 0), int(col or 0)
