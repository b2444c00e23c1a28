"""Build a Lark parser once, and keep its tables in a per-user disk cache.

Building the LALR tables of the effect grammar takes most of the time a
fresh `rulebook validate` spends parsing; loading them takes a tenth of it.
The cache file is named by a hash of the grammar, the options, Lark's
version and Python's, so any change to one of them builds afresh. It lives
in the user's own cache folder (``$XDG_CACHE_HOME/rulebook`` or
``~/.cache/rulebook``), is written atomically (a temporary file, then a
rename), and is read only when the folder and the file belong to the user
and nobody else may write them, because loading it unpickles it. Any
problem with the cache (no home, a read-only disk, a damaged file) falls
back silently to building the parser.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

ENV_FOLDER = "RULEBOOK_CACHE_DIR"   # overrides the folder; empty turns the cache off


def cached_lark(grammar_file: Path, postlex=None, **options):
    """``Lark(grammar, postlex=postlex, **options)``, from the disk cache when it can be."""
    from lark import Lark           # here: the cache folder's helpers serve callers without Lark
    grammar = grammar_file.read_text(encoding="utf-8")
    path = cache_path(grammar, type(postlex).__name__, options)
    parser = _load(path, postlex) if path is not None else None
    if parser is None:
        parser = Lark(grammar, postlex=postlex, **options)
        if path is not None:
            _save(parser, path)
    return parser


def cache_path(grammar: str, postlex_name: str, options: dict) -> Path | None:
    """Where the parser for this grammar and these options is cached, or None for no cache."""
    folder = _folder()
    if folder is None:
        return None
    import lark
    key = "\0".join([grammar, postlex_name, repr(sorted(options.items())), lark.__version__,
                     sys.version.split()[0]])
    return folder / f"effects-{hashlib.sha256(key.encode()).hexdigest()[:32]}.lark"


def _folder() -> Path | None:
    chosen = os.environ.get(ENV_FOLDER)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):                # unset or relative: the XDG default
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulebook" if os.path.isabs(base) else None


def _private(path: Path) -> bool:
    """Owned by this user, a plain file or folder, and writable by nobody else."""
    info = os.lstat(path)
    kind_ok = stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return kind_ok and owner_ok and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _load(path: Path, postlex):
    from lark import Lark
    try:
        if not (_private(path.parent) and _private(path)):
            return None
        with open(path, "rb") as stream:
            # Lark.load cannot be given a postlexer; _load is what it calls.
            return Lark.__new__(Lark)._load(stream, postlex=postlex)
    except Exception:               # missing, damaged or from another Lark: build it again
        return None


def _save(parser, path: Path) -> None:
    save_private(path, parser.save)


def save_newest(path: Path, data: bytes, keep: int) -> None:
    """Save ``data`` as ``path`` (``save_private``), then keep only the newest ``keep`` files of
    its kind (its name's prefix up to the first ``-``, same suffix), so caches do not pile up."""
    if save_private(path, lambda stream: stream.write(data)):
        kind = path.name.split("-", 1)[0]
        try:
            kept = sorted(path.parent.glob(f"{kind}-*{path.suffix}"), key=lambda p: p.stat().st_mtime)
            for old in kept[:-keep]:
                old.unlink()
        except OSError:
            pass


def save_private(path: Path, write) -> bool:
    """``write(stream)`` into ``path`` in a private folder, atomically; False if it could not."""
    import tempfile                 # here: only writing needs it
    temporary = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(path.parent):
            return False
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as stream:
            temporary = stream.name
            write(stream)
        os.replace(temporary, path)          # readers see the old file or the whole new one
        temporary = None
        return True
    except Exception:               # not writable, full disk ...: work without the cache
        return False
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
