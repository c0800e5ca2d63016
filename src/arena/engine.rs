//! One external GTP engine as a child process (`sh -c COMMAND`), spoken to one command at a
//! time with a timeout on every reply.
//!
//! A reader thread turns the engine's stdout into lines on a channel, so that a reply can be
//! waited for with a deadline: an engine that hangs costs its game, never the match. The
//! engine's stderr is discarded (Benzene's engines log there).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why a command got no proper answer. Each is a loss for the engine when it happens in a
/// game; the `Display` is the reason written to the log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// No complete reply within the time allowed (milliseconds).
    #[error("no reply within {0} ms")]
    Timeout(u128),
    /// The engine exited or closed its output.
    #[error("the engine exited or closed its output{0}")]
    Crashed(String),
    /// A reply that is not GTP (`=`/`?` then text, ended by an empty line).
    #[error("garbage reply {0:?}")]
    Garbage(String),
    /// An error reply (`? message`).
    #[error("error reply '? {0}'")]
    Refused(String),
}

impl Fault {
    /// A short code for logs and tallies: `time`, `crash`, `garbage`, `error`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Timeout(_) => "time",
            Fault::Crashed(_) => "crash",
            Fault::Garbage(_) => "garbage",
            Fault::Refused(_) => "error",
        }
    }
}

/// A running GTP engine.
pub struct GtpProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// The longest reply text kept in a [`Fault::Garbage`] (the rest is cut).
const GARBAGE_SHOWN: usize = 60;

impl GtpProcess {
    /// Starts `command` with `sh -c` (so engine options and pipes may be written as in a
    /// shell). Fails only when `sh` itself cannot be started; a command that does not exist
    /// shows as [`Fault::Crashed`] on the first command.
    pub fn start(command: &str) -> std::io::Result<GtpProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(GtpProcess {
            command: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// The command line it was started with.
    pub fn command_line(&self) -> &str {
        &self.command
    }

    /// Sends `cmd` and waits at most `timeout` for the whole reply; the reply's text (after
    /// `=` and an optional id, lines joined with `\n`) or the fault.
    pub fn command(&mut self, cmd: &str, timeout: Duration) -> Result<String, Fault> {
        let deadline = Instant::now() + timeout;
        if writeln!(self.stdin, "{cmd}")
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            return Err(self.crashed());
        }
        let mut reply: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout(timeout.as_millis())),
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            };
            if line.trim().is_empty() {
                if reply.is_empty() {
                    continue;
                }
                break;
            }
            if reply.is_empty() && !(line.starts_with('=') || line.starts_with('?')) {
                let shown: String = line.chars().take(GARBAGE_SHOWN).collect();
                return Err(Fault::Garbage(shown));
            }
            reply.push(line);
        }
        let first = &reply[0];
        let ok = first.starts_with('=');
        let text = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = text.trim().to_string();
        for l in &reply[1..] {
            text.push('\n');
            text.push_str(l.trim_end());
        }
        if ok {
            Ok(text)
        } else {
            Err(Fault::Refused(text))
        }
    }

    /// The fault of an engine whose pipes closed, with its exit status when it has one.
    fn crashed(&mut self) -> Fault {
        // Give an exiting process a moment to be reaped, so the status can be told.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Crashed(match status.code() {
                    Some(127) => " (exit status 127: command not found)".into(),
                    Some(c) => format!(" (exit status {c})"),
                    None => " (killed by a signal)".into(),
                });
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Fault::Crashed(String::new())
    }

    /// Sends `quit`, waits briefly, then kills the process if it is still running.
    pub fn quit(mut self) {
        let _ = self.command("quit", Duration::from_secs(2));
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // The engine the shell started first: `sh -c` may stay as the engine's parent,
            // and killing only the shell left engines stuck in a long genmove running,
            // orphaned, for hours (2026-11-29). The shell is not reaped yet, so its children
            // are still its own.
            kill_descendants(self.child.id(), 3);
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Kills (SIGKILL) the processes started by `pid`, and theirs down to `depth` levels, as
/// Linux lists them in `/proc/PID/task/PID/children`; elsewhere, or without that file,
/// nothing. (Not a process group of their own: the engines then still share the
/// terminal's, so a Ctrl-C of `hexproof match` stops them too.)
fn kill_descendants(pid: u32, depth: u32) {
    #[cfg(target_os = "linux")]
    {
        let Ok(list) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) else {
            return;
        };
        for child in list
            .split_whitespace()
            .filter_map(|c| c.parse::<u32>().ok())
        {
            if depth > 1 {
                kill_descendants(child, depth - 1);
            }
            if let Ok(id) = i32::try_from(child) {
                // SAFETY: kill(2) sends a signal to one process id; no memory is touched.
                unsafe {
                    libc::kill(id, libc::SIGKILL);
                }
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (pid, depth);
}
