// The page's width, as this browser measures it, told to the server only when it would change
// how the page is drawn:
// - the width class: "narrow" up to the page's phone breakpoint (CSS pixels), else "wide",
//   told when it differs from the class the page was drawn for (``data.drawn``): a resize
//   across the breakpoint, a phone turned, or a first run that guessed from the browser's name;
// - the main column's width, when it is narrower than the column the charts were drawn for
//   (``data.base``): a tablet, a laptop at 1024 px with the sidebar open. Rounded down to 16
//   px; told again when it changes by a step, or as null when the column is back to full width.
// Measures only; sends nothing elsewhere.
export default function (component) {
  const { data, setStateValue } = component;
  let drawn = data.drawn;
  let column = data.column; // the measured width the page was drawn for, or null
  let timer = null;
  const columnNow = () => {
    const main = document.querySelector('[data-testid="stMainBlockContainer"]');
    if (!main) return column;
    const style = getComputedStyle(main);
    const width =
      main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (!(width > 0) || width >= data.base - data.slack) return null;
    return Math.floor(width / data.step) * data.step;
  };
  const tell = () => {
    timer = null;
    const now = window.innerWidth <= data.narrowest ? "narrow" : "wide";
    const measured = columnNow();
    if (now === drawn && measured === column) return;
    drawn = now;
    column = measured;
    setStateValue("screen", { width: now, column: measured }); // one rerun for both
  };
  // A sidebar opened or folded moves the column without resizing the window: both are
  // watched, and a run of changes (the sidebar's slide, a window dragged) is told once.
  const later = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(tell, data.settle);
  };
  tell();
  window.addEventListener("resize", later);
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const observer = main && typeof ResizeObserver === "function" ? new ResizeObserver(later) : null;
  if (observer) observer.observe(main);
  return () => {
    window.removeEventListener("resize", later);
    if (observer) observer.disconnect();
    if (timer !== null) clearTimeout(timer);
  };
}
