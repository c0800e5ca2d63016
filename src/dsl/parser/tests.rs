//! Parser unit tests: every construct of the grammar, and error positions.

use super::*;

fn ok(src: &str) -> File {
    match parse(src) {
        Ok(f) => f,
        Err(e) => panic!("parse failed at {:?}: {}\n{src}", e.span, e.message),
    }
}

fn err(src: &str) -> ParseError {
    match parse(src) {
        Ok(_) => panic!("expected a syntax error in:\n{src}"),
        Err(e) => e,
    }
}

fn steps(f: &File) -> Vec<&StepAst> {
    f.statements
        .iter()
        .flat_map(|s| match s {
            Statement::Derive(d) => d
                .items
                .iter()
                .filter_map(|i| match i {
                    BlockItem::Step(s) => Some(s),
                    _ => None,
                })
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn header_and_comments() {
    let f = ok("// a comment\nboard 7x7 notation digits // trailing\n");
    assert_eq!(f.board.size.text, "7x7");
    assert_eq!(f.board.notation.map(|n| n.0), Some(NotationWord::Digits));
    let f = ok("board 11\ncell x = a1\nnotation letters\n");
    assert_eq!(f.board.size.text, "11");
    assert!(matches!(
        f.statements[1],
        Statement::Notation(NotationWord::Letters, _)
    ));
}

#[test]
fn board_is_required_first() {
    let e = err("lemma a { claim x - b }");
    assert_eq!(e.span.start, 0);
    assert!(e.message.contains("`board`"), "{}", e.message);
}

#[test]
fn declarations() {
    let f = ok(
        "board 9x9\ncell x = e5\ncell y = b\ncells { 1 = c3, 2 = d3; 3 = e3 4 = f3 }\n\
                set S = [c3 d3, e3]\nblack x, g7 as a\nwhite c4\nuse \"other.hexp\"\n",
    );
    let mut kinds = Vec::new();
    for s in &f.statements {
        kinds.push(match s {
            Statement::Setup(Setup::Cell { name, target, .. }) => {
                format!("cell {}={}", name.text, target.text)
            }
            Statement::Setup(Setup::Cells { bindings, .. }) => format!("cells {}", bindings.len()),
            Statement::Setup(Setup::Set { name, cells, .. }) => {
                format!("set {} {}", name.text, cells.items.len())
            }
            Statement::Setup(Setup::Stones { colour, stones, .. }) => format!(
                "{:?} {}",
                colour,
                stones
                    .iter()
                    .map(|(c, a)| format!(
                        "{}{}",
                        c.text,
                        a.as_ref()
                            .map(|a| format!(" as {}", a.text))
                            .unwrap_or_default()
                    ))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Statement::Use { path, .. } => format!("use {path}"),
            _ => "other".into(),
        });
    }
    assert_eq!(
        kinds,
        vec![
            "cell x=e5",
            "cell y=b",
            "cells 4",
            "set S 3",
            "Black x,g7 as a",
            "White c4",
            "use other.hexp"
        ]
    );
}

#[test]
fn spans_are_byte_offsets_of_the_whole_file() {
    let src = "board 7x7\n\ncell x = d4\n";
    let f = ok(src);
    let Statement::Setup(Setup::Cell { name, target, .. }) = &f.statements[0] else {
        panic!()
    };
    assert_eq!(&src[name.span.start..name.span.end], "x");
    assert_eq!(&src[target.span.start..target.span.end], "d4");
}

#[test]
fn lemma_with_diagram_claim_and_proof() {
    let src = "board 3x2\nlemma bridge \"the bridge\" {\n  diagram {  // legend\n    x * .\n     * A .  // } in a comment\n  }\n  claim x - A for black\n}\n";
    let f = ok(src);
    let Statement::Lemma(l) = &f.statements[0] else {
        panic!()
    };
    assert_eq!(l.name.text, "bridge");
    assert_eq!(l.title.as_deref(), Some("the bridge"));
    let (body, sp) = l.diagram.as_ref().unwrap();
    assert!(body.contains("x * ."));
    assert_eq!(&src[sp.start..sp.end], body.as_str());
    let c = l.claim.as_ref().unwrap();
    assert_eq!(c.claim.pairs.len(), 1);
    assert_eq!(c.claim.owner.map(|o| o.0), Some(ColourWord::Black));
    assert!(c.carrier.is_none());
}

#[test]
fn lemma_with_cell_lists_union_semi_and_guarantee() {
    let f = ok("board 7x7 notation digits\nlemma U1 {\n  black 44\n  carrier [41, 51 52]\n  claim t - 44 | t - b first black\n  guarantee white 43 => black 53\n}\nlemma S {\n claim x - y on [12, 13] by search\n cell x = 11\n cell y = 22\n}\n");
    let Statement::Lemma(l) = &f.statements[0] else {
        panic!()
    };
    assert_eq!(l.carrier.as_ref().unwrap().items.len(), 3);
    let c = &l.claim.as_ref().unwrap().claim;
    assert_eq!(c.pairs.len(), 2);
    assert_eq!(c.first.map(|x| x.0), Some(ColourWord::Black));
    assert_eq!(l.guarantees.len(), 1);
    let Statement::Lemma(s) = &f.statements[1] else {
        panic!()
    };
    assert!(s.claim.as_ref().unwrap().carrier.is_some());
}

#[test]
fn triple_steps_with_rules() {
    let f = ok("board 7x7\nderive \"d\" {\n  (x, [16, 19], 15) VC by OR (x, [16], 15) (x, [19], 15)\n  (x, [16], 15) VSC by AND (x, [], 16), (16, [], 15)\n  (x, [], 16) VC\n  (x, [], 16) vc by search\n  (a, [], b) VC for white\n}\n");
    let st = steps(&f);
    assert_eq!(st.len(), 5);
    match &st[0].body {
        StepBody::Rule {
            fact: FactAst::Triple { triple, kind, .. },
            just: Some(JustAst::Or(ps, _)),
        } => {
            assert_eq!(*kind, KindWord::Vc);
            assert_eq!(triple.carrier.items.len(), 2);
            assert_eq!(ps.len(), 2);
        }
        b => panic!("{b:?}"),
    }
    assert!(
        matches!(&st[1].body, StepBody::Rule { just: Some(JustAst::And(ps, _)), .. } if ps.len() == 2)
    );
    assert!(matches!(&st[2].body, StepBody::Rule { just: None, .. }));
    assert!(matches!(
        &st[3].body,
        StepBody::Rule {
            just: Some(JustAst::Search(_)),
            ..
        }
    ));
    assert!(matches!(
        &st[4].body,
        StepBody::Rule {
            fact: FactAst::Triple {
                owner: Some((ColourWord::White, _)),
                ..
            },
            ..
        }
    ));
}

#[test]
fn paper_style_steps() {
    let src = "board 7x7\nderive {\n  (x, [], 16) is VC, (16, [], 15) is VC. Apply AND: (x, [16], 15) is VSC.\n  (a,[1],y) is VSC.\n  (a,[2],y) is VSC.\n  Apply OR: (a,[1,2],y) is VC.\n  QED\n}\n";
    let f = ok(src);
    let st = steps(&f);
    assert_eq!(st.len(), 3);
    match &st[0].body {
        StepBody::Paper {
            premises,
            rule,
            fact,
            ..
        } => {
            assert_eq!(premises.len(), 2);
            assert_eq!(*rule, PaperRule::And);
            assert!(matches!(
                premises[0],
                PremiseAst::Triple {
                    kind: Some(KindWord::Vc),
                    ..
                }
            ));
            assert!(matches!(
                fact,
                FactAst::Triple {
                    kind: KindWord::Vsc,
                    ..
                }
            ));
        }
        b => panic!("{b:?}"),
    }
    assert!(
        matches!(&st[1].body, StepBody::Paper { premises, rule: PaperRule::Or, .. } if premises.len() == 2)
    );
    assert!(matches!(st[2].body, StepBody::Qed));
}

#[test]
fn labels_and_noshita_rules() {
    let f = ok("board 7x7\nderive {\n  s: x - y on [d4, c5]\n  z: y - b on S\n  xb: x - b on [d4] by rule2 s z\n  w: x - b | x - b on [d4] by search\n  x - b on [d4] by rule1 w\n  x - b | x - t on [d4, e5] by mono xb\n  k: (x, [], y) VSC by OR s z\n  t - b on [] by AntLemma, ST + T\n}\n");
    let st = steps(&f);
    assert_eq!(st.len(), 8);
    assert_eq!(st[0].label.as_ref().unwrap().text, "s");
    assert!(
        matches!(&st[1].body, StepBody::Rule { fact: FactAst::General { carrier: CarrierSpec::Named(n), .. }, .. } if n.text == "S")
    );
    assert!(
        matches!(&st[2].body, StepBody::Rule { just: Some(JustAst::Rule2(PremiseAst::Label(a), PremiseAst::Label(b), _)), .. } if a.text == "s" && b.text == "z")
    );
    assert!(matches!(
        &st[4].body,
        StepBody::Rule {
            just: Some(JustAst::Rule1(..)),
            ..
        }
    ));
    assert!(matches!(
        &st[5].body,
        StepBody::Rule {
            just: Some(JustAst::Mono(..)),
            ..
        }
    ));
    assert!(
        matches!(&st[7].body, StepBody::Rule { just: Some(JustAst::Lemma(ls, _)), .. } if ls.len() == 3)
    );
}

#[test]
fn or_premise_lists_stop_at_the_next_step() {
    // Premises without commas must not swallow the next step, whatever its form.
    let f = ok("board 7x7\nderive {\n  (x, [1, 2], y) VC by OR (x, [1], y) (x, [2], y)\n  (x, [1], y) VSC by search\n  (x, [1, 2], y) VC by OR p q\n  t - b on [a1] by search\n  (x, [1, 2], y) VC by OR p q\n  r: (x, [], y) VC\n  (x, [1, 2], y) VC by OR p q\n  (a, [], b) is VC, (b, [], c) is VC. Apply AND: (a, [b], c) is VSC.\n}\n");
    let st = steps(&f);
    assert_eq!(st.len(), 8);
    assert!(
        matches!(&st[0].body, StepBody::Rule { just: Some(JustAst::Or(ps, _)), .. } if ps.len() == 2)
    );
    assert!(matches!(&st[7].body, StepBody::Paper { .. }));
}

#[test]
fn strategies_parse() {
    let src = "board 7x7 notation digits\nstrategy \"first move 44\" {\n  black 44 as x\n  white {\n    preclude by 54 { t - b on [45, 46] by ST }\n    case 27 | 36 => black 55 as y {\n      u: t - x | t - b on [34] by U1\n      x - y on [45, 54] by S under rot180 at z = 45\n      y - b on [56, 46] by T\n      t - b on [34, 45, 54, 56, 46]\n    }\n    case 35 => black 45 { white { case 46 => black 47 } }\n  }\n}\n";
    let f = ok(src);
    let Statement::Strategy(s) = &f.statements[0] else {
        panic!()
    };
    assert_eq!(s.title.as_deref(), Some("first move 44"));
    assert_eq!(s.body.len(), 2);
    let TreeNode::White {
        precludes, cases, ..
    } = &s.body[1]
    else {
        panic!()
    };
    assert_eq!(precludes.len(), 1);
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].0.len(), 2);
    let TreeNode::Black { body, alias, .. } = cases[0].1.as_ref() else {
        panic!()
    };
    assert_eq!(alias.as_ref().unwrap().text, "y");
    assert_eq!(body.len(), 4);
}

#[test]
fn keywords_are_not_names() {
    // `by` cannot be a cell: the claim ends before it.
    let e = err("board 7x7\nderive {\n  (d4, [by], d5) VC\n}\n");
    assert!(e.message.contains("unexpected `by`"), "{}", e.message);
    // A misspelt rule is read as a lemma name followed by premises: an error on that line
    // (a lemma use may be followed by a step that starts with a triple, so the error comes
    // where the premises stop looking like a next step).
    let src = "board 7x7\nderive {\n  (d4, [], d5) VC by ANDD (d4, [], e4) (e4, [], d5)\n}\n";
    let e = err(src);
    let line = src[..e.span.start].matches('\n').count() + 1;
    assert_eq!(line, 3, "{}", e.message);
}

#[test]
fn error_positions_point_at_the_offending_token() {
    let src = "board 7x7\nderive {\n  (d4 [], d5) VC\n}\n";
    let e = err(src);
    assert_eq!(&src[e.span.start..e.span.end], "[");
    assert!(e.message.contains("expected `,`"), "{}", e.message);

    let src = "board 7x7\nlemma a {\n  claim x - b on [d4 d5\n}\n";
    let e = err(src);
    assert_eq!(&src[e.span.start..e.span.end], "}");
    assert!(e.message.contains("`]`"), "{}", e.message);

    let src = "board 7x7\nderive {\n  (d4, [], d5) VX\n}\n";
    let e = err(src);
    assert_eq!(&src[e.span.start..e.span.end], "VX");
    assert!(
        e.message.contains("`VC`") && e.message.contains("`VSC`"),
        "{}",
        e.message
    );

    let src = "board 7x7\nderive {\n  (d4, [], d5) VC\n";
    let e = err(src);
    assert_eq!(e.span.start, src.len());
    assert!(e.message.contains("end of file"), "{}", e.message);
}

#[test]
fn deep_nesting_is_rejected_without_recursing() {
    let mut src = String::from("board 7x7\nstrategy {\n");
    for _ in 0..200 {
        src.push_str("black a1 { ");
    }
    let e = err(&src);
    assert!(e.message.contains("nested"), "{}", e.message);
}

#[test]
fn odd_inputs_do_not_panic() {
    for src in [
        "",
        "board",
        "board 7x7 notation",
        "board 7x7\n\"",
        "board 7x7\nlemma a { diagram { ",
        "board 7x7\nlemma a { diagram { } }",
        "board 7x7\nderive { ( }",
        "board 7x7\ncells { 1 = }",
        "board ×\n",
        "board 7×7\u{feff}\n",
        "board 7x7\nuse \"\\",
        "board 7x7\nderive { (é, [], ü) VC }",
        "board 7x7\nstrategy { white { case => } }",
    ] {
        let _ = parse(src);
    }
}
