"""The generic auction (interpreter/mechanics/auction.py) on the fixture tests/rulesets/auction.

The fixture bends the auction the way factions do, each with a listener
record or a modifier and no code: a support token that pays the buyer, a
tie winner, a discount on the face-down lot, a peek at it (the auction's
``visible_to``), a skim of stacked coins, a bid moved on before the reveal,
a drone (a scripted seat that wins ties) and a dummy set (loses ties).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.determinise import determinise
from interpreter.engine.game import Game
from interpreter.diagnostics import ContentError
from interpreter.model.values import Condition, RuleError

FIXTURE = Path(__file__).resolve().parent / "rulesets" / "auction"
RULES = load_ruleset(str(FIXTURE))


def new(players=3, seed=1) -> Game:
    return Game.new(RULES, players=players, seed=seed)


def pick(game: Game, seat: int, *starts: str) -> None:
    """Answer ``seat``'s decision with the first option whose label starts with each text in turn."""
    for start in starts:
        decision = game.decision_for(seat)
        assert decision is not None, f"P{seat + 1} has no decision (wanted {start!r})"
        labels = list(decision.options)
        found = [k for k, label in enumerate(labels) if label.startswith(start)]
        assert found, f"P{seat + 1}: no option starts with {start!r}: {labels}"
        game.apply(seat, found[0])


def bid(game, seat, card, lot, face="face up", coins="0 coin"):
    pick(game, seat, card, f"lot {lot}")
    if game.decision_for(seat) is not None and game.decision_for(seat).prompt == "a face":
        pick(game, seat, face)
    if game.decision_for(seat) is not None and game.decision_for(seat).prompt == "coins to stack":
        pick(game, seat, coins)


def market(game) -> dict:
    return game.state["auctions"]["market"]


def counter(game, seat, name="coin"):
    return game.state["players"][seat]["counters"][name]


def round_one(game, bids):
    """The sponsor supports lot 1, then each (seat, card, lot, face, coins) in bidding order."""
    pick(game, 0, "support")
    for args in bids:
        bid(game, *args)


# ---------------------------------------------------------------- placing bids

def test_lay_takes_the_lots_out_of_their_zone_and_lays_the_last_face_down():
    game = new()
    lots = market(game)["lots"]
    assert [lot["down"] for lot in lots] == [False, False, True]
    assert not any(lot["id"] in game.state["zones"]["deck"] for lot in lots)
    assert len(game.state["zones"]["deck"]) == 5


def test_a_bid_takes_its_card_and_pays_its_coins_within_the_stack_limit():
    game = new()
    round_one(game, [(0, "Red 1", 1, "face up", "3 coin")])
    placed = market(game)["bids"][-1]
    assert (placed["card"], placed["lot"], placed["coins"], placed["owner"]) == ("r1", 1, 3, 0)
    assert "r1" not in game.state["players"][0]["zones"]["hand"]
    assert counter(game, 0) == 5
    # Blue 3 holds 2 face up, and the hoarder's +1 (a stack modifier) makes it 3.
    pick(game, 1, "Blue 3", "lot 2")
    assert list(game.decision_for(1).options)[-1] == "face down"
    pick(game, 1, "face up")
    assert list(game.decision_for(1).options) == ["0 coin", "1 coin", "2 coin", "3 coin"]


def test_a_card_without_a_face_down_side_is_only_offered_face_up():
    game = new()
    pick(game, 0, "support", "Red 3", "lot 1")
    assert game.decision_for(0).prompt == "coins to stack"      # the face was the only option


def test_the_bid_verb_refuses_too_many_coins_and_changes_nothing():
    game = new()
    before = game.to_json()
    with pytest.raises(RuleError, match="at most 2 coins face down"):
        game.execute('bid r1 at lots(market)[1] with {down: true, coins: 3}', player=0)
    with pytest.raises(RuleError, match="no face-down side"):
        game.execute('bid r3 at lots(market)[1] with {down: true}', player=0)
    assert game.to_json() == before


# ---------------------------------------------------------------- hidden information

