//! The lemmas proved in `proofs/*.hexp` as library records (docs/templates.md, "Lemma
//! records"): `templates/proofs.json`.
//!
//! A lemma of a proof file is board-specific (Noshita's 7×7 lemmas, Anshelevich's edge
//! connection on 9×9, …), so its record is kept in board coordinates (cell names in letters
//! notation; borders `t`, `b`, `l`, `r`), not in the edge-relative form of the templates.
//!
//! Each record is admitted only when the checker verified the lemma in its file (pass 3,
//! [`crate::check`]); its provenance is `proved in proofs/FILE`. It then carries how
//! `hexproof templates verify` re-checks it:
//!
//! - `kernel`: a kernel certificate of the lemma's claim sub-game (the exact search's, made
//!   when the record was written), re-checked by [`crate::kernel::check`] alone. The proof set
//!   it uses may be smaller than the stated carrier (monotonicity, docs/SEMANTICS.md);
//! - `checker`: claims the kernel has no certificate form for (conjunctions, Noshita 2005 §3
//!   end; lemmas with AB assumptions) — `verify` re-runs the checker on the lemmas of the file
//!   and requires this one verified.
//!
//! Either way `verify` also reads the lemma again from `proofs/FILE` and requires the record
//! to state exactly its board, stones, claim and carrier, so a record cannot drift from the
//! proof it cites.

pub mod tree_cert;

use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::check::report::StepVerdict;
use crate::check::{check_program, Options};
use crate::templates::cert_shrink::shrink;
pub use crate::templates::lemma_record::{
    LemmaClaim, LemmaFile, LemmaProvenance, LemmaRecord, Recheck,
};
use crate::templates::library::{decode_certificate, encode_certificate_compact, Frame};
use crate::templates::TemplateError;
use tree_cert::{compose, KnownLemma};

use crate::claim::ClaimError;
use crate::dsl::load::{Loader, ReadError, RootStatus};
use crate::dsl::model::{Block, BlockKind, Program};
use crate::kernel::{self, NodeId};

use crate::local::{decide, Budget, Verdict};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

fn names(board: &Board, set: CellSet) -> Vec<String> {
    set.iter()
        .map(|c| board.cell_name(c, Notation::Letters))
        .collect()
}

/// The record a verified lemma block states (no certificate yet, no digest).
fn stated(file: &str, block: &Block) -> Option<LemmaRecord> {
    let info = block.lemma.as_ref()?;
    let fact = &info.claim;
    let board = *block.position.board();
    let name = |c: Cell| board.cell_name(c, Notation::Letters);
    let claim = match (
        fact.conj && fact.claim.pairs.len() > 1,
        fact.claim.pairs.len(),
        fact.claim.owner_first,
    ) {
        (true, _, _) => LemmaClaim::Conj,
        (false, 1, false) => LemmaClaim::Vc,
        (false, 1, true) => LemmaClaim::Semi,
        (false, _, false) => LemmaClaim::Union,
        (false, _, true) => LemmaClaim::UnionSemi,
    };
    let frame = if fact
        .claim
        .pairs
        .iter()
        .any(|(a, b)| a.as_border().is_some() || b.as_border().is_some())
    {
        Frame::Edge
    } else {
        Frame::FreeStanding
    };
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let lemma = block.name.clone()?;
    Some(LemmaRecord {
        name: format!("{stem}/{lemma}"),
        file: file.to_string(),
        lemma,
        title: block.title.clone(),
        board: board.to_string(),
        owner: fact.claim.owner,
        frame,
        claim,
        pairs: fact
            .claim
            .pairs
            .iter()
            .map(|&(a, b)| [name(a), name(b)])
            .collect(),
        black: names(&board, block.position.stones(Colour::Black)),
        white: names(&board, block.position.stones(Colour::White)),
        carrier: names(&board, fact.carrier),
        provenance: LemmaProvenance {
            source: format!("proved in {file}"),
            method: if info.has_proof { "proof" } else { "search" }.into(),
        },
        recheck: Recheck::Checker,
        ends: Vec::new(),
        certificate: None,
        digest: String::new(),
    })
}

