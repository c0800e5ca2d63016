//! `hexproof templates …`: generate, verify, list, show and match the certified template
//! library (docs/templates.md).

use super::{fail_input, parse_notation, print_json, EXIT_FAILS, EXIT_HOLDS};
use clap::{Args, Subcommand};
use hexproof::board::{Board, Colour};
use hexproof::position::Position;
use hexproof::search::Budget;
use hexproof::templates::draw;
use hexproof::templates::generate::{build_file, enumerate, hexwiki_one_stone, GenOptions, Grid};
use hexproof::templates::library::{format_file, verify_record, Library};
use hexproof::templates::matching;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The certified edge-template library: generate, verify, list, show, match.
///
/// Templates are stored edge-relative (`[row, col]`, row 1 touches the edge) for the owner of
/// the edge, one JSON file per row in `templates/`, each with a kernel certificate.
///
/// Examples:
///   hexproof templates generate --row 3 --width 7 --height 3
///   hexproof templates verify
///   hexproof templates list
///   hexproof templates show III1a
///   hexproof templates show IV1a --svg > iv1a.svg
///   hexproof templates match --board 9x9 --moves "e7 c3 g3"
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct TemplatesArgs {
    #[command(subcommand)]
    command: TemplatesCommand,
}

#[derive(Subcommand, Debug)]
enum TemplatesCommand {
    Generate(GenerateArgs),
    Verify(VerifyArgs),
    List(ListArgs),
    Show(ShowArgs),
    Match(MatchArgs),
}

/// Enumerate every minimal one-stone edge template of a row inside a region, prove each
/// (kernel-checked certificate) and write `DIR/rowK.json`.
///
/// The region: rows 1..=HEIGHT, and on row r the cells [r, c] with |2c + r − ROW| ≤ WIDTH − 1
/// (a rectangle in the drawing centred on the stone, WIDTH cells on row 1; WIDTH must have
/// the parity of ROW). Resumable: progress is checkpointed in `DIR/rowK.checkpoint` after every
/// round and picked up by the next run on the same region (use --fresh to start over). An
/// incomplete result never replaces a complete `rowK.json`: it goes to `DIR/rowK.incomplete`.
///
/// Examples:
///   hexproof templates generate --row 3 --width 7 --height 3
///   nice hexproof templates generate --row 4 --width 10 --height 5 --max-seconds 3600
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct GenerateArgs {
    /// Row of the stone (distance from the edge; 1 = touching it).
    #[arg(long)]
    row: i32,
    /// Cells of row 1 in the region (default: the smallest width ≥ 2·ROW + 1 with ROW's parity).
    #[arg(long)]
    width: Option<i32>,
    /// Rows in the region, rows above the stone included (default: ROW).
    #[arg(long)]
    height: Option<i32>,
    /// Stones per template (only 1 is implemented).
    #[arg(long, default_value_t = 1)]
    stones: usize,
    /// Budget of each search: maximum nodes.
    #[arg(long, default_value_t = 50_000_000)]
    nodes: u64,
    /// Budget of each search: maximum seconds.
    #[arg(long, default_value_t = 120.0)]
    time: f64,
    /// First-pass budget in seconds (nodes scaled alike): every candidate is searched with it
    /// first, and only those it leaves undecided get the full budget, after the cheap ones
    /// (0: a single pass with the full budget).
    #[arg(long, default_value_t = 5.0)]
    quick: f64,
    /// Stop after this many seconds overall (the result is then marked incomplete).
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
    /// Ignore an existing checkpoint.
    #[arg(long)]
    fresh: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Start from HexWiki's one-stone templates of this row that fit the region (each is
    /// re-decided and shrunk by search first; marked `generated-from-seed`).
    #[arg(long)]
    seed_hexwiki: bool,
}

