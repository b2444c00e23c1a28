"""Every relative link of README.md and docs/ points at a file, and at a heading of it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def unfenced(text: str) -> str:
    """The text outside fenced blocks (a `# comment` in a YAML block is no heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, -N on repeats."""
    found: set[str] = set()
    repeats: dict[str, int] = {}
    for heading in re.findall(r"^#+ (.+)$", unfenced(page.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        if slug in repeats:
            repeats[slug] += 1
            slug = f"{slug}-{repeats[slug]}"
        else:
            repeats[slug] = 0
        found.add(slug)
    return found


def links(page: Path) -> list[str]:
    """The relative link targets of a page, outside code (http:, https:, mailto: are not checked)."""
    text = re.sub(r"`[^`\n]*`", "", unfenced(page.read_text(encoding="utf-8")))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_the_pages_have_links_to_check():
    # The check below is only worth something if it sees the README's contents.
    assert len(PAGES) > 5 and "docs/guide.md" in links(PAGES[0])
    assert {"write-a-tiny-game-in-five-minutes", "playing-at-the-table"} <= anchors(PAGES[0])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_and_heading(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file() or ROOT not in file.parents:
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}' in {file.relative_to(ROOT)}")
    assert not broken, broken
