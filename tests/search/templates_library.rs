//! The shipped template library (`templates/`): every entry re-checked by the kernel alone,
//! tampering detected and attributed to the entry, and the library summary snapshotted.

use hexproof::local::{decide, Budget, Verdict};
use hexproof::templates::library::{verify_record, Library, Record};
use std::path::Path;

fn library() -> Library {
    Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"))
        .expect("the library loads")
}

/// Verifies every record, returning (name, reason) of the failures.
fn failures<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<(String, String)> {
    records
        .into_iter()
        .filter_map(|r| {
            verify_record(r)
                .err()
                .map(|e| (r.name.clone(), e.to_string()))
        })
        .collect()
}

#[test]
fn every_entry_verifies_by_certificate() {
    let lib = library();
    let n = lib.records().count();
    assert!(n >= 3, "the library has {n} entries");
    assert_eq!(failures(lib.records()), vec![]);
    // Names are unique.
    let mut names: Vec<&str> = lib.records().map(|r| r.name.as_str()).collect();
    names.sort();
    let len = names.len();
    names.dedup();
    assert_eq!(names.len(), len, "duplicate template names");
}

/// Runs `edit` on a copy of the library's record `name` and returns the verification failures
/// (name, reason) of the edited record.
fn tampered(
    lib: &Library,
    name: &str,
    edit: impl Fn(&mut Record),
    redigest: bool,
) -> Vec<(String, String)> {
    // Only the edited record is re-verified: the others are unchanged, and every one of them
    // verifies (`every_entry_verifies_by_certificate`).
    let mut r = lib
        .records()
        .find(|r| r.name == name)
        .expect("the record exists")
        .clone();
    edit(&mut r);
    if redigest {
        r.digest = r.compute_digest();
    }
    failures([&r])
}

fn assert_names(f: &[(String, String)], name: &str, what: &str) {
    assert_eq!(f.len(), 1, "{name}: {what}: {f:?}");
    assert_eq!(f[0].0, name, "{what}: {f:?}");
}

#[test]
fn tampering_fails_and_names_the_entry() {
    let lib = library();
    let mut accepted_true = 0;
    let mut moved = 0;
    for r in lib.records() {
        let name = r.name.as_str();
        // Every carrier cell moved one step along its row, and one row up.
        moved += 3 * r.carrier.len();
        for i in 0..r.carrier.len() {
            for (dr, dc) in [(0, 1), (0, -1), (1, 0)] {
                let edit = |x: &mut Record| {
                    x.carrier[i] = [x.carrier[i][0] + dr, x.carrier[i][1] + dc];
                };
                assert_names(&tampered(&lib, name, edit, false), name, "carrier cell");
                // Even with a consistent digest, the kernel or the form checks reject it —
                // unless the moved carrier is itself a true template that the same certificate
                // proves (a cell of a two-stone template swapped for an equivalent one):
                // accepting a true record is right, and exact search must confirm it.
                let f = tampered(&lib, name, edit, true);
                if f.is_empty() {
                    let mut x = r.clone();
                    edit(&mut x);
                    let (game, _, _) = x.sub_game().unwrap();
                    let o = decide(&game, &Budget::nodes(10_000_000)).unwrap();
                    assert_eq!(o.verdict, Verdict::Holds, "{name}: accepted a false record");
                    accepted_true += 1;
                } else {
                    assert_names(&f, name, "carrier cell, re-digested");
                }
            }
        }
        // The stone moved.
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1)] {
            let edit = |x: &mut Record| x.stones[0] = [x.stones[0][0] + dr, x.stones[0][1] + dc];
            assert_names(&tampered(&lib, name, edit, false), name, "stone");
            assert_names(
                &tampered(&lib, name, edit, true),
                name,
                "stone, re-digested",
            );
        }
        // Certificate entries: every reply of every or-node, every mask of every node (for
        // large certificates, 64 nodes spread over the whole certificate, root included, so
        // the test stays fast: each tampered copy is re-verified in full).
        let nodes = r.certificate.nodes.len();
        let step = nodes.div_ceil(64).max(1);
        let picked: Vec<usize> = (0..nodes)
            .rev()
            .step_by(step)
            .chain(std::iter::once(r.certificate.root as usize))
            .collect();
        for k in picked {
            if let Some(or) = &r.certificate.nodes[k].or {
                for j in 0..or.len() {
                    let edit = |x: &mut Record| {
                        let o = x.certificate.nodes[k].or.as_mut().unwrap();
                        o[j][0] = (o[j][0] + 1) % x.carrier.len() as u32;
                    };
                    assert_names(&tampered(&lib, name, edit, false), name, "reply");
                    let edit = |x: &mut Record| {
                        let o = x.certificate.nodes[k].or.as_mut().unwrap();
                        o[j][1] = (o[j][1] + 1) % nodes as u32;
                    };
                    assert_names(&tampered(&lib, name, edit, false), name, "next");
                }
            }
            for field in 0..2 {
                let edit = |x: &mut Record| {
                    let n = &mut x.certificate.nodes[k];
                    let s = if field == 0 { &mut n.s } else { &mut n.c };
                    let m = u128::from_str_radix(s, 16).unwrap() ^ 1;
                    *s = format!("{m:x}");
                };
                assert_names(&tampered(&lib, name, edit, false), name, "mask");
            }
        }
        // (A one-node certificate — II2-0-1e62, whose stones already touch each other and the
        // edge — has no other root to point at.)
        if nodes > 1 {
            let edit =
                |x: &mut Record| x.certificate.root = (x.certificate.root + 1) % nodes as u32;
            assert_names(&tampered(&lib, name, edit, false), name, "root");
        }
    }
    // Moves that give another true template are rare: none of the one-stone edits, 46 of the
    // 3,444 moves over the whole library (all two-stone; each confirmed true by search above).
    assert!(
        accepted_true * 50 <= moved,
        "{accepted_true} of {moved} moved carrier cells still verify"
    );
}

