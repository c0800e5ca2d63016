//! The published templates (`templates/published.json`, written by `hexproof templates
//! import-published` from tests/fixtures/edge-templates-hexwiki.json and
//! tests/fixtures/edge-templates-king-selinger.json): every entry of both fixtures is there
//! with its verdict, every entry re-checks by its certificates alone (the whole file, no
//! sample: it takes well under a second), tampering is caught, and a few small templates are
//! decided again and give the same records.

use hexproof::engine::whole::{Engine, WholeParams};
use hexproof::enumerate::published::{import_one, parse_sources, ImportOptions};
use hexproof::templates::library::{canonical_goals, canonical_template, Library, Symmetry};
use hexproof::templates::published::{verify_entry, Entry, PublishedFile, PublishedVerdict};
use std::path::Path;
use std::time::Instant;

const HEXWIKI: &str = include_str!("../fixtures/edge-templates-hexwiki.json");
const KING_SELINGER: &str = include_str!("../fixtures/edge-templates-king-selinger.json");

fn library() -> Library {
    Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"))
        .expect("the library loads")
}

fn published(lib: &Library) -> &PublishedFile {
    &lib.published.as_ref().expect("templates/published.json").1
}

fn seeded(lib: &Library) -> Vec<hexproof::templates::library::Record> {
    lib.records().cloned().collect()
}

#[test]
fn every_published_template_is_there_and_re_checks() {
    let lib = library();
    let pf = published(&lib);
    let sources: Vec<_> = parse_sources(HEXWIKI)
        .unwrap()
        .into_iter()
        .chain(parse_sources(KING_SELINGER).unwrap())
        .collect();
    assert_eq!(sources.len(), 205);
    assert_eq!(pf.templates.len(), 205);
    for (s, e) in sources.iter().zip(&pf.templates) {
        assert_eq!((&s.name, &s.set), (&e.name, &e.collection));
        assert_eq!(s.carrier, e.carrier, "{}", s.name);
        assert_eq!(s.goal_stones, e.goal_stones, "{}", s.name);
        assert_eq!(s.helper_stones, e.helper_stones, "{}", s.name);
    }
    let library = seeded(&lib);
    let start = Instant::now();
    let failures: Vec<String> = pf
        .templates
        .iter()
        .filter_map(|e| {
            verify_entry(e, &library)
                .err()
                .map(|err| format!("{}: {err}", e.name))
        })
        .collect();
    assert_eq!(failures, Vec::<String>::new());
    println!(
        "205 entries re-checked in {:.3} s",
        start.elapsed().as_secs_f64()
    );
    // Every HexWiki template but the largest is decided, and none fails.
    for e in &pf.templates {
        if e.collection == "hexwiki" && e.carrier.len() <= 40 && e.name != "VI2a" {
            assert_eq!(e.verdict, PublishedVerdict::Holds, "{}", e.name);
        }
    }
    // The two Selinger templates the library lists as new are the library's records.
    for (sel, lib_name) in [
        ("Selinger:template-4-l-1", "IV2-17-2b48"),
        ("Selinger:template-4-xg", "IV2-15-bc57"),
    ] {
        let e = pf.templates.iter().find(|e| e.name == sel).unwrap();
        let link = e.library.as_ref().expect("linked to the library");
        assert_eq!(
            (link.name.as_str(), link.relation.as_str()),
            (lib_name, "same")
        );
    }
    // IV2n holds, and its proof uses the 22 cells of the library's IV2-22-2940.
    let n = pf.templates.iter().find(|e| e.name == "IV2n").unwrap();
    assert_eq!(n.minimized.as_ref().map(|m| m.size()), Some(22));
}

fn holding(pf: &PublishedFile, name: &str) -> Entry {
    let e = pf
        .templates
        .iter()
        .find(|e| e.name == name)
        .unwrap()
        .clone();
    assert_eq!(e.verdict, PublishedVerdict::Holds, "{name}");
    e
}

#[test]
fn a_tampered_published_entry_is_rejected() {
    let lib = library();
    let pf = published(&lib);
    let library = seeded(&lib);
    // A union template (two goal stones) and a one-stone one.
    for name in ["DK-row4-08", "IV1a"] {
        let e = holding(pf, name);
        assert!(verify_entry(&e, &library).is_ok());
        // An edit without a new digest.
        let mut t = e.clone();
        t.verdict = PublishedVerdict::Fails;
        assert!(verify_entry(&t, &library).is_err(), "{name}: verdict");
        // The published carrier changed, digest recomputed: the record is not it.
        let mut t = e.clone();
        t.carrier.pop();
        t.digest = t.compute_digest();
        assert!(verify_entry(&t, &library).is_err(), "{name}: carrier");
        // The record's carrier and the published one both lose a cell, digests recomputed:
        // the certificate no longer proves it.
        let mut t = e.clone();
        let r = t.record.as_mut().unwrap();
        r.carrier.pop();
        r.digest = r.compute_digest();
        t.carrier = e.carrier.clone();
        t.digest = t.compute_digest();
        assert!(
            verify_entry(&t, &library).is_err(),
            "{name}: record carrier"
        );
        // A certificate mask flipped.
        let mut t = e.clone();
        let r = t.record.as_mut().unwrap();
        let node = r
            .certificate
            .nodes
            .iter_mut()
            .find(|n| n.or.is_some())
            .unwrap();
        let first = &mut node.or.as_mut().unwrap()[0][0];
        *first = (*first + 1) % e.carrier.len() as u32;
        r.digest = r.compute_digest();
        t.digest = t.compute_digest();
        assert!(verify_entry(&t, &library).is_err(), "{name}: certificate");
        // A wrong library link.
        let mut t = e.clone();
        t.library = Some(hexproof::templates::published::LibraryLink {
            name: "III1a".into(),
            relation: "same".into(),
        });
        t.digest = t.compute_digest();
        assert!(verify_entry(&t, &library).is_err(), "{name}: library link");
    }
}

