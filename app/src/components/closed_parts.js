// A closed part of a page (`<details data-lazy="<part>">` inside an element with
// `data-parts-from="<server function's address>"` and `data-parts-query="<the page's query>"`)
// is loaded from the server when it is opened: posted as `query` and `part`, answered with the
// part's HTML (a JSON string), put into the part's `.lazy-body` once. A part open already
// loads at once; after a failed load, opening it again tries again (page_scripts.rs).
function loadClosedParts() {
  const load = (details) => {
    const root = details.closest("[data-parts-from]");
    if (!root || details.hasAttribute("data-loaded")) return;
    details.setAttribute("data-loaded", "");
    const body = new URLSearchParams({ query: root.dataset.partsQuery || "", part: details.dataset.lazy });
    fetch(root.dataset.partsFrom, { method: "POST", body, headers: { Accept: "application/json" } })
      .then((answer) => (answer.ok ? answer.json() : Promise.reject(new Error(`status ${answer.status}`))))
      .then((html) => {
        const slot = details.querySelector(".lazy-body");
        if (slot) slot.innerHTML = html;
      })
      .catch((e) => {
        console.warn("a closed part did not load", e);
        details.removeAttribute("data-loaded");
      });
  };
  for (const d of document.querySelectorAll("[data-parts-from] details[data-lazy][open]")) load(d);
  // `toggle` does not bubble: listened for in the capture phase.
  document.addEventListener("toggle", (event) => {
    const d = event.target;
    if (d instanceof HTMLDetailsElement && d.open && d.hasAttribute("data-lazy")) load(d);
  }, true);
}
