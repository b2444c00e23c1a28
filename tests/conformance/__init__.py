"""The conformance harness: what every ruleset must pass (see harness.py)."""