/// Re-check every library entry with the kernel alone (no search); exit 1 if any fails.
///
/// Example:
///   hexproof templates verify
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// List the library: name, row, carrier size, symmetry, minimality, HexWiki name.
///
/// Example:
///   hexproof templates list --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ListArgs {
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
    /// Print JSON (a stable summary: no timings).
    #[arg(long)]
    json: bool,
}

/// Draw one template (ASCII by default).
///
/// Examples:
///   hexproof templates show III1a
///   hexproof templates show IV1a --svg > iv1a.svg
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// Template name.
    name: String,
    /// Print SVG instead of ASCII.
    #[arg(long)]
    svg: bool,
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
}

/// Find every template instance on a position: both colours, all four edges, both mirror
/// images.
///
/// Examples:
///   hexproof templates match --board 9x9 --moves "e7 c3 g3"
///   hexproof templates match --board 11 --black "f9" --white "a1" --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    /// Board size, e.g. 9x9 or 11.
    #[arg(long, default_value = "11x11")]
    board: String,
    /// Moves, alternating, Black first, e.g. "e7 c3 g3".
    #[arg(long, default_value = "")]
    moves: String,
    /// Extra Black stones.
    #[arg(long, default_value = "")]
    black: String,
    /// Extra White stones.
    #[arg(long, default_value = "")]
    white: String,
    /// Cell names: letters or digits.
    #[arg(long, default_value = "letters")]
    notation: String,
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `hexproof templates`.
pub fn run_templates(a: TemplatesArgs) -> u8 {
    match a.command {
        TemplatesCommand::Generate(g) => run_generate(g),
        TemplatesCommand::Verify(v) => run_verify(v),
        TemplatesCommand::List(l) => run_list(l),
        TemplatesCommand::Show(s) => run_show(s),
        TemplatesCommand::Match(m) => run_match(m),
    }
}

