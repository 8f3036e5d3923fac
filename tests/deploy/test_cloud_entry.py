"""The hosted demo's entry folder, cloud/: the same app from a folder of its own, and a dependency
file that gets the CPU build of torch on Streamlit Community Cloud with no hand edit.

This machine cannot reach the PyTorch download site, so what is checked is what can be: the
entry runs the app as ``streamlit run cloud/streamlit_app.py`` would (its folder first on the
path, the repository root not on it), the torch line is the exact version the app pins, and every
other package resolves from the package index with uv, the installer Community Cloud tries first.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLOUD = ROOT / "cloud"
TORCH_PIN = re.compile(r"^torch==(\S+)$", re.M)


def _lines(path: Path) -> list[str]:
    """A requirements file's lines without comments and blank lines."""
    text = path.read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_cloud_torch_line_is_the_apps_pin_as_the_cpu_build():
    app_pin = TORCH_PIN.search((ROOT / "requirements.txt").read_text()).group(1)
    cloud = _lines(CLOUD / "requirements.txt")
    assert f"torch=={app_pin}+cpu" in cloud
    assert "-r ../requirements.txt" in cloud  # everything else exactly as the app pins it
    # A links page, not a second index: with uv's default index strategy an index listed first
    # would also serve the app's other packages (numpy, jinja2, ...) at its own versions.
    assert not any(line.startswith(("--extra-index-url", "--index-url", "-i ")) for line in cloud)
    links = [line.split(maxsplit=1)[1] for line in cloud if line.startswith("--find-links")]
    assert links == ["https://download.pytorch.org/whl/cpu/torch/"]


def test_the_cloud_folder_links_every_part_of_the_app():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = config["tool"]["importlinter"]["root_packages"]
    for name in [*packages, "pages", "streamlit_app.py"]:
        link = CLOUD / name
        assert link.is_symlink(), f"cloud/{name} is not a link to the app's {name}"
        assert link.resolve() == (ROOT / name).resolve()
    # Nothing else: a real file here would be a second copy that can drift from the app.
    real = {p.name for p in CLOUD.iterdir() if not p.is_symlink()}
    assert real == {"requirements.txt"}


ENTRY_RUN = textwrap.dedent(
    """
    import sys
    cloud = sys.argv[1]
    assert not any(p in ("", ".", sys.argv[2]) for p in sys.path), sys.path
    sys.path.insert(0, cloud)  # what `streamlit run cloud/streamlit_app.py` does first
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(cloud + "/streamlit_app.py", default_timeout=60).run()
    print("home", len(at.exception), at.title[0].value)
    at.switch_page("pages/5_Causal_mask.py").run()
    print("page", len(at.exception), at.title[0].value)
    import attention_core, ui
    print("from", attention_core.__file__, ui.__file__)
    """
)


def test_the_cloud_entry_runs_the_app_without_the_repository_root_on_the_path(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", ENTRY_RUN, str(CLOUD), str(ROOT)],
        cwd=tmp_path,  # not the repository: only the entry's folder makes the app importable
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    assert lines["home"] == "0 Self-attention playground"
    assert lines["page"].startswith("0 5 · ")
    assert all(path.startswith(str(CLOUD)) for path in lines["from"].split())


def test_every_cloud_package_but_torch_resolves_from_the_index(tmp_path):
    # Without the links page (unreachable here) and with torch (and so its CUDA wheels) left
    # out by an override, uv resolves the rest from the package index for Python 3.11 on Linux.
    requirements = tmp_path / "requirements.txt"
    kept = [
        line.replace("../requirements.txt", str(ROOT / "requirements.txt"))
        for line in _lines(CLOUD / "requirements.txt")
        if not line.startswith(("--find-links", "torch"))
    ]
    requirements.write_text("\n".join(kept) + "\n")
    override = tmp_path / "override.txt"
    override.write_text('torch ; python_version < "0"\n')
    done = subprocess.run(
        [
            "uv",
            "pip",
            "compile",
            str(requirements),
            "--override",
            str(override),
            "--no-header",
            "--python-version",
            "3.11",
            "--python-platform",
            "x86_64-manylinux_2_28",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    resolved = {line.split("==")[0].lower() for line in done.stdout.splitlines() if "==" in line}
    pinned = _lines(ROOT / "requirements.txt")
    wanted = {re.split(r"[<>=!; \[]", line)[0].lower() for line in pinned}
    assert wanted - {"torch"} <= resolved
    assert "torch" not in resolved and not any(name.startswith("nvidia") for name in resolved)
