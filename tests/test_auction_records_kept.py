"""The auction's lot and bid records are kept between statements (``auction._RECORDS``, ``_ROWS``,
``_bid_rows``) and made again only when their data changed: at every decision of random Secret
Societies games, what the kept records say is what records made afresh say."""
import random

from interpreter.content.ruleset import load_ruleset
from interpreter.engine.evaluate import Ctx
from interpreter.engine.game import Game
from interpreter.mechanics import auction


def _read(game, name):
    ctx = Ctx(game, {"self": None})
    game.memo.clear()                         # (the memo would give the same objects back)
    row = auction.lots(ctx, [name])
    placed = [auction.bids(ctx, [lot]) for lot in row]
    now = auction.resolving(ctx, [name])
    game.memo.clear()
    return row, placed, now


def _forget(game):
    auction._RECORDS.clear()
    auction._ROWS.clear()
    auction._bid_rows(game).clear()


def test_kept_records_are_those_made_afresh():
    rules = load_ruleset("rulesets/secret-societies")
    checked = tokens = 0
    for seed in (1, 2, 3):
        rnd = random.Random(seed)
        game = Game.new(rules, players=4, seed=seed)
        names = list(game.state["auctions"])
        while not game.over:
            for name in names:
                kept = _read(game, name)
                _forget(game)
                fresh = _read(game, name)
                assert kept == fresh
                assert _read(game, name) == fresh          # kept now, the same again
                checked += 1
                tokens += any(lot["tokens"] for lot in fresh[0])
            state = repr(game.state)
            _read(game, names[0])
            assert repr(game.state) == state              # reading them writes nothing
            d = game.pending()[0]
            game.apply(d.player, rnd.randrange(len(d.options)))
    assert checked > 100 and tokens > 0               # (the games reached lots with tokens on them)


def test_a_changed_lot_is_made_again():
    rules = load_ruleset("rulesets/secret-societies")
    game = Game.new(rules, players=4, seed=1)
    rnd = random.Random(1)
    name = next(iter(game.state["auctions"]))
    while not game.state["auctions"][name]["lots"]:
        d = game.pending()[0]
        game.apply(d.player, rnd.randrange(len(d.options)))
    row = _read(game, name)[0]
    lot = game.state["auctions"][name]["lots"][0]
    lot["tokens"].append({"kind": "test", "owner": 0, "side": None})
    lot["price"] = 7
    again = _read(game, name)[0]
    assert again[0]["price"] == 7 and again[0]["tokens"][-1]["kind"] == "test"
    assert row[0]["price"] != 7 or row[0] is not again[0]
    lot["tokens"].pop()
    assert _read(game, name)[0][0]["tokens"] == row[0]["tokens"]
