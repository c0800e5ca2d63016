//! The command line shared by the template probes (`intrusions`, `solver_probe`): a template
//! name (or list), a node budget, then the example's own arguments.
use hexproof::edge_template::EdgeTemplate;

/// The arguments, the node budget (the second argument) and the HexWiki templates
/// (tests/fixtures/edge-templates-hexwiki.json); exits 2 with `usage` on bad input.
pub fn probe_args(usage: &str) -> (Vec<String>, u64, Vec<EdgeTemplate>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    let Ok(nodes) = args[1].parse::<u64>() else {
        eprintln!("error: NODES must be a number, got {:?}", args[1]);
        std::process::exit(2);
    };
    let all = EdgeTemplate::parse_list(include_str!(
        "../../tests/fixtures/edge-templates-hexwiki.json"
    ))
    .expect("the fixture parses");
    (args, nodes, all)
}