def face_down_game():
    """P2 bids Blue 1 face down on lot 1; P1 and P3 have not seen it."""
    game = new()
    round_one(game, [(0, "Red 1", 1), (1, "Blue 1", 1, "face down", "2 coin")])
    return game


def test_a_face_down_bid_shows_only_to_its_owner():
    game = face_down_game()
    mine = [b for b in game.view(1)["auctions"]["market"]["bids"] if b["owner"] == 1][0]
    theirs = [b for b in game.view(0)["auctions"]["market"]["bids"] if b["owner"] == 1][0]
    assert mine["card"] == "b1"
    assert theirs["card"] is None and theirs["value"] is None and theirs["coins"] == 2
    assert not any("Blue 1" in line for line in game.view(0)["log"])
    assert any("Blue 1" in line for line in game.view(1)["log"])


def test_the_face_down_lot_shows_only_to_whom_visible_to_names():
    game = new()
    assert game.view(0)["auctions"]["market"]["lots"][2]["id"] is None
    assert game.view(1)["auctions"]["market"]["lots"][2]["id"] == market(game)["lots"][2]["id"]  # the seer


def test_show_lets_one_seat_see_a_face_down_bid():
    game = face_down_game()
    game.execute("show bids(lots(market)[1])[2] to players[3]")
    assert [b["card"] for b in game.view(2)["auctions"]["market"]["bids"] if b["owner"] == 1] == ["b1"]
    assert [b["card"] for b in game.view(0)["auctions"]["market"]["bids"] if b["owner"] == 1] == [None]


def test_look_ahead_deals_the_hidden_bid_afresh_and_keeps_the_view():
    game = face_down_game()
    dealt = set()
    for seed in range(12):
        det = determinise(game, 0, seed)
        assert det.view(0)["auctions"] == game.view(0)["auctions"]
        card = [b for b in det.state["auctions"]["market"]["bids"] if b["owner"] == 1][0]["card"]
        hand = det.state["players"][1]["zones"]["hand"]
        assert card is not None and card not in hand
        dealt.add(card)
    assert len(dealt) > 1                       # not the true card every time: it was never seen
    assert "r1" not in dealt                    # a card the viewer sees is never dealt


def test_look_ahead_deals_the_face_down_lot_from_unseen_lots():
    game = new()
    true_lot = market(game)["lots"][2]["id"]
    seen = {lot["id"] for lot in market(game)["lots"][:2]}
    ids = {determinise(game, 0, seed).state["auctions"]["market"]["lots"][2]["id"] for seed in range(12)}
    assert not ids & seen and len(ids) > 1
    assert {determinise(game, 1, seed).state["auctions"]["market"]["lots"][2]["id"]
            for seed in range(4)} == {true_lot}          # the seer knows it


# ---------------------------------------------------------------- resolving

def to_resolution(game, bids):
    round_one(game, bids)


def decline_until(game, heard: str) -> None:
    """Everyone declines (and leaves bids where they are) until the herald has heard ``heard``."""
    while heard not in game.state["vars"]["heard"]:
        decision = game.pending()[0]
        pick(game, decision.player, "decline" if decision.prompt.startswith("buy") else "leave it")


def test_ranking_ties_go_by_the_declared_tie_function():
    game = new()
    # lot 2: the drone bids 1; P1 bids 1 (ties the drone), P2 (the duelist) ties P3 on lot 1.
    to_resolution(game, [(0, "Red 1", 2), (1, "Blue 2", 1), (2, "Green 2", 1),
                         (0, "Red 2", 3), (1, "Blue 1", 3), (2, "Green 1", 3)])
    assert game.evaluate("ranking(lots(market)[1])") == game.evaluate("[players[2], players[3]]")
    assert game.evaluate("ranking(lots(market)[2])[1] == drone")


