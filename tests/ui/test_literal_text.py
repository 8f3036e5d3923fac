"""No page passes a literal English string to Streamlit or to a chart: every word goes
through the catalog (``translation._``), so a page in Chinese has no English left in code.

The check reads the source (Python's ast): a string literal, or an f-string with words in its
literal part, given as a Streamlit call's text (its first argument, ``label``, ``help``,
``placeholder``, ``caption``, ``value`` of a caption-like call) or as a chart's ``title`` or
``description`` in ``ui/specs``. ``tests/ui/test_translation.py`` checks what pages show.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Streamlit calls whose first argument is text a learner reads.
TEXT_CALLS = frozenset(
    [
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "write",
        "text",
        "warning",
        "info",
        "error",
        "success",
        "toast",
        "button",
        "download_button",
        "link_button",
        "page_link",
        "expander",
        "popover",
        "tabs",
        "selectbox",
        "radio",
        "slider",
        "select_slider",
        "toggle",
        "checkbox",
        "text_input",
        "text_area",
        "number_input",
        "multiselect",
        "metric",
        "spinner",
        "segmented_control",
        "pills",
        "form_submit_button",
        "status",
        "dialog",
    ]
)
TEXT_KEYWORDS = frozenset({"label", "help", "placeholder", "caption", "title", "description"})
OURS = frozenset({"ui", "attention_core", "real_model", "classroom", "translation"})
SPEC_KEYS = frozenset({"title", "description", "text"})
WORDS = re.compile(r"[A-Za-z]{2,}")
CODE_ONLY = re.compile(r"^\s*(`[^`]*`|\$[^$]*\$|:material/\w+:|[\W\d_]+)*\s*$")


def _words(node: ast.AST) -> str:
    """The literal text of a string or f-string node that has words in it, else ''."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return ""
    return text if WORDS.search(text) and not CODE_ONLY.match(text) else ""


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else ""


def _is_streamlit(node: ast.Call, ours: set[str]) -> bool:
    """``st.x(...)``, ``st.sidebar.x(...)``, ``column.x(...)``: an attribute call named as a
    Streamlit element, on anything but a module of ours (``controls.tabs("panel", ...)``)."""
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    if isinstance(receiver, ast.Name) and receiver.id in ours:
        return False
    return _call_name(node) in TEXT_CALLS


def _our_modules(tree: ast.AST) -> set[str]:
    """The names a file gives the project's own modules and objects (``from ui.session import
    controls``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in OURS:
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def literal_texts(path: Path) -> list[str]:
    """``file:line: text`` for each literal English text given to Streamlit in ``path``."""
    found = []
    tree = ast.parse(path.read_text(), str(path))
    ours = _our_modules(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_streamlit(node, ours):
            given = [*node.args[:1], *(k.value for k in node.keywords if k.arg in TEXT_KEYWORDS)]
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {_words(a)!r}" for a in given if _words(a)
            ]
    return found


def spec_texts(path: Path) -> list[str]:
    """``file:line: text`` for each literal English chart title, description or text mark
    in a Vega-Lite or Plotly dict of ``ui/specs``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                named = isinstance(key, ast.Constant) and key.value in SPEC_KEYS
                if named and value is not None and _words(value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {_words(value)!r}")
    return found


def page_files() -> list[Path]:
    folders = [ROOT / "pages", ROOT / "ui" / "blocks", ROOT / "ui" / "session"]
    return [ROOT / "streamlit_app.py", *(p for f in folders for p in sorted(f.glob("*.py")))]


def test_no_page_or_block_passes_a_literal_english_string_to_streamlit():
    found = [text for path in page_files() for text in literal_texts(path)]
    assert found == []


def test_no_chart_has_a_literal_english_title_or_description():
    found = [
        text for path in sorted((ROOT / "ui" / "specs").glob("*.py")) for text in spec_texts(path)
    ]
    assert found == []


def test_the_check_finds_a_literal_label_and_passes_a_translated_one(tmp_path):
    sample = tmp_path / "page.py"
    sample.write_text(
        "import streamlit as st\nfrom translation import _\n"
        "st.title('Scaling')\n"
        "st.sidebar.button(f'Reset {name}', key='reset')\n"
        "column.caption(text)\n"
        "st.markdown(_('Each row is a token.'))\n"
        "st.markdown('---')\n"
        "st.slider(_('d_out'), help=f'{_(param.help)}')\n"
        "chart = {'title': 'Attention weights', 'mark': 'rect'}\n"
    )
    root_relative = sample.relative_to(tmp_path)
    globals()["ROOT"], saved = tmp_path, ROOT
    try:
        found = literal_texts(sample)
        specs = spec_texts(sample)
    finally:
        globals()["ROOT"] = saved
    assert [f.split(": ", 1)[1] for f in found] == ["'Scaling'", "'Reset '"]
    assert len(specs) == 1 and "Attention weights" in specs[0]
    assert str(root_relative) == "page.py"
