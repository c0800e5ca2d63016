//! `hexproof templates ice`: the certified inferior-cell pattern library (docs/ice.md) —
//! `verify` re-checks every pattern with the trusted checker, `generate` writes the library.

use clap::{Args, Subcommand};
use hexproof::ice::generate::{library, Spec, DEFAULT};
use hexproof::trusted::ice::check_file;

/// The ICE pattern library.
#[derive(Args, Debug)]
pub struct IceArgs {
    #[command(subcommand)]
    command: IceCommand,
}

#[derive(Subcommand, Debug)]
enum IceCommand {
    /// Re-check every pattern of the library (the embedded one, or --file) with the trusted
    /// checker; exit 1 if one is refused.
    Verify(VerifyArgs),
    /// Enumerate and prove the patterns, and write the library.
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// A library file instead of the embedded templates/ice.json.
    #[arg(long)]
    file: Option<std::path::PathBuf>,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// Where to write the library.
    #[arg(long)]
    out: std::path::PathBuf,
    /// The most stones in the ring of a four-cell captured set (the full enumeration of
    /// the others is always made).
    #[arg(long, default_value_t = 5)]
    max_stones4: usize,
}

/// Runs `hexproof templates ice`.
pub fn run_ice(a: IceArgs) -> u8 {
    match a.command {
        IceCommand::Verify(v) => run_verify(v),
        IceCommand::Generate(g) => run_generate(g),
    }
}

fn run_verify(a: VerifyArgs) -> u8 {
    let text = match &a.file {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: reading {}: {e}", p.display());
                return 2;
            }
        },
        None => hexproof::ice::EMBEDDED.to_string(),
    };
    let start = std::time::Instant::now();
    let report = match check_file(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if a.json {
        let classes: Vec<serde_json::Value> = report
            .accepted
            .iter()
            .map(|(c, n)| {
                let note = report.file.classes.iter().find(|x| x.class == *c);
                serde_json::json!({
                    "class": c.name(),
                    "accepted": n,
                    "sizes": note.map(|x| x.sizes.clone()),
                    "completeness": note.map(|x| x.completeness.clone()),
                })
            })
            .collect();
        let refused: Vec<serde_json::Value> = report
            .refused
            .iter()
            .map(|(i, e)| serde_json::json!({"index": i, "why": e}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"patterns": report.file.patterns.len(), "classes": classes, "refused": refused, "ms": ms})
        );
    } else {
        for (c, n) in &report.accepted {
            println!("{:<10} {n:>6} patterns verified", c.name());
            if let Some(note) = report.file.classes.iter().find(|x| x.class == *c) {
                println!("           complete: {}", note.completeness);
            }
        }
        for (i, e) in &report.refused {
            println!("pattern {i} REFUSED: {e}");
        }
        println!(
            "{} of {} patterns verified in {ms:.0} ms",
            report.file.patterns.len() - report.refused.len(),
            report.file.patterns.len()
        );
    }
    u8::from(!report.refused.is_empty())
}

fn run_generate(a: GenerateArgs) -> u8 {
    let specs: Vec<Spec> = DEFAULT
        .iter()
        .map(|s| {
            let mut s = *s;
            if s.size == 4 {
                s.max_stones = a.max_stones4;
            }
            s
        })
        .collect();
    let (file, counts) = library(&specs);
    for (s, c) in &counts {
        eprintln!(
            "{} size {}: {} colourings tested, {} stone-minimal proved, {} implied, {} kept",
            s.class.name(),
            s.size,
            c.tested,
            c.minimal,
            c.implied,
            c.kept
        );
    }
    let text = match serde_json::to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // One pattern a line keeps the file diffable.
    let text = text.replace("},{\"class\"", "},\n{\"class\"");
    if let Err(e) = std::fs::write(&a.out, text + "\n") {
        eprintln!("error: writing {}: {e}", a.out.display());
        return 2;
    }
    eprintln!(
        "{} patterns written to {}",
        file.patterns.len(),
        a.out.display()
    );
    0
}
