"""The player's table: the presentation file, the screen at 80x24, answers, undo, saving,
resuming, watching and stepping through a game (cli/table.py, cli/human.py, cli/games.py)."""
from __future__ import annotations

import copy
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from interpreter.agents.driver import drive, random_mover
from interpreter.cli import games, table
from interpreter.cli.human import choose
from interpreter.cli.main import cli
from interpreter.content.presentation import Presentation
from interpreter.content.ruleset import load_ruleset
from interpreter.diagnostics import ContentError
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "rulesets" / "toy"
INTERNAL = ("traps_hit", "wall_passes", "free_next", "traps hit", "wall passes", "free next",
            "{grid:", "'$'", '"$"')


@pytest.fixture(scope="module")
def lairs():
    return load_ruleset("lairs")


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def screen_text(game, seat, log=(), width=80, height=24, full=False) -> str:
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    table.show(console, game, seat, list(log), full=full)
    return console.export_text()


def game_after(rules, players, seed, decisions) -> Game:
    game = Game.new(rules, players=players, seed=seed)
    drive(game, random_mover(seed), until=lambda g: len(g.state["history"]) >= decisions)
    return game


# ---------------------------------------------------------------- the presentation file

def test_lairs_has_a_presentation(lairs):
    look = lairs.presentation
    assert {"traps_hit", "wall_passes", "free_next"} <= look.hidden
    assert look.label("coin") == "Coins" and look.order("sheet", ["coin", "traps_hit", "lair"]) == ["lair", "coin"]
    assert look.text_of(lairs, "ghost").startswith("Have 10 or more STL. Now 2")
    assert look.text_of(lairs, "laser") is None                 # a record without a text


def test_without_a_presentation_everything_shows_by_its_name():
    toy = load_ruleset(str(TOY))
    assert toy.presentation == Presentation()
    assert toy.presentation.order("sheet", ["b", "a"]) == ["b", "a"]
    assert toy.presentation.label("mission_points") == "mission points"


def _toy_with(tmp_path, presentation: str) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "presentation: presentation.yaml\n",
                        encoding="utf-8")
    (folder / "presentation.yaml").write_text(presentation, encoding="utf-8")
    return folder


@pytest.mark.parametrize("text, words", [
    ("hidden: [nowhere]\n", "'nowhere' is not a declared component"),
    ("panels: {sheet: [nowhere]}\n", "is not one of a player's components"),
    ("records: {nothing: '{text}'}\n", "'nothing' is not a table"),
    ("colours: {}\n", "colours"),
])
def test_a_bad_presentation_is_a_content_error(tmp_path, text, words):
    folder = _toy_with(tmp_path, text)
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder))
    rendered = str(caught.value) + " ".join(d.message for d in caught.value.diagnostics)
    assert words in rendered
    assert any(d.file.endswith("presentation.yaml") and d.line >= 1 for d in caught.value.diagnostics)


def test_the_presentation_is_not_part_of_the_rules(lairs, tmp_path):
    # Changing how a game looks keeps its saved games good: the fingerprint ignores it.
    folder = tmp_path / "lairs"
    shutil.copytree(ROOT / "rulesets" / "lairs", folder)
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8").replace("presentation: presentation.yaml\n", "")
    manifest.write_text(text, encoding="utf-8")
    plain = load_ruleset(str(folder))
    assert plain.presentation == Presentation() and plain.fingerprint == lairs.fingerprint


# ---------------------------------------------------------------- the screen

@pytest.mark.parametrize("players, decisions", [(2, 0), (4, 0), (4, 150), (4, 250), (12, 40)])
def test_the_screen_fits_80x24_board_first(lairs, players, decisions):
    game = game_after(lairs, players, 3, decisions)
    seat = game.pending()[0].player
    text = screen_text(game, seat, game.view(seat)["log"])
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 23, text                               # and one line for the answer
    assert max(len(line) for line in lines) <= 80
    assert "Lair" in lines[1] and "+-----+" in lines[3]         # the board comes first
    assert " 1 " in text and "(? help, u undo, q quit)" in text
    for word in INTERNAL:
        assert word not in text, word


