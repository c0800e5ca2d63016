//! Fuzzes the `.hexp` front end: parsing, elaboration (name resolution, diagrams, claims,
//! placements named in the text) and the rendering of every diagnostic. Any input must give
//! a program or diagnostics — never a panic. Checking (the searches) is left out: it is
//! bounded by budgets, not by the input's shape.
#![no_main]

#[path = "stack.rs"]
mod stack;

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: stack::catch_stack_overflow(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = hexproof::dsl::parser::parse(text);
    match hexproof::dsl::load_str("fuzz.hexp", text) {
        Ok(p) => {
            let _ = p.modules.len();
        }
        Err((sources, diags)) => {
            for d in &diags {
                let _ = sources.render(d);
            }
        }
    }
});
