//! The README's layout block names every module at the top of `app/src` and `server/src` and
//! every module of `app/domain/src/`, and names nothing that is gone: a newcomer reads the tree
//! from it.

use std::{collections::BTreeSet, fs, path::Path};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace")
}

/// The first fenced block after `## Layout`.
fn layout_block() -> String {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme.split("\n## Layout\n").nth(1).expect("a `## Layout` section");
    let block = section.split("```").nth(1).expect("a fenced block in it");
    block.to_owned()
}

/// The modules of a source folder: `x.rs` and `x/` as `x`.
fn modules(dir: &str) -> BTreeSet<String> {
    fs::read_dir(root().join(dir))
        .expect("the folder")
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let path = e.path();
            if path.is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs")
                    .filter(|n| *n != "mod" && *n != "lib")
                    .map(str::to_owned)
            }
        })
        .collect()
}

/// The entry for a top-level module as the block writes it: `src/x.rs` or `src/x/` (a module
/// in `x.rs` with its parts in `x/` may be written either way).
fn named_at_top(block: &str, crate_dir: &str, module: &str) -> bool {
    let src = root().join(crate_dir).join("src");
    let mut entries = Vec::new();
    if src.join(format!("{module}.rs")).is_file() {
        entries.push(format!("src/{module}.rs"));
    }
    if src.join(module).is_dir() {
        entries.push(format!("src/{module}/"));
    }
    block.lines().any(|l| {
        l.split_whitespace()
            .next()
            .is_some_and(|first| entries.iter().any(|e| e == first))
    })
}

#[test]
fn every_top_level_module_of_the_app_and_the_server_is_in_the_layout() {
    let block = layout_block();
    let mut missing = Vec::new();
    for crate_dir in ["app", "server"] {
        for module in modules(&format!("{crate_dir}/src")) {
            if !named_at_top(&block, crate_dir, &module) {
                missing.push(format!("{crate_dir}/src/{module}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "add these to the README's layout block: {missing:?}"
    );
}

#[test]
fn every_domain_module_is_in_the_layout_and_every_listed_one_exists() {
    let block = layout_block();
    let domain = modules("app/domain/src");
    let listed: BTreeSet<String> = block
        .split("domain/src/")
        .nth(1)
        .expect("the domain entry")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .filter(|l| !l.starts_with("      "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    let missing: Vec<_> = domain.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&domain).collect();
    assert!(
        missing.is_empty(),
        "add these domain modules to the README's layout block: {missing:?}"
    );
    assert!(
        gone.is_empty(),
        "the README's layout block lists domain modules that are gone: {gone:?}"
    );
}
