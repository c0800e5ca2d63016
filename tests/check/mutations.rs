//! Mutation suite: for every proof in `proofs/`, broken variants are generated and each must be
//! rejected. Mutations, all textual:
//! - remove one carrier cell from a step's conclusion (except monotonicity steps, which may
//!   drop the cells they add), or from a lemma's claim;
//! - flip a conclusion's kind (VC ↔ VSC);
//! - swap the rule (AND ↔ OR);
//! - add a White stone on a carrier cell of each block, and on a `*` cell of each diagram;
//! - in a step by several lemmas, drop each lemma; drop, or exchange A and B of, each AB
//!   guarantee that another lemma assumes.
//!
//! A mutant is rejected when a step fails or the input is bad (exit code 1 or 2).
//! - in a lemma diagram, each `*` becomes `.` (one carrier cell fewer);
//! - in a strategy: drop each case, drop each precluding analysis, change each Black reply to
//!   each neighbouring cell, the step mutations above on its leaves and analyses, and a
//!   file-level White stone on a carrier cell;
//! - in a strategy's shared positions (`position P black [..] white [..] { .. }`): the tree
//!   mutations above inside their bodies, each stone dropped from their lists, and each
//!   `goto P` sent to another shared position.

use hexproof::check::{check_source, Options};
use hexproof::dsl::ast::{
    BlockItem, CellList, FactAst, KindWord, Span, Statement, StepBody, TreeNode,
};
use hexproof::dsl::parser::parse;
use hexproof::local::Budget;

fn splice(src: &str, span: Span, with: &str) -> String {
    format!("{}{}{}", &src[..span.start], with, &src[span.end..])
}

fn without(list: &CellList, k: usize) -> String {
    let items: Vec<&str> = list
        .items
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, n)| n.text.as_str())
        .collect();
    format!("[{}]", items.join(", "))
}

/// What a strategy offers to mutate.
#[derive(Default)]
struct TreeWalk {
    cases: Vec<Span>,
    precludes: Vec<Span>,
    replies: Vec<hexproof::dsl::ast::Name>,
    steps: Vec<hexproof::dsl::ast::StepAst>,
    /// `goto P`: the name P.
    gotos: Vec<hexproof::dsl::ast::Name>,
    /// `fill dead [..]` / `fill captured C [..]` statements.
    fills: Vec<hexproof::dsl::ast::FillAst>,
}

impl TreeWalk {
    fn walk(&mut self, nodes: &[TreeNode]) {
        for n in nodes {
            match n {
                TreeNode::Black { body, goto, .. } => {
                    self.gotos.extend(goto.iter().cloned());
                    self.walk(body)
                }
                TreeNode::White {
                    precludes, cases, ..
                } => {
                    for (_, body, sp) in precludes {
                        self.precludes.push(*sp);
                        self.walk(body);
                    }
                    for (_, reply, sp, _) in cases {
                        self.cases.push(*sp);
                        if let TreeNode::Black { cell, .. } = reply.as_ref() {
                            self.replies.push(cell.clone());
                        }
                        self.walk(std::slice::from_ref(reply.as_ref()));
                    }
                }
                TreeNode::Step(s) => self.steps.push(s.clone()),
                TreeNode::Fill(f) => self.fills.push(f.clone()),
            }
        }
    }
}

