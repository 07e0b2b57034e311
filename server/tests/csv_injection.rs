//! Exports a spreadsheet opens: a vendor or reference typed as a formula (`=HYPERLINK(…)`,
//! `@SUM(…)`) reaches the quote and cost CSVs as text (a leading `'`, OWASP "CSV Injection"), and
//! the quote CSV still imports back to the same values.

use crate::common;

use common::{PASSWORD, TestApp};
use serde_json::{Value, json};

const VENDOR: &str = "=HYPERLINK(\"http://evil.example\",\"Click\")";
const REFERENCE: &str = "@SUM(1+1)*cmd";

/// Every cell of a CSV line, split the way a spreadsheet reads RFC 4180 quoting.
fn cells(line: &str) -> Vec<String> {
    let (mut out, mut cell, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    out.push(cell);
    out
}

/// No cell of `csv` starts a formula; returns the cells that hold `needle`.
fn formula_free_cells_with(csv: &str, needle: &str) -> Vec<String> {
    let all: Vec<String> = csv.lines().flat_map(cells).collect();
    for cell in &all {
        let starts_formula =
            cell.starts_with(['=', '+', '@', '\t', '\r']) || (cell.starts_with('-') && cell.parse::<f64>().is_err());
        assert!(!starts_formula, "cell {cell:?} would run as a formula:\n{csv}");
    }
    all.into_iter().filter(|c| c.contains(needle)).collect()
}

#[tokio::test]
async fn formulas_typed_into_a_quote_reach_the_exports_as_text_and_import_back_unchanged() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    app.create_quote_with(&pam, REFERENCE, &[("vendor", VENDOR)]).await;

    let quotes = app.get("/quotes/export.csv", Some(&pam), None).await.body;
    assert_eq!(formula_free_cells_with(&quotes, "HYPERLINK"), [format!("'{VENDOR}")]);
    assert_eq!(formula_free_cells_with(&quotes, "SUM"), [format!("'{REFERENCE}")]);

    let workload = app.create_workload(&pam, "Batch").await;
    let costs = app
        .get(&format!("/tco/export.csv?workload={workload}"), Some(&pam), None)
        .await;
    assert_eq!(costs.status, http::StatusCode::OK, "{}", costs.body);
    let labels = formula_free_cells_with(&costs.body, "HYPERLINK");
    assert!(
        !labels.is_empty() && labels.iter().all(|l| l.starts_with("'=")),
        "{}",
        costs.body
    );

    // The exported file imports back to the very same vendor and reference.
    let request =
        json!({ "request": { "content": quotes, "format": "auto", "vendor": "", "currency": "CNY" }, "save": false });
    let preview: Value =
        serde_json::from_str(&app.call_json("/api/quotes/import", &request, Some(&pam)).await.body).unwrap();
    let text = preview.to_string();
    assert!(text.contains(&serde_json::to_string(VENDOR).unwrap()), "{text}");
    assert!(text.contains(&serde_json::to_string(REFERENCE).unwrap()), "{text}");
    assert!(!text.contains("'=HYPERLINK"), "the mark is taken off on import: {text}");
}