def test_options_are_numbered_from_one(lairs):
    game = Game.new(lairs, players=2, seed=3)
    labels = list(game.decision_for(0).options)
    text = screen_text(game, 0)
    for number, label in enumerate(labels, start=1):
        assert f"{number} {label}" in text
    assert f"0 {labels[0]}" not in text


def test_a_rival_line_shows_only_what_the_view_holds(lairs):
    game = game_after(lairs, 6, 4, 20)
    seat = game.pending()[0].player
    far = (seat + 3) % 6                                        # not a neighbour: counters hidden
    lines = [t.plain for t in table.Screen(game, seat, [], 80).rivals()]
    line = next(t for t in lines if f"P{far + 1} " in t or f"P{far + 1}, " in t)
    assert "Coins" not in line


def rival_lines(game, seat, width=80) -> dict:
    """Each rival's first line (a shared line under each name it holds), by seat name."""
    out = {}
    for text in table.Screen(game, seat, [], width).rivals():
        line = text.plain
        if line.startswith(" "):                                # a rival's next line
            continue
        names = line.split(" (nothing")[0].split(", ") if "(nothing" in line else [line.split()[0]]
        for name in names:
            out.setdefault(name, line)
    return out


def test_a_rival_line_says_what_the_table_knows_and_no_count_of_agent_cards(lairs):
    # Four players: P2 is nobody's neighbour of P4 (LR-PLAN-07): of P2 the table knows only
    # what is public (missions done, a full lair, the agent once revealed, whose lair it
    # explores), none of it yet; the one agent card in front of each player tells nothing.
    game = game_after(lairs, 4, 1, 20)
    seat = game.pending()[0].player
    assert seat == 3
    lines = rival_lines(game, seat)
    assert lines["P2"] == "P2 (nothing you may see)"
    assert lines["P1"].startswith("P1 Coins ") and lines["P3"].startswith("P3 Coins ")
    assert not any("Agent cards" in line or "Wealth" in line for line in lines.values())

    state = copy.deepcopy(game.state)
    for data in (state["players"][1], state["flow"]["snapshot"]["players"][1]):  # planning: at once
        data["vars"].update(missions_done=["vault"], full=True)
    other = Game.load(lairs, state)
    line = rival_lines(other, seat)["P2"]
    assert line == "P2 Missions done Vault · Lair full yes"


def test_while_exploring_every_rival_shows_its_agent_and_whose_lair_it_explores(lairs):
    game = Game.new(lairs, players=4, seed=1)
    drive(game, random_mover(1), until=lambda g: g.state["vars"]["phase"] == "exploration")
    drive(game, random_mover(1), until=lambda g: game.state["vars"]["revealed"] and g.pending())
    seat = game.pending()[0].player
    for name, line in rival_lines(game, seat, width=100).items():
        assert "Agent " in line and "Exploring P" in line, line


def test_at_twelve_players_the_neighbours_stay_and_the_others_share_a_line(lairs):
    # 80x24 has room for few rivals: those with the most to show (the neighbours, whose
    # sheets the player may see) stay; the nine others, with nothing to see, share a line.
    game = game_after(lairs, 12, 1, 60)
    seat = game.pending()[0].player
    text = screen_text(game, seat, game.view(seat)["log"])
    left, right = f"P{(seat - 1) % 12 + 1}", f"P{(seat + 1) % 12 + 1}"
    assert f"\n{left} Coins " in text and f"\n{right} Coins " in text, text
    others = [f"P{k + 1}" for k in range(12) if k not in (seat, (seat - 1) % 12, (seat + 1) % 12)]
    assert ", ".join(others) + " (nothing you may see)" in text


def test_the_rivals_with_most_to_show_stay_in_seat_order():
    groups = [(0, ["a"]), (5, ["b1", "b2"]), (2, ["c"]), (5, ["d"])]
    assert table.kept(groups, 10) == ["a", "b1", "b2", "c", "d"]
    assert table.kept(groups, 3) == ["b1", "b2", "d"]
    assert table.kept(groups, 2) == ["b1", "b2"]
    assert table.kept(groups, 1) == ["d"]                       # b does not fit: the next one does
    assert table.kept(groups, 0) == []