/// Why a proof file's lemmas could not be loaded ([`checked_lemmas`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadLemmasError {
    /// The file could not be read.
    #[error("cannot read {file}: {error}")]
    Unreadable {
        /// The file, as named.
        file: String,
        /// Why.
        error: ReadError,
    },
    /// It, or a file it uses, has errors.
    #[error("{0} does not load without errors")]
    BadInput(String),
    /// The program has no module for the file.
    #[error("{0}: no module")]
    NoModule(String),
    /// The checker's report has no entry for the file.
    #[error("{0}: no report")]
    NoReport(String),
}

/// Why a lemma could not be imported ([`lemma_records`]) or re-checked ([`verify_lemma`]).
#[derive(Debug, thiserror::Error)]
pub enum LemmaError {
    /// Its file could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadLemmasError),
    /// The record's sub-game or certificate is malformed.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The search refused the lemma's sub-game.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// The digest does not match the record.
    #[error("digest mismatch (stored {stored}, computed {computed}): the record was edited")]
    Digest {
        /// The record's digest.
        stored: String,
        /// The digest of its fields.
        computed: String,
    },
    /// The provenance does not name the record's file.
    #[error("provenance '{provenance}' does not name its file {file}")]
    Provenance {
        /// The record's provenance.
        provenance: String,
        /// The record's file.
        file: String,
    },
    /// `recheck: kernel` without a certificate.
    #[error("recheck is 'kernel' but there is no certificate")]
    NoCertificate,
    /// A conjunction stored with `recheck: kernel`.
    #[error("a conjunction has no kernel certificate form")]
    ConjCertificate,
    /// The certificate's root is not one of its nodes.
    #[error("root node {0} is missing")]
    MissingRoot(NodeId),
    /// The certificate leaves the stored carrier.
    #[error("the certificate uses cells outside the stored carrier")]
    OutsideCarrier,
    /// The kernel refuses the certificate.
    #[error("kernel: {0}")]
    Kernel(#[source] kernel::KernelError),
    /// The file states no such lemma.
    #[error("{file} has no lemma {lemma}")]
    NoLemma {
        /// The record's file.
        file: String,
        /// The lemma's name.
        lemma: String,
    },
    /// The named block is not a lemma.
    #[error("not a lemma")]
    NotALemma,
    /// The record differs from the lemma its file states.
    #[error("the record differs from lemma {lemma} of {file}: {difference}")]
    Differs {
        /// The lemma's name.
        lemma: String,
        /// The record's file.
        file: String,
        /// The first differing field.
        difference: String,
    },
    /// The checker does not verify the lemma.
    #[error("the checker says {word} for lemma {lemma} of {file}")]
    NotVerified {
        /// The checker's verdict (`nothing` when it gave none).
        word: &'static str,
        /// The lemma's name.
        lemma: String,
        /// The record's file.
        file: String,
    },
}

/// A proof file's lemmas: loads `root/file` (and the files it uses), keeps only the lemma
/// blocks of every module (strategies and derivations are not needed to prove lemmas, and
/// are the slow part), and with `opts` checks them: returns each lemma block of `file` itself
/// with the checker's verdict on its claim (`None` without `opts`: elaboration only).
pub fn checked_lemmas(
    root: &Path,
    file: &str,
    opts: Option<&Options>,
) -> Result<CheckedFile, LoadLemmasError> {
    let path = root.join(file);
    let mut loader = Loader::new();
    let st = loader.load_path(&path);
    let loaded = loader.finish();
    let id = match st {
        RootStatus::Loaded(id) if loaded.diags.is_empty() => id,
        RootStatus::Unreadable(error) => {
            return Err(LoadLemmasError::Unreadable {
                file: file.to_string(),
                error,
            })
        }
        _ => return Err(LoadLemmasError::BadInput(file.to_string())),
    };
    let mut program = loaded.program;
    for m in &mut program.modules {
        m.blocks.retain(|b| b.kind == BlockKind::Lemma);
    }
    let mi = program
        .modules
        .iter()
        .position(|m| m.file == id)
        .ok_or_else(|| LoadLemmasError::NoModule(file.to_string()))?;
    let mut out = Vec::new();
    if let Some(opts) = opts {
        let report = check_program(&program, opts);
        let fr = report
            .files
            .get(mi)
            .ok_or_else(|| LoadLemmasError::NoReport(file.to_string()))?;
        for (bi, (b, br)) in program.modules[mi]
            .blocks
            .iter()
            .zip(&fr.blocks)
            .enumerate()
        {
            debug_assert_eq!(b.name, br.name);
            out.push((bi, Some(br.verdict)));
        }
    } else {
        out.extend((0..program.modules[mi].blocks.len()).map(|bi| (bi, None)));
    }
    Ok(CheckedFile {
        program,
        module: mi,
        verdicts: out,
    })
}

/// A proof file's lemmas, checked ([`checked_lemmas`]).
#[derive(Clone, Debug)]
pub struct CheckedFile {
    /// The program (lemma blocks only).
    pub program: Program,
    /// The index of the file's own module.
    pub module: usize,
    /// (block index in that module, the checker's verdict on the lemma if it was checked).
    pub verdicts: Vec<(usize, Option<StepVerdict>)>,
}

/// What [`lemma_records`] did with one lemma.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The record name.
    pub name: String,
    /// The record, when the lemma was verified by the checker.
    pub record: Option<LemmaRecord>,
    /// Why not, or how it is re-checked.
    pub note: String,
}

