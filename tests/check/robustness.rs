//! The language front end never panics: random edits of the proof files (and random text) go
//! through parsing, elaboration and checking, ending in a report.

use hexproof::check::{check_source, Options};
use hexproof::local::Budget;
use proptest::prelude::*;

fn corpus() -> Vec<String> {
    [
        "proofs/anshelevich-appendix-b.hexp",
        "proofs/examples/ziggurat.hexp",
        "proofs/examples/noshita-style.hexp",
        "tests/fixtures/anshelevich-as-printed.hexp",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(p).unwrap())
    .collect()
}

fn opts() -> Options {
    Options {
        budget: Budget::nodes(500),
        confirm: Budget::nodes(500),
        search_rule_steps: true,
    }
}

const PIECES: &[&str] = &[
    "(", ")", "[", "]", ",", ".", ":", "-", "|", "{", "}", "=>", "\"", "//", "\n", " ", "x", "b",
    "t", "16", "d4", "44", "VC", "VSC", "AND", "OR", "by", "is", "Apply", "lemma", "derive",
    "strategy", "white", "black", "cells", "cell", "set", "diagram", "claim", "proof", "on",
    "first", "for", "rule1", "rule2", "mono", "search", "QED", "case", "preclude", "use", "*", "o",
    "A", "é", "\u{feff}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn edits_of_real_files_never_panic(file in 0usize..4, edits in proptest::collection::vec((any::<u16>(), 0u8..3, 0usize..PIECES.len()), 1..6)) {
        let mut text = corpus()[file].clone();
        for (pos, op, piece) in edits {
            let mut at = pos as usize % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match op {
                0 => text.insert_str(at, PIECES[piece]),
                1 => {
                    let mut end = (at + 1 + piece % 7).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(at..end, "");
                }
                _ => {
                    let mut end = (at + 2).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(at..end, PIECES[piece]);
                }
            }
        }
        let c = check_source("fuzz.hexp", &text, &opts());
        let _ = c.human();
        prop_assert!(c.report.exit_code <= 3);
    }

    #[test]
    fn random_token_soup_never_panics(tokens in proptest::collection::vec(0usize..PIECES.len(), 0..60)) {
        let mut text = String::from("board 5x5\n");
        for t in tokens {
            text.push_str(PIECES[t]);
            text.push(' ');
        }
        let c = check_source("soup.hexp", &text, &opts());
        let _ = c.human();
        prop_assert!(c.report.exit_code <= 3);
    }
}
