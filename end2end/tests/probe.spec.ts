import { expect, test } from "@playwright/test";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PASSWORD, open, signIn, signOut, watchConsole } from "./helpers";
import { call, createTeam, saveQuote } from "./api";

test.describe.configure({ mode: "serial" });

const ROOT = path.resolve(__dirname, "../..");
/** The server binary under test, which is also the probe (`nodeledger probe`). */
const BIN = path.resolve(ROOT, process.env.E2E_SERVER_BIN ?? "target/debug/nodeledger");
const FIXTURES = path.join(ROOT, "app/domain/src/runs/fixtures");
/** The fake nvidia-smi of the probe's router tests: an A100 node printing captured telemetry. */
const FAKE_SMI = path.join(ROOT, "server/tests/probe/bin");

/** The probe's telemetry columns, read from the parser's source so the fake answers exactly them. */
function probeQueryColumns(): string {
  const source = fs.readFileSync(path.join(ROOT, "app/domain/src/runs/smi_header.rs"), "utf8");
  const found = source.match(/pub const PROBE_QUERY_COLUMNS: &str = "([^"]+)";/);
  expect(found, "PROBE_QUERY_COLUMNS in smi_header.rs").not.toBeNull();
  return found![1];
}

test("an engineer runs the workload under `nodeledger probe` and the run page shows what the node was", async ({ page, baseURL }) => {
  const consoleErrors = watchConsole(page);
  await createTeam(page, "Probe Desk", [["priya@example.com", "procurement"], ["piet@example.com", "engineer"]]);
  await signIn(page, "priya@example.com");
  const workload = await call(page, "/api/workloads/create", {
    name: "Probe serving", kind: "inference_service", model: "Qwen2-7B", precision: "bf16", vram_peak_gib: "40", vram_peak_source: "measured",
    concurrency: "8", gpus_needed: "1", run_hours: "10", total_work_amount: "", total_work_unit: "", data_gb: "0", checkpoint_gb: "0", headroom_pct: "20",
  });
  const quote = await saveQuote(page, {
    vendor: "Probe Cloud", reference: "A100-PROBE", received_on: "2026-11-20", valid_until: "2099-12-31", "spec.gpu_model": "A100 SXM4 80GB",
    "spec.gpus_per_node": "1", "spec.vram_gib": "80", "spec.sharing": "exclusive", currency: "CNY", "price.basis": "per_node",
    "price.on_demand_hourly": "12.00", "price.billing_increment": "hour", "price.stopped_bills_compute": "no",
  });
  await signOut(page);
  await signIn(page, "piet@example.com");
  const token: string = await call(page, "/api/tokens/create", { name: "probe on node-3", password: PASSWORD });

  // The node: a scratch folder, the captured vLLM result moved into the captured telemetry's
  // time (as the router tests do), written by the "benchmark" the probe runs.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nodeledger-probe-"));
  const source = path.join(dir, "vllm_serve.json");
  fs.writeFileSync(source, fs.readFileSync(path.join(FIXTURES, "vllm_serve.json"), "utf8").replace('"20250611-142233"', '"20240501-121013"'));
  const result = path.join(dir, "out/bench.json");
  // The "benchmark" waits for the fake nvidia-smi's rows, as a real one lasts longer than a
  // sample: however busy the machine, the run has its telemetry.
  const ready = path.join(dir, "smi-ready");
  const script = `until [ -e ${ready} ]; do sleep 0.05; done; mkdir -p ${path.dirname(result)} && echo benchmark-running && cp ${source} ${result}`;
  const probe = spawnSync(
    BIN,
    ["probe", "--dir", path.join(dir, "state"), "--server", baseURL!, "--quote", String(quote), "--workload", String(workload),
      "--result", result, "--", "sh", "-c", script],
    {
      encoding: "utf8",
      timeout: 90_000,
      env: {
        PATH: `${FAKE_SMI}:/usr/bin:/bin`, FAKE_SMI_ROWS: path.join(FIXTURES, "smi_units_event.csv"), FAKE_SMI_QUERY: probeQueryColumns(),
        FAKE_SMI_READY: ready,
        NODELEDGER_TOKEN: token, NODELEDGER_LOG: "error",
      },
    },
  );
  const said = `exit ${probe.status}\n${probe.stdout}\n${probe.stderr}`;
  expect(probe.status, said).toBe(0);
  expect(probe.stdout, said).toContain("benchmark-running");
  expect(probe.stdout + probe.stderr, "the token is never printed").not.toContain(token);
  const link = probe.stdout.match(/^run: (\S+\/runs\/(\d+))$/m);
  expect(link, said).not.toBeNull();
  expect(link![1]).toBe(`${baseURL}/runs/${link![2]}`);

  // The run page: the verdict, and the node as the probe saw it.
  await open(page, `/runs/${link![2]}`);
  await expect(page.getByTestId("run-verdict")).toBeVisible();
  const facts = page.getByTestId("run-node-facts");
  await expect(facts).toBeVisible();
  await expect(facts.getByTestId("facts-gpus")).toContainText("A100-SXM4-80GB");
  await expect(facts).toContainText("550.54.15");
  await expect(facts.getByTestId("facts-exit")).toHaveText("0");
  await expect(facts).toContainText("sh -c");
  await expect(page.getByTestId("run-failed")).toHaveCount(0);
  await expect(page.getByTestId("telemetry-chart")).toBeVisible();
  fs.rmSync(dir, { recursive: true, force: true });
  expect(consoleErrors).toEqual([]);
});
