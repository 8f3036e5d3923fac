"""A learner's gestures in Chromium: the grid, the sidebar's controls, the clipboard.

The embedding grid is a canvas (Glide Data Grid): a cell is reached by clicking the first
data cell and moving with the arrow keys; Enter opens the cell's editor, an ``<input>`` in
``#portal``; typing there, then Enter, sends the edit. Typing into the canvas without Enter
loses characters, so every edit goes through the editor.
"""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e import screen

GRID = '[data-testid="stDataFrame"]'
HEADER_HEIGHT = 35  # the grid's header row, and each data row, in pixels
CELL_EDITOR = "#portal input, #portal textarea"


def grid(page):
    """The first data grid on the page (the Playground's embedding matrix)."""
    return page.locator(GRID).first


CHOSEN_CELL_JS = """() => {
  const grid = document.activeElement.closest('[data-testid="stDataFrame"]');
  if (!grid) return 'focus outside a grid: ' + document.activeElement.tagName;
  const cell = grid.querySelector('td[role="gridcell"][aria-selected="true"]');
  return cell ? cell.id : '';
}"""


def chosen_cell(page) -> str:
    """The id of the cell the focused grid marks as chosen, "" when none is, or a sentence
    saying where the focus is when it is outside every grid."""
    return page.evaluate(CHOSEN_CELL_JS)


def arrow_to_cell(page, column: int, row: int, limit: int = 20) -> None:
    """Press arrow keys until the focused grid's chosen cell is ``glide-cell-{column}-{row}``.

    Where the grid puts its cursor on entry is its own business (it has varied between runs),
    so each key is chosen from the cell the grid marks as selected, read back after every
    press; focus itself may stay on the grid's canvas. A key the grid missed (one pressed in
    the frame it takes the focus) moves nothing, so it is pressed again.
    """
    seen = [screen.wait_for(page, chosen_cell, bool, timeout=2)]
    for _ in range(limit):
        chosen = seen[-1]
        if chosen.startswith("glide-cell-"):
            at_column, at_row = (int(n) for n in chosen.split("-")[2:4])
            if (at_column, at_row) == (column, row):
                return
            if at_row != row:
                page.keyboard.press("ArrowDown" if at_row < row else "ArrowUp")
            else:
                page.keyboard.press("ArrowRight" if at_column < column else "ArrowLeft")
        elif chosen:
            break  # the keys would go somewhere else
        else:  # the grid has focus and no cell is chosen yet
            page.keyboard.press("ArrowDown")
        seen.append(
            screen.wait_for(page, chosen_cell, lambda now, was=chosen: now != was, timeout=1)
        )
    raise AssertionError(f"the arrow keys never reached cell {column}, {row}; saw {seen}")


def _on_top_row(chosen: str) -> bool:
    return chosen.startswith("glide-cell-") and chosen.rsplit("-", 1)[1] == "0"


def focus_cell(page, row: int, column: int, nth: int = 0, left: int = 60) -> None:
    """Select a cell: ``row`` from 0, ``column`` 0 for the token label, 1 for d1, ...

    ``nth`` picks another grid on the page; ``left`` is how far into the grid its first
    column is clicked (a grid of numbers only has narrower columns than the token labels).
    """
    table = page.locator(GRID).nth(nth)
    if not table.is_visible():  # folded (presentation mode folds the matrix): unfold it
        table.locator("xpath=ancestor::details[1]/summary").click()
        table.wait_for(state="visible")
    chosen = ""
    for _ in range(5):  # right after a rerun the grid may miss a click: click again
        table.scroll_into_view_if_needed()
        box = table.bounding_box()
        page.mouse.click(box["x"] + left, box["y"] + HEADER_HEIGHT + 17)
        # The grid takes the focus and chooses the cell a frame or two later (on a busy
        # machine, seconds); arrows pressed before that are lost.
        # The click is on the top row: a cell chosen elsewhere is the grid's earlier choice
        # (a grid that had lost the focus may take a click only as focus).
        chosen = screen.wait_for(page, chosen_cell, _on_top_row, 3)
        if _on_top_row(chosen):
            break
    else:
        raise AssertionError(f"five clicks on grid {nth} chose no cell: {chosen!r}")
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(column):
        page.keyboard.press("ArrowRight")


