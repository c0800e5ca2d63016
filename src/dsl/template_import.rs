//! `use templates`: the certified edge-template library (`templates/*.json`,
//! [`crate::templates::library`]) as lemmas of a `.hexp` file (docs/LANGUAGE.md §10).
//!
//! Each record becomes a lemma named as in the library (`II`, `III1a`, …; a `-` of a
//! generated name becomes `_`, since names are words: `III2-8-e011` is `III2_8_e011`): its
//! stones and carrier drawn at Black's top edge of the file's board, as far left as they fit,
//! with the record's claim (goal stone − top; a two-stone template's helper is a stone of the
//! lemma's position too). The checker certifies it with the record's stored kernel
//! certificate, decoded onto these very cells and re-checked by the kernel (no search); a
//! step then places it like any lemma (`docs/SEMANTICS.md`, "Lemma use"). A record wider or
//! deeper than the board is left out.
//!
//! The library files are embedded at build time, so the checker does not depend on the
//! working directory ([`crate::templates::builtin`]).

use super::ast::Span;
use super::model::{Block, BlockKind, CellNames, Fact, LemmaInfo, LibraryLemma};
use crate::board::{Board, Border, Cell, CellSet, Notation};
use crate::edge_template::EdgeTemplate;
use crate::position::Position;
use crate::templates::builtin::records;
use crate::templates::library::Record;

/// The library's records that fit on `board`, as lemma blocks pointing at `span` (the `use`).
pub fn template_lemmas(board: Board, notation: Notation, span: Span) -> Vec<Block> {
    records()
        .into_iter()
        .filter_map(|r| template_lemma(r, board, notation, span))
        .collect()
}

/// The lemma name of a library record: its name with `-` (not a word character of the
/// language) replaced by `_`.
pub fn lemma_name(record_name: &str) -> String {
    record_name.replace('-', "_")
}

fn template_lemma(r: Record, board: Board, notation: Notation, span: Span) -> Option<Block> {
    if r.stones.is_empty() {
        return None;
    }
    let min_c = r.stones.iter().chain(&r.carrier).map(|rc| rc[1]).min()?;
    let at = |rc: &[i32; 2]| EdgeTemplate::cell_at(&board, Border::Top, -min_c, *rc);
    let stones: Vec<Cell> = r.stones.iter().map(at).collect::<Option<_>>()?;
    let carrier: Vec<Cell> = r.carrier.iter().map(at).collect::<Option<_>>()?;
    let black: CellSet = stones.iter().copied().collect();
    let carrier_set: CellSet = carrier.iter().copied().collect();
    if black.len() != stones.len() || carrier_set.len() != carrier.len() {
        return None;
    }
    let position = Position::new(board, black, CellSet::EMPTY).ok()?;
    let claim = r.claim_on(&stones);
    let n = claim.pairs.len();
    let mut names = CellNames::plain(board, notation);
    names.map.insert(stones[0], "x".into());
    let fact = Fact {
        claim,
        conj: false,
        carrier: carrier_set,
        dups: Vec::new(),
        span,
        carrier_span: span,
        end_spans: vec![span; 2 * n],
        cell_spans: Vec::new(),
    };
    Some(Block {
        kind: BlockKind::Lemma,
        name: Some(lemma_name(&r.name)),
        title: Some(format!("edge template {} (template library)", r.name)),
        span,
        head: span,
        position,
        names,
        steps: Vec::new(),
        lemma: Some(LemmaInfo {
            claim: fact,
            has_proof: false,
            guarantees: Vec::new(),
            assumes: Vec::new(),
            library: Some(LibraryLemma {
                record: r,
                carrier,
                stones,
            }),
        }),
        tree: None,
        shared: Vec::new(),
        image: None,
        unsupported: Vec::new(),
    })
}
