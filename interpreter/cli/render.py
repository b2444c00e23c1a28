"""Plain-text drawings of game data for the terminal: grids, values, options.

Everything here works from a player's view (plain data) plus, optionally,
the ruleset's declarations; nothing depends on a particular game.

A grid is drawn with ``+`` corners, ``|`` and ``-`` on its boundary and
``#`` for a wall between two rooms; each room shows its item abbreviated
to 2-3 letters and a one-letter mark for its first tag (``start`` -> ``s``).
A legend under the grid spells out the abbreviations and marks.
"""
from __future__ import annotations

import json
import re
import textwrap

from ..model.values import decode, describe

CELL = 5                       # characters inside one room
EMPTY = "."


# ---------------------------------------------------------------- values

def wrap(line: str, width: int = 100) -> list[str]:
    """Break a long line at spaces, continuing under its indent plus four."""
    if len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)


def short(value, limit: int = 60) -> str:
    """A compact one-line form of any plain value."""
    if value is None:
        text = "-"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, (int, float, str)):
        text = str(value)
    elif isinstance(value, dict) and "$" in value:           # an engine value, as a view writes it
        text = describe(decode(dict(value)))
    elif isinstance(value, list):
        text = "[" + ", ".join(short(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {short(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def pairs(values: dict, skip_empty: bool = False) -> str:
    """``name value, name value`` for a dict of plain values."""
    items = [(k, v) for k, v in values.items() if not (skip_empty and v in (None, [], {}, ""))]
    return ", ".join(f"{k} {short(v)}" for k, v in items) or "-"


def zone(value, name_of=str) -> str:
    """One zone from a view: its cards, its top card, or just how many.

    ``name_of`` turns a content id into what a player reads (its printed name).
    """
    if isinstance(value, list):                       # a numbered group of zones
        return "; ".join(f"#{i + 1}: {zone(z, name_of)}" for i, z in enumerate(value))
    if "cards" in value:
        return short([name_of(c) for c in value["cards"]]) if value["cards"] else "empty"
    text = f"{value.get('count', 0)} card(s)"
    if "top" in value:
        text += f", top {short(name_of(value['top']))}"
    if value.get("top_fields"):
        text += f" ({pairs(value['top_fields'])})"
    if value.get("known"):                            # cards revealed to this viewer
        text += ", you know " + ", ".join(f"#{k} {short(name_of(c))}" for k, c in value["known"].items())
    return text


def options(decision: dict) -> list[str]:
    """The numbered options of a decision, one line each."""
    width = len(str(len(decision["options"]) - 1))
    return [f"  {i:>{width}}) {label}" for i, label in enumerate(decision["options"])]


# ---------------------------------------------------------------- grids

def column_letter(c: int) -> str:
    """A, B, C ... for columns 1, 2, 3 (the engine's room names use the same letters)."""
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[c - 1] if 1 <= c <= 26 else str(c)


def grid_size(data: dict, spec: dict | None = None) -> tuple[int, int]:
    """Rows and columns: declared in ``spec`` or, failing that, the largest used."""
    spec = spec or {}
    if "rows" in spec and "cols" in spec:
        return spec["rows"], spec["cols"]
    rows = cols = 1
    for key in list(data.get("items", {})) + list(data.get("walls", [])):
        r, c = (int(x) for x in key.split(",")[:2])
        rows, cols = max(rows, r), max(cols, c)
    return rows, cols


def abbreviations(ids) -> dict:
    """A distinct 2-3 letter upper-case abbreviation for each id."""
    out: dict = {}
    taken: set = set()
    for item in sorted({str(i) for i in ids}):
        for candidate in _candidates(item):
            if candidate not in taken:
                break
        out[item] = candidate
        taken.add(candidate)
    return out


def _candidates(item: str):
    words = [w for w in re.split(r"[^0-9A-Za-z]+", item) if w] or ["x"]
    letters = "".join(words).upper()
    if len(words) > 1:
        initials = "".join(w[0] for w in words).upper()[:3]
        yield initials
        yield (initials[:2] + words[-1][1:2].upper()) if len(words[-1]) > 1 else initials
    yield letters[:3]
    yield letters[:2]
    for ch in letters[3:]:
        yield letters[:2] + ch
    for n in range(1, 100):
        yield f"{letters[:1]}{n}"


def tag_marks(tags) -> dict:
    """A distinct one-character mark for each tag name (its first free letter)."""
    out: dict = {}
    for tag in sorted(tags):
        for ch in tag.lower() + "0123456789":
            if ch.isalnum() and ch not in out.values():
                out[tag] = ch
                break
    return out


def _walls(data: dict) -> set:
    """Wall keys normalised to the east or south side of a room."""
    out = set()
    for key in data.get("walls", []):
        r, c, side = key.split(",")
        r, c = int(r), int(c)
        if side == "w":
            r, c, side = r, c - 1, "e"
        elif side == "n":
            r, c, side = r - 1, c, "s"
        out.add((r, c, side))
    return out


def _room_tags(spec: dict) -> dict:
    """``(r, c) -> [tag, ...]`` from a grid declaration's ``tags``."""
    out: dict = {}
    for tag, cells in (spec or {}).get("tags", {}).items():
        for cell in cells or []:
            out.setdefault((cell[0], cell[1]), []).append(tag)
    return out


def draw_grid(data: dict, spec: dict | None = None, names: dict | None = None) -> list[str]:
    """The grid as text lines, followed by its legend.

    ``data`` is the view's grid (``items`` keyed ``"r,c"``, ``walls`` as
    ``"r,c,side"``); ``spec`` the declaration (``rows``, ``cols``, ``tags``);
    ``names`` maps item ids to display names for the legend.
    """
    rows, cols = grid_size(data, spec)
    items = {tuple(int(x) for x in k.split(",")): v for k, v in data.get("items", {}).items()}
    abbr = abbreviations(items.values())
    room_tags = _room_tags(spec)
    marks = tag_marks({t for ts in room_tags.values() for t in ts})
    walls = _walls(data)

    def cell(r, c):
        item = items.get((r, c))
        text = abbr[str(item)] if item is not None else EMPTY
        mark = marks[room_tags[(r, c)][0]] if (r, c) in room_tags else ""
        return f" {text:<3}{mark:<1}"

    # Columns are lettered as option labels name rooms ("B3": column 2, row 3).
    lines = [("    " + "".join(f"{column_letter(c):^{CELL + 1}}" for c in range(1, cols + 1))).rstrip()]
    lines.append("   +" + ("-" * CELL + "+") * cols)
    for r in range(1, rows + 1):
        row = f"{r:>2} |"
        for c in range(1, cols + 1):
            east = "|" if c == cols else ("#" if (r, c, "e") in walls else " ")
            row += cell(r, c) + east
        lines.append(row)
        if r < rows:
            lines.append("   +" + "".join(("#" * CELL if (r, c, "s") in walls else " " * CELL) + "+"
                                          for c in range(1, cols + 1)))
    lines.append("   +" + ("-" * CELL + "+") * cols)
    lines += _legend(abbr, marks, names or {})
    return lines


def _legend(abbr: dict, marks: dict, names: dict) -> list[str]:
    out = []
    if abbr:
        parts = [f"{a}={_named(item, names)}" for item, a in sorted(abbr.items(), key=lambda p: p[1])]
        out.append("   " + ", ".join(parts))
    if marks:
        out.append("   " + ", ".join(f"{m}={tag}" for tag, m in marks.items()) + ", #=wall")
    elif abbr:
        out.append("   #=wall")
    return out


def _named(item: str, names: dict) -> str:
    name = names.get(item)
    return f"{item} ({name})" if name and name != item else item


def grid_summary(data: dict) -> str:
    """``4 items, 2 walls``: a grid in a few words."""
    return f"{len(data.get('items', {}))} item(s), {len(data.get('walls', []))} wall(s)"
