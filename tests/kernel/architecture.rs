//! The layering of the crate (docs/ARCHITECTURE.md): a module may name only modules in layers
//! below it. The order is the one of `src/lib.rs`; this test reads every `crate::NAME` in
//! `src/` (code and doc links alike, outside `#[cfg(test)] mod tests`) and fails on an upward
//! one, and fails when `src/lib.rs` declares a module this table does not place.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Bottom to top. Each module may use only modules earlier in this list.
const LAYERS: &[&str] = &[
    // core
    "board",
    "position",
    "claim",
    "kernel",
    "render",
    "edge_template",
    // search
    "vc",
    "local",
    "templates",
    "eval",
    "ice",
    "dfpn",
    "engine",
    // proof
    "dsl",
    "trusted",
    "check",
    "lemmas",
    "pages",
    "prove",
    "enumerate",
    "yang",
    // play
    "game",
    "sgf",
    "bidding",
    "player",
    "gtp",
    "arena",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text of a file without its unit-test module (tests may reach up for their fixtures).
fn without_unit_tests(text: &str) -> &str {
    let mut from = 0;
    while let Some(k) = text[from..].find("#[cfg(test)]") {
        let at = from + k;
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod tests") {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// Every `(line, name)` such that `crate::name` occurs on that line.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(k) = rest.find("crate::") {
            let tail = &rest[k + "crate::".len()..];
            let name: String = tail
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `hexproof::crate::` never occurs; `$crate::` (macros) is not a module path.
            if !rest[..k].ends_with('$') && !name.is_empty() {
                out.push((i + 1, name));
            }
            rest = tail;
        }
    }
    out
}

/// Files declared in `lib.rs` under another path (`#[path = "trusted/kernel.rs"] pub mod
/// kernel;`): file (relative to `src/`) → module. Such a file belongs to its module's layer,
/// not to the folder it lies in.
fn path_modules(src: &Path) -> BTreeMap<PathBuf, String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let mut out = BTreeMap::new();
    let mut pending: Option<String> = None;
    for l in lib.lines() {
        let l = l.trim();
        if let Some(rest) = l.strip_prefix("#[path = \"") {
            pending = rest.split('"').next().map(str::to_string);
        } else if let (Some(file), Some(m)) = (pending.take(), l.strip_prefix("pub mod ")) {
            out.insert(PathBuf::from(file), m.trim_end_matches(';').to_string());
        }
    }
    out
}

/// `(file, line, from, to)` for every upward use in `src/`.
fn upward_uses(src: &Path) -> Vec<(String, usize, String, String)> {
    let rank: BTreeMap<&str, usize> = LAYERS.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    let moved = path_modules(src);
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let top = moved.get(rel).cloned().unwrap_or(top);
        let Some(&from) = rank.get(top.as_str()) else {
            continue; // lib.rs, main.rs and the binary's cli/ may use everything
        };
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, name) in crate_paths(without_unit_tests(&text)) {
            if let Some(&to) = rank.get(name.as_str()) {
                if to > from {
                    bad.push((rel.display().to_string(), line, top.clone(), name));
                }
            }
        }
    }
    bad
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let bad = upward_uses(&src());
    let lines: Vec<String> = bad
        .iter()
        .map(|(f, l, a, b)| format!("src/{f}:{l}: `{a}` uses `{b}`, which is above it"))
        .collect();
    assert!(
        bad.is_empty(),
        "upward imports (move the code, or pass what it needs from above):\n{}",
        lines.join("\n")
    );
}

#[test]
fn every_module_of_lib_rs_has_a_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    for m in &declared {
        assert!(
            LAYERS.contains(m),
            "`{m}` is declared in lib.rs but has no layer here"
        );
    }
    for m in LAYERS {
        assert!(
            declared.contains(m),
            "`{m}` has a layer but lib.rs does not declare it"
        );
    }
}

/// The test can fail: an upward path planted in a temporary copy is found.
#[test]
fn an_upward_import_is_caught() {
    let dir = std::env::temp_dir().join(format!("hexproof-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("board")).unwrap();
    std::fs::write(
        dir.join("board/mod.rs"),
        "//! doc\nuse crate::position::Position;\n/// [`crate::gtp`]\nfn f() {}\n",
    )
    .unwrap();
    std::fs::write(dir.join("gtp.rs"), "use crate::board::Cell;\n").unwrap();
    let bad = upward_uses(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let found: Vec<(usize, &str)> = bad.iter().map(|(_, l, _, b)| (*l, b.as_str())).collect();
    assert_eq!(found, vec![(2, "position"), (3, "gtp")]);
}

/// The kernel's file lies in the trusted folder but is the core module `kernel`: it is checked
/// at the core layer (an upward import from it is caught).
#[test]
fn the_kernel_file_is_checked_at_the_core_layer() {
    let moved = path_modules(&src());
    assert_eq!(
        moved
            .get(Path::new("trusted/kernel.rs"))
            .map(String::as_str),
        Some("kernel")
    );
}

/// The trusted folder's README lists every file of the folder (docs/ARCHITECTURE.md "Trust").
#[test]
fn the_trusted_readme_lists_every_trusted_file() {
    let dir = src().join("trusted");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 8, "{files:?}");
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            readme.contains(&format!("`{name}`")),
            "src/trusted/README.md does not list `{name}`"
        );
    }
}
