"""The screen a person sees at the table: a player's view drawn with rich.

Everything here works from one player's view (plain data, so nothing
hidden can be drawn) and the ruleset's presentation (content/presentation):
display names, bookkeeping never shown, panels, record texts. The screen
puts the player's own board first, their sheet and the table beside it,
one line per rival, what happened since the player last decided, then the
options numbered from 1. ``fit`` trims it to the terminal's height, the
log first, so a useful screen fits 80x24.
"""
from __future__ import annotations

import re
import textwrap

from rich.columns import Columns
from rich.console import Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..engine import scoring
from ..mechanics import COMPONENTS
from ..model.values import decode, describe
from . import render

LOG_MAX = 8                    # at most this many lines of what happened, before trimming to fit
RIVAL_ROOM = 8                 # lines card texts give way to, for the rivals (a few lines each)
BOARD_GAP = 2
KEYS = "(? help, u undo, q quit)"
HANG = 4                       # how far a wrapped text's later lines are indented
PANEL = "bold cyan"


# ---------------------------------------------------------------- values

class Namer:
    """Turns view values into what a person reads: record names, seats, rooms."""

    def __init__(self, game):
        self.game = game
        self.rules = game.rules
        self.look = game.rules.presentation
        self._names = self._pattern = None

    def record(self, item) -> str:
        title = self.look.title(self.rules, item)
        return str(item) if title is None else title

    def detailed(self, value) -> list[str]:
        """A zone's cards one per line, each with its record text (a hidden zone: its count)."""
        if "cards" not in value:
            return [self.zone(value)]
        lines = []
        for card in value["cards"]:
            text = self.look.text_of(self.rules, card)
            lines.append(self.record(card) + (f": {text}" if text else ""))
        return lines

    def members(self, value, labels) -> str:
        """A numbered zone group as its non-empty members under their labels."""
        parts = [f"{label}: {self.zone(z)}" for label, z in zip(labels, value)
                 if z.get("cards") or z.get("count")]
        return " · ".join(parts) or "none"

    def value(self, value) -> str:
        """One value of a counter, variable or record field, in words."""
        if value is None or value == "":
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, str):
            return self.record(value)
        if isinstance(value, list):
            return ", ".join(self._counted(value)) if value else "none"
        if isinstance(value, dict) and value.get("$") == "room":
            room = f"{render.column_letter(value['c'])}{value['r']}"
            if value.get("of") is None:
                return room
            return f"{room} of {self.game.seat_name(value['of'])}"
        if isinstance(value, dict) and "$" in value:
            return describe(decode(dict(value)), self.game.seat_names)
        if isinstance(value, dict):                    # an entry: its first field, the rest after
            first, *rest = [self.value(v) for v in value.values()] or ["-"]
            return first + (f" ({', '.join(rest)})" if rest else "")
        return str(value)

    def tally(self, values: list, tally: dict) -> str:
        """How many times a list holds each value of a table's enum field: ``red 2, blue 0``."""
        enum = self.rules.table_specs[tally["table"]]["fields"][tally["field"]]["enum"]
        return ", ".join(f"{self.look.label(v)} {values.count(v)}" for v in enum)

    def _counted(self, values: list) -> list[str]:
        """A list's values in words, repeats said once with how many (``art ×3``)."""
        said = [self.value(v) for v in values]
        counts: dict = {}
        for word in said:
            counts[word] = counts.get(word, 0) + 1
        return [word if n == 1 else f"{word} ×{n}" for word, n in counts.items()]

    def words(self, line: str) -> str:
        """A log line with the components and records it names under their display names."""
        if self._names is None:
            sections = ("zones", "grids", "auctions")
            names = [n for section in sections for n in self.rules.declared.get(section, {})]
            self._names = {n: self.look.label(n) for n in names if self.look.label(n) != n}
            for rid in self.rules.entities:
                title = self.look.title(self.rules, rid)
                if isinstance(rid, str) and title and title != rid and rid not in self._names:
                    self._names[rid] = title
            self._pattern = re.compile(r"\b(" + "|".join(map(re.escape, self._names)) + r")\b") \
                if self._names else None
        if self._pattern is None:
            return line
        return self._pattern.sub(lambda m: self._names[m.group(1)], line)

    def zone(self, value) -> str:
        """A zone from a view: its cards by name, or how many and what shows."""
        if isinstance(value, list):                     # a numbered group of zones
            return " ".join(f"#{i + 1} {self.zone(z)}" for i, z in enumerate(value))
        if "cards" in value:
            return ", ".join(self.record(c) for c in value["cards"]) or "empty"
        count = value.get("count", 0)
        text = f"{count} card{'s' if count != 1 else ''}"
        if "top" in value:
            text = self.record(value["top"]) + (f" ({count})" if count > 1 else "")
        if value.get("top_fields"):
            text += ", " + " ".join(self.value(v) for v in value["top_fields"].values())
        parts = [text]
        if value.get("known"):
            parts.append("you know " + ", ".join(f"#{k} {self.record(c)}" for k, c in value["known"].items()))
        return " ".join(parts)


