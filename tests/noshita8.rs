//! Noshita's 8x8 lemmas (`proofs/noshita-8x8-lemmas.hexp`, issue 5): the U8 tree answers
//! White's hard moves as Lemma 2's proof does (Noshita 2005, §4), and every other White move
//! by B46 ("in other cases B46 suffices"). The file itself is checked by `tests/snapshots.rs`.

use hexproof::dsl::model::{BlockKind, TreeNode};

const FILE: &str = "proofs/noshita-8x8-lemmas.hexp";

/// The root cases of lemma U8's tree: (White's move, Black's answer), by name.
fn u8_root_answers() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(FILE).expect("the proof file");
    let program = match hexproof::dsl::load_str(FILE, &text) {
        Ok(p) => p,
        Err(_) => panic!("{FILE} does not load"),
    };
    let module = program.modules.last().expect("a module");
    let block = module
        .blocks
        .iter()
        .find(|b| b.kind == BlockKind::Lemma && b.name.as_deref() == Some("U8"))
        .expect("lemma U8");
    let Some(TreeNode::White { cases, .. }) = &block.tree else {
        panic!("U8 is proved by a tree whose root is a White node")
    };
    cases
        .iter()
        .map(|c| {
            let TreeNode::Black { cell, .. } = &c.reply else {
                panic!("a case's reply is a Black move")
            };
            (block.names.name(c.white), block.names.name(*cell))
        })
        .collect()
}

#[test]
fn u8_answers_whites_moves_as_lemma_2_does() {
    let answers = u8_root_answers();
    let paper = [("45", "55"), ("55", "45"), ("46", "65")];
    for (w, b) in paper {
        assert!(
            answers.iter().any(|(x, y)| x == w && y == b),
            "W{w} is answered by B{b} in the paper: {answers:?}"
        );
    }
    // Every other White move (W37, W47, W28, W38, W48 and the rest) is answered by B46.
    for (w, b) in &answers {
        if !paper.iter().any(|(x, _)| x == w) {
            assert_eq!(b, "46", "W{w}");
        }
    }
    // One case per cell of the carrier (39 cells): no precluding analysis is used.
    assert_eq!(answers.len(), 39, "{answers:?}");
}
