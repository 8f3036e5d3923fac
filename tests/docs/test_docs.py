"""The README and the guides in docs/ stay true: their links and images resolve, the project
files their commands name exist, and the command-line flags they show are real flags."""

from __future__ import annotations

import argparse
import re
import shlex
import unicodedata
from pathlib import Path

import pytest

from attention_core.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img [^>]*src=\"([^\"]+)\"")
INLINE_CODE = re.compile(r"`[^`\n]+`")
# A path of this project in a command: a known top-level folder or file, then more of a path.
TOP = sorted(p.name for p in ROOT.iterdir() if not p.name.startswith("."))
PROJECT_PATH = re.compile(
    r"(?<![\w/.-])((?:" + "|".join(re.escape(t) for t in TOP) + r")(?:/[\w./-]*)?)"
)


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def _prose(text: str) -> str:
    """The text outside fenced blocks and inline code (where a link is a link)."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]", "", heading.strip()).lower()
    kept = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN" or c == "_")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {anchor(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_relative_link_and_image_resolves(doc):
    broken = []
    for match in LINK.finditer(_prose(doc.read_text())):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z]+:", target):  # http(s), mailto: not this repository's
            continue
        path, _, fragment = target.partition("#")
        resolved = (doc.parent / path).resolve() if path else doc
        has_anchor = not fragment or resolved.suffix != ".md" or fragment in anchors(resolved)
        if not resolved.exists() or not has_anchor:
            broken.append(target)
    assert broken == [], f"{doc.name}: broken links {broken}"


def _commands(doc: Path) -> list[str]:
    """The command lines of a guide: fenced shell blocks, and inline code that runs Python,
    bash or streamlit."""
    text = doc.read_text()
    blocks = [m.group(1) for m in FENCE.finditer(text) if not m.group(0).startswith("```\n")]
    lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    inline = [
        code.strip("`") for code in INLINE_CODE.findall(FENCE.sub("", text).replace("\n", " "))
    ]
    lines += [code for code in inline if re.match(r"(python|bash|streamlit|[A-Z_]+=)", code)]
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_project_file_a_command_names_exists(doc):
    missing = []
    for command in _commands(doc):
        for path in PROJECT_PATH.findall(command):
            path = path.rstrip(".,;:")
            if "<" in path or "*" in path:
                continue
            if not (ROOT / path).exists():
                missing.append(f"{path} (in `{command}`)")
    assert missing == [], f"{doc.name}: {missing}"


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of the command line, its subcommands' included."""
    flags = set()
    for action in parser._actions:
        flags.update(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= _flags(sub)
    return flags


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_flag_of_the_command_line_a_guide_shows_is_real(doc):
    real = _flags(build_parser())
    shown = set()
    for command in _commands(doc):
        if "attention_core" not in command:
            continue
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        shown |= {w.split("=", 1)[0] for w in words if w.startswith("--")}
    assert shown - real == set(), f"{doc.name} shows flags the command line lacks"


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    for guide in sorted((ROOT / "docs").glob("*.md")):  # every guide one click away
        assert f"](docs/{guide.name})" in readme, guide.name
        first = guide.read_text().split("\n\n", 2)[1]
        assert first.startswith("**For "), f"{guide.name} does not say who it is for"
