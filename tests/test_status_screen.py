"""Status at the terminal (issue 7, Players): the screen a person sees fits 100x40 and shows
their hand with each card's text, their house, the market, the events on offer with what they
need, the time of day and, in solo, the automaton's board and scenario card; no bookkeeping
variable is ever on it. Also the presentation's generic parts Status needs (content/presentation,
cli/table): record templates with optional parts, effects in words, layouts, card lists."""
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

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 100, 40


@pytest.fixture(scope="module")
def status():
    return load_ruleset("status")


def deciding(rules, players, seed, decisions, options=None):
    """A game after ``decisions`` random decisions, and the seat now to decide."""
    game = Game.new(rules, players=players, seed=seed, options=options or {})
    drive(game, random_mover(seed), until=lambda g: len(g.state["history"]) >= decisions)
    assert not game.over
    return game, game.pending()[0].player


def screen(game, seat) -> str:
    console = Console(record=True, width=WIDTH, height=HEIGHT, file=io.StringIO())
    table.show(console, game, seat, list(game.view(seat)["log"]))
    return console.export_text()


def flat(text: str) -> str:
    """The screen's words on one line (wrapped card texts joined again)."""
    return re.sub(r"\s+", " ", text)


def hidden_shown(game, text) -> list[str]:
    """Hidden components on the screen: by their own name, or their label with their value."""
    look, namer = game.rules.presentation, table.Namer(game)
    holders = [game.state] + game.state["players"]
    out = [name for name in look.hidden if "_" in name and name in text]
    for name in look.hidden:
        for holder in holders:
            for section in ("vars", "counters", "zones"):
                if name in holder.get(section, {}) and section != "zones":
                    if f"{look.label(name)} {namer.value(holder[section][name])}" in text:
                        out.append(name)
            if name in holder.get("zones", {}) and re.search(rf"\b{re.escape(look.label(name))} \d", text):
                out.append(name)
    return out


POINTS = [(1, 2), (1, 30), (1, 90), (2, 3), (2, 40), (2, 120), (4, 5), (4, 60), (4, 160)]


@pytest.mark.parametrize("players, decisions", POINTS)
def test_the_status_screen_fits_and_shows_the_table(status, players, decisions):
    game, seat = deciding(status, players, 11, decisions)
    text = screen(game, seat)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= HEIGHT - 1, text                       # and one line for the answer
    assert max(len(line) for line in lines) <= WIDTH
    words, view = flat(text), game.view(seat)
    me = view["players"][seat]
    look = status.presentation
    for card in me["zones"]["hand"]["cards"][:3]:               # the hand first: its texts stay
        assert status.entities[card]["name"] in words
        assert look.text_of(status, card)[:30] in words, (card, text)
    assert "Your house" in text                                 # every room with its capacity
    for room in (status.entities[rid] for rid in status.tables["rooms"]):
        assert f"{room['name']} " in text and f"/{room['capacity']}" in text
    for card in view["zones"]["estate_row"]["cards"] + view["zones"]["item_row"]["cards"]:
        assert status.entities[card]["name"] in words           # the market
    for space in view["zones"]["grand"]:                        # the events on offer
        for card in space.get("cards", []):
            assert status.entities[card]["name"] in words
    assert f"Time of day {view['vars']['time']}" in words
    assert hidden_shown(game, text) == []
    assert "(? help, u undo, q quit)" in text and " 1 " in text


@pytest.mark.parametrize("scenario", ["garden_party", "the_season"])
def test_solo_shows_the_automatons_board_and_the_scenario_card(status, scenario):
    game, seat = deciding(status, 1, 5, 40, {"scenario": scenario})
    text = flat(screen(game, seat))
    card = status.entities[scenario]
    assert "The Automaton " in text and "Automaton deck" in text and "Influence" in text
    assert card["name"] in text and card["text"][:25] in text


def test_the_automatons_tracks_show_each_category_with_its_steps(status):
    game, seat = deciding(status, 1, 5, 40)
    steps = game.state["vars"]["auto_steps"]
    assert steps
    text = flat(screen(game, seat))
    enum = status.table_specs["auto_cards"]["fields"]["category"]["enum"]
    assert "Automaton tracks " + ", ".join(f"{c} {steps.count(c)}" for c in enum) in text


def test_a_rival_takes_two_lines_when_there_is_room(status):
    game, seat = deciding(status, 2, 3, 40)
    lines = screen(game, seat).splitlines()
    other = game.seat_name(1 - seat)
    at = next(k for k, line in enumerate(lines) if line.startswith(other + " "))
    assert len(lines[at]) > WIDTH - 20 and lines[at + 1].startswith(" " * (len(other) + 1))


