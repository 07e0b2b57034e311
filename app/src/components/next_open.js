// "Next open item" on an order's checklist (pages/orders/detail/keys.rs): `N` typed outside a
// text field, or the button `[data-next-open]`, focuses the next item the server marked open
// (`[data-testid=checklist-item][data-open=true]`) after the one that holds focus, wrapping
// around; when none is left the status beside the button says so. Listens on the document, so
// it keeps working after a form saved in place replaced the page's body.
function nextOpenItem() {
  const items = () => [...document.querySelectorAll('[data-testid="checklist-item"]')];

  // Whether `el` takes typed text (where N is a letter, not a command).
  const typing = (el) => {
    if (!el || el === document.body) return false;
    const tag = el.tagName.toLowerCase();
    if (tag === "textarea" || tag === "select") return true;
    if (tag === "input") return !["checkbox", "radio", "button", "submit", "reset"].includes(el.type);
    return el.isContentEditable;
  };

  // Focuses the first open item after the focused one (wrapping); false when none is open.
  const focusNext = () => {
    const all = items();
    const current = document.activeElement && document.activeElement.closest('[data-testid="checklist-item"]');
    const start = current ? all.indexOf(current) + 1 : 0;
    const order = [...all.slice(start), ...all.slice(0, start)];
    const next = order.find((el) => el.dataset.open === "true");
    if (next) next.focus();
    return Boolean(next);
  };

  const go = () => {
    const none = document.querySelector("[data-next-open-none]");
    const found = focusNext();
    if (none) none.textContent = found ? "" : none.dataset.nextOpenNone;
  };

  document.addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() !== "n" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(document.activeElement) || !document.querySelector("[data-next-open]")) return;
    event.preventDefault();
    go();
  });
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-next-open]")) go();
  });
}
