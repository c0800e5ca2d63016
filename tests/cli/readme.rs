//! README.md stays true (issue 24 item 24): every `hexproof …` command in its shell blocks
//! names a real command and only flags that command has, and every block that shows a
//! command's output (`$ hexproof …` followed by lines) is what the binary prints, but for
//! lines with `…` (times and counts that vary).

use crate::bin::run;

/// The README's fenced `sh` blocks.
fn sh_blocks() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l.starts_with("```sh") => current = Some(String::new()),
            (Some(b), l) if l.starts_with("```") => {
                blocks.push(std::mem::take(b));
                current = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

/// Splits a command line into words, honouring single and double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for ch in line.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// Every `hexproof` invocation in a block, as its arguments (comments, `$ `, `nice`, pipes
/// into it, `&&` chains and output redirections removed).
fn invocations(block: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in block.lines() {
        let line = line.trim_start().trim_start_matches("$ ");
        let line = line.split(" #").next().unwrap_or("");
        for part in line.split("&&").flat_map(|p| p.split('|')) {
            let w = words(part);
            let Some(i) = w.iter().position(|x| x == "hexproof") else {
                continue;
            };
            let mut args: Vec<String> = w[i + 1..].to_vec();
            if let Some(r) = args.iter().position(|a| a == ">") {
                args.truncate(r);
            }
            out.push(args);
        }
    }
    out
}

/// The (sub)command words of an invocation and its `--help` text.
fn help_of(args: &[String]) -> (Vec<String>, String) {
    let mut path: Vec<String> = Vec::new();
    let mut help = String::new();
    for a in args {
        if a.starts_with('-') {
            break;
        }
        let mut try_path = path.clone();
        try_path.push(a.clone());
        let mut cmd: Vec<&str> = try_path.iter().map(String::as_str).collect();
        cmd.push("--help");
        let (code, stdout, _) = run(&cmd);
        if code != 0 {
            break; // a positional argument, not a subcommand
        }
        path = try_path;
        help = stdout;
        if !help.contains("Commands:") {
            break;
        }
    }
    (path, help)
}

#[test]
fn every_readme_command_names_real_commands_and_flags() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for block in sh_blocks() {
        for args in invocations(&block) {
            let (path, help) = help_of(&args);
            if path.is_empty() {
                problems.push(format!("`hexproof {}`: no such command", args.join(" ")));
                continue;
            }
            for a in args.iter().filter(|a| a.starts_with("--")) {
                let flag = a.split('=').next().unwrap_or(a);
                if flag != "--help" && !help.contains(flag) {
                    problems.push(format!(
                        "`hexproof {}`: `{}` has no flag {flag}",
                        args.join(" "),
                        path.join(" ")
                    ));
                }
            }
            checked += 1;
        }
    }
    assert!(problems.is_empty(), "README.md:\n{}", problems.join("\n"));
    assert!(checked >= 20, "only {checked} README commands found");
}

#[test]
fn readme_outputs_are_what_the_binary_prints() {
    let mut shown = 0;
    for block in sh_blocks() {
        let mut lines = block.lines();
        let Some(first) = lines.next() else { continue };
        let Some(cmd) = first.strip_prefix("$ hexproof ") else {
            continue;
        };
        let args = words(cmd);
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, stdout, stderr) = run(&argv);
        // `…` stands for figures that vary (times, node counts): such lines are not compared.
        let shown_lines = lines.map(str::trim_end);
        for want in shown_lines.filter(|l| !l.trim().is_empty() && !l.contains('…')) {
            assert!(
                stdout.lines().any(|got| got.trim_end() == want),
                "README shows `{want}` after `$ hexproof {cmd}`, but the binary printed:\n{stdout}{stderr}"
            );
        }
        shown += 1;
    }
    assert!(shown >= 3, "only {shown} README blocks show output");
}