def entries(namer: Namer, holder: dict, panel: str) -> list[tuple[str, str, str]]:
    """``(kind, label, text)`` for the components of one holder a panel shows, in order.

    ``kind`` is "grid" for a board (drawn, not written), else "value".
    """
    found: dict = {}
    for section, kind in COMPONENTS.items():
        if not kind.state_key:
            continue
        for name, shown in holder.get(kind.state_key, {}).items():
            found[name] = (section, kind, shown)
    look = namer.look
    out = []
    for name in look.order(panel, list(found)):
        section, kind, shown = found[name]
        label = look.label(name)
        if section == "grids":
            out.append(("grid", label, name))
        elif section == "zones" and name in look.details:
            out.append(("lines", label, namer.detailed(shown)))
        elif section == "zones" and name in look.members and isinstance(shown, list):
            out.append(("value", label, namer.members(shown, look.members[name])))
        elif section == "zones":
            out.append(("value", label, namer.zone(shown)))
        elif kind.draw is not None:
            drawn = kind.draw(namer.rules, name, namer.rules.declared[section][name], shown)
            drawn = drawn.removeprefix(name).strip().removeprefix(":").strip()
            if "\n" in drawn:                          # a kind drawn as several lines: a block
                out.append(("lines", label, drawn.splitlines()))
            else:
                out.append(("value", label, drawn))
        elif name in look.tallies and isinstance(shown, list):
            out.append(("value", label, namer.tally(shown, look.tallies[name])))
        else:
            out.append(("value", label, namer.value(shown)))
    return out


# ---------------------------------------------------------------- boards

def board(namer: Namer, name: str, data: dict, at=None) -> tuple[Text, list[str]]:
    """A grid drawn as text (``at``: a room marked ``@``), and its legend as ``ABC Name`` entries."""
    rules = namer.rules
    drawn = render.draw_grid(data, rules.grids.get(name))
    rows, _ = render.grid_size(data, rules.grids.get(name))
    lines = drawn[: 2 * rows + 2]                      # the grid without render's own legend
    if at is not None:                                 # the room's first character, left of its item
        r, c = at
        row, col = 2 * r, 4 + (c - 1) * (render.CELL + 1)
        lines[row] = lines[row][:col] + "@" + lines[row][col + 1:]
    abbr = render.abbreviations(data.get("items", {}).values())
    marks = render.tag_marks({t for t in (rules.grids.get(name) or {}).get("tags", {})})
    legend = [f"{a} {namer.record(item)}" for item, a in sorted(abbr.items(), key=lambda p: p[1])]
    legend += [f"{m} {tag}" for tag, m in marks.items()] + (["# wall"] if data.get("walls") else [])
    text = Text("\n".join(lines))
    text.highlight_regex(r"#+", "red")
    text.highlight_regex(r"@", "bold reverse")
    text.highlight_regex(r"\b[A-Z][A-Z0-9]{1,2}\b", "bold")
    if at is not None:
        legend.insert(0, "@ you")
    return text, legend


