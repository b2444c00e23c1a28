"""Where the bundled games and schemas live, and how a game argument names one.

The repository keeps ``rulesets/`` and ``schemas/`` at its top level; a wheel
carries the same two folders inside the package, as ``interpreter/_bundled/``
(the build step in ``setup.py`` copies them there). `folder` finds them in
either layout. This module imports nothing heavy, so listing the games does
not load the loader.
"""
from __future__ import annotations

import os
from pathlib import Path

MANIFEST = "game.yaml"
_PACKAGE = Path(__file__).resolve().parents[1]   # interpreter/


def folder(name: str) -> Path:
    """The bundled folder ``name`` (``rulesets`` or ``schemas``).

    Inside the package when installed from a wheel, else at the top of the
    checkout (an editable install or a plain clone reads the files in place).
    """
    installed = _PACKAGE / "_bundled" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


RULESETS = folder("rulesets")
SCHEMAS = folder("schemas")


def is_path(argument: str) -> bool:
    """Whether a game argument is written as a path rather than a bundled id.

    A path contains a separator, starts with ``.`` or names a manifest
    (``./mygame``, ``rulesets/mygame``, ``game.yaml``); anything else is an id,
    even when the working folder holds a folder of that name.
    """
    separators = [s for s in (os.sep, os.altsep, "/") if s]
    return (argument.startswith(".") or any(s in argument for s in separators)
            or argument == MANIFEST)


def ruleset_path(argument: str) -> Path:
    """A game id (``mygame``) or a folder or manifest path -> the ruleset folder."""
    if not is_path(argument):
        if argument and (RULESETS / argument / MANIFEST).is_file():
            return RULESETS / argument
        raise FileNotFoundError(
            f"no bundled game '{argument}' (bundled: {', '.join(available()) or 'none'}; "
            f"write a folder as a path, e.g. ./{argument})")
    path = Path(argument)
    if path.name == MANIFEST:
        return path.parent
    if path.is_dir():
        return path
    raise FileNotFoundError(f"no ruleset folder '{argument}'")


def available() -> list[str]:
    """The ids of the bundled rulesets."""
    return sorted(p.parent.name for p in RULESETS.glob(f"*/{MANIFEST}"))