/// Records of every lemma of `files` (paths relative to `root`) that the checker verifies; a
/// kernel certificate is composed from the lemma's proof tree ([`compose`]) or made by
/// `budget`-bounded exact search when the claim has a certificate form, else the record is
/// re-checked by the checker. A certificate of more than `max_cert_nodes` nodes is not stored
/// (the file would grow by megabytes per lemma): that record too is re-checked by the checker.
pub fn lemma_records(
    root: &Path,
    files: &[String],
    opts: &Options,
    budget: &Budget,
    max_cert_nodes: usize,
) -> Result<Vec<Imported>, LemmaError> {
    let mut out = Vec::new();
    for file in files {
        let cf = checked_lemmas(root, file, Some(opts))?;
        let module = &cf.program.modules[cf.module];
        // The certificates of this file's lemmas so far, for leaves `by NAME` of later trees.
        let mut known: HashMap<String, KnownLemma> = HashMap::new();
        for &(bi, verdict) in &cf.verdicts {
            let block = &module.blocks[bi];
            let Some(mut rec) = stated(file, block) else {
                continue;
            };
            if verdict != Some(StepVerdict::Verified) {
                out.push(Imported {
                    name: rec.name,
                    record: None,
                    note: format!(
                        "not shipped: the checker says {}",
                        verdict.map_or("nothing", |v| v.word())
                    ),
                });
                continue;
            }
            let info = block.lemma.as_ref().expect("a lemma");
            let note;
            if rec.claim != LemmaClaim::Conj && info.assumes.is_empty() {
                let (game, carrier, _) = rec.sub_game()?;
                // A lemma proved by a tree: its certificate is composed from the tree (leaf
                // searches are small) and checked by the kernel; else the whole claim is
                // searched.
                let composed = block.tree.as_ref().and_then(|t| {
                    let c = compose(&game, t, &known, budget).ok()?;
                    kernel::check(&game, &c.certificate).ok()?;
                    Some(c)
                });
                let (verdict, cert, how) = match composed {
                    Some(c) => (
                        Verdict::Holds,
                        Some(c.certificate),
                        format!(
                            "composed from the proof tree: {} leaf searches, {} earlier lemmas",
                            c.searches, c.lemma_leaves
                        ),
                    ),
                    None => {
                        let o = decide(&game, budget)?;
                        let how = format!("{} search nodes", o.stats.nodes);
                        (o.verdict, o.certificate, how)
                    }
                };
                // Shrunk (src/templates/cert_shrink.rs) when the kernel accepts the result.
                let (cert, how) = match cert {
                    Some(c) => {
                        let small = shrink(&game, &c);
                        if small.nodes.len() <= c.nodes.len()
                            && kernel::check(&game, &small).is_ok()
                        {
                            let how = format!("{how}; shrunk from {} nodes", c.nodes.len());
                            (Some(small), how)
                        } else {
                            (Some(c), how)
                        }
                    }
                    None => (None, how),
                };
                match (verdict, cert) {
                    (Verdict::Holds, Some(cert)) if cert.nodes.len() > max_cert_nodes => {
                        note = format!(
                            "re-checked by the checker (its certificate, {} nodes, {how}, is over the {max_cert_nodes}-node cap)",
                            cert.nodes.len()
                        );
                        known.insert(rec.lemma.clone(), KnownLemma::of(&game, cert));
                    }
                    (Verdict::Holds, Some(cert)) => {
                        let board = *game.board();
                        let mut ends: Vec<Cell> = Vec::new();
                        for n in &cert.nodes {
                            for c in n.goal.iter().flat_map(|&(a, b)| [a, b]) {
                                if !carrier.contains(&c)
                                    && c != Cell::border(crate::board::Border::Top)
                                    && !ends.contains(&c)
                                {
                                    ends.push(c);
                                }
                            }
                        }
                        ends.sort();
                        rec.certificate = Some(encode_certificate_compact(&cert, &carrier, &ends)?);
                        rec.ends = ends
                            .iter()
                            .map(|&c| board.cell_name(c, Notation::Letters))
                            .collect();
                        rec.recheck = Recheck::Kernel;
                        note = format!("kernel certificate, {} nodes ({how})", cert.nodes.len());
                        known.insert(rec.lemma.clone(), KnownLemma::of(&game, cert));
                    }
                    (v, _) => {
                        note = format!("re-checked by the checker (search: {v:?})");
                    }
                }
            } else {
                note = "re-checked by the checker (no certificate form for this claim)".into();
            }
            rec.digest = rec.compute_digest();
            out.push(Imported {
                name: rec.name.clone(),
                record: Some(rec),
                note,
            });
        }
    }
    Ok(out)
}

