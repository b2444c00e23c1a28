"""The `rulebook` command-line interface (see `main.cli`)."""
