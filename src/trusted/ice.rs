//! The checker of the ICE pattern library (`templates/ice.json`, `crate::ice`): each
//! pattern's claim is re-proved on its 9×9 instance (the pattern's stones, every other cell
//! empty) with the dead-set test of [`super::fill`] — nothing of the generator is trusted.
//!
//! - **dead** {c}: `fill::dead_violation` finds no violation for {c};
//! - **vulnerable** c for P, killer k: k is an empty ring cell, and with an opponent stone on
//!   k, {c} is dead;
//! - **captured** S by P: the replies form a complete second-player strategy inside S: to
//!   every sequence of the opponent's moves in S (every order) the reply named for it is an
//!   empty cell of S, and when S is full the opponent's cells D are dead — as a set, or each
//!   on its own with the others empty. Every reply is used.
//!
//! # Soundness (Henderson, Arneson & Hayward 2009, §3; docs/SEMANTICS.md, "ICE patterns")
//!
//! The dead-set test is the neighbourhood-clique criterion (module docs of [`super::fill`]):
//! it proves that the colours of D never change the winner of any completion. It is
//! **monotone** — a stone added on any cell outside D keeps it passing (an empty neighbour is
//! the worst case for both colours: a stone leaves that colour's usable cells or joins a
//! chain, and chains only grow and merge) — and **local**: it reads D's neighbours and the
//! chains through them. So a claim proved on the instance holds on any board where the
//! pattern's cells are on the board, S is empty, the required stones are present and S
//! touches the same borders, whatever the other cells hold. The checker therefore demands
//! that the required stones and the killer lie in the ring of S (radius 1), and that the
//! pattern touch at most one border of the instance, and that one only on the top row or
//! left column (the placements `crate::ice::symmetry` makes keep those rows or columns).
//!
//! For a captured set: P answers each opponent move in S as the strategy says (moving
//! elsewhere when S is full); at the end of any game the opponent's cells of S are dead in
//! the final position (monotone), so recolouring them P's keeps the winner: the value with
//! S filled by P equals the value with S empty, for either player to move (§3). A vulnerable
//! cell is the same argument with one opponent stone (`dfpn::vulnerable` prunes on it).

use super::fill::dead_violation;
use super::RuleChecked;
use crate::board::{Cell, CellSet, Notation};
use crate::ice::record::{instance_board, IceFile, Pattern, PatternClass};
use crate::position::Position;
use std::collections::BTreeSet;

/// Checks one pattern; the error says why it is refused.
pub fn check_pattern(p: &Pattern) -> Result<RuleChecked, String> {
    let board = instance_board();
    let parsed = p.parse()?;
    let s: CellSet = parsed.set.iter().copied().collect();
    if s.is_empty() || s.len() != parsed.set.len() {
        return Err("the set is empty or names a cell twice".into());
    }
    if !(s & (parsed.black | parsed.white)).is_empty() || !(parsed.black & parsed.white).is_empty()
    {
        return Err("a cell of the set holds a stone, or a cell is both colours".into());
    }
    let mut ring = CellSet::EMPTY;
    for c in s.iter() {
        ring |= board.neighbours(c);
    }
    ring -= s;
    let mut required = parsed.black | parsed.white;
    if let Some(k) = parsed.killer {
        required.insert(k);
    }
    if !required.is_subset(&ring) {
        return Err("a required stone or the killer is not in the ring of the set".into());
    }
    let last = board.cols() - 1;
    let (mut top, mut left) = (false, false);
    for c in (s | ring).iter().filter(|c| !c.is_border()) {
        let (x, y) = c.coords();
        if x == last || y == last {
            return Err("the pattern touches the last row or column of the instance".into());
        }
        top |= y == 0;
        left |= x == 0;
    }
    if top && left {
        return Err("the pattern touches two borders".into());
    }
    let pos = Position::new(board, parsed.black, parsed.white).map_err(|e| e.to_string())?;
    let single = |c: Cell| p.set.len() == 1 && parsed.set[0] == c;
    match p.class {
        PatternClass::Dead => {
            if p.set.len() != 1 || !p.replies.is_empty() || parsed.killer.is_some() {
                return Err("a dead pattern names one cell, no replies and no killer".into());
            }
            if let Some(why) = dead_violation(&pos, s) {
                return Err(format!("not dead: {why}"));
            }
        }
        PatternClass::Vulnerable => {
            let k = parsed
                .killer
                .ok_or("a vulnerable pattern names its killer")?;
            if p.set.len() != 1 || single(k) || !p.replies.is_empty() {
                return Err(
                    "a vulnerable pattern names one cell, a killer apart from it and no replies"
                        .into(),
                );
            }
            if required.len() == (parsed.black | parsed.white).len() {
                return Err("the killer holds a stone".into());
            }
            let mut after = pos.clone();
            after
                .play(p.colour.opponent(), k)
                .map_err(|e| e.to_string())?;
            if let Some(why) = dead_violation(&after, s) {
                return Err(format!("not dead after the killer: {why}"));
            }
        }
        PatternClass::Captured => {
            if parsed.killer.is_some() || p.set.len() < 2 {
                return Err("a captured pattern names two or more cells and no killer".into());
            }
            let mut used = BTreeSet::new();
            let all: Vec<usize> = (0..parsed.set.len()).collect();
            strategy(
                &pos,
                p,
                &parsed.set,
                &all,
                CellSet::EMPTY,
                &mut Vec::new(),
                &mut used,
            )?;
            if used.len() != p.replies.len() {
                return Err("a reply is named for a sequence the strategy never meets".into());
            }
        }
    }
    Ok(RuleChecked::new("ICE pattern"))
}

