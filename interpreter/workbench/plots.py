"""Pictures of a balance report (matplotlib, the optional ``[plots]`` extra).

``available()`` says whether matplotlib can be imported; every text report
works without it. Each picture is written as PNG and SVG.
"""
from __future__ import annotations

from pathlib import Path


def available() -> bool:
    """Whether the ``[plots]`` extra is installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def draw(folder: Path, figures: dict, rows: list[dict]) -> list[str]:
    """Write the report's pictures into ``folder``; returns their names without suffix."""
    import matplotlib
    matplotlib.use("Agg")                     # files only, never a window
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "rulebook"  # the same SVG bytes for the same report
    made = []
    for name, painter in (("win_rates", _win_rates), ("scores", _scores), ("length", _length)):
        fig = painter(plt, figures, rows)
        if fig is None:
            continue
        for suffix in ("png", "svg"):
            fig.savefig(folder / f"{name}.{suffix}", dpi=100, metadata=_metadata(suffix))
        plt.close(fig)
        made.append(name)
    return made


def _metadata(suffix: str) -> dict:
    """No creation date in the files, so a report is reproducible."""
    return {"Date": None} if suffix == "svg" else {}


def _win_rates(plt, figures, rows):
    """Win rate per seat (and per bot, and per held record) with 95% interval bars."""
    groups = [("seat", [(s["seat"], s) for s in figures["seats"]])]
    if len(figures["bots"]) > 1:
        groups.append(("bot", [(b["name"], b) for b in figures["bots"]]))
    if figures["records"]:
        groups.append(("held record", [(r["name"], r) for r in figures["records"]]))
    fig, axes = plt.subplots(1, len(groups), figsize=(4 + 3 * len(groups), 4), squeeze=False)
    for ax, (title, items) in zip(axes[0], groups):
        rates = [item["win_rate"] or 0 for _, item in items]
        low = [r - item["interval"][0] for r, (_, item) in zip(rates, items)]
        high = [item["interval"][1] - r for r, (_, item) in zip(rates, items)]
        ax.bar(range(len(items)), rates, yerr=[low, high], capsize=4, color="#4c72b0")
        ax.set_xticks(range(len(items)), [name for name, _ in items], rotation=45, ha="right")
        ax.axhline(1 / figures["players"], color="grey", linestyle="--", linewidth=1)
        ax.set_ylim(0, 1)
        ax.set_title(f"win rate per {title} (95% interval)")
    fig.tight_layout()
    return fig


def _scores(plt, figures, rows):
    """The distribution of final scores per seat."""
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = rows[0]["labels"]
    ax.boxplot([[r["scores"][i] for r in rows] for i in range(len(labels))])
    ax.set_xticks(range(1, len(labels) + 1), labels)
    ax.set_title("final score per seat")
    fig.tight_layout()
    return fig


def _length(plt, figures, rows):
    """How many decisions the games took."""
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist([r["decisions"] for r in rows], bins=min(30, max(5, len(rows) // 5)), color="#55a868")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("game length")
    fig.tight_layout()
    return fig
