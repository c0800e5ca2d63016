//! Loading files: read, parse, follow `use`, elaborate — in that order, each file once.
//!
//! `use "other.hexp"` is resolved relative to the using file's folder. The used file is
//! loaded (and later checked) first and its lemma names become visible. A cycle of `use`s
//! is an error at the `use` that closes it.
//!
//! Files are read only when they are regular files of at most [`MAX_FILE_BYTES`]: devices,
//! FIFOs and folders are refused (a FIFO is opened without blocking, to look at it), and the
//! read stops at the limit even when the size the system reports is wrong, as for `/proc`
//! files. A *used* file must also look like a proof file: its name ends in `.hexp`, and its
//! text, after blank lines and `//` comments, starts with `board`. Otherwise the error, at the
//! `use`, shows nothing of the file, so that a proof file cannot print another file (say
//! `/etc/passwd`) through a diagnostic. Two used files may not define one lemma name: the
//! error at the second `use` names both definitions.

use super::ast::{Span, Statement};
use super::diag::DiagCode;
use super::diag::{Diag, FileId, Sources};
use super::elab::{elaborate, lemma_names, LemmaTable};
use super::model::{Module, Program};
use super::parser::parse;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest file read: 1 GiB. The largest proof written so far (the solver's 7×7 b3
/// strategy, tests/solver/solver_emit.rs) is 211 MB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why a proof file could not be read ([`read_text`]): one line naming the file, without
/// its contents.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The file system refused (the OS error's text).
    #[error("cannot read {}: {why}", path.display())]
    Io { path: PathBuf, why: String },
    /// A device, FIFO or folder.
    #[error("cannot read {}: not a regular file", path.display())]
    NotRegular { path: PathBuf },
    /// Over [`MAX_FILE_BYTES`].
    #[error(
        "cannot read {}: larger than {} MiB, the limit for a proof file",
        path.display(),
        MAX_FILE_BYTES >> 20
    )]
    TooLarge { path: PathBuf },
    /// Not UTF-8.
    #[error("cannot read {}: not UTF-8 text", path.display())]
    NotUtf8 { path: PathBuf },
}

/// Reads a proof file's text: a regular file (not a device, FIFO or folder) of at most
/// [`MAX_FILE_BYTES`], in UTF-8.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    use std::io::Read;
    let path_buf = || path.to_path_buf();
    let io = |e: std::io::Error| ReadError::Io {
        path: path_buf(),
        why: e.to_string(),
    };
    let regular = |m: &std::fs::Metadata| {
        if !m.is_file() {
            Err(ReadError::NotRegular { path: path_buf() })
        } else if m.len() > MAX_FILE_BYTES {
            Err(ReadError::TooLarge { path: path_buf() })
        } else {
            Ok(())
        }
    };
    regular(&std::fs::metadata(path).map_err(io)?)?;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        // Should the file have become a FIFO since, opening it must not wait for a writer.
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK);
    }
    let file = open.open(path).map_err(io)?;
    regular(&file.metadata().map_err(io)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { path: path_buf() });
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8 { path: path_buf() })
}

/// At most this many errors are reported per file (a file repeating one mistake ten thousand
/// times gets the first ones and a count of the rest).
pub const MAX_ERRORS_PER_FILE: usize = 50;

fn capped(mut ds: Vec<Diag>) -> Vec<Diag> {
    if ds.len() > MAX_ERRORS_PER_FILE {
        let rest = ds.len() - MAX_ERRORS_PER_FILE;
        let next = &ds[MAX_ERRORS_PER_FILE];
        let more = Diag::error(
            next.file,
            DiagCode::TooManyErrors,
            format!("{rest} more errors in this file are not shown"),
            next.span(),
            "the next one",
        );
        ds.truncate(MAX_ERRORS_PER_FILE);
        ds.push(more);
    }
    ds
}

/// Does the text start like a proof file: `board`, after a byte-order mark, blank lines and
/// `//` comments?
fn looks_like_proof(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        match rest.strip_prefix("//") {
            Some(r) => rest = r.split_once('\n').map_or("", |(_, after)| after),
            None => break,
        }
    }
    rest.strip_prefix("board").is_some_and(|r| {
        !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
    })
}

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
    Unreadable(ReadError),
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
        let text = match read_text(path) {
            Ok(t) => t,
            Err(e) => return RootStatus::Unreadable(e),
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
                    DiagCode::Syntax,
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
                    let mut names: Vec<_> = table.into_iter().collect();
                    names.sort();
                    for (k, v) in names {
                        match imported.get(&k) {
                            Some(w) if *w != v => {
                                self.diags.push(
                                    Diag::error(
                                        file,
                                        DiagCode::DuplicateLemma,
                                        format!("lemma `{k}` is defined twice by the used files: at {w} and at {v}"),
                                        *span,
                                        format!("brings a second `{k}`"),
                                    )
                                    .with_help("rename one of the lemmas: a name must mean one lemma"),
                                );
                                ok = false;
                            }
                            Some(_) => {}
                            None => {
                                imported.insert(k, v);
                            }
                        }
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
                for (n, sp) in lemma_names(&ast) {
                    table.insert(n, self.sources.location(file, sp));
                }
                self.modules.push(m);
                self.state.insert(key, State::Done(file, table));
                Some(file)
            }
            Err(ds) => {
                self.diags.extend(capped(ds));
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
        let refuse = |loader: &mut Loader, why: String| {
            loader.diags.push(
                Diag::error(
                    from,
                    DiagCode::UseUnreadable,
                    format!("cannot use {}: {why}", full.display()),
                    span,
                    "used here",
                )
                .with_help("`use` reads proof files: a name ending in .hexp, text starting with `board NxM`"),
            );
            None
        };
        if Path::new(path).extension().is_none_or(|e| e != "hexp") {
            return refuse(self, "a used file's name must end in .hexp".into());
        }
        let key = canonical(&full);
        match self.state.get(&key).cloned() {
            Some(State::Done(id, table)) => return Some((id, table)),
            Some(State::InProgress) => {
                self.diags.push(
                    Diag::error(
                        from,
                        DiagCode::UseCycle,
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
                    DiagCode::UseFailed,
                    format!("the used file {} has errors", full.display()),
                    span,
                    "used here",
                ));
                return None;
            }
            None => {}
        }
        let text = match read_text(&full) {
            Ok(t) => t,
            Err(e) => {
                self.diags.push(Diag::error(
                    from,
                    DiagCode::UseUnreadable,
                    e.to_string(),
                    span,
                    "used here",
                ));
                return None;
            }
        };
        if !looks_like_proof(&text) {
            return refuse(
                self,
                "not a proof file (its text does not start with `board NxM`); nothing of it is shown".into(),
            );
        }
        match self.load_text(key.clone(), &full.display().to_string(), text) {
            Some(_) => match self.state.get(&key) {
                Some(State::Done(id, table)) => Some((*id, table.clone())),
                _ => None,
            },
            None => {
                self.diags.push(Diag::error(
                    from,
                    DiagCode::UseFailed,
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