fn run_generate(a: GenerateArgs) -> u8 {
    if a.stones != 1 {
        return fail_input("only one-stone templates can be generated so far (--stones 1)");
    }
    // Default: the smallest width ≥ 2·ROW + 1 with the parity of ROW.
    let width = a.width.unwrap_or(2 * a.row + 1 + (a.row % 2 == 0) as i32);
    let height = a.height.unwrap_or(a.row);
    let grid = match Grid::new(a.row, height, width) {
        Ok(g) => g,
        Err(e) => return fail_input(&e),
    };
    if a.time <= 0.0 || a.max_seconds.is_some_and(|s| s <= 0.0) {
        return fail_input("time budgets must be positive");
    }
    if !(a.quick >= 0.0) {
        return fail_input("--quick must be a number of seconds, 0 or more");
    }
    if let Err(e) = std::fs::create_dir_all(&a.dir) {
        return fail_input(&format!("cannot create {}: {e}", a.dir.display()));
    }
    let checkpoint = a.dir.join(format!("row{}.checkpoint", a.row));
    if a.fresh {
        let _ = std::fs::remove_file(&checkpoint);
    }
    let budget = Budget {
        nodes: a.nodes,
        time: Some(Duration::from_secs_f64(a.time)),
        ..Budget::default()
    };
    let start = Instant::now();
    let quick = (a.quick > 0.0 && a.quick < a.time).then(|| Budget {
        nodes: ((a.nodes as f64) * a.quick / a.time).max(1.0) as u64,
        time: Some(Duration::from_secs_f64(a.quick)),
        ..Budget::default()
    });
    let opts = GenOptions {
        budget,
        quick,
        deadline: a.max_seconds.map(|s| start + Duration::from_secs_f64(s)),
        checkpoint: Some(checkpoint.clone()),
        progress: !a.quiet,
        batch: 64,
        seeds: if a.seed_hexwiki {
            hexwiki_one_stone()
                .into_iter()
                .filter(|t| t.1 == a.row)
                .map(|t| t.2)
                .collect()
        } else {
            Vec::new()
        },
    };
    eprintln!(
        "row {}: region height {} width {} ({} cells)",
        a.row,
        height,
        width,
        grid.cells.len()
    );
    let en = match enumerate(&grid, &opts) {
        Ok(e) => e,
        Err(e) => return fail_input(&e),
    };
    let enum_secs = start.elapsed().as_secs_f64();
    let file = match build_file(&grid, &en, &budget) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hexproof: error: {e}");
            return EXIT_FAILS;
        }
    };
    let mut out = a.dir.join(format!("row{}.json", a.row));
    // Never replace a complete file by an incomplete one.
    if !en.complete {
        let existing = Library::load(&a.dir).ok().and_then(|l| {
            l.files
                .into_iter()
                .find(|(p, _)| *p == out)
                .map(|(_, f)| f.complete)
        });
        if existing == Some(true) {
            out = a.dir.join(format!("row{}.incomplete", a.row));
        }
    }
    if let Err(e) = std::fs::write(&out, format_file(&file)) {
        return fail_input(&format!("cannot write {}: {e}", out.display()));
    }
    if en.complete {
        let _ = std::fs::remove_file(&checkpoint);
    }
    let sizes: Vec<usize> = file.templates.iter().map(|r| r.size()).collect();
    println!(
        "row {}: region {}x{} ({} cells): {} minimal carriers, {} up to mirror ({} symmetric), sizes {:?}; {} searches ({} answered without one), {} transversals, {} undecided; {} in {:.1} s (enumeration {:.1} s); wrote {}",
        a.row,
        height,
        width,
        grid.cells.len(),
        en.minimal.len(),
        file.templates.len(),
        file.templates.iter().filter(|r| r.symmetry == hexproof::templates::library::Symmetry::Symmetric).count(),
        sizes,
        en.searches,
        en.saved,
        en.transversals,
        en.undecided,
        if en.complete { "complete" } else { "INCOMPLETE" },
        start.elapsed().as_secs_f64(),
        enum_secs,
        out.display()
    );
    for r in &file.templates {
        println!(
            "  {:<14} {:>3} cells  {:<9} {:<8} {}",
            r.name,
            r.size(),
            format!("{:?}", r.symmetry).to_lowercase(),
            format!("{:?}", r.minimality).to_lowercase(),
            r.provenance
                .hexwiki
                .as_deref()
                .map(|n| format!("HexWiki {n}"))
                .unwrap_or_else(|| "new".into())
        );
    }
    EXIT_HOLDS
}

fn load(dir: &std::path::Path) -> Result<Library, u8> {
    Library::load(dir).map_err(|e| fail_input(&e))
}