def test_the_buyer_pays_the_printed_values_and_the_lot_goes_where_lot_to_says():
    game = new()
    to_resolution(game, [(0, "Red 2", 1, "face up", "3 coin"), (1, "Blue 1", 1),
                         (2, "Green 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    # P1 is asked first; scout: no move on lot 1's bid
    pick(game, 0, "leave it")
    assert list(game.decision_for(0).options)[0].startswith("buy")
    coins = counter(game, 0)
    lot = market(game)["lots"][0]["id"]
    pick(game, 0, "buy")
    assert counter(game, 0) == coins - 2 + 1            # price 2, then the sponsor's 1 to the buyer
    assert game.state["players"][0]["zones"]["gallery"][0] == lot
    assert game.state["zones"]["vault"][0] == "r2"       # won_to
    assert "b1" in game.state["players"][1]["zones"]["hand"]      # lost_to
    assert counter(game, 1) == 8 + 2                    # Blue 1's lose effect: gain 2 coin


def test_a_decline_passes_the_lot_down_the_ranking():
    game = new()
    to_resolution(game, [(0, "Red 2", 1, "face up", "3 coin"), (1, "Blue 1", 1),
                         (2, "Green 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    pick(game, 0, "leave it", "decline")
    assert game.decision_for(1) is not None and list(game.decision_for(1).options)[0] == \
        f"buy {RULES.entities[market(game)['lots'][0]['id']]['name']} for 1 coin"
    pick(game, 1, "buy")
    lot = market(game)["lots"][0]
    assert lot["status"] == "bought" and lot["buyer"] == 1
    assert counter(game, 0) == 8 - 3 + 0                # the decliner's coins are gone; Red 2 has no lose


def test_the_drone_takes_its_lot_free_when_unopposed():
    game = new()
    to_resolution(game, [(0, "Red 1", 1), (1, "Blue 1", 1), (2, "Green 1", 1),
                         (0, "Red 2", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    decline_until(game, "after_lot 2")
    heard = game.state["vars"]["heard"]
    assert heard[heard.index("ranked 2"):heard.index("after_lot 2") + 1] == [
        "ranked 2", "price_computed 2 4 0", "price_paid 2 4 0", "coins_returned 2", "bid_won 2 4",
        "after_lot 2"]                                     # offered first, free, never asked
    lot2 = market(game)["lots"][1]
    assert lot2["status"] == "bought" and lot2["buyer"] == game.people   # the drone, unopposed
    drone = game.state["players"][game.people]
    assert drone["zones"]["gallery"] == [lot2["id"]]


def test_the_drone_gains_a_coin_when_a_player_wins_its_lot_and_bids_it_next_round():
    game = new()
    to_resolution(game, [(0, "Red 2", 2), (1, "Blue 1", 1), (2, "Green 1", 1),
                         (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    decline_until(game, "ranked 2")
    drone = game.people
    assert counter(game, drone) == 1                      # an opponent ranks first: +1 (ranked)
    pick(game, 0, "buy")
    assert market(game)["lots"][1]["buyer"] == 0
    decline_until(game, "after_lot 3")
    pick(game, 0, "support")                              # round 2: then the drone bids
    placed = [b for b in market(game)["bids"] if b["owner"] == drone]
    assert [(b["lot"], b["value"], b["coins"]) for b in placed] == [(2, 1, 1)]
    assert counter(game, drone) == 0                      # its coins are on its bid now


def test_save_and_load_in_the_middle_of_a_resolution():
    game = new()
    to_resolution(game, [(0, "Red 2", 1, "face up", "3 coin"), (1, "Blue 1", 1),
                         (2, "Green 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    pick(game, 0, "leave it")
    saved = Game.from_json(RULES, game.to_json())
    pick(game, 0, "decline")
    pick(saved, 0, "decline")
    assert saved.to_json() == game.to_json()


def test_a_whole_game_is_the_same_for_the_same_seed():
    from interpreter.agents.driver import drive, random_mover
    runs = []
    for _ in range(2):
        game = new(players=2, seed=4)
        drive(game, random_mover(4))
        runs.append(game.to_json())
    assert runs[0] == runs[1] and json.loads(runs[0])["result"] is not None


# ---------------------------------------------------------------- the loader

def copy_fixture(tmp_path) -> Path:
    target = tmp_path / "auction"
    shutil.copytree(FIXTURE, target)
    return target


def test_a_hook_point_declared_with_other_names_is_refused(tmp_path):
    folder = copy_fixture(tmp_path)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace("price_paid: {names: [lot, buyer, price]",
                                             "price_paid: {names: [lot, buyer]"))
    with pytest.raises(ContentError, match="hook point 'price_paid' is raised by the auction"):
        load_ruleset(str(folder))


def test_an_unknown_flow_function_is_refused_at_its_line(tmp_path):
    folder = copy_fixture(tmp_path)
    components = folder / "components.yaml"
    components.write_text(components.read_text().replace("lot_to: lot_home", "lot_to: lot_hom"))
    with pytest.raises(ContentError, match=r"components.yaml:\d+:\d+.*'lot_hom' is not a flow function"):
        load_ruleset(str(folder))


# ---------------------------------------------------------------- the hook points, and listeners

def test_the_hook_points_come_in_order():
    game = new()
    to_resolution(game, [(0, "Red 2", 1, "face up", "3 coin"), (1, "Blue 1", 1, "face down"),
                         (2, "Green 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    pick(game, 0, "leave it", "decline", )
    pick(game, 1, "buy")
    heard = game.state["vars"]["heard"]
    assert heard[:10] == ["lot_revealed 1", "lot_revealed 2", "before_bidding"] + ["bid_placed 2"] + [
        "bid_placed 1", "bid_placed 1", "bid_placed 2", "bid_placed 3", "bid_placed 3", "bid_placed 3"]
    assert heard[10:30] == [
        "before_reveal 1", "bids_revealed 1", "ranked 1",
        "price_computed 1 1 2", "declined 1 1", "price_computed 1 2 1", "price_paid 1 2 1",
        "coins_returned 1", "bid_won 1 2", "bid_lost 1 1", "after_lot 1",
        "before_reveal 2", "bids_revealed 2", "ranked 2", "price_computed 2 4 0", "price_paid 2 4 0",
        "coins_returned 2", "bid_won 2 4", "bid_lost 2 3", "after_lot 2"]


def test_a_lot_nobody_buys_is_unsold_and_every_bidder_loses():
    game = new()
    to_resolution(game, [(0, "Red 2", 3), (1, "Blue 1", 3), (2, "Green 1", 3),
                         (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    assert "lot_unsold 1" in game.state["vars"]["heard"]         # nobody bid on lot 1
    lot = market(game)["lots"][0]
    assert (lot["status"], lot["buyer"]) == ("awarded", 2)      # the collector's free take
    assert game.state["players"][2]["zones"]["gallery"] == [lot["id"]]
    decline_until(game, "after_lot 3")
    heard = game.state["vars"]["heard"]
    heard = heard[:heard.index("after_lot 3") + 1]
    assert heard[-10:] == ["declined 3 3", "coins_returned 3", "bid_lost 3 2", "bid_lost 3 2",
                           "bid_lost 3 1", "bid_lost 3 1", "bid_lost 3 3", "bid_lost 3 3",
                           "lot_unsold 3", "after_lot 3"]
    assert market(game)["lots"][2]["status"] == "open"          # round 2's row
    assert game.state["zones"]["discard"][0] == "amber"          # round 1's face-down lot, unsold


def test_the_tie_winner_beats_an_earlier_seat_and_the_sponsor_pays_the_buyer():
    game = new()
    to_resolution(game, [(0, "Red 2", 1), (1, "Blue 2", 1), (2, "Green 1", 2),
                         (0, "Red 1", 3), (1, "Blue 1", 3), (2, "Green 2", 3)])
    pick(game, 0, "leave it")
    assert game.decision_for(1) is not None                 # the duelist, tied with P1, is asked first
    pick(game, 1, "buy")
    assert counter(game, 1) == 8 - 2 + 1                    # price 2; the support token's reward


def test_a_discount_on_the_face_down_lot_and_a_skim_after_the_price():
    game = new()
    to_resolution(game, [(0, "Red 2", 3, "face down", "2 coin"), (1, "Blue 1", 3, "face up", "1 coin"),
                         (2, "Green 1", 3), (0, "Red 1", 2), (1, "Blue 2", 2), (2, "Green 2", 2)])
    decline_until(game, "ranked 3")
    # Red 2 less the broker's 1, and the toll's fee of 1 to P2 (a charge: paid only on buying)
    assert game.decision_for(0).options[0].endswith("for 2 coin")
    skimmer, toll, buyer = counter(game, 2), counter(game, 1), counter(game, 0)
    pick(game, 0, "buy")
    assert counter(game, 2) == skimmer + 2                  # 2 of the 3 stacked on others' bids
    assert counter(game, 1) == toll + 1 + 2 and counter(game, 0) == buyer - 2   # + Blue 1 lost: 2
    assert "price_paid 3 1 1" in game.state["vars"]["heard"]


def test_a_bid_moved_on_before_the_reveal_counts_on_the_next_lot():
    game = new()
    to_resolution(game, [(0, "Red 2", 1, "face up", "1 coin"), (1, "Blue 1", 2),
                         (2, "Green 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)])
    pick(game, 0, "move it")
    assert market(game)["lots"][0]["status"] == "awarded"           # empty now: the collector's
    assert [b["owner"] for b in market(game)["bids"] if b["lot"] == 2].count(0) == 1
    assert "bid_placed" not in game.state["vars"]["heard"][-6:]      # a move is not a new bid


def test_two_players_a_ghost_bid_loses_ties_and_its_lot_is_discarded():
    game = new(players=2, seed=1)
    pick(game, 0, "support", "Ghost 2", "lot 1")
    ghost = game.people + 1
    placed = [b for b in market(game)["bids"] if b["owner"] == ghost]
    assert placed and placed[0]["down"] and placed[0]["by"] == 0
    assert [b["card"] for b in game.view(1)["auctions"]["market"]["bids"] if b["owner"] == ghost] == [None]
    for args in [(0, "Red 2", 1), (1, "Blue 1", 2), (0, "Red 1", 3), (1, "Blue 2", 3)]:
        bid(game, *args)
    pick(game, 0, "leave it")
    assert game.evaluate("ranking(lots(market)[1])") == game.evaluate("[players[1], ghost]")
    pick(game, 0, "decline")
    lot = market(game)["lots"][0]
    assert lot["buyer"] == ghost and lot["id"] in game.state["zones"]["discard"]
    assert "x2" not in json.dumps(game.state["zones"]) and "x2" not in json.dumps(
        [p["zones"] for p in game.state["players"]])         # a dummy card leaves play


def test_look_ahead_deals_a_hidden_card_only_where_its_kind_can_be():
    """The ghost's cards and the players' sets are one table but start in two zones (``where``):
    a look-ahead never deals a hidden ghost card into a hand, nor a player's card to the ghost."""
    game = new(players=2, seed=1)
    pick(game, 0, "support", "Ghost 2", "lot 1")
    ghost = game.people + 1
    kind = {card: game.rules.entities[card]["set"] for card in game.rules.tables["cards"]}
    dealt = set()
    for seed in range(16):
        det = determinise(game, 1, seed)
        assert det.view(1) == game.view(1)
        players = det.state["players"]
        bid_card = [b for b in det.state["auctions"]["market"]["bids"] if b["owner"] == ghost][0]["card"]
        assert {kind[c] for c in players[ghost]["zones"]["hand"] + [bid_card]} == {"ghost"}
        assert "ghost" not in {kind[c] for c in players[0]["zones"]["hand"] + det.state["zones"]["box"]}
        dealt.add(bid_card)
    assert len(dealt) > 1                       # still dealt afresh among the ghost's cards


def test_without_visible_to_nobody_sees_the_face_down_lot(tmp_path):
    folder = copy_fixture(tmp_path)
    components = folder / "components.yaml"
    components.write_text("\n".join(line for line in components.read_text().splitlines()
                                    if "visible_to: \"'seer'" not in line) + "\n")
    game = Game.new(load_ruleset(str(folder)), players=3, seed=1)
    assert all(game.view(i)["auctions"]["market"]["lots"][2]["id"] is None for i in range(3))


def test_the_conformance_leak_check_catches_a_view_that_shows_face_down_cards(monkeypatch):
    from dataclasses import replace
    from interpreter import mechanics
    from tests.conformance.harness import random_playout
    real = mechanics.COMPONENTS["auctions"]

    def leaky(game, name, spec, data, *rest):
        return {"lots": [dict(lot) for lot in data["lots"]], "bids": [dict(b) for b in data["bids"]]}
    monkeypatch.setitem(mechanics.COMPONENTS, "auctions", replace(real, view=leaky))
    with pytest.raises(AssertionError, match="view changes with things hidden"):
        for seed in range(4):
            random_playout(RULES, 2, {}, seed)


def test_a_terminal_draws_the_row_with_the_bids_as_the_viewer_sees_them():
    from interpreter.mechanics.auction import draw
    game = face_down_game()
    other = draw(RULES, "market", None, game.view(0)["auctions"]["market"])
    mine = draw(RULES, "market", None, game.view(1)["auctions"]["market"])
    assert other.startswith("market:\n1 Opal [support P1]: P1 Red 1+0, P2 ?+2 face down\n2 Pearl: The Drone 1+0")
    assert other.endswith("\n3 ? (face down): -")
    assert "P2 Blue 1+2 face down" in mine and "3 Amber (face down)" in mine      # P2 is the seer
    shown = game.view(0)["auctions"]["market"]
    shown["lots"][0]["tokens"].append({"kind": "fee", "owner": 1, "side": "B"})
    assert draw(RULES, "market", None, shown).startswith("market:\n1 Opal [support P1, fee B P2]:")  # a side shows


def test_a_bids_tokens_are_drawn_with_whose_they_are():
    from interpreter.mechanics.auction import draw
    game = face_down_game()
    game.execute('token "peek" on bids(lots(market)[1])[2] with {owner: players[3]}')
    shown = draw(RULES, "market", None, game.view(0)["auctions"]["market"])
    assert "P2 ?+2 face down [peek P3]" in shown and "P1 Red 1+0," in shown   # none on P1's bid


def test_lay_refuses_a_row_with_open_lots_and_award_an_open_lot():
    game = new()
    before = game.to_json()
    with pytest.raises(RuleError, match="open lots"):
        game.execute("lay [onyx] on market")
    with pytest.raises(RuleError, match="not being settled unsold"):
        game.execute("award lots(market)[1] to players[1]")
    assert game.to_json() == before


def test_a_charge_is_not_paid_by_a_bidder_who_declines():
    game = new()
    to_resolution(game, [(0, "Red 2", 3), (1, "Blue 1", 1), (2, "Green 1", 1),
                         (0, "Red 1", 2), (1, "Blue 2", 2), (2, "Green 2", 2)])
    decline_until(game, "ranked 3")
    toll = counter(game, 1)
    pick(game, 0, "decline")
    assert counter(game, 1) == toll
    assert "price_computed 3 1 1" in game.state["vars"]["heard"]


def test_the_verbs_that_bend_a_bid():
    game = face_down_game()                 # the drone on lot 2; P1 Red 1 and P2 Blue 1 (down, 2) on lot 1
    game.execute("revalue bids(lots(market)[1])[1] to 5")
    assert game.evaluate("bid_total(lots(market)[1], players[1])") == 5
    assert game.evaluate("ranking(lots(market)[1])") == game.evaluate("[players[1], players[2]]")
    game.execute("transfer bids(lots(market)[2])[1] to players[3]")        # a combine
    assert game.evaluate("ranking(lots(market)[2]) == [players[3]]")
    game.execute("stack 2 on bids(lots(market)[1])[1]", player=0)
    assert game.evaluate("bids(lots(market)[1])[1].coins") == 2 and counter(game, 0) == 6
    with pytest.raises(RuleError, match="at most 3 coins"):
        game.execute("stack 2 on bids(lots(market)[1])[1]", player=0)
    game.execute("uncover bids(lots(market)[1])[2]")
    assert game.view(0)["auctions"]["market"]["bids"][2]["card"] == "b1"
    game.execute('token "charm" on bids(lots(market)[1])[2] with {side: "red"}', player=2)
    assert game.evaluate("bids(lots(market)[1])[2].tokens") == game.evaluate(
        '[{"kind": "charm", "owner": players[3], "side": "red"}]')
    game.execute('untoken "charm" from bids(lots(market)[1])[2]')
    assert game.evaluate("bids(lots(market)[1])[2].tokens") == []
    with pytest.raises(RuleError, match="no 'charm' token|no charm token"):
        game.execute('untoken "charm" from bids(lots(market)[1])[2]')
    with pytest.raises(RuleError, match="offer being decided"):
        game.execute("charge 1 on lots(market)[1]")
    assert game.evaluate("stack_limit(market, players[2], b3, true)") == 2       # 1, the hoarder's +1
    assert game.evaluate("stack_limit(market, players[1], r3, true)") is None


def test_sources_outlast_a_step_only_when_the_sources_function_reads_no_auction():
    """auction.resume keeps the seats' in-play records across a step that changes only the
    row: only when the sources function reaches no auction function, directly, through a
    ruleset function, or through a function that may read anything."""
    from interpreter.dsl.parser import parse_expression
    from interpreter.mechanics.auction import _sources_apart

    def apart_with(expr: str, helper: str = "p.in_hand") -> bool:
        rules = load_ruleset(str(FIXTURE))
        rules.functions = dict(rules.functions, in_play=(["p"], parse_expression(expr)),
                               helper=(["p"], parse_expression(helper)))
        return _sources_apart(rules)

    assert _sources_apart(load_ruleset(str(FIXTURE)))                         # p.in_hand
    assert apart_with("helper(p) + p.in_hand")
    assert not apart_with('if count(lots("market")) > 0 then p.in_hand else []')
    assert not apart_with("helper(p)", helper='if resolving("market") == none then p.in_hand else []')
    assert not apart_with('if modifier(p, "stack") > 0 then p.in_hand else []')

    rules = load_ruleset(str(FIXTURE))                  # a condition field is read: its text too
    rules.functions = dict(rules.functions, in_play=(["p"], parse_expression(
        "list(c for c in p.in_hand if c.lively)")))
    rules.expressions = dict(rules.expressions, **{"sponsor.lively": parse_expression(
        'resolving("market") != none')})
    rules.entities["sponsor"] = dict(rules.entities["sponsor"], lively=Condition("sponsor.lively"))
    assert not _sources_apart(rules)


def test_a_flow_function_run_after_a_write_in_the_same_step_reads_the_write(tmp_path):
    """The memo of ruleset function results lasts a statement, but the settling step writes
    between the flow functions it runs: each card it places is seen by the next ``lost_to``,
    and the row it has cleared (``resolving`` none) by ``lot_to``. A result kept from before
    a write would put every losing card in the discard, and the lot in the vault."""
    folder = copy_fixture(tmp_path)
    flow = folder / "flow.yaml"
    text = flow.read_text()
    for old, new in [
            ("expr: if owner.scripted then none else owner.hand",
             "expr: if owner.scripted or not settling() or not bare() then owner.hand else discard"),
            ("if lot.buyer == none or lot.buyer == ghost then discard",
             "if settling() then vault else if lot.buyer == none or lot.buyer == ghost then discard"),
            ("  won_home:", "  bare:\n    expr: count(c for c in discard) == 0\n"
                            "  settling:\n    expr: count(l for l in [resolving(market)] if l != none) > 0\n"
                            "  won_home:")]:
        assert old in text
        text = text.replace(old, new)
    flow.write_text(text)
    rules = load_ruleset(str(folder))
    game = Game.new(rules, players=3, seed=1)
    assert game.evaluate("settling()") is False and game.evaluate("bare()") is True
    for seat, card, lot in [(0, "Red 2", 3), (1, "Blue 1", 3), (2, "Green 1", 3),
                            (0, "Red 1", 3), (1, "Blue 2", 3), (2, "Green 2", 3)]:
        if seat == 0 and card == "Red 2":
            pick(game, 0, "support")
        bid(game, seat, card, lot)
    decline_until(game, "after_lot 3")
    discard = game.state["zones"]["discard"]
    assert discard[0] == "amber"                    # lot 3, unsold: lot_to saw the row cleared
    bid_cards = [c for c in discard if c in rules.entities and "set" in rules.entities[c]]
    assert len(bid_cards) == 1                      # the first losing card; the rest went home
