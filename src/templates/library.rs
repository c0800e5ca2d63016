//! The certified template library (docs/templates.md): one [`Record`] per template, stored in
//! edge-relative coordinates `[row, col]` (row 1 touches the edge), each carrying a compact
//! kernel certificate that [`verify_record`] re-checks with [`crate::kernel::check`] alone —
//! no search.
//!
//! A record is stored for the owner of the edge. Its canonical placement is Black's top edge
//! (`[r, c]` ↦ column `offset + c`, row `r`); every other edge of either colour is the image
//! under the 180° rotation and the long-diagonal reflection, which preserve adjacency, so one
//! record and one certificate serve all four edges.

use super::{EdgeTemplate, Rc, TemplateError};
use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::kernel::{self, Certificate, Node, NodeKind, Reply};
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Frame of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frame {
    /// Connects its stone(s) to the edge of its owner.
    Edge,
    /// Connects stones to each other, away from any edge (not generated yet).
    FreeStanding,
}

/// Claim of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimTag {
    /// A virtual connection (the opponent moves first).
    Vc,
    /// A semi-connection (the owner moves first).
    Semi,
    /// A union-connection (some goal stone to the edge; the opponent moves first).
    Union,
}

/// What is known about the carrier's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MinimalityTag {
    /// No carrier cell can be dropped, and no carrier of the searched region is smaller.
    Minimum,
    /// No carrier cell can be dropped (inclusion-minimal).
    Minimal,
    /// Not established.
    Unknown,
}

/// Symmetry class under the edge mirror `[r, c] ↦ [r, −c − r]` (re-normalised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// The template is its own mirror image.
    Symmetric,
    /// The mirror image is a different template; only the canonical one is stored.
    Chiral,
}

/// Where a record was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// Rows 1..=height (rows above the stone included).
    pub height: i32,
    /// Cells of row 1; row r holds the cells with |2c + r − row| ≤ width − 1.
    pub width: i32,
}

/// Where a record comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// `generated` (by `hexproof templates generate`), or `proofs/FILE`.
    pub source: String,
    /// The region the generator enumerated.
    pub region: Region,
    /// HexWiki's name, when the template is one of HexWiki's (same cells up to the mirror).
    pub hexwiki: Option<String>,
}

/// A certificate node in compact, edge-relative form.
///
/// Sets are hexadecimal bit masks over the record's `carrier` list (bit i = `carrier[i]`).
/// Cells in `g` (an and-node child's goal pair) are codes: `i ≥ 0` is `carrier[i]`, `−1` the
/// edge, `−2 − j` the stone `stones[j]`. A node with neither `or` nor `and` is `Joined`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredNode {
    /// Owner stones added (mask). Empty (left out) in a compact certificate when it is the
    /// derived value: for an or-node the union of its next nodes' stones minus their replies,
    /// else no stones ([`encode_certificate_compact`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub s: String,
    /// Carrier (mask). Empty (left out) when it is the derived value: for an or-node the union
    /// of `{reply} ∪ next carrier` over its options, for an and-node the union of its
    /// children's carriers, for a joined node no cells.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub c: String,
    /// Goal pair (codes), for sub-connections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub g: Option<[i32; 2]>,
    /// More pairs of a union goal (codes; the kernel's `either`: the goal is `g` or any of
    /// these), for the sub-connections of a union claim's derivation. Absent (and left out of
    /// the digest's serialisation) for a single pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e: Option<Vec<[i32; 2]>>,
    /// Or-node options: `[reply carrier index, next node]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub or: Option<Vec<[u32; 2]>>,
    /// And-node children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub and: Option<Vec<u32>>,
}

/// A kernel certificate in compact, edge-relative form.
///
/// Read from either stored form: `nodes` (the objects, as serialised, also what digests
/// are computed over) or `packed` (the nodes packed into one string,
/// [`super::cert_pack`], as `templates/published.json` stores them); exactly one of the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CertForm")]
pub struct StoredCert {
    /// Root node.
    pub root: u32,
    /// The owner's first move (carrier index), for semi-connections.
    pub first: Option<u32>,
    /// The DAG.
    pub nodes: Vec<StoredNode>,
}

/// A [`StoredCert`] as read: its nodes as objects or packed.
#[derive(Deserialize)]
struct CertForm {
    root: u32,
    first: Option<u32>,
    #[serde(default)]
    nodes: Option<Vec<StoredNode>>,
    #[serde(default)]
    packed: Option<String>,
}