def type_in_cell(page, row: int, column: int, text: str, nth: int = 0, left: int = 60) -> None:
    """Open a cell's editor, type ``text`` and send it with Enter (``nth``, ``left``: see
    ``focus_cell``)."""
    for _ in range(3):
        focus_cell(page, row, column, nth, left)
        page.keyboard.press("Enter")
        editor = page.locator(CELL_EDITOR).first
        try:
            editor.wait_for(state="visible", timeout=5_000)
        except Exception:  # the grid missed the gesture (e.g. right after a rerun): again
            page.keyboard.press("Escape")
            continue
        editor.fill(text)
        editor.press("Enter")
        return
    raise AssertionError(f"the grid did not open cell ({row}, {column}) for editing")


def paste_into_cell(page, row: int, column: int, text: str) -> None:
    """Paste ``text`` (tab-separated columns, newline-separated rows) at a cell, as Ctrl+V
    does. The page's context needs the clipboard permissions."""
    focus_cell(page, row, column)
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+v")


def add_row(page) -> None:
    """The grid's toolbar button "Add row" (a token labelled "new" with zeros).

    The toolbar shows while the pointer is over the grid; on a loaded machine, right after
    the grid was redrawn, the grid's own scroller once lay over the button for 30 s. Then
    the pointer leaves the grid and comes back, and the toolbar is drawn afresh.

    The grid shows "Add row" only while no row is ticked: a row still ticked (a Delete the
    app refused, on a busy machine) is unticked first with Escape, as a learner who sees
    "Delete row(s)" in its place would."""
    button = page.get_by_role("button", name="Add row")
    ticked = page.locator(f'{GRID} tr[aria-selected="true"]')
    for _ in range(3):
        grid(page).hover()
        if ticked.count():  # Escape clears the grid's selection, as in a spreadsheet
            page.keyboard.press("Escape")
            screen.wait_for(page, lambda p: ticked.count(), lambda n: n == 0, timeout=3)
            grid(page).hover()
        try:
            button.click(timeout=10_000)
            return
        except PlaywrightTimeoutError:
            page.mouse.move(0, 0)
    raise AssertionError("the grid's Add row button never took a click")


def delete_row(page, row: int, refused: bool = False) -> None:
    """Tick the row's marker (left of the label), then press Delete; again until the grid
    shows one row fewer (a busy machine's grid may miss the click or the key). ``refused``:
    the app will put the row back (the only token), so Delete is pressed once."""
    table = grid(page)
    rows = table.locator("tr[aria-rowindex]")
    before = rows.count()
    # The marker is ticked a frame or two later (the header is aria row 1, so data row
    # ``row`` is row ``row + 2``); Delete pressed before that deletes nothing.
    ticked = page.locator(f'{GRID} tr[aria-selected="true"][aria-rowindex="{row + 2}"]')
    for _ in range(4):  # right after a rerun the grid may miss a click: click again
        if not ticked.count():
            table.scroll_into_view_if_needed()
            box = table.bounding_box()
            page.mouse.click(box["x"] + 15, box["y"] + HEADER_HEIGHT * (row + 1) + 17)
            if not screen.wait_for(page, lambda p: ticked.count(), bool, timeout=3):
                continue
        page.keyboard.press("Delete")
        if refused:
            return
        if screen.wait_for(page, lambda p: rows.count(), lambda n: n < before, timeout=3) < before:
            return
    raise AssertionError(f"four tries did not delete row {row} (ticked: {ticked.count()})")


def press_slider(page, key: str, keys: str = "ArrowRight") -> None:
    """Move the slider of setting ``key`` with the keyboard."""
    slider = page.locator(f'.st-key-{key} input[type="range"]')
    slider.focus()
    page.keyboard.press(keys)


def slider_value(page, key: str) -> str:
    """The value a slider holds."""
    return page.locator(f'.st-key-{key} input[type="range"]').input_value()


def type_number(page, key: str, text: str) -> None:
    """Type into the number input of setting ``key`` and confirm with Enter."""
    field = page.locator(f".st-key-{key} input")
    field.fill(text)
    field.press("Enter")


def number_value(page, key: str) -> str:
    """The text a number input holds."""
    return page.locator(f".st-key-{key} input").input_value()


# Where a box is, for a click that found it outside the window: the box's rectangle, the
# window's size and the sidebar's state (a run once found the sidebar's example box outside
# the window for 30 s, the sidebar's state unknown).
_WHERE_JS = """(box) => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  const content = document.querySelector('[data-testid="stSidebarContent"]');
  const r = box.getBoundingClientRect();
  return {box: [r.left, r.top, r.right, r.bottom], window: [innerWidth, innerHeight],
          sidebar: bar ? [bar.getAttribute('data-collapsed'), bar.getBoundingClientRect().left,
                          content ? content.scrollTop : null] : null};
}"""


