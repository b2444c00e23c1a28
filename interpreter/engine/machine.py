"""The stack machine that runs the effect language over a plain-data state.

Where the game stands is data: ``state["flow"]`` holds a main thread and,
during a ``simultaneously`` block, one thread per player. A thread is a stack
of frames ``{"n": node id, ...}`` plus a stack of local environments. A
decision is a frame that stops its thread until answered, so saving,
loading and cloning a game mid-effect is just copying the state.

Each statement kind has one executor in ``EXECUTE``; simple statements run
inline, compound ones push frames. Executors return ``WAIT`` to pause, None to go on (nothing else).

Running another program is one protocol: a simple statement (``do``, a
``gain`` of a counter with a hook, ``signal``, ``advance``) asks the game to
``call`` a program, and the block pushes those calls as frames right after
the statement, so they run before the next one, and a save in the middle of
them is a save like any other.
"""
from __future__ import annotations

import io
import marshal
import pickle
from functools import partial

from ..dsl import ast
from . import budget, telling
from .compile import compiled
from .evaluate import Ctx, evaluate
from ..model.values import InternalError, Player, RuleError, describe, items_of, seat, seat_label, truth

WAIT = "wait"
_UNSET = object()
NO_SWAP = (None, (), {})    # ``Game._swap``: no snapshot's parts worked out yet (``_in_view``)
NO_HELD = (None, frozenset())   # ``Game._held``: nothing held yet for any snapshot (``hold``)


def deep_copy(data):
    """A deep copy of state data, as ``plain_copy`` makes, in C code: by marshal when the data
    holds only plain values (a quarter faster than pickle, copy and freeing together), else by
    pickle (engine values; about twice as fast as ``plain_copy``)."""
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:                     # an engine value (a player, a zone): marshal has no such type
        pass
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True                    # the state is a tree: no memo needed
    pickler.dump(data)
    return pickle.loads(out.getvalue())


def new_thread(frames: list, env: dict) -> dict:
    return {"frames": frames, "envs": [env], "pending": None}


def push(game, th: dict, node, **extra) -> None:
    frames = th["frames"]
    game.steps -= 1                                    # every loop and call pushes: count here
    if game.steps < 0 or len(frames) >= budget.MAX_FRAMES:
        raise budget.exceeded(game, th, node)
    if extra:
        frames.append({"n": game.rules.node_id[id(node)], **extra})
    else:
        frames.append({"n": game.rules.node_id[id(node)]})


# ---------------------------------------------------------------- running

def run(game, answered: dict | None = None) -> None:
    """Advance every thread until each waits on a decision or the game ends.

    ``answered``: the thread whose decision was just answered, the only one that can go on.
    """
    budget.reset(game)
    running, game.running = game.running, True     # the budget is this run's (``Game.evaluate``)
    try:
        flow = game.state["flow"]
        main = flow["main"]
        if answered is not None and answered is not main and flow["threads"] and not game.paused:
            _run_thread(game, answered)            # the others wait: if it waits again, so does the
            if answered["pending"] is not None or game.paused:     # block (no thread to look at,
                return                                             # no join)
            for th in flow["threads"]:             # it is done; the others wait or are done too:
                if th["pending"] is not None:      # the block goes on while one waits
                    return
        while True:
            if game.paused:                        # a scenario stopped between statements
                return
            threads = flow["threads"]
            if threads:
                going = False
                for th in threads:             # a loop, not any(...): this runs at every answer
                    if th["pending"] is None:  # (a thread waiting on a decision has frames)
                        if not th["frames"]:
                            continue
                        _run_thread(game, th)
                        if not th["frames"]:
                            continue
                    going = True
                if going:
                    return
                _join(game)
                continue
            if main["pending"] is not None:
                return
            if not main["frames"]:
                if not game.over:
                    game.finish()
                return
            _run_thread(game, main)
            if main["pending"] is not None:
                return
    finally:
        game.running = running


def run_alone(game, th: dict) -> None:
    """Run a side thread to its end; it may not stop for a decision."""
    saved, running = game.thread, game.running
    budget.reset(game)
    game.running = True
    try:
        _run_thread(game, th)
    finally:
        game.thread, game.running = saved, running
    if th["frames"]:
        raise RuleError("statements run directly cannot ask for a decision")


def refresh(game) -> None:
    """Work out every pending decision again (after the state was changed directly)."""
    flow = game.state["flow"]
    for th in [flow["main"]] + flow["threads"]:
        if th["pending"] is not None:
            th["pending"] = None
            th["frames"][-1].pop("opts", None)
    game.memo.clear()
    run(game)


