//! `hexproof check FILE --shard i/n --out DIR` and `hexproof check --combine DIR`: one proof
//! checked as jobs ([`hexproof::check::shard`], docs/cluster.md "One proof as jobs").

use super::{fail_input, print_json};
use hexproof::check::shard::{combine, run_shard, JobOutcome};
use hexproof::check::Options;
use hexproof::dfpn::jobs::Shard;
use std::path::{Path, PathBuf};

/// Runs a shard job or the combination; returns the exit code.
pub fn run(
    files: &[PathBuf],
    shard: Option<&str>,
    out: Option<&Path>,
    combine_dirs: &[PathBuf],
    json: bool,
    opts: &Options,
) -> u8 {
    if !combine_dirs.is_empty() {
        if files.len() > 1 {
            return fail_input(
                "--combine takes at most one proof FILE (the one the shards checked)",
            );
        }
        return run_combine(
            combine_dirs,
            files.first().map(PathBuf::as_path),
            json,
            opts,
        );
    }
    let (Some(shard), Some(out)) = (shard, out) else {
        return fail_input("--shard needs --out DIR");
    };
    let shard = match Shard::parse(shard) {
        Ok(s) => s,
        Err(e) => return fail_input(e),
    };
    let [proof] = files else {
        return fail_input("--shard checks one proof FILE at a time");
    };
    match run_shard(
        proof,
        opts,
        shard,
        out,
        hexproof::player::clock::thread_cpu_time,
    ) {
        Err(e) => fail_input(e),
        Ok(JobOutcome::BadInput(checked)) if json => print_json(
            serde_json::to_value(&checked.report).expect("reports serialise"),
            checked.report.exit_code,
        ),
        Ok(JobOutcome::BadInput(checked)) => {
            print!("{}", checked.human());
            checked.report.exit_code
        }
        Ok(JobOutcome::AlreadyDone(p)) if json => print_json(
            serde_json::json!({
                "proof": proof.display().to_string(),
                "shard": shard.to_string(),
                "outcome": "already_done",
                "file": p.display().to_string(),
            }),
            0,
        ),
        Ok(JobOutcome::Written(p, r)) if json => print_json(
            serde_json::json!({
                "proof": proof.display().to_string(),
                "shard": shard.to_string(),
                "outcome": "written",
                "file": p.display().to_string(),
                "parts": r.parts.len(),
                "parts_total": r.parts_total,
                "steps": r.parts.iter().map(|q| q.counts.steps).sum::<usize>(),
                "cpu_micros": r.cpu_micros,
            }),
            0,
        ),
        Ok(JobOutcome::AlreadyDone(p)) => {
            println!(
                "shard {shard} of {}: already done ({} is valid); nothing to do",
                proof.display(),
                p.display()
            );
            0
        }
        Ok(JobOutcome::Written(p, r)) => {
            let steps: usize = r.parts.iter().map(|q| q.counts.steps).sum();
            println!(
                "shard {shard} of {}: {} of {} part(s), {} step(s) in them, {:.2} CPU-s; wrote {}",
                proof.display(),
                r.parts.len(),
                r.parts_total,
                steps,
                r.cpu_micros as f64 / 1e6,
                p.display()
            );
            0
        }
    }
}

fn run_combine(dirs: &[PathBuf], proof: Option<&Path>, json: bool, opts: &Options) -> u8 {
    let c = match combine(dirs, proof, opts) {
        Ok(c) => c,
        Err(problems) => {
            for p in &problems {
                eprintln!("hexproof: error: {p}");
            }
            return super::EXIT_BAD_INPUT;
        }
    };
    if json {
        return print_json(
            serde_json::json!({
                "proof": c.proof.display().to_string(),
                "files": c.files,
                "parts": c.parts,
                "rechecked": c.rechecked,
                "shards": c.shards.iter().map(|(s, parts, cpu)| serde_json::json!({
                    "shard": s, "parts": parts, "cpu_micros": cpu,
                })).collect::<Vec<_>>(),
                "temporary": c.temporary,
                "counts": c.counts,
                "cpu_micros": c.cpu_micros,
            }),
            c.exit_code,
        );
    }
    for (s, parts, cpu) in &c.shards {
        println!("shard {s}: {parts} part(s), {:.2} CPU-s", *cpu as f64 / 1e6);
    }
    if c.temporary > 0 {
        println!(
            "ignored {} temporary file(s) (a job killed mid-write)",
            c.temporary
        );
    }
    if !c.rechecked.is_empty() {
        println!(
            "re-checked here (an assumption about another part was false): {}",
            c.rechecked.join(" ")
        );
    }
    let k = &c.counts;
    println!(
        "combined {} shard file(s), {} part(s) of {}: {} step(s): {} verified, {} failed, {} undecided, {} unsupported — {}; {:.2} CPU-s summed over the shards",
        c.files,
        c.parts,
        c.proof.display(),
        k.steps,
        k.verified,
        k.failed,
        k.undecided,
        k.unsupported,
        match c.exit_code {
            0 => "all verified",
            1 => "a step FAILED",
            _ => "undecided or unsupported steps",
        },
        c.cpu_micros as f64 / 1e6
    );
    c.exit_code
}
