// The browser half of .ci/bench-load-time (which seeds the data and starts the server): opens
// each page in Chromium under network and CPU emulation, cold and then warm, and prints what it
// transferred and how long it took to be ready. Env: BENCH_ORIGIN, BENCH_PAGES (JSON list of
// {name, path, cookie ("a=1; b=2"), first (a page opened before, then TYPING_MS of reading)}
// or {name, signIn: {email, password}}), CHROMIUM_PATH, BENCH_RUNS.
const { chromium } = require("playwright");
const fs = require("fs");
const os = require("os");
const path = require("path");

const origin = process.env.BENCH_ORIGIN;
const pages = JSON.parse(fs.readFileSync(process.env.BENCH_PAGES, "utf8"));
const runs = Number(process.env.BENCH_RUNS ?? 3);
/** 10 Mbit/s in bytes per second, 40 ms round trip, CPU 4x slower. */
const NETWORK = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };
const CPU_SLOWDOWN = 4;
/** How long the new visitor takes to type e-mail and password. */
const TYPING_MS = 3000;

/**
 * Records the page's requests through the DevTools protocol and emulates the slow link and CPU.
 * `sum(filter)` adds up the bytes of the finished requests `filter` keeps (`/pkg` assets or the
 * HTML document), from the network only.
 */
async function watch(context, page) {
  const cdp = await context.newCDPSession(page);
  const requests = new Map();
  /** When the document was asked for, in the protocol's clock (seconds). */
  let docStart;
  cdp.on("Network.responseReceived", (e) => {
    const r = requests.get(e.requestId) ?? {};
    requests.set(e.requestId, { ...r, url: e.response.url, type: e.type, cached: r.cached || e.response.fromDiskCache || e.response.fromPrefetchCache });
  });
  cdp.on("Network.requestServedFromCache", (e) => {
    const r = requests.get(e.requestId) ?? {};
    requests.set(e.requestId, { ...r, cached: true });
  });
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "Document" && docStart === undefined) docStart = e.timestamp;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.bytes = e.encodedDataLength;
      r.finished = e.timestamp;
    }
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  // `untilMs`: only requests finished that many ms after the document was asked for.
  const tally = (untilMs = Infinity) => {
    let assets = 0, html = 0, assetFiles = 0;
    for (const r of requests.values()) {
      if (!r.url || r.bytes === undefined) continue;
      if ((r.finished - docStart) * 1000 > untilMs) continue;
      const { pathname } = new URL(r.url);
      const bytes = r.cached ? 0 : r.bytes;
      if (/^\/pkg\/.*\.(wasm|js|css)$/.test(pathname)) {
        assets += bytes;
        if (bytes > 0) assetFiles += 1;
      } else if (r.type === "Document") {
        html += bytes;
      }
    }
    return { assets, html, assetFiles };
  };
  return { requests, tally };
}

/**
 * One visit: what it transferred until the page was ready (`body[data-hydrated]`: hydrated, or
 * sent without WASM), how long that took, and what it fetched after that (prefetch hints).
 */
async function visit(context, path, stayMs = 0) {
  const page = await context.newPage();
  const { tally } = await watch(context, page);
  await page.goto(origin + path, { waitUntil: "commit" });
  const ms = await readyMs(page);
  const ready = tally(ms);
  await page.waitForLoadState("networkidle");
  await prefetched(page);
  if (stayMs > 0) await page.waitForTimeout(stayMs);
  const later = tally().assets - ready.assets;
  await page.close();
  return { ms, ...ready, later };
}

/**
 * A page sent without WASM prefetches the bundle when the browser is idle, which under the slow
 * CPU may come after the network first went quiet: waits until every file it asked for has
 * arrived (its resource timing entry), so the warm visit after it finds them cached.
 */
async function prefetched(page) {
  await page.waitForFunction(
    () => {
      if (document.body.dataset.hydrated !== "static") return true;
      const links = [...document.querySelectorAll('link[rel="prefetch"]')];
      const arrived = new Set(performance.getEntriesByType("resource").map((e) => e.name));
      return links.length > 0 && links.every((l) => arrived.has(l.href));
    },
    undefined,
    { timeout: 120_000, polling: 100 },
  );
}

/**
 * When the page was ready, in ms from navigation start, as the page itself saw it (the bench's
 * own polling costs time under a 4x slower CPU): the later of its first contentful paint and
 * the moment `body[data-hydrated]` appeared (recorded by `READY_OBSERVER`).
 */
