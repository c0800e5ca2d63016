//! `hexproof render` on the command line: the HTML page for every proof file in `proofs/` is
//! produced and is well-formed XML (parsed with `roxmltree`) with one figure per item and no
//! external resources; one small SVG is pinned by a snapshot; bad input exits with code 2.

use std::path::{Path, PathBuf};

use crate::bin::run as hexproof;

fn proof_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            proof_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "hexp") && !bulk_opening_proof(&p) {
            out.push(p);
        }
    }
}

/// The machine-made 7×7 opening proofs other than d4 (`proofs/solver/7x7-*.hexp`, up to
/// 1.2 MB and 1,700 Black-move nodes each): rendering all of them took six minutes of this
/// test's time for nothing the d4 page and the other files do not already exercise; each
/// passes the full check in `tests/solver/solver_emit.rs` (d4 in CI, all in the ignored test).
fn bulk_opening_proof(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    p.parent().is_some_and(|d| d.ends_with("proofs/solver"))
        && name.is_some_and(|n| n.starts_with("7x7-") && n != "7x7-d4.hexp")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexproof-render-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Checks the page: well-formed XML, an `svg` per listed item, a badge per item, nothing
/// loaded from outside.
fn check_page(html: &str, ids: &[String], file: &str) {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(html, opts)
        .unwrap_or_else(|e| panic!("{file}: the page is not well-formed: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "html", "{file}");
    let svgs = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "svg")
        .count();
    assert_eq!(svgs, ids.len(), "{file}: one figure per item");
    for id in ids {
        let anchor = format!("item-{id}");
        assert!(
            doc.descendants()
                .any(|n| n.attribute("id") == Some(anchor.as_str())),
            "{file}: no element for item {id}"
        );
    }
    for n in doc.descendants().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        assert!(
            !["script", "link", "img", "iframe", "object"].contains(&tag),
            "{file}: <{tag}> in the page"
        );
        for a in ["src", "href"] {
            if let Some(v) = n.attribute(a) {
                assert!(v.starts_with('#'), "{file}: external {a}={v}");
            }
        }
    }
}

#[test]
fn every_proof_file_renders_to_well_formed_html() {
    let mut files = Vec::new();
    proof_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs"),
        &mut files,
    );
    assert!(files.len() >= 5, "{files:?}");
    for (k, f) in files.iter().enumerate() {
        let name = f.to_string_lossy().into_owned();
        let out = tmp(&format!("page{k}.html"));
        // A small budget keeps the test fast on the large proofs (Noshita's 7x7 tree takes
        // minutes with the full one): rule steps by rule alone, each search at most 200,000
        // nodes or one second. The page is written whatever the verdict (exit 0, 1 or 3); the
        // small examples must still verify.
        let (code, json, err) = hexproof(&[
            "render",
            &name,
            "--html",
            &out.to_string_lossy(),
            "--json",
            "--no-search",
            "--nodes",
            "200000",
            "--time",
            "1",
        ]);
        assert!([0, 1, 3].contains(&code), "{name}: exit {code}: {err}");
        if name.contains("examples") {
            assert_eq!(code, 0, "{name}: {err}");
        }
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let ids: Vec<String> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["sections"].as_array().unwrap().iter())
            .flat_map(|s| s["items"].as_array().unwrap().iter())
            .map(|i| i["id"].as_str().unwrap().to_string())
            .collect();
        assert!(!ids.is_empty(), "{name}: no items");
        let html = std::fs::read_to_string(&out).unwrap();
        check_page(&html, &ids, &name);
    }
}

#[test]
fn the_corner_proof_lists_its_tree_nodes() {
    let (code, json, err) = hexproof(&["render", "proofs/examples/hex4-corner.hexp", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let items: Vec<&serde_json::Value> = v["files"][0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap().iter())
        .collect();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "bridge",
            "edge",
            "corner",
            "corner/preclude-c3",
            "corner/c2",
            "corner/d2",
            "corner/c3",
            "corner/b4",
            "corner/c4"
        ]
    );
    for i in &items {
        assert_eq!(i["verdict"], "verified", "{i}");
    }
    let c2 = items.iter().find(|i| i["id"] == "corner/c2").unwrap();
    assert_eq!(c2["heading"], "white c2 → black d2");
    assert_eq!(c2["depth"], 1);
    assert!(c2["nodes"].as_u64().unwrap() > 0, "{c2}");
    assert!(c2["claim"]
        .as_str()
        .unwrap()
        .starts_with("t - b on [b1, c1"));
}

