//! Running the `hexproof` binary from a test (one helper for every test binary).
#![allow(dead_code)] // each test binary uses some of these

use std::process::{Command, Output};

/// The binary under test, run from the repository root (so `proofs/…` paths work).
pub fn hexproof() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hexproof"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Runs the binary with `args` and returns its output.
pub fn output(args: &[&str]) -> Output {
    hexproof().args(args).output().expect("the binary runs")
}

/// Runs the binary with `args`: exit code (-1 if killed by a signal), stdout, stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// [`run`] in the working directory `dir`.
pub fn run_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = hexproof()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