def test_the_full_screen_has_every_rivals_board_and_the_card_texts(lairs):
    game = Game.new(lairs, players=3, seed=3)
    text = screen_text(game, 0, game.view(0)["log"], height=200, full=True)
    assert "P2's Lair" in text and "P3's Lair" in text
    view = game.view(0)
    texts = table.card_texts(game, view["decision"]["options"], view["players"][0])
    agent = lairs.entities[view["players"][0]["zones"]["hand"]["cards"][0]]
    assert f"{agent['name']}: {agent['text']}" in texts


def test_an_explorer_sees_the_lair_being_explored(lairs):
    game = Game.new(lairs, players=2, seed=3)
    drive(game, random_mover(1), until=lambda g: any(
        p["vars"]["here"] is not None for p in g.state["players"]) and g.pending())
    seat = next(i for i, p in enumerate(game.state["players"]) if p["vars"]["here"] is not None)
    text = screen_text(game, seat)
    other = game.state["players"][seat]["vars"]["here"].of
    assert f"P{other + 1}'s Lair (@ you)" in text and "@" in text


def test_the_score_breakdown_adds_up(lairs):
    game = game_after(lairs, 3, 5, 10_000)
    console = Console(record=True, width=100, file=io.StringIO())
    console.print(table.score_table(game))
    text = console.export_text()
    assert "Secrets kept" in text and "Awards" in text and "Rank" in text
    rows = {line[:16].strip(): line[16:].split() for line in text.splitlines()}
    parts = ["Secrets kept", "Secrets stolen", "Coins", "Mission rewards", "Awards"]
    for seat in range(3):
        assert sum(int(rows[p][seat]) for p in parts) == int(rows["score"][seat])


# ---------------------------------------------------------------- answers

@pytest.mark.parametrize("answer, index, problem", [
    ("2", 1, None),
    ("0", None, "no option 0"),
    ("4", None, "no option 4"),
    ("MOVE to b3", 1, None),                     # a whole label, case aside
    ("c2", 2, None),                             # a unique part
    ("move", None, "fits 3 options"),
    ("zz", None, "no option fits"),
])
def test_choose(answer, index, problem):
    got, why = choose(["move to B1", "move to B3", "move to C2"], answer)
    assert got == index
    assert (why is None) if problem is None else (problem in why)


