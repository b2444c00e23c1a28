"""Write docs/reference.md, the effect language's reference, from the mechanics tables.

    python tools/export_reference.py          # write it
    python tools/export_reference.py --check  # exit 1 if it is out of date

tests/test_vocabulary.py fails when the file is stale.
"""
from __future__ import annotations

import sys
from pathlib import Path

from interpreter.mechanics.reference import language

OUT = Path(__file__).resolve().parents[1] / "docs" / "reference.md"


def main(argv: list[str]) -> int:
    text = language()
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date: run python tools/export_reference.py")
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
