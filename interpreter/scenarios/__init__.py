"""Scenario files: situations set up, scripted and checked (see runner.py)."""
from .runner import Result, check_paths, run_scenario, scenario_files

__all__ = ["Result", "check_paths", "run_scenario", "scenario_files"]
