"""The parser never leaks a traceback: deep nesting, huge literals and bad
dedents are the language's own errors, at their position, in the API, in
`rulebook dsl` and in `rulebook validate`."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.dsl.check import check
from interpreter.dsl.explain import explain
from interpreter.dsl.parser import MAX_DEPTH, MAX_DIGITS, MAX_STRING, DslError, parse_program
from interpreter.engine.compile import compiled

TOY = Path(__file__).resolve().parent / "rulesets" / "toy"

HOSTILE = {
    "4301 digits": ("x = " + "9" * 4301, "dsl-too-large", (1, 5)),
    "long string": ("x = '" + "a" * (MAX_STRING + 1) + "'", "dsl-too-large", (1, 5)),
    "negations": ("x = " + "-" * 5000 + "1", "dsl-too-deep", None),
    "nots": ("x = " + "not " * 3000 + "true", "dsl-too-deep", None),
    "sum": ("x = " + " + ".join(["1"] * 20000), "dsl-too-deep", None),
    "attributes": ("x = self" + ".coin" * 3000, "dsl-too-deep", None),
    "lists": ("x = " + "[" * 3000 + "]" * 3000, "dsl-too-deep", None),
    "calls": ("x = " + "max(" * 2000 + "1" + ")" * 2000, "dsl-too-deep", None),
    "blocks": ("".join("  " * i + "if true:\n" for i in range(400)) + "  " * 400 + "pass\n",
               "dsl-too-deep", None),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_text_is_a_dsl_error_with_a_position(name):
    text, code, where = HOSTILE[name]
    with pytest.raises(DslError) as caught:
        parse_program(text)
    error = caught.value
    assert error.code == code, error.message
    if where is not None:
        assert (error.line, error.col) == where
    lines = text.split("\n")
    assert 1 <= error.line <= len(lines) and 1 <= error.col <= len(lines[error.line - 1]) + 1


def test_limits_leave_room_for_real_texts():
    parse_program("x = " + "9" * MAX_DIGITS)
    parse_program("x = '" + "a" * MAX_STRING + "'")
    parse_program("x = " + " + ".join(["1"] * 40))


def deepest_accepted() -> str:
    """The longest run of negations the parser accepts."""
    depth = 1
    while True:
        try:
            parse_program("x = " + "-" * (depth + 1) + "1")
        except DslError:
            return "x = " + "-" * depth + "1"
        depth += 1


def test_the_deepest_accepted_text_goes_through_every_stage():
    text = deepest_accepted()
    assert text.count("-") >= MAX_DEPTH // 2
    tree = parse_program(text)
    assert "nothing" not in explain(tree)
    check(tree, _vocabulary())
    value = tree.body[0].value
    assert compiled(value)(None) == (-1 if text.count("-") % 2 else 1)


def _vocabulary():
    from interpreter.dsl.check import Vocabulary
    return Vocabulary()



def _nested_loops(depth: int, loop: str) -> str:
    lines = ["".join(["  " * i, loop % i, "\n"]) for i in range(depth)]
    return "".join(lines) + "  " * depth + "y = y + 1\n"


def _checker_visits(text: str) -> int:
    """How many nodes the kind checker visits for ``text`` (its work, without a clock)."""
    from interpreter.dsl import check as checking
    visits, original = [0], checking.Checker.visit

    def counting(self, node):
        visits[0] += 1
        return original(self, node)
    checking.Checker.visit = counting
    try:
        check(parse_program("y = 0\n" + text), _vocabulary())
    finally:
        checking.Checker.visit = original
    return visits[0]


@pytest.mark.parametrize("loop", ["for each x%d in [1, 2]:", "while y < %d:"])
def test_nested_loops_cost_the_checker_no_more_than_the_square_of_their_depth(loop):
    # Each loop visits its body twice to see what one pass leaves for the next; done at
    # every level, that was 2**depth visits (16 nested loops: half a million).
    deepest = 1
    while True:
        try:
            parse_program(_nested_loops(deepest + 1, loop))
        except DslError:
            break
        deepest += 1
    assert deepest >= 20
    for depth in (14, deepest):            # 14 first: the old way took a second there, years here
        visits = _checker_visits(_nested_loops(depth, loop))
        assert visits <= 8 * depth * depth, (depth, visits)

# ---------------------------------------------------------------- indentation

@pytest.mark.parametrize("text,where", [
    ("if true:\n    pass\n  pass\npass\npass\n", (3, 3)),
    ("if true:\n    pass\n\n# note\n\n  pass\n", (6, 3)),
    ("if true:\n  if true:\n    pass\n # x\n pass\npass\n", (5, 2)),
])
def test_a_bad_dedent_is_reported_on_its_own_line(text, where):
    with pytest.raises(DslError) as caught:
        parse_program(text)
    assert caught.value.code == "dsl-indentation"
    assert (caught.value.line, caught.value.col) == where


def test_an_unexpected_indent_after_blank_lines_is_reported_on_its_line():
    with pytest.raises(DslError) as caught:
        parse_program("if true:\n  pass\n\n\n    pass\n")
    assert (caught.value.line, caught.value.col) == (5, 5)


# ---------------------------------------------------------------- the command line

def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("name", ["4301 digits", "sum", "calls"])
def test_rulebook_dsl_reports_hostile_text_without_a_traceback(name):
    text = HOSTILE[name][0]
    result = run("dsl", TOY, text)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.output.startswith("<dsl>:1:") and f"error[{HOSTILE[name][1]}]" in result.output
    assert "^" in result.output


@pytest.mark.parametrize("name", ["4301 digits", "negations", "blocks"])
def test_rulebook_validate_reports_hostile_text_in_the_flow_file(tmp_path, name):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    flow = folder / "flow.yaml"
    body = "".join("      " + line + "\n" for line in HOSTILE[name][0].splitlines())
    flow.write_text(flow.read_text(encoding="utf-8") + f"  deep:\n    do: |\n{body}",
                    encoding="utf-8")
    result = run("validate", folder)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    first = result.output.splitlines()[0]
    assert first.startswith(str(flow.relative_to(Path.cwd())) if flow.is_relative_to(Path.cwd())
                            else str(flow))
    line = int(first.split(":")[1])
    assert line > flow.read_text(encoding="utf-8").count("\n") - len(body.splitlines())
    assert f"error[{HOSTILE[name][1]}]" in first