impl TryFrom<CertForm> for StoredCert {
    type Error = String;

    fn try_from(f: CertForm) -> Result<Self, String> {
        let nodes = match (f.nodes, f.packed) {
            (Some(nodes), None) => nodes,
            (None, Some(p)) => super::cert_pack::unpack_nodes(&p)?,
            (Some(_), Some(_)) => return Err("a certificate with both nodes and packed".into()),
            (None, None) => return Err("a certificate without nodes".into()),
        };
        Ok(StoredCert {
            root: f.root,
            first: f.first,
            nodes,
        })
    }
}

/// One template (fields in their fixed, stored order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Unique name: HexWiki's when identified, else `ROW STONES-SIZE-HASH`, e.g. `IV1-21-3c7e`.
    pub name: String,
    /// Row of the furthest stone from the edge (1 = touching it).
    pub row: i32,
    /// Always `edge-owner` for edge templates: the player who owns the edge.
    pub owner: String,
    /// Edge template or free-standing.
    pub frame: Frame,
    /// VC, semi or union.
    pub claim: ClaimTag,
    /// Minimal, minimum (within the region) or unknown.
    pub minimality: MinimalityTag,
    /// Symmetric or chiral (canonical orientation stored).
    pub symmetry: Symmetry,
    /// The owner's stones: the goal stones first (the first at `[row, 0]`, on the highest row
    /// of the goal stones; the others sorted), then the helper stones (sorted, anywhere).
    pub stones: Vec<Rc>,
    /// How many of `stones` are goal stones (left out when 1). With more than one, the claim
    /// is `union`: some goal stone to the edge.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub goals: usize,
    /// The empty cells, sorted by (row, col).
    pub carrier: Vec<Rc>,
    /// Origin.
    pub provenance: Provenance,
    /// The kernel certificate.
    pub certificate: StoredCert,
    /// FNV-1a 64 of the record with an empty digest (an integrity check against edits, not a
    /// proof: the proof is the certificate).
    pub digest: String,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

/// One library file: the templates of one row and number of stones, generated in one region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryFile {
    /// Row of the stone.
    pub row: i32,
    /// Stones per template.
    pub stones: usize,
    /// The region enumerated.
    pub region: Region,
    /// True when every minimal template inside the region is listed.
    pub complete: bool,
    /// The templates.
    pub templates: Vec<Record>,
}

/// Roman numerals for row names.
pub fn roman(n: i32) -> &'static str {
    const R: [&str; 11] = [
        "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
    ];
    R.get(n as usize).copied().unwrap_or("?")
}

/// The edge mirror, re-normalised so that a stone at `[row, 0]` stays there:
/// `[r, c] ↦ [r, row − c − r]`.
pub fn mirror(rc: Rc, row: i32) -> Rc {
    [rc[0], row - rc[1] - rc[0]]
}

/// Sorted (row, col) list.
pub fn sorted(mut v: Vec<Rc>) -> Vec<Rc> {
    v.sort();
    v.dedup();
    v
}

/// The canonical orientation of a carrier (the lexicographically smaller of it and its mirror
/// image) and the symmetry class.
pub fn canonical(carrier: &[Rc], row: i32) -> (Vec<Rc>, Symmetry) {
    let a = sorted(carrier.to_vec());
    let b = sorted(carrier.iter().map(|&rc| mirror(rc, row)).collect());
    match a.cmp(&b) {
        std::cmp::Ordering::Equal => (a, Symmetry::Symmetric),
        std::cmp::Ordering::Less => (a, Symmetry::Chiral),
        std::cmp::Ordering::Greater => (b, Symmetry::Chiral),
    }
}

/// The canonical orientation of a template with helper stones: of the template and its mirror
/// image, the one whose (sorted helper stones, sorted carrier) is lexicographically smaller;
/// and the symmetry class. `stones[0]` is the goal stone `[row, 0]`, fixed by the mirror. With
/// no helpers this is [`canonical`].
pub fn canonical_template(stones: &[Rc], carrier: &[Rc], row: i32) -> (Vec<Rc>, Vec<Rc>, Symmetry) {
    let c = canonical_goals(&stones[..1], &stones[1..], carrier);
    debug_assert_eq!(c.row, row);
    (c.stones, c.carrier, c.symmetry)
}

