//! `hexproof templates …` on the command line: exit codes, one-line errors, outputs.

use crate::bin::run;

#[test]
fn verify_list_show() {
    let (code, out, _) = run(&["templates", "verify"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 failed"), "{out}");
    let (code, out, _) = run(&["templates", "list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["files"].as_array().unwrap().len() >= 3);
    let (code, out, _) = run(&["templates", "show", "III1a"]);
    assert_eq!(code, 0);
    assert!(out.contains(" A") && out.contains("(edge)"), "{out}");
    let (code, out, _) = run(&["templates", "show", "IV1a", "--svg"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("<svg") && out.trim_end().ends_with("</svg>"),
        "{out}"
    );
}

#[test]
fn match_finds_both_colours() {
    // Black e7 on 9x9 sits on row 3 from the bottom; White g5 on row 3 from the right.
    let (code, out, _) = run(&["templates", "match", "--board", "9x9", "--moves", "e7 g5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("black III1a e7 - b"), "{out}");
    assert!(out.contains("white III1a g5 - r"), "{out}");
    // All four edges: Black e3 on row 3 from the top, White c5 on row 3 from the left.
    let (code, out, _) = run(&["templates", "match", "--board", "9x9", "--moves", "e3 c5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("black III1a e3 - t"), "{out}");
    assert!(out.contains("white III1a c5 - l"), "{out}");
    // A 5th-row template: White i9 on row 5 from the right of 13x13 holds V1a both ways.
    let (code, out, _) = run(&["templates", "match", "--board", "13x13", "--white", "i9"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("white V1a i9 - r:"), "{out}");
    assert!(out.contains("white V1a i9 - r (mirrored):"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["templates", "show", "NOPE"],
        vec!["templates", "generate", "--row", "3", "--width", "6"],
        vec!["templates", "generate", "--row", "3", "--stones", "4"],
        // Three stones take no seeds.
        "templates generate --row 3 --stones 3 --seeds-only --seed III1a"
            .split(' ')
            .collect(),
        vec!["templates", "generate", "--row", "3", "--quick=-1"],
        vec!["templates", "match", "--board", "9x9", "--moves", "z99"],
        vec!["templates", "verify", "--dir", "/nonexistent/dir"],
        // Seeds: unknown, too large for the region, seeds-only without seeds, with two
        // stones; an output stem that is a path.
        vec!["templates", "generate", "--row", "4", "--seed", "IV1z"],
        vec![
            "templates",
            "generate",
            "--row",
            "4",
            "--width",
            "8",
            "--seed",
            "IV1c",
        ],
        vec!["templates", "generate", "--row", "4", "--seeds-only"],
        vec![
            "templates",
            "generate",
            "--row",
            "3",
            "--stones",
            "2",
            "--seed",
            "III1a",
        ],
        vec!["templates", "generate", "--row", "3", "--out", "../x"],
        // The page: an output that cannot be written.
        vec!["templates", "show", "--html", "/nonexistent/dir/page.html"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("hexproof: error:"), "{args:?}: {err}");
    }
    // Usage errors (clap's, with the usage lines): no name and no --html; both.
    for args in [
        vec!["templates", "show"],
        vec!["templates", "show", "II", "--html", "x.html"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error:"), "{args:?}: {err}");
    }
}

/// Must-show 2 on the command line: `hexproof templates verify` on a copy of the library with
/// one stored carrier cell, stone or certificate entry changed exits 1 and names the entry.
/// (tests/search/templates_library.rs tries every such edit through the library API.)
#[test]
fn verify_names_a_tampered_entry() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let edits: [(&str, fn(&mut serde_json::Value)); 3] = [
        ("carrier", |t| {
            let c = &mut t["carrier"][0][1];
            *c = (c.as_i64().unwrap() - 1).into();
        }),
        ("stone", |t| {
            let c = &mut t["stones"][0][1];
            *c = (c.as_i64().unwrap() + 1).into();
        }),
        ("certificate", |t| {
            let n = &mut t["certificate"]["nodes"][0]["c"];
            let m = u128::from_str_radix(n.as_str().unwrap(), 16).unwrap() ^ 1;
            *n = format!("{m:x}").into();
        }),
    ];
    for (what, edit) in edits {
        let dir = std::env::temp_dir().join(format!(
            "hexproof-verify-tamper-{}-{what}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["row2.json", "row3.json", "row5.json"] {
            std::fs::copy(src.join(file), dir.join(file)).unwrap();
        }
        let path = dir.join("row5.json");
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["templates"][0]["name"], "V1a");
        edit(&mut v["templates"][0]);
        std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
        let (code, out, err) = run(&["templates", "verify", "--dir", dir.to_str().unwrap()]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(code, 1, "{what}: {out}{err}");
        let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAILED")).collect();
        assert_eq!(failed.len(), 1, "{what}: {out}");
        assert!(failed[0].contains("row5.json: V1a:"), "{what}: {out}");
        assert!(out.contains("1 failed"), "{what}: {out}");
    }
}

/// `templates verify --json` times every record (the checking thread's CPU) and groups the
/// times by carrier size; `--timings` prints that table after the summary. Shape test on a
/// copy of three library files, then on the same copy with V1a's certificate tampered: the
/// timings never hide a failure (exit 1, the entry timed with `ok: false` and 0 nodes).
#[test]
fn verify_times_each_record_by_carrier_size() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let dir = std::env::temp_dir().join(format!("hexproof-verify-timings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["row2.json", "row3.json", "row5.json"] {
        std::fs::copy(src.join(file), dir.join(file)).unwrap();
    }
    let d = dir.to_str().unwrap();
    let check = |tampered: bool| {
        let (code, out, err) = run(&["templates", "verify", "--dir", d, "--json"]);
        assert_eq!(code, if tampered { 1 } else { 0 }, "{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let entries = v["entries"].as_array().unwrap();
        let verified = v["verified"].as_u64().unwrap() as usize;
        assert_eq!(entries.len(), verified + usize::from(tampered), "{out}");
        let mut cpu = 0.0;
        let mut nodes = 0;
        for e in entries {
            let cells = e["cells"].as_u64().unwrap();
            assert!(cells >= 1, "{e}");
            assert!(e["cpu_seconds"].as_f64().unwrap() >= 0.0, "{e}");
            assert_eq!(e["kind"], "template", "{e}");
            let bad = tampered && e["name"] == "V1a";
            assert_eq!(e["ok"].as_bool(), Some(!bad), "{e}");
            assert_eq!(e["certificate_nodes"].as_u64() == Some(0), bad, "{e}");
            cpu += e["cpu_seconds"].as_f64().unwrap();
            nodes += e["certificate_nodes"].as_u64().unwrap();
            // In exactly one bucket, the one that holds its size.
            let holding: Vec<_> = v["by_cells"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| {
                    b["cells_from"].as_u64().unwrap() <= cells
                        && cells <= b["cells_to"].as_u64().unwrap()
                })
                .collect();
            assert_eq!(holding.len(), 1, "{e}");
            assert!(
                holding[0]["cpu_seconds_max"].as_f64() >= e["cpu_seconds"].as_f64(),
                "{e}"
            );
        }
        assert_eq!(nodes, v["certificate_nodes"].as_u64().unwrap());
        assert!(
            (cpu - v["cpu_seconds"].as_f64().unwrap()).abs() < 1e-6,
            "{out}"
        );
        let buckets = v["by_cells"].as_array().unwrap();
        let in_buckets: u64 = buckets.iter().map(|b| b["records"].as_u64().unwrap()).sum();
        assert_eq!(in_buckets as usize, entries.len());
        // V1a (34 cells) is alone in its bucket, so it is that bucket's slowest.
        let b31 = buckets.iter().find(|b| b["cells_from"] == 31).unwrap();
        assert_eq!(
            (b31["records"].as_u64(), &b31["slowest"]),
            (Some(1), &"V1a".into())
        );
        // The table: header, one row per bucket, the total row.
        let (code, out, _) = run(&["templates", "verify", "--dir", d, "--timings"]);
        assert_eq!(code, if tampered { 1 } else { 0 }, "{out}");
        let table: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("| carrier cells"))
            .collect();
        assert_eq!(table.len(), buckets.len() + 3, "{out}");
        assert!(
            table[2 + buckets.len() - 1].starts_with("| 31–40 | 1 | "),
            "{out}"
        );
        assert!(
            table
                .last()
                .unwrap()
                .starts_with(&format!("| all | {} | ", entries.len())),
            "{out}"
        );
    };
    check(false);
    let path = dir.join("row5.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let n = &mut v["templates"][0]["certificate"]["nodes"][0]["c"];
    let m = u128::from_str_radix(n.as_str().unwrap(), 16).unwrap() ^ 1;
    *n = format!("{m:x}").into();
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    check(true);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The HexWiki fixture and a temporary output path `STEM-PID.json` for an import.
fn hexwiki_fixture_and_out(stem: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/edge-templates-hexwiki.json");
    let out = std::env::temp_dir().join(format!("{stem}-{}.json", std::process::id()));
    (fixture, out)
}

/// `templates import-published` decides the templates named (a one-stone one and IV2n, whose
/// proof uses 22 of its 24 cells), and `templates verify published/NAME` re-checks an entry
/// of the shipped `templates/published.json`.
#[test]
fn import_published_and_verify_an_entry() {
    let (fixture, out) = hexwiki_fixture_and_out("hexproof-import-published");
    let (code, stdout, err) = run(&[
        "templates",
        "import-published",
        fixture.to_str().unwrap(),
        "--only",
        "III1a,IV2n",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (v["templates"].as_u64(), v["holds"].as_u64()),
        (Some(2), Some(2))
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).unwrap();
    let iv2n = &written["templates"][1];
    assert_eq!(iv2n["name"], "IV2n");
    assert_eq!(iv2n["minimized"]["carrier"].as_array().unwrap().len(), 22);
    let (code, stdout, _) = run(&["templates", "verify", "published/IV2n"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("ok templates/published.json: published/IV2n ("),
        "{stdout}"
    );
}

/// `templates import-published --max-certificate-nodes N`: the whole-board engine's cap on
/// the certificate nodes it builds (default 2,000,000). IV2n with the solver engine and a cap
/// of 5 stays undecided (its certificate needs more), and the entry says what was tried.
#[test]
fn import_published_caps_the_certificate_nodes() {
    let (fixture, out) = hexwiki_fixture_and_out("hexproof-import-published-cap");
    let (code, stdout, err) = run(&[
        "templates",
        "import-published",
        fixture.to_str().unwrap(),
        "--only",
        "IV2n",
        "--engine",
        "solver",
        "--max-certificate-nodes",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{err}"));
    assert_eq!(
        (v["templates"].as_u64(), v["undecided"].as_u64()),
        (Some(1), Some(1)),
        "{stdout}{err}"
    );
    assert_ne!(code, 0);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).unwrap();
    let tried = written["templates"][0]["tried"].as_str().unwrap();
    assert!(tried.contains("at most 5 certificate nodes"), "{tried}");
}

/// `templates import-published --split-dir DIR` keeps the split's options for the solver
/// engine only, `--split-option-time` must be a positive number of seconds, and
/// `--split-deep-replies` needs `--split-deep` and carrier cells: anything else is bad input
/// (exit 2, a message naming the flag or the cell), with nothing written.
#[test]
fn import_published_split_flags_reject_bad_input() {
    let (fixture, out) = hexwiki_fixture_and_out("hexproof-import-published-split");
    let dir = std::env::temp_dir().join(format!("hexproof-split-flags-{}", std::process::id()));
    let base = [
        "templates",
        "import-published",
        fixture.to_str().unwrap(),
        "--only",
        "III1a",
        "--out",
        out.to_str().unwrap(),
        "--split",
    ];
    for (extra, says) in [
        (
            vec!["--split-dir", dir.to_str().unwrap()],
            "--split-dir needs --engine solver",
        ),
        (
            vec!["--engine", "solver", "--split-option-time", "0"],
            "--split-option-time",
        ),
        (
            vec![
                "--engine",
                "solver",
                "--split-deep",
                "--split-deep-replies",
                "z99",
            ],
            "--split-deep-replies \"z99\" is not a carrier cell of III1a",
        ),
        (
            vec!["--engine", "solver", "--split-deep-replies", "a1"],
            "--split-deep",
        ),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists() && !dir.exists(), "{args:?}");
    }
}

/// `templates show --html OUT`: one well-formed page (parsed as XML with `roxmltree`) with a
/// figure — an inline SVG with a hexagon per cell and a disc per stone — for every record of
/// the built-in library and every published template, each verdict re-checked (none shown as
/// failing its re-check), the undecided ones marked undecided with what was tried, and
/// nothing loaded from outside the page.
#[test]
fn show_html_draws_every_template() {
    use hexproof::templates::library::Library;
    use hexproof::templates::published::PublishedVerdict;
    let dir = std::env::temp_dir().join(format!("hexproof-tpage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("templates.html");
    let (code, _, err) = run(&["templates", "show", "--html", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(", 0 did not re-check;"), "{err}");
    let html = std::fs::read_to_string(&out).unwrap();
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&html, opts)
        .unwrap_or_else(|e| panic!("the page is not well-formed: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "html");
    let lib = Library::builtin().unwrap();
    let records: Vec<_> = lib.records().collect();
    let entries = &lib.published.as_ref().unwrap().1.templates;
    let figures: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "figure")
        .collect();
    assert_eq!(figures.len(), records.len() + entries.len());
    let mut ids = std::collections::HashSet::new();
    for f in &figures {
        assert!(ids.insert(f.attribute("id").unwrap()), "duplicate id");
        let svgs: Vec<_> = f
            .children()
            .filter(|n| n.tag_name().name() == "svg")
            .collect();
        assert_eq!(svgs.len(), 1, "{:?}", f.attribute("id"));
        let count = |tag: &str| {
            svgs[0]
                .descendants()
                .filter(|n| n.tag_name().name() == tag)
                .count()
        };
        assert!(count("polygon") >= 2 && count("circle") >= 1);
        assert_eq!(count("line"), 1, "the edge");
    }
    let class = |c: &str| {
        figures
            .iter()
            .filter(|f| f.attribute("class") == Some(c))
            .count()
    };
    let verdict = |v: PublishedVerdict| entries.iter().filter(|e| e.verdict == v).count();
    assert_eq!(class("bad"), 0);
    assert_eq!(
        class("holds"),
        records.len() + verdict(PublishedVerdict::Holds)
    );
    assert_eq!(class("undecided"), verdict(PublishedVerdict::Undecided));
    assert_eq!(class("fails"), verdict(PublishedVerdict::Fails));
    for f in figures
        .iter()
        .filter(|f| f.attribute("class") == Some("undecided"))
    {
        let text: String = f.descendants().filter_map(|n| n.text()).collect();
        assert!(
            text.contains("undecided") && text.contains("tried: "),
            "{text}"
        );
    }
    // One hexagon per cell and one disc per stone, for a published entry drawn from its cells.
    let v1a = entries.iter().find(|e| e.name == "V1a").unwrap();
    let fig = figures
        .iter()
        .find(|f| f.attribute("id") == Some("pub-hexwiki-V1a"))
        .unwrap();
    let n = |tag: &str| {
        fig.descendants()
            .filter(|n| n.tag_name().name() == tag)
            .count()
    };
    assert_eq!(n("polygon"), v1a.carrier.len() + 1);
    assert_eq!(n("circle"), 1);
    for n in doc.descendants().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        assert!(
            !["script", "link", "img", "iframe", "object"].contains(&tag),
            "<{tag}> in the page"
        );
        assert!(n.attribute("src").is_none());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ice_verify_counts_refuses_tampering_and_rejects_bad_files() {
    // The embedded certified inferior-cell library (docs/ice.md): every pattern verified.
    let (code, out, _) = run(&["templates", "ice", "verify", "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["refused"].as_array().unwrap().is_empty());
    for c in v["classes"].as_array().unwrap() {
        assert!(c["accepted"].as_u64().unwrap() > 0, "{c}");
        assert!(c["completeness"]
            .as_str()
            .unwrap()
            .contains("stone-minimal"));
    }
    // A tampered copy (a stone removed from the first pattern) is refused: exit 1.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/ice.json"),
    )
    .unwrap();
    let mut f: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = &mut f["patterns"][0];
    let list = if p["black"].as_array().unwrap().is_empty() {
        "white"
    } else {
        "black"
    };
    p[list].as_array_mut().unwrap().pop();
    let bad = dir.join("ice-tampered.json");
    std::fs::write(&bad, f.to_string()).unwrap();
    let (code, out, _) = run(&[
        "templates",
        "ice",
        "verify",
        "--file",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("pattern 0 REFUSED"), "{out}");
    // A file that does not parse, or is missing: exit 2 with one line.
    let junk = dir.join("ice-junk.json");
    std::fs::write(&junk, "{").unwrap();
    for path in [junk.to_str().unwrap(), "no/such/ice.json"] {
        let (code, _, err) = run(&["templates", "ice", "verify", "--file", path]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// `templates repack-published` rewrites a store whose certificates are node objects (three
/// entries of `templates/published.json` as it stood at 72b13fc, before the packing) with
/// packed certificates: the file written reads back as the same entries (same records,
/// certificates after unpacking, digests), every entry still re-checks, and a second repack
/// changes nothing. A damaged packed string is a one-line error with exit code 2, and nothing
/// is written.
#[test]
fn repack_published_keeps_the_entries() {
    use hexproof::templates::published::{parse_published, verify_entry};
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/published-objects.json");
    let out = std::env::temp_dir().join(format!(
        "hexproof-repack-published-{}.json",
        std::process::id()
    ));
    let (code, stdout, err) = run(&[
        "templates",
        "repack-published",
        fixture.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("3 entries, 4 records"), "{stdout}");
    let before_text = std::fs::read_to_string(&fixture).unwrap();
    let after_text = std::fs::read_to_string(&out).unwrap();
    assert!(after_text.contains("\"packed\": \"") && !after_text.contains("\"nodes\""));
    assert!(after_text.len() < before_text.len());
    let before = parse_published(&fixture, &before_text).unwrap();
    let after = parse_published(&out, &after_text).unwrap();
    assert_eq!(before, after);
    for e in &after.templates {
        verify_entry(e, &hexproof::templates::builtin::records())
            .unwrap_or_else(|err| panic!("{}: {err}", e.name));
    }
    // Again: the same text.
    let (code, ..) = run(&["templates", "repack-published", out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), after_text);
    // A damaged certificate string: exit 2, one line, the file left as it was.
    let at = after_text.find("\"packed\": \"").unwrap() + 11;
    let mut bad = after_text.clone();
    bad.replace_range(at..at + 4, "!!!!");
    std::fs::write(&out, &bad).unwrap();
    let (code, stdout, err) = run(&["templates", "repack-published", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}{err}");
    assert!(err.contains("packed certificate: not base64"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), bad);
    std::fs::remove_file(&out).unwrap();
}
