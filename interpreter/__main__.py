"""`python -m interpreter ...` runs the `rulebook` command."""
from .cli.main import cli

if __name__ == "__main__":
    cli(prog_name="rulebook")