/// A template in canonical form ([`canonical_goals`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// Row of the first goal stone (the highest row of a goal stone).
    pub row: i32,
    /// Goal stones (the first at `[row, 0]`, the others sorted), then helpers (sorted).
    pub stones: Vec<Rc>,
    /// Number of goal stones.
    pub goals: usize,
    /// The carrier, sorted.
    pub carrier: Vec<Rc>,
    /// Whether the mirror image is the same template.
    pub symmetry: Symmetry,
}

/// A template placed with one goal stone at `[row, 0]`: (goal stones, helper stones,
/// carrier), each sorted.
pub type Placement = (Vec<Rc>, Vec<Rc>, Vec<Rc>);

/// The image of `rc` in the orientation `(flip, anchor)`: mirrored (`[r, c] ↦ [r, −c − r]`)
/// when `flip`, then moved along the edge so that the goal stone `anchor` lands on column 0.
pub fn orient(rc: Rc, flip: bool, anchor: Rc) -> Rc {
    let img = |x: Rc| if flip { [x[0], -x[1] - x[0]] } else { x };
    let (m, a) = (img(rc), img(anchor));
    [m[0], m[1] - a[1]]
}

/// Every placement of a template given anywhere along the edge (goal stones `goals`, at least
/// one; helper stones `helpers`; `carrier`) with one goal stone of the highest goal row at
/// `[row, 0]`: each such goal stone as the anchor, in the template (`flip` false) and its
/// mirror image ([`orient`]). Two templates are the same up to the mirror when they share a
/// placement.
pub fn placements(goals: &[Rc], helpers: &[Rc], carrier: &[Rc]) -> Vec<(bool, Rc, Placement)> {
    let row = goals.iter().map(|g| g[0]).max().unwrap_or(0);
    let mut out = Vec::new();
    for flip in [false, true] {
        for &a in goals.iter().filter(|g| g[0] == row) {
            let shift = |v: &[Rc]| sorted(v.iter().map(|&rc| orient(rc, flip, a)).collect());
            out.push((flip, a, (shift(goals), shift(helpers), shift(carrier))));
        }
    }
    out
}

/// The canonical form of a template given anywhere along the edge (see [`placements`]): of
/// the template's placements the smallest (goal stones, helper stones, carrier), and
/// symmetric when the mirror image's smallest placement is the same. With one goal stone this
/// is the rule of [`canonical_template`] (and of [`canonical`] without helpers), so older
/// records keep their form.
pub fn canonical_goals(goals: &[Rc], helpers: &[Rc], carrier: &[Rc]) -> Canonical {
    let row = goals.iter().map(|g| g[0]).max().expect("a goal stone");
    let all = placements(goals, helpers, carrier);
    let best = |flip: bool| {
        all.iter()
            .filter(|(f, ..)| *f == flip)
            .map(|(.., p)| p)
            .min()
            .expect("a goal stone on the goal row")
    };
    let (a, b) = (best(false), best(true));
    let symmetry = if a == b {
        Symmetry::Symmetric
    } else {
        Symmetry::Chiral
    };
    let (g, helpers, carrier) = if a <= b { a.clone() } else { b.clone() };
    let mut stones = vec![[row, 0]];
    stones.extend(g.iter().filter(|&&s| s != [row, 0]));
    let goals = stones.len();
    stones.extend(helpers);
    Canonical {
        row,
        goals,
        stones,
        carrier,
        symmetry,
    }
}

/// FNV-1a, 64 bits.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// FNV-1a 64 (hex) of a value's compact JSON: the digest of a record, lemma record or
/// published entry serialised with its `digest` field empty.
pub fn digest_json<T: Serialize>(v: &T) -> String {
    let text = serde_json::to_string(v).expect("library values serialise");
    format!("{:016x}", fnv64(text.as_bytes()))
}

impl Record {
    /// The digest of this record (computed with `digest` empty).
    pub fn compute_digest(&self) -> String {
        let mut r = self.clone();
        r.digest.clear();
        digest_json(&r)
    }

    /// Number of carrier cells.
    pub fn size(&self) -> usize {
        self.carrier.len()
    }

    /// The goal stones (the first [`Record::goals`] stones).
    pub fn goal_stones(&self) -> &[Rc] {
        &self.stones[..self.goals.min(self.stones.len())]
    }

    /// The helper stones (the stones after the goal stones).
    pub fn helper_stones(&self) -> &[Rc] {
        &self.stones[self.goal_stones().len()..]
    }

