"""The public face of a game in progress: decisions in, views and scores out.

    game = Game.new(load_ruleset("mygame"), players=3, seed=7)
    while not game.over:
        d = game.pending()[0]                 # who decides, and the options
        game.apply(d.player, 0)               # by index, or by label
    game.result                               # scores, winners

The whole state is ``game.state``: plain JSON-able data. ``Game.load``
rebuilds a game from it; ``replay`` re-runs a recorded history.
"""
from __future__ import annotations

import io
import json
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from .. import mechanics
from ..mechanics import zones
from ..mechanics.counters import Counters
from . import budget, codegen
from . import machine, scoring, statements, telling  # noqa: F401  (statements fills the machine's table)
from .compile import compiled
from ..content.options import resolve_options
from .evaluate import Ctx, attribute, evaluate
from .views import _visible, seeing, view as _view_of
from ..model.rng import seed_state
from ..model.values import (Condition, InternalError, Player, RuleError, decode, describe, encode,
                            plain_copy, seat_label, to_plain)

FORMAT = 2     # 2: engine values are tagged records ({"$": "player", ...}); scripted seats


class IllegalAction(Exception):
    """An action the rules do not allow now; the state is unchanged."""


class Labels(Sequence):
    """The labels of a decision's options, built on first read (a count costs nothing).

    ``fetch(indices)`` builds the labels at those indices; one label read
    alone (``labels[k]``) builds only that one. They are read from the state
    as it stands while the decision waits: read them (or ``freeze()``)
    before the decision is answered.
    """

    __slots__ = ("count", "_fetch", "_all")

    def __init__(self, count: int, fetch):
        self.count = count
        self._fetch = fetch
        self._all = None

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, k):
        if self._all is None and type(k) is int and -self.count <= k < self.count:
            return self._fetch((k % self.count,))[0]
        return self._built()[k]

    def __iter__(self):
        return iter(self._built())

    def __contains__(self, label) -> bool:
        return label in self._built()

    def freeze(self) -> "Labels":
        """Build every label now, so they can be read after the decision is answered."""
        self._built()
        return self

    def _built(self) -> tuple:
        if self._all is None:
            self._all = tuple(self._fetch(None))
        return self._all

    def __eq__(self, other) -> bool:
        if isinstance(other, (Labels, tuple, list)):
            return self._built() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._built())

    def __repr__(self) -> str:
        return repr(self._built())


@dataclass(frozen=True, init=False)
class Decision:
    """A choice one player must make: options have stable indices and labels.

    ``options`` is a sequence of labels built when read; ``count`` is how
    many there are without building any (what a random or first bot needs).
    """
    player: int
    prompt: str
    options: Sequence

    def __init__(self, player: int, prompt: str, options: Sequence):
        # Frozen: the fields are written once, here, without the dataclass's three
        # object.__setattr__ calls (``pending`` makes one at every decision).
        fields = self.__dict__
        fields["player"], fields["prompt"], fields["options"] = player, prompt, options

    @property
    def count(self) -> int:
        return len(self.options)

    def to_dict(self) -> dict:
        return {"player": self.player, "prompt": self.prompt, "options": list(self.options)}

    def find(self, label: str) -> int | None:
        """The index of the option with this label (case and spacing aside), or None."""
        folded = [_fold(option) for option in self.options]
        return folded.index(_fold(label)) if _fold(label) in folded else None


_new_labels = partial(object.__new__, Labels)        # a blank one, made in C (``Game.pending``)
_new_decision = partial(object.__new__, Decision)


def _expansions_differ(rules, saved: list) -> str:
    """Why a state saved with other expansions cannot load, and what to load instead."""
    def named(names):
        return ", ".join(names) if names else "no expansion"
    flags = "".join(f" -x {name}" for name in saved)
    return (f"this game was played with {named(saved)}, but '{rules.id}' is loaded with "
            f"{named(list(rules.expansions))}: load it with the same expansions "
            f"(rulebook ... {rules.id}{flags})")


