//! `templates verify --timings`: the re-check's CPU time per record, grouped by carrier size.
//!
//! Timings are untrusted measurements (the checking thread's CPU time around each record's
//! re-check); they change nothing about what is accepted.

use serde_json::{json, Value};

/// Width of a carrier-size bucket, in cells.
const BUCKET: usize = 10;

/// One record's re-check.
#[derive(Debug)]
pub struct Timed {
    /// The file it was read from.
    pub file: String,
    /// Its name (`published/NAME` for a published template).
    pub name: String,
    /// `template`, `published` or `lemma`.
    pub kind: &'static str,
    /// Carrier cells (a published template: its published carrier).
    pub cells: usize,
    /// Certificate nodes checked (0 when the record failed).
    pub nodes: usize,
    /// CPU seconds of the checking thread for this record.
    pub cpu: f64,
    /// Whether it verified.
    pub ok: bool,
}

/// The records of one carrier-size bucket.
#[derive(Debug, PartialEq)]
pub struct Bucket {
    /// Smallest and largest carrier size of the bucket (inclusive).
    pub cells: (usize, usize),
    /// Records in it.
    pub records: usize,
    /// Their certificate nodes.
    pub nodes: usize,
    /// Their CPU seconds, summed.
    pub cpu_total: f64,
    /// The largest CPU seconds of one record, and its name.
    pub cpu_max: f64,
    /// The record that took `cpu_max`.
    pub slowest: String,
}

/// The bucket of a carrier of `cells` cells: `1..=10`, `11..=20`, … (0 cells: `0..=0`, as a
/// two-stone template of two adjacent stones).
fn bucket_of(cells: usize) -> (usize, usize) {
    if cells == 0 {
        return (0, 0);
    }
    let lo = (cells - 1) / BUCKET * BUCKET + 1;
    (lo, lo + BUCKET - 1)
}

/// The non-empty buckets, smallest carriers first.
pub fn buckets(timed: &[Timed]) -> Vec<Bucket> {
    let mut out: Vec<Bucket> = Vec::new();
    let mut sorted: Vec<&Timed> = timed.iter().collect();
    sorted.sort_by_key(|t| t.cells);
    for t in sorted {
        let range = bucket_of(t.cells);
        if out.last().is_none_or(|b| b.cells != range) {
            out.push(Bucket {
                cells: range,
                records: 0,
                nodes: 0,
                cpu_total: 0.0,
                cpu_max: -1.0,
                slowest: String::new(),
            });
        }
        let b = out.last_mut().expect("pushed above");
        b.records += 1;
        b.nodes += t.nodes;
        b.cpu_total += t.cpu;
        if t.cpu > b.cpu_max {
            b.cpu_max = t.cpu;
            b.slowest.clone_from(&t.name);
        }
    }
    out
}

/// The table printed by `--timings` (Markdown, so that it can be pasted into the docs).
pub fn table(timed: &[Timed]) -> String {
    let mut s = String::from(
        "| carrier cells | records | certificate nodes | CPU s, total | CPU s, max | slowest |\n\
         | --- | ---: | ---: | ---: | ---: | --- |\n",
    );
    let all = buckets(timed);
    for b in &all {
        let cells = match b.cells {
            (lo, hi) if lo == hi => lo.to_string(),
            (lo, hi) => format!("{lo}–{hi}"),
        };
        s += &format!(
            "| {cells} | {} | {} | {:.3} | {:.3} | {} |\n",
            b.records, b.nodes, b.cpu_total, b.cpu_max, b.slowest
        );
    }
    let total: f64 = all.iter().map(|b| b.cpu_total).sum();
    let nodes: usize = all.iter().map(|b| b.nodes).sum();
    s += &format!(
        "| all | {} | {nodes} | {total:.3} | {:.3} | |\n",
        timed.len(),
        all.iter().map(|b| b.cpu_max).fold(0.0, f64::max)
    );
    s
}

/// The `--json` fields: `entries` (one per record) and `by_cells` (the buckets).
pub fn json_fields(timed: &[Timed]) -> (Value, Value) {
    let entries = timed
        .iter()
        .map(|t| {
            json!({
                "file": t.file, "name": t.name, "kind": t.kind, "cells": t.cells,
                "certificate_nodes": t.nodes, "cpu_seconds": t.cpu, "ok": t.ok,
            })
        })
        .collect();
    let by_cells = buckets(timed)
        .iter()
        .map(|b| {
            json!({
                "cells_from": b.cells.0, "cells_to": b.cells.1, "records": b.records,
                "certificate_nodes": b.nodes, "cpu_seconds": b.cpu_total,
                "cpu_seconds_max": b.cpu_max, "slowest": b.slowest,
            })
        })
        .collect();
    (Value::Array(entries), Value::Array(by_cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, cells: usize, nodes: usize, cpu: f64) -> Timed {
        Timed {
            file: "f.json".into(),
            name: name.into(),
            kind: "template",
            cells,
            nodes,
            cpu,
            ok: true,
        }
    }

    #[test]
    fn buckets_group_by_ten_cells_and_keep_the_slowest() {
        let timed = [
            t("a", 10, 5, 0.5),
            t("b", 11, 7, 0.25),
            t("c", 1, 3, 1.0),
            t("d", 20, 1, 2.0),
            t("e", 47, 100, 4.0),
            t("f", 0, 1, 0.0),
        ];
        let b = buckets(&timed);
        let summary: Vec<_> = b
            .iter()
            .map(|b| (b.cells, b.records, b.nodes, b.cpu_total, b.slowest.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                ((0, 0), 1, 1, 0.0, "f"),
                ((1, 10), 2, 8, 1.5, "c"),
                ((11, 20), 2, 8, 2.25, "d"),
                ((41, 50), 1, 100, 4.0, "e"),
            ]
        );
        assert_eq!(bucket_of(0), (0, 0));
        let tab = table(&timed);
        assert!(
            tab.contains("| 41–50 | 1 | 100 | 4.000 | 4.000 | e |"),
            "{tab}"
        );
        assert!(tab.contains("| 0 | 1 | 1 | 0.000 | 0.000 | f |"), "{tab}");
        assert!(tab.contains("| all | 6 | 117 | 7.750 | 4.000 | |"), "{tab}");
    }
}