/// The on-board neighbours of a cell in letters notation, or in Noshita's digits (`44`:
/// column 4, row 4) (boards up to 9x9 here).
fn neighbours(cell: &str) -> Vec<String> {
    let b = cell.as_bytes();
    if b.len() == 2 && b[0].is_ascii_digit() && b[1].is_ascii_digit() {
        let (c, r) = ((b[0] - b'1') as i32, (b[1] - b'1') as i32);
        return [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
            .iter()
            .map(|(dc, dr)| (c + dc, r + dr))
            .filter(|&(c, r)| (0..9).contains(&c) && (0..9).contains(&r))
            .map(|(c, r)| format!("{}{}", c + 1, r + 1))
            .collect();
    }
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_digit() {
        return Vec::new();
    }
    let (c, r) = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
        .iter()
        .map(|(dc, dr)| (c + dc, r + dr))
        .filter(|&(c, r)| (0..9).contains(&c) && (0..9).contains(&r))
        .map(|(c, r)| format!("{}{}", (b'a' + c as u8) as char, r + 1))
        .collect()
}

struct Mutant {
    what: String,
    text: String,
}

fn mutants(src: &str) -> Vec<Mutant> {
    let file = parse(src).expect("proofs parse");
    let mut out = Vec::new();
    let mut push = |what: String, text: String| out.push(Mutant { what, text });
    let at = |sp: Span| src[..sp.start].matches('\n').count() + 1;
    // The end of the `board` line: where a file-level `white CELL` goes.
    let board_start = if src.starts_with("board") {
        0
    } else {
        src.find("\nboard").expect("a board line") + 1
    };
    let board_end = src[board_start..]
        .find('\n')
        .map_or(src.len(), |i| board_start + i);
    // Strategies: drop a case, drop a precluding analysis, change a Black reply.
    for st in &file.statements {
        let Statement::Strategy(s) = st else { continue };
        let mut tw = TreeWalk::default();
        tw.walk(&s.body);
        for sh in &s.shared {
            tw.walk(&sh.body);
            // Each stone dropped from the shared position's lists.
            for list in sh.black.iter().chain(sh.white.iter()) {
                for k in 0..list.items.len() {
                    push(
                        format!(
                            "line {}: shared position {} without {}",
                            at(list.span),
                            sh.name.text,
                            list.items[k].text
                        ),
                        splice(src, list.span, &without(list, k)),
                    );
                }
            }
        }
        // Each `goto` sent to another shared position.
        for g in &tw.gotos {
            for sh in s.shared.iter().filter(|sh| sh.name.text != g.text) {
                push(
                    format!("line {}: goto {} → {}", at(g.span), g.text, sh.name.text),
                    splice(src, g.span, &sh.name.text),
                );
            }
        }
        for sp in &tw.cases {
            push(
                format!("line {}: case dropped", at(*sp)),
                splice(src, *sp, ""),
            );
        }
        for sp in &tw.precludes {
            push(
                format!("line {}: precluding analysis dropped", at(*sp)),
                splice(src, *sp, ""),
            );
        }
        // Fill-in (docs/SEMANTICS.md, "Fill-in in a leaf"): each fill dropped, each of its
        // cells moved to each neighbouring cell, a captured pair stated as a dead set.
        for f in &tw.fills {
            push(
                format!("line {}: fill dropped", at(f.span)),
                splice(src, f.span, ""),
            );
            for n in &f.cells.items {
                for other in neighbours(&n.text) {
                    push(
                        format!("line {}: filled cell {} → {other}", at(n.span), n.text),
                        splice(src, n.span, &other),
                    );
                }
            }
            if f.captured {
                let text = &src[f.span.start..f.span.end];
                let dead = text.replacen("captured black", "dead", 1).replacen(
                    "captured white",
                    "dead white",
                    1,
                );
                push(
                    format!("line {}: captured pair stated as dead", at(f.span)),
                    splice(src, f.span, &dead),
                );
            }
        }
        for n in &tw.replies {
            for other in neighbours(&n.text) {
                push(
                    format!("line {}: black reply {} → {other}", at(n.span), n.text),
                    splice(src, n.span, &other),
                );
            }
        }
    }
    // Lemma trees (a lemma proved by White's moves in its carrier): the same three mutations.
    for st in &file.statements {
        let Statement::Lemma(l) = st else { continue };
        let Some((node, _)) = &l.tree else { continue };
        let mut tw = TreeWalk::default();
        tw.walk(std::slice::from_ref(node));
        for sp in &tw.cases {
            push(
                format!("line {}: lemma tree case dropped", at(*sp)),
                splice(src, *sp, ""),
            );
        }
        for sp in &tw.precludes {
            push(
                format!("line {}: lemma tree precluding analysis dropped", at(*sp)),
                splice(src, *sp, ""),
            );
        }
        for n in &tw.replies {
            for other in neighbours(&n.text) {
                push(
                    format!("line {}: lemma tree reply {} → {other}", at(n.span), n.text),
                    splice(src, n.span, &other),
                );
            }
        }
    }
    let tree_items: Vec<(Vec<BlockItem>, Span)> = file
        .statements
        .iter()
        .filter_map(|st| match st {
            Statement::Strategy(s) => {
                let mut tw = TreeWalk::default();
                tw.walk(&s.body);
                for sh in &s.shared {
                    tw.walk(&sh.body);
                }
                Some((tw.steps.into_iter().map(BlockItem::Step).collect(), s.span))
            }
            _ => None,
        })
        .collect();
    let mut trees = tree_items.iter();
    // An AB guarantee that another lemma assumes: dropped, or with A and B exchanged.
    let assumed: Vec<(String, String)> = file
        .statements
        .iter()
        .filter_map(|st| match st {
            Statement::Lemma(l) => Some(l),
            _ => None,
        })
        .flat_map(|l| l.assumes.iter())
        .map(|(_, a, _, b, _)| (a.text.clone(), b.text.clone()))
        .collect();
    for st in &file.statements {
        let Statement::Lemma(l) = st else { continue };
        for (_, a, _, b, sp) in &l.guarantees {
            if assumed.contains(&(a.text.clone(), b.text.clone())) {
                push(
                    format!("line {}: guarantee dropped", at(*sp)),
                    splice(src, *sp, ""),
                );
                let swapped = splice(&splice(src, b.span, &a.text), a.span, &b.text);
                push(
                    format!("line {}: guarantee's A and B exchanged", at(*sp)),
                    swapped,
                );
            }
        }
    }
    for st in &file.statements {
        // A lemma drawn as a diagram: each `*` becomes `.` (one carrier cell fewer).
        if let Statement::Lemma(l) = st {
            if let Some((body, sp)) = &l.diagram {
                for (i, _) in body.match_indices('*') {
                    let at_star = Span::new(sp.start + i, sp.start + i + 1);
                    push(
                        format!(
                            "line {}: lemma {} without a carrier cell of its diagram",
                            at(at_star),
                            l.name.text
                        ),
                        splice(src, at_star, "."),
                    );
                }
            }
        }
        let is_tree = matches!(st, Statement::Strategy(_));
        let (items, lemma_claim, block_span): (
            Vec<&BlockItem>,
            Option<&hexproof::dsl::ast::ClaimDecl>,
            Span,
        ) = match st {
            Statement::Lemma(l) => (
                l.proof
                    .as_ref()
                    .map(|p| p.0.iter().collect())
                    .unwrap_or_default(),
                l.claim.as_ref(),
                l.span,
            ),
            Statement::Derive(d) => (d.items.iter().collect(), None, d.span),
            Statement::Strategy(_) => {
                let (its, sp) = trees.next().expect("one entry per strategy");
                (its.iter().collect(), None, *sp)
            }
            _ => continue,
        };
        // A White stone inside a diagram's carrier: its first `*` becomes `o`.
        if let Statement::Lemma(l) = st {
            if let Some((body, sp)) = &l.diagram {
                if let Some(i) = body.find('*') {
                    let at_star = Span::new(sp.start + i, sp.start + i + 1);
                    push(
                        format!(
                            "line {}: diagram with a white stone on its first carrier cell",
                            at(at_star)
                        ),
                        splice(src, at_star, "o"),
                    );
                }
            }
        }
        if let Some(cd) = lemma_claim {
            if let Some(hexproof::dsl::ast::CarrierSpec::List(list)) = &cd.carrier {
                for k in 0..list.items.len() {
                    push(
                        format!(
                            "line {}: lemma claim without {}",
                            at(list.span),
                            list.items[k].text
                        ),
                        splice(src, list.span, &without(list, k)),
                    );
                }
            }
        }
        let mut first_carrier_cell: Option<String> = None;
        for it in items {
            let BlockItem::Step(s) = it else { continue };
            let (fact, rule_word) = match &s.body {
                StepBody::Rule { fact, .. } => (fact, None),
                StepBody::Paper {
                    fact, rule_span, ..
                } => (fact, Some(*rule_span)),
                StepBody::Qed => continue,
            };
            let line = at(s.span);
            let list = match fact {
                FactAst::Triple { triple, .. } => Some(&triple.carrier),
                FactAst::General {
                    carrier: hexproof::dsl::ast::CarrierSpec::List(l),
                    ..
                } => Some(l),
                _ => None,
            };
            // Monotonicity may drop any cell it added: such mutants are equivalent, not broken.
            let mono = matches!(
                &s.body,
                StepBody::Rule {
                    just: Some(hexproof::dsl::ast::JustAst::Mono(..)),
                    ..
                }
            );
            if let (Some(list), false) = (list, mono) {
                for k in 0..list.items.len() {
                    push(
                        format!("line {line}: conclusion without {}", list.items[k].text),
                        splice(src, list.span, &without(list, k)),
                    );
                }
                if first_carrier_cell.is_none() {
                    first_carrier_cell = list.items.first().map(|n| n.text.clone());
                }
            }
            if let FactAst::Triple { kind, span, .. } = fact {
                // The kind word is the last VC/VSC in the fact's text.
                let text = &src[span.start..span.end];
                let (from, to) = match kind {
                    KindWord::Vc => ("VC", "VSC"),
                    KindWord::Vsc => ("VSC", "VC"),
                };
                if let Some(i) = text.rfind(from) {
                    let sp = Span::new(span.start + i, span.start + i + from.len());
                    push(format!("line {line}: {from} → {to}"), splice(src, sp, to));
                }
            }
            if let Some(rs) = rule_word {
                let w = &src[rs.start..rs.end];
                let other = if w.eq_ignore_ascii_case("and") {
                    "OR"
                } else {
                    "AND"
                };
                push(
                    format!("line {line}: Apply {w} → {other}"),
                    splice(src, rs, other),
                );
            } else if let StepBody::Rule { just: Some(j), .. } = &s.body {
                // A step by several lemmas: each lemma dropped in turn.
                if let hexproof::dsl::ast::JustAst::Lemma(refs, _) = j {
                    if refs.len() > 1 {
                        for k in 0..refs.len() {
                            let kept: Vec<&str> = refs
                                .iter()
                                .enumerate()
                                .filter(|(i, _)| *i != k)
                                .map(|(_, r)| &src[r.span.start..r.span.end])
                                .collect();
                            let sp = Span::new(refs[0].span.start, refs[refs.len() - 1].span.end);
                            push(
                                format!("line {line}: lemma {} dropped", refs[k].name.text),
                                splice(src, sp, &kept.join(", ")),
                            );
                        }
                    }
                }
                let js = j.span();
                let text = &src[js.start..js.end];
                for (from, to) in [("by AND", "by OR"), ("by OR", "by AND")] {
                    if text.starts_with(from) {
                        let sp = Span::new(js.start, js.start + from.len());
                        push(format!("line {line}: {from} → {to}"), splice(src, sp, to));
                    }
                }
            }
        }
        // A White stone inside a carrier: insert `white CELL` as the block's first line.
        if let (Some(c), true) = (&first_carrier_cell, is_tree) {
            // In a strategy: a file-level white stone (the tree's position is the file's).
            let sp = Span::new(board_end, board_end);
            push(
                format!("strategy at line {}: white stone on {c}", at(block_span)),
                splice(src, sp, &format!("\nwhite {c}")),
            );
        } else if let Some(c) = first_carrier_cell {
            let open = src[block_span.start..].find('{').unwrap() + block_span.start + 1;
            let sp = Span::new(open, open);
            let decl = format!(
                "
  white {c}
"
            );
            push(
                format!("block at line {}: white stone on {c}", at(block_span)),
                splice(src, sp, &decl),
            );
        }
    }
    out
}

/// Noshita's 7x7 tree: 388 steps, every check of it costs a few seconds of searches, and it
/// has thousands of mutants. The normal run checks a deterministic sample of 8 of them;
/// `heavy_proofs_sampled_mutants` (ignored) a bigger one (`HEAVY_MUTANTS=N`, default 60).
/// The one-node proof's AND-lemma is a conjunction search of ~7 s CPU, paid by every check of
/// the file: 4 mutants in the normal run.
const HEAVY: &[&str] = &["noshita-7x7.hexp", "noshita-7x7-one-node.hexp"];

/// Every `.hexp` file in `proofs/`; only the heavy ones with `heavy`.
fn proof_files(heavy: bool) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("proofs")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "hexp") {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                // `MUTANTS_ONLY=noshita-8x8`: only the files whose name contains it.
                let only = std::env::var("MUTANTS_ONLY").unwrap_or_default();
                if !name.contains(only.as_str()) {
                    continue;
                }
                // The solver's exported proofs (proofs/solver/) are not mutated: their leaf
                // carriers are proof sets, not minimal, so dropping a cell often leaves a true
                // (and rightly accepted) claim. tests/solver/solver_emit.rs checks them, that they
                // fail without their `| *` cases, and mutates the 6×6 a1 export where a mutant
                // must fail (`synthesized_proof_mutants_are_rejected`).
                // proofs/yang-9x9/ holds solver exports too (the e8 line of issue 27).
                if p.parent()
                    .is_some_and(|d| d.ends_with("solver") || d.ends_with("yang-9x9"))
                {
                    continue;
                }
                if !heavy || HEAVY.contains(&name.as_str()) {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

/// How many mutants of a file to check (every k-th one): `None` = all. Noshita's files
/// (issue 5) are sampled.
fn sample_size(f: &std::path::Path, heavy: bool) -> Option<usize> {
    let name = f.file_name()?.to_string_lossy().to_string();
    if HEAVY.contains(&name.as_str()) {
        Some(if heavy {
            std::env::var("HEAVY_MUTANTS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(60)
        } else if name == "noshita-7x7-one-node.hexp" {
            4
        } else {
            8
        })
    } else if name.starts_with("noshita-7x7") {
        Some(40)
    } else if name.starts_with("noshita-8x8") {
        // The 8x8 lemma trees: each check re-searches every leaf and confirms the lemmas'
        // claims (~5 s CPU). `MUTANTS_ONLY=noshita-8x8` checks this file alone.
        Some(4)
    } else {
        None
    }
}

/// Generates, checks and counts the mutants of `files`; returns (total, accepted).
fn run_mutants(files: &[std::path::PathBuf], heavy: bool) -> (usize, Vec<String>) {
    // Rejections must come from the rules: rule steps are not searched, and the search is
    // kept small (a big lemma claim is then undecided, and its proof carries it). A mutant is
    // rejected when a step fails or the input is bad (exit code 1 or 2); the originals have
    // no failed step (exit 0, or 3 where a `by search` lemma is over this small budget).
    // Noshita's files have `by search` steps of up to ~400 000 nodes inside their trees:
    // they and their mutants get the default budget (rule steps still not searched).
    let opts = Options {
        budget: Budget::nodes(2_000),
        confirm: Budget::nodes(2_000),
        search_rule_steps: false,
    };
    // Node budgets only (no wall-clock cap), so a verdict does not depend on the load.
    let mut full = Options::default();
    full.budget.time = None;
    full.confirm.time = None;
    let big = Options {
        search_rule_steps: false,
        ..full
    };
    let mut total = 0;
    let mut rejected = 0;
    let mut accepted = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f).unwrap();
        let sample = sample_size(f, heavy);
        let base = if sample.is_some() { &big } else { &opts };
        let original = check_source(&f.display().to_string(), &src, base);
        assert!(
            matches!(original.report.exit_code, 0 | 3) && original.report.counts.failed == 0,
            "{} must verify:\n{}",
            f.display(),
            original.human()
        );
        let mut ms = mutants(&src);
        let generated = ms.len();
        if let Some(n) = sample {
            let k = generated.div_ceil(n.max(1)).max(1);
            ms = ms.into_iter().step_by(k).collect();
        }
        let mut file_rejected = 0;
        let mut bad_input = 0;
        for m in &ms {
            // A diagram lemma is proved by search alone: give its mutants the full budget.
            let o = if m.what.contains("diagram") {
                &full
            } else {
                base
            };
            // `use`d files are read relative to the checked file's folder.
            let c = check_source(&f.display().to_string(), &m.text, o);
            total += 1;
            if matches!(c.report.exit_code, 1 | 2) {
                rejected += 1;
                file_rejected += 1;
                if c.report.exit_code == 2 {
                    bad_input += 1;
                }
                if std::env::var_os("MUTANTS_VERBOSE").is_some() {
                    println!("  exit {}: {}", c.report.exit_code, m.what);
                }
            } else {
                accepted.push(format!("{}: {}", f.display(), m.what));
            }
        }
        println!(
            "{}: {} mutants generated, {} checked{}, {} rejected ({} by a failed step, {} as bad input)",
            f.display(),
            generated,
            ms.len(),
            if sample.is_some() { " (deterministic sample)" } else { "" },
            file_rejected,
            file_rejected - bad_input,
            bad_input
        );
    }
    println!("total: {total} mutants checked, {rejected} rejected");
    (total, accepted)
}

#[test]
fn every_mutant_of_every_proof_is_rejected() {
    let (total, accepted) = run_mutants(&proof_files(false), false);
    let filtered = std::env::var("MUTANTS_ONLY").is_ok_and(|s| !s.is_empty());
    assert!(total > 100 || filtered, "too few mutants: {total}");
    assert!(
        accepted.is_empty(),
        "mutants accepted:\n{}",
        accepted.join("\n")
    );
}

#[test]
#[ignore = "Noshita's 7x7 tree, a bigger sample: HEAVY_MUTANTS=N (default 60), seconds per mutant"]
fn heavy_proofs_sampled_mutants() {
    let (total, accepted) = run_mutants(&proof_files(true), true);
    assert!(total > 0, "no mutants");
    assert!(
        accepted.is_empty(),
        "mutants accepted:\n{}",
        accepted.join("\n")
    );
}

/// The shared positions of proofs/examples/hex3-shared.hexp are mutated (their stone lists,
/// the `goto`s' targets, the replies leading to them) and every such mutant is rejected, each
/// by a failed step (a `goto` that no longer reaches its position), not as bad input.
#[test]
fn shared_positions_are_mutated() {
    let f = std::path::Path::new("proofs/examples/hex3-shared.hexp");
    let src = std::fs::read_to_string(f).unwrap();
    let ms = mutants(&src);
    let shared: Vec<&Mutant> = ms
        .iter()
        .filter(|m| m.what.contains("shared position") || m.what.contains("goto"))
        .collect();
    // P and Q: 3 + 2 stones each; two gotos to each, sent to the other.
    assert_eq!(
        shared.len(),
        14,
        "{:?}",
        shared.iter().map(|m| &m.what).collect::<Vec<_>>()
    );
    for m in shared {
        let c = check_source("hex3-shared.hexp", &m.text, &Options::default());
        assert_eq!(c.report.exit_code, 1, "{}: {}", m.what, c.human());
        assert!(
            c.human().contains("reaches a different position"),
            "{}",
            m.what
        );
    }
}

/// The fill-in example (tests/fixtures/fill-captured.hexp, written for this suite: the 3×3
/// leaf of tests/kernel/rules.rs `FILL` inside a White node) is verified, and every mutant of its
/// fill lines (dropped, a cell moved, a captured pair stated as dead) is rejected.
#[test]
fn fill_lines_are_mutated() {
    let f = std::path::Path::new("tests/fixtures/fill-captured.hexp");
    let src = std::fs::read_to_string(f).unwrap();
    let opts = Options {
        budget: Budget::nodes(200_000),
        ..Options::default()
    };
    let ok = check_source("fill.hexp", &src, &opts);
    assert_eq!(ok.report.exit_code, 0, "{}", ok.human());
    let ms: Vec<Mutant> = mutants(&src)
        .into_iter()
        .filter(|m| m.what.contains("fill") || m.what.contains("captured"))
        .collect();
    assert!(ms.len() >= 5, "{} fill mutants", ms.len());
    for m in &ms {
        let c = check_source("fill.hexp", &m.text, &opts);
        assert_ne!(c.report.exit_code, 0, "accepted: {}\n{}", m.what, m.text);
    }
}

/// A leaf as the emitter writes it when no derivation is found (tests/fixtures/fill-search-6x6.hexp,
/// from the export of 6×6 b5): the fill-in the checker justifies, then a search in the filled
/// position. Within 20,000 nodes (the emitter's leaf budget on 7×7) it is verified, while the
/// same leaf unfilled — the only search leaf the emitter wrote before — is undecided (its
/// search needs 20,652 nodes). Each mutant is rejected: a carrier cell the search needs dropped,
/// the captured pair's line dropped (its cells are then White in the restricted game), a dead
/// cell that is not dead, a pair that is not captured, and the captured pair stated as dead.
#[test]
fn a_fill_in_search_leaf_closes_what_the_plain_search_does_not_and_its_mutants_fail() {
    let src = std::fs::read_to_string("tests/fixtures/fill-search-6x6.hexp").unwrap();
    let opts = Options {
        budget: Budget::nodes(20_000),
        ..Options::default()
    };
    let ok = check_source("fill-search.hexp", &src, &opts);
    assert_eq!(ok.report.exit_code, 0, "{}", ok.human());
    let search = "t - b on [a1, b1, c1, a2, b2, c2, e2, a3, b3, c3, d3, e3, d4, e4, c5, d5, b6, c6, d6] by search";
    let dead = "    fill dead [a5]\n";
    let captured = "    fill captured black [d1, e1]\n";
    assert!(src.contains(search) && src.contains(dead) && src.contains(captured));
    // The old form: no fill, the filled cells back in the search's carrier.
    let plain = src
        .replace(dead, "")
        .replace(captured, "")
        .replace("on [a1, b1, c1, a2,", "on [a1, b1, c1, d1, e1, a2,");
    let plain = plain.replace("c3, d3, e3, d4, e4, c5,", "c3, d3, e3, d4, e4, a5, c5,");
    let c = check_source("plain.hexp", &plain, &opts);
    assert_eq!(c.report.exit_code, 3, "{}", c.human());
    let mutants = [
        (
            "the search's carrier without b1",
            src.replace("[a1, b1, c1, a2,", "[a1, c1, a2,"),
            "the claim is false",
        ),
        (
            "the captured pair's line dropped",
            src.replace(captured, ""),
            "the claim is false",
        ),
        (
            "c5 (a cell the search needs) filled as dead instead of a5",
            src.replace("fill dead [a5]", "fill dead [c5]")
                .replace("e4, c5, d5", "e4, a5, d5"),
            "not justified",
        ),
        (
            "the pair c1, d1 as captured instead of d1, e1",
            src.replace("[d1, e1]", "[c1, d1]")
                .replace("[a1, b1, c1, a2,", "[a1, b1, e1, a2,"),
            "not justified",
        ),
        (
            "the captured pair stated as dead",
            src.replace("fill captured black [d1, e1]", "fill dead [d1, e1]"),
            "not justified",
        ),
    ];
    let strict = Options {
        budget: Budget::nodes(2_000_000),
        ..Options::default()
    };
    for (what, text, why) in &mutants {
        assert_ne!(&text[..], &src[..], "{what}: no change");
        let c = check_source("fill-search.hexp", text, &strict);
        assert_eq!(c.report.exit_code, 1, "accepted: {what}\n{}", c.human());
        assert!(
            c.human().contains(why),
            "{what}: not for `{why}`\n{}",
            c.human()
        );
    }
}

/// Mutants of the AB guarantees of Noshita's 8x8 file (issue 5): (lemma, A, B) of a
/// `guarantee white A => black B` line that must be rejected. The generic mutants above
/// only touch guarantees that another lemma assumes, and not every exchange is false (ABT's
/// guarantee holds for all 56 ordered pairs of its T cells, Fig37R's holds with A and B
/// exchanged, `white 36 => black 46`), so these are chosen, and each is confirmed false here
/// without the guarantee game: White plays A at once, the mutated guarantee forces Black's B,
/// and the exact search refutes the claim on the rest of the carrier. ABT has no such mutant.
const GUARANTEE_MUTANTS: &[(&str, &str, &str, &str)] = &[
    (
        "Fig37R",
        "45",
        "36",
        "a wrong A (45: only B55 or B65 keep the claim)",
    ),
    ("Fig37R", "46", "47", "a wrong B"),
    ("Fig37R", "46", "56", "a wrong B"),
    ("Fig39R", "47", "46", "A and B exchanged"),
    ("Fig39R", "46", "63", "a wrong B"),
];

/// Each guarantee mutant of [`GUARANTEE_MUTANTS`], checked on its lemma alone (the lemmas are
/// self-contained), is rejected by a failed AB-guarantee step; the original lemma verifies.
/// About 2 s CPU.
#[test]
fn noshita_guarantee_mutants_are_rejected() {
    let src = std::fs::read_to_string("proofs/noshita-8x8-lemmas.hexp").unwrap();
    let lemma_text = |name: &str| -> String {
        let start = src
            .find(&format!("lemma {name} \""))
            .unwrap_or_else(|| panic!("lemma {name}"));
        let end = start + src[start..].find("\n}\n").expect("its end") + 3;
        src[start..end].to_string()
    };
    let guarantee_line = |text: &str| -> String {
        let g = text.find("  guarantee ").expect("a guarantee");
        let e = g + text[g..].find('\n').unwrap();
        text[g..e].to_string()
    };
    let full = {
        let mut o = Options::default();
        o.budget.time = None;
        o.confirm.time = None;
        o
    };
    let check = |text: &str| {
        check_source(
            "mutant.hexp",
            &format!("board 8x8 notation digits\n{text}"),
            &full,
        )
    };
    let mut lemmas: Vec<&str> = GUARANTEE_MUTANTS.iter().map(|m| m.0).collect();
    lemmas.dedup();
    for name in lemmas {
        let c = check(&lemma_text(name));
        assert_eq!(c.report.exit_code, 0, "{name} must verify:\n{}", c.human());
    }
    for &(name, a, b, what) in GUARANTEE_MUTANTS {
        let text = lemma_text(name);
        let line = guarantee_line(&text);
        let mutated = text.replace(&line, &format!("  guarantee white {a} => black {b}"));
        let c = check(&mutated);
        assert_eq!(
            c.report.exit_code,
            1,
            "{name}, {what}: accepted\n{}",
            c.human()
        );
        assert!(
            c.human().contains("black has no strategy that wins"),
            "{name}, {what}: not rejected by the guarantee game\n{}",
            c.human()
        );
        // Confirmed false without the guarantee game: after White's A and Black's B the
        // lemma's claim on the rest of the carrier fails by search.
        let has_white = text.lines().any(|l| l.trim_start().starts_with("white "));
        let mut after = String::new();
        for l in text.lines() {
            let t = l.trim_start();
            if t.starts_with("guarantee ") {
                continue;
            } else if t.starts_with("black ") {
                after += &format!("{l}, {b}\n");
                if !has_white {
                    after += &format!("  white {a}\n");
                }
            } else if t.starts_with("white ") {
                after += &format!("{l}, {a}\n");
            } else if t.starts_with("carrier [") {
                let cells: Vec<&str> = t["carrier [".len()..t.len() - 1]
                    .split_whitespace()
                    .filter(|&c| c != a && c != b)
                    .collect();
                after += &format!("  carrier [{}]\n", cells.join(" "));
            } else {
                after += &format!("{l}\n");
            }
        }
        let c = check(&after);
        assert_eq!(
            c.report.exit_code,
            1,
            "{name}, {what}: the claim after W{a} B{b} is not refuted\n{after}\n{}",
            c.human()
        );
        assert!(c.human().contains("refut"), "{}", c.human());
    }
}

/// Issue 26's mutation suite on a synthesized proof (proofs/solver/7x7-d4.hexp, the solver's
/// 59-Black-node strategy, which the file-wide suite above skips): a dropped case, a wrong
/// Black reply (another cell of the board) and a dropped precluding analysis are each
/// rejected, and for the right reason — a dropped case or analysis by the White node's
/// coverage ("every White move has a case"), a wrong reply by a failed step inside the
/// changed case (its lines) or as bad input (a reply on a stone). Checked with rule steps
/// unsearched (the `by search` steps still search), 0.6 CPU-s a mutant; a deterministic
/// sample of `SYNTH_MUTANTS` (default 6) of each kind.
#[test]
fn synthesized_d4_mutants_are_rejected_for_the_right_reason() {
    use hexproof::check::report::StepVerdict;
    let path = "proofs/solver/7x7-d4.hexp";
    let src = std::fs::read_to_string(path).unwrap();
    let mut opts = Options {
        search_rule_steps: false,
        ..Options::default()
    };
    opts.budget.time = None;
    let original = check_source(path, &src, &opts);
    assert_eq!(original.report.exit_code, 0, "{}", original.human());
    // The lines each case spans (a wrong reply must fail inside them).
    let file = parse(&src).expect("parses");
    let mut tw = TreeWalk::default();
    for st in &file.statements {
        let Statement::Strategy(s) = st else { continue };
        tw.walk(&s.body);
        for sh in &s.shared {
            tw.walk(&sh.body);
        }
    }
    let line_of = |at: usize| src[..at].matches('\n').count() + 1;
    let case_lines: Vec<(usize, usize)> = tw
        .cases
        .iter()
        .map(|sp| (line_of(sp.start), line_of(sp.end)))
        .collect();
    let on_board = |c: &str| {
        let b = c.as_bytes();
        b.len() == 2 && (b'a'..=b'g').contains(&b[0]) && (b'1'..=b'7').contains(&b[1])
    };
    let per_kind: usize = std::env::var("SYNTH_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let all = mutants(&src);
    let mut checked = 0;
    for kind in ["case dropped", "black reply", "precluding analysis dropped"] {
        let ms: Vec<&Mutant> = all
            .iter()
            .filter(|m| m.what.contains(kind))
            .filter(|m| kind != "black reply" || m.what.rsplit(' ').next().is_some_and(on_board))
            .collect();
        assert!(!ms.is_empty(), "no {kind} mutants");
        let k = ms.len().div_ceil(per_kind).max(1);
        for m in ms.into_iter().step_by(k) {
            checked += 1;
            let c = check_source(path, &m.text, &opts);
            let line: usize = m.what["line ".len()..]
                .split(':')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a line");
            let failed: Vec<_> = c
                .report
                .files
                .iter()
                .flat_map(|f| f.blocks.iter())
                .flat_map(|b| b.steps.iter())
                .filter(|s| s.verdict == StepVerdict::Failed)
                .collect();
            let right = match kind {
                "black reply" => {
                    let (from, to) = *case_lines
                        .iter()
                        .find(|(a, _)| *a == line)
                        .expect("the reply's case");
                    c.report.exit_code == 2
                        || failed.iter().any(|s| (from..=to).contains(&s.at.line))
                }
                _ => {
                    c.report.exit_code == 1
                        && failed.iter().any(|s| {
                            s.reasons
                                .iter()
                                .any(|r| r.condition == "every White move has a case")
                        })
                }
            };
            assert!(
                matches!(c.report.exit_code, 1 | 2) && right,
                "{path}: {} (exit {}) not rejected for its reason:\n{}",
                m.what,
                c.report.exit_code,
                c.human()
            );
        }
    }
    println!("{path}: {checked} synthesized-proof mutants rejected for their reasons");
}