fn run_verify(a: VerifyArgs) -> u8 {
    let lib = match load(&a.dir) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let start = Instant::now();
    let mut ok = 0;
    let mut nodes = 0;
    let mut failures = Vec::new();
    for (path, f) in &lib.files {
        for r in &f.templates {
            match verify_record(r) {
                Ok(v) => {
                    ok += 1;
                    nodes += v.nodes;
                }
                Err(e) => failures.push((path.display().to_string(), r.name.clone(), e)),
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if a.json {
        print_json(&json!({
            "verified": ok,
            "failed": failures.iter().map(|(p, n, e)| json!({"file": p, "name": n, "reason": e})).collect::<Vec<_>>(),
            "certificate_nodes": nodes,
            "seconds": secs,
        }));
    } else {
        for (p, n, e) in &failures {
            println!("FAILED {p}: {n}: {e}");
        }
        println!(
            "{ok} templates verified by the kernel ({nodes} certificate nodes), {} failed, in {secs:.3} s",
            failures.len()
        );
    }
    if failures.is_empty() {
        EXIT_HOLDS
    } else {
        EXIT_FAILS
    }
}

fn run_list(a: ListArgs) -> u8 {
    let lib = match load(&a.dir) {
        Ok(l) => l,
        Err(c) => return c,
    };
    if a.json {
        let files: Vec<_> = lib
            .files
            .iter()
            .map(|(p, f)| {
                json!({
                    "file": p.file_name().map(|s| s.to_string_lossy().to_string()),
                    "row": f.row,
                    "stones": f.stones,
                    "region": f.region,
                    "complete": f.complete,
                    "templates": f.templates.iter().map(|r| json!({
                        "name": r.name,
                        "size": r.size(),
                        "symmetry": r.symmetry,
                        "minimality": r.minimality,
                        "hexwiki": r.provenance.hexwiki,
                        "certificate_nodes": r.certificate.nodes.len(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        print_json(&json!(files));
    } else {
        for (p, f) in &lib.files {
            println!(
                "{}: row {}, region {}x{}, {}, {} templates",
                p.display(),
                f.row,
                f.region.height,
                f.region.width,
                if f.complete { "complete" } else { "incomplete" },
                f.templates.len()
            );
            for r in &f.templates {
                println!(
                    "  {:<14} {:>3} cells  {:<9} {:<8} {}",
                    r.name,
                    r.size(),
                    format!("{:?}", r.symmetry).to_lowercase(),
                    format!("{:?}", r.minimality).to_lowercase(),
                    r.provenance
                        .hexwiki
                        .as_deref()
                        .map(|n| format!("HexWiki {n}"))
                        .unwrap_or_else(|| "new".into())
                );
            }
        }
    }
    EXIT_HOLDS
}

fn run_show(a: ShowArgs) -> u8 {
    let lib = match load(&a.dir) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let Some(r) = lib.find(&a.name) else {
        return fail_input(&format!(
            "no template called '{}' in {}",
            a.name,
            a.dir.display()
        ));
    };
    if a.svg {
        print!("{}", draw::svg(r));
    } else {
        println!(
            "{}: row {}, {} carrier cells, {}, {}{}",
            r.name,
            r.row,
            r.size(),
            format!("{:?}", r.symmetry).to_lowercase(),
            format!("{:?}", r.minimality).to_lowercase(),
            r.provenance
                .hexwiki
                .as_deref()
                .map(|n| format!(", HexWiki {n}"))
                .unwrap_or_default()
        );
        print!("{}", draw::ascii(r));
    }
    EXIT_HOLDS
}

fn run_match(a: MatchArgs) -> u8 {
    let board = match Board::parse(&a.board) {
        Ok(b) => b,
        Err(e) => return fail_input(&e.to_string()),
    };
    let notation = match parse_notation(&a.notation) {
        Ok(n) => n,
        Err(e) => return fail_input(&e),
    };
    let mut position = match Position::from_names(board, &a.black, &a.white, notation) {
        Ok(p) => p,
        Err(e) => return fail_input(&e.to_string()),
    };
    let moves = match board.parse_cells(&a.moves, notation) {
        Ok(m) => m,
        Err(e) => return fail_input(&e.to_string()),
    };
    for (i, c) in moves.into_iter().enumerate() {
        let colour = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        if let Err(e) = position.play(colour, c) {
            return fail_input(&format!("move {}: {e}", i + 1));
        }
    }
    let lib = match load(&a.dir) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let found = matching::find(&position, lib.records());
    let name = |c| board.cell_name(c, notation);
    if a.json {
        print_json(&json!(found
            .iter()
            .map(|m| json!({
                "template": m.name,
                "colour": m.border.owner(),
                "edge": m.border.letter().to_string(),
                "mirrored": m.mirrored,
                "stone": name(m.stone),
                "carrier": m.carrier.iter().map(name).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>()));
    } else {
        for m in &found {
            println!(
                "{} {} {} - {}{}: [{}]",
                m.border.owner(),
                m.name,
                name(m.stone),
                m.border.letter(),
                if m.mirrored { " (mirrored)" } else { "" },
                board.set_names(&m.carrier, notation)
            );
        }
        println!("{} instances", found.len());
    }
    EXIT_HOLDS
}