/// What [`verify_lemma`] checked.
#[derive(Clone, Debug)]
pub struct VerifiedLemma {
    /// Kernel certificate nodes (0 for checker re-checks).
    pub nodes: usize,
}

/// Re-checks one lemma record against its source (`root/FILE`, the lemma re-read and compared
/// field by field) and by its kernel certificate or, for `recheck: checker`, by the checker.
/// `checked` caches the loaded files (key: file and whether checked) across records.
pub fn verify_lemma(
    r: &LemmaRecord,
    root: &Path,
    checked: &mut Vec<((String, bool), Result<CheckedFile, LoadLemmasError>)>,
    opts: &Options,
) -> Result<VerifiedLemma, LemmaError> {
    let digest = r.compute_digest();
    if digest != r.digest {
        return Err(LemmaError::Digest {
            stored: r.digest.clone(),
            computed: digest,
        });
    }
    if r.provenance.source != format!("proved in {}", r.file) {
        return Err(LemmaError::Provenance {
            provenance: r.provenance.source.clone(),
            file: r.file.clone(),
        });
    }
    let (game, carrier, ends) = r.sub_game()?;
    let mut nodes = 0;
    if r.recheck == Recheck::Kernel {
        let sc = r.certificate.as_ref().ok_or(LemmaError::NoCertificate)?;
        if r.claim == LemmaClaim::Conj {
            return Err(LemmaError::ConjCertificate);
        }
        let cert = decode_certificate(sc, &carrier, &ends)?;
        let root_node = cert
            .nodes
            .get(cert.root as usize)
            .ok_or(LemmaError::MissingRoot(cert.root))?;
        let used = root_node.carrier | cert.first.map_or(CellSet::EMPTY, CellSet::single);
        if !used.is_subset(&game.carrier()) {
            return Err(LemmaError::OutsideCarrier);
        }
        kernel::check(&game, &cert).map_err(LemmaError::Kernel)?;
        nodes = cert.nodes.len();
    }
    // The source: the lemma as the file states it, and (for checker re-checks) its verdict.
    // The lemma as its file states it (elaboration only: cheap), compared field by field.
    let find = |cf: &CheckedFile| -> Result<(usize, Option<StepVerdict>), LemmaError> {
        let module = &cf.program.modules[cf.module];
        cf.verdicts
            .iter()
            .copied()
            .find(|(bi, _)| module.blocks[*bi].name.as_deref() == Some(r.lemma.as_str()))
            .ok_or_else(|| LemmaError::NoLemma {
                file: r.file.clone(),
                lemma: r.lemma.clone(),
            })
    };
    let cf = load_cached(checked, root, &r.file, None)?;
    let (bi, _) = find(cf)?;
    let mut want =
        stated(&r.file, &cf.program.modules[cf.module].blocks[bi]).ok_or(LemmaError::NotALemma)?;
    want.recheck = r.recheck;
    want.ends = r.ends.clone();
    want.certificate = r.certificate.clone();
    want.digest = r.digest.clone();
    if want != *r {
        return Err(LemmaError::Differs {
            lemma: r.lemma.clone(),
            file: r.file.clone(),
            difference: first_difference(&want, r),
        });
    }
    // The checker, for claims with no certificate form.
    if r.recheck == Recheck::Checker {
        let (_, verdict) = find(load_cached(checked, root, &r.file, Some(opts))?)?;
        if verdict != Some(StepVerdict::Verified) {
            return Err(LemmaError::NotVerified {
                word: verdict.map_or("nothing", |v| v.word()),
                lemma: r.lemma.clone(),
                file: r.file.clone(),
            });
        }
    }
    Ok(VerifiedLemma { nodes })
}