#[test]
fn one_item_as_svg_snapshot() {
    let (code, svg, err) = hexproof(&[
        "render",
        "proofs/examples/hex4-corner.hexp",
        "--svg",
        "-",
        "--item",
        "corner/c2",
    ]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("hex4_corner_c2_svg", svg);
    let (code, pre, _) = hexproof(&[
        "render",
        "proofs/examples/hex4-corner.hexp",
        "--svg",
        "-",
        "--item",
        "corner/preclude-c3",
    ]);
    assert_eq!(code, 0);
    assert!(
        pre.contains("stroke-dasharray"),
        "the fictitious stone is dashed"
    );
}

#[test]
fn bad_input_exits_2() {
    let corner = "proofs/examples/hex4-corner.hexp";
    let (code, out, err) = hexproof(&["render", corner, "--svg", "-", "--item", "nope"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("no item 'nope'") && err.contains("corner/c2"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = hexproof(&["render", "no/such/file.hexp", "--html", "-"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no/such/file.hexp"), "{err}");
    let (code, out, err) = hexproof(&[
        "render",
        "tests/fixtures/malformed/unclosed-list.hexp",
        "--html",
        "-",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "nothing is written for a malformed file");
    assert!(
        err.contains("tests/fixtures/malformed/unclosed-list.hexp:5:1"),
        "{err}"
    );
    let (code, _, err) = hexproof(&["render", corner]);
    assert_eq!(code, 2);
    assert!(err.contains("nothing to do"), "{err}");
    let (code, _, _) = hexproof(&["render", corner, "--svg", "-"]);
    assert_eq!(code, 2, "--svg needs --item");
    let (code, _, err) = hexproof(&["render", corner, "--html", "/no/such/dir/x.html"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write"), "{err}");
}

#[test]
fn a_failing_proof_is_drawn_with_its_failure() {
    let src = tmp("wrong.hexp");
    std::fs::write(
        &src,
        "board 4x4\nstrategy s \"too small\" {\n  black d1\n  white {\n    case c2 => black d2 { t - b on [c3, c4] by search }\n  }\n}\n",
    )
    .unwrap();
    let out = tmp("wrong.html");
    let (code, _, err) = hexproof(&[
        "render",
        &src.to_string_lossy(),
        "--html",
        &out.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{err}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("class=\"v failed\""), "{html}");
}

#[test]
fn the_file_given_comes_first_then_the_files_it_uses() {
    let dir = tmp("uses");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lemmas.hexp"),
        "board 4x4\nlemma edge \"the edge bridge\" {\n  diagram {\n    . . . .\n     . . . .\n      . . x .\n       . * * .\n  }\n  claim x - b\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.hexp"),
        "board 4x4\nuse \"lemmas.hexp\"\nderive d \"by the lemma\" {\n  black c3 as y\n  (y, [b4, c4], b) VC by edge\n}\n",
    )
    .unwrap();
    let main = dir.join("main.hexp");
    let (code, json, err) = hexproof(&["render", &main.to_string_lossy(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files[0].ends_with("main.hexp") && files[1].ends_with("lemmas.hexp"));
    assert_eq!(v["files"][0]["sections"][0]["items"][0]["id"], "d");
    assert_eq!(v["files"][1]["sections"][0]["items"][0]["id"], "edge");
}

/// The items of a render as (id, heading) pairs, and the JSON.
fn items_of(file: &str) -> (Vec<(String, String)>, serde_json::Value) {
    let (code, json, err) = hexproof(&["render", file, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let items = v["files"][0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap().iter())
        .map(|i| {
            assert_eq!(i["verdict"], "verified", "{i}");
            (
                i["id"].as_str().unwrap().to_string(),
                i["heading"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (items, v)
}

fn svg_of(file: &str, item: &str) -> String {
    let (code, svg, err) = hexproof(&["render", file, "--svg", "-", "--item", item]);
    assert_eq!(code, 0, "{err}");
    svg
}

#[test]
fn a_lemma_tree_is_drawn_node_by_node() {
    let f = "tests/fixtures/render/lemma-tree.hexp";
    let (items, _) = items_of(f);
    let want = [
        ("Z", "lemma Z — the ziggurat by a tree"),
        ("Z/preclude-c3", "preclude by c3"),
        ("Z/c3", "white c3 | * → black b3"),
        ("Z/b4", "white b4 → black d3"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(items, want);
    // The lemma's figure dots White's moves that have a case (c3 and b4).
    let lemma = svg_of(f, "Z");
    assert!(
        lemma.contains("dots: White's 2 move(s) with a case"),
        "{lemma}"
    );
    // A leaf shades the carrier of the lemma's claim it derives.
    let leaf = svg_of(f, "Z/b4");
    assert!(
        leaf.contains("shaded: carrier of the claim (4 cells)"),
        "{leaf}"
    );
    // The star case says what it also answers: every move outside {b3, a4, b4}.
    let star = svg_of(f, "Z/c3");
    assert!(
        star.contains("also answers every White move outside its proof set (3 cells)"),
        "{star}"
    );
    insta::assert_snapshot!("lemma_tree_star_case_svg", star);
}

#[test]
fn shared_positions_and_gotos_are_drawn() {
    let f = "proofs/examples/hex3-shared.hexp";
    let (items, _) = items_of(f);
    let ids: Vec<&str> = items.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(
        ids,
        [
            "centre",
            "centre/b1",
            "centre/b1/a3",
            "centre/b1/b3",
            "centre/c1",
            "centre/a3",
            "centre/a3/b1",
            "centre/a3/c1",
            "centre/b3",
            "centre/b3/b1",
            "centre/b3/c1",
            "centre/position-P",
            "centre/position-Q"
        ]
    );
    assert_eq!(items[1].1, "white b1 | * → black c1");
    assert_eq!(items[11].1, "position P");
    let goto = svg_of(f, "centre/b1/a3");
    assert!(
        goto.contains("then: the shared position P (line 35)"),
        "{goto}"
    );
    let p = svg_of(f, "centre/position-P");
    assert!(p.contains("rings: the 5 stone(s) the position adds"), "{p}");
}
