// Every key typed into an editable grid arrives, in order, however fast it is typed.
//
// Streamlit's grid (Glide Data Grid) loses keys in two places, before any value reaches the
// server (issue 39, item 1):
// - A printable key (or Enter) on a chosen cell opens the cell's editor, which the first time
//   is a script still loading. Keys typed until it is there each restart the edit, so "-1.5"
//   typed at once became ".5".
// - In the editor, every key schedules a zero-delay timer that ends the edit without saving
//   it when Enter has been pressed in between (glideapps/glide-data-grid#1201), and Enter
//   saves the value of the last render, which may lack the last keys.
// So, while an editor is opening, keys are held and then typed into it; Enter and Tab in an
// editor wait for the keys before them to be handled; keys typed meanwhile wait their turn.
// Keys typed anywhere else, or while nothing is held, are not touched.
(() => {
  if (window.attentionGridTyping) return;
  window.attentionGridTyping = true;

  const GRID = '[data-testid="stDataFrame"]';
  const EDITOR = "#portal textarea, #portal input";
  // An editor that never opens (a tick cell) frees the keys after this long. Under load (a
  // hosted demo's one shared core, a phone) the editor's first opening took longer than 800 ms:
  // the keys were then handed to the cell, each restarting the edit, and a number was lost.
  const GIVE_UP_MS = 2500;
  const held = []; // keydown events not yet handed on, in the order they were typed
  let waitingFor = null; // "editor" | "close" | null
  let since = 0;

  const editor = () => document.querySelector(EDITOR);
  const inGrid = (element) => Boolean(element && element.closest && element.closest(GRID));
  const typed = (e) => e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
  // A key that opens a cell's editor (Space ticks a tick box instead).
  const opens = (e) => (typed(e) && e.key !== " ") || e.key === "Enter" || e.key === "F2";
  const editable = (element) => Boolean(element.closest(GRID).querySelector('[aria-readonly="false"]'));
  const EDITS = { Backspace: "delete", Delete: "forwardDelete" };
  const ends = (e) => (e.key === "Enter" && !e.shiftKey) || e.key === "Tab";

  function copy(e) {
    const { key, code, shiftKey, ctrlKey, altKey, metaKey } = e;
    return { key, code, shiftKey, ctrlKey, altKey, metaKey };
  }

  function send(target, key) {
    target.dispatchEvent(
      new KeyboardEvent("keydown", { ...key, bubbles: true, cancelable: true, composed: true })
    );
  }

  function wait(what) {
    waitingFor = what;
    since = performance.now();
    setTimeout(step, 0);
  }

  // Hand the held keys on, one at a time, each when the grid is ready for it.
  function step() {
    const box = editor();
    const late = performance.now() - since > GIVE_UP_MS;
    if (waitingFor === "editor" && !late && !(box && document.activeElement === box)) {
      setTimeout(step, 5);
      return;
    }
    if (waitingFor === "close" && !late && box) {
      setTimeout(step, 5);
      return;
    }
    waitingFor = null;
    while (held.length) {
      const key = held.shift();
      const now = editor();
      if (now && document.activeElement === now) {
        if (ends(key)) {
          // Wait one turn for the keys before it, then end the edit as the grid does.
          waitingFor = "send";
          setTimeout(() => {
            send(now, key);
            wait("close");
          }, 0);
          return;
        }
        if (typed(key)) {
          document.execCommand("insertText", false, key.key);
        } else if (EDITS[key.key]) {
          document.execCommand(EDITS[key.key]); // a sent key would not edit the text
        } else {
          send(now, key);
        }
        continue;
      }
      const target = document.activeElement;
      if (!inGrid(target)) continue; // the learner went elsewhere: these keys had no place
      send(target, key);
      if (opens(key) && editable(target)) {
        wait("editor");
        return;
      }
    }
  }

  window.addEventListener(
    "keydown",
    (e) => {
      if (!e.isTrusted || e.isComposing) return; // our own keys, or an input method at work
      if (e.ctrlKey || e.metaKey) return; // a shortcut (paste, copy) acts at once, as its own
      const box = editor();
      const onEditor = Boolean(box) && e.target === box;
      if (!onEditor && !inGrid(e.target)) return;
      if (waitingFor || held.length) {
        e.preventDefault();
        e.stopImmediatePropagation();
        held.push(copy(e));
        return;
      }
      if (onEditor && ends(e)) {
        e.preventDefault();
        e.stopImmediatePropagation();
        held.push(copy(e));
        step();
        return;
      }
      if (!box && opens(e) && editable(e.target)) wait("editor"); // the next keys wait for it
    },
    true
  );
})();
