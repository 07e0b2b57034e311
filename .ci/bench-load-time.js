// The browser half of .ci/bench-load-time (which seeds the data and starts the server): opens
// each page in Chromium under network and CPU emulation, cold and then warm, and prints what it
// transferred and how long it took to hydrate. Env: BENCH_ORIGIN, BENCH_PAGES (JSON list of
// {name, path, cookie}), CHROMIUM_PATH, BENCH_RUNS.
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

/** What one visit transferred and how long it took until the page was interactive. */
async function visit(context, path) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = new Map();
  cdp.on("Network.responseReceived", (e) => {
    requests.set(e.requestId, { url: e.response.url, type: e.type, cached: e.response.fromDiskCache });
  });
  cdp.on("Network.requestServedFromCache", (e) => {
    const r = requests.get(e.requestId) ?? {};
    requests.set(e.requestId, { ...r, cached: true });
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  const start = Date.now();
  await page.goto(origin + path, { waitUntil: "commit" });
  await page.waitForSelector("body[data-hydrated]", { timeout: 120_000 });
  const ms = Date.now() - start;
  await page.waitForLoadState("load");
  let assets = 0, html = 0, assetFiles = 0;
  for (const r of requests.values()) {
    if (!r.url) continue;
    const { pathname } = new URL(r.url);
    const bytes = r.cached ? 0 : (r.bytes ?? 0);
    if (/^\/pkg\/.*\.(wasm|js|css)$/.test(pathname)) {
      assets += bytes;
      if (bytes > 0) assetFiles += 1;
    } else if (r.type === "Document") {
      html += bytes;
    }
  }
  await page.close();
  return { ms, assets, html, assetFiles };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (b) => (b / 1024).toFixed(1).padStart(8);

(async () => {
  const launch = {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  };
  console.log(`Chromium, ${NETWORK.downloadThroughput * 8 / 1e6} Mbit/s, ${NETWORK.latency} ms RTT, CPU ${CPU_SLOWDOWN}x slower; median of ${runs}`);
  // Files: how many /pkg files came from the network. Each WASM chunk is compiled and linked on
  // its own, so the count costs time as well as the bytes do (pages/areas.rs).
  console.log("page              cache  WASM+JS+CSS KB  files  HTML KB  to hydrated ms");
  let failed = false;
  for (const p of pages) {
    const cold = [], warm = [];
    for (let i = 0; i < runs; i++) {
      // A fresh profile on disk per cold/warm pair: cold is an empty cache, warm the same
      // profile's second visit (an in-memory cache would drop large files).
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), "nl-bench-"));
      const context = await chromium.launchPersistentContext(profile, launch);
      if (p.cookie) {
        const [name, value] = p.cookie.split("=");
        await context.addCookies([{ name, value, url: origin }]);
      }
      cold.push(await visit(context, p.path));
      warm.push(await visit(context, p.path));
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
    for (const [label, list] of [["cold", cold], ["warm", warm]]) {
      const files = String(median(list.map((v) => v.assetFiles))).padStart(5);
      const row = `${p.name.padEnd(17)} ${label.padEnd(5)} ${kb(median(list.map((v) => v.assets)))}        ${files}  ${kb(median(list.map((v) => v.html)))} ${String(median(list.map((v) => v.ms))).padStart(10)}`;
      console.log(row);
    }
    const downloaded = warm.filter((v) => v.assets > 0);
    if (downloaded.length > 0) {
      failed = true;
      console.log(`  warm visits of ${p.name} downloaded WASM/JS/CSS: ${downloaded.map((v) => v.assets).join(", ")} bytes`);
    }
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
