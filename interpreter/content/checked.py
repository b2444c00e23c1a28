"""Checks already passed, remembered by the hash of what they checked.

Loading the same files again is the common case (a designer runs ``validate``
after each edit, ``play`` and ``simulate`` load a bundled game), and most of
a fresh load's checks are pure functions of file contents: a file valid
under its schema stays valid until it or the schema changes. A check that
passed leaves a digest of everything it depended on here; the next process
finds the digest and skips it. Only passes are remembered, so every problem
is still found and reported by the check itself, at its ``file:line:col``.

A digest covers the checked texts and a stamp of the code that checks them:
every file of the ``interpreter`` package and every schema, hashed by
content, Python's version and where the libraries it reads with are
installed (their size and time), so any edit, upgrade or new version misses
and checks afresh. The digests are one JSON list in the user's own cache
folder (``dsl/lark_cache.py``: ``$XDG_CACHE_HOME/rulebook``,
``$RULEBOOK_CACHE_DIR``; empty turns it off), read only when that folder
and file are the user's and nobody else may write them, written atomically;
a damaged file, or one of another format, counts as empty. It holds no code
and nothing to unpickle: at worst a lost entry means one check run again.

Results worth more than a yes (a file's syntax trees, ``store``/``stored``)
are pickled, one file each under a digest of the same kind, in the same
folder and under the same rule: read only when private, ignored when
damaged, the newest ``KEEP_RESULTS`` kept.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from ..dsl import lark_cache
from .bundled import SCHEMAS

FILE = "checked.json"
FORMAT = 1
KEEP = 2048            # digests kept, the newest; a few dozen per ruleset and edit
_LIBRARIES = ("yaml", "jsonschema", "referencing", "lark")
_PACKAGE = Path(__file__).resolve().parents[1]

_read_from: dict = {}      # cache file -> the digests in it, oldest first (read once a process)
_stamp: str | None = None


def code_stamp() -> str:
    """A hash of the code every check depends on (computed once per process)."""
    global _stamp
    if _stamp is None:
        digest = hashlib.sha256(sys.version.encode())
        for top, suffixes in ((_PACKAGE, (".py", ".lark")), (SCHEMAS, (".json",))):
            for path in _files(str(top), suffixes):
                with open(path, "rb") as stream:
                    digest.update(os.path.relpath(path, top).encode() + b"\0" + stream.read())
        import importlib.util
        for name in _LIBRARIES:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            if origin:
                info = os.stat(origin)
                digest.update(f"{origin}\0{info.st_size}\0{info.st_mtime_ns}".encode())
        _stamp = digest.hexdigest()
    return _stamp


def _files(top: str, suffixes: tuple) -> list:
    """The files under ``top`` whose names end in one of ``suffixes``, in a fixed order."""
    found = []
    for folder, subfolders, names in os.walk(top):
        subfolders.sort()
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(suffixes)]
    return found


def digest(*parts) -> str:
    """The digest of a check over ``parts`` (texts or bytes) under this code."""
    out = hashlib.sha256(code_stamp().encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else bytes(part)
        out.update(len(data).to_bytes(8, "little") + data)
    return out.hexdigest()[:32]


def passed(key: str) -> bool:
    """Whether the check with digest ``key`` has passed before."""
    return key in _digests()[0]


def remember(key: str) -> None:
    """Note that the check with digest ``key`` passed (kept for later processes)."""
    known, order, path = _digests()
    if key in known:
        return
    known.add(key)
    order.append(key)
    del order[:-KEEP]
    if path is not None:
        text = json.dumps({"format": FORMAT, "passed": order})
        lark_cache.save_private(path, lambda stream: stream.write(text.encode()))


def forget() -> None:
    """Drop what this process has read and hashed (the next query reads the files again)."""
    global _stamp
    _stamp = None
    _read_from.clear()


def _digests() -> tuple:
    """``(set, list oldest first, path)`` of the digests in the cache file (None: no cache)."""
    folder = lark_cache._folder()
    path = folder / FILE if folder is not None else None
    if path not in _read_from:
        order: list = []
        try:
            if path is not None and lark_cache._private(path.parent) and lark_cache._private(path):
                data = json.loads(path.read_bytes())
                if data.get("format") == FORMAT:
                    order = [k for k in data["passed"] if isinstance(k, str)][-KEEP:]
        except Exception:          # missing, damaged, of another format: nothing passed yet
            order = []
        _read_from[path] = (set(order), order, path)
    return _read_from[path]


# ---------------------------------------------------------------- results kept whole

KEEP_RESULTS = 256     # result files kept, the newest (one per content file a ruleset parses)


def stored(kind: str, key: str):
    """The value ``store(kind, key, value)`` kept, or None (missing, damaged, not private).

    Unlike a digest, a value is unpickled: it is read only from the user's private folder,
    as the parser's tables are."""
    path = _result_path(kind, key)
    try:
        if path is not None and lark_cache._private(path.parent) and lark_cache._private(path):
            import pickle
            return pickle.loads(path.read_bytes())
    except Exception:              # missing or damaged: work it out again
        pass
    return None


def store(kind: str, key: str, value) -> None:
    """Keep ``value`` (plain data and syntax trees) for later processes, under ``key``."""
    import pickle
    path = _result_path(kind, key)
    if path is None:
        return
    lark_cache.save_newest(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), KEEP_RESULTS)


def _result_path(kind: str, key: str) -> Path | None:
    folder = lark_cache._folder()
    return folder / f"{kind}-{key}.pickle" if folder is not None else None
