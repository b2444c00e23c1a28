"""Content can never reach outside its folder, hang the loader or leak what it
should not read: paths, symlinks, FIFOs and devices, and the source lines
shown in diagnostics."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.content.ruleset import load_ruleset
from interpreter.content.yaml_source import load_yaml
from interpreter.diagnostics import ContentError

from support import edit, position

SECRET = "rulebook-test-secret-7f3a"




def problems(folder: Path, expansions=()):
    with pytest.raises(ContentError) as caught:
        load_ruleset(str(folder), expansions)
    return caught.value


def only(folder: Path, code: str, expansions=()):
    error = problems(folder, expansions)
    assert [d.code for d in error.diagnostics] == [code], \
        [(d.code, d.message) for d in error.diagnostics]
    return error.diagnostics[0]



# ---------------------------------------------------------------- paths in the manifest

def test_symlink_to_the_process_environment_is_refused_and_never_printed(toy):
    data = toy / "data" / "cards.yaml"
    data.unlink()
    data.symlink_to("/proc/self/environ")
    env = dict(os.environ, RULEBOOK_SECRET=SECRET)
    run = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(toy)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 1
    assert SECRET not in run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    line, col = position(toy / "game.yaml", "data/cards.yaml")
    assert f"game.yaml:{line}:{col}: error[path-symlink]" in run.stdout


@pytest.mark.parametrize("key,old,new", [
    ("components", "components: components.yaml", "components: ../toy/components.yaml"),
    ("flow", "flow: flow.yaml", "flow: data/../../toy/flow.yaml"),
    ("data", "data: [data/cards.yaml]", "data: [../../../../etc/hosts.yaml]"),
])
def test_a_path_leaving_the_folder_is_refused_where_it_is_written(toy, key, old, new):
    edit(toy / "game.yaml", old, new)
    diag = only(toy, "path-outside")
    assert diag.file.endswith("game.yaml")
    assert (diag.line, diag.col) == position(toy / "game.yaml", new.split(": ")[1].strip("["))


def test_a_nul_in_a_path_is_a_content_error_not_a_crash(toy):
    edit(toy / "game.yaml", "flow: flow.yaml", 'flow: "fl\\0ow.yaml"')
    diag = only(toy, "path-invalid")
    assert (diag.line, diag.col) == position(toy / "game.yaml", '"fl')


def test_an_absolute_path_is_refused(toy):
    edit(toy / "game.yaml", "flow: flow.yaml", f"flow: {toy / 'flow.yaml'}")
    error = problems(toy)
    assert [d.line for d in error.diagnostics] == [position(toy / "game.yaml", "flow:")[0]]


def test_a_symlinked_folder_on_the_way_is_refused(toy, tmp_path):
    outside = tmp_path / "elsewhere"
    (toy / "data").rename(outside)
    (toy / "data").symlink_to(outside)
    diag = only(toy, "path-symlink")
    assert "'data'" in diag.message


def test_a_symlink_inside_the_folder_is_refused_too(toy):
    # One rule, simply checked: no symbolic link at all, wherever it points.
    (toy / "flow2.yaml").symlink_to(toy / "flow.yaml")
    edit(toy / "game.yaml", "flow: flow.yaml", "flow: flow2.yaml")
    only(toy, "path-symlink")


def test_a_symlinked_manifest_is_refused(toy):
    manifest = toy / "game.yaml"
    manifest.rename(toy / "real.yaml")
    manifest.symlink_to(toy / "real.yaml")
    only(toy, "path-symlink")


def test_a_fifo_is_refused_without_waiting_for_a_writer(toy):
    data = toy / "data" / "cards.yaml"
    data.unlink()
    os.mkfifo(data)
    diag = only(toy, "path-not-file")
    assert (diag.line, diag.col) == position(toy / "game.yaml", "data/cards.yaml")


def test_a_folder_named_as_a_file_is_refused(toy):
    edit(toy / "game.yaml", "data: [data/cards.yaml]", "data: [data/cards.yaml, data.yaml]")
    (toy / "data.yaml").mkdir()
    only(toy, "path-not-file")


def test_a_missing_file_is_reported_where_it_is_named(toy):
    edit(toy / "game.yaml", "flow: flow.yaml", "flow: flwo.yaml")
    diag = only(toy, "io-error")
    assert (diag.line, diag.col) == position(toy / "game.yaml", "flwo.yaml")


# ---------------------------------------------------------------- expansions

def make_expansion(toy: Path, folder="expansions/extra", data="data/more.yaml") -> Path:
    base = toy / "expansions" / "extra"
    (base / "data").mkdir(parents=True)
    (base / "expansion.yaml").write_text(f"id: extra\nname: Extra\nbase: toy\ndata: [{data}]\n",
                                         encoding="utf-8")
    (base / "data" / "more.yaml").write_text("cards: []\n", encoding="utf-8")
    edit(toy / "game.yaml", "expansions: {}", f"expansions: {{extra: {folder}}}")
    return base


def test_an_expansion_within_the_folder_loads(toy):
    make_expansion(toy)
    assert load_ruleset(str(toy), ("extra",)).expansions == ["extra"]


def test_an_expansion_folder_outside_is_refused(toy):
    make_expansion(toy, folder="../toy/expansions/extra")
    diag = only(toy, "path-outside", ("extra",))
    assert (diag.line, diag.col) == position(toy / "game.yaml", "../toy")


def test_an_expansions_own_file_outside_its_folder_is_refused(toy):
    base = make_expansion(toy, data="../../data/cards.yaml")
    diag = only(toy, "path-outside", ("extra",))
    assert diag.file.endswith("expansion.yaml")
    assert (diag.line, diag.col) == position(base / "expansion.yaml", "../../data")


def test_a_symlinked_expansion_folder_is_refused(toy, tmp_path):
    base = make_expansion(toy)
    base.rename(tmp_path / "real")
    base.symlink_to(tmp_path / "real")
    only(toy, "path-symlink", ("extra",))


# ---------------------------------------------------------------- reading any YAML file

def test_load_yaml_refuses_a_device_without_reading_it():
    with pytest.raises(ContentError) as caught:
        load_yaml("/dev/zero")
    assert [d.code for d in caught.value.diagnostics] == ["yaml-not-a-file"]


def test_load_yaml_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ContentError) as caught:
        load_yaml(fifo)
    assert [d.code for d in caught.value.diagnostics] == ["yaml-not-a-file"]


# ---------------------------------------------------------------- source lines

def test_source_lines_come_from_the_text_read(toy, monkeypatch):
    edit(toy / "components.yaml", "coin: {start: 3", "coin: {strat: 3")
    error = problems(toy)
    assert "coin: {strat: 3" in str(error)
    # The file changed after loading: the message still shows what was read.
    (toy / "components.yaml").write_text(f"{SECRET}\n" * 40, encoding="utf-8")
    assert SECRET not in str(error) and "coin: {strat: 3" in str(error)
