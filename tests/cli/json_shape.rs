//! One `--json` shape (issue 24 item 22): every command's `--json` output is an object with
//! `version` and `exit_code`, and validates against its schema in `docs/schema/` (documented
//! in `docs/JSON.md`). The schemas close the top level (`additionalProperties: false`) and
//! list every field as required, so renaming a field fails here.
//!
//! The validator is a small one for the subset of JSON Schema the files use (`type`,
//! `required`, `properties`, `additionalProperties`, `items`, `enum`); see the dependency table
//! in docs/ARCHITECTURE.md for why no validator crate.

use crate::bin::run;
use crate::cli::{BROKEN_ZIGGURAT, ZIGGURAT};
use serde_json::Value;

/// The schema `docs/schema/NAME.json`.
fn schema(name: &str) -> Value {
    let path = format!("{}/docs/schema/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        other => panic!("schema type '{other}' is not in the subset"),
    }
}

/// Checks `v` against schema `s`; the errors name the JSON path.
fn validate(s: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let known = [
        "$schema",
        "$id",
        "title",
        "description",
        "type",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "enum",
    ];
    for k in s.as_object().expect("a schema is an object").keys() {
        assert!(
            known.contains(&k.as_str()),
            "{path}: schema keyword '{k}' is not in the subset"
        );
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
            _ => panic!("{path}: bad type"),
        };
        if !ok {
            errors.push(format!("{path}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        if !v.is_null() && !e.contains(v) {
            errors.push(format!("{path}: {v} is not one of {e:?}"));
        }
    }
    if let Value::Object(m) = v {
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req {
                if !m.contains_key(r.as_str().unwrap()) {
                    errors.push(format!("{path}: field {r} is missing"));
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, x) in m {
            let p = format!("{path}.{k}");
            match (
                props.and_then(|ps| ps.get(k)),
                s.get("additionalProperties"),
            ) {
                (Some(ps), _) => validate(ps, x, &p, errors),
                (None, Some(Value::Bool(false))) => {
                    errors.push(format!("{p}: field not in the schema"))
                }
                (None, Some(ap @ Value::Object(_))) => validate(ap, x, &p, errors),
                (None, _) => {}
            }
        }
    }
    if let (Value::Array(a), Some(items)) = (v, s.get("items")) {
        for (i, x) in a.iter().enumerate() {
            validate(items, x, &format!("{path}[{i}]"), errors);
        }
    }
}

fn errors(name: &str, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    validate(&schema(name), v, name, &mut e);
    e
}

/// Runs `args`, expects exit code `code` and JSON on stdout valid against `docs/schema/NAME.json`
/// with `exit_code` equal to the process's exit code and `version` the crate's.
fn shaped<S: AsRef<str> + std::fmt::Debug>(name: &str, args: &[S], code: i32) -> Value {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let (c, out, err) = run(&args);
    assert_eq!(c, code, "{args:?}: exit code\nstdout: {out}\nstderr: {err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}"));
    assert!(v.is_object(), "{args:?}: the top level is an object");
    assert_eq!(v["exit_code"], code, "{args:?}: exit_code");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"), "{args:?}: version");
    let e = errors(name, &v);
    assert!(
        e.is_empty(),
        "{args:?} against {name}.json:\n{}",
        e.join("\n")
    );
    v
}

/// `args` with `--json` added.
fn json(args: &[&str]) -> Vec<String> {
    args.iter()
        .copied()
        .chain(["--json"])
        .map(String::from)
        .collect()
}

#[test]
fn check_and_render() {
    let f = "proofs/examples/hex3-shared.hexp";
    shaped("check", &["check", f, "--json"], 0);
    let bad = "tests/fixtures/malformed/occupied.hexp";
    shaped("check", &["check", bad, "--json"], 2);
    shaped("render", &["render", f, "--json"], 0);
}

#[test]
fn verify_and_minimize() {
    let v = shaped("verify", &json(ZIGGURAT), 0);
    assert_eq!(v["colour"], "black");
    assert!(v["seconds"].is_f64());
    shaped("verify", &json(BROKEN_ZIGGURAT), 1);
    let mut solver = json(ZIGGURAT);
    solver.extend(["--engine".to_string(), "solver".to_string()]);
    shaped("verify", &solver, 0);
    let mut m = json(ZIGGURAT);
    m[0] = "minimize".into();
    m[5] = "--region".into();
    shaped("minimize", &m, 0);
}

#[test]
fn vc_and_solve() {
    let v = shaped(
        "vc",
        &[
            "vc", "--board", "3x3", "--moves", "b2", "--color", "white", "--json",
        ],
        0,
    );
    assert_eq!(v["moves"], serde_json::json!(["b2"]));
    let v = shaped(
        "solve",
        &["solve", "--board", "3x3", "--moves", "a1,c3", "--json"],
        0,
    );
    assert_eq!(v["moves"], serde_json::json!(["a1", "c3"]));
    assert!(v["seconds"].is_f64() && v["profile"]["vc_seconds"].is_f64());
    shaped(
        "solve-openings",
        &["solve", "--board", "3x3", "--openings", "all", "--json"],
        0,
    );
}

#[test]
fn templates_and_certificates() {
    shaped("templates-list", &["templates", "list", "--json"], 0);
    let m = shaped(
        "templates-match",
        &[
            "templates",
            "match",
            "--board",
            "11",
            "--black",
            "f9",
            "--white",
            "a1",
            "--json",
        ],
        0,
    );
    assert!(!m["matches"].as_array().unwrap().is_empty());
    shaped("templates-verify", &["templates", "verify", "--json"], 0);
    let c = ["certificate", "check", "templates/row2.json", "--json"];
    shaped("certificate-check", &c, 0);
    let missing = ["certificate", "check", "no/such/file.json", "--json"];
    let e = shaped("certificate-check", &missing, 2);
    assert!(e["error"].is_string());
}

#[test]
fn bid_and_selfplay() {
    shaped(
        "bid",
        &["bid", "--board", "2x2", "--moves", "a1 b1 a2", "--json"],
        0,
    );
    shaped("bid", &["bid", "--board", "3x3", "--json"], 0);
    // One opening, so two short games (a 4x4 board at 0.02 s a move).
    let sp = "selfplay --board 4 --time 0.02 --openings 1 --json player=mcts player=alphabeta,depth=1,m=0";
    let sp: Vec<&str> = sp.split(' ').collect();
    shaped("selfplay", &sp, 0);
}

#[test]
fn match_summary() {
    // `hexproof gtp` against itself on 3x3, one opening, both colours.
    let dir = std::env::temp_dir().join(format!("hexproof-json-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "b1\n").unwrap();
    let engine = format!(
        "'{}' gtp --no-solver-thread",
        env!("CARGO_BIN_EXE_hexproof")
    );
    let args = [
        "match",
        "--a",
        &engine,
        "--b",
        &engine,
        "--size",
        "3",
        "--time",
        "0.02",
        "--openings",
        openings.to_str().unwrap(),
        "--quiet",
        "--json",
    ];
    let v = shaped("match", &args, 0);
    assert_eq!(v["games"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every schema requires `version` and `exit_code` and closes its top level; a renamed field
/// (the old `micros`, `owner`, `time_ms` names) is rejected.
#[test]
fn schemas_catch_renamed_fields() {
    let dir = format!("{}/docs/schema", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let s: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let req = s["required"].as_array().unwrap();
        for f in ["version", "exit_code"] {
            assert!(req.contains(&f.into()), "{}: {f} not required", p.display());
        }
        assert_eq!(s["additionalProperties"], false, "{}", p.display());
        assert_eq!(s["type"], "object", "{}", p.display());
        n += 1;
    }
    assert!(n >= 13, "{n} schemas");
    let mut v = shaped("verify", &json(ZIGGURAT), 0);
    let m = v.as_object_mut().unwrap();
    let secs = m.remove("seconds").unwrap();
    m.insert("micros".into(), secs);
    let e = errors("verify", &v);
    assert!(
        e.iter().any(|e| e.contains("\"seconds\" is missing")),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|e| e.contains("micros: field not in the schema")),
        "{e:?}"
    );
    let mut v = shaped(
        "vc",
        &[
            "vc", "--board", "3x3", "--moves", "b2", "--color", "black", "--json",
        ],
        0,
    );
    v["colour"] = "Black".into();
    assert!(!errors("vc", &v).is_empty(), "colour values are lowercase");
}