    /// The record's claim on a board where its stones are `stones` (in record order) and its
    /// edge is Black's top border: each goal stone to the edge (one pair for a VC or a semi,
    /// one per goal stone for a union), Black the owner.
    pub fn claim_on(&self, stones: &[Cell]) -> Claim {
        let top = Cell::border(Border::Top);
        let goals = match self.claim {
            ClaimTag::Vc | ClaimTag::Semi => 1,
            ClaimTag::Union => self.goal_stones().len(),
        };
        Claim {
            owner: Colour::Black,
            pairs: stones.iter().take(goals).map(|&s| (s, top)).collect(),
            owner_first: self.claim == ClaimTag::Semi,
        }
    }

    /// The record as a sub-game on its canonical board: Black's top edge of a 19×19 board,
    /// leftmost cell on column a. Returns the sub-game and the board cells of the carrier
    /// list and the stones list, in order.
    pub fn sub_game(&self) -> Result<(SubGame, Vec<Cell>, Vec<Cell>), TemplateError> {
        self.sub_game_at(0)
    }

    /// [`Record::sub_game`] with `margin` free columns left of the leftmost cell (the
    /// whole-board engine needs one, for its chain beside the carrier). The kernel's verdict
    /// does not depend on the margin: the top edge and adjacency are the same along the row.
    pub fn sub_game_at(
        &self,
        margin: i32,
    ) -> Result<(SubGame, Vec<Cell>, Vec<Cell>), TemplateError> {
        let all = self.stones.iter().chain(self.carrier.iter());
        let min_c = all.clone().map(|rc| rc[1]).min().unwrap_or(0);
        let board = Board::square(19).expect("19 is a board size");
        let at = |rc: &Rc| {
            if rc[0] < 1 || rc[0] > 18 {
                return Err(TemplateError::OffRows(rc[0], rc[1]));
            }
            EdgeTemplate::cell_at(&board, Border::Top, margin - min_c, *rc)
                .ok_or(TemplateError::DoesNotFit(rc[0], rc[1]))
        };
        let stones: Vec<Cell> = self.stones.iter().map(at).collect::<Result<_, _>>()?;
        let carrier: Vec<Cell> = self.carrier.iter().map(at).collect::<Result<_, _>>()?;
        let stone_set: CellSet = stones.iter().copied().collect();
        if stone_set.len() != stones.len() {
            return Err(TemplateError::StonesOverlap);
        }
        let carrier_set: CellSet = carrier.iter().copied().collect();
        if carrier_set.len() != carrier.len() {
            return Err(TemplateError::CarrierRepeated);
        }
        let position = Position::new(board, stone_set, CellSet::EMPTY)?;
        let claim = self.claim_on(&stones);
        let game = SubGame::new(position, carrier_set, claim)?;
        Ok((game, carrier, stones))
    }
}

fn mask_hex(m: u128) -> String {
    format!("{m:x}")
}

fn parse_mask(s: &str, n: usize) -> Result<u128, TemplateError> {
    let m = u128::from_str_radix(s, 16).map_err(|_| TemplateError::NotHexMask(s.into()))?;
    if n < 128 && m >> n != 0 {
        return Err(TemplateError::MaskBeyondCarrier {
            mask: s.into(),
            cells: n,
        });
    }
    Ok(m)
}

/// Encodes a kernel certificate proved on `record.sub_game()`'s board.
pub fn encode_certificate(
    cert: &Certificate,
    carrier: &[Cell],
    stones: &[Cell],
) -> Result<StoredCert, TemplateError> {
    let index: HashMap<Cell, usize> = carrier.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mask = |s: &CellSet| -> Result<String, TemplateError> {
        let mut m: u128 = 0;
        for c in s.iter() {
            let i = *index.get(&c).ok_or(TemplateError::CellOutsideCarrier(c))?;
            m |= 1 << i;
        }
        Ok(mask_hex(m))
    };
    let code = |c: Cell| -> Result<i32, TemplateError> {
        if c == Cell::border(Border::Top) {
            return Ok(-1);
        }
        if let Some(j) = stones.iter().position(|&s| s == c) {
            return Ok(-2 - j as i32);
        }
        index
            .get(&c)
            .map(|&i| i as i32)
            .ok_or(TemplateError::UnknownGoal(c))
    };
    let mut nodes = Vec::with_capacity(cert.nodes.len());
    for n in &cert.nodes {
        let g = match n.goal {
            Some((a, z)) => Some([code(a)?, code(z)?]),
            None => None,
        };
        let e = if n.either.is_empty() {
            None
        } else {
            Some(
                n.either
                    .iter()
                    .map(|&(a, z)| Ok([code(a)?, code(z)?]))
                    .collect::<Result<Vec<_>, TemplateError>>()?,
            )
        };
        let (or, and) = match &n.kind {
            NodeKind::Joined => (None, None),
            NodeKind::Or(rs) => (
                Some(
                    rs.iter()
                        .map(|r| Ok([code(r.reply)? as u32, r.next]))
                        .collect::<Result<Vec<_>, TemplateError>>()?,
                ),
                None,
            ),
            NodeKind::And(cs) => (None, Some(cs.clone())),
        };
        nodes.push(StoredNode {
            s: mask(&n.stones)?,
            c: mask(&n.carrier)?,
            g,
            e,
            or,
            and,
        });
    }
    let first = match cert.first {
        Some(m) => Some(*index.get(&m).ok_or(TemplateError::FirstOutsideCarrier)? as u32),
        None => None,
    };
    Ok(StoredCert {
        root: cert.root,
        first,
        nodes,
    })
}