def _run_thread(game, th: dict) -> None:
    game.thread = th
    frames = th["frames"]
    run = game.runners if game.tracer is None else runners(game.rules, True)
    try:
        while frames:
            frame = frames[-1]
            if run[frame["n"]](game, th, frame) is not None:      # WAIT: it stops
                return
    except RuleError as exc:
        raise located(game, exc, game.rules.nodes[frames[-1]["n"]] if frames else None) from None
    except Exception as exc:           # not the content's fault: say so, never blame the author
        raise internal(game, exc, game.rules.nodes[frames[-1]["n"]] if frames else None) from exc


class _Runners(dict):
    """What runs a frame, by its node id: ``run(game, th, frame)``, a block's generated
    function (codegen) or the executor of the node's kind with the node given. Filled as
    frames of each node first run (text run later adds nodes)."""

    def __init__(self, rules, program, traced: bool):
        super().__init__()
        self.nodes = rules.nodes
        self.node_id = rules.node_id
        self.program = program             # the generated program the table was made for
        self.traced = traced               # a traced game runs the interpreted blocks

    def __missing__(self, n: int):
        node = self.nodes[n]
        kind = node.__class__
        run = None if self.traced or kind is not ast.Block else node.__dict__.get("_run")
        if run is None and kind in _RUNNERS:
            run = _RUNNERS[kind](self, node, self.node_id)
        if run is None:
            run = partial(EXECUTE[kind], node=node)
        self[n] = run
        return run


def runners(rules, traced: bool = False) -> _Runners:
    """The ruleset's table of frame runners (``_run_thread``), for games traced or not; made
    again when the ruleset's generated program is installed after it."""
    key = "_runners_traced" if traced else "_runners"
    program = rules.__dict__.get("_program")
    table = rules.__dict__.get(key)
    if table is None or table.program is not program:
        table = _Runners(rules, program, traced)
        setattr(rules, key, table)
    return table


def located(game, exc: RuleError, node) -> RuleError:
    """The error with the ``file:line:col`` of the content that caused it (said once).

    Text run directly (``Game.execute``) has no file: the error then carries
    ``position``, the (line, col) in that text, for the caller to place.
    """
    if getattr(exc, "located", False) or node is None:
        return exc
    where = game.rules.where(node)
    err = RuleError(f"{where}: {exc}" if where else str(exc))
    err.located = True
    if not where:                      # a file's position is in the message, not for the caller
        err.position = (node.line, node.col)
    return err


def internal(game, exc: Exception, node) -> InternalError:
    """A Python exception raised while running ``node``: a bug in Rulebook, placed once.

    Text run directly (``Game.execute``) has no file: ``position`` then holds (line, col).
    """
    if getattr(exc, "located", False):
        return exc
    detail = exc.detail if isinstance(exc, InternalError) else f"{type(exc).__name__}: {exc}"
    where = game.rules.where(node) if node is not None else ""
    if node is None:
        return InternalError(detail)
    err = InternalError(detail, where or f"line {node.line}, column {node.col}")
    if not where:
        err.position = (node.line, node.col)
    return err


def _join(game) -> None:
    """All simultaneous threads are done: reveal, and resume the main thread."""
    game.on_join()                             # an answer's checkpoint takes the other sheets now
    flow = game.state["flow"]
    flow["threads"] = []
    flow["snapshot"] = None
    game.block_open = False
    game._held = NO_HELD
    flow["main"]["frames"].pop()
    game.log("all players have chosen")
    telling.unseal(game)                       # what each chose (sealed) now reaches the others


def ctx_of(game, th) -> Ctx:
    return Ctx(game, th["envs"][-1])


# ---------------------------------------------------------------- blocks

