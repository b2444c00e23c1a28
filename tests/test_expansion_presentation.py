"""An expansion's presentation laid over its base game's (content/overlays.py merge_presentation,
content/presentation.py check): names and templates merged by key, a panel's names added after
one of the base's, two expansions naming one thing in conflict. Merica's landmark trackers and
island bar on the screen, at 100x40 and 80x24 (cli/table.py)."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.agents.driver import drive, random_mover
from interpreter.cli import table
from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game

ADDONS = Path(__file__).resolve().parent / "rulesets" / "addons"
TRACKERS = ("Pacific", "Mississippi", "Route 66", "Canada", "Colonies")


@pytest.fixture(scope="module")
def merica():
    return load_ruleset("secret-societies", expansions=("merica",))


def growth_screen(rules, players, seed, width, height):
    """A person's growth decision of round 2 or later, with few options, and its screen text."""
    game = Game.new(rules, players=players, seed=seed)
    drive(game, random_mover(seed), until=lambda g: g.state["vars"]["phase"] == "growth"
          and g.state["vars"]["round"] >= 2 and len(g.pending()[0].options) <= 4
          and not g.state["players"][g.pending()[0].player].get("scripted"))
    seat = game.pending()[0].player
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    table.show(console, game, seat, list(game.view(seat)["log"]))
    return game, seat, console.export_text()


def tracker_words(game, seat) -> list[str]:
    """What seat's sheet says of its five landmark trackers and its island bar."""
    me = game.view(seat)["players"][seat]
    words = [f"{name} {me['tracks'][track]}/12"
             for name, track in zip(TRACKERS, ("pacific", "mississippi", "route66", "canada", "colonies"))]
    return words + [f"Island bar rows {me['vars']['bar_islands']}"]


def test_the_merica_sheet_and_rival_lines_show_the_landmark_trackers_at_100x40(merica):
    game, seat, text = growth_screen(merica, 3, 2, 100, 40)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 39 and max(map(len, lines)) <= 100, text
    sheet = text.split("\nTable\n", 1)[0]
    flat = re.sub(r"\s+", " ", sheet)
    for words in tracker_words(game, seat):
        assert words in flat, (words, text)
    assert flat.index("Funding ") < flat.index("Pacific ")          # beside the base tracks
    for rival in range(game.people):
        if rival == seat:
            continue
        name = game.seat_name(rival)
        line = re.sub(r"\s+", " ", text.split(f"\n{name} Power ", 1)[1].split("\nP", 1)[0])
        for words in tracker_words(game, rival):
            assert words in line, (words, text)


def test_the_merica_sheet_shows_the_trackers_at_80x24(merica):
    game, seat, text = growth_screen(merica, 2, 5, 80, 24)
    lines = text.rstrip("\n").splitlines()
    assert max(map(len, lines)) <= 80, text
    sheet = re.sub(r"\s+", " ", text.split("\nTable\n", 1)[0])
    for words in tracker_words(game, seat):
        assert words in sheet, (words, text)
    base, _, plain = growth_screen(load_ruleset("secret-societies"), 2, 5, 80, 24)
    assert "Pacific" not in plain and "Island bar" not in plain
    mine = text.split("\nTable\n", 1)[0].count("\n")
    theirs = plain.split("\nTable\n", 1)[0].count("\n")
    assert mine <= theirs + 3, (text, plain)                  # six items, two or three lines at 80


# ---------------------------------------------------------------- the overlay itself

@pytest.fixture
def copy(tmp_path) -> Path:
    shutil.copytree(ADDONS, tmp_path / "addons")
    base = tmp_path / "addons"
    (base / "presentation.yaml").write_text("names: {points: Points}\npanels:\n  sheet: [points, hand]\n",
                                            encoding="utf-8")
    manifest = base / "game.yaml"
    manifest.write_text(manifest.read_text().replace("flow: flow.yaml\n", "flow: flow.yaml\npresentation: presentation.yaml\n"))
    return base


def lay(copy, expansion, text) -> Path:
    folder = copy / "expansions" / expansion
    (folder / "presentation.yaml").write_text(text, encoding="utf-8")
    manifest = folder / "expansion.yaml"
    manifest.write_text(manifest.read_text() + "presentation: presentation.yaml\n")
    return folder / "presentation.yaml"


def test_an_expansion_adds_names_and_panel_entries_after_a_base_one(copy):
    lay(copy, "tin", "names: {hand: Tin hand, discard: Tin pile}\nhidden: [deck]\n"
                     "panels:\n  sheet: {after: points, add: [hand]}\n  table: [discard]\n")
    look = load_ruleset(str(copy), expansions=("tin",)).presentation
    assert look.names == {"points": "Points", "hand": "Tin hand", "discard": "Tin pile"}
    assert look.panels["sheet"] == ["points", "hand"] and "table" not in look.panels   # shown whole already
    assert look.hidden == {"deck"}
    lay(copy, "bronze", "panels:\n  sheet: [discard]\n")
    with pytest.raises(ContentError) as caught:                 # a table's zone on a player's sheet
        load_ruleset(str(copy), expansions=("bronze",))
    assert "'discard' is not one of a player's components" in str(caught.value)


def test_two_expansions_naming_one_component_conflict_at_both_places(copy):
    lay(copy, "tin", "names: {hand: Tin hand}\n")
    bronze = lay(copy, "bronze", "names:\n  hand: Bronze hand\n")
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(copy), expansions=("tin", "bronze"))
    [diag] = caught.value.diagnostics
    assert diag.code == "expansion-conflict" and diag.file.endswith("bronze/presentation.yaml")
    assert diag.line == 2 and "tin/presentation.yaml:1:" in diag.message
    assert "'hand'" in diag.message


def test_after_names_one_of_the_base_panel_and_only_an_expansion_inserts(copy):
    written = lay(copy, "tin", "panels:\n  sheet: {after: pointz, add: [hand]}\n")
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(copy), expansions=("tin",))
    [diag] = caught.value.diagnostics
    assert "'pointz' is not in the base game's 'sheet' panel" in diag.message and "points" in (diag.hint or "")
    assert diag.file == str(written) or diag.file.endswith("tin/presentation.yaml")
    (copy / "presentation.yaml").write_text("panels:\n  sheet: {after: points, add: [hand]}\n")
    with pytest.raises(ContentError, match="only an expansion's presentation adds names"):
        load_ruleset(str(copy))