EMPTY = ("-", "none", "empty", "no")


def flowing(items: list[tuple[str, str]], width: int) -> Text:
    """``Label value`` items run together, wrapped to ``width``; empty ones left out."""
    text = Text()
    used = 0
    for label, value in items:
        if value in EMPTY:
            continue
        piece = len(label) + 1 + len(value)
        if used and used + 3 + piece > width:
            text.append("\n")
            used = 0
        elif used:
            text.append(" · ", style="dim")
            used += 3
        text.append(label + " ", style="bold")
        used = _listed(text, value, used + len(label) + 1, width)
    return text


def _listed(text: Text, value: str, used: int, width: int) -> int:
    """Append ``value``; a list too long for the line breaks after a comma, not inside a name."""
    if used + len(value) <= width or ", " not in value:
        text.append(value)
        return used + len(value)
    parts = value.split(", ")
    return _run(text, [part + "," for part in parts[:-1]] + parts[-1:], " ", used, width)


def _run(text: Text, words: list[str], sep: str, used: int, width: int) -> int:
    """Append ``words`` joined by ``sep``, a new line instead of ``sep`` where the next word
    would pass ``width`` (``used``: the line's width so far); returns the last line's width."""
    for k, word in enumerate(words):
        if k and used + len(sep) + len(word) > width:
            text.append("\n")
            used = 0
        elif k:
            text.append(sep)
            used += len(sep)
        text.append(word)
        used += len(word)
    return used


def flowing_words(words: list[str], width: int) -> Text:
    """Short entries joined by `` · ``, wrapped to ``width`` (a board's key)."""
    text = Text(style="dim")
    _run(text, words, " · ", 0, width)
    return text


def blocks(text: Text, items, width: int = 10_000) -> None:
    """Append each ``lines`` entry to ``text``: its label, then its lines indented (a line
    too long for ``width`` goes on under its own start, further in)."""
    for kind, label, lines in items:
        if kind != "lines" or not lines:
            continue
        text.append(f"\n{label}", style="bold")
        for line in lines:
            wrapped = textwrap.wrap(line, width, initial_indent="  ", subsequent_indent=" " * HANG,
                                    break_on_hyphens=False) or ["  "]
            text.append("\n" + "\n".join(wrapped))


# ---------------------------------------------------------------- the screen