def _block(game, th, frame, node):
    generated = node.__dict__.get("_run")     # the block compiled to Python (codegen): same frames
    if generated is not None and game.tracer is None:     # a traced game runs the interpreted block
        return generated(game, th, frame)
    body = node.body
    i = frame.get("i", 0)
    tracer = game.tracer                   # the trace hook (Game.tracer): each statement, the end
    while i < len(body):
        stmt = body[i]
        i += 1
        if tracer is not None:
            tracer.ran(game, stmt)
        simple = SIMPLE.get(stmt.__class__)
        if simple is not None:
            game.memo.clear()                  # the state is about to change...
            try:
                simple(game, ctx_of(game, th), stmt)
            except RuleError as exc:
                game.queued.clear()
                raise located(game, exc, stmt) from None
            except Exception as exc:
                game.queued.clear()
                raise internal(game, exc, stmt) from exc
            game.memo.clear()                  # ...and has: forget what was read on the way
            if game.pause is not None and game.pause(game):     # a scenario's stop: here
                game.paused = True
                frame["i"] = i
                if game.queued:
                    _push_queued(game, th, stmt)
                return WAIT
            if game.queued:                    # the statement runs other programs: now, in order
                frame["i"] = i
                _push_queued(game, th, stmt)
                return None
            continue
        frame["i"] = i
        if stmt.__class__ is ast.Break:
            return _break(game, th)
        push(game, th, stmt)
        return None
    if tracer is not None:
        tracer.ran(game, node, "end")
    th["frames"].pop()
    if frame.get("call"):
        th["envs"].pop()
    return None


def _push_queued(game, th, stmt) -> None:
    """Push what a statement asked to run (``Game.call``/``Game.schedule``); the first runs first."""
    queued = game.queued[:]
    game.queued.clear()
    if len(th["frames"]) + len(queued) >= budget.MAX_FRAMES or game.steps < len(queued):
        raise budget.exceeded(game, th, stmt)          # placed at the statement that called
    for root, env, extra in reversed(queued):
        if env is not None:                    # a program call: its own locals
            th["envs"].append(env)
            push(game, th, root, call=True, **extra)
        else:                                  # a frame of the statement's own (a chain of hooks)
            push(game, th, stmt if root is None else root, **extra)


def _break(game, th):
    frames = th["frames"]
    nodes = game.rules.nodes
    while frames:
        frame = frames.pop()
        if "call" in frame and frame["call"]:
            raise RuleError("'break' outside a loop")
        kind = nodes[frame["n"]].__class__
        if kind in _LOOPS:
            return None
        if kind is _AS and "saved" in frame:             # leaving 'as p:' gives self back
            th["envs"][-1]["self"] = frame["saved"]
    raise RuleError("'break' outside a loop")


_LOOPS = frozenset((ast.ForEach, ast.While))
_AS = ast.As


def _if(game, th, frame, node):
    ctx = ctx_of(game, th)
    th["frames"].pop()
    for cond, body in node.branches:
        if truth(evaluate(cond, ctx), game.state):
            push(game, th, body)
            return None
    if node.orelse is not None:
        push(game, th, node.orelse)
    elif game.tracer is not None:              # the trace hook: no branch taken, none written
        game.tracer.ran(game, node, "else")
    return None


def _for_each(game, th, frame, node):
    items = frame.get("items")
    if items is None:
        value = items_of(evaluate(node.iterable, ctx_of(game, th)), game.state)
        if type(value) is not list:
            raise RuleError(f"'for each' needs a list, got {describe(value)}")
        items = frame["items"] = list(value)
        frame["i"] = 0
    i = frame["i"]
    if i >= len(items):
        th["frames"].pop()
        return None
    frame["i"] = i + 1
    th["envs"][-1][node.var] = items[i]
    push(game, th, node.body)
    return None


def _while(game, th, frame, node):
    cond = node.cond.__dict__.get("_fn") or compiled(node.cond)      # as ``evaluate`` finds it
    held = cond(Ctx(game, th["envs"][-1]))
    if held is True or held is not False and truth(held, game.state):
        push(game, th, node.body)
    else:
        th["frames"].pop()
    return None


def _while_runner(table, node, node_id):
    """``_while`` for one ``while`` node, its condition and body found once: the body is pushed
    (as ``push``) and run."""
    cond = node.cond.__dict__.get("_fn") or compiled(node.cond)      # as ``evaluate`` finds it
    body = node.body
    n = node_id[id(body)]

    def run_while(game, th, frame):
        held = cond(Ctx(game, th["envs"][-1]))
        if held is True or held is not False and truth(held, game.state):
            return _run_pushed(game, th, table, n, body)
        del th["frames"][-1]
        return None
    return run_while


def _as(game, th, frame, node):
    env = th["envs"][-1]
    if "saved" not in frame:
        who = evaluate(node.who, ctx_of(game, th))
        seat(who)
        frame["saved"] = env.get("self")
        env["self"] = who
        push(game, th, node.body)
        return None
    env["self"] = frame["saved"]
    th["frames"].pop()
    return None


