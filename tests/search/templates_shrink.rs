//! Certificate shrinking (src/templates/cert_shrink.rs): every stored lemma and template
//! certificate, shrunk, is still accepted by the kernel and is never larger.

use hexproof::kernel;
use hexproof::templates::cert_shrink::shrink;
use hexproof::templates::library::decode_certificate;

use crate::common_templates;
use common_templates::library;

#[test]
fn shrunk_lemma_certificates_are_accepted_and_smaller() {
    let lib = library();
    let (_, lf) = lib.lemmas.expect("templates/proofs.json is shipped");
    for r in &lf.lemmas {
        let Some(sc) = &r.certificate else { continue };
        let (game, carrier, ends) = r.sub_game().expect("record places");
        let cert = decode_certificate(sc, &carrier, &ends).expect("decodes");
        kernel::check(&game, &cert).expect("stored certificate holds");
        let small = shrink(&game, &cert);
        kernel::check(&game, &small)
            .unwrap_or_else(|e| panic!("{}: shrunk certificate refused: {e}", r.name));
        println!(
            "{:<32} {:>7} -> {:>7}",
            r.name,
            cert.nodes.len(),
            small.nodes.len()
        );
        assert!(small.nodes.len() <= cert.nodes.len(), "{}", r.name);
    }
}

/// Re-encodes a lemma file in the compact form and reports its size (a tool, not a check):
/// `HEXPROOF_LEMMA_FILE=/tmp/proofs.json cargo test --release --test templates_shrink -- --ignored`
#[test]
#[ignore]
fn reencode_compact() {
    use hexproof::lemmas::{format_lemma_file, LemmaFile};
    use hexproof::templates::library::encode_certificate_compact;
    let path = std::env::var("HEXPROOF_LEMMA_FILE").expect("HEXPROOF_LEMMA_FILE");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut lf: LemmaFile = serde_json::from_str(&text).expect("a lemma file");
    let t = std::time::Instant::now();
    for r in &mut lf.lemmas {
        let Some(sc) = &r.certificate else { continue };
        let (game, carrier, ends) = r.sub_game().expect("record places");
        let cert = decode_certificate(sc, &carrier, &ends).expect("decodes");
        kernel::check(&game, &cert).expect("holds");
        let small = shrink(&game, &cert);
        kernel::check(&game, &small).expect("shrunk holds");
        let c = encode_certificate_compact(&small, &carrier, &ends).expect("encodes");
        let back = decode_certificate(&c, &carrier, &ends).expect("decodes back");
        assert_eq!(back, small, "{}", r.name);
        r.certificate = Some(c);
        r.digest = r.compute_digest();
    }
    let out = format_lemma_file(&lf);
    println!("{} bytes, {:.2} s", out.len(), t.elapsed().as_secs_f64());
    std::fs::write(format!("{path}.compact"), out).expect("writable");
}