#[test]
fn carrier_edits_are_caught_by_the_kernel_itself() {
    // With the digest recomputed, dropping a carrier cell leaves a certificate that uses a cell
    // the claim does not have: the kernel (or the exact-carrier check) must object, and the
    // reason must not be the digest.
    let lib = library();
    for r in lib.records() {
        for i in 0..r.carrier.len() {
            let mut x = r.clone();
            x.carrier.remove(i);
            x.digest = x.compute_digest();
            let e = verify_record(&x).expect_err("a dropped carrier cell must fail");
            assert!(!e.to_string().contains("digest"), "{}: {e}", r.name);
        }
    }
}

#[test]
fn library_summary() {
    let lib = library();
    let mut out = String::new();
    for (p, f) in &lib.files {
        out.push_str(&format!(
            "{}: row {} stones {} region {}x{} complete {} templates {}\n",
            p.file_name().unwrap().to_string_lossy(),
            f.row,
            f.stones,
            f.region.height,
            f.region.width,
            f.complete,
            f.templates.len()
        ));
        for r in &f.templates {
            out.push_str(&format!(
                "  {} size {} {:?} {:?} hexwiki {:?}\n",
                r.name,
                r.size(),
                r.symmetry,
                r.minimality,
                r.provenance.hexwiki
            ));
        }
    }
    if let Some((p, lf)) = &lib.lemmas {
        out.push_str(&format!(
            "{}: lemmas {}\n",
            p.file_name().unwrap().to_string_lossy(),
            lf.lemmas.len()
        ));
        for r in &lf.lemmas {
            out.push_str(&format!(
                "  {} board {} {:?} {:?} size {} {} ({}) recheck {:?} certificate nodes {}\n",
                r.name,
                r.board,
                r.claim,
                r.frame,
                r.carrier.len(),
                r.provenance.source,
                r.provenance.method,
                r.recheck,
                r.certificate.as_ref().map_or(0, |c| c.nodes.len())
            ));
        }
    }
    insta::assert_snapshot!("templates_library_summary", out);
}