def test_no_automaton_board_with_people_only(status):
    game, seat = deciding(status, 3, 5, 10)
    assert "Automaton deck" not in screen(game, seat)


def test_a_long_hand_keeps_the_screen_inside_100x40(status):
    game, seat = deciding(status, 2, 3, 20)
    hand = game.state["players"][seat]["zones"]["hand"]
    estates = [rid for rid, r in status.entities.items() if r.get("table") == "estates"]
    hand.extend(estates[:14])                                   # a hand bigger than the screen
    text = screen(game, seat)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= HEIGHT - 1 and max(map(len, lines)) <= WIDTH
    assert status.entities[estates[0]]["name"] in text


def test_record_templates_drop_empty_parts_and_say_effects(status):
    look = status.presentation
    assert look.text_of(status, "dining_table") == "furniture, in Dining Room, 2 status"
    assert look.text_of(status, "watercolour_study").endswith(
        "1 status: draw a personal event (look at 2, keep 1)")
    telephone = look.text_of(status, "telephone")
    assert "roll the die" in telephone and "gain 3 status" in telephone and "roll_bonus" not in telephone
    assert look.text_of(status, "grand_mural").endswith("Recall")
    assert "needs 1 art, 1 furniture" in look.text_of(status, "tapestry").replace("1 furniture, 1 art", "1 art, 1 furniture")


@pytest.mark.parametrize("players", [1, 3])
def test_option_labels_never_name_a_hidden_card(status, players):
    game = Game.new(status, players=players, seed=7)
    move, seen = random_mover(7), set()
    for _ in range(150):
        seat = game.pending()[0].player
        labels = list(game.decision_for(seat).options)
        seen.update(labels)
        z = game.state["zones"]
        hidden = set(z["estate_deck"] + z["item_deck"] + z["pe_deck"] + z["grand_deck"] + z["auto_deck"])
        for other in range(players):
            if other != seat:
                hidden |= set(game.state["players"][other]["zones"]["hand"])
        names = {status.entities[rid]["name"] for rid in hidden}
        for label in labels:
            assert not any(name in label for name in names if len(name) > 4), label
        drive(game, move, until=lambda g, n=len(game.state["history"]) + 1: len(g.state["history"]) >= n)
        if game.over:
            break
    assert "Acquire (a market card)" in seen


def _status_with(tmp_path, presentation: str) -> Path:
    folder = tmp_path / "status"
    shutil.copytree(ROOT / "rulesets" / "status", folder)
    (folder / "presentation.yaml").write_text(presentation, encoding="utf-8")
    return folder


@pytest.mark.parametrize("text, words", [
    ("cards: [nowhere]\n", "'nowhere' is not a declared component"),
    ("layouts: {house: {title: H, table: nothing, list: pieces, at: room}}\n", "'nothing' is not a table"),
    ("layouts: {house: {title: H, table: rooms, list: pieces, at: room, row: storey}}\n",
     "'storey' is not a field of table 'rooms'"),
    ("panels: {scripted: [pool]}\n", "is not one of the table's components"),
    ("tallies: {auto_steps: {table: auto_cards, field: name}}\n", "is not a field of table 'auto_cards' with an enum"),
    ("tallies: {auto_steps: {table: nothing, field: category}}\n", "'nothing' is not a table"),
])
def test_the_new_presentation_parts_are_checked(tmp_path, text, words):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(_status_with(tmp_path, text)))
    rendered = str(caught.value) + " ".join(d.message for d in caught.value.diagnostics)
    assert words in rendered


def test_the_final_scores_and_the_help_texts(status):
    game = Game.new(status, players=2, seed=2)
    drive(game, random_mover(2))
    console = Console(record=True, width=WIDTH, file=io.StringIO())
    console.print(table.score_table(game))
    text = console.export_text()
    assert "Track" in text and "Status pool" in text and "place" in text
    # the standing is a key ([on the final space, pool, estate cards, items]): a named row each
    assert "/" not in text and "Estate cards" in text and "Items" in text
    rows = {line.split("  ")[0]: line.split()[-2:] for line in text.splitlines()}
    keys = game.result["scores"]
    order = sorted(range(2), key=lambda i: game.result["ranks"][i])
    assert rows["Estate cards"] == [str(keys[i][2]) for i in order]
    game, seat = deciding(status, 1, 2, 30)
    texts = table.card_texts(game, list(game.decision_for(seat).options), game.view(seat)["players"][seat])
    character = status.entities[game.state["players"][seat]["vars"]["character"]]
    assert f"{character['name']}: {character['ability']}" in texts