def _simultaneously(game, th, frame, node):
    flow = game.state["flow"]
    if th is not flow["main"]:
        raise RuleError("'simultaneously' cannot be nested")
    env = th["envs"][-1]
    items = items_of(evaluate(node.iterable, Ctx(game, env)), game.state)
    if not items:                          # nobody to wait for
        th["frames"].pop()
        return None
    state = game.state
    flow["snapshot"] = _snapshot(game, node)
    threads = []
    body, var = node.body, node.var
    n = game.rules.node_id[id(body)]
    for item in items:
        if item.__class__ is not Player:
            seat(item)                         # (says why)
        t_env = dict(env)
        t_env[var] = item
        t_env["self"] = item
        frames = []
        t = {"frames": frames, "envs": [t_env], "pending": None}     # (``new_thread``)
        game.steps -= 1                        # its body pushed, as ``push`` does
        if game.steps < 0:
            raise budget.exceeded(game, t, body)
        frames.append({"n": n})
        threads.append(t)
    flow["threads"] = threads
    game.block_open = True
    return WAIT


def _snapshot(game, node) -> dict:
    """The players and the table as ``simultaneously`` began (``flow["snapshot"]``).

    In a sealed game (one only the engine writes) whose threads' writes can be told
    (``table_writes``), nothing is copied that the threads cannot write: a part of the table
    none of them writes is the live part itself, and each player's sheet is the live one
    until that player's thread first writes it, then a sheet of its own whose sections are
    copied as they are first written (``hold``, called by ``Game.guard`` before each write to
    a player's data). Otherwise everything is copied. Whoever may write the state from
    outside gets copies (``unshare``).
    """
    state = game.state
    keys = game.table_keys
    writes = table_writes(game.rules, node) if game._sealed else None
    if writes is None:
        return deep_copy({key: state[key] for key in keys})
    copied = deep_copy({key: state[key] for key in keys if key in writes and key != "players"})
    snapshot = {key: copied[key] if key in copied else state[key] for key in keys}
    snapshot["players"] = list(state["players"])
    return snapshot


def hold(game, snapshot: dict, i: int, name: str) -> None:
    """Before seat ``i``'s data ``name`` is written while ``snapshot`` is open: the snapshot keeps
    the sections it lies in (a counter's with what was earned) as the block began, copied now
    if it still shares them with the live sheet (``_snapshot``); a name of no section, all.
    ``Game._held`` remembers, per seat, the names whose sections are held so for this snapshot
    (``guard`` asks it first): once held, a section is the snapshot's own until the block ends
    (nothing shares it again: a state put back or loaded comes with a new snapshot)."""
    held = game._held
    sheets = snapshot["players"]
    if held[0] is not snapshot:
        held = game._held = (snapshot, [set() for _ in sheets])
    live = game.state["players"][i]
    kept = sheets[i]
    if kept is live:                           # the first write: a sheet of its own, parts shared
        kept = sheets[i] = dict(live)
    try:
        sections, names = game.rules._sections[name]
    except (AttributeError, KeyError):
        sections, names = _sections(game.rules).get(name) or (tuple((key, deep_copy) for key in live),
                                                              (name,))
    for key, copy in sections:
        part = live.get(key)
        if part is not None and kept.get(key) is part:
            kept[key] = copy(part)
    held[1][i].update(names)


def _sections(rules) -> dict:
    """Player data name -> the sections of a sheet a write of it changes (``hold``), each with
    how it is copied (sections of whole numbers alone by a flat copy), and the names held with
    them (those whose sections these are, or some of these); once per ruleset. A name's sections
    are its kind's, and a counter's earnings with a counter (an earning cap counts them)."""
    found = rules.__dict__.get("_sections")
    if found is None:
        numbers = (("counters", dict.copy), ("earned", dict.copy))
        sections = {name: numbers if kind.state_key == "counters" else ((kind.state_key, deep_copy),)
                    for name, kind in rules.player_components.items() if kind.state_key is not None}
        keys = {name: {key for key, _ in parts} for name, parts in sections.items()}
        found = {name: (parts, tuple(other for other in sections if keys[other] <= keys[name]))
                 for name, parts in sections.items()}
        rules._sections = found
    return found


