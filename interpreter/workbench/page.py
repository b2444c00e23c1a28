"""A report folder: one HTML page with the tables (and the plots when matplotlib is there).

The page needs no network and no script: plain HTML and CSS beside its
pictures and the report's JSON, so it reads offline and from an archive.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from . import plots

STYLE = ("body{font-family:sans-serif;margin:2em;max-width:70em}"
         "table{border-collapse:collapse;margin:1em 0}"
         "td,th{border-bottom:1px solid #ccc;padding:.2em .6em;text-align:right}"
         "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
         ".warn{color:#a40}")

COLUMNS = [("games", "games"), ("wins", "wins"), ("win_rate", "win rate"),
           ("interval", "95% interval"), ("average", "avg score"), ("sd", "sd"),
           ("min", "min"), ("max", "max")]


def write(folder, figures: dict, rows: list[dict]) -> str:
    """Write ``index.html``, ``report.json`` (and plots) into ``folder``; returns the page's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    pictures = plots.draw(folder, figures, rows) if plots.available() else []
    page = folder / "index.html"
    page.write_text(_page(figures, pictures), encoding="utf-8")
    return str(page)


def _page(figures: dict, pictures: list[str]) -> str:
    title = f"{figures['game']}: {figures['games']} games, {figures['players']} players"
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(title)}</title>"
             f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>",
             f"<p>seeds {figures['seed']}..{figures['seed'] + figures['games'] - 1}"
             f"{', seats rotated' if figures['rotation'] else ''}; options: "
             f"{_e(json.dumps(figures['options'], ensure_ascii=False))}</p>"]
    parts += [f"<p class='warn'>warning: {_e(w)}</p>" for w in figures["warnings"]]
    parts.append(_table("per seat", "seat", figures["seats"], key="seat"))
    if len(figures["bots"]) > 1:
        parts.append(_table("per bot", "bot", figures["bots"]))
    if figures["records"]:
        parts.append(_table("per record held", "holds", figures["records"]))
    for name, values in figures["varied"].items():
        rows = [{"name": f"{name}={v['value']}", "games": v["games"], "length": v["length"],
                 "seats": v["seats"]} for v in values]
        parts.append(_varied(name, rows))
    first = figures["first_player"]
    if first:
        parts.append(f"<p>first seat: wins {first['win_rate']:.1%} ({_cell(first['interval'])}); "
                     f"an even game gives {first['even']:.1%}</p>")
    if figures["taken"]:
        taken = ", ".join(f"{_e(t['record'])} {t['share']:.0%}" for t in figures["taken"][:12])
        parts.append(f"<p>most taken (share of games): {taken}</p>")
    length = figures["length"]
    parts.append(f"<p>decisions per game: mean {length['mean']}, sd {length['sd']}, "
                 f"{length['min']}..{length['max']}</p>")
    parts += [f"<h2>{_e(name)}</h2><img src='{name}.svg' alt='{_e(name)}'>" for name in pictures]
    if not pictures:
        parts.append("<p>(no plots: install the <code>rulebook[plots]</code> extra for them)</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table(caption, first, rows, key="name") -> str:
    head = "".join(f"<th>{_e(label)}</th>" for _, label in [(key, first)] + COLUMNS)
    body = []
    for row in rows:
        cells = [_e(row[key])] + [_cell(row[name], name) for name, _ in COLUMNS]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"<h2>{_e(caption)}</h2><table><tr>{head}</tr>{''.join(body)}</table>"


def _varied(name, rows) -> str:
    seats = [s["seat"] for s in rows[0]["seats"]] if rows else []
    head = "".join(f"<th>{_e(h)}</th>" for h in ["value", "games", "avg decisions",
                                                 *(f"{s} win rate" for s in seats)])
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in [
        _e(r["name"]), r["games"], _cell(r["length"]),
        *(f"{_cell(s['win_rate'], 'win_rate')} ({_cell(s['interval'])})" for s in r["seats"])])
        + "</tr>" for r in rows)
    return f"<h2>option {_e(name)}</h2><table><tr>{head}</tr>{body}</table>"


def _cell(value, name: str = "") -> str:
    if isinstance(value, list):
        return f"{value[0]:.1%} - {value[1]:.1%}"
    if value is None:
        return "-"
    if name == "win_rate":
        return f"{value:.1%}"
    return _e(f"{value:.2f}" if isinstance(value, float) else str(value))


def _e(text) -> str:
    return html.escape(str(text), quote=True)