/// Decides the named published templates again with `opts`: (name, what the import gave,
/// the stored entry, which must hold), and the seeded library.
fn decide_again(
    names: &[&str],
    opts: &ImportOptions,
) -> (
    Vec<(String, Entry, Entry)>,
    Vec<hexproof::templates::library::Record>,
) {
    let lib = library();
    let pf = published(&lib);
    let library = seeded(&lib);
    let sources: Vec<_> = parse_sources(HEXWIKI)
        .unwrap()
        .into_iter()
        .chain(parse_sources(KING_SELINGER).unwrap())
        .collect();
    let decided = names
        .iter()
        .map(|&name| {
            let s = sources.iter().find(|s| s.name == name).unwrap();
            let im = import_one(s, &library, opts).unwrap();
            (name.to_string(), im.entry, holding(pf, name))
        })
        .collect();
    (decided, library)
}

/// Import options with `engine`, `local_nodes` and `fitting`, 20 M nodes, 600 s, the whole
/// engine's default table and cap, no trace, no split.
fn import_options(engine: Engine, local_nodes: u64, fitting: bool) -> ImportOptions {
    ImportOptions {
        engine,
        local_nodes,
        nodes: 20_000_000,
        seconds: 600.0,
        fitting,
        tt_entries: WholeParams::default().tt_entries,
        max_certificate_nodes: WholeParams::default().max_certificate_nodes,
        trace: false,
        split: false,
        split_dir: None,
        split_option_seconds: None,
        split_deep: false,
        split_deep_first: false,
        split_moves: Vec::new(),
        split_deep_replies: Vec::new(),
        split_deep_moves: Vec::new(),
        split_deeper_replies: Vec::new(),
        split_deeper_moves: Vec::new(),
    }
}

#[test]
fn small_templates_are_decided_again_alike() {
    let opts = import_options(Engine::Auto, 100_000, false);
    let names = [
        "III1a",
        "IV2n",
        "DK-row4-08",
        "DK-row5-09",
        "Selinger:template-4-r-2",
    ];
    for (name, new, stored) in decide_again(&names, &opts).0 {
        assert_eq!(new.record, stored.record, "{name}");
        assert_eq!(new.minimized, stored.minimized, "{name}");
        assert_eq!(new.library, stored.library, "{name}");
    }
}

