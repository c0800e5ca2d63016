//! Lemma use and proof trees: every side condition, violated, is rejected for its own reason;
//! correct uses and trees are verified.

use hexproof::check::report::{StepReport, StepVerdict};
use hexproof::check::{check_source, Checked, Options};

fn run(src: &str) -> Checked {
    check_source("t.hexp", src, &Options::default())
}

fn steps_on(c: &Checked, line: usize) -> Vec<&StepReport> {
    c.report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .filter(|s| s.at.line == line)
        .collect()
}

fn step(c: &Checked, line: usize) -> &StepReport {
    steps_on(c, line)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no step on line {line}:\n{}", c.human()))
}

fn conditions(s: &StepReport) -> Vec<String> {
    s.reasons.iter().map(|r| r.condition.clone()).collect()
}

/// The step on `line` (the first one there) fails with `condition`, and its message says `says`.
fn fails_with(src: &str, line: usize, condition: &str, says: &str) -> Checked {
    let c = run(src);
    let s = step(&c, line);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    let hit = s
        .reasons
        .iter()
        .find(|r| r.condition == condition)
        .unwrap_or_else(|| {
            panic!(
                "expected condition {condition:?}, got {:?}\n{}",
                conditions(s),
                c.human()
            )
        });
    assert!(
        hit.message.contains(says),
        "{:?} lacks {says:?}",
        hit.message
    );
    assert_eq!(c.report.exit_code, 1);
    c
}

fn bad_input(src: &str, code: &str) {
    let c = run(src);
    assert_eq!(c.report.exit_code, 2, "{}", c.human());
    let codes: Vec<&str> = c.report.files[0]
        .errors
        .iter()
        .map(|e| e.code.as_str())
        .collect();
    assert!(
        codes.contains(&code),
        "expected {code}, got {codes:?}\n{}",
        c.human()
    );
}

// A bridge (x = c3, A = d4, carrier d3 c4) and the edge bridge (x = b6, carrier a7 b7).
const LIB: &str = "board 7x7
lemma bridge { black c3 as x\n cell A = d4\n claim x - A on [d3, c4] }
lemma edge { black b6 as x\n claim x - b on [a7, b7] }
lemma semi { black c3 as x\n claim x - d4 first black on [d3] }
lemma walled { black c3 as x\n white e3\n claim x - d4 on [d3, c4] }
";
// LIB has 11 lines; the derivation starts on line 12, its body on line 13.

fn with(body: &str) -> String {
    format!("{LIB}derive {{\n{body}}}\n")
}

#[test]
fn lemma_uses_are_verified_with_automatic_placement() {
    let src = with(
        "  black e4 as y, b6 as z
  (y, [f4, e5], f5) VC by bridge
  (z, [a7, b7], b) VSC by edge
  (z, [a7, b7, c7], b) VC by edge
  (y, [e3, f3], f2) VC by bridge
",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    for line in 14..=17 {
        let s = step(&c, line);
        assert_eq!(s.verdict, StepVerdict::Verified, "{}", c.human());
        assert!(s.notes.iter().any(|n| n.contains("placed")));
    }
}

