//! Loading files: read, parse, follow `use`, elaborate — in that order, each file once.
//!
//! `use "other.hexp"` is resolved relative to the using file's folder. The used file is
//! loaded (and later checked) first and its lemma names become visible. A cycle of `use`s
//! is an error at the `use` that closes it.

use super::ast::{Span, Statement};
use super::diag::{Diag, FileId, Sources};
use super::elab::{elaborate, lemma_names, LemmaTable};
use super::model::{Module, Program};
use super::parser::parse;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
enum State {
    InProgress,
    Done(FileId, LemmaTable),
    Failed,
}

/// Accumulates files.
#[derive(Default)]
pub struct Loader {
    sources: Sources,
    modules: Vec<Module>,
    state: HashMap<PathBuf, State>,
    diags: Vec<Diag>,
    failed_files: Vec<FileId>,
}

/// The result of loading one file given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootStatus {
    /// Loaded; the file's id.
    Loaded(FileId),
    /// It, or a file it uses, has errors (see [`Loaded::diags`]).
    BadInput(Option<FileId>),
    /// It could not be read.
    Unreadable(String),
}

/// Everything loaded.
pub struct Loaded {
    /// The program (modules that elaborated without errors).
    pub program: Program,
    /// All diagnostics.
    pub diags: Vec<Diag>,
    /// Files with errors (their own or their `use`s').
    pub failed_files: Vec<FileId>,
}

impl Loader {
    /// A new loader.
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Diagnostics so far.
    pub fn diag_count(&self) -> usize {
        self.diags.len()
    }

    /// Files read so far.
    pub fn source_count(&self) -> usize {
        self.sources.files.len()
    }

    /// Loads a file from disk (a root: given by the user).
    pub fn load_path(&mut self, path: &Path) -> RootStatus {
        let key = canonical(path);
        match self.state.get(&key) {
            Some(State::Done(id, _)) => return RootStatus::Loaded(*id),
            Some(State::Failed) => return RootStatus::BadInput(None),
            _ => {}
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                return RootStatus::Unreadable(format!("cannot read {}: {e}", path.display()))
            }
        };
        match self.load_text(key, &path.display().to_string(), text) {
            Some(id) => RootStatus::Loaded(id),
            None => RootStatus::BadInput(self.sources.files.len().checked_sub(1)),
        }
    }

    /// Loads text under a display name; `use` paths resolve relative to `name`'s folder.
    pub fn load_source(&mut self, name: &str, text: &str) -> RootStatus {
        let key = PathBuf::from(format!("<source>/{name}"));
        match self.load_text(key, name, text.to_string()) {
            Some(id) => RootStatus::Loaded(id),
            None => RootStatus::BadInput(None),
        }
    }

    fn load_text(&mut self, key: PathBuf, name: &str, text: String) -> Option<FileId> {
        self.state.insert(key.clone(), State::InProgress);
        let file = self.sources.add(name, text);
        let text = self.sources.files[file].text.clone();
        let ast = match parse(&text) {
            Ok(a) => a,
            Err(e) => {
                self.diags.push(Diag::error(
                    file,
                    "hexp::syntax",
                    e.message,
                    e.span,
                    e.label,
                ));
                self.state.insert(key, State::Failed);
                self.failed_files.push(file);
                return None;
            }
        };
        // Follow `use`s.
        let base = Path::new(name)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut imported = LemmaTable::new();
        let mut uses = Vec::new();
        let mut ok = true;
        for st in &ast.statements {
            let Statement::Use { path, span } = st else {
                continue;
            };
            match self.load_use(file, &base, path, *span) {
                Some((id, table)) => {
                    uses.push(id);
                    for (k, v) in table {
                        imported.entry(k).or_insert(v);
                    }
                }
                None => ok = false,
            }
        }
        if !ok {
            self.state.insert(key, State::Failed);
            self.failed_files.push(file);
            return None;
        }
        match elaborate(file, name, &ast, &imported, uses) {
            Ok(m) => {
                let mut table = imported.clone();
                for n in lemma_names(&ast) {
                    table.insert(n, name.to_string());
                }
                self.modules.push(m);
                self.state.insert(key, State::Done(file, table));
                Some(file)
            }
            Err(ds) => {
                self.diags.extend(ds);
                self.state.insert(key, State::Failed);
                self.failed_files.push(file);
                None
            }
        }
    }

    fn load_use(
        &mut self,
        from: FileId,
        base: &Path,
        path: &str,
        span: Span,
    ) -> Option<(FileId, LemmaTable)> {
        let full = base.join(path);
        let key = canonical(&full);
        match self.state.get(&key).cloned() {
            Some(State::Done(id, table)) => return Some((id, table)),
            Some(State::InProgress) => {
                self.diags.push(
                    Diag::error(
                        from,
                        "hexp::use-cycle",
                        format!("`use \"{path}\"` closes a cycle of uses"),
                        span,
                        "cycle",
                    )
                    .with_help("files may not use each other in a circle"),
                );
                return None;
            }
            Some(State::Failed) => {
                self.diags.push(Diag::error(
                    from,
                    "hexp::use-failed",
                    format!("the used file {} has errors", full.display()),
                    span,
                    "used here",
                ));
                return None;
            }
            None => {}
        }
        let text = match std::fs::read_to_string(&full) {
            Ok(t) => t,
            Err(e) => {
                self.diags.push(Diag::error(
                    from,
                    "hexp::use-unreadable",
                    format!("cannot read {}: {e}", full.display()),
                    span,
                    "used here",
                ));
                return None;
            }
        };
        match self.load_text(key.clone(), &full.display().to_string(), text) {
            Some(_) => match self.state.get(&key) {
                Some(State::Done(id, table)) => Some((*id, table.clone())),
                _ => None,
            },
            None => {
                self.diags.push(Diag::error(
                    from,
                    "hexp::use-failed",
                    format!("the used file {} has errors", full.display()),
                    span,
                    "used here",
                ));
                None
            }
        }
    }

    /// Finishes loading.
    pub fn finish(self) -> Loaded {
        Loaded {
            program: Program {
                sources: self.sources,
                modules: self.modules,
            },
            diags: self.diags,
            failed_files: self.failed_files,
        }
    }
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
