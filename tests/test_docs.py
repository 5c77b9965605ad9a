"""The README and docs/: short enough to read, CI runs the README's own command, links hold."""

import re
from pathlib import Path

import pytest
from helpers import ROOT

README = ROOT / "README.md"
PAGES = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def test_the_readme_reads_in_five_minutes():
    assert len(README.read_text().splitlines()) < 250


def test_ci_runs_the_readmes_own_test_command():
    commands = [line for line in README.read_text().splitlines()
                if line.startswith("python3 -m venv") and line.endswith("&& pytest")]
    assert len(commands) == 1, commands
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[0] in ci


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_pages_hold(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert not broken, broken
