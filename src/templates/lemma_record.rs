//! The lemma records of `templates/proofs.json` as data: what a record states and how it is
//! re-checked (docs/templates.md, "Lemma records"). Making records from the proof files needs
//! the checker and lives one layer up, in `lemmas`; reading them needs only this.

use super::library::{Frame, StoredCert};
use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::claim::{Claim, SubGame};
use crate::position::Position;
use crate::templates::TemplateError;
use serde::{Deserialize, Serialize};

/// The claim of a lemma record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LemmaClaim {
    /// One pair, the opponent first.
    Vc,
    /// One pair, the owner first.
    Semi,
    /// Some one of several pairs, the opponent first.
    Union,
    /// Some one of several pairs, the owner first.
    #[serde(rename = "union-semi")]
    UnionSemi,
    /// Every pair at once, the opponent first (a conjunction).
    Conj,
}

/// How `verify` re-checks a lemma record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Recheck {
    /// The stored kernel certificate.
    Kernel,
    /// The checker, re-run on the lemmas of the cited file.
    Checker,
}

/// Where a lemma record comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LemmaProvenance {
    /// `proved in proofs/FILE`.
    pub source: String,
    /// `search` (the lemma's claim proved by exhaustive search) or `proof` (by its steps).
    pub method: String,
}

/// One lemma of a proof file (fields in stored order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LemmaRecord {
    /// `FILESTEM/LEMMA`, e.g. `noshita-7x7-lemmas/U1`.
    pub name: String,
    /// The proof file, relative to the repository root, e.g. `proofs/noshita-7x7-lemmas.hexp`.
    pub file: String,
    /// The lemma's name in the file.
    pub lemma: String,
    /// Its title.
    pub title: Option<String>,
    /// Board, e.g. `7x7`.
    pub board: String,
    /// The player who connects.
    pub owner: Colour,
    /// `edge` when some pair ends at a border, else `free-standing`.
    pub frame: Frame,
    /// The claim's type.
    pub claim: LemmaClaim,
    /// The pairs, as cell names.
    pub pairs: Vec<[String; 2]>,
    /// Black stones of the lemma's position.
    pub black: Vec<String>,
    /// White stones of the lemma's position.
    pub white: Vec<String>,
    /// The carrier (cell names, board index order).
    pub carrier: Vec<String>,
    /// Origin.
    pub provenance: LemmaProvenance,
    /// How `verify` re-checks it.
    pub recheck: Recheck,
    /// Endpoint codes of the certificate: `−1` is the top border, `−2 − j` is `ends[j]`.
    pub ends: Vec<String>,
    /// The kernel certificate (for `recheck: kernel`), masks over `carrier`.
    pub certificate: Option<StoredCert>,
    /// FNV-1a 64 of the record with an empty digest (an edit check, not a proof).
    pub digest: String,
}

/// `templates/proofs.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LemmaFile {
    /// The proof files read (relative paths).
    pub sources: Vec<String>,
    /// The records, by file then order in the file.
    pub lemmas: Vec<LemmaRecord>,
}

impl LemmaRecord {
    /// The digest of this record (computed with `digest` empty).
    pub fn compute_digest(&self) -> String {
        let mut r = self.clone();
        r.digest.clear();
        super::library::digest_json(&r)
    }

    /// The claim's sub-game on its board (for `conj`, the one-pair-at-a-time union game is not
    /// meant: the sub-game is only used for its position and carrier).
    pub fn sub_game(&self) -> Result<(SubGame, Vec<Cell>, Vec<Cell>), TemplateError> {
        let board = Board::parse(&self.board)?;
        let cell = |s: &String| board.parse_cell(s, Notation::Letters);
        let cells = |v: &[String]| v.iter().map(cell).collect::<Result<Vec<Cell>, _>>();
        let carrier = cells(&self.carrier)?;
        let ends = cells(&self.ends)?;
        let black: CellSet = cells(&self.black)?.into_iter().collect();
        let white: CellSet = cells(&self.white)?.into_iter().collect();
        let carrier_set: CellSet = carrier.iter().copied().collect();
        if carrier_set.len() != carrier.len() {
            return Err(TemplateError::CarrierRepeated);
        }
        let position = Position::new(board, black, white)?;
        let pairs = self
            .pairs
            .iter()
            .map(|[a, b]| Ok((cell(a)?, cell(b)?)))
            .collect::<Result<Vec<_>, TemplateError>>()?;
        let claim = Claim {
            owner: self.owner,
            pairs,
            owner_first: matches!(self.claim, LemmaClaim::Semi | LemmaClaim::UnionSemi),
        };
        let game = SubGame::new(position, carrier_set, claim)?;
        Ok((game, carrier, ends))
    }
}
