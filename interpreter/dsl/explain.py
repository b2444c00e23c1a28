"""Say an effect-language tree back in plain words (labels, `rulebook dsl`)."""
from __future__ import annotations

from . import ast

_OPS = {"==": "is", "!=": "is not", "<": "<", "<=": "≤", ">": ">", ">=": "≥",
        "in": "is in", "not in": "is not in", "+": "+", "-": "-", "*": "×", "/": "÷", "%": "mod"}


def explain(node, indent: str = "") -> str:
    """Plain words for a statement, a block or an expression."""
    fn = _SAY.get(node.__class__)
    return fn(node, indent) if fn else "?"


def _block(node, indent):
    return "; ".join(explain(s, indent) for s in node.body) or "nothing"


def _amounts(node):
    return ", ".join(f"{explain(a.count)} {a.name or 'of ' + explain(a.counter)}"
                     for a in node.amounts)


def _who(node):
    return f" (for {explain(node.who)})" if node.who is not None else ""


def _call(node, indent):
    words = [node.verb]
    if node.arg is not None:
        words.append(explain(node.arg))
    words += [explain(v) if k == "saying" else f"{k} {explain(v)}" for k, v in node.keywords]
    return " ".join(words)


def _if(node, indent):
    parts = [f"if {explain(c)}: {explain(b)}" for c, b in node.branches]
    text = "; otherwise ".join(parts)
    if node.orelse is not None:
        text += f"; otherwise {explain(node.orelse)}"
    return text


def _told(node) -> str:
    return f" {node.told}" if node.told else ""


def _choose_in(node, indent):
    text = f"choose{_told(node)} {node.var} from {explain(node.iterable)}"
    if node.cond is not None:
        text += f" where {explain(node.cond)}"
    text += f", then {explain(node.body)}"
    if node.otherwise is not None:
        text += f"; or {node.otherwise_label or 'none'}: {explain(node.otherwise)}"
    return text


def _function(node, indent):
    return f"{node.name}({', '.join(explain(a) for a in node.args)})"


def _generator(node, indent):
    text = f"{explain(node.element)} for each {node.var} in {explain(node.iterable)}"
    if node.cond is not None:
        text += f" where {explain(node.cond)}"
    return f"{node.name}({text})"


def _literal(node, indent):
    value = node.value
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_SAY = {
    ast.Block: _block,
    ast.Gain: lambda n, i: f"gain {_amounts(n)}{_who(n)}",
    ast.Spend: lambda n, i: f"spend {_amounts(n)}{_who(n)}",
    ast.Lose: lambda n, i: f"lose {_amounts(n)}{_who(n)}",
    ast.Assign: lambda n, i: f"set {'.'.join(n.target)} to {explain(n.value)}",
    ast.AugAssign: lambda n, i: (f"{'add' if n.op == '+=' else 'subtract'} {explain(n.value)} "
                                 f"{'to' if n.op == '+=' else 'from'} {'.'.join(n.target)}"),
    ast.SetTo: lambda n, i: f"set {explain(n.target)} to {explain(n.value)}",
    ast.Call: _call,
    ast.Break: lambda n, i: "stop repeating",
    ast.Pass: lambda n, i: "nothing",
    ast.If: _if,
    ast.ForEach: lambda n, i: f"for each {n.var} in {explain(n.iterable)}: {explain(n.body)}",
    ast.While: lambda n, i: f"while {explain(n.cond)}: {explain(n.body)}",
    ast.Simultaneously: lambda n, i: (f"all at once, for each {n.var} in {explain(n.iterable)}: "
                                      f"{explain(n.body)}"),
    ast.As: lambda n, i: f"as {explain(n.who)}: {explain(n.body)}",
    ast.ChooseOne: lambda n, i: f"choose{_told(n)} one: " + " | ".join(explain(a) for a in n.alternatives),
    ast.ChooseIn: _choose_in,
    ast.Literal: _literal,
    ast.Name: lambda n, i: n.id,
    ast.ListExpr: lambda n, i: "[" + ", ".join(explain(x) for x in n.items) + "]",
    ast.DictExpr: lambda n, i: "{" + ", ".join(f"{k}: {explain(v)}" for k, v in n.pairs) + "}",
    ast.Attribute: lambda n, i: f"{explain(n.obj)}'s {n.name}" if isinstance(n.obj, ast.Name)
                                else f"{explain(n.obj)}.{n.name}",
    ast.Index: lambda n, i: f"{explain(n.obj)} #{explain(n.key)}",
    ast.Function: _function,
    ast.Generator: _generator,
    ast.BinOp: lambda n, i: f"{explain(n.left)} {_OPS[n.op]} {explain(n.right)}",
    ast.BoolOp: lambda n, i: f"{explain(n.left)} {n.op} {explain(n.right)}",
    ast.Conditional: lambda n, i: f"(if {explain(n.cond)} then {explain(n.then)} else {explain(n.orelse)})",
    ast.Not: lambda n, i: f"not {explain(n.operand)}",
    ast.Negate: lambda n, i: f"-{explain(n.operand)}",
}
