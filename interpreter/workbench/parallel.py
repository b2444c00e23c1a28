"""Games on many cores and many machines, with the same rows as one core.

Every game of a plan is a pure function of the plan and its index (its
seed and seats come from the index), so the games can be played anywhere
in any order: ``run`` plays them in ``jobs`` processes and returns the
rows in index order, the same bytes as ``jobs=1``; a *shard* ``i/m`` plays
only the indices ``k`` with ``k % m == i - 1``, and the rows of all ``m``
shards, written as JSON lines (``write_rows``) on as many machines, merge
into the whole (``read_rows``, ``merge``).
"""
from __future__ import annotations

import gc

import functools
import json
import os
from concurrent.futures import ProcessPoolExecutor

from .balance import Plan, play_row

ROWS_FORMAT = 1

_worker: dict = {}          # in a worker process: the plan and its loaded ruleset


def indices(plan: Plan, shard: tuple[int, int] | None = None) -> list[int]:
    """The game indices to play: all of them, or those of shard ``(i, m)`` (1-based ``i``)."""
    if shard is None:
        return list(range(plan.games))
    i, m = shard
    return [k for k in range(plan.games) if k % m == i - 1]


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                      # not on Linux
        return os.cpu_count() or 1


def run(rules, plan: Plan, which: list[int], jobs: int = 1, advance=lambda: None) -> list[dict]:
    """The rows of games ``which``, in that order, played in ``jobs`` processes.

    Where processes can be forked (Linux), each worker starts as a copy of this one, the
    ruleset loaded and its code generated already: nothing is loaded again or pickled but
    the game indices and the rows. Elsewhere each worker loads the ruleset once.
    """
    if jobs <= 1 or len(which) < 2:
        rows = []
        for k in which:
            rows.append(play_row(rules, plan, k))
            advance()
        return rows
    from ..agents import make_bot, play_out  # noqa: F401  (imported once, here, not per worker)
    from ..engine import codegen
    if codegen.ENABLED:
        codegen.program_of(rules)              # generated once, here, before the workers fork
    context = _fork()
    _worker.update(plan=plan, rules=rules)
    gc.freeze()                  # forked workers then leave the parent's objects (and pages) alone
    start = {} if context is not None else {"initializer": _start, "initargs": (plan,)}
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(which)), mp_context=context,
                                 **start) as pool:
            rows = []
            for future in [pool.submit(_play_many, chunk) for chunk in chunks(which, jobs)]:
                for row in future.result():
                    rows.append(row)
                    advance()
    finally:
        _worker.clear()
        gc.unfreeze()
    return rows


def chunks(which: list[int], jobs: int) -> list[list[int]]:
    """``which`` cut in seed order into pieces that shrink to single games at the end.

    Workers take the next piece when they finish one: large pieces first keep the
    parent's messages few, single games last leave no worker idle long at the end.
    """
    pieces, start = [], 0
    while start < len(which):
        size = max(1, (len(which) - start) // (jobs * 4))
        pieces.append(which[start:start + size])
        start += size
    return pieces


def _fork():
    """The fork start method where the platform has it (a worker is then a copy of this
    process), else None: the default, whose workers start afresh and load the ruleset."""
    import multiprocessing
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def _start(plan: Plan) -> None:
    """A worker that did not fork loads the ruleset once, the way the parent did."""
    from ..content.ruleset import load_ruleset
    _worker["plan"] = plan
    _worker["rules"] = load_ruleset(plan.source, expansions=tuple(plan.expansions))


def _play_many(ks: list[int]) -> list[dict]:
    return [play_row(_worker["rules"], _worker["plan"], k) for k in ks]


# ---------------------------------------------------------------- rows on disk

def write_rows(path: str, plan: Plan, rows: list[dict], shard=None) -> None:
    """JSON lines: a header with the plan (and shard), then one game per line."""
    with open(path, "w", encoding="utf-8") as out:
        header = {"format": ROWS_FORMAT, "plan": plan.to_dict(),
                  "shard": list(shard) if shard else None}
        out.write(json.dumps(header, ensure_ascii=False, sort_keys=True) + "\n")
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def read_rows(path: str) -> tuple[dict, list[dict]]:
    """The plan and the rows of a file ``write_rows`` wrote (ValueError if it is not one:
    each line is held to ``schemas/rows.schema.json``, the first as the header)."""
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    try:
        header, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    except (IndexError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not a file of game rows ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != ROWS_FORMAT or "plan" not in header:
        raise ValueError(f"{path} is not a file of game rows (no header line)")
    for number, (value, part) in enumerate([(header, "header")] + [(row, "row") for row in rows], 1):
        problem = _misfit(value, part)
        if problem:
            raise ValueError(f"{path}:{number}: not a {part} of game rows: {problem}")
    return header["plan"], rows


@functools.cache
def _rows_schema(part: str):
    from jsonschema import Draft202012Validator
    from ..content.bundled import SCHEMAS
    schema = json.loads((SCHEMAS / "rows.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator({"$ref": f"#/definitions/{part}", "definitions": schema["definitions"]})


def _misfit(value, part: str) -> str:
    """What in ``value`` does not fit the schema's ``part`` (header or row), or ''."""
    from jsonschema.exceptions import best_match
    from ..engine.saved import json_path
    error = best_match(_rows_schema(part).iter_errors(value))
    return "" if error is None else f"at {json_path(error.absolute_path)}: {error.message}"


def merge(parts: list[tuple[str, dict, list[dict]]]) -> tuple[dict, list[dict], list[int]]:
    """One plan and its rows from the files of several shards; also the indices still missing.

    Every file must come from the same plan; a game found twice must be the
    same game (ValueError otherwise).
    """
    plan = parts[0][1]
    rows: dict = {}
    for path, other, found in parts:
        if other != plan:
            raise ValueError(f"{path} is from another simulation than {parts[0][0]}")
        for row in found:
            if rows.setdefault(row["index"], row) != row:
                raise ValueError(f"{path}: game {row['index']} differs from the same game elsewhere")
    missing = [k for k in range(plan["games"]) if k not in rows]
    return plan, [rows[k] for k in sorted(rows)], missing