def unshare(game) -> None:
    """The snapshot's parts that are the live state's own (``_snapshot``), copied: for a
    state about to be written other than by the block's threads."""
    state = game.state
    snapshot = state["flow"].get("snapshot")
    game._swap = NO_SWAP                       # every part is held apart now (``labels``)
    if snapshot:
        for key, part in snapshot.items():
            if part is state.get(key):
                snapshot[key] = deep_copy(part)
        sheets, live = snapshot.get("players"), state.get("players")
        if sheets and live:
            for i, (kept, sheet) in enumerate(zip(sheets, live)):
                if kept is sheet:
                    sheets[i] = deep_copy(sheet)
                else:
                    for key, part in kept.items():
                        if part is sheet.get(key):
                            kept[key] = deep_copy(part)


_ANY = "any"
_WRITE_NOTHING = {ast.Block, ast.Amount, ast.Spend, ast.Lose, ast.Break, ast.Pass, ast.If, ast.ForEach,
                  ast.While, ast.As, ast.ChooseOne, ast.ChooseIn,
                  *set(ast.EXPRESSIONS) - {ast.Function}}   # by themselves (their parts are walked)


def table_writes(rules, node) -> frozenset | None:
    """The state keys of the table that the threads of ``simultaneously`` ``node`` may write, or
    None when that cannot be told from the text (a record's effect or a hook point may run,
    an impure function be called). Worked out once per node.

    Every statement and expression the threads can reach is walked: the block, the procedures
    it calls (``do proc()``, counters' ``on_gain``), the ruleset functions its expressions
    call, and every record's condition and visibility rule (read where a field is read).
    Players' sheets are not counted: a thread writes only its own (``Game.guard``), and the
    snapshot copies them all.
    """
    cached = node.__dict__.get("_table_writes", _UNSET)
    if cached is not _UNSET:
        return cached
    from ..mechanics import COMPONENTS, FUNCTIONS, VERBS
    keys: set = set()
    seen: set = set()
    todo = [node.body, *rules.expressions.values(), *rules.visibility.values()]
    hooks = [spec.get("on_gain") for spec in rules.counters.values() if spec.get("on_gain")]
    while todo and _ANY not in keys:
        tree = todo.pop()
        if id(tree) in seen:
            continue
        seen.add(id(tree))
        kind = tree.__class__
        if kind in (ast.Assign, ast.AugAssign):
            if len(tree.target) == 1 and tree.target[0] in rules.vars:
                keys.add("vars")
        elif kind is ast.SetTo:
            if tree.target.__class__ is ast.Name and tree.target.id in rules.vars:
                keys.add("vars")
        elif kind is ast.Gain:
            todo.extend(rules.procedures[hook][1] for hook in hooks)
        elif kind is ast.Call:
            if tree.verb == "do" and tree.arg.__class__ is ast.Function \
                    and tree.arg.name in rules.procedures:
                todo.append(rules.procedures[tree.arg.name][1])
            else:
                verb = VERBS.get(tree.verb)    # a verb that runs programs writes anything
                sections = verb.writes if verb is not None else None
                if sections is None:
                    keys.add(_ANY)
                else:
                    keys.update(COMPONENTS[section].state_key for section in sections)
        elif kind is ast.Function:
            if tree.name in rules.functions:
                todo.append(rules.functions[tree.name][1])
            elif tree.name in FUNCTIONS and FUNCTIONS[tree.name].writes_table:
                keys.add(_ANY)                 # it may run programs
        elif kind not in _WRITE_NOTHING:       # a nested block, or a kind unknown here
            keys.add(_ANY)
        todo.extend(tree.children())
    result = None if _ANY in keys else frozenset(keys)
    object.__setattr__(node, "_table_writes", result)
    return result


# ---------------------------------------------------------------- decisions
#
# A decision knows its option count; its labels are built only when read
# (``labels``: a person, a view, the log line of the chosen option), from
# the waiting frame and its node, so they need nothing in the state. They
# read the state as it is then: the same as when the question was asked,
# except during ``simultaneously``, where another player's thread may have
# run since (a label reading what that thread changed shows it changed).

