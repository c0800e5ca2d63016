//! `hexproof render`: a checked proof file as pictures (HTML page, one SVG, or a JSON list).

use super::{fail_input, print_json, EXIT_BAD_INPUT};
use clap::Args;
use hexproof::pages::proof::{load_and_check, LoadError};
use hexproof::pages::{html, proof::Proof};
use std::path::{Path, PathBuf};

/// Draw a proof file (.hexp) as pictures, with the checker's verdict beside each one.
///
/// The file is checked exactly as by `hexproof check`; then every lemma, derivation and
/// proof-tree node (each Black move with the node after it, each precluding analysis) is drawn
/// as a board figure in the style of the papers: stones, the carrier shaded, marked cells
/// lettered, White's case move and Black's reply ringed, a precluding analysis's fictitious
/// Black stone dashed, and White's moves that survive the analyses dotted. Rows are shifted
/// half a cell right per row (a1 is the top-left acute corner); Black's borders (top, bottom)
/// are drawn black, White's (left, right) white.
///
/// While the file is checked a spinner runs on stderr (only when stderr is a terminal; never
/// with --json); each file written is then named on stderr with its size and number of
/// figures.
///
/// Examples:
///   hexproof render proofs/examples/hex4-corner.hexp --html corner.html
///   hexproof render proofs/examples/hex4-corner.hexp --json
///   hexproof render proofs/examples/hex4-corner.hexp --svg c2.svg --item corner/c2
///
/// Item names: a lemma's or derivation's name; for a tree node the strategy's name followed by
/// the White moves leading to it (`corner/c2`) or the fictitious move (`corner/preclude-c3`).
///
/// Exit codes: 0 written and every step verified, 1 written but a step fails, 3 written but a
/// step is undecided or unsupported, 2 bad input (unreadable or malformed file — printed as
/// file:line:column with the source line — or an unknown item; nothing is written).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct RenderArgs {
    /// The proof file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write the whole proof as one self-contained HTML page (`-` for standard output).
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Write one item's figure as an SVG file (`-` for standard output); needs `--item`.
    #[arg(long, value_name = "OUT", requires = "item")]
    svg: Option<PathBuf>,
    /// The item drawn by `--svg` (see `--json` for the names).
    #[arg(long, value_name = "NAME")]
    item: Option<String>,
    /// List the items with their verdicts as JSON on standard output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: super::check::CheckBudgetArgs,
}

/// Writes `text` to `path` (`-`: standard output) and says on stderr what was written.
fn write_out(path: &Path, text: &str, figures: usize) -> Result<(), super::CliError> {
    let to = if path == Path::new("-") {
        print!("{text}");
        "standard output".to_string()
    } else {
        std::fs::write(path, text).map_err(|source| super::CliError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        path.display().to_string()
    };
    eprintln!(
        "hexproof: wrote {to} ({}, {})",
        super::plural(text.len(), "byte"),
        super::plural(figures, "figure")
    );
    Ok(())
}

fn find<'p>(
    proof: &'p Proof,
    name: &str,
) -> Result<&'p hexproof::pages::proof::Item, super::CliError> {
    proof.items().find(|i| i.id == name).ok_or_else(|| {
        let names: Vec<&str> = proof.items().map(|i| i.id.as_str()).collect();
        let shown = names
            .iter()
            .take(12)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        super::CliError::NoItem {
            name: name.into(),
            shown,
            more: names.len() > 12,
        }
    })
}

/// Runs `hexproof render`.
pub fn run_render(a: RenderArgs) -> u8 {
    if a.html.is_none() && a.svg.is_none() && !a.json {
        return fail_input(super::CliError::Usage(
            "nothing to do: give --html OUT, --svg OUT --item NAME, or --json",
        ));
    }
    if a.item.is_some() && a.svg.is_none() {
        return fail_input(super::CliError::Usage(
            "--item names the item --svg draws; give --svg OUT too",
        ));
    }
    let opts = match a.budget.options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let progress = super::progress::Steps::start(&super::check::checking_message(
        std::slice::from_ref(&a.file),
    ));
    let loaded = load_and_check(&a.file, &opts);
    drop(progress);
    let proof = match loaded {
        Ok(p) => p,
        Err(LoadError::Unreadable(m)) => return fail_input(m),
        Err(LoadError::Malformed(d)) => {
            eprintln!("{}", d.trim_end());
            return EXIT_BAD_INPUT;
        }
    };
    // Resolve the item before writing anything.
    let one = match (&a.svg, &a.item) {
        (Some(_), Some(name)) => match find(&proof, name) {
            Ok(i) => Some(i),
            Err(m) => return fail_input(&m),
        },
        _ => None,
    };
    if let Some(out) = &a.html {
        let title = format!("hexproof: {}", a.file.display());
        if let Err(m) = write_out(out, &html::page(&proof, &title), proof.items().count()) {
            return fail_input(&m);
        }
    }
    if let (Some(out), Some(it)) = (&a.svg, one) {
        if let Err(m) = write_out(out, &it.svg, 1) {
            return fail_input(&m);
        }
    }
    if a.json {
        return print_json(
            serde_json::to_value(&proof).expect("items serialise"),
            proof.exit_code,
        );
    }
    proof.exit_code
}