/// [`checked_lemmas`] once per (file, checked or not).
fn load_cached<'a>(
    cache: &'a mut Vec<((String, bool), Result<CheckedFile, LoadLemmasError>)>,
    root: &Path,
    file: &str,
    opts: Option<&Options>,
) -> Result<&'a CheckedFile, LoadLemmasError> {
    let key = (file.to_string(), opts.is_some());
    let i = match cache.iter().position(|(k, _)| *k == key) {
        Some(i) => i,
        None => {
            cache.push((key, checked_lemmas(root, file, opts)));
            cache.len() - 1
        }
    };
    cache[i].1.as_ref().map_err(|e| e.clone())
}

fn first_difference(a: &LemmaRecord, b: &LemmaRecord) -> String {
    let (ja, jb) = (
        serde_json::to_value(a).expect("serialises"),
        serde_json::to_value(b).expect("serialises"),
    );
    if let (Some(oa), Some(ob)) = (ja.as_object(), jb.as_object()) {
        for (k, v) in oa {
            if ob.get(k) != Some(v) {
                return format!(
                    "{k} is {} in the file, {} in the record",
                    v,
                    ob.get(k).cloned().unwrap_or_default()
                );
            }
        }
    }
    "fields differ".into()
}

/// Writes the lemma file in a stable, diff-friendly layout: one field per line (in stored
/// order), cell lists on one line, one certificate node per line.
pub fn format_lemma_file(f: &LemmaFile) -> String {
    fn j<T: Serialize + ?Sized>(v: &T) -> String {
        serde_json::to_string(v).expect("lemma values serialise")
    }
    let mut s = String::new();
    s.push_str("{\n");
    let _ = writeln!(s, "  \"sources\": {},", j(&f.sources));
    s.push_str("  \"lemmas\": [");
    for (i, r) in f.lemmas.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        s.push_str("    {\n");
        let fields: [(&str, String); 16] = [
            ("name", j(&r.name)),
            ("file", j(&r.file)),
            ("lemma", j(&r.lemma)),
            ("title", j(&r.title)),
            ("board", j(&r.board)),
            ("owner", j(&r.owner)),
            ("frame", j(&r.frame)),
            ("claim", j(&r.claim)),
            ("pairs", j(&r.pairs)),
            ("black", j(&r.black)),
            ("white", j(&r.white)),
            ("carrier", j(&r.carrier)),
            ("provenance", j(&r.provenance)),
            ("recheck", j(&r.recheck)),
            ("ends", j(&r.ends)),
            ("certificate", String::new()),
        ];
        for (key, val) in fields {
            if key == "certificate" {
                match &r.certificate {
                    None => s.push_str("      \"certificate\": null,\n"),
                    Some(c) => {
                        s.push_str("      \"certificate\": {\n");
                        let _ = writeln!(s, "        \"root\": {},", c.root);
                        let _ = writeln!(s, "        \"first\": {},", j(&c.first));
                        s.push_str("        \"nodes\": [");
                        for (n, node) in c.nodes.iter().enumerate() {
                            s.push_str(if n == 0 { "\n" } else { ",\n" });
                            let _ = write!(s, "          {}", j(node));
                        }
                        s.push_str("\n        ]\n      },\n");
                    }
                }
            } else {
                let _ = writeln!(s, "      \"{key}\": {val},");
            }
        }
        let _ = writeln!(s, "      \"digest\": {}", j(&r.digest));
        s.push_str("    }");
    }
    s.push_str("\n  ]\n}\n");
    s
}
