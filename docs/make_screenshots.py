"""Screenshots of every page at 1280×720, in normal and presentation mode, for the README.

    python docs/make_screenshots.py

Starts `streamlit run streamlit_app.py` on a free local port, opens each page in Debian's
Chromium and writes docs/screenshots/<page>.png and <page>-presentation.png. The test suite
never writes here: run this script when the pages change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.screen import wait_idle  # noqa: E402
from tests.e2e.server import start_server, stop_server  # noqa: E402
from ui.nav import PAGES  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
# Views the README shows besides each page's default: (file name, path and query).
# A view scrolled to a heading shows that heading at the top.
EXTRA = (
    ("flow-stage-4", "Flow?stage=4&mask=causal", None),
    ("lines-hover", "?weights_view=lines&mask=causal&isolate=5", None),  # as hovering token 5
    ("compare-difference", "Compare?pin=preset%3Djourney&d_out=3", "B − A"),
)


def main() -> None:
    """Write one screenshot per page and mode."""
    OUT.mkdir(parents=True, exist_ok=True)
    process, url = start_server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for info in PAGES:
                name = info.url_path or "playground"
                for suffix, query in (("", ""), ("-presentation", "?present=1")):
                    context = browser.new_context(viewport={"width": 1280, "height": 720})
                    page = context.new_page()
                    page.goto(f"{url}/{info.url_path}{query}")
                    wait_idle(page)
                    target = OUT / f"{name.lower()}{suffix}.png"
                    page.screenshot(path=str(target))
                    print(target.relative_to(ROOT))
                    context.close()
            for name, path, heading in EXTRA:
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                page.goto(f"{url}/{path}")
                wait_idle(page)
                if heading is not None:
                    found = page.get_by_role("heading", name=heading, exact=True)
                    found.evaluate("element => element.scrollIntoView({block: 'start'})")
                    page.wait_for_timeout(500)
                page.screenshot(path=str(OUT / f"{name}.png"))
                print(f"docs/screenshots/{name}.png")
                context.close()
            browser.close()
    finally:
        stop_server(process)


if __name__ == "__main__":
    main()
