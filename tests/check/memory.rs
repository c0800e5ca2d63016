//! The checker's memory on a proof tree: its search cache keeps each search's verdict and
//! kernel acceptance, not the certificates of derivations that have ended (src/check/mod.rs,
//! `Checker::drop_certs`; docs/journal/prove-session30.md). Before, every certificate stayed
//! until the end of the strategy: 104 MB for the 7×7 d4 proof, 912 MB for d2, 4.6 GB for e5.

use std::process::Stdio;

/// Exit code and peak resident memory (kB, the child's own `wait4` usage) of
/// `hexproof check --json FILE`.
#[cfg(target_os = "linux")]
#[allow(clippy::zombie_processes)] // reaped by `wait4` below, which also gives its usage
fn check_peak_kb(file: &str) -> (i32, i64) {
    let child = super::bin::hexproof()
        .args(["check", "--json", file])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data; wait4 reaps our own child, whose `Child` is not waited on.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4 on the check");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss)
}

/// The full check of proofs/solver/7x7-d4.hexp (926 steps, 1 CPU-s) stays well under the
/// 104 MB it took while the cache kept every certificate (46 MB with the bound, session 30).
#[cfg(target_os = "linux")]
#[test]
fn the_search_cache_does_not_keep_the_certificates_of_a_proof_tree() {
    let (code, kb) = check_peak_kb("proofs/solver/7x7-d4.hexp");
    assert_eq!(code, 0, "7x7-d4.hexp passes the full check");
    assert!(
        kb < 75_000,
        "the check of 7x7-d4.hexp peaked at {kb} kB (46 MB expected, 104 MB without the bound)"
    );
}
