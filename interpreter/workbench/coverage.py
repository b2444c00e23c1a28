"""Rule coverage: which effect-text branches, records and cited rule ids ever ran.

While games play, every frame the machine pushes (a program's root, the
body of the branch an ``if`` took, a loop's body, an option chosen) is
recorded by its node number, which is the same on every load of the same
ruleset. A block that was pushed ran; one never pushed is a branch no game
took. A record ran when one of its effect texts did; a rule id ran when it
is cited on a line of a block that ran, or by a record that ran.

Expressions (functions, conditions) are evaluated, not pushed, so only
statement blocks are traced: say so rather than guess.
"""
from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from pathlib import Path

from ..dsl import ast

# A rule id: parts in capitals (a part may hold digits, 'SS-2P-01'), then two digits;
# 'X-03/04' and 'X-RULE-01..05' name several.
_ID = re.compile(r"([A-Z][A-Z0-9]*(?:-[0-9]*[A-Z][A-Z0-9]*)*-)(\d{2})((?:/\d{2})*)(?:\.\.(\d{2}))?")


@contextlib.contextmanager
def tracing(fingerprint: str):
    """Record the node numbers pushed by games of the ruleset with ``fingerprint``."""
    from ..engine import machine
    seen: set = set()
    original = machine.push

    def push(game, th, node, **extra):
        original(game, th, node, **extra)
        if game.rules.fingerprint == fingerprint:
            seen.add(th["frames"][-1]["n"])
    machine.push = push
    try:
        yield seen
    finally:
        machine.push = original


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
    """Each effect text's name -> its root block (procedures, record effects, the start)."""
    roots = {f"procedure {name}": tree for name, (_, tree) in rules.procedures.items()}
    roots.update({f"effect {key}": tree for key, tree in rules.effects.items()})
    if rules.start is not None:
        roots["start"] = rules.start
    return {name: tree for name, tree in roots.items() if isinstance(tree, ast.Block)}


def report(rules, runs: dict[str, set]) -> dict:
    """Coverage of ``rules`` by each run (``{"scenarios": node ids, "simulations": node ids}``)."""
    blocks = _blocks(rules)
    ran = {label: {nid for nid in blocks if nid in seen} for label, seen in runs.items()}
    records = _records(rules)
    lines = _lines(rules, blocks)
    cited = _cited(rules)
    held = {rid: _record_rules(rules, rid) for rid in records}
    out = {"game": rules.id, "runs": list(runs), "branches": [], "records": [], "rules": []}
    for nid, (text, node) in sorted(blocks.items(), key=lambda kv: _place(kv[1][1], rules)):
        out["branches"].append({"text": text, "at": _block_at(rules, node),
                                **{label: nid in ran[label] for label in runs}})
    for rid, roots in sorted(records.items()):
        out["records"].append({"record": rid, "table": rules.entities[rid]["table"],
                               "at": _record_at(rules, rid),
                               **{label: bool(roots & ran[label]) for label in runs}})
    for rule, places in sorted(cited.items()):
        entry = {"rule": rule, "at": f"{places[0][0]}:{places[0][1]}"}
        for label in runs:
            hit = any(lines[nid] & set(places) for nid in ran[label])
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


def _blocks(rules) -> dict:
    """Every block of every effect text: node number -> (the text's name, the block)."""
    found = {}
    for name, root in texts(rules).items():
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Block) and id(node) in rules.node_id:
                found.setdefault(rules.node_id[id(node)], (name, node))
            stack.extend(node.children())
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


def _block_at(rules, block) -> str:
    """Where a block's first statement is written (the block itself starts at the ``:``)."""
    return rules.where(block.body[0] if block.body else block)


def _place(node, rules):
    file, _, rest = _block_at(rules, node).partition(":")
    line, _, col = rest.partition(":")
    return file, int(line or 0), int(col or 0)
