//! A plan file (`nodeledger plan`): serde's reading of any bytes, then `plan::plan` on what
//! reads — `Ok` or a `TcoError`, never a panic; a result's recommendation is never late or over
//! budget, and the result writes as JSON.
#![no_main]

use nodeledger_domain::plan::{PlanScenario, plan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<PlanScenario>(data) else {
        return;
    };
    let Ok(result) = plan(&input) else {
        return;
    };
    if let Some(rec) = &result.recommended {
        assert!(!rec.plan.late && !rec.plan.over_budget, "a recommended plan is in time and within budget");
    }
    serde_json::to_string(&result).expect("a result writes");
});