def _decide(game, th, frame, count, prompt, who):
    """Pause ``th`` on a decision of ``count`` options, or take it at once when there is no real choice.

    ``count`` may instead be the list of labels, built already (kept in the state).
    """
    if count.__class__ is list:                # the labels, built already
        if len(count) != 1:
            th["pending"] = {"player": _asked(game, who), "prompt": prompt, "count": len(count),
                             "labels": count}
            return WAIT
        label = count[0]
    elif count != 1:
        i = who.seat if who.__class__ is Player else _asked(game, who)
        if i >= game.people:
            _asked(game, who)
        th["pending"] = {"player": i, "prompt": prompt, "count": count}
        return WAIT
    else:
        label = None
    # One option: taken at once, with its log line. A lone choice's ``otherwise`` (nothing else
    # to choose: the usual forced decision) is named without the labels' machinery.
    frame["answer"] = 0
    node = game.rules.nodes[frame["n"]]
    if label is None:
        if node.__class__ is _CHOOSE_IN and node.otherwise is not None:   # (the count is its options')
            label = node.otherwise_label or "none of these"
        else:
            label = labels(game, th, (0,))[0]
    _taken(game, th, node, prompt, who, label)
    return None


def only_otherwise(game, th, n: int, who) -> None:
    """A ``choose`` (node id ``n``, asked of ``who``) left with its ``otherwise`` alone, taken at
    once: its log line (and a scenario's record of it) as ``_decide`` writes it, with no frame,
    no labels and no answer. For a generated block, which knows the choice has an ``otherwise``
    and runs it next; an error is placed at the choice, as its frame would place it."""
    node = game.rules.nodes[n]
    try:
        prompt = None if game.forced is None else node.prompt or f"choose {node.var}"
        _taken(game, th, node, prompt, who, node.otherwise_label or "none of these")
    except RuleError as exc:
        raise located(game, exc, node) from None
    except Exception as exc:
        raise internal(game, exc, node) from exc


def _taken(game, th, node, prompt, who, label: str) -> None:
    """The log line of ``label``, the only option of ``node``'s decision, taken at once for
    ``who`` (and, for a scenario to check, what was taken: ``game.forced``)."""
    if who is None:
        if game.forced is not None:
            game.forced.append((None, prompt, label))
        game.log(f"{describe(who)}: {label} (only option)")
        return
    i = who.seat if who.__class__ is Player else seat(who)
    if game.forced is not None:
        game.forced.append((i, prompt, label))
    names = game.seat_names
    telling.log_choice(game, th, node, i, f"{names[i] if i < len(names) else seat_label(i)}: {label} (only option)")


def _asked(game, who) -> int:
    """The seat of ``who``, asked a decision: a person's (else the rule error)."""
    i = seat(who)
    if i >= game.people:
        raise RuleError(f"{game.seat_name(i)} is a scripted seat: it is never asked a decision")
    return i


def labels(game, th, ks=None) -> list:
    """Labels ``ks`` (default: all) of the decision ``th``'s top frame is making or waits on.

    Labels are built when read, not when asked. While players choose at
    once, a player's labels are read from the state as that player's view
    shows it (everyone else, and the table, as the block began), so a label
    never tells what another player chose in the meantime. A label that
    reads no state (built already, "none of these", an option's own name,
    an alternative's text) is built without that.
    """
    pending = th["pending"]
    if pending is not None and "labels" in pending:      # built at once (or a state saved so)
        every = pending["labels"]
        return list(every) if ks is None else [every[k] for k in ks]
    frame = th["frames"][-1]
    node = game.rules.nodes[frame["n"]]
    if ks is None:
        ks = range(pending["count"])
    kind = node.__class__
    if kind is ast.Call:                       # a verb's own decision: its labels may read anything
        build = game.verbs[node.verb].labels
    elif kind is ast.ChooseIn and node.label is not None:
        if node.otherwise is not None and len(ks) == 1 and ks[0] == len(frame["opts"]) - 1:
            return [node.otherwise_label or "none of these"]
        build = _choose_in_labels
    else:                                      # an option's own name, an alternative's text
        return LABELS[kind](game, th, frame, node, ks)
    return _in_view(game, th, build, (game, th, frame, node, ks))


def label(game, th, k: int) -> str:
    """Label ``k`` of the decision ``th`` waits on, as ``labels(game, th, (k,))[0]`` gives it: the
    chosen option's, for the answer's log line, built (with a budget of its own) before the
    answer changes anything, its errors placed."""
    frame = th["frames"][-1]
    node = game.rules.nodes[frame["n"]]
    expr = node.label if node.__class__ is _CHOOSE_IN else None     # None: built as ``labels`` does
    if expr is not None:
        if "labels" in th["pending"]:
            expr = None
        else:
            opts = frame["opts"]
            if k == len(opts) - 1 and node.otherwise is not None:
                return node.otherwise_label or "none of these"
    saved = game.thread
    game.thread = th
    budget.reset(game)
    try:
        if expr is None:
            return labels(game, th, (k,))[0]
        env = th["envs"][-1]
        var = node.var
        before = env.get(var, _UNSET)
        env[var] = opts[k]
        try:
            text = _in_view(game, th, expr.__dict__.get("_fn") or compiled(expr), (Ctx(game, env),))
        finally:
            if before is _UNSET:               # labelling binds nothing
                del env[var]
            else:
                env[var] = before
        return text if text.__class__ is str else describe(text, game.seat_names)
    except RuleError as exc:
        raise located(game, exc, node) from None
    finally:
        game.thread = saved


