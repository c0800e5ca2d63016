//! Noshita's 8x8 lemmas (`proofs/noshita-8x8-lemmas.hexp`, issue 5): the U8 tree answers
//! White's hard moves as Lemma 2's proof does (Noshita 2005, §4), and every other White move
//! by B46 ("in other cases B46 suffices"). The file itself is checked by `tests/snapshots.rs`.

use hexproof::dsl::model::{BlockKind, TreeNode};

const FILE: &str = "proofs/noshita-8x8-lemmas.hexp";

/// The Noshita answers of Lemma 2's proof: White's hard moves and Black's answers.
const PAPER: [(&str, &str); 8] = [
    ("45", "55"),
    ("55", "45"),
    ("46", "65"),
    ("37", "46"),
    ("47", "46"),
    ("28", "46"),
    ("38", "46"),
    ("48", "46"),
];

fn module() -> hexproof::dsl::model::Module {
    let text = std::fs::read_to_string(FILE).expect("the proof file");
    let program = match hexproof::dsl::load_str(FILE, &text) {
        Ok(p) => p,
        Err(_) => panic!("{FILE} does not load"),
    };
    program.modules.into_iter().last().expect("a module")
}

/// Lemma U8 (the whole tree): every root case answers as the paper.
#[test]
fn u8_answers_whites_moves_as_lemma_2_does() {
    let module = module();
    let block = module
        .blocks
        .iter()
        .find(|b| b.kind == BlockKind::Lemma && b.name.as_deref() == Some("U8"))
        .expect("lemma U8 is in the file");
    let Some(TreeNode::White { cases, .. }) = &block.tree else {
        panic!("U8 is proved by a tree whose root is a White node")
    };
    let answers: Vec<(String, String)> = cases
        .iter()
        .map(|c| {
            let TreeNode::Black { cell, .. } = &c.reply else {
                panic!("a case's reply is a Black move")
            };
            (block.names.name(c.white), block.names.name(*cell))
        })
        .collect();
    for (w, b) in &answers {
        // Every White move but W45, W55, W46 is answered by B46 ("in other cases B46").
        let want = PAPER.iter().find(|(x, _)| x == w).map_or("46", |p| p.1);
        assert_eq!(b, want, "W{w}");
    }
    // One case per cell of the carrier (39 cells): no precluding analysis is used.
    assert_eq!(answers.len(), 39, "{answers:?}");
}

/// The branch lemmas `U8wNN` ("U8 after White NN and Black's answer"): each is in the position
/// of Lemma 2's proof after White's move and Noshita's answer.
#[test]
fn u8_branches_are_the_papers_cases() {
    let module = module();
    let mut seen = 0;
    for b in &module.blocks {
        let Some(w) = b.name.as_deref().and_then(|n| n.strip_prefix("U8w")) else {
            continue;
        };
        let (_, answer) = PAPER
            .iter()
            .find(|(x, _)| *x == w)
            .unwrap_or_else(|| panic!("U8w{w} is not a case of the paper"));
        let names = |c: hexproof::board::Colour| -> Vec<String> {
            b.position
                .stones(c)
                .iter()
                .map(|x| b.names.name(x))
                .collect()
        };
        let black = names(hexproof::board::Colour::Black);
        let white = names(hexproof::board::Colour::White);
        assert_eq!(white, vec![w.to_string()], "U8w{w}");
        assert!(black.contains(&answer.to_string()), "U8w{w}: {black:?}");
        assert!(black.contains(&"x".to_string()) && black.contains(&"y".to_string()));
        seen += 1;
    }
    assert_eq!(seen, PAPER.len(), "one branch lemma per case of the paper");
}
