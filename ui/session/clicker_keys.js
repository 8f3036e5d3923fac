// A presentation clicker's PageDown and PageUp scroll the page, wherever the focus was left.
//
// Streamlit scrolls its main area (stMain), not the document: with the focus on the page's
// body (after a page load, or a rerun that redrew the button last pressed) the browser finds
// nothing to scroll, and a teacher's clicker did nothing on every page without a stepper.
// Keys pressed in a field, a grid or a menu are theirs; a page whose stepper takes PageUp and
// PageDown (Flow's stages, page 13's tiles) keeps them for the stepper.
(() => {
  if (window.attentionClickerKeys) return;
  window.attentionClickerKeys = true;
  const KEYS = { PageDown: 1, PageUp: -1 };
  const STEPPER = '[class*="st-key-"][class*="_page_down"], [class*="st-key-"][class*="_page_up"]';
  document.addEventListener("keydown", (event) => {
    const direction = KEYS[event.key];
    if (!direction || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const focus = document.activeElement;
    if (focus && focus !== document.body && focus !== document.documentElement) return;
    if (document.querySelector(STEPPER)) return;
    const main = document.querySelector('[data-testid="stMain"]');
    if (!main) return;
    event.preventDefault();
    main.scrollBy({ top: direction * main.clientHeight * 0.85, behavior: "auto" });
  });
})();