_CHOOSE_IN = ast.ChooseIn


def _in_view(game, th, build, args):
    """``build(*args)`` on the state as ``th``'s player sees it (see ``labels``): inside
    ``simultaneously``, the other players' sheets and the table's parts a thread may write as
    the block began, with a memo of its own; the live state given back as it was."""
    state = game.state
    flow = state["flow"]
    snapshot = flow["snapshot"]
    if snapshot is None or th is flow["main"]:
        return build(*args)
    players = state["players"]
    seen = list(snapshot["players"])           # the others as the block began, the player live
    me = th["envs"][0]["self"].seat
    seen[me] = players[me]
    swap = game._swap
    if swap[0] is not snapshot:                # the parts held apart, found once per snapshot
        swap = game._swap = _swapped(state, snapshot)
    apart = swap[1]                            # (a part no thread writes is the live one: kept)
    live = dict(zip(apart, map(state.__getitem__, apart)))
    state.update(swap[2])
    state["players"] = seen
    memo = game.memo                           # kept for the live state, which comes back as it was
    game.memo = {}
    try:
        return build(*args)
    finally:
        state["players"] = players
        state.update(live)
        game.memo = memo


def _swapped(state, snapshot) -> tuple:
    """``Game._swap`` for ``snapshot``: it, the table's parts it holds apart from the live
    state (not the players'), and those parts as it holds them."""
    apart = [key for key, part in snapshot.items() if key != "players" and part is not state[key]]
    return snapshot, apart, {key: snapshot[key] for key in apart}


def _choose_one_labels(game, th, frame, node, ks):
    return [game.rules.explain(node.alternatives[k]) for k in ks]


def _choose_in_labels(game, th, frame, node, ks):
    opts = frame["opts"]
    none_of_these = len(opts) - 1 if node.otherwise is not None else -1
    if node.label is None:                     # the options' own names: no state read
        names = game.seat_names
        return [node.otherwise_label or "none of these" if k == none_of_these else describe(opts[k], names)
                for k in ks]
    env = th["envs"][-1]
    ctx = Ctx(game, env)
    label = node.label.__dict__.get("_fn") or compiled(node.label)     # as ``evaluate`` finds it
    before = env.get(node.var, _UNSET)
    out = []
    try:
        for k in ks:
            if k == none_of_these:
                out.append(node.otherwise_label or "none of these")
            else:
                env[node.var] = opts[k]
                text = label(ctx)
                out.append(text if type(text) is str else describe(text, game.seat_names))
    finally:
        if before is _UNSET:                   # labelling binds nothing
            env.pop(node.var, None)
        else:
            env[node.var] = before
    return out


def _choose_one(game, th, frame, node):
    if "answer" not in frame:
        ctx = ctx_of(game, th)
        if _decide(game, th, frame, len(node.alternatives), node.prompt or "choose one",
                   ctx.env.get("self")) is WAIT:
            return WAIT
    th["frames"].pop()
    push(game, th, node.alternatives[frame["answer"]])
    return None


def _choose_in(game, th, frame, node):
    if "answer" not in frame:
        ctx = ctx_of(game, th)
        env = ctx.env
        values = items_of(evaluate(node.iterable, ctx), game.state)
        if type(values) is not list:
            raise RuleError(f"'choose' needs a list, got {describe(values)}")
        cond = node.cond
        generated = node.__dict__.get("_options")      # the filter compiled to Python (codegen)
        if cond is None:
            options = list(values)
        elif generated is not None:
            options = generated(ctx, values)
        else:
            options = choices(ctx, node, values)
        tracer = game.tracer
        if tracer is not None and cond is not None:    # the trace hook: the filter's two outcomes
            if options:
                tracer.ran(game, node, "kept")
            if len(options) < len(values):
                tracer.ran(game, node, "dropped")
        if node.otherwise is not None:
            options.append(None)
        if not options:
            th["frames"].pop()                 # nothing to choose from: nothing happens
            return None
        frame["opts"] = options
        prompt = node.prompt or f"choose {node.var}"
        if _decide(game, th, frame, len(options), prompt, env.get("self")) is WAIT:
            return WAIT
    opts, answer = frame["opts"], frame["answer"]
    th["frames"].pop()
    if node.otherwise is not None and answer == len(opts) - 1:
        push(game, th, node.otherwise)
    else:
        th["envs"][-1][node.var] = opts[answer]
        push(game, th, node.body)
    return None