def test_a_human_game_to_the_end(tmp_path):
    result = run("play", "lairs", "-p", "2", "--seats", "human,random", "--seed", "2",
                 input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Lairs · P1 to decide" in out and "P1> " in out and "Lairs · P2 to decide" not in out
    assert "Final scores" in out and "Secrets kept" in out
    assert out.rstrip().splitlines()[-1].startswith(("winner: P", "tie: P"))
    for word in INTERNAL:
        assert word not in out, word


def test_partial_labels_help_and_refusals(lairs, tmp_path):
    first, second = Game.new(lairs, players=2, seed=3).decision_for(0).options[:2]
    part = first[1:4].lower()
    assert part not in second.lower()
    answers = f"?\n\nzzz\n99\n{part}\n" + "1\n" * 3000
    save = tmp_path / "game.json"
    result = run("play", "lairs", "-p", "2", "--seats", "human,random", "--seed", "3", "--save", save,
                 input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Cards" in out and "Answer with an option's number" in out       # the help
    assert "no option fits 'zzz'" in out and "there is no option 99" in out
    assert [0, 0] in json.loads(save.read_text())["actions"][:2]     # P1 took the first option


def test_undo(lairs):
    answers = "u\n1\nu\n" + "1\n" * 3000
    result = run("play", "lairs", "-p", "2", "--seats", "human,random", "--seed", "3", input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "cannot undo: you have not decided anything yet" in result.output
    assert "undone: your last answer is taken back" in result.output


def test_undo_is_refused_once_something_was_revealed(lairs):
    from interpreter.cli.human import undo_point
    setup = _setup(lairs, 2, 3)
    game = setup.new_game()
    game.apply(0, 0)                      # the agent: nothing new to anyone
    assert undo_point(game, 0, lambda a: games.rebuild(setup, a)) == (0, None)
    reasons = set()
    mover = random_mover(7)
    for _ in range(40):
        mover(game, game.pending())
        keep, reason = undo_point(game, 0, lambda a: games.rebuild(setup, a))
        reasons.add(reason.split(" has ")[-1] if reason else None)
    assert None in reasons and "seen something new since your last decision" in reasons


def _setup(rules, players, seed, seats=("human", "random")):
    from interpreter.cli.session import Setup
    from interpreter.content.options import resolve_options
    return Setup(rules, "lairs", players, seed, resolve_options(rules, {}, players), list(seats))


# ---------------------------------------------------------------- never lose a game

def test_end_of_input_saves_and_resume_goes_on_identically(tmp_path):
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    args = ("play", "lairs", "-p", "2", "--seats", "human,random", "--seed", "4")
    assert run(*args, "--save", whole, input="1\n" * 3000).exit_code == 0
    left = run(*args, "--save", cut, input="1\n" * 15)
    assert left.exit_code == 130
    assert f"rulebook resume {cut}" in left.stderr
    assert json.loads(cut.read_text())["result"] is None
    again = run("resume", cut, input="1\n" * 3000)
    assert again.exit_code == 0, again.output[-2000:]
    assert json.loads(cut.read_text())["final"] == json.loads(whole.read_text())["final"]


class _CtrlC(io.StringIO):
    """Standard input whose ``after``-th line is a Ctrl-C."""

    def __init__(self, after):
        super().__init__("1\n" * after)
        self.left = after

    def readline(self, *args):
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline(*args)


def test_ctrl_c_saves_and_exits_130(lairs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    setup = _setup(lairs, 2, 4)
    game = setup.new_game()
    code = games.at_table(setup, game, stdin=_CtrlC(5))
    saved = tmp_path / games.default_save(setup)
    assert code == 130 and saved.is_file()
    log = json.loads(saved.read_text())
    assert log["actions"] == game.state["history"] and len([a for a in log["actions"] if a[0] == 0]) == 5
    assert run("replay", saved).exit_code == 0


def test_hot_seat_hands_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                                  # where the game left is saved
    result = run("play", "lairs", "-p", "2", "--seats", "human,human", "--seed", "3",
                 input="1\n" * 40)
    assert result.exit_code == 130
    assert "Pass the keyboard to P2, then press Enter." in result.output
    assert (tmp_path / "lairs-seed3.save.json").is_file()


# ---------------------------------------------------------------- watch and step

def test_watch_and_step(tmp_path):
    log = tmp_path / "game.json"
    result = run("play", "lairs", "-p", "2", "--watch", "--pace", "0", "--as", "2", "--log", log)
    assert result.exit_code == 0, result.output[-2000:]
    assert "decision 1: P" in result.output and "Lairs · as P2" in result.output
    heads = [line for line in result.output.splitlines() if line.startswith("decision ")]
    assert any(": P1 decided" in line for line in heads) and any(": P2 chose " in line for line in heads)
    assert not any(": P1 chose" in line for line in heads)      # P1's answers stay P1's
    assert "P1 chose" not in result.output
    assert "Final scores" in result.output
    shown = run("replay", log, "--to", "30", "--as", "2")
    assert shown.exit_code == 0 and "after decision 30 of" in shown.output
    steps = run("replay", log, "--step", "--to", "5", input="\n9\n3\nq\n")
    assert steps.exit_code == 0
    seen = [line.split(" of ")[0] for line in steps.output.splitlines() if "after decision" in line]
    assert [s.split("after decision ")[1] for s in seen] == ["5", "6", "9", "3"]
    assert run("replay", log, "--to", "3", "--as", "9").exit_code == 2


def test_your_own_sheet_shows_your_kept_agent_once(lairs):
    # LR-SETUP-06: of the two agent cards dealt, the one kept is the agent; the sheet
    # names it once, not again as "the agent cards in front of you".
    game = game_after(lairs, 4, 1, 20)
    seat = game.pending()[0].player
    assert game.state["players"][seat]["vars"]["agent"] is not None
    text = screen_text(game, seat, width=100, height=40)
    assert "Agent " in text and "Agent cards" not in text
