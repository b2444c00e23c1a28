"""Graphs: nodes and edges declared in data (borders between countries, links between rooms).

Declared in a ruleset's components: the nodes are the records of a table
and the edges are read from one of their fields (a list of ids), so each
record says what it touches. An undirected graph must list every edge on
both sides (a one-sided edge is a load-time error at the record that lists
it), and no record may touch itself. Graphs are built once, at load, as
networkx graphs; they hold no state. Functions: ``linked(G, N)`` the nodes
one edge from N, ``degree(G, N)``, ``components(G, NODES)`` the connected
groups among NODES, ``reach(G, N, NODES)`` every node of NODES reachable
from N through NODES. Node lists come back in table order.
"""
from __future__ import annotations

from ..model.values import GraphRef, RuleError, describe
from ..dsl.kinds import GRAPH
from .component import HIDDEN, ComponentKind


def build(rules, name: str, spec: dict):
    """The networkx graph of one declaration (records of ``nodes``, edges from ``edges``)."""
    import networkx as nx           # here: a ruleset without graphs never pays for its import
    graph = nx.DiGraph() if spec.get("directed") else nx.Graph()
    graph.add_nodes_from(rules.tables.get(spec["nodes"], []))
    for rid in rules.tables.get(spec["nodes"], []):
        for other in rules.entities[rid].get(spec["edges"], []) or []:
            graph.add_edge(rid, other)
    return graph


def _graph(ctx, value):
    if type(value) is not GraphRef:
        raise RuleError(f"expected a graph, got {describe(value)}")
    return ctx.game.rules.prepared[value.name]


def _node(graph, node):
    if node not in graph:
        raise RuleError(f"{describe(node)} is not a node of that graph")
    return node


def _in_order(ctx, graph, nodes) -> list:
    order = {rid: k for k, rid in enumerate(graph.nodes)}
    return sorted(nodes, key=order.__getitem__)


def linked(ctx, args):
    """linked(GRAPH, NODE): the nodes one edge away (for a directed graph: the edges' heads)"""
    graph = _graph(ctx, args[0])
    return _in_order(ctx, graph, graph.neighbors(_node(graph, args[1])))


def degree(ctx, args):
    """degree(GRAPH, NODE): how many edges touch NODE"""
    graph = _graph(ctx, args[0])
    return graph.degree(_node(graph, args[1]))


def _subgraph(ctx, args):
    graph = _graph(ctx, args[0])
    nodes = ctx.items(args[-1])
    if type(nodes) is not list:
        raise RuleError(f"expected a list of nodes, got {describe(nodes)}")
    sub = graph.subgraph(_node(graph, n) for n in nodes)
    return graph, (sub.to_undirected() if sub.is_directed() else sub)


def components(ctx, args):
    """components(GRAPH, NODES): the connected groups among NODES, each in table order"""
    import networkx as nx
    graph, sub = _subgraph(ctx, args)
    groups = [_in_order(ctx, graph, group) for group in nx.connected_components(sub)]
    order = {rid: k for k, rid in enumerate(graph.nodes)}
    return sorted(groups, key=lambda group: order[group[0]])


def reach(ctx, args):
    """reach(GRAPH, NODE, NODES): every node of NODES reachable from NODE through NODES"""
    import networkx as nx
    graph, sub = _subgraph(ctx, args)
    start = _node(graph, args[1])
    if start not in sub:
        return []
    return _in_order(ctx, graph, nx.node_connected_component(sub, start))


# ---------------------------------------------------------------- the component kind

SCHEMA = {
    "description": "Nodes (the records of a table) and the edges between them (read from a field "
                   "of each record).",
    "type": "object",
    "required": ["nodes", "edges"],
    "additionalProperties": False,
    "properties": {
        "nodes": {"description": "The table whose records are the nodes.",
                  "$ref": "#/definitions/name"},
        "edges": {"description": "The field of each record listing the ids it has an edge to.",
                  "$ref": "#/definitions/name"},
        "directed": {"description": "Edges go one way; by default they go both ways and must be "
                                    "listed on both sides.",
                     "type": "boolean", "default": False},
        "description": {"description": "What the graph represents.", "type": "string"},
    },
}


def check(rules, name, spec, problems, source) -> None:
    """Nodes are records, edges name records of the same table, no loops, both sides listed."""
    from ..diagnostics import did_you_mean
    table, field = spec["nodes"], spec["edges"]
    if table not in rules.table_specs:
        problems.add("unknown-name", f"graph '{name}' has nodes from an unknown table '{table}'",
                     source, ("graphs", name, "nodes"), hint=did_you_mean(table, list(rules.table_specs)))
        return
    if field not in rules.table_specs[table].get("fields", {}):
        problems.add("unknown-name", f"table '{table}' has no field '{field}'", source,
                     ("graphs", name, "edges"),
                     hint=did_you_mean(field, list(rules.table_specs[table].get("fields", {}))))
        return
    ids = set(rules.tables[table])
    for rid in rules.tables[table]:
        src, path = rules.record_origin[rid]
        listed = rules.entities[rid].get(field) or []
        for k, other in enumerate(listed):
            at = path + (field, k)
            if other not in ids:
                problems.add("graph-edge", f"'{other}' is not a node of graph '{name}' (a record of "
                             f"'{table}')", src, at, hint=did_you_mean(other, sorted(ids)))
            elif other == rid:
                problems.add("graph-edge", f"'{rid}' has an edge to itself in graph '{name}'", src, at)
            elif not spec.get("directed") and rid not in (rules.entities[other].get(field) or []):
                problems.add("graph-edge", f"'{rid}' lists '{other}' in '{field}', but '{other}' "
                             f"does not list '{rid}': graph '{name}' is undirected", src, at)


KIND = ComponentKind(
    section="graphs", state_key=None, schema=SCHEMA, where="table",
    new=lambda spec, rules: None,
    value=lambda ctx, name, owner: GraphRef(name),
    view=lambda game, name, spec, data, viewer, owner, can_see: HIDDEN,   # data, not state
    check=check,
    prepare=build,
    language_kind=lambda spec, of_value: GRAPH,
    summary="Nodes and edges between records, by name (borders, links).")
