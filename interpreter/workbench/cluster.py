"""Games on a Dask cluster (the optional ``[cluster]`` extra): the rows of ``parallel.run``.

Chosen over Ray after measuring on the 2-core development machine: the
``distributed`` wheels and their dependencies are about 5 MB, pure Python
but for a few small wheels, installed in about 12 s, and a local cluster
of two worker processes starts in about 6 s. Ray was not measured here:
it ships a binary runtime of its own in much larger wheels, for the same
map of games.

Each worker loads the ruleset once (keyed by the plan's source and
expansions) and plays the indices it is given; results are gathered in
index order, so the rows equal those of ``parallel.run(..., jobs=1)``.
Without an address, a local cluster of ``workers`` processes is started.
"""
from __future__ import annotations

from .balance import Plan, play_row

_loaded: dict = {}          # in a worker: (source, expansions) -> ruleset


def available() -> bool:
    """Whether the ``[cluster]`` extra (dask distributed) is installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def run(plan: Plan, which: list[int], address: str | None = None, workers: int = 2,
        advance=lambda: None) -> list[dict]:
    """The rows of games ``which`` played on the cluster at ``address`` (or a local one)."""
    from distributed import Client, LocalCluster, as_completed
    local = None
    if address is None:
        local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                             dashboard_address=None)
    client = Client(local if local is not None else address)
    try:
        futures = client.map(_play, [plan] * len(which), which, pure=False)
        for _ in as_completed(futures):
            advance()
        return client.gather(futures)           # in the order submitted: index order
    finally:
        client.close()
        if local is not None:
            local.close()


def _play(plan: Plan, k: int) -> dict:
    key = (plan.source, tuple(plan.expansions))
    if key not in _loaded:
        from ..content.ruleset import load_ruleset
        _loaded[key] = load_ruleset(plan.source, expansions=key[1])
    return play_row(_loaded[key], plan, k)