#[test]
fn placement_by_rotation_mirror_and_colour_swap() {
    // The edge bridge rotated onto the top edge, mirrored, and given to White on the right edge.
    let src = with(
        "  black b2 as p, e6 as q
  white f2 as w
  (p, [b1, c1], t) VC by edge
  (p, [b1, c1], t) VC by edge under rot180 at x = p
  (q, [e7, d7], b) VC by edge under mirror
  (w, [g1, g2], r) VC for white by edge
  (w, [g1, g2], r) VC for white by edge under swap
",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    assert_eq!(c.report.counts.verified, 4 + 5, "{}", c.human());
}

#[test]
fn a_lemma_carrier_on_a_stone_is_rejected() {
    fails_with(
        &with("  black c3 as x\n  white d3\n  (x, [c4, b4], d4) VC by bridge\n"),
        15,
        "carrier empty",
        "lands on d3, which holds a white stone",
    );
}

#[test]
fn a_lemma_stone_must_land_on_a_stone_of_its_colour() {
    fails_with(
        &with("  (c3, [d3, c4], d4) VC by bridge\n"),
        13,
        "stones match",
        "lands on c3, which is empty (needs a black stone)",
    );
    fails_with(
        &with("  black c3 as x\n  (x, [d3, c4], d4) VC by walled\n"),
        14,
        "stones match",
        "lands on e3, which is empty (needs a white stone)",
    );
}

#[test]
fn the_lemma_ends_must_map_to_the_step_ends() {
    fails_with(
        &with("  black c3 as x\n  (x, [d3, c4], e5) VC by bridge\n"),
        14,
        "ends match",
        "maps the lemma's ends",
    );
}

#[test]
fn the_placed_carrier_must_lie_in_the_step_carrier() {
    fails_with(
        &with("  black c3 as x\n  (x, [d3, b5], d4) VC by bridge\n"),
        14,
        "carrier inside the step's",
        "lands on c4, which is not in the step's carrier",
    );
}

#[test]
fn a_semi_lemma_does_not_give_a_vc() {
    fails_with(
        &with("  black c3 as x\n  (x, [d3], d4) VC by semi\n"),
        14,
        "kind",
        "cannot give a VC",
    );
    let c = run(&with("  black c3 as x\n  (x, [d3], d4) VSC by semi\n"));
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
}

#[test]
fn a_border_contact_must_be_kept() {
    fails_with(
        &with("  black b5 as z\n  (z, [a6, b6], b) VC by edge\n"),
        14,
        "border contact kept",
        "touches the border b",
    );
}

#[test]
fn only_verified_lemmas_are_used() {
    let src = with("  black c3 as x\n  (x, [d3, c4], e5) VC by wrong\n").replace(
        "lemma walled",
        "lemma wrong { black c3 as x\n claim x - e5 on [d3, c4] }\nlemma walled",
    );
    fails_with(&src, 16, "lemma certified", "is not verified");
}

#[test]
fn a_named_placement_is_obeyed() {
    // Under rot180 the edge bridge points up: it cannot reach the bottom.
    fails_with(
        &with("  black b6 as z\n  (z, [a7, b7], b) VC by edge under rot180\n"),
        14,
        "ends match",
        "the named placement does not map",
    );
    // An anchor that puts the stone elsewhere.
    fails_with(
        &with("  black c3 as x\n  (x, [d3, c4], d4) VC by bridge at x = d3\n"),
        14,
        "ends match",
        "the named placement does not map",
    );
    // An unknown cell of the lemma.
    fails_with(
        &with("  black c3 as x\n  (x, [d3, c4], d4) VC by bridge at Q = c3\n"),
        14,
        "placement named",
        "no cell named `Q`",
    );
}

#[test]
fn placed_lemmas_agree_with_the_search() {
    // Every placement of the bridge on a 4x4 board that the checker accepts is confirmed by
    // the search (the checker also flags any disagreement as an inconsistency).
    let mut accepted = 0;
    let cells: Vec<String> = (0..4)
        .flat_map(|r| (0..4).map(move |c| format!("{}{}", (b'a' + c) as char, r + 1)))
        .collect();
    let lib = "board 4x4\nlemma bridge { black b2 as x\n cell A = c3\n claim x - A on [c2, b3] }\nlemma edge { black b3 as x\n claim x - b on [a4, b4] }\n";
    for a in &cells {
        for (l, ends) in [("bridge", 2), ("edge", 1)] {
            for bnd in ["b", "t"] {
                let _ = ends;
                if l == "bridge" && a == "c3" {
                    continue;
                }
                let mut src = String::from(lib);
                src.push_str(&format!("derive {{\n  black {a} as s\n"));
                let free: Vec<&String> = cells.iter().filter(|c| *c != a).collect();
                // every carrier of two free cells
                for (i, p) in free.iter().enumerate() {
                    for q in &free[i + 1..] {
                        let end = if l == "bridge" { "c3" } else { bnd };
                        if *p == "c3" || *q == "c3" {
                            continue;
                        }
                        src.push_str(&format!("  s - {end} on [{p}, {q}] by {l}\n"));
                    }
                }
                src.push_str("}\n");
                let c = run(&src);
                assert_ne!(c.report.exit_code, 2, "{}", c.human());
                for b in &c.report.files[0].blocks[2..] {
                    for s in &b.steps {
                        if s.verdict == StepVerdict::Verified {
                            accepted += 1;
                            assert_eq!(
                                s.search.as_ref().map(|x| x.verdict.as_str()),
                                Some("holds")
                            );
                        }
                        assert!(
                            !s.reasons.iter().any(|r| r.condition == "consistency"),
                            "{}",
                            c.human()
                        );
                    }
                }
                if l == "bridge" {
                    break;
                }
            }
        }
    }
    println!("{accepted} placements accepted, each confirmed by search");
    assert!(accepted >= 8, "{accepted}");
}

// ---------------------------------------------------------------------------------------------
// Proof trees on 3x3: Black opens in the centre.

const TREE: &str = "board 3x3
lemma edge { black b2 as x\n claim x - b on [a3, b3] }
strategy centre {
  black b2 as x
  white {
    preclude by a3 {
      (t, [b1, c1], x) VC by edge under rot180
      (t, [b1, c1], b) VC by AND (t, [b1, c1], x) (x, [], b)
    }
    preclude by b3 {
      (t, [b1, c1], x) VC by edge under rot180
      (t, [b1, c1], b) VC by AND (t, [b1, c1], x) (x, [], b)
    }
    case b1 => black c1 {
      (x, [a3, b3], b) VC by edge
      (t, [a3, b3], b) VC by AND (t, [], x) (x, [a3, b3], b)
    }
    case c1 => black b1 {
      (x, [a3, b3], b) VC by edge
      (t, [a3, b3], b) VC by AND (t, [], x) (x, [a3, b3], b)
    }
  }
}
";

#[test]
fn a_complete_tree_is_verified() {
    let c = run(TREE);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    let b = &c.report.files[0].blocks[1];
    let sm = b.summary.as_deref().unwrap();
    assert!(sm.starts_with("proved"), "{sm}");
    assert!(
        sm.contains("3 black node(s)")
            && sm.contains("2 leaves")
            && sm.contains("4 lemma instance(s)"),
        "{sm}"
    );
}

#[test]
fn a_surviving_white_move_without_a_case_is_rejected() {
    let src = TREE.replace("case c1 => black b1", "case a1 => black b1");
    fails_with(
        &src,
        6,
        "every White move has a case",
        "White's move c1 survives every precluding analysis and has no case",
    );
}

#[test]
fn dropping_a_precluding_analysis_leaves_moves_without_cases() {
    let i = TREE.find("    preclude by b3").unwrap();
    let j = TREE[i..].find("    }\n").unwrap() + i + 6;
    let src = format!("{}{}", &TREE[..i], &TREE[j..]);
    fails_with(&src, 6, "every White move has a case", "White's move a3");
}

#[test]
fn a_precluding_analysis_must_derive_t_b() {
    let src = TREE.replace("preclude by b3", "preclude by a2");
    fails_with(&src, 11, "t - b derived", "the precluding analysis by a2");
}

#[test]
fn a_leaf_must_derive_t_b() {
    // (x - b alone would do: x's group reaches t through c1.) A leaf whose steps conclude
    // nothing that amounts to t - b fails.
    let src = TREE.replace(
        "      (x, [a3, b3], b) VC by edge\n      (t, [a3, b3], b) VC by AND (t, [], x) (x, [a3, b3], b)\n    }\n    case c1",
        "      (a3, [], b) VC\n    }\n    case c1",
    );
    fails_with(&src, 16, "t - b derived", "no step concludes Black's t - b");
}

#[test]
fn a_wrong_black_reply_is_rejected() {
    let src = TREE.replace("case c1 => black b1", "case c1 => black a1");
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
}

#[test]
fn moves_on_occupied_cells_are_bad_input() {
    bad_input(
        &TREE.replace("preclude by a3", "preclude by b2"),
        "hexp::occupied-move",
    );
    bad_input(
        &TREE.replace("case b1 => black c1", "case b1 => black b2"),
        "hexp::occupied-move",
    );
    bad_input(
        &TREE.replace("case b1 =>", "case b2 =>"),
        "hexp::occupied-move",
    );
    bad_input(
        &TREE.replace("case c1 =>", "case b1 =>"),
        "hexp::duplicate-case",
    );
}

#[test]
fn a_tree_must_have_its_shape() {
    bad_input("board 3x3\nstrategy { black b2 }\n", "hexp::tree-shape");
    bad_input("board 3x3\nstrategy { white { } }\n", "hexp::tree-shape");
    bad_input(
        "board 3x3\nstrategy { black b2 white { } black a1 }\n",
        "hexp::tree-shape",
    );
}

#[test]
fn an_empty_white_node_fails_with_every_move_listed() {
    let c = run("board 3x3\nstrategy { black b2 white { } }\n");
    let s = step(&c, 2);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let _ = s;
    let n = c.report.files[0].blocks[0]
        .steps
        .iter()
        .find(|s| s.rule == "white node")
        .unwrap();
    assert_eq!(n.reasons.len(), 8, "{}", c.human());
}

#[test]
fn a_white_node_after_white_has_won_is_rejected() {
    // White's a1-b1 already joins l and r; Black fills the last cell; no White move is left.
    let src = "board 2x2\nwhite a1, b1\nblack a2\nstrategy {\n  black b2\n  white { }\n}\n";
    fails_with(src, 6, "game not lost", "White has already won");
}

#[test]
fn lemma_proofs_may_use_earlier_lemmas_but_not_themselves() {
    let src = "board 7x7
lemma edge { black b6 as x\n claim x - b on [a7, b7] }
lemma two { black c5 as y, b6 as x
 claim y - b on [a7, b7]
 proof {
   (x, [a7, b7], b) VC by edge
   (y, [a7, b7], b) VC by AND (y, [], x) (x, [a7, b7], b)
 }
}
lemma self { black b6 as x
 claim x - b on [a7, b7]
 proof { (x, [a7, b7], b) VC by self }
}
";
    let c = run(src);
    let two = &c.report.files[0].blocks[1];
    assert_eq!(two.verdict, StepVerdict::Verified, "{}", c.human());
    assert_eq!(two.summary.as_deref(), Some("1 lemma instance(s)"));
    let s = step(&c, 13);
    assert!(
        conditions(s).contains(&"lemma certified".to_string()),
        "{}",
        c.human()
    );
}

// ---------------------------------------------------------------------------------------------
// AB guarantees on lemmas (their use across two areas is not checked yet).

#[test]
fn ab_guarantees_agree_with_the_search_of_the_first_exchange() {
    // For every (A, B) in the ziggurat's carrier: a verified guarantee implies that after
    // White A and Black B the rest of the carrier still carries x - b with White to move
    // (checked by the kernel-backed search), and the lemma itself holds.
    let carrier = ["e5", "c6", "d6", "e6", "b7", "c7", "d7", "e7"];
    let mut src = String::from(
        "board 7x7\nlemma zig { black d5 as x\n claim x - b on [e5, c6, d6, e6, b7, c7, d7, e7]\n",
    );
    let mut pairs = Vec::new();
    for a in carrier {
        for b in carrier {
            if a != b {
                src.push_str(&format!(" guarantee white {a} => black {b}\n"));
                pairs.push((a, b));
            }
        }
    }
    src.push_str("}\n");
    for (a, b) in &pairs {
        let rest: Vec<&str> = carrier
            .iter()
            .copied()
            .filter(|c| c != a && c != b)
            .collect();
        src.push_str(&format!(
            "derive {{ black d5, {b}\n white {a}\n d5 - b on [{}] by search }}\n",
            rest.join(", ")
        ));
    }
    let c = run(&src);
    let blocks = &c.report.files[0].blocks;
    let lemma = &blocks[0];
    assert_eq!(lemma.steps[0].verdict, StepVerdict::Verified);
    let (mut held, mut failed) = (0, 0);
    for (k, _) in pairs.iter().enumerate() {
        let g = &lemma.steps[1 + k];
        assert_eq!(g.rule, "AB guarantee");
        let after = blocks[1 + k].steps[0].verdict;
        match g.verdict {
            StepVerdict::Verified => {
                held += 1;
                assert_eq!(after, StepVerdict::Verified, "{}\n{}", g.claim, c.human());
            }
            StepVerdict::Failed => failed += 1,
            v => panic!("{v:?}"),
        }
    }
    println!("{} guarantees: {held} hold, {failed} do not", pairs.len());
    assert!(held > 0 && failed > 0);
}

#[test]
fn ab_guarantee_side_conditions() {
    bad_input(
        "board 7x7\nlemma l { black c3 as x\n claim x - d4 on [d3, c4]\n guarantee black d3 => white c4 }\n",
        "hexp::guarantee",
    );
    bad_input(
        "board 7x7\nlemma l { black c3 as x\n claim x - d4 on [d3, c4]\n guarantee white d3 => black e5 }\n",
        "hexp::guarantee",
    );
    let c = run("board 7x7\nlemma l { black c3 as x\n claim x - d4 on [d3, c4]\n guarantee white d3 => black c4 }\n");
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    // The bridge's answer to d3 must be c4: the ziggurat's d6 cannot be answered by b7.
    let c = run("board 7x7\nlemma z { black d5 as x\n claim x - b on [e5, c6, d6, e6, b7, c7, d7, e7]\n guarantee white d6 => black b7 }\n");
    let s = step(&c, 4);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    assert_eq!(conditions(s), vec!["guarantee holds"]);
}

#[test]
fn a_leaf_may_conclude_what_amounts_to_t_b() {
    // x = b1 touches the top, so x - b is t - b here (checked on the groups of t and b).
    let head = "board 3x2\nstrategy {\n  black b1 as x\n";
    let c = run(&format!("{head}  x - b on [a2, b2]\n}}\n"));
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    // A union whose every pair joins t's group to b's.
    let c = run(&format!("{head}  x - b | t - b on [a2, b2]\n}}\n"));
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    // A semi-connection does not (White is to move).
    let c = run(&format!("{head}  x - b on [a2, b2] first black\n}}\n"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    // An empty end is not Black's: c1 - b holds, but c1 is not on t's group.
    let c = run(&format!("{head}  c1 - b on [b2, c2]\n}}\n"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert!(
        c.human().contains("nor a VC whose every pair joins"),
        "{}",
        c.human()
    );
    // A union with one pair that stays inside t's group does not amount to t - b.
    let c = run(&format!("{head}  x - b | x - t on [a2, b2]\n}}\n"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
}

// ---------------------------------------------------------------------------------------------
// Cheaper confirmation (session 21): an AND step over searched premises is confirmed by the
// kernel from their certificates, and a leaf by the search of its own t - b.

const LEAF: &str = "board 3x3
strategy s {
  black b2 {
    s1: (t, [b1, c1], b2) VC by search
    s2: (b, [a3, b3], b2) VC by search
    s3: (t, [b1, c1, a3, b3], b) VC by AND s1 s2
  }
}
";

#[test]
fn an_and_over_searched_premises_is_confirmed_by_the_kernel_and_the_leaf_by_its_search() {
    let c = run(LEAF);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    let and = step(&c, 6);
    assert_eq!(and.rule, "AND");
    assert_eq!(and.basis_text(), "rule and search");
    let s = and.search.as_ref().expect("confirmed");
    assert_eq!((s.verdict.as_str(), s.nodes), ("holds", 0));
    assert!(
        s.note.as_deref().unwrap_or("").contains("composed"),
        "{s:?}"
    );
    let leaf = steps_on(&c, 4)
        .into_iter()
        .find(|s| s.rule == "leaf")
        .expect("the leaf");
    assert_eq!(leaf.basis_text(), "tree and search");
    assert!(
        leaf.notes
            .iter()
            .any(|n| n.contains("confirmed by the search of its t - b")),
        "{:?}",
        leaf.notes
    );
}

#[test]
fn a_broken_and_is_still_rejected_when_its_premises_have_certificates() {
    // A carrier cell dropped from the conclusion: the rule fails, and the kernel refuses the
    // composed certificate (a premise's carrier is not inside the conclusion's).
    let c = run(&LEAF.replace("[b1, c1, a3, b3], b)", "[b1, c1, a3], b)"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_eq!(step(&c, 6).verdict, StepVerdict::Failed);
    // A false premise: its search fails, so nothing is composed and the AND is not verified.
    let c = run(&LEAF.replace("(b, [a3, b3], b2) VC", "(b, [a3], b2) VC"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_ne!(step(&c, 6).verdict, StepVerdict::Verified);
}

/// Semi-connections by AND (session 23): through a premise on no cell whose end is empty
/// (`(b, [], a3)`, the form the solver writes) and through an empty cell two VCs meet at; each
/// is confirmed by a composed kernel certificate (Black's first move, then the premises'
/// certificates), the OR over them by copying those in, and the AND above by lemma leaves.
const SEMI: &str = "board 3x3
strategy s {
  black b2 {
    s1: (b2, [], a3) VC by search
    s2: (b2, [a3], b) VSC by AND s1 (b, [], a3)
    s3: (b2, [], b3) VC by search
    s4: (b3, [], b) VC by search
    s5: (b2, [b3], b) VSC by AND s3 s4
    s6: (b2, [a3, b3], b) VC by OR s2 s5
    s7: (t, [b1, c1], b2) VC by search
    s8: (t, [b1, c1, a3, b3], b) VC by AND s7 s6
  }
}
";

#[test]
fn an_and_concluding_a_semi_connection_is_confirmed_by_a_composed_certificate() {
    let c = run(SEMI);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    for (line, rule) in [(5, "AND"), (8, "AND"), (9, "OR"), (11, "AND")] {
        let st = step(&c, line);
        assert_eq!(st.rule, rule, "line {line}");
        assert_eq!(st.basis_text(), "rule and search", "line {line}");
        let s = st.search.as_ref().expect("confirmed");
        assert_eq!((s.verdict.as_str(), s.nodes), ("holds", 0), "line {line}");
        assert!(
            s.note.as_deref().unwrap_or("").contains("composed"),
            "line {line}: {s:?}"
        );
    }
}

#[test]
fn a_broken_semi_connection_by_and_is_still_rejected() {
    // The first move's cell dropped from the conclusion's carrier: the rule fails, and the
    // kernel would refuse the composed certificate (its first move outside the carrier).
    let c = run(&SEMI.replace("(b2, [a3], b) VSC", "(b2, [], b) VSC"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_ne!(step(&c, 5).verdict, StepVerdict::Verified);
    // A premise on no cell whose end does not touch the bottom (c2): not a semi-connection.
    let c = run(&SEMI.replace(
        "s1: (b2, [], a3) VC by search\n    s2: (b2, [a3], b) VSC by AND s1 (b, [], a3)",
        "s1: (b2, [], c2) VC by search\n    s2: (b2, [c2], b) VSC by AND s1 (b, [], c2)",
    ));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_ne!(step(&c, 5).verdict, StepVerdict::Verified);
}

/// A White node whose analyses and cases are all closed by searched `t - b`s (kernel
/// acceptances): the node is confirmed by one kernel certificate composed of them (an
/// or-node over Black's answers, src/check/kcompose.rs `compose_white`), not by a search.
const COMPOSED: &str = "board 3x3
strategy s {
  black b2
  white {
    preclude by a3 {
      (t, [b1, c1], b) VC by search
    }
    preclude by b3 {
      (t, [b1, c1], b) VC by search
    }
    case b1 => black c1 {
      (t, [a3, b3], b) VC by search
    }
    case c1 => black b1 {
      (t, [a3, b3], b) VC by search
    }
  }
}
";

#[test]
fn a_white_node_is_confirmed_by_a_certificate_composed_of_its_answers() {
    let c = run(COMPOSED);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    let node = step(&c, 4);
    assert_eq!(node.rule, "white node");
    assert_eq!(node.basis_text(), "tree and search");
    let s = node.search.as_ref().expect("confirmed");
    assert_eq!((s.verdict.as_str(), s.nodes), ("holds", 0));
    assert!(
        s.note.as_deref().unwrap_or("").contains("composed"),
        "{s:?}"
    );
}

#[test]
fn a_broken_white_node_is_still_rejected_when_its_answers_have_certificates() {
    // A case removed: White's c1 survives with no case; the tree fails (the composition is
    // only tried for a node the tree rules accept, and would be refused: c1 unanswered).
    let c = run(&COMPOSED.replace(
        "    case c1 => black b1 {\n      (t, [a3, b3], b) VC by search\n    }\n",
        "",
    ));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_eq!(step(&c, 4).verdict, StepVerdict::Failed);
    // A wrong reply (c1 answered by a2): its leaf's t - b is false, the node fails.
    let c = run(&COMPOSED.replace("case c1 => black b1", "case c1 => black a2"));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_ne!(step(&c, 4).verdict, StepVerdict::Verified);
    // An analysis with a cell dropped from its carrier: its search fails, the node fails.
    let c = run(&COMPOSED.replacen(
        "(t, [b1, c1], b) VC by search",
        "(t, [b1], b) VC by search",
        1,
    ));
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert_ne!(step(&c, 4).verdict, StepVerdict::Verified);
}

/// A fill-in leaf (the pair {b1, c1} captured by Black after b2, then the bridge a3/b3 to the
/// bottom) under a White node: the leaf's `t - b` on its carrier and the filled cells is
/// confirmed by a kernel certificate with one filled lemma leaf (kernel condition 7b), not
/// by a search, and the White node above composes from it.
const FILLED: &str = "board 3x3
strategy s {
  black b2
  white {
    case a3 => black b3 {
      fill captured black [b1, c1]
      t - b on [] by search
    }
    case b3 | * => black a3 {
      fill captured black [b1, c1]
      t - b on [] by search
    }
    case b1 => black c1 {
      t - b on [a3, b3] by search
    }
    case c1 => black b1 {
      t - b on [a3, b3] by search
    }
  }
}
";

#[test]
fn a_fill_in_leaf_is_confirmed_by_a_filled_kernel_certificate() {
    let c = run(FILLED);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    for line in [6, 10] {
        let leaf = steps_on(&c, line)
            .into_iter()
            .find(|s| s.rule == "leaf")
            .unwrap_or_else(|| panic!("no leaf on line {line}:\n{}", c.human()));
        let s = leaf.search.as_ref().expect("confirmed");
        assert_eq!((s.verdict.as_str(), s.nodes), ("holds", 0), "line {line}");
        assert!(
            s.note.as_deref().unwrap_or("").contains("condition 7b"),
            "line {line}: {s:?}"
        );
    }
    let white = steps_on(&c, 4)
        .into_iter()
        .find(|s| s.rule == "white node")
        .expect("the white node");
    let s = white.search.as_ref().expect("confirmed");
    assert_eq!((s.verdict.as_str(), s.nodes), ("holds", 0), "{s:?}");
}
