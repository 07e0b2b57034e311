// What the plan tests rent: one-node A100 offers and the runs that measure them.

/** A one-node offer `vendor` can supply once, ready at once: `gpus` A100 80GB cards at `price` an hour. */
export function offer(vendor: string, reference: string, gpus: string, price: string): Record<string, string> {
  return {
    vendor, reference, received_on: "2026-11-20", valid_until: "2099-12-31",
    "spec.gpu_model": "A100 80GB", "spec.gpus_per_node": gpus, "spec.vram_gib": "80", "spec.sharing": "exclusive",
    currency: "CNY", "price.basis": "per_node", "price.on_demand_hourly": price, "price.billing_increment": "hour",
    "price.stopped_bills_compute": "no", nodes_available: "1", lead_time_hours: "0",
  };
}

/** A canonical run measured at `tps` tokens/s on `gpus` cards, 15 minutes with telemetry every 30 s. */
export function run(gpus: number, tps: number): string {
  const telemetry = [];
  for (let i = 0; i <= 30; i++) {
    for (let g = 0; g < gpus; g++) telemetry.push({ t: i * 30, gpu: g, util_pct: 95, mem_used_mib: 20000, temp_c: 60, power_w: 300 });
  }
  return JSON.stringify({
    schema: "nodeledger.run/v1", source_format: "canonical", node: { gpu_name: "NVIDIA A100 80GB", gpu_count: gpus },
    throughput: { value: tps, unit: "tokens/s" }, duration_s: 900, gpu_util_mean_pct: 95, vram_peak_mib: 20000,
    throttle: { active_s: 0, reasons: [] }, telemetry,
  });
}