class Game:
    """A game of a loaded ruleset; all of its state is ``self.state``."""

    # The engine's own attributes are slots: ``apply`` swaps the class (``_Sealed``), which on
    # CPython 3.11 leaves every read of an instance dict's attribute unspecialised (about three
    # times slower). ``__dict__`` is for attributes others set (a tool's, a test's).
    __slots__ = ("rules", "people", "seat_names", "thread", "block_open", "table_keys", "counters", "verbs",
                 "functions", "runners", "memo", "_partial", "_sealed", "_base", "_swap", "_held",
                 "queued", "pause", "paused", "forced", "steps", "depth", "running", "state", "__dict__")

    tracer = None
    """Told what runs, for the workbench (``tracer.ran(game, node, arm=None)``; docs/architecture.md
    "The trace hook"): None, the default, costs one test per block and statement; ``Game.new(tracer=)``
    sets it on one game, setting it on the class traces every game of the process."""

    def __init__(self, rules, state: dict):
        self.rules = rules
        # True while the machine runs (``machine.run``): an ``evaluate`` then (a built-in reading
        # a ruleset function) spends the run's budget instead of starting one of its own.
        self.running = False
        self.state = state
        self.people = state["people"]
        self.seat_names = [seat_label(i) for i in range(self.people)] + [
            rules.scripted_seats[sid].get("name", sid) for sid in state["scripted"]]
        self.thread = None
        self.block_open = block_open(state)
        self.table_keys = ["players"] + [k for k in state if k in _COMPONENT_KEYS]   # for snapshots
        self.counters = Counters(self)
        self.verbs = mechanics.VERBS
        self.functions = {name: f.fn for name, f in mechanics.FUNCTIONS.items()}
        generated = codegen.program_of(rules).functions if codegen.ENABLED else {}
        for name, (params, tree) in rules.functions.items():
            self.functions[name] = generated.get(name) or _user_function(name, params, tree)
        self.runners = machine.runners(rules)      # what runs each frame (after codegen installed its blocks)
        self.memo: dict = {}       # results of the ruleset's functions while the state stands still
        self._partial = None       # apply's checkpoint of one player's sheet (see _copied)
        self._sealed = False       # only the engine has read the state: a failed call is undone by replay
        self._base = None          # the sealed game's last saved position (see _replay_point)
        self._swap = machine.NO_SWAP   # the snapshot's parts a label swaps in (machine.labels)
        self._held = machine.NO_HELD   # what the snapshot keeps already (machine.hold)
        self.queued: list = []     # programs the running statement asked to run next (never saved)
        self.pause = None          # scenarios: stop(game) -> bool, asked after each statement
        self.paused = False        # stopped between statements by ``pause`` (see ``resume``)
        self.forced = None         # scenarios: a list, given (seat, prompt, label) of each forced decision
        budget.reset(self)         # steps and call depth left (model.budget)

    # ------------------------------------------------------------- creating
    @classmethod
    def new(cls, rules, players: int | None = None, seed: int = 0, options: dict | None = None,
            tracer=None) -> "Game":
        """Set up a new game and run it to its first decision (``tracer``: see ``Game.tracer``)."""
        count = players if players is not None else rules.players.get("default", rules.players["min"])
        if not rules.players["min"] <= count <= rules.players["max"]:
            raise ValueError(f"{rules.title} is for {rules.players['min']} to "
                             f"{rules.players['max']} players, not {count}")
        scripted = rules.scripted_for(count)
        state = {
            "format": FORMAT, "game": rules.id, "expansions": list(rules.expansions),
            "fingerprint": rules.fingerprint, "seed": seed,
            "options": resolve_options(rules, options or {}, count),
            "rng": seed_state(seed),
            "people": count, "scripted": scripted,
            "players": [_new_components(rules, True) for _ in range(count + len(scripted))],
            **_new_components(rules, False),
            "flow": {"main": machine.new_thread([], {"self": None}), "threads": [], "snapshot": None},
            "log": [], "history": [], "result": None,
        }
        game = cls(rules, state)
        if tracer is not None:
            game.tracer = tracer
        zones.start_filled(game)
        machine.push(game, state["flow"]["main"], rules.start)
        machine.run(game)
        return _sealed(game)

    @classmethod
    def load(cls, rules, state: dict) -> "Game":
        """A game from a saved state (checked against the ruleset it was made with)."""
        if state.get("format") != FORMAT:
            raise ValueError(f"this state has format {state.get('format')!r}; this version reads {FORMAT}")
        if state.get("game") != rules.id:
            raise ValueError(f"this state is a game of '{state.get('game')}', not '{rules.id}'")
        saved = list(state.get("expansions") or [])
        if saved != list(rules.expansions):
            raise ValueError(_expansions_differ(rules, saved))
        if state.get("fingerprint") != rules.fingerprint:
            raise ValueError("this state was saved with a different version of the ruleset")
        return cls(rules, state)

    def to_json(self) -> str:
        # Key order is kept (not sorted), so records read back exactly as they were.
        return json.dumps(sealed_state(self), separators=(",", ":"), ensure_ascii=False, default=encode)

    def to_data(self) -> dict:
        """The state as pure JSON data: engine values written as ``{"$": kind, ...}``."""
        return to_plain(sealed_state(self))

    @classmethod
    def from_json(cls, rules, text: str) -> "Game":
        """A game from ``to_json`` text, checked first (``schemas/state.schema.json``, then the
        ruleset: node ids, seats, components); a tampered or foreign state raises
        ``saved.StateError`` (a ValueError) naming the JSON path of what is wrong."""
        from .saved import StateError, check_state
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"a saved state is JSON: {exc}") from None
        if isinstance(data, dict) and data.get("format") != FORMAT:
            raise StateError(f"this state has format {data.get('format')!r}; this version reads {FORMAT}")
        if isinstance(data, dict) and list(data.get("expansions") or []) != list(rules.expansions):
            raise StateError(_expansions_differ(rules, data.get("expansions") or []))
        check_state(rules, data)
        return _sealed(cls.load(rules, json.loads(text, object_hook=decode)))

    def clone(self) -> "Game":
        return _sealed(Game(self.rules, plain_copy(sealed_state(self))))

    # ------------------------------------------------------------- seats
    def seat_name(self, i: int) -> str:
        """How people read seat ``i`` (0-based): P1, P2, ... or a scripted seat's name."""
        return self.seat_names[i] if 0 <= i < len(self.seat_names) else seat_label(i)

    def scripted_seat(self, sid: str):
        """The scripted seat ``sid`` as a player value, or none if it is not in this game."""
        scripted = self.state["scripted"]
        return Player(self.people + scripted.index(sid)) if sid in scripted else None

    def describe(self, value) -> str:
        """A value as people read it, with this game's seat names."""
        return describe(value, self.seat_names)

    # ------------------------------------------------------------- deciding
    @property
    def over(self) -> bool:
        return sealed_state(self)["result"] is not None

    @property
    def result(self) -> dict | None:
        """``{"scores": [...], "winners": [seats], "ranks": [...], "returns": [...]}`` once over.

        ``returns`` (floats, see engine/returns.py) are worked out here, never stored.
        """
        result = sealed_state(self)["result"]
        if result is None:
            return None
        from .returns import returns_of
        return {**result, "returns": returns_of(self, result)}

    def _threads(self):
        flow = sealed_state(self)["flow"]
        return flow["threads"] or [flow["main"]]

    def pending(self) -> list[Decision]:
        """Every decision waiting for an answer (several during simultaneous play)."""
        flow = sealed_state(self)["flow"]
        out = []
        fetch = self._fetch
        for th in flow["threads"] or (flow["main"],):
            p = th["pending"]
            if p is not None:                  # a new Decision each time: an answered one refuses
                # Decision(player, prompt, Labels(count, fetch)), made without running their
                # __init__ (one per waiting thread at every decision: a Python call each)
                labels = _new_labels()
                labels.count = p["count"] if "count" in p else len(p["labels"])     # (as ``_labels``)
                labels._fetch = partial(fetch, th, p)
                labels._all = None
                d = _new_decision()
                fields = d.__dict__
                fields["player"], fields["prompt"], fields["options"] = p["player"], p["prompt"], labels
                out.append(d)
        return out

    def _labels(self, th: dict, p: dict | None = None) -> Labels:
        """The lazy labels of ``th``'s pending decision ``p`` (a state saved with them built reads them)."""
        if p is None:
            p = th["pending"]
        count = p["count"] if "count" in p else len(p["labels"])
        return Labels(count, partial(self._fetch, th, p))      # (a partial: made and called in C)

    def _fetch(self, th: dict, p: dict, ks) -> list:
        """Labels ``ks`` (None: all) of ``th``'s decision ``p``, which must still be waiting."""
        if th["pending"] is not p:
            raise RuntimeError("this decision was answered or worked out again: read its "
                               "options before answering it (or freeze them)")
        saved, sealed = self.thread, self.__class__ is _Sealed
        self.thread = th
        if sealed:                         # labels are strings: reading them hands out no state
            self.__class__ = Game
        budget.reset(self)                 # outside a run: the labels get a budget of their own
        try:
            return machine.labels(self, th, ks)
        except RuleError as exc:
            raise machine.located(self, exc, self.rules.nodes[th["frames"][-1]["n"]]) from None
        finally:
            self.thread = saved
            if sealed:
                self.__class__ = _Sealed

    def answered(self) -> tuple[int, list | None]:
        """How many answers the game has had, and the last one (``[player, index]``), read
        without ``state`` (reading it makes a sealed game copy before every call)."""
        history = sealed_state(self)["history"]
        return len(history), (list(history[-1]) if history else None)

    def decision_for(self, player: int) -> Decision | None:
        for d in self.pending():
            if d.player == player:
                return d
        return None

    def legal_actions(self, player: int) -> list[int]:
        d = self.decision_for(player)
        return list(range(len(d.options))) if d else []

    def apply(self, player: int, choice) -> None:
        """Answer ``player``'s pending decision with an option index or label.

        ``player`` is a seat number (an int) of a person; ``choice`` an option's
        index (an int) or label. Anything else raises IllegalAction with the
        reason. The call is all or nothing: if the content fails part-way
        (a RuleError naming the statement's ``file:line:col``) or the engine
        does (an InternalError), the state, history and log included, is
        exactly what it was before.
        """
        sealed = self.__class__ is _Sealed
        if sealed:
            self.__class__ = Game              # the engine's own reads of the state for this call
        try:
            if type(player) is not int or not 0 <= player < self.people:
                self._seat(player)             # not a person's seat: says why
            th = self._waiting_thread(player)
            p = th["pending"]
            if type(choice) is int and "count" in p and 0 <= choice < p["count"]:
                index = choice                 # the usual answer, checked without a Labels
            else:
                index = self._index(choice, self._labels(th))
            label = machine.label(self, th, index)     # built before anything changes: it may fail
            self._all_or_nothing(th, machine.answer, self, th, player, index, label)
        finally:
            if sealed and self._sealed:
                self.__class__ = _Sealed

    def resume(self) -> None:
        """Run on to the next decisions after a stop between statements (``pause``)."""
        if self.paused:
            self.paused = False
            self._all_or_nothing(None, machine.run, self)

    def _all_or_nothing(self, th: dict | None, run, *args) -> None:
        """``run(*args)``; on any error in it, put the state back as it was, and report the error
        as ours or the content's. (A plain call, not a context manager: ``apply`` pays it at every
        decision.)"""
        # What a failed call restores: a replay point if the game is sealed, else a copy.
        if self._sealed:
            if self.pause is None and self.forced is None and self.tracer is None:
                saved = self._replay_point()
            else:
                self._expose()                 # a scenario's stop or a trace would not replay alike
                saved = self._copied(th)
        else:
            saved = self._copied(th)
        try:
            run(*args)
        except BaseException as exc:
            self._restore(saved)
            reported = _reported(exc)
            if reported is exc:
                raise
            raise reported from exc
        finally:
            self._partial = None

    def _seat(self, player) -> int:
        """``player`` checked: the seat number of a person in this game."""
        if type(player) is not int:
            raise IllegalAction(f"a seat is a whole number (0 is {self.seat_name(0)}), not {player!r}")
        if not 0 <= player < len(self.seat_names):
            raise IllegalAction(f"there is no seat {player} in this game "
                                f"(seats 0..{len(self.seat_names) - 1})")
        if player >= self.people:
            raise IllegalAction(f"{self.seat_name(player)} (seat {player}) is a scripted seat: "
                                "it never decides")
        return player

    def _replay_point(self) -> tuple:
        """Where a sealed game stands, cheaply: a failed call goes back to the saved position and
        replays the answers given since (same state + same answers = same game).

        The saved position (``_base``: the state but its log and history, pickled, and their
        lengths) is taken again every ``REPLAY_SPAN`` answers, so a replay stays short.
        """
        state = self.state
        n_history = len(state["history"])
        base = self._base
        if base is None or n_history - base[3] >= REPLAY_SPAN:
            self._base = (list(state), _pickled({key: value for key, value in state.items()
                                                 if key != "log" and key != "history"}),
                          len(state["log"]), n_history)
        flow = state["flow"]
        return (_REPLAY, len(state["log"]), n_history, state["rng"], self.thread, flow["main"],
                flow["threads"])

    def _expose(self) -> None:
        """Someone outside the engine has the state now (and may write it): copy before each call."""
        self._sealed = False
        self._base = None
        if self.__class__ is _Sealed:
            self.__class__ = Game
        machine.unshare(self)                  # the snapshot keeps the table as it was, whoever writes it

    def _copied(self, th: dict | None) -> tuple:
        """What a failed call restores, taken cheaply (``apply`` runs at every decision).

        The log and history only grow: their lengths are kept. In the flow,
        only the main thread and ``th`` can change (the others wait), and the
        snapshot is replaced, never changed: those are shared, the two
        pickled (every thread if ``th`` is None) with the rest, in one dump
        of fast C code, read back only if the call fails.
        """
        state = self.state
        flow = state["flow"]
        rest = {key: value for key, value in state.items() if key not in _KEPT_APART}
        partial = None
        if th is None:
            changing = flow                            # every thread may run: copy the whole flow
        else:
            changing = {"main": flow["main"]}          # the others wait: only these two can change
            if th is not flow["main"]:
                changing["th"] = th
                # A player's thread may change only that player's sheet and the table's (``guard``):
                # the other sheets are pickled only if the threads join (then the main thread runs).
                me = th["envs"][0]["self"].seat
                partial = self._partial = {"me": me, "players": state["players"], "others": None}
                rest["players"] = state["players"][me]
        return (list(state), len(state["log"]), len(state["history"]),
                _pickled((rest, changing)), dict(flow), th, self.thread, partial)

    def on_join(self) -> None:
        """The threads of ``simultaneously`` are done and the main thread runs on: the sheets
        a partial checkpoint left out (unchanged so far) are pickled now."""
        partial = self._partial
        if partial is not None and partial["others"] is None:
            me = partial["me"]
            partial["others"] = _pickled([p for i, p in enumerate(partial["players"]) if i != me])

    def _restore(self, saved: tuple) -> None:
        """Put back what ``_all_or_nothing`` took, in the same key order (so ``to_json`` is equal)."""
        if saved[0] is _REPLAY:
            return self._replay_back(saved)
        keys, n_log, n_history, pickled, flow, th, thread, partial = saved
        state = self.state
        log, history = state["log"], state["history"]
        del log[n_log:]
        del history[n_history:]
        parts, changing = pickle.loads(pickled)
        if th is None:
            flow = changing
        else:                                  # the waiting threads were shared, never changed
            flow["main"] = changing["main"]
            flow["threads"] = [changing["th"] if t is th else t for t in flow["threads"]]
        if partial is not None:                # one sheet pickled; the others as they were
            me = partial["me"]
            others = (pickle.loads(partial["others"]) if partial["others"] is not None
                      else [p for i, p in enumerate(partial["players"]) if i != me])
            others.insert(me, parts["players"])
            parts["players"] = others
        parts.update(log=log, history=history, flow=flow)
        state.clear()
        state.update((key, parts[key]) for key in keys)
        self.thread = thread
        self.block_open = block_open(state)
        self.memo.clear()
        self.queued.clear()

    def _replay_back(self, saved: tuple) -> None:
        """Back to ``_replay_point``: the saved position, then the answers given after it, again."""
        _, n_log, n_history, rng, thread, main, threads = saved
        keys, pickled, base_log, base_history = self._base
        state = self.state
        log, history = state["log"], state["history"]
        answers = history[base_history:n_history]
        del log[base_log:]
        del history[base_history:]
        parts = pickle.loads(pickled)
        parts.update(log=log, history=history)
        state.clear()
        state.update((key, parts[key]) for key in keys)
        self.thread = None
        self.block_open = block_open(state)
        self.memo.clear()
        self.queued.clear()
        try:
            for player, index in answers:
                th = self._waiting_thread(player)
                machine.answer(self, th, player, index, self._labels(th)[index])
        except Exception as exc:
            raise InternalError(f"a failed call could not be undone: replaying an answer raised "
                                f"{type(exc).__name__}: {exc}") from exc
        if (len(log), len(history), state["rng"]) != (n_log, n_history, rng):
            raise InternalError("a failed call could not be undone: the replay came out different")
        flow = state["flow"]                   # the running thread, found again by its place
        self.block_open = block_open(state)
        self.thread = (None if thread is None else flow["main"] if thread is main
                       else next((t for t, old in zip(flow["threads"], threads) if old is thread), None))

    def _waiting_thread(self, player: int) -> dict:
        state = sealed_state(self)
        if state["result"] is not None:
            raise IllegalAction("the game is over")
        flow = state["flow"]
        threads = flow["threads"]
        if player < len(threads):              # a block over the players: seat k's thread is k-th
            th = threads[player]
            p = th["pending"]
            if p is not None and p["player"] == player:
                return th
        for th in threads or (flow["main"],):
            p = th["pending"]
            if p is not None and p["player"] == player:
                return th
        waiting = sorted({d.player for d in self.pending()})
        raise IllegalAction(f"{self.seat_name(player)} has no decision to make now "
                            f"(waiting for {', '.join(map(self.seat_name, waiting)) or 'nobody'})")

    @staticmethod
    def _index(choice, labels) -> int:
        if isinstance(choice, bool):
            raise IllegalAction("an option is chosen by its number or its label")
        if isinstance(choice, int):
            if 0 <= choice < len(labels):
                return choice
            raise IllegalAction(f"option {choice} does not exist (there are {len(labels)}: 0..{len(labels) - 1})")
        if isinstance(choice, str):
            labels = list(labels)
            if choice in labels:
                return labels.index(choice)
            folded = [_fold(label) for label in labels]          # case and spacing aside
            if _fold(choice) in folded:
                return folded.index(_fold(choice))
            raise IllegalAction(f"no option is labelled {choice!r}")
        raise IllegalAction(f"cannot choose {choice!r}: an option is chosen by its number "
                            f"(0..{len(labels) - 1}) or its label")

    def view(self, player: int) -> dict:
        """What ``player`` may know (see engine.views)."""
        return _view_of(self, player)

    def preview_score(self, player: int, index: int, seed: int = 0) -> float:
        """Score ``player``'s option ``index`` on a copy built from that player's view alone.

        Used by look-ahead bots: hidden cards, values and the random stream
        are sampled afresh (engine.determinise), so a preview reveals nothing.
        """
        from .determinise import previewer
        return previewer(self, player, seed)(index)

    # ------------------------------------------------------------- used by the machine
    def call(self, root, env: dict) -> None:
        """Run program ``root`` with locals ``env`` right after the running statement."""
        self.queued.append((root, env, {}))

    def push_call(self, th: dict, root) -> None:
        """For a verb resuming its own frame: push a call of ``root`` (its locals already pushed)."""
        machine.push(self, th, root, call=True)

    def decide(self, th: dict, frame: dict, count, prompt: str, who):
        """For a verb resuming its own frame: pause on a decision of ``count`` options (or of a
        list of labels built already); a truthy result means wait. The verb's ``labels``
        names the options when someone reads them."""
        return machine.decide(self, th, frame, count, prompt, who)

    def record_field(self, rid: str, name: str, i: int):
        """Field ``name`` of record ``rid`` read for seat ``i`` (conditions see ``self``)."""
        return attribute(rid, name, Ctx(self, {"self": Player(i)}))

    def record_value(self, rid: str, value, i: int):
        """A value found inside record ``rid``: a condition is evaluated for seat ``i``."""
        if type(value) is Condition:
            env = {"self": Player(i), "this": rid}
            return evaluate(self.rules.expressions[value.key], Ctx(self, env))
        return value

    def schedule(self, **frame) -> None:
        """Push a frame of the running statement's own after it; its verb's ``resume`` runs it."""
        self.queued.append((None, None, frame))

    def log(self, text: str, private: bool = False, to: list | None = None) -> None:
        """Add a log line for everyone, or only for ``to``.

        Lines written during simultaneous play go only to that thread's
        player; ``private`` lines go only to whoever is acting (``self``).
        """
        if to is None:
            if telling.own_line(self, text):
                return
            th = self.thread
            if private and th is not None:
                me = th["envs"][-1].get("self")
                to = None if me is None else [me.seat]
        self.state["log"].append({"text": text, "to": to})

    def tell(self, text: str, to: list | None = None) -> None:
        """A line the content writes (``log``, ``tell``): for ``to`` (None: everyone); inside
        ``simultaneously`` the others get it when the block ends (engine/telling.py)."""
        telling.write(self, text, to)

    def announce(self) -> None:
        """Every sealed line (a sealed choice, a line written during simultaneous play) now reaches its readers."""
        telling.unseal(self)

    def log_to_viewers(self, text: str, section: str, name: str, owner: int | None) -> None:
        """Log what a verb did to one component to every seat that may see it.

        No ``visible_to``: everyone; else the seats for whom it holds (with
        ``owner`` the component's seat, None for the table's). Inside an open
        ``simultaneously`` block the line goes to the thread's player only,
        as every line written there does: the others see the block's start.
        """
        if telling.own_line(self, text):
            return
        key = f"{section}:{name}"
        to = None
        if self.rules.visibility.get(key) is not None:
            to = seeing(self, key, range(len(self.state["players"])), owner)
        self.state["log"].append({"text": text, "to": to})

    def log_move(self, cards: list, source, target) -> None:
        """Log cards moved between zones: by name to the seats that see them (in either
        zone), as a count to the others; inside ``simultaneously``, to the thread's player."""
        if not cards:
            return
        names = self.seat_names
        where = f"from {describe(source, names)} to {describe(target, names)}"
        th = self.thread
        if th is not None and self.block_open and telling.in_block(self, th):
            return self.log(f"{self._card_names(cards)} {where}")
        log = self.state["log"]
        seats = range(len(self.state["players"]))
        shown = self._shown_to(source, seats) | self._shown_to(target, seats)     # (some of seats)
        if len(shown) == len(seats):           # everyone sees them (the usual case)
            log.append({"text": f"{self._card_names(cards)} {where}", "to": None})
            return
        if shown:
            log.append({"text": f"{self._card_names(cards)} {where}", "to": sorted(shown)})
        count = f"{len(cards)} card{'s' if len(cards) > 1 else ''}"
        log.append({"text": f"{count} {where}", "to": sorted(set(seats) - shown)})

    def _card_names(self, cards: list) -> str:
        entities, names = self.rules.entities, self.seat_names
        return ", ".join(entities.get(c, {}).get("name") or describe(c, names) for c in cards)

    def _shown_to(self, zone, seats) -> set:
        """The seats whose view of ``zone`` lists its cards (the zones' view rule)."""
        mode = self.rules.zones[zone.name].get("visible", "all")
        if mode == "owner" and zone.of is not None:
            seats = (zone.of,)                 # the owner sees them; the others see a count
        elif mode != "all" and mode != "owner":
            return set()
        key = f"zones:{zone.name}"
        if self.rules.visibility.get(key) is None:
            return set(seats)
        return {i for i in seats if _visible(self, key, i, i if zone.of is None else zone.of)}

    def guard(self, owner: int | None, what: str) -> None:
        """Refuse, inside ``simultaneously``, a change to another seat's data; allowed, the
        snapshot first keeps what it changes (``machine.hold``). Every write to a player's data
        calls it first.

        While players choose at once, each sees only their own sheet live;
        a change one thread made to another player's data would show to that
        player before all answers are in, so it is a rule error (write it on
        the acting player and settle it after the block).
        """
        th = self.thread
        if owner is None or th is None or not self.block_open:
            return
        flow = self.state["flow"]
        snapshot = flow["snapshot"]
        me = th["envs"][0]["self"]
        if me is None or me.seat != owner:     # (the usual write is to the acting player's own data)
            if me is not None and flow["threads"] and telling.in_block(self, th):
                raise RuleError(f"inside 'simultaneously', {self.seat_name(me.seat)}'s turn cannot "
                                f"change {self.seat_name(owner)}'s {what}: others must not see it "
                                "before all have chosen (note it on the acting player, settle it after)")
        if snapshot is not None:               # the others see it as the block began
            held = self._held
            if held[0] is not snapshot or what not in held[1][owner]:     # (once per section)
                machine.hold(self, snapshot, owner, what)

    def set_player_value(self, i: int, name: str, value) -> None:
        if self.block_open:                    # (``guard`` has nothing to refuse or keep else)
            self.guard(i, name)
        data = self.state["players"][i]
        if name in data["counters"]:
            if type(value) is not int:
                raise RuleError(f"counter '{name}' must hold a whole number")
            data["counters"][name] = value
        elif name in data["vars"]:
            data["vars"][name] = value
        else:
            raise RuleError(f"players have no variable '{name}'")

    def finish(self) -> None:
        """The start program has ended: score and rank every seat (engine/scoring.py).

        A score is a number or a list of numbers compared element by element
        (a tie-break key); the manifest may say the lowest wins and what breaks
        ties; equal standings share a place.
        """
        self.state["result"] = scoring.result(self)
        winners = self.state["result"]["winners"]
        self.thread = None
        telling.unseal(self)                  # a sealed choice never announced is told at the end
        names = ", ".join(map(self.seat_name, winners))
        self.log(f"game over: {'tie between ' if len(winners) > 1 else 'winner '}{names}")

    def score_of(self, i: int):
        """Seat ``i``'s final score: the score counter, or the score function's key."""
        return scoring.value_of(self, self.rules.score, i)

    def standing(self, i: int) -> list:
        """Seat ``i``'s score and tie-break keys, turned so that higher is better (for bots)."""
        return scoring.standing(self, i)

    def execute(self, text: str, player: int | None = None) -> None:
        """Run effect-language statements now (scenario set-ups, the `dsl` command).

        They may not ask for decisions. Pending decisions are then worked
        out again, so their options reflect the changed state. An override
        made while players choose at once is a new starting point for the
        round: everyone's view (and labels) start from it. All or nothing,
        as ``apply``: on an error the state is as it was.
        """
        from ..dsl.check import check
        from ..dsl.parser import parse_program
        tree = parse_program(text)
        problems = check(tree, self.rules.vocabulary())
        if problems:
            p = problems[0]
            raise RuleError(f"{p.node.line}:{p.node.col}: {p.message}" + (f" ({p.hint})" if p.hint else ""))
        self.rules.add_nodes(tree)
        open_block = self.state["flow"].get("snapshot") is not None
        before = {key: plain_copy(self.state[key]) for key in self.table_keys} if open_block else None
        machine.unshare(self)                         # the statements may write any of the table

        def run():
            self.memo.clear()
            th = machine.new_thread([], {"self": None if player is None else Player(player)})
            machine.push(self, th, tree)
            machine.run_alone(self, th)
            if open_block:                            # overrides reach every view at once
                self._carry_to_snapshot(before)
            machine.refresh(self)
        self._all_or_nothing(None, run)

    def _carry_to_snapshot(self, before: dict) -> None:
        """An override made while players choose at once reaches the snapshot views show.

        Each component ``execute`` changed is copied into the snapshot, so
        every view sees it; one a player has already changed in their own
        thread (their answer, hidden from the others) is refused instead.
        """
        snapshot = plain_copy(self.state["flow"]["snapshot"])
        pairs = [(self.state[key], before[key], snapshot[key], key) for key in self.table_keys
                 if key != "players"]
        pairs += [(live[key], old[key], snap[key], f"{self.seat_name(i)}'s {key}")
                  for i, (live, old, snap) in enumerate(zip(self.state["players"], before["players"],
                                                            snapshot["players"]))
                  for key in live if isinstance(live[key], dict)]
        for live, old, snap, where in pairs:
            for name, value in live.items():
                if value == old.get(name):
                    continue
                if snap.get(name) != old.get(name):
                    raise RuleError(f"'{name}' ({where}) was already changed by a player choosing in "
                                    "'simultaneously': it cannot be overridden until all have chosen")
                snap[name] = plain_copy(value)
        self.state["flow"]["snapshot"] = snapshot

    def evaluate(self, text_or_tree, player: int | None = None, env: dict | None = None):
        """Evaluate an expression (text or tree) against the current state."""
        from ..dsl.parser import parse_expression
        tree = parse_expression(text_or_tree) if isinstance(text_or_tree, str) else text_or_tree
        scope = dict(env or {})
        if not self.running:                   # inside a run, a loop calling it would never stop
            budget.reset(self)
        scope.setdefault("self", None if player is None else Player(player))
        return evaluate(tree, Ctx(self, scope))