def within_window(box) -> None:
    """Wait until ``box`` is inside the window (a sidebar sliding in; scrolled there by the
    page's own means after 2 s, as a person scrolls), or say where it and the sidebar are
    (twice in a loaded run a sidebar box stayed outside the window for 30 s: r38, r41)."""
    for attempt in range(50):
        where = box.evaluate(_WHERE_JS)
        left, top, right, bottom = where["box"]
        width, height = where["window"]
        if right > 0 and bottom > 0 and left < width and top < height:
            return
        if attempt == 20:
            box.evaluate("(box) => box.scrollIntoView({block: 'center'})")
        box.page.wait_for_timeout(100)
    raise AssertionError(f"the box is outside the window: {where}")


def choose(page, key: str, option: str) -> None:
    """Pick ``option`` (its text as shown) in the select box of setting ``key``."""
    box = page.locator(f'.st-key-{key} input[role="combobox"]')
    box.scroll_into_view_if_needed()
    within_window(box)
    for _ in range(3):
        box.click()
        if box.get_attribute("aria-expanded") != "true":
            page.keyboard.press("ArrowDown")  # a click right after a closed popup only focuses
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=3_000)
            return
        except Exception:
            page.keyboard.press("Escape")
    raise AssertionError(f"no option {option!r} in the select box {key!r}")


def open_options(page, key: str) -> list[str]:
    """Open the select box of setting ``key`` and return its options as shown (the list
    stays open: pick one with :func:`pick_option`)."""
    box = page.locator(f'.st-key-{key} input[role="combobox"]').first
    box.scroll_into_view_if_needed()
    within_window(box)
    for _ in range(3):
        box.click()
        if box.get_attribute("aria-expanded") != "true":
            page.keyboard.press("ArrowDown")  # a click right after a closed popup only focuses
        options = page.get_by_role("option")
        try:
            options.first.wait_for(timeout=3_000)
            return [text.strip() for text in options.all_inner_texts()]
        except Exception:
            page.keyboard.press("Escape")
    raise AssertionError(f"the select box {key!r} did not open its list")


def pick_option(page, index: int) -> None:
    """Click the ``index``-th option of the open select box's list."""
    page.get_by_role("option").nth(index).click()


def chosen(page, key: str) -> str:
    """The option a select box shows."""
    return page.locator(f'.st-key-{key} input[role="combobox"]').input_value()


def click_radio(page, key: str, option: str) -> None:
    """Pick ``option`` among the radio buttons of setting ``key``."""
    page.locator(f".st-key-{key}").get_by_text(option, exact=True).click()


def open_more_settings(page) -> None:
    """Open the sidebar's "More settings" expander (decimals, normalisation, ...)."""
    summary = page.locator(f"{screen.SIDEBAR} summary").filter(has_text="More settings")
    if summary.locator("xpath=..").get_attribute("open") is None:
        summary.click()
        # Its controls are built only when it is open: a click during that run can be lost.
        screen.wait_idle(page)


def open_page_menu(page):
    """Open the page menu beside the title; returns its links."""
    links = page.locator(f"{screen.PAGE_MENU_BODY} [data-testid='stPageLink'] a")
    if not links.first.is_visible():
        page.locator(".st-key-page_menu button").first.click()
        links.first.wait_for(state="visible", timeout=10_000)
    return links


def open_language_menu(page):
    """Open the language menu beside the title (a click during a rerun may be lost: again);
    returns the menu's choice box."""
    menu = page.locator('[data-testid="stPopoverBody"] .st-key-lang')
    for _ in range(3):
        page.locator(".st-key-language_menu button").first.click()
        try:
            menu.wait_for(state="visible", timeout=5_000)
            return menu
        except Exception:
            page.keyboard.press("Escape")
    raise AssertionError("the language menu did not open")


def close_page_menu(page) -> None:
    """Close the page menu (Escape, as a keyboard user would)."""
    page.keyboard.press("Escape")
    page.locator(screen.PAGE_MENU_BODY).wait_for(state="hidden", timeout=10_000)


def go_to(page, title: str) -> None:
    """Follow a link of the page menu and wait for the page."""
    heading = page.locator("h1").first.inner_text()
    open_page_menu(page).filter(has_text=title).first.click()
    screen.after_change(page, lambda p: p.locator("h1").first.inner_text(), heading)


def toggle_presentation(page) -> None:
    """Switch presentation mode on or off with its toggle in the sidebar, opening the sidebar
    first by its arrow when presentation mode has folded it (issue 52)."""
    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    if expand.is_visible():
        expand.click()
    page.locator(f"{screen.SIDEBAR} label").filter(has_text="Presentation mode").click()
