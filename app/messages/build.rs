//! Generates `Msg`, the typed catalogue of every user-facing message, from `locales/*.json`.
//!
//! Each language is a folder `locales/<tag>/` of flat JSON objects `{ "area.key": "text" }`, one
//! file per part of the app (`core.json`, `quotes.json`…). The build fails when a key appears in
//! two files, or when the languages disagree on their keys, so a message can never be missing
//! in one language.

#![expect(clippy::unwrap_used, reason = "a build script reports failure by panicking")]

use std::{collections::BTreeMap, env, fmt::Write as _, fs, path::Path};

// The locale files stay beside the app that shows them (`app/locales/`).
const LOCALES: [(&str, &str); 2] = [("en", "../locales/en"), ("zh_cn", "../locales/zh-CN")];

fn load(dir: &str) -> BTreeMap<String, String> {
    println!("cargo:rerun-if-changed={dir}");
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
        .map(|entry| entry.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut all = BTreeMap::new();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let table: BTreeMap<String, String> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not a flat JSON object of strings: {e}", path.display()));
        for (key, text) in table {
            if all.insert(key.clone(), text).is_some() {
                panic!(
                    "{}: key {key:?} is already defined in another file of {dir}",
                    path.display()
                );
            }
        }
    }
    all
}

fn variant(key: &str) -> String {
    key.split(['.', '_', '-'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn main() {
    let tables: Vec<(&str, BTreeMap<String, String>)> =
        LOCALES.iter().map(|(name, path)| (*name, load(path))).collect();
    let keys: Vec<&String> = tables[0].1.keys().collect();
    for (name, table) in &tables[1..] {
        let missing: Vec<_> = keys.iter().filter(|k| !table.contains_key(**k)).collect();
        let extra: Vec<_> = table.keys().filter(|k| !tables[0].1.contains_key(*k)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "locale {name}: missing keys {missing:?}, keys not in en.json {extra:?}"
        );
    }
    let mut out = String::new();
    out.push_str("/// Every user-facing message; one variant per key of `app/locales/*.json`.\n");
    // Serialized as its key by hand (i18n.rs): serde's derive for a thousand variants was the
    // largest code in the browser bundle.
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n");
    out.push_str("pub enum Msg {\n");
    for k in &keys {
        writeln!(out, "    /// `{k}`\n    {},", variant(k)).unwrap();
    }
    out.push_str("}\n\nimpl Msg {\n");
    out.push_str("    /// Every message, in key order.\n    pub const ALL: &'static [Msg] = &[");
    for k in &keys {
        write!(out, "Msg::{}, ", variant(k)).unwrap();
    }
    // A build without texts (the browser's) has no keys either: the page installs both
    // (`install_texts`), and the bundle carries neither the thousand keys nor their match.
    out.push_str("];\n\n    /// The key of this message in the locale files.\n    #[cfg(feature = \"texts\")]\n    #[expect(clippy::too_many_lines, reason = \"generated: one arm per message\")]\n    pub const fn key(self) -> &'static str {\n        match self {\n");
    for k in &keys {
        writeln!(out, "            Msg::{} => {:?},", variant(k), k).unwrap();
    }
    out.push_str("        }\n    }\n");
    out.push_str("\n    /// The key of this message in the locale files, as the page installed it (empty until then).\n    #[cfg(not(feature = \"texts\"))]\n    pub fn key(self) -> &'static str {\n        installed::key(self)\n    }\n");
    // `ALL` is in key order (a BTreeMap's), so a binary search finds a key: far less code in the
    // browser bundle than a match over a thousand strings.
    out.push_str("\n    /// The message with this key, if any.\n    pub fn from_key(key: &str) -> Option<Msg> {\n        Msg::ALL.binary_search_by(|m| m.key().cmp(key)).ok().map(|i| Msg::ALL[i])\n    }\n");
    for (name, table) in &tables {
        writeln!(out, "\n    /// The text of this message in `{name}`.\n    #[cfg(feature = \"texts\")]\n    #[expect(clippy::too_many_lines, reason = \"generated: one arm per message\")]\n    pub const fn {name}(self) -> &'static str {{\n        match self {{").unwrap();
        for k in &keys {
            writeln!(out, "            Msg::{} => {:?},", variant(k), table[*k]).unwrap();
        }
        out.push_str("        }\n    }\n");
    }
    out.push_str("}\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("messages.rs");
    fs::write(dest, out).unwrap();
}
