"""tools/bench.py reports what it promises (the figures themselves are never asserted)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from support import tool

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "tests" / "rulesets" / "toy")


def _bench():
    return tool("bench")


def test_bench_json_has_per_count_rows_and_both_load_times(tmp_path):
    bench = _bench()
    result = CliRunner().invoke(bench.main, [TOY, "--players", "2,3", "--games", "2", "--load-repeats", "1",
                                             "--reference", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)[TOY]
    assert [row["players"] for row in report["playouts"]] == [2, 3]
    assert all(row["decisions"] > 0 and row["games"] == 2 for row in report["playouts"])
    assert report["load_seconds_fresh"] > 0 and report["load_seconds_warm"] > 0
    assert 0 < report["load_cpu_seconds_fresh"]
    assert report["reference"] is None                     # no reference in that folder: skipped