/// The stones and carrier a compact certificate leaves out for a node of `kind` whose
/// children are among `earlier` (see [`StoredNode`]); `None` when a child comes later.
fn derived(earlier: &[Node], kind: &NodeKind) -> Option<(CellSet, CellSet)> {
    let get = |i: u32| earlier.get(i as usize);
    match kind {
        NodeKind::Joined => Some((CellSet::EMPTY, CellSet::EMPTY)),
        NodeKind::Or(rs) => {
            let (mut stones, mut carrier) = (CellSet::EMPTY, CellSet::EMPTY);
            for r in rs {
                let next = get(r.next)?;
                let mut s = next.stones;
                s.remove(r.reply);
                stones |= s;
                carrier |= next.carrier;
                carrier.insert(r.reply);
            }
            Some((stones, carrier))
        }
        NodeKind::And(cs) => {
            let mut carrier = CellSet::EMPTY;
            for &c in cs {
                carrier |= get(c)?.carrier;
            }
            Some((CellSet::EMPTY, carrier))
        }
    }
}

/// [`encode_certificate`], leaving out every node's stones and carrier where they are the
/// derived values ([`StoredNode`]): for certificates whose children come before their parents
/// (as [`super::cert_shrink::shrink`] makes them), most nodes then store only their replies.
pub fn encode_certificate_compact(
    cert: &Certificate,
    carrier: &[Cell],
    stones: &[Cell],
) -> Result<StoredCert, TemplateError> {
    let mut sc = encode_certificate(cert, carrier, stones)?;
    for (i, n) in cert.nodes.iter().enumerate() {
        if let Some((ds, dc)) = derived(&cert.nodes[..i], &n.kind) {
            if ds == n.stones {
                sc.nodes[i].s.clear();
            }
            if dc == n.carrier {
                sc.nodes[i].c.clear();
            }
        }
    }
    Ok(sc)
}

/// Decodes a stored certificate onto the board cells of the carrier and stones lists.
pub fn decode_certificate(
    sc: &StoredCert,
    carrier: &[Cell],
    stones: &[Cell],
) -> Result<Certificate, TemplateError> {
    let n = carrier.len();
    let set = |s: &str| -> Result<CellSet, TemplateError> {
        let m = parse_mask(s, n)?;
        Ok((0..n)
            .filter(|&i| m >> i & 1 == 1)
            .map(|i| carrier[i])
            .collect())
    };
    let cell = |k: i32| -> Result<Cell, TemplateError> {
        if k == -1 {
            Ok(Cell::border(Border::Top))
        } else if k <= -2 {
            stones
                .get((-2 - k) as usize)
                .copied()
                .ok_or(TemplateError::NoStone(k))
        } else {
            carrier
                .get(k as usize)
                .copied()
                .ok_or(TemplateError::NoCarrierCell(k))
        }
    };
    let mut nodes: Vec<Node> = Vec::with_capacity(sc.nodes.len());
    for (id, sn) in sc.nodes.iter().enumerate() {
        let goal = match sn.g {
            Some([a, z]) => Some((cell(a)?, cell(z)?)),
            None => None,
        };
        let either =
            sn.e.iter()
                .flatten()
                .map(|&[a, z]| Ok((cell(a)?, cell(z)?)))
                .collect::<Result<Vec<_>, TemplateError>>()?;
        let kind = match (&sn.or, &sn.and) {
            (None, None) => NodeKind::Joined,
            (Some(rs), None) => NodeKind::Or(
                rs.iter()
                    .map(|&[r, next]| {
                        Ok(Reply {
                            reply: cell(r as i32)?,
                            next,
                        })
                    })
                    .collect::<Result<Vec<_>, TemplateError>>()?,
            ),
            (None, Some(cs)) => NodeKind::And(cs.clone()),
            _ => return Err(TemplateError::OrAndNode(id)),
        };
        let (stones, carrier) = if sn.s.is_empty() || sn.c.is_empty() {
            let (ds, dc) = derived(&nodes, &kind).ok_or(TemplateError::ChildLater(id))?;
            (
                if sn.s.is_empty() { ds } else { set(&sn.s)? },
                if sn.c.is_empty() { dc } else { set(&sn.c)? },
            )
        } else {
            (set(&sn.s)?, set(&sn.c)?)
        };
        nodes.push(Node {
            stones,
            carrier,
            goal,
            either,
            with: Vec::new(),
            kind,
        });
    }
    let first = match sc.first {
        Some(i) => Some(cell(i as i32)?),
        None => None,
    };
    Ok(Certificate {
        nodes,
        first,
        root: sc.root,
    })
}