def _choose_in_runner(table, node, node_id):
    """``_choose_in`` for one ``choose``: once answered, the chosen option's body (or the
    ``otherwise``) is pushed (as ``push``) and run."""
    var, body, otherwise = node.var, node.body, node.otherwise
    n_body = node_id[id(body)]
    n_otherwise = None if otherwise is None else node_id[id(otherwise)]

    def run_choice(game, th, frame):
        if "answer" not in frame:
            return _choose_in(game, th, frame, node)
        opts, answer = frame["opts"], frame["answer"]
        del th["frames"][-1]
        if otherwise is not None and answer == len(opts) - 1:
            return _run_pushed(game, th, table, n_otherwise, otherwise)
        th["envs"][-1][var] = opts[answer]
        return _run_pushed(game, th, table, n_body, body)
    return run_choice


def _run_pushed(game, th, table, n: int, block):
    """Push ``block`` (node id ``n``) as ``push`` does (a step, the stack's depth checked) and run
    its frame at once from ``table`` (what the machine would run next)."""
    frames = th["frames"]
    game.steps -= 1
    if game.steps < 0 or len(frames) >= budget.MAX_FRAMES:
        raise budget.exceeded(game, th, block)
    pushed = {"n": n}
    frames.append(pushed)
    return table[n](game, th, pushed)


def choices(ctx, node, values) -> list:
    """The values of ``choose x in xs if c`` for which ``c`` holds, by the closures (binding nothing)."""
    env, var, state = ctx.env, node.var, ctx.game.state
    before = env.get(var, _UNSET)
    options = []
    for value in values:
        env[var] = value
        if truth(evaluate(node.cond, ctx), state):
            options.append(value)
    if before is _UNSET:                   # listing the options binds nothing
        env.pop(var, None)
    else:
        env[var] = before
    return options


def answer(game, th: dict, player: int, index: int, label: str) -> None:
    """``player``'s answer ``index`` (already validated; ``label`` its option's) to ``th``'s
    pending decision: kept in the history, told as the choice declares, recorded in the
    waiting frame, and the game runs on (``run``). Every answer, a replayed one too, is this."""
    game.memo.clear()
    game.state["history"].append([player, index])
    game.thread = th
    frame = th["frames"][-1]
    telling.log_choice(game, th, game.rules.nodes[frame["n"]], player,
                       f"{game.seat_names[player]} chose: {label}")
    frame["answer"] = index
    th["pending"] = None
    run(game, th)


# ---------------------------------------------------------------- statements with frames of their own

def _verb_frame(game, th, frame, node):
    """A frame a verb pushed for itself (a chain of hook handlers): the verb resumes it."""
    return game.verbs[node.verb].resume(game, th, frame, node)


def decide(game, th, frame, count, prompt, who):
    """For mechanics: pause ``th`` on a decision of ``count`` options (see ``_decide``); WAIT or None.

    Its labels come from the verb's ``labels(game, th, frame, node, ks)``.
    """
    return _decide(game, th, frame, count, prompt, who)


# Filled by interpreter.engine.statements (simple statements: gain, spend,
# assignments, verbs) so this module stays about control flow.
SIMPLE: dict = {}

EXECUTE = {
    ast.Block: _block,
    ast.If: _if,
    ast.ForEach: _for_each,
    ast.While: _while,
    ast.As: _as,
    ast.Simultaneously: _simultaneously,
    ast.ChooseOne: _choose_one,
    ast.ChooseIn: _choose_in,
    ast.Call: _verb_frame,  # verbs run inline in _block; a frame is one a verb scheduled
}

LABELS = {ast.ChooseOne: _choose_one_labels, ast.ChooseIn: _choose_in_labels}

# Runners made for one node (``_Runners``): the executor's work with what it looks up found once.
_RUNNERS = {ast.While: _while_runner, ast.ChooseIn: _choose_in_runner}
