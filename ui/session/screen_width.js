// The page's width class, as this browser measures it: "narrow" up to the page's phone
// breakpoint (CSS pixels), else "wide". Told to the server only when it differs from the class
// the page was drawn for (``data.drawn``): a resize across the breakpoint, a phone turned, or
// a first run that guessed from the browser's name. Measures only; sends nothing elsewhere.
export default function (component) {
  const { data, setStateValue } = component;
  let drawn = data.drawn;
  const tell = () => {
    const now = window.innerWidth <= data.narrowest ? "narrow" : "wide";
    if (now === drawn) return;
    drawn = now;
    setStateValue("width", now);
  };
  tell();
  window.addEventListener("resize", tell);
  return () => window.removeEventListener("resize", tell);
}