/// What [`verify_record`] checked.
#[derive(Clone, Debug)]
pub struct VerifiedRecord {
    /// Certificate nodes checked by the kernel.
    pub nodes: usize,
}

/// Re-checks one record without search: its form (normalisation, canonical orientation,
/// symmetry class, digest), then the kernel on its certificate, whose root must use exactly
/// the stored carrier.
pub fn verify_record(r: &Record) -> Result<VerifiedRecord, TemplateError> {
    if r.stones.is_empty() {
        return Err(TemplateError::NoStones);
    }
    if r.stones[0] != [r.row, 0] {
        return Err(TemplateError::GoalStone(
            r.stones[0][0],
            r.stones[0][1],
            r.row,
        ));
    }
    if r.goals == 0 || r.goals > r.stones.len() {
        return Err(TemplateError::GoalCount {
            goals: r.goals,
            stones: r.stones.len(),
        });
    }
    if (r.goals > 1) != (r.claim == ClaimTag::Union) {
        return Err(TemplateError::UnionGoals(r.goals));
    }
    if r.goal_stones().iter().any(|s| s[0] > r.row) {
        return Err(TemplateError::StoneAboveRow);
    }
    if r.carrier != sorted(r.carrier.clone()) {
        return Err(TemplateError::CarrierUnsorted);
    }
    if r.frame == Frame::Edge {
        let (goals, helpers) = (r.goal_stones(), r.helper_stones());
        if goals[1..] != sorted(goals[1..].to_vec()) || helpers != sorted(helpers.to_vec()) {
            return Err(TemplateError::StonesUnsorted);
        }
        let c = canonical_goals(goals, helpers, &r.carrier);
        if c.carrier != r.carrier || c.stones != r.stones {
            return Err(TemplateError::NotCanonical);
        }
        if c.symmetry != r.symmetry {
            return Err(TemplateError::Symmetry {
                computed: c.symmetry,
                stored: r.symmetry,
            });
        }
    }
    let digest = r.compute_digest();
    if digest != r.digest {
        return Err(TemplateError::Digest {
            stored: r.digest.clone(),
            computed: digest,
        });
    }
    let (game, carrier, stones) = r.sub_game()?;
    let cert = decode_certificate(&r.certificate, &carrier, &stones)?;
    let root = cert
        .nodes
        .get(cert.root as usize)
        .ok_or(TemplateError::RootMissing(cert.root))?;
    let used = root.carrier | cert.first.map_or(CellSet::EMPTY, CellSet::single);
    if used != game.carrier() {
        return Err(TemplateError::CarrierNotProved {
            used: used.len(),
            cells: game.carrier().len(),
        });
    }
    kernel::check(&game, &cert).map_err(TemplateError::Kernel)?;
    Ok(VerifiedRecord {
        nodes: cert.nodes.len(),
    })
}

fn cells_json(v: &[Rc]) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|rc| format!("[{}, {}]", rc[0], rc[1]))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Writes a library file in its stable, diff-friendly layout: one field per line, cell lists
/// on one line, one certificate node per line.
pub fn format_file(f: &LibraryFile) -> String {
    format_file_as(f, false)
}

