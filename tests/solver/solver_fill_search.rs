//! Leaves by fill-in and search (docs/prove.md, "Leaves by fill-in and search"): where the
//! explainer derives no connection, the emitter writes the fill-in the checker justifies and
//! a search in the filled position; the filled cells leave the search, so leaves whose plain
//! search does not fit the leaf budget close instead of being split into White nodes.

use crate::solver_compact::{assert_smaller_and_checked, played};
use hexproof::dfpn::SolveParams;
use hexproof::prove::emit::{self, EmitOptions};

/// The export of 6×6 `m` (facts on at most 16 cells collapsed, redundant analyses dropped,
/// search leaves of at most 22 cells and 20,000 nodes, as the 7×7 exports) with or without
/// the fill-in search leaves.
fn exported(m: &str, fill_search: bool) -> String {
    budgeted(m, fill_search, 20_000, 0)
}

/// The export of 6×6 `m` as [`exported`], with a leaf budget of `leaf_nodes` and a budget of
/// `fill_nodes` for the filled searches (`--emit-fill-nodes`; 0: the leaf budget).
fn budgeted(m: &str, fill_search: bool, leaf_nodes: u64, fill_nodes: u64) -> String {
    budgeted_with(m, fill_search, leaf_nodes, fill_nodes, false)
}

/// [`budgeted`], with or without the precluding analyses by fill-in and search
/// (`--emit-fill-preclude`).
fn budgeted_with(
    m: &str,
    fill_search: bool,
    leaf_nodes: u64,
    fill_nodes: u64,
    fill_preclude: bool,
) -> String {
    retried(m, fill_search, leaf_nodes, fill_nodes, fill_preclude, 0)
}

/// [`budgeted_with`], with a second budget of `fill_retry` nodes for the searches that ran
/// out of their first one (`--emit-fill-retry`; 0: none).
fn retried(
    m: &str,
    fill_search: bool,
    leaf_nodes: u64,
    fill_nodes: u64,
    fill_preclude: bool,
    fill_retry: u64,
) -> String {
    let (p, colour) = played(6, &[m]);
    emit::emit(
        &p,
        colour,
        &SolveParams::default(),
        &EmitOptions {
            collapse: 16,
            drop_redundant: true,
            leaf_nodes,
            fill_search,
            fill_nodes,
            fill_preclude,
            fill_retry,
            ..EmitOptions::default()
        },
    )
    .unwrap()
}

/// Leaves (`fill …` lines directly followed by a `by search` line that ends the leaf).
fn fill_search_leaves(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(3)
        .filter(|w| w[0].starts_with("fill ") && w[1].ends_with("by search") && w[2] == "}")
        .count()
}

/// 6×6 b5 (Black wins): with the new leaves the tree has fewer Black-move nodes than
/// without (measured with the CLI: 14 against 20), it has more leaves of fills and one
/// search line than the old export (which writes them only for a derivation after fill-in
/// collapsed to one search), and it passes the full check (confirming searches on). With
/// the new leaves off the two exports are the same and the `<` fails.
#[test]
fn fill_in_search_leaves_close_what_the_plain_search_split() {
    let old = exported("b5", false);
    let new = exported("b5", true);
    // The old export has such leaves only where a derivation after fill-in is collapsed
    // into one search line (`--emit-collapse`), and no search counted as after fill-in.
    assert!(
        fill_search_leaves(&new) > fill_search_leaves(&old),
        "{} vs {}",
        fill_search_leaves(&new),
        fill_search_leaves(&old)
    );
    assert!(new.contains("of the searches follow fill-in"));
    assert!(!old.contains("of the searches follow fill-in"));
    assert_smaller_and_checked(&new, &old);
}

/// A larger budget for the filled searches alone (`--emit-fill-nodes`, session 34): with a
/// small leaf budget (2,000 nodes) 6×6 b5's leaves by fill-in and search split where their
/// filled search runs out; with 200,000 nodes for the filled searches (the checker's
/// first-phase budget) they close (measured with the CLI: 22 → 14 Black-move nodes,
/// 28,638 → 7,816 bytes), and the export passes the full check, which searches those steps
/// within its own budget. With the option ignored the two exports are the same and `<` fails.
#[test]
fn a_larger_budget_for_filled_searches_closes_more_leaves() {
    let old = budgeted("b5", true, 2_000, 0);
    let new = budgeted("b5", true, 2_000, 200_000);
    assert_smaller_and_checked(&new, &old);
}

/// Precluding analyses by fill-in and search (`--emit-fill-preclude`, session 35): a White
/// node's `preclude by Z { fill …  t - b on [..] by search }` where the explainer derives
/// nothing and the plain search of the carrier does not fit; each analysis that holds takes
/// the White moves outside its carrier off the node's cases. On 6×6 b5 (leaf budget 2,000,
/// 200,000 for the filled searches) the tree has fewer Black-move nodes (measured with the
/// CLI: 14 → 13; c2 31 → 18, b2 72 → 61), the file says how many analyses took the form,
/// and the export passes the full check. With the option ignored the two exports are the
/// same and the `<` fails.
#[test]
fn precluding_analyses_by_fill_in_and_search_take_moves_off_the_cases() {
    let old = budgeted_with("b5", true, 2_000, 200_000, false);
    let new = budgeted_with("b5", true, 2_000, 200_000, true);
    assert!(new.contains("precluding analyses found as fill-in and a search"));
    assert!(!old.contains("precluding analyses found as fill-in and a search"));
    assert_smaller_and_checked(&new, &old);
}

/// A second budget for searches that ran out of their first one (`--emit-fill-retry`,
/// session 36): on 6×6 b5 with a leaf budget of 2,000 nodes and no larger budget for the
/// filled searches, the leaves whose search (plain or after fill-in) runs out are searched
/// again with 200,000 nodes; those that hold close instead of being split, the file says how
/// many, and the export passes the full check (the checker searches each step with its own
/// budget of 20,000,000 nodes). With the option ignored the two exports are the same and `<`
/// fails.
#[test]
fn a_second_budget_for_searches_out_of_budget_closes_more_leaves() {
    let old = retried("b5", true, 2_000, 0, false, 0);
    let new = retried("b5", true, 2_000, 0, false, 200_000);
    assert!(new.contains("searches held only with the second budget of 200000 nodes"));
    assert!(!old.contains("searches held only with the second budget"));
    assert_smaller_and_checked(&new, &old);
}