/// The import's default placement (`fitting`: Black's bottom edge of the smallest board that
/// holds the template, as `examples/solver_probe`) gives the same templates as the stored
/// entries (made on the top edge of 19×19) — same stones, goal stones, carrier, minimized
/// carrier and library link — each entry re-checking by its certificates; only the
/// certificates found may differ. Includes a union (DK-row5-09), helper stones above the goal
/// row (Selinger's 4-r-2), a minimized carrier (IV2n) and a solver-decided template
/// (Selinger's 5c, 37 cells).
#[test]
fn fitting_placement_gives_the_same_templates() {
    let opts = import_options(Engine::Auto, 10_000, true);
    let names = [
        "III1a",
        "IV2n",
        "DK-row5-09",
        "Selinger:template-4-r-2",
        "Selinger:template-5c",
    ];
    let (decided, library) = decide_again(&names, &opts);
    for (name, new, stored) in decided {
        assert_eq!(new.verdict, PublishedVerdict::Holds, "{name}");
        let (r, old) = (new.record.as_ref().unwrap(), stored.record.unwrap());
        assert_eq!(
            (&r.stones, r.goals, &r.carrier, r.symmetry),
            (&old.stones, old.goals, &old.carrier, old.symmetry),
            "{name}"
        );
        assert_eq!(
            new.minimized.as_ref().map(|m| &m.carrier),
            stored.minimized.as_ref().map(|m| &m.carrier),
            "{name}"
        );
        assert_eq!(new.library, stored.library, "{name}");
        verify_entry(&new, &library).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn canonical_form_with_several_goal_stones() {
    // One goal stone: the rule of the library's records.
    let stones = [[4, 0], [2, -1]];
    let carrier = [[1, -1], [1, 0], [2, 0], [3, -1], [3, 0]];
    let (s, c, sym) = canonical_template(&stones, &carrier, 4);
    let g = canonical_goals(&stones[..1], &stones[1..], &carrier);
    assert_eq!((g.stones, g.carrier, g.symmetry, g.goals), (s, c, sym, 1));
    // Two goal stones on one row, a bridge's cells below: symmetric, and the same form
    // whichever goal stone is listed first and wherever the template sits.
    let a = canonical_goals(&[[2, 0], [2, 2]], &[], &[[1, 0], [1, 1], [1, 2], [1, 3]]);
    let b = canonical_goals(&[[2, 7], [2, 5]], &[], &[[1, 5], [1, 6], [1, 7], [1, 8]]);
    assert_eq!(a, b);
    assert_eq!(a.goals, 2);
    assert_eq!(a.symmetry, Symmetry::Symmetric);
    assert_eq!(a.stones[0], [2, 0]);
}

/// The HexWiki template `name`, as the importer reads it.
fn hexwiki_source(name: &str) -> hexproof::enumerate::published::Source {
    parse_sources(HEXWIKI)
        .unwrap()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap()
}

/// A fresh temporary folder named `tag`, the library's records and HexWiki's template `name`:
/// the setting of the split-store tests.
fn split_setting(
    tag: &str,
    name: &str,
) -> (
    std::path::PathBuf,
    Vec<hexproof::templates::library::Record>,
    hexproof::enumerate::published::Source,
) {
    let dir = std::env::temp_dir().join(format!("hexproof-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    (dir, seeded(&library()), hexwiki_source(name))
}

/// Tampers a stored split file: its certificate's first Black reply is moved onto the cell of
/// White's own stone (`white` in the file), which parses but which the kernel must reject.
fn move_first_reply_onto_white(path: &std::path::Path, s: &hexproof::enumerate::published::Source) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let white: Vec<i32> = serde_json::from_value(v["white"].clone()).unwrap();
    let on_white = s.carrier.iter().position(|rc| rc[..] == white[..]).unwrap();
    assert_ne!(v["certificate"]["first"], serde_json::json!(on_white));
    v["certificate"]["first"] = serde_json::json!(on_white);
    std::fs::write(path, v.to_string()).unwrap();
}

/// `import-published --split --split-dir DIR` (issue 28, session 33): each White first move's
/// certificate proved by the split is kept in a file and a later run starts from it, every
/// file re-checked by the kernel when read. HexWiki's III1a with the solver engine: the first
/// run proves and stores its options; the second reads them all (no search: 0 nodes) and
/// holds; a file whose Black reply is tampered (onto White's own stone) is rejected by the
/// kernel and that move decided again; with only one file left and no time left the
/// template stays undecided — it holds only when every White move is answered.
#[test]
fn split_options_are_kept_between_runs_and_re_checked() {
    let (dir, library, s) = split_setting("split-dir", "III1a");
    let mut opts = ImportOptions {
        split: true,
        split_dir: Some(dir.clone()),
        ..import_options(Engine::Solver, 0, true)
    };
    let files = || -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(dir.join("III1a"))
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let first = import_one(&s, &library, &opts).unwrap();
    assert_eq!(first.entry.verdict, PublishedVerdict::Holds);
    assert_eq!((first.split_loaded, first.split_rejected), (0, 0));
    assert!(first.nodes > 0);
    let stored = files();
    assert!(stored.len() >= 2, "{stored:?}");
    assert!(
        first.entry.tried.contains("kept between runs"),
        "{}",
        first.entry.tried
    );

    let again = import_one(&s, &library, &opts).unwrap();
    assert_eq!(again.entry.verdict, PublishedVerdict::Holds);
    assert_eq!(
        (again.split_loaded, again.split_rejected, again.nodes),
        (stored.len() as u64, 0, 0)
    );
    verify_entry(&again.entry, &library).unwrap();

    // Black's first reply moved onto White's own stone: parses, but the kernel rejects it.
    move_first_reply_onto_white(&stored[0], &s);
    let tampered = import_one(&s, &library, &opts).unwrap();
    assert_eq!(tampered.entry.verdict, PublishedVerdict::Holds);
    assert_eq!(
        (tampered.split_loaded, tampered.split_rejected),
        (stored.len() as u64 - 1, 1)
    );
    assert!(tampered.nodes > 0, "the rejected move was decided again");

    // One option kept, no time to decide the rest: undecided, not holds.
    for p in &stored[1..] {
        std::fs::remove_file(p).unwrap();
    }
    opts.seconds = 0.0;
    let partial = import_one(&s, &library, &opts).unwrap();
    assert_eq!(partial.entry.verdict, PublishedVerdict::Undecided);
    assert_eq!(partial.split_loaded, 1);
    assert!(
        partial.entry.tried.contains("split"),
        "{}",
        partial.entry.tried
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `import-published --split --split-deep --split-deep-first --split-dir DIR` (issue 28,
/// session 34): a White first move with no stored certificate is decided by a second split
/// after Black's reply (the most frequent reply of the options proved so far), each White second move's
/// certificate kept in `DIR/<name>/white-<r>-<c>-black-<r>-<c>/`. HexWiki's III1a with the
/// solver engine: the first run holds with at least one move proved by the second split and
/// its parts stored; with that move's own file removed, the second run joins it again from
/// the nested files alone; a nested file whose Black reply is tampered (onto White's own
/// stone) is rejected by the kernel and that part decided again — the template still holds
/// and its entry re-checks.
#[test]
fn a_deep_split_keeps_its_parts_and_re_checks_them() {
    let (dir, library, s) = split_setting("split-deep", "III1a");
    let opts = ImportOptions {
        split: true,
        split_dir: Some(dir.clone()),
        split_deep: true,
        split_deep_first: true,
        ..import_options(Engine::Solver, 0, true)
    };
    let top = dir.join("III1a");
    let listing = |d: &Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let first = import_one(&s, &library, &opts).unwrap();
    assert_eq!(
        first.entry.verdict,
        PublishedVerdict::Holds,
        "{}",
        first.entry.tried
    );
    assert!(
        first.entry.tried.contains("split again"),
        "{}",
        first.entry.tried
    );
    verify_entry(&first.entry, &library).unwrap();
    let deep: Vec<_> = listing(&top).into_iter().filter(|p| p.is_dir()).collect();
    assert!(
        !deep.is_empty(),
        "no second split stored: {:?}",
        listing(&top)
    );
    let parts = listing(&deep[0]);
    assert!(!parts.is_empty());
    // The White move of the first deep folder: its own file removed, so only the parts
    // remain for it.
    let dname = deep[0].file_name().unwrap().to_str().unwrap().to_string();
    let w: Vec<&str> = dname.split("-black-").collect();
    let own = top.join(format!("{}.json", w[0]));
    assert!(own.exists(), "{own:?}");
    std::fs::remove_file(&own).unwrap();
    let again = import_one(&s, &library, &opts).unwrap();
    assert_eq!(again.entry.verdict, PublishedVerdict::Holds);
    assert_eq!(again.split_rejected, 0);
    assert!(own.exists(), "the joined move stored again");
    verify_entry(&again.entry, &library).unwrap();

    // A part's Black reply moved onto White's own second stone: the kernel rejects it.
    std::fs::remove_file(&own).unwrap();
    move_first_reply_onto_white(&parts[0], &s);
    let tampered = import_one(&s, &library, &opts).unwrap();
    assert_eq!(tampered.entry.verdict, PublishedVerdict::Holds);
    assert!(tampered.split_rejected >= 1, "{}", tampered.split_rejected);
    verify_entry(&tampered.entry, &library).unwrap();

    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rebuild that does not finish keeps its proved sub-trees (issue 28, session 36): the
/// split's direct attempt on a White move whose certificate rebuild stops (here at a
/// certificate-node cap, so the test is deterministic; HexWiki's IV1d, whose White move i9
/// needs an expanded rebuild of about 600 nodes) writes
/// `white-<r>-<c>.subparts.json`; the next run checks each sub-part with the kernel on its
/// own claim, reuses the accepted ones (no search below them) and holds, the file dropped
/// once the move is proved. A sub-part whose added White stones are moved onto its root's
/// first reply (it parses; the kernel must reject it) is rejected and the move rebuilt — the
/// template still holds and its entry re-checks.
#[test]
fn an_unfinished_rebuild_keeps_its_sub_trees_and_re_checks_them() {
    let (dir, library, s) = split_setting("subparts", "IV1d");
    let full = ImportOptions {
        split: true,
        split_dir: Some(dir.clone()),
        split_option_seconds: Some(600.0),
        ..import_options(Engine::Solver, 0, true)
    };
    let top = dir.join("IV1d");
    let subparts = || -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(&top)
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        v.retain(|p| p.to_string_lossy().ends_with(".subparts.json"));
        v.sort();
        v
    };
    // The largest stored certificate of an uncapped run, then caps just below it: the first
    // at which that move's rebuild stops with sub-trees done.
    let whole = import_one(&s, &library, &full).unwrap();
    assert_eq!(whole.entry.verdict, PublishedVerdict::Holds);
    let largest = std::fs::read_dir(&top)
        .unwrap()
        .map(|e| {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
            v["certificate_nodes"].as_u64().unwrap() as usize
        })
        .max()
        .unwrap();
    assert!(largest > 100, "{largest}");
    let capped = (1..20)
        .map(|k| largest - 10 * k + 9)
        .map(|cap| ImportOptions {
            max_certificate_nodes: cap,
            ..full.clone()
        })
        .find(|capped| {
            let _ = std::fs::remove_dir_all(&dir);
            let first = import_one(&s, &library, capped).unwrap();
            first.entry.verdict == PublishedVerdict::Undecided && !subparts().is_empty()
        })
        .expect("a cap at which a rebuild keeps sub-parts");
    let kept = subparts();
    assert!(!kept.is_empty());

    let again = import_one(&s, &library, &full).unwrap();
    assert_eq!(
        again.entry.verdict,
        PublishedVerdict::Holds,
        "{}",
        again.entry.tried
    );
    assert!(again.subparts_loaded > 0);
    assert_eq!(again.subparts_rejected, 0);
    assert!(subparts().is_empty(), "proved moves drop their sub-parts");
    verify_entry(&again.entry, &library).unwrap();

    // Kept again, then one sub-part tampered: White's added stones take its root's first
    // reply (a carrier cell of its certificate), which the kernel rejects on that claim.
    std::fs::remove_dir_all(&dir).unwrap();
    import_one(&s, &library, &capped).unwrap();
    let kept = subparts();
    let mut tampered_one = false;
    'files: for p in &kept {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        let parts = v["subparts"].as_array_mut().unwrap();
        for part in parts.iter_mut() {
            let c = &part["certificate"];
            let nodes = match c.get("packed") {
                Some(packed) => {
                    hexproof::templates::cert_pack::unpack_nodes(packed.as_str().unwrap()).unwrap()
                }
                None => serde_json::from_value(c["nodes"].clone()).unwrap(),
            };
            let root = &nodes[c["root"].as_u64().unwrap() as usize];
            let Some(reply) = root.or.as_ref().and_then(|o| o.first()).map(|o| o[0]) else {
                continue;
            };
            let cell = s.carrier[reply as usize];
            part["white"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!(cell));
            std::fs::write(p, v.to_string()).unwrap();
            tampered_one = true;
            break 'files;
        }
    }
    assert!(tampered_one, "no sub-part with an or-node root in {kept:?}");
    let tampered = import_one(&s, &library, &full).unwrap();
    assert_eq!(tampered.entry.verdict, PublishedVerdict::Holds);
    assert_eq!(tampered.subparts_rejected, 1);
    verify_entry(&tampered.entry, &library).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The error `import_one` gives for `opts` (which must fail), as text.
fn import_error(
    s: &hexproof::enumerate::published::Source,
    library: &[hexproof::templates::library::Record],
    opts: &ImportOptions,
) -> String {
    match import_one(s, library, opts) {
        Err(e) => e.to_string(),
        Ok(im) => panic!("no error: {}", im.entry.tried),
    }
}

/// `--split-moves` (issue 28, session 35): only the named White first moves are tried; every
/// other stays open, so the template is undecided and says which moves were not tried (a
/// restricted run never claims more than it proved). A name that is not a carrier cell is an
/// error, not an empty restriction.
#[test]
fn split_moves_restricts_the_moves_tried() {
    let lib = library();
    let library = seeded(&lib);
    let s = hexwiki_source("III1a");
    let base = ImportOptions {
        split: true,
        ..import_options(Engine::Solver, 0, true)
    };
    let bad = ImportOptions {
        split_moves: vec!["z99".into()],
        ..base.clone()
    };
    let e = import_error(&s, &library, &bad);
    assert!(e.contains("--split-moves \"z99\""), "{e}");
    // Every move's name, from a run whose moves all run out of time at once.
    let starved = ImportOptions {
        split_option_seconds: Some(1e-9),
        ..base.clone()
    };
    let all = import_one(&s, &library, &starved).unwrap();
    assert_eq!(all.entry.verdict, PublishedVerdict::Undecided);
    let tried = &all.entry.tried;
    let names: Vec<String> = tried
        .split("tried and undecided: ")
        .nth(1)
        .and_then(|t| t.split(';').next())
        .unwrap_or_else(|| panic!("{tried}"))
        .split_whitespace()
        .map(String::from)
        .collect();
    assert!(names.len() > 2, "{tried}");
    let one = ImportOptions {
        split_moves: vec![names[0].clone()],
        ..base.clone()
    };
    let im = import_one(&s, &library, &one).unwrap();
    assert_eq!(
        im.entry.verdict,
        PublishedVerdict::Undecided,
        "{}",
        im.entry.tried
    );
    let t = &im.entry.tried;
    let not_tried = t
        .split("not tried: ")
        .nth(1)
        .unwrap_or_else(|| panic!("{t}"));
    assert!(!not_tried.starts_with(')'), "other moves left open: {t}");
    assert!(!not_tried.contains(&names[0]), "{t}");
    // Unrestricted, the same template holds.
    let full = import_one(&s, &library, &base).unwrap();
    assert_eq!(full.entry.verdict, PublishedVerdict::Holds);
}

/// The deep step's replies (`deep_replies`, issue 28 session 39): the cells named by
/// `--split-deep-replies` come first, in their order (White's own move, cells off the
/// carrier and repeats left out), then the usual ones — the solver's proved reply, the
/// stored ones, the options' most frequent — of which at most `DEEP_REPLIES`.
#[test]
fn deep_replies_begin_with_the_named_cells() {
    use hexproof::board::{Board, Border, Cell, CellSet, Colour, Notation};
    use hexproof::claim::{Claim, SubGame};
    use hexproof::engine::whole::{deep_replies, NamedReplies, DEEP_REPLIES};
    use hexproof::kernel::Reply;
    use hexproof::position::Position;
    let board = Board::square(5).unwrap();
    let c = |n: &str| board.parse_cell(n, Notation::Letters).unwrap();
    let p = Position::new(board, CellSet::EMPTY, CellSet::EMPTY).unwrap();
    let carrier = p.empty_cells() - CellSet::single(c("e1"));
    let sub = SubGame::new(
        p,
        carrier,
        Claim {
            owner: Colour::Black,
            pairs: vec![(Cell::border(Border::Top), Cell::border(Border::Bottom))],
            owner_first: true,
        },
    )
    .unwrap();
    let w = c("c3");
    let options: Vec<Reply> = ["e5", "a5", "e5"]
        .iter()
        .map(|&n| Reply {
            reply: c(n),
            next: 0,
        })
        .collect();
    let stored = [c("b3")];
    let usual = deep_replies(
        &sub,
        w,
        &NamedReplies::default(),
        Some(c("b2")),
        &stored,
        &options,
    );
    assert_eq!(DEEP_REPLIES, 2);
    assert_eq!(usual, vec![c("b2"), c("b3")]);
    let named = NamedReplies::new(&[c("d4"), c("c3"), c("e1"), c("a1"), c("d4")]).unwrap();
    let v = deep_replies(&sub, w, &named, Some(c("b2")), &stored, &options);
    assert_eq!(v, vec![c("d4"), c("a1"), c("b2"), c("b3")]);
    // With no usual reply at all (the deep step before the direct attempt, nothing proved
    // yet), the named ones alone; a named one that is also a usual one is tried once, first.
    let v = deep_replies(&sub, w, &named, None, &[], &[]);
    assert_eq!(v, vec![c("d4"), c("a1")]);
    let b2 = NamedReplies::new(&[c("b3")]).unwrap();
    let v = deep_replies(&sub, w, &b2, Some(c("b2")), &stored, &options);
    assert_eq!(v, vec![c("b3"), c("b2"), c("e5")]);
    assert!(NamedReplies::new(&[c("a1"); NamedReplies::MAX + 1]).is_none());
}

/// The solver engine, split with its folder `dir`, deep step first, White's first move `w`
/// only.
fn deep_first_options(dir: &Path, w: String) -> ImportOptions {
    ImportOptions {
        split: true,
        split_dir: Some(dir.to_path_buf()),
        split_deep: true,
        split_deep_first: true,
        split_moves: vec![w],
        ..import_options(Engine::Solver, 0, true)
    }
}

/// `import-published --split-deep-replies` through `import_one` (HexWiki's III1a, the solver
/// engine, one White move `w`, the deep step first): with no named reply and nothing proved
/// yet the deep step has no reply to try, so `w` is proved by the direct attempt and no
/// second split is stored; naming the direct attempt's Black reply `b` makes the deep step
/// try it first: its second split's parts are stored under `white-…-black-<b>/`, `w`'s
/// certificate (first move `b`) is kept, and the entry is undecided (the other moves were
/// not tried) — the named reply changes only what is tried. A cell that is not a carrier
/// cell is an error naming it; more than `NamedReplies::MAX` cells are an error. With
/// `--split-deep-moves x` the second split tries White's second move x only: its folder
/// holds x's part alone.
#[test]
fn split_deep_replies_are_tried_first() {
    use hexproof::board::Notation;
    use hexproof::engine::whole::split_order;
    use hexproof::enumerate::published::place;
    let (dir, library, s) = split_setting("deep-replies", "III1a");
    let (game, at) = place(&s, true).unwrap();
    let name = |c| game.board().cell_name(c, Notation::Letters);
    let w = split_order(&game)[0];
    let base = deep_first_options(&dir, name(w));
    for (cells, says) in [
        (vec!["z99".to_string()], "--split-deep-replies \"z99\""),
        (vec![name(w); 9], "at most 8"),
    ] {
        let bad = ImportOptions {
            split_deep_replies: cells,
            ..base.clone()
        };
        let e = import_error(&s, &library, &bad);
        assert!(e.contains(says), "{e}");
    }
    let top = dir.join("III1a");
    let listing = || -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(&top)
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let plain = import_one(&s, &library, &base).unwrap();
    assert_eq!(plain.entry.verdict, PublishedVerdict::Undecided);
    let files = listing();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].is_file(),
        "no second split without a reply: {files:?}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let first = v["certificate"]["first"].as_u64().unwrap() as usize;
    let b_rc = s.carrier[first];
    let b = at[&b_rc];
    std::fs::remove_dir_all(&dir).unwrap();

    let named = ImportOptions {
        split_deep_replies: vec![name(b)],
        ..base.clone()
    };
    let im = import_one(&s, &library, &named).unwrap();
    assert_eq!(im.entry.verdict, PublishedVerdict::Undecided);
    assert_eq!(im.split_rejected, 0);
    let files = listing();
    let deep: Vec<_> = files.iter().filter(|p| p.is_dir()).collect();
    assert_eq!(deep.len(), 1, "{files:?}");
    let dname = deep[0].file_name().unwrap().to_str().unwrap();
    assert!(
        dname.ends_with(&format!("-black-{}-{}", b_rc[0], b_rc[1])),
        "{dname}: reply {}",
        name(b)
    );
    let own = files.iter().find(|p| p.is_file()).expect("w's certificate");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(own).unwrap()).unwrap();
    assert_eq!(v["certificate"]["first"].as_u64(), Some(first as u64));
    // The stored parts and the joined move re-check: run again, all read, none rejected.
    let again = import_one(&s, &library, &named).unwrap();
    assert_eq!((again.split_loaded, again.split_rejected), (1, 0));
    std::fs::remove_dir_all(&dir).unwrap();

    // `--split-deep-moves x`: the second split tries White's second move x only; the others
    // stay open, so the deep step proves nothing (w then falls to the direct attempt) and
    // its folder holds x's part alone.
    let x = game.carrier().iter().find(|&c| c != w && c != b).unwrap();
    let bad = ImportOptions {
        split_deep_moves: vec!["z99".into()],
        ..named.clone()
    };
    let e = import_error(&s, &library, &bad);
    assert!(e.contains("--split-deep-moves \"z99\""), "{e}");
    let only = ImportOptions {
        split_deep_moves: vec![name(x)],
        ..named.clone()
    };
    let im = import_one(&s, &library, &only).unwrap();
    assert_eq!(im.entry.verdict, PublishedVerdict::Undecided);
    let files: Vec<_> = listing().into_iter().filter(|p| p.is_dir()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let x_rc = at.iter().find(|(_, &c)| c == x).unwrap().0;
    for d in &files {
        let parts: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            parts
                .iter()
                .all(|p| p.starts_with(&format!("white-{}-{}.", x_rc[0], x_rc[1]))),
            "only x's part: {parts:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `import-published --split-deeper-replies` (issue 28, session 40): a third level of the
/// deep split through `import_one` (HexWiki's IV1a: III1a's 8 cells leave Black joined after
/// four moves, so its third split has nothing to prove; the solver engine, one White move `w`,
/// Black's named reply `b`, one White second move `x`). A run with two levels stores `x`'s
/// part (Black's reply `y`); with `y` named as the third level's reply (and `x`'s part
/// removed) the second split runs a deep step of its own on `x`: the third split's parts
/// are stored under `white-<w>-black-<b>/white-<x>-black-<y>/`, `x`'s part is stored again
/// with first move `y`, and a re-run reads it (kernel-checked) with none rejected. A bad
/// cell, a ninth cell, and `--split-deeper-moves` with a bad cell are errors naming the flag.
#[test]
fn split_deeper_replies_nest_a_third_split() {
    use hexproof::board::Notation;
    use hexproof::engine::whole::split_order;
    use hexproof::enumerate::published::place;
    let (dir, library, s) = split_setting("deeper-replies", "IV1a");
    let (game, at) = place(&s, true).unwrap();
    let name = |c| game.board().cell_name(c, Notation::Letters);
    let rc = |c| *at.iter().find(|(_, &x)| x == c).unwrap().0;
    let w = split_order(&game)[0];
    // Black's reply to w: the direct attempt's (as in split_deep_replies_are_tried_first).
    let plain = deep_first_options(&dir, name(w));
    import_one(&s, &library, &plain).unwrap();
    let top = dir.join("IV1a");
    let first_of = |p: &std::path::Path| -> usize {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        v["certificate"]["first"].as_u64().unwrap() as usize
    };
    let w_rc = rc(w);
    let b_rc = s.carrier[first_of(&top.join(format!("white-{}-{}.json", w_rc[0], w_rc[1])))];
    let b = at[&b_rc];
    std::fs::remove_dir_all(&dir).unwrap();
    // Two levels, White's second move x only: x's part names Black's reply y.
    let x = split_order(&game)
        .into_iter()
        .find(|&c| c != w && c != b)
        .unwrap();
    let x_rc = rc(x);
    let two = ImportOptions {
        split_deep_replies: vec![name(b)],
        split_deep_moves: vec![name(x)],
        ..plain.clone()
    };
    import_one(&s, &library, &two).unwrap();
    let deep = top.join(format!(
        "white-{}-{}-black-{}-{}",
        w_rc[0], w_rc[1], b_rc[0], b_rc[1]
    ));
    let x_part = deep.join(format!("white-{}-{}.json", x_rc[0], x_rc[1]));
    let y_rc = s.carrier[first_of(&x_part)];
    let y = at[&y_rc];
    std::fs::remove_dir_all(&dir).unwrap();
    let three = ImportOptions {
        split_deeper_replies: vec![name(y)],
        ..two.clone()
    };
    for (opts, says) in [
        (
            ImportOptions {
                split_deeper_replies: vec!["z99".into()],
                ..two.clone()
            },
            "--split-deeper-replies \"z99\"",
        ),
        (
            ImportOptions {
                split_deeper_replies: vec![name(y); 9],
                ..two.clone()
            },
            "--split-deeper-replies names 9 cells",
        ),
        (
            ImportOptions {
                split_deeper_moves: vec!["z99".into()],
                ..three.clone()
            },
            "--split-deeper-moves \"z99\"",
        ),
    ] {
        let e = import_error(&s, &library, &opts);
        assert!(e.contains(says), "{e}");
    }
    let im = import_one(&s, &library, &three).unwrap();
    assert_eq!(im.split_rejected, 0);
    let third = deep.join(format!(
        "white-{}-{}-black-{}-{}",
        x_rc[0], x_rc[1], y_rc[0], y_rc[1]
    ));
    let parts = std::fs::read_dir(&third)
        .map(|d| d.count())
        .unwrap_or_default();
    assert!(parts > 0, "no third split under {}", third.display());
    assert_eq!(s.carrier[first_of(&x_part)], y_rc, "x's part starts with y");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&x_part).unwrap()).unwrap();
    assert_eq!(
        v["template"].as_str().unwrap(),
        format!(
            "hexwiki:IV1a after White {},{} Black {},{}",
            w_rc[0], w_rc[1], b_rc[0], b_rc[1]
        )
    );
    // Read back: x's part and the third split's parts are accepted by the kernel.
    let again = import_one(&s, &library, &three).unwrap();
    assert_eq!(again.split_rejected, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `engine::whole::answer_after` (issue 28, session 40: a stored certificate after White's
/// `v` that starts with Black's `b` holds the part after White's `w`, Black's `b`, White's
/// `v`): the root's option that answers `w` (its reply and next node's carrier avoid `w`),
/// cut out with the nodes it reaches, renumbered in order, `b` taken out of their stones;
/// nothing for another first move, a root that is not an or-node, or no option answering
/// `w`. (What it cuts is checked by the kernel when the split loads it, as any part.)
#[test]
fn answer_after_cuts_the_option_that_answers_w() {
    use hexproof::board::{Board, CellSet, Notation};
    use hexproof::engine::whole::answer_after;
    use hexproof::kernel::{Certificate, Node, NodeKind, Reply};
    let board = Board::square(5).unwrap();
    let c = |n: &str| board.parse_cell(n, Notation::Letters).unwrap();
    let set = |ns: &[&str]| ns.iter().map(|&n| c(n)).collect::<CellSet>();
    let node = |stones: &[&str], carrier: &[&str], kind: NodeKind| Node {
        stones: set(stones),
        carrier: set(carrier),
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind,
    };
    let (b, w) = (c("c3"), c("d4"));
    let cert = Certificate {
        nodes: vec![
            node(&["c3", "b2"], &[], NodeKind::Joined),
            // After e5: d4 is needed (a Joined node with a carrier, enough here).
            node(&["c3", "e5"], &["d4"], NodeKind::Joined),
            node(&["c3", "b2", "a1"], &[], NodeKind::Joined),
            // After b2: a1 answers anything but a1 and a2.
            node(
                &["c3", "b2"],
                &["a1", "a2"],
                NodeKind::Or(vec![Reply {
                    reply: c("a1"),
                    next: 2,
                }]),
            ),
            node(
                &["c3"],
                &["b2", "d4", "e5", "a1", "a2"],
                NodeKind::Or(vec![
                    Reply {
                        reply: c("e5"),
                        next: 1,
                    },
                    Reply {
                        reply: c("b2"),
                        next: 3,
                    },
                ]),
            ),
        ],
        first: Some(b),
        root: 4,
    };
    let cut = answer_after(&cert, b, w).expect("b2's option answers d4");
    assert_eq!(cut.first, Some(c("b2")));
    assert_eq!(cut.nodes.len(), 2, "{cut:?}");
    assert_eq!(cut.root, 1);
    assert_eq!(cut.nodes[0].stones, set(&["b2", "a1"]));
    assert_eq!(cut.nodes[1].stones, set(&["b2"]));
    assert_eq!(
        cut.nodes[1].kind,
        NodeKind::Or(vec![Reply {
            reply: c("a1"),
            next: 0,
        }])
    );
    // e5's option answers a1 too (the first that does is taken).
    assert_eq!(
        answer_after(&cert, b, c("a1")).unwrap().first,
        Some(c("e5"))
    );
    // No option answers a1 when e5's is gone; another first move; a root that is no or-node.
    let mut one = cert.clone();
    one.nodes[4].kind = NodeKind::Or(vec![Reply {
        reply: c("b2"),
        next: 3,
    }]);
    assert!(answer_after(&one, b, c("a1")).is_none());
    assert!(answer_after(&cert, c("b2"), w).is_none());
    let leaf = Certificate {
        root: 0,
        ..cert.clone()
    };
    assert!(answer_after(&leaf, b, w).is_none());
}

/// A deep step's reply that the solver refutes ends at once (issue 28, session 40): when the
/// solver says White wins after one of White's second moves (not confirmed, so that part is
/// only undecided), the second split stops and the deep step tries its next reply instead of
/// giving up. HexWiki's IV1a, White's hottest first move `w` (the last in the split's
/// order), the deep step first with the named replies `bad` (the first cell in that order,
/// far from `w`: the solver disproves a part after it at once) then `good` (the direct
/// attempt's reply): `w` is proved by the deep step with `good` — its second split's folder
/// is there and `w`'s certificate starts with `good` — where before the step gave up after
/// `bad` and `w` fell to the direct attempt (no folder for `good`).
#[test]
fn deep_step_goes_on_after_a_refuted_reply() {
    use hexproof::board::Notation;
    use hexproof::engine::whole::split_order;
    use hexproof::enumerate::published::place;
    let (dir, library, s) = split_setting("refuted-reply", "IV1a");
    let (game, at) = place(&s, true).unwrap();
    let name = |c| game.board().cell_name(c, Notation::Letters);
    let rc = |c| *at.iter().find(|(_, &x)| x == c).unwrap().0;
    let order = split_order(&game);
    let (w, bad) = (*order.last().unwrap(), order[0]);
    let w_rc = rc(w);
    let top = dir.join("IV1a");
    let w_file = top.join(format!("white-{}-{}.json", w_rc[0], w_rc[1]));
    let first_of = |p: &std::path::Path| -> [i32; 2] {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        s.carrier[v["certificate"]["first"].as_u64().unwrap() as usize]
    };
    let plain = deep_first_options(&dir, name(w));
    import_one(&s, &library, &plain).unwrap();
    let good_rc = first_of(&w_file);
    let good = at[&good_rc];
    assert_ne!(good, bad);
    std::fs::remove_dir_all(&dir).unwrap();
    let named = ImportOptions {
        split_deep_replies: vec![name(bad), name(good)],
        ..plain
    };
    let im = import_one(&s, &library, &named).unwrap();
    assert_eq!(im.split_rejected, 0);
    let deep = top.join(format!(
        "white-{}-{}-black-{}-{}",
        w_rc[0], w_rc[1], good_rc[0], good_rc[1]
    ));
    assert!(deep.is_dir(), "no second split after {}", name(good));
    assert_eq!(first_of(&w_file), good_rc);
    let _ = std::fs::remove_dir_all(&dir);
}