# ``sealed_state(game)``: the state read through the slot itself, so a sealed game stays sealed
# (the engine's own reads outside a call, and tests that look without touching).
sealed_state = Game.__dict__["state"].__get__
_set_state = Game.__dict__["state"].__set__


class _Sealed(Game):
    """A game whose state nothing outside the engine has read (``Game.new``, ``from_json``,
    ``clone``): a failed call is undone by replaying from a saved position, so a call costs
    no copy. Reading (or setting) ``game.state`` from outside makes it a plain ``Game`` for
    good, whose calls copy first (``Game._copied``): whoever holds the state may write it
    between calls, and a replay would not know. While a call runs the game is a plain ``Game``
    (the engine's own reads are plain attribute reads)."""

    __slots__ = ()

    @property
    def state(self) -> dict:
        self._expose()
        return sealed_state(self)

    @state.setter
    def state(self, value: dict) -> None:
        self._expose()
        _set_state(self, value)
        self.block_open = block_open(value)


def block_open(state: dict) -> bool:
    """Whether ``state`` has a ``simultaneously`` block open: its threads, or its snapshot, in the
    flow. ``Game.block_open`` keeps it (not saved: derived here when the game is made or its
    state put back; set by ``machine._simultaneously``, cleared by ``machine._join``) so that
    ``guard`` and the log lines, called at every write, test it with one attribute read."""
    flow = state.get("flow")
    return flow is not None and (flow.get("snapshot") is not None or bool(flow.get("threads")))


