//! `hexproof train-patterns` end to end: a tiny run is reproduced byte for byte from its
//! seed (and differs with another seed), the file it writes loads as the player's priors,
//! the shipped `data/patterns-11.txt` loads and names the command that made it, and bad
//! input exits 2 with one line.

use crate::bin::run;
use hexproof::player::patterns::Table;

fn tiny(seed: &str, out: &std::path::Path) -> String {
    let (code, stdout, stderr) = run(&[
        "train-patterns",
        "--seed",
        seed,
        "--games",
        "3",
        "--size",
        "5",
        "--playouts",
        "60",
        "--min-count",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("3 games"), "{stdout}");
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn the_trainer_is_reproducible_from_its_seed() {
    let dir = std::env::temp_dir().join(format!("hexproof-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = tiny("7", &dir.join("a.txt"));
    let b = tiny("7", &dir.join("b.txt"));
    assert_eq!(a, b, "the same seed gave two different files");
    let c = tiny("8", &dir.join("c.txt"));
    assert_ne!(a, c, "another seed gave the same games");
    let t = Table::parse(&a).unwrap();
    assert!(!t.is_empty());
    assert!(t.comments[0].contains("--seed 7 --games 3 --size 5 --playouts 60"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_weights_load_and_say_how_they_were_made() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/patterns-11.txt"))
            .unwrap();
    let t = Table::parse(&text).unwrap();
    assert_eq!(&t, Table::builtin());
    assert!(
        t.comments[0].starts_with("hexproof train-patterns --seed "),
        "{:?}",
        t.comments
    );
    let (r1, r2) = t.len();
    assert!(r1 > 100 && r2 > 100, "{r1} {r2}");
}

#[test]
fn bad_input_exits_2() {
    for args in [
        "--seed 1 --games 0 --out /tmp/x",
        "--seed 1 --games 1 --size 40 --out /tmp/x",
        "--seed x --games 1 --out /tmp/x",
        "--seed 1 --games 1 --size 3 --out /no/such/dir/p.txt",
    ] {
        let mut full = vec!["train-patterns"];
        full.extend(args.split(' '));
        let (code, _, stderr) = run(&full);
        assert_eq!(code, 2, "{args}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