/// [`format_file`], with each certificate's nodes packed into one `"packed"` line when `packed`
/// ([`super::cert_pack`]; a certificate that does not pack to exactly itself keeps its node
/// lines).
pub fn format_file_as(f: &LibraryFile, packed: bool) -> String {
    let j = |v: &dyn erased::Ser| v.json();
    let mut s = String::new();
    s.push_str("{\n");
    let _ = writeln!(s, "  \"row\": {},", f.row);
    let _ = writeln!(s, "  \"stones\": {},", f.stones);
    let _ = writeln!(s, "  \"region\": {},", j(&f.region));
    let _ = writeln!(s, "  \"complete\": {},", f.complete);
    s.push_str("  \"templates\": [");
    for (i, r) in f.templates.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        s.push_str("    {\n");
        let _ = writeln!(s, "      \"name\": {},", j(&r.name));
        let _ = writeln!(s, "      \"row\": {},", r.row);
        let _ = writeln!(s, "      \"owner\": {},", j(&r.owner));
        let _ = writeln!(s, "      \"frame\": {},", j(&r.frame));
        let _ = writeln!(s, "      \"claim\": {},", j(&r.claim));
        let _ = writeln!(s, "      \"minimality\": {},", j(&r.minimality));
        let _ = writeln!(s, "      \"symmetry\": {},", j(&r.symmetry));
        let _ = writeln!(s, "      \"stones\": {},", cells_json(&r.stones));
        if r.goals != 1 {
            let _ = writeln!(s, "      \"goals\": {},", r.goals);
        }
        let _ = writeln!(s, "      \"carrier\": {},", cells_json(&r.carrier));
        let _ = writeln!(s, "      \"provenance\": {},", j(&r.provenance));
        s.push_str("      \"certificate\": {\n");
        let _ = writeln!(s, "        \"root\": {},", r.certificate.root);
        let _ = writeln!(s, "        \"first\": {},", j(&r.certificate.first));
        match packed
            .then(|| super::cert_pack::pack_nodes(&r.certificate.nodes))
            .flatten()
        {
            Some(p) => {
                let _ = writeln!(s, "        \"packed\": {}", j(&p));
                s.push_str("      },\n");
            }
            None => {
                s.push_str("        \"nodes\": [");
                for (k, n) in r.certificate.nodes.iter().enumerate() {
                    s.push_str(if k == 0 { "\n" } else { ",\n" });
                    let _ = write!(s, "          {}", j(n));
                }
                s.push_str("\n        ]\n      },\n");
            }
        }
        let _ = writeln!(s, "      \"digest\": {}", j(&r.digest));
        s.push_str("    }");
    }
    s.push_str("\n  ]\n}\n");
    s
}

mod erased {
    /// Compact JSON of any serialisable value.
    pub trait Ser {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("library values serialise")
        }
    }
}

/// The most rows a record's cells may span (the canonical board of [`Record::sub_game`] is
/// 19×19, the edge on row 1).
pub(super) const MAX_RECORD_ROW: i32 = 18;

/// The largest column offset of a record's cell (edge-relative columns of a 19-wide board).
pub(super) const MAX_RECORD_COL: i32 = 64;

/// Checks that a record can be shown, drawn and matched without overflow or panic: stones
/// (the goal stone first), rows in 1..=18, columns within ±64, at most 128 carrier cells (the
/// certificate masks), a root node that exists. Its soundness is [`verify_record`]'s.
pub fn check_record_shape(r: &Record) -> Result<(), TemplateError> {
    if r.stones.is_empty() || r.goals == 0 || r.goals > r.stones.len() {
        return Err(TemplateError::NoGoalStone);
    }
    if !(1..=MAX_RECORD_ROW).contains(&r.row) {
        return Err(TemplateError::RowOutOfRange(r.row));
    }
    for rc in r.stones.iter().chain(&r.carrier) {
        if !(1..=MAX_RECORD_ROW).contains(&rc[0])
            || !(-MAX_RECORD_COL..=MAX_RECORD_COL).contains(&rc[1])
        {
            return Err(TemplateError::CellOutOfRange(rc[0], rc[1]));
        }
    }
    if r.carrier.len() > 128 {
        return Err(TemplateError::CarrierTooLarge(r.carrier.len()));
    }
    if r.certificate.root as usize >= r.certificate.nodes.len() {
        return Err(TemplateError::RootOutOfRange {
            root: r.certificate.root,
            nodes: r.certificate.nodes.len(),
        });
    }
    Ok(())
}