async function readyMs(page) {
  await page.waitForFunction(
    () => window.__readyAt !== undefined && performance.getEntriesByName("first-contentful-paint").length > 0,
    undefined,
    { timeout: 120_000, polling: 50 },
  );
  return Math.round(
    await page.evaluate(() => Math.max(window.__readyAt, performance.getEntriesByName("first-contentful-paint")[0].startTime)),
  );
}

/** Runs in every page before its own scripts: notes when `body[data-hydrated]` appears. */
function READY_OBSERVER() {
  const mark = () => {
    if (window.__readyAt === undefined && document.body && document.body.hasAttribute("data-hydrated")) {
      window.__readyAt = performance.now();
    }
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-hydrated"] });
}

/**
 * A new visitor signs in: the sign-in page cold, `TYPING_MS` to type (the page prefetches
 * meanwhile), then the dashboard after the form is sent. Returns the dashboard's part: bytes
 * of WASM/JS/CSS fetched after sending and the time from sending to its ready marker.
 */
async function signInFlow(context, email, password) {
  const page = await context.newPage();
  const { tally } = await watch(context, page);
  await page.goto(origin + "/login", { waitUntil: "commit" });
  await readyMs(page);
  await page.waitForTimeout(TYPING_MS);
  await page.fill('[data-testid="login-form"] input[name="email"]', email);
  await page.fill('[data-testid="login-form"] input[name="password"]', password);
  const before = tally();
  const sentAt = await page.evaluate(() => performance.timeOrigin + performance.now());
  await page.click('[data-testid="login-form"] button[type="submit"]');
  await page.waitForURL((url) => url.pathname === "/", { timeout: 120_000 });
  // Ready: hydrated, or sent without WASM (a browser that was never sent the bundle).
  await page.waitForFunction(() => window.__readyAt !== undefined, undefined, { timeout: 120_000, polling: 50 });
  // From sending the form to the dashboard's marker, in the pages' own clock.
  const ms = Math.round(await page.evaluate(() => performance.timeOrigin + window.__readyAt) - sentAt);
  const after = tally();
  await page.close();
  return { ms, assets: after.assets - before.assets, assetFiles: after.assetFiles - before.assetFiles, html: after.html - before.html, later: 0 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (b) => (b / 1024).toFixed(1).padStart(8);

(async () => {
  const launch = {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  };
  console.log(`Chromium, ${NETWORK.downloadThroughput * 8 / 1e6} Mbit/s, ${NETWORK.latency} ms RTT, CPU ${CPU_SLOWDOWN}x slower; median of ${runs}`);
  // WASM+JS+CSS: bytes from the network until the page was ready; files: how many /pkg files
  // that was (each WASM chunk is compiled and linked on its own, so the count costs time as
  // well as the bytes do); later: what the page fetched after it was ready (a page without an
  // island prefetches the bundle at idle).
  console.log("page                   cache  WASM+JS+CSS KB  files  later KB  HTML KB  to ready ms");
  let failed = false;
  for (const p of pages) {
    const cold = [], warm = [];
    for (let i = 0; i < runs; i++) {
      // A fresh profile on disk per cold/warm pair: cold is an empty cache, warm the same
      // profile's second visit (an in-memory cache would drop large files).
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), "nl-bench-"));
      const context = await chromium.launchPersistentContext(profile, launch);
      await context.addInitScript(READY_OBSERVER);
      for (const cookie of (p.cookie ?? "").split(";").map((c) => c.trim()).filter(Boolean)) {
        const [name, value] = cookie.split("=");
        await context.addCookies([{ name, value, url: origin }]);
      }
      if (p.signIn) {
        cold.push(await signInFlow(context, p.signIn.email, p.signIn.password));
      } else if (p.first) {
        // The page after a first one (read for `TYPING_MS`): what it still had to fetch.
        await visit(context, p.first, TYPING_MS);
        cold.push(await visit(context, p.path));
      } else {
        cold.push(await visit(context, p.path));
        warm.push(await visit(context, p.path));
      }
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
    for (const [label, list] of [[p.signIn || p.first ? "after" : "cold", cold], ["warm", warm]]) {
      if (list.length === 0) continue;
      const m = (key) => median(list.map((v) => v[key]));
      const row = `${p.name.padEnd(22)} ${label.padEnd(5)} ${kb(m("assets"))}        ${String(m("assetFiles")).padStart(5)} ${kb(m("later"))}  ${kb(m("html"))} ${String(m("ms")).padStart(10)}`;
      console.log(row);
    }
    const downloaded = warm.filter((v) => v.assets + v.later > 0);
    if (downloaded.length > 0) {
      failed = true;
      console.log(`  warm visits of ${p.name} downloaded WASM/JS/CSS: ${downloaded.map((v) => v.assets + v.later).join(", ")} bytes`);
    }
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
