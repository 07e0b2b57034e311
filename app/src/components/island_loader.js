// The page's one script (components/page_scripts.rs). Called with the JS glue's and the WASM
// bundle's paths and the address of the page's language's texts, once the document is parsed
// (a module script). `saveInPlace` (components/in_place.js) and `loadClosedParts`
// (components/closed_parts.js) and `nextOpenItem` (components/next_open.js) are placed before
// this function in the same script.
((jsPath, wasmPath, textsPath) => {
  // Every moment in the reader's time zone, the UTC text kept in the tooltip
  // (components/local_time.rs words the server's text the same way).
  const pad = (n) => String(n).padStart(2, "0");
  const localTimes = (root) => {
    for (const el of root.querySelectorAll("time[data-moment]")) {
      const at = new Date(el.getAttribute("datetime"));
      if (!Number.isFinite(at.getTime())) continue;
      const east = -at.getTimezoneOffset();
      const abs = Math.abs(east);
      const zone = east === 0 ? "UTC"
        : `UTC${east > 0 ? "+" : "-"}${Math.floor(abs / 60)}${abs % 60 ? ":" + pad(abs % 60) : ""}`;
      el.textContent = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ` +
        `${pad(at.getHours())}:${pad(at.getMinutes())} ${zone}`;
    }
  };
  localTimes(document);
  saveInPlace(localTimes);
  loadClosedParts();
  nextOpenItem();
  // A `data-print` button opens the browser's print dialog.
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-print]")) window.print();
  });

  const body = document.body;
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1));
  if (!document.querySelector("leptos-island")) {
    // Nothing to hydrate: ready as sent. Warm the cache for the next page with an island.
    body.dataset.hydrated = "static";
    idle(() => {
      for (const href of [jsPath, wasmPath, textsPath]) {
        const link = document.createElement("link");
        link.rel = "prefetch";
        link.href = href;
        link.crossOrigin = "anonymous";
        document.head.append(link);
      }
    });
    return;
  }

  // Islands nest: an island's server-rendered children (`<leptos-children>`) are hydrated
  // under the owner of the island around them.
  const childrenCallbacks = [];
  async function hydrateIsland(el, id, mod) {
    const islandFn = mod[id];
    if (!islandFn) {
      console.warn(`Could not find WASM function for the island ${id}.`);
      return;
    }
    const onChildren = childrenCallbacks[childrenCallbacks.length - 1];
    if (onChildren) onChildren();
    const done = islandFn(el);
    if (done && done.then) await done;
  }
  async function traverse(node, mod) {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = node.tagName.toLowerCase();
    if (tag === "leptos-island") await hydrateIsland(node, node.dataset.component || null, mod);
    if (tag === "leptos-children") childrenCallbacks.push(node.$$on_hydrate);
    for (const child of node.children) await traverse(child, mod);
    if (tag === "leptos-children") childrenCallbacks.pop();
  }

  // The glue, the bundle and the page's texts (the bundle has none of its own) download
  // together.
  const wasm = fetch(wasmPath);
  const texts = fetch(textsPath).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`texts: ${r.status}`))));
  import(jsPath)
    .then(async (mod) => {
      await mod.default({ module_or_path: wasm });
      mod.hydrate(await texts);
      window.__hydrateIsland = (el, id) => hydrateIsland(el, id, mod);
      await traverse(body, mod);
      body.dataset.hydrated = "true";
    })
    .catch((e) => console.error("hydration failed", e));
})