/// Every order of the opponent's moves in the rest of S, answered by the replies.
fn strategy(
    pos: &Position,
    p: &Pattern,
    set: &[Cell],
    rem: &[usize],
    d: CellSet,
    hist: &mut Vec<usize>,
    used: &mut BTreeSet<String>,
) -> Result<(), String> {
    if rem.is_empty() {
        return leaf(pos, d);
    }
    for &q in rem {
        hist.push(q);
        let mut d2 = d;
        d2.insert(set[q]);
        let rest: Vec<usize> = rem.iter().copied().filter(|&i| i != q).collect();
        let key = hist
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(".");
        if rest.is_empty() {
            leaf(pos, d2).map_err(|e| format!("after {key}: {e}"))?;
        } else {
            let r = *p
                .replies
                .get(&key)
                .ok_or_else(|| format!("no reply to {key}"))?;
            if !rest.contains(&r) {
                return Err(format!(
                    "the reply to {key} is not an empty cell of the set"
                ));
            }
            used.insert(key);
            let mut after = pos.clone();
            after.play(p.colour, set[r]).map_err(|e| e.to_string())?;
            let rest2: Vec<usize> = rest.into_iter().filter(|&i| i != r).collect();
            strategy(&after, p, set, &rest2, d2, hist, used)?;
        }
        hist.pop();
    }
    Ok(())
}

/// The opponent's cells `d` (empty in `pos`) are dead as a set, or each on its own.
fn leaf(pos: &Position, d: CellSet) -> Result<(), String> {
    if d.is_empty() || dead_violation(pos, d).is_none() {
        return Ok(());
    }
    for c in d.iter() {
        if let Some(why) = dead_violation(pos, CellSet::single(c)) {
            return Err(format!(
                "the opponent's {} is not dead: {why}",
                pos.board().cell_name(c, Notation::Letters)
            ));
        }
    }
    Ok(())
}

/// The result of checking a library file.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file.
    pub file: IceFile,
    /// Accepted patterns per class.
    pub accepted: Vec<(PatternClass, usize)>,
    /// Refused patterns: index and why.
    pub refused: Vec<(usize, String)>,
}

/// Checks every pattern of a library file's text.
pub fn check_file(text: &str) -> Result<FileReport, String> {
    let file = IceFile::from_json(text)?;
    let mut accepted: Vec<(PatternClass, usize)> =
        PatternClass::ALL.iter().map(|&c| (c, 0)).collect();
    let mut refused = Vec::new();
    for (i, p) in file.patterns.iter().enumerate() {
        match check_pattern(p) {
            Ok(_) => {
                if let Some(a) = accepted.iter_mut().find(|a| a.0 == p.class) {
                    a.1 += 1;
                }
            }
            Err(e) => refused.push((i, e)),
        }
    }
    Ok(FileReport {
        file,
        accepted,
        refused,
    })
}

/// The patterns of `text` that the checker accepts (refused ones dropped).
pub fn accepted_patterns(text: &str) -> Vec<Pattern> {
    match check_file(text) {
        Ok(r) => {
            let bad: BTreeSet<usize> = r.refused.iter().map(|x| x.0).collect();
            r.file
                .patterns
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !bad.contains(i))
                .map(|(_, p)| p)
                .collect()
        }
        Err(_) => Vec::new(),
    }
}
