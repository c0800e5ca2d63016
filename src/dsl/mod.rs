//! The proof language: `.hexp` files (grammar: `grammar/hexproof.pest`, reference:
//! `docs/LANGUAGE.md`).
//!
//! Three passes, each in its own module:
//! 1. [`parser`]: text → [`ast`] (pest; spans are byte offsets over the whole file);
//! 2. [`elab`]: AST → [`model`] (names resolved, diagrams read, claims validated);
//! 3. checking, in `check`.
//!
//! [`load`] drives passes 1–2 over a file and the files it `use`s; [`diag`] renders every
//! error with miette (`file:line:column`, snippet, reason).

pub mod ast;
pub mod diag;
pub mod elab;
pub mod load;
pub mod model;
pub mod parser;
pub mod template_import;

pub use diag::{Diag, FileId, Sources};
pub use load::{Loaded, Loader, RootStatus};
pub use model::Program;

/// Parses and elaborates one source text (no files are read unless it `use`s them).
/// On error, returns the sources and the diagnostics.
pub fn load_str(name: &str, text: &str) -> Result<Program, (Sources, Vec<Diag>)> {
    let mut l = Loader::new();
    let st = l.load_source(name, text);
    let loaded = l.finish();
    match st {
        RootStatus::Loaded(_) if loaded.diags.is_empty() => Ok(loaded.program),
        _ => Err((loaded.program.sources, loaded.diags)),
    }
}