def _sealed(game: Game) -> Game:
    """``game`` sealed (see ``_Sealed``): only a plain ``Game`` is (a subclass stays as it is)."""
    if type(game) is Game:
        game._sealed = True
        game.__class__ = _Sealed
    return game


REPLAY_SPAN = 64        # answers replayed at most to undo a failed call (a new position is saved then)
_REPLAY = "replay"      # marks a replay point (Game._replay_point)

_KEPT_APART = ("log", "history", "flow")      # restored by other means than a copy (see _copied)


def _pickled(data) -> bytes:
    """``pickle.dumps`` without its memo: the state is a tree, and this is a third faster."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(data)
    return out.getvalue()


def _reported(exc: BaseException) -> BaseException:
    """The error a failed call raises: the content's and ours as they are, any other
    Python exception (raised outside a statement) as an internal error."""
    if isinstance(exc, (RuleError, InternalError, IllegalAction)) or not isinstance(exc, Exception):
        return exc
    return InternalError(f"{type(exc).__name__}: {exc}")


def _fold(label: str) -> str:
    return " ".join(label.casefold().split())


def _user_function(name, params, tree):
    """A ruleset function: pure, so a result is remembered until the state changes.

    Only calls with plain arguments (numbers, strings, none) are remembered:
    they repeat (``card(1)``); calls on records (rooms) rarely do, and a key
    for them would cost more than the call. Calls inside calls count against
    the step budget and may not nest deeper than ``budget.MAX_CALL_DEPTH``.
    """
    body = compiled(tree)
    arity = len(params)
    first = params[0] if params else None

    def call(ctx, args):
        if len(args) != arity:
            raise RuleError(f"'{name}' takes {arity} values, got {len(args)}")
        me = ctx.env.get("self")
        game = ctx.game
        key = None
        for arg in args:
            if type(arg) not in _PLAIN:
                break
        else:                           # the memo first: a hit needs no locals built
            key = (name, None if me is None else me.seat, *args)
            value = game.memo.get(key, _NOT_KEPT)
            if value is not _NOT_KEPT:
                return value
        if arity == 1:
            env = {first: args[0], "self": me}
        else:
            env = dict(zip(params, args))
            env["self"] = me
        depth = game.depth
        if depth:                       # only calls inside calls can multiply: count those
            game.steps -= 1
            if depth >= budget.MAX_CALL_DEPTH or game.steps < 0:
                raise budget.call_exceeded(game, tree)
        game.depth = depth + 1
        try:
            value = body(Ctx(game, env))
        except RecursionError:          # deep expressions inside shallower calls: placed by the caller
            raise budget.call_error(game) from None
        finally:
            game.depth = depth
        if key is not None:
            game.memo[key] = value
        return value
    return call


_PLAIN = (int, str, type(None))          # not bool: true == 1 as a key
_NOT_KEPT = object()


_COMPONENT_KEYS = {kind.state_key for kind in mechanics.COMPONENTS.values() if kind.state_key}


def _new_components(rules, per_player: bool) -> dict:
    """The starting data of every component a seat (or the table) holds, by kind."""
    kinds = {section: kind for section, kind in mechanics.COMPONENTS.items() if kind.state_key
             and kind.where in ("declared", "player" if per_player else "table") and kind.held(rules)}
    data: dict = {kind.state_key: {} for kind in kinds.values()}
    if per_player:
        data["earned"] = {}                # what each counter with an earning cap has gained
    for section, kind in kinds.items():
        for name, spec in rules.declared[section].items():
            if kind.per_player(spec) is per_player:
                data[kind.state_key][name] = kind.new(spec, rules)
    return data
