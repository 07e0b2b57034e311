// Forms marked `data-in-place` save without leaving the page, and without WASM
// (page_scripts.rs, `IN_PLACE`). The form is an ordinary post that works without a script: the
// server answers it by sending the browser to the page to show next (the same page, its
// error in the address; the same page, saved; or another page, say a new record). Here the
// script posts the same form in the background and follows that answer:
// - another page: opens it;
// - the same page with an error: shows the server's error messages in the form, and keeps
//   what was typed (the server's page has the messages, the live form the values);
// - the same page, saved: shows the server's new page in place (the list with the new row,
//   the emptied form, "Saved."), at the same scroll position.
function saveInPlace(localTimes) {
  const busy = new WeakSet();

  // What was typed in `from` (the live form), written into `to` (the server's copy).
  const keepTyped = (from, to) => {
    const seen = new Map();
    for (const el of from.elements) {
      if (!el.name || el.type === "file" || el.type === "submit" || el.type === "button") continue;
      const nth = seen.get(el.name) || 0;
      seen.set(el.name, nth + 1);
      const twin = [...to.elements].filter((t) => t.name === el.name)[nth];
      if (!twin || twin.type !== el.type) continue;
      if (el.type === "checkbox" || el.type === "radio") twin.checked = el.checked;
      else if (el.tagName === "SELECT") {
        for (const o of twin.options) o.selected = [...el.selectedOptions].some((s) => s.value === o.value);
      } else twin.value = el.value;
    }
  };

  // The form of `doc` that stands where `form` stands in this page: the one with the same
  // `data-testid` (one form per checklist item), else the same place among the forms with the
  // same action.
  const twinOf = (form, doc) => {
    const id = form.getAttribute("data-testid");
    if (id) return doc.querySelector(`form[data-in-place][data-testid="${CSS.escape(id)}"]`);
    const same = (f) => f.getAttribute("action") === form.getAttribute("action");
    const nth = [...document.querySelectorAll("form[data-in-place]")].filter(same).indexOf(form);
    return [...doc.querySelectorAll("form[data-in-place]")].filter(same)[nth];
  };

  // Folds the reader opened or closed (`<details data-keep-open>`, matched by `data-testid` and
  // `data-section`) stay as they were when the page is shown again.
  const keyOf = (d) => `${d.dataset.testid || ""}:${d.dataset.section || ""}`;
  const keepFolds = (from, to) => {
    const open = new Map([...from.querySelectorAll("details[data-keep-open]")].map((d) => [keyOf(d), d.open]));
    for (const d of to.querySelectorAll("details[data-keep-open]")) {
      if (open.has(keyOf(d))) d.open = open.get(keyOf(d));
    }
  };

  // Where to put the keyboard after the page changed under it: the first rejected field or the
  // error. After a save, a form marked `data-keep-focus` keeps it on the button that was
  // pressed (the next item is one key away), or, when the form is gone (a one-action confirm
  // once done), on the part of the page it stood in; any other form puts it on the "Saved."
  // line, else the saved form's first field (ready for the next).
  const focusAfter = (failed, twin, kept) => {
    let target;
    if (failed) target = twin && twin.querySelector('[aria-invalid="true"], [role="alert"]');
    else if (kept) target = kept();
    else {
      target = document.querySelector('main [role="status"]') ||
        (twin && twin.querySelector("input:not([type=hidden]), select, textarea"));
    }
    if (!target) return;
    if (!target.matches("input, select, textarea, button")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  };

  // For a form marked `data-keep-focus`: what takes the focus after a save.
  const keptFocus = (form, submitter) => {
    if (!form.hasAttribute("data-keep-focus")) return null;
    const nth = submitter ? [...form.querySelectorAll("button")].indexOf(submitter) : 0;
    const place = form.parentElement && form.parentElement.closest("[id]");
    const placeId = place && place.id;
    return () => {
      const twin = twinOf(form, document);
      const button = twin && twin.querySelectorAll("button")[Math.max(nth, 0)];
      return button || (placeId && document.getElementById(placeId));
    };
  };

  const show = (doc, address) => {
    const y = window.scrollY;
    document.title = doc.title;
    const body = document.adoptNode(doc.body);
    keepFolds(document.body, body);
    body.dataset.hydrated = "static";
    document.body.replaceWith(body);
    if (address) history.replaceState(null, "", address);
    localTimes(body);
    window.scrollTo(0, y);
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-in-place")) return;
    event.preventDefault();
    if (busy.has(form)) return;
    busy.add(form);
    const buttons = [...form.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    form.setAttribute("aria-busy", "true");
    const done = () => {
      busy.delete(form);
      form.removeAttribute("aria-busy");
      for (const b of buttons) b.disabled = false;
    };
    const target = (event.submitter && event.submitter.getAttribute("formaction")) || form.action;
    const kept = keptFocus(form, event.submitter);
    let answer;
    try {
      answer = await fetch(target, {
        method: "POST",
        body: new URLSearchParams(new FormData(form, event.submitter)),
        headers: { Accept: "text/html" },
        credentials: "same-origin",
      });
    } catch (e) {
      // No answer (offline, server down): post the ordinary way, so the browser says why.
      console.error("saving in place failed", e);
      done();
      HTMLFormElement.prototype.submit.call(form);
      return;
    }
    // Refused before the form was read (too large, too many tries): the ordinary post shows
    // the server's own words.
    if (!answer.redirected && !answer.ok) {
      done();
      HTMLFormElement.prototype.submit.call(form);
      return;
    }
    // Where the answer leads: the page the server sent the browser to (never the address the
    // form posts to: a server function's answer that is not a redirect is not a page).
    const next = answer.redirected ? answer.url : location.href;
    try {
      const address = new URL(next);
      const html = (answer.headers.get("content-type") || "").includes("text/html");
      const doc = html ? new DOMParser().parseFromString(await answer.text(), "text/html") : null;
      // Not a page of this address (another page, an answer that is not a page, a page with
      // islands that need the bundle): opened the ordinary way.
      if (!doc || address.pathname !== location.pathname || doc.querySelector("leptos-island")) {
        location.assign(next);
        return;
      }
      const failed = address.searchParams.has("__err");
      const twin = twinOf(form, doc);
      if (failed && twin) {
        keepTyped(form, twin);
        // A form folded away in a <details> stays open with its messages.
        for (let d = twin.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
      }
      // A failed try keeps the address (a reload shows the form again, not the error).
      show(doc, failed ? null : address.pathname + address.search);
      focusAfter(failed, twin, kept);
    } catch (e) {
      // The save was answered but the answer could not be shown here: show it as a page
      // (never post again).
      console.error("showing the answer in place failed", e);
      location.assign(next);
    } finally {
      done();
    }
  });
}