/// Parses a library file and checks every record's shape ([`check_record_shape`]); errors
/// name the file and the record.
pub fn parse_library_file(p: &Path, text: &str) -> Result<(PathBuf, LibraryFile), TemplateError> {
    let f: LibraryFile =
        serde_json::from_str(text).map_err(|source| TemplateError::NotLibraryFile {
            path: p.to_path_buf(),
            source,
        })?;
    for (i, r) in f.templates.iter().enumerate() {
        check_record_shape(r).map_err(|e| TemplateError::Record {
            path: p.to_path_buf(),
            index: i + 1,
            name: r.name.chars().take(40).collect(),
            source: Box::new(e),
        })?;
    }
    Ok((p.to_path_buf(), f))
}

/// A loaded library: every `row*.json` file of a directory, in name order, and the lemma
/// records of `proofs.json` ([`super::lemma_record`]); `ice.json` ([`ICE_FILE`]) is skipped.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The files and their contents.
    pub files: Vec<(PathBuf, LibraryFile)>,
    /// `proofs.json`, if present: the lemmas proved in `proofs/`.
    pub lemmas: Option<(PathBuf, super::lemma_record::LemmaFile)>,
    /// `published.json`, if present: the published templates ([`super::published`]), apart
    /// from `files` (they are not seeds of the solver and not matched).
    pub published: Option<(PathBuf, super::published::PublishedFile)>,
}

/// The name of the lemma file in a library directory.
pub const LEMMA_FILE: &str = "proofs.json";

/// The certified inferior-cell pattern library in the same directory (read by the search layer,
/// docs/ice.md): not edge templates, so [`Library::load`] leaves it to `templates ice verify`.
pub const ICE_FILE: &str = "ice.json";

impl Library {
    /// Loads `dir/*.json` (sorted by file name), all but [`ICE_FILE`].
    pub fn load(dir: &Path) -> Result<Library, TemplateError> {
        let rd = std::fs::read_dir(dir).map_err(|source| TemplateError::ReadDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut paths: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter(|p| p.file_name().is_none_or(|n| n != ICE_FILE))
            .collect();
        paths.sort();
        let mut files = Vec::new();
        let mut lemmas = None;
        let mut published = None;
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|source| TemplateError::Read {
                path: p.clone(),
                source,
            })?;
            if p.file_name().is_some_and(|n| n == LEMMA_FILE) {
                let f: super::lemma_record::LemmaFile =
                    serde_json::from_str(&text).map_err(|source| TemplateError::NotLemmaFile {
                        path: p.clone(),
                        source,
                    })?;
                lemmas = Some((p, f));
                continue;
            }
            if p.file_name()
                .is_some_and(|n| n == super::published::PUBLISHED_FILE)
            {
                published = Some((p.clone(), super::published::parse_published(&p, &text)?));
                continue;
            }
            files.push(parse_library_file(&p, &text)?);
        }
        Ok(Library {
            files,
            lemmas,
            published,
        })
    }

    /// The library built into the binary ([`super::builtin::FILES`], the files of
    /// `templates/` but the lemma file, as `use templates` sees it; and the published
    /// templates, [`super::builtin::published_text`]).
    pub fn builtin() -> Result<Library, TemplateError> {
        let files = super::builtin::FILES
            .iter()
            .map(|(name, text)| parse_library_file(Path::new(name), text))
            .collect::<Result<_, _>>()?;
        let (name, text) = (
            super::builtin::PUBLISHED_NAME,
            super::builtin::published_text(),
        );
        let published = super::published::parse_published(Path::new(name), text)?;
        Ok(Library {
            files,
            lemmas: None,
            published: Some((PathBuf::from(name), published)),
        })
    }

    /// The records whose digest matches ([`Record::compute_digest`]) — the only ones to use
    /// without re-checking their certificate — and, for each other record, its file and name.
    pub fn intact_records(&self) -> (Vec<&Record>, Vec<String>) {
        let mut intact = Vec::new();
        let mut edited = Vec::new();
        for (p, f) in &self.files {
            for r in &f.templates {
                if r.compute_digest() == r.digest {
                    intact.push(r);
                } else {
                    edited.push(format!("{}: {}", p.display(), r.name));
                }
            }
        }
        (intact, edited)
    }

    /// Every record, in file order.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.files.iter().flat_map(|(_, f)| f.templates.iter())
    }

    /// The record called `name`.
    pub fn find(&self, name: &str) -> Option<&Record> {
        self.records().find(|r| r.name == name)
    }
}
