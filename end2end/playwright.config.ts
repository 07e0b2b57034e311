import { defineConfig, devices } from "@playwright/test";

/** Port of the server under test: not 3000, so a running dev server is never tested by mistake. */
const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The built server; `.ci/test` builds it with `cargo leptos build`. */
const BIN = process.env.E2E_SERVER_BIN ?? "target/debug/nodeledger";

/** Debian's Chromium, as every project uses it. */
const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "./tests",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // The first-run spec needs the empty database, so it runs before every other spec, whatever
  // their names (files otherwise run in name order: `forms` would come before `foundation`).
  projects: [
    { name: "first-run", testMatch: /foundation\.spec\.ts/, use: browser },
    { name: "chromium", testIgnore: /foundation\.spec\.ts/, dependencies: ["first-run"], use: browser },
  ],
  // A fresh database for every run: the tests start from the first-run page.
  webServer: {
    command: `rm -rf end2end/.tmp && mkdir -p end2end/.tmp && ${BIN} serve`,
    cwd: "..",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODELEDGER_DB: "end2end/.tmp/e2e.db",
      NODELEDGER_ADDR: `127.0.0.1:${PORT}`,
      LEPTOS_SITE_ROOT: "target/site",
      NODELEDGER_LOG: "warn",
    },
  },
});