class Screen:
    """The parts of one seat's screen, each a list of renderables with a height."""

    def __init__(self, game, seat: int, log: list[str], width: int, full: bool = False):
        self.game, self.seat, self.width, self.full = game, seat, width, full
        self.namer = Namer(game)
        self.view = game.view(seat)
        self.log = [line for line in log if self.namer.look.shown(_placed(line)[0])]

    def header(self) -> Rule:
        g = self.game
        waiting = self.view["decision"]
        who = f"{g.seat_name(self.seat)} to decide" if waiting else f"as {g.seat_name(self.seat)}"
        return Rule(Text(f"{g.rules.title} · {who}", style="bold"), align="left",
                    characters="─", style="cyan")

    def body(self):
        """The player's boards on the left, their sheet and the table on the right."""
        me = self.view["players"][self.seat]
        mine = entries(self.namer, me, "sheet")
        table = entries(self.namer, self.view, "table")
        boards = self._visited(me)
        boards += [self._board(me, label, name) for kind, label, name in mine if kind == "grid"]
        boards += [self._board(self.view, label, name) for kind, label, name in table if kind == "grid"]
        left_width = max((b[2] for b in boards), default=0)
        right_width = self.width - left_width - BOARD_GAP if boards else self.width
        if right_width < 30:                         # too narrow for two columns: one under the other
            right_width = self.width
        right = Text()
        right.append(f"You ({self.game.seat_name(self.seat)})\n", style=PANEL)
        right.append_text(flowing([(l, v) for k, l, v in mine if k == "value"], right_width))
        blocks(right, mine, right_width)
        values = [(l, v) for k, l, v in table if k == "value"]
        if values or any(k == "lines" for k, _, _ in table):
            right.append("\nTable\n", style=PANEL)
            right.append_text(flowing(values, right_width))
            blocks(right, table, right_width)
        scripted = self.game.seat_names[self.game.people:]
        values = [(l, v) for k, l, v in entries(self.namer, self.view, "scripted") if k == "value"]
        if scripted and values and "scripted" in self.namer.look.panels:
            right.append("\n" + ", ".join(scripted) + "  ", style=PANEL)
            right.append_text(flowing(values, right_width))
        if not boards:
            return right
        left = Text()
        for text, legend, width, label in boards[:1 if right_width < self.width else None]:
            left.append(label + "\n", style=PANEL)
            left.append_text(text)
            if legend:
                left.append("\n")
                left.append_text(flowing_words(legend, width))
            left.append("\n")
        left.rstrip()
        if right_width == self.width:
            return Group(left, right)
        grid = Table.grid(padding=(0, BOARD_GAP, 0, 0))
        grid.add_column(width=left_width, no_wrap=True)
        grid.add_column(width=right_width)
        grid.add_row(left, right)
        return grid

    def _board(self, holder, label, name, at=None):
        text, legend = board(self.namer, name, holder["grids"][name], at)
        return text, legend, max(len(line) for line in text.plain.splitlines()), label

    def _visited(self, me) -> list:
        """Another player's board where a room on this player's sheet is (their piece is there)."""
        out = []
        for value in me.get("vars", {}).values():
            if not (isinstance(value, dict) and value.get("$") == "room"):
                continue
            owner = value.get("of")
            if owner is None or owner == self.seat:
                continue
            holder = self.view["players"][owner]
            if value["grid"] in holder.get("grids", {}):
                label = f"{self.game.seat_name(owner)}'s {self.namer.look.label(value['grid'])} (@ you)"
                out.append(self._board(holder, label, value["grid"], (value["r"], value["c"])))
        return out

    def records(self) -> list[tuple[str, list[str], list[Text]]]:
        """The presentation's ``cards`` components: ``(label, names, lines)``, a record a line.

        A player's own component is read first, then the table's; a zone
        gives only the cards the view holds face up, so nothing hidden is listed.
        """
        me = self.view["players"][self.seat]
        look, rules = self.namer.look, self.namer.rules
        out = []
        for name in look.cards:
            found = [holder[key][name] for holder in (me, self.view) for key in ("zones", "vars")
                     if name in holder.get(key, {})]
            ids = _ids(found[0]) if found else []
            if not ids:
                continue
            names, lines = [], []
            for rid in ids:
                names.append(self.namer.record(rid))
                line = Text("  ")
                line.append(names[-1], style="bold")
                text = look.text_of(rules, rid)
                if text:
                    line.append(" — " + text)
                lines.append(line)
            out.append((look.label(name), names, lines))
        return out

    def record_lines(self, console, room: int) -> list:
        """The records in at most ``room`` lines, the first sections keeping their texts longest.

        First each section takes a line a card if that fits, else as many cards
        as fit and the rest by name, else its names, leaving a line for each
        later section; then the room left wraps whole texts, first sections first.
        """
        sections = self.records()
        parts = []
        for k, (label, names, lines) in enumerate(sections):
            left = room - (len(sections) - k - 1)      # a line kept for every later section
            if room < 1:                                # no line left: the later sections give way
                parts.append([])
                continue
            if len(lines) == 1:                         # one card: on its label's line
                lines = [Text.assemble((label + " ", PANEL), lines[0][2:])]
                sections[k] = (label, names, lines)
                part = [self._cut(lines[0])]
            elif 1 + len(lines) <= left:
                part = [Text(label, style=PANEL), *map(self._cut, lines)]
            elif left >= 3:                             # the first cards in full, then the rest
                shown = left - 2
                rest = Text.assemble(("  and ", "dim"), ", ".join(names[shown:]))
                part = [Text(label, style=PANEL), *map(self._cut, lines[:shown]), self._cut(rest)]
            else:
                part = [self._cut(Text.assemble((label + " ", PANEL), ", ".join(names)))]
            parts.append(part)
            room -= len(part)
        for k, (label, names, lines) in enumerate(sections):
            whole = [row for line in lines for row in self._hanging(console, line)]
            extra = len(whole) - len(lines)
            if not parts[k]:
                continue
            if len(lines) == 1 and 0 < extra <= room:
                parts[k] = whole
                room -= extra
            elif len(parts[k]) == 1 + len(lines) and 0 < extra <= room:
                parts[k] = [Text(label, style=PANEL), *whole]
                room -= extra
        return [line for part in parts for line in part]

    def _hanging(self, console, line: Text) -> list:
        """A whole text in lines of the screen's width, the later ones indented under its start."""
        rows = list(line.wrap(console, self.width - HANG))
        for row in rows[1:]:
            row.pad_left(HANG)
        return rows

    def _cut(self, line: Text) -> Text:
        line = line.copy()
        line.truncate(self.width, overflow="ellipsis")
        return line

    def layouts(self) -> list:
        """The presentation's layouts of this player's list variables over a table, a line per row."""
        me = self.view["players"][self.seat]
        out = []
        for layout in self.namer.look.layouts.values():
            entries_ = me.get("vars", {}).get(layout["list"])
            if entries_ is None:
                continue
            out.append(Text(layout["title"], style=PANEL))
            for row, places in _rows(self.namer.rules, layout):
                line = Text(f"  {layout.get('row_label', '')} {row}  ".lstrip() if row is not None else "  ",
                            style="bold")
                cells = []
                for rid, record in places:
                    here = [e for e in entries_ if isinstance(e, dict) and e.get(layout["at"]) == rid]
                    cell = f"{record.get('name', rid)} {len(here)}"
                    if layout.get("size"):
                        cell += f"/{record.get(layout['size'])}"
                    if layout.get("show") and here:
                        cell += " " + ", ".join(self.namer.value(e.get(layout["show"])) for e in here)
                    cells.append(cell)
                line.append(" · ".join(cells), style="")
                line.truncate(self.width, overflow="ellipsis")
                out.append(line)
        return out

    def rivals(self, most: int | None = None) -> list:
        """A line or a few per other player (their boards too on the full screen).

        ``most``: the lines each may take (default: the presentation's ``opponent_lines``).
        """
        return [line for _, lines in self.rival_groups(most) for line in lines]

    def rival_groups(self, most: int | None = None) -> list[tuple[int, list]]:
        """``(entries shown, lines)`` per rival, in seat order; the rivals with nothing the
        player may see share one line, last (so they take one line, not one each)."""
        out, unseen = [], []
        most = most or self.namer.look.opponent_lines
        for player in self.view["players"]:
            if player["seat"] == self.seat:
                continue
            scripted = player["seat"] >= self.game.people
            panel = "scripted_opponents" if scripted and "scripted_opponents" in self.namer.look.panels \
                else "opponents"
            items = entries(self.namer, player, panel)
            values = [(l, v if k == "value" else "; ".join(v)) for k, l, v in items if k != "grid"]
            values = [(l, v) for l, v in values if v and v not in EMPTY]   # an empty pile says nothing
            name = Text(f"{player['name']} ", style="bold magenta")
            if not values and scripted:
                continue                                     # a scripted seat with nothing to show
            if not values and not (self.full and any(k == "grid" for k, _, _ in items)):
                unseen.append(player["name"])
                continue
            if not values:
                lines = [name.append_text(Text("(nothing you may see)", style="dim"))]
            elif self.full or most > 1:
                lines = self._rival_lines(name, values, None if self.full else most)
            else:
                line = name.append_text(flowing(values, 10_000))
                line.truncate(self.width, overflow="ellipsis")
                lines = [line]
            if self.full:
                for kind, label, name in items:
                    if kind == "grid":
                        text, legend, _, _ = self._board(player, f"{player['name']}'s {label}", name)
                        width = max(len(line) for line in text.plain.splitlines())
                        lines += [Text(f"{player['name']}'s {label}", style=PANEL), text,
                                  flowing_words(legend, width)]
            out.append((len(values), lines))
        if unseen:
            line = Text(", ".join(unseen) + " ", style="bold magenta")
            line.append_text(Text("(nothing you may see)", style="dim"))
            line.truncate(self.width, overflow="ellipsis")
            out.append((0, [line]))
        return out

    def _rival_lines(self, name: Text, values, most) -> list:
        """A rival's values wrapped to the width, at most ``most`` lines (None: all), the last cut."""
        text = name.copy()
        text.append_text(flowing(values, self.width - len(name)))
        lines = text.split("\n")
        if most is not None and len(lines) > most:
            lines = lines[:most]
            lines[-1].append(" …")
        for line in lines[1:]:
            line.pad_left(len(name))
        for line in lines:
            line.truncate(self.width, overflow="ellipsis")
        return list(lines)

    def happened(self, limit: int) -> list:
        """What happened since this player last decided: the newest ``limit`` lines."""
        if not self.log or limit <= 1:
            return []
        shown = self.log[-(limit - 1):]
        skipped = len(self.log) - len(shown)
        title = "Since your last turn" + (f" ({skipped} earlier: ? shows them)" if skipped else "")
        lines = [Text(title, style=PANEL)]
        for entry in shown:
            text, place = _placed(entry)
            line = Text("  " + self.namer.words(text), style="dim")
            if place:                                # a traced line: its place stays in sight
                if len(place) + 3 > self.width * 2 // 3:
                    place = place.split(" [")[0]     # its rule ids give way first
                line.truncate(max(self.width - len(place) - 3, self.width // 3), overflow="ellipsis")
                line.append(" · " + place, style="cyan")
            line.truncate(self.width, overflow="ellipsis")
            lines.append(line)
        return lines

    def options(self, grid: bool = False) -> list:
        """The prompt and the options, numbered from 1, in columns when they are short.

        ``grid``: options built as a product (see ``factor``) as a grid, for when the list is too long.
        """
        decision = self.view["decision"]
        if decision is None:
            return []
        prompt = Text(f"{self.game.seat_name(self.seat)}: {decision['prompt']}", style="bold green")
        if len(prompt) + len(KEYS) + 2 <= self.width:
            prompt.append(f"  {KEYS}", style="dim")
        labels = decision["options"]
        drawn = option_grid(labels) if grid and len(labels) > 4 else None
        if drawn is not None:
            return [prompt, *drawn]
        width = len(str(len(labels)))
        cells = [Text.assemble((f"{i:>{width}} ", "bold yellow"), label)
                 for i, label in enumerate(labels, start=1)]
        widest = max(len(c.plain) for c in cells)
        if widest * 2 + 4 > self.width:
            return [prompt, *cells]
        return [prompt, Columns(cells, padding=(0, 3), column_first=True)]


# ---------------------------------------------------------------- many options

def _blocks(keys: list, rests: list):
    """``(keys, rests)`` as a product: equal blocks of one key each, every block's rests alike."""
    heads = list(dict.fromkeys(keys))
    size = len(keys) // len(heads)
    if len(heads) * size != len(keys) or size < 2 or len(heads) < 2:
        return None
    first = rests[:size]
    for k, head in enumerate(heads):
        block = slice(k * size, (k + 1) * size)
        if any(key != head for key in keys[block]) or rests[block] != first:
            return None
    return heads, first


def factor(labels: list[str]):
    """``(heads, middles, tails)`` when the labels are every ``head middle tail`` in that order.

    Options built as a product (a card, then a lot, then a face) read better as
    a grid. ``tails`` is ``[""]`` when the labels do not end in a product of
    their own. None when the labels are no such product.
    """
    words = [label.split() for label in labels]
    shortest = min(len(w) for w in words)
    best = ([" ".join(w) for w in words], [""])
    for n in range(1, shortest - 1):             # the longest shared set of endings
        found = _blocks([" ".join(w[:-n]) for w in words], [" ".join(w[-n:]) for w in words])
        if found:
            best = found
    stems, tails = best
    for n in range(shortest - 1, 0, -1):          # the longest heads that leave a product
        found = _blocks([" ".join(s.split()[:n]) for s in stems],
                        [" ".join(s.split()[n:]) for s in stems])
        if found:
            return found[0], found[1], tails
    return None


def option_grid(labels: list[str]):
    """Many options as a grid: a row per middle, a column per head, each cell its numbers."""
    found = factor(labels)
    if found is None:
        return None
    heads, middles, tails = found
    grid = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    grid.add_column("", no_wrap=True)             # a row a line: the headings wrap instead
    for head in heads:
        grid.add_column(head, justify="center")
    number = iter(range(1, len(labels) + 1))
    cells = [[] for _ in middles]
    for _ in heads:
        for row in cells:
            row.append("/".join(str(next(number)) for _ in tails))
    for middle, row in zip(middles, cells):
        grid.add_row(middle, *[Text(cell, style="bold yellow") for cell in row])
    key = "each cell: " + " / ".join(tails) if tails != [""] else "the option at each crossing"
    return grid, Text(f"{key}; answer with its number or the label's words", style="dim")


def _ids(value) -> list:
    """The record ids a zone (or numbered group of zones) or a variable of a view holds."""
    if isinstance(value, list):
        return [rid for item in value for rid in _ids(item)]
    if isinstance(value, dict):
        return list(value.get("cards", []))
    return [value] if isinstance(value, str) else []


def _rows(rules, layout) -> list:
    """A layout's table records grouped by its row field, highest row first."""
    records = [(rid, r) for rid, r in rules.entities.items()
               if isinstance(r, dict) and r.get("table") == layout["table"]]
    if "row" not in layout:
        return [(None, records)]
    rows: dict = {}
    for rid, record in records:
        rows.setdefault(record.get(layout["row"]), []).append((rid, record))
    return sorted(rows.items(), key=lambda p: p[0], reverse=True)


PLACE = re.compile(r"  · (\S+:\d+(?: \[[^\]]*\])?)$")      # a traced log line's file:line [rule ids]


def _placed(entry: str) -> tuple[str, str]:
    """A log line and the place ``--trace`` put after it (workbench/trace.annotated), or ''."""
    found = PLACE.search(entry)
    return (entry[:found.start()], found.group(1)) if found else (entry, "")


def height(console, renderable) -> int:
    """How many lines ``renderable`` takes on ``console``."""
    return len(console.render_lines(renderable, console.options, pad=False))


def fit(console, screen: Screen) -> Group:
    """The screen trimmed to the console's height: the log gives way first, then card texts, then rivals."""
    parts = [screen.header(), screen.body(), *screen.layouts()]
    options = screen.options()
    fixed = sum(height(console, p) for p in parts + options) + 1        # and the answer's line
    if fixed > console.height and not screen.full:                     # too many options: a grid
        options = screen.options(grid=True)
        fixed = sum(height(console, p) for p in parts + options) + 1
    room = console.height - fixed
    groups = screen.rival_groups()
    wanted = sum(len(lines) for _, lines in groups)
    records = screen.record_lines(console, 10_000 if screen.full else room - min(wanted, RIVAL_ROOM))
    parts += records                           # cards give way to rivals, up to RIVAL_ROOM lines
    room -= sum(height(console, r) for r in records)
    for most in range(screen.namer.look.opponent_lines - 1, 0, -1):   # fewer lines each, before fewer rivals
        if wanted <= room or screen.full:
            break
        groups = screen.rival_groups(most)
        wanted = sum(len(lines) for _, lines in groups)
    rivals = [line for _, lines in groups for line in lines] if screen.full else kept(groups, room)
    room -= sum(height(console, r) for r in rivals)
    log = screen.happened(len(screen.log) + 1 if screen.full else min(room, LOG_MAX + 1))
    return Group(*parts, *rivals, *log, *options)


def kept(groups: list[tuple[int, list]], room: int) -> list:
    """The rivals' lines that fit in ``room`` lines, in seat order: when not all fit, the
    rivals with the most entries stay and the others give way (``groups``: rival_groups)."""
    if sum(len(lines) for _, lines in groups) <= room:
        return [line for _, lines in groups for line in lines]
    order = sorted(range(len(groups)), key=lambda k: (-groups[k][0], k))
    chosen, used = set(), 0
    for k in order:
        if used + len(groups[k][1]) <= room:
            chosen.add(k)
            used += len(groups[k][1])
    return [line for k, (_, lines) in enumerate(groups) if k in chosen for line in lines]


def show(console, game, seat: int, log: list[str], full: bool = False) -> None:
    """Print one seat's screen on ``console``."""
    console.print(fit(console, Screen(game, seat, log, console.width, full)))


# ---------------------------------------------------------------- help and the end

def card_texts(game, labels, holder=None) -> list[str]:
    """``Name: text`` for every record an option label or the sheet names, that has a text."""
    rules, look = game.rules, game.rules.presentation
    out, seen = [], set()
    named = {}
    for rid, record in rules.entities.items():
        name = record.get("name") if isinstance(record, dict) else None
        if name and look.text_of(rules, rid):
            named.setdefault(name, rid)
    words = " ".join(labels) + " " + " ".join(strings_in(holder))
    for name, rid in named.items():
        if (name in words or rid in words) and name not in seen:
            seen.add(name)
            out.append(f"{name}: {look.text_of(rules, rid)}")
    return out


def strings_in(holder) -> list[str]:
    """Every string value in a view's holder (record ids among them)."""
    out = []
    stack = [holder] if holder is not None else []
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def score_table(game) -> Table:
    """The final scores: one column per seat, best first; a row per part of the breakdown."""
    look = game.rules.presentation
    result = game.result
    rivals = [i for i in range(len(result["scores"])) if i not in scoring.unranked(game)]
    order = sorted(rivals, key=lambda i: result["ranks"][i])
    table = Table(title="Final scores", title_justify="left", box=None, padding=(0, 2, 0, 0),
                  title_style="bold cyan")
    table.add_column("", style="bold", no_wrap=True, min_width=14)
    for i in order:
        table.add_column(game.seat_name(i), header_style="bold magenta")
    parts = {look.label(p): [_part(game.state["players"][i], p) for i in order] for p in look.score_parts}
    table.add_row("place", *[str(result["ranks"][i]) for i in order])
    for label, values in parts.items():
        table.add_row(label, *map(str, values))
    heads = [_head(result["scores"][i]) for i in order]
    if look.score_rest:
        rests = []
        for k, head in enumerate(heads):
            numbers = [v[k] for v in parts.values() if isinstance(v[k], (int, float))]
            rests.append(str(head - sum(numbers)) if isinstance(head, (int, float)) else "")
        table.add_row(look.score_rest, *rests)
    keys = [look.key_names(result["scores"][i]) for i in order]
    if all(keys) and len({len(k) for k in keys}) == 1:       # a key: a row per part, named
        for part, label in enumerate(keys[0]):
            table.add_row(label, *[str(result["scores"][i][part]) for i in order],
                          style="bold" if part == 0 else "")
    else:
        table.add_row("score", *[_score(result["scores"][i]) for i in order], style="bold")
    for name in game.rules.manifest.get("show", []):
        table.add_row(look.label(name), *[str(game.state["players"][i]["vars"].get(name, ""))
                                          for i in order])
    return table


def _head(score):
    return score[0] if isinstance(score, list) else score


def _score(score) -> str:
    return "/".join(map(str, score)) if isinstance(score, list) else str(score)


def _part(data: dict, name: str):
    if name in data.get("counters", {}):
        return data["counters"][name]
    return data.get("vars", {}).get(name, "")
