//! Packed certificate nodes: how `templates/published.json` stores a record's certificate
//! (docs/templates.md, "Packed certificates").
//!
//! A [`StoredCert`]'s nodes written as JSON objects, one per line, cost about 50 bytes a node;
//! the large Selinger certificates (180,000 nodes) added about 8 MB each and took the store
//! over 100 MiB. Packed, the same nodes are a byte stream, deflated and written as one base64
//! string (`"packed"` in place of `"nodes"`), about 7 bytes a node in the file.
//!
//! **Only the file form changes.** Unpacking gives back exactly the [`StoredNode`]s that were
//! packed (the same mask strings, goal codes, replies and children), so a record read from
//! either form is the same value: the same digest ([`super::library::digest_json`] serialises
//! the nodes as objects, never packed), the same certificate for the kernel. [`pack_nodes`]
//! unpacks what it packed and gives up (`None`, the writer then keeps the object form) when
//! the two differ, e.g. for a mask that is not in canonical hexadecimal. Nothing here is
//! trusted: a damaged string is an error, and whatever unpacks is re-checked by the kernel.
//!
//! The stream (before deflate): the node count (varint), then per node a tag byte (bit 0: `s`
//! present, 1: `c`, 2: `g`, 3: `or`, 4: `and`, 5: `e`; the other bits zero) and the present
//! fields in the order `s`, `c`, `g`, `e`, `or`, `and`: a mask as the varint of its value; a
//! goal pair as two zigzag varints; a union's further pairs (`e`) as their count and two
//! zigzag varints per pair; an
//! or-node as its option count and per option the reply (varint) and `i − next` (zigzag
//! varint, `i` the node's own index: children usually come just before their parents); an
//! and-node as its child count and `i − child` per child (zigzag varint). Varints are LEB128.

use super::library::StoredNode;

/// Most bytes a packed certificate may inflate to (the largest stored one is about 5 MB).
const MAX_INFLATED: usize = 1 << 28;

/// Deflate level (miniz's default; higher levels gained under 2 % on the store).
const LEVEL: u8 = 6;

const TAG_S: u8 = 1;
const TAG_C: u8 = 2;
const TAG_G: u8 = 4;
const TAG_OR: u8 = 8;
const TAG_AND: u8 = 16;
const TAG_E: u8 = 32;

fn put_varint(out: &mut Vec<u8>, mut x: u128) {
    loop {
        let b = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn zigzag(x: i64) -> u128 {
    ((x << 1) ^ (x >> 63)) as u64 as u128
}

/// The canonical mask value of a stored mask string, `None` when the string would not come
/// back from its value (leading zeros, capitals, not hexadecimal, over 128 bits).
fn canonical_mask(s: &str) -> Option<u128> {
    let m = u128::from_str_radix(s, 16).ok()?;
    (format!("{m:x}") == s).then_some(m)
}

/// The nodes as a packed string, or `None` when they do not pack to exactly themselves.
pub fn pack_nodes(nodes: &[StoredNode]) -> Option<String> {
    let mut out = Vec::with_capacity(nodes.len() * 8);
    put_varint(&mut out, nodes.len() as u128);
    for (i, n) in nodes.iter().enumerate() {
        let mut tag = 0;
        for (present, bit) in [
            (!n.s.is_empty(), TAG_S),
            (!n.c.is_empty(), TAG_C),
            (n.g.is_some(), TAG_G),
            (n.or.is_some(), TAG_OR),
            (n.and.is_some(), TAG_AND),
            (n.e.is_some(), TAG_E),
        ] {
            if present {
                tag |= bit;
            }
        }
        out.push(tag);
        for m in [&n.s, &n.c] {
            if !m.is_empty() {
                put_varint(&mut out, canonical_mask(m)?);
            }
        }
        if let Some([a, z]) = n.g {
            put_varint(&mut out, zigzag(a.into()));
            put_varint(&mut out, zigzag(z.into()));
        }
        if let Some(ps) = &n.e {
            put_varint(&mut out, ps.len() as u128);
            for &[a, z] in ps {
                put_varint(&mut out, zigzag(a.into()));
                put_varint(&mut out, zigzag(z.into()));
            }
        }
        let back = |next: u32| zigzag(i as i64 - i64::from(next));
        if let Some(rs) = &n.or {
            put_varint(&mut out, rs.len() as u128);
            for &[reply, next] in rs {
                put_varint(&mut out, reply.into());
                put_varint(&mut out, back(next));
            }
        }
        if let Some(cs) = &n.and {
            put_varint(&mut out, cs.len() as u128);
            for &c in cs {
                put_varint(&mut out, back(c));
            }
        }
    }
    let text = base64_encode(&miniz_oxide::deflate::compress_to_vec(&out, LEVEL));
    // Packing must lose nothing: what unpacks is what was packed, or the object form is kept.
    (unpack_nodes(&text).ok()?.as_slice() == nodes).then_some(text)
}

/// Reads a byte stream written by [`pack_nodes`].
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or("packed certificate: the stream ends inside a node")?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u128, String> {
        let mut x: u128 = 0;
        for shift in (0..128).step_by(7) {
            let b = self.byte()?;
            let bits = u128::from(b & 0x7f);
            if shift == 126 && bits > 3 {
                break;
            }
            x |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err("packed certificate: a number over 128 bits".into())
    }

    fn small(&mut self, what: &str) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|_| format!("packed certificate: {what} too large"))
    }

    fn signed(&mut self) -> Result<i64, String> {
        let z = u64::try_from(self.varint()?)
            .map_err(|_| "packed certificate: a signed number over 64 bits".to_string())?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }

    /// A node index written as `i − index`.
    fn index(&mut self, i: usize) -> Result<u32, String> {
        let d = self.signed()?;
        (i as i64)
            .checked_sub(d)
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| format!("packed certificate: node {i} points outside 0..2^32"))
    }
}

/// The nodes of a packed string ([`pack_nodes`]); an error names what is wrong with it.
pub fn unpack_nodes(text: &str) -> Result<Vec<StoredNode>, String> {
    let deflated = base64_decode(text)?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED)
        .map_err(|e| format!("packed certificate: does not inflate ({:?})", e.status))?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let count = r.varint()?;
    // Every node takes at least its tag byte.
    if count > (bytes.len() - r.at) as u128 {
        return Err(format!(
            "packed certificate: {count} nodes announced in {} bytes",
            bytes.len()
        ));
    }
    let mut nodes = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let tag = r.byte()?;
        if tag & !(TAG_S | TAG_C | TAG_G | TAG_OR | TAG_AND | TAG_E) != 0 {
            return Err(format!("packed certificate: node {i} has tag {tag:#x}"));
        }
        let mut mask = |bit: u8| -> Result<String, String> {
            Ok(if tag & bit != 0 {
                format!("{:x}", r.varint()?)
            } else {
                String::new()
            })
        };
        let s = mask(TAG_S)?;
        let c = mask(TAG_C)?;
        let mut code = || -> Result<i32, String> {
            i32::try_from(r.signed()?)
                .map_err(|_| format!("packed certificate: node {i}: goal code too large"))
        };
        let g = if tag & TAG_G != 0 {
            Some([code()?, code()?])
        } else {
            None
        };
        let e = if tag & TAG_E != 0 {
            let k = r.small("a pair count")?;
            let mut ps = Vec::new();
            for _ in 0..k {
                let a = i32::try_from(r.signed()?)
                    .map_err(|_| format!("packed certificate: node {i}: goal code too large"))?;
                let z = i32::try_from(r.signed()?)
                    .map_err(|_| format!("packed certificate: node {i}: goal code too large"))?;
                ps.push([a, z]);
            }
            Some(ps)
        } else {
            None
        };
        let or = if tag & TAG_OR != 0 {
            let k = r.small("an option count")?;
            let mut rs = Vec::new();
            for _ in 0..k {
                let reply = r.small("a reply")?;
                rs.push([reply, r.index(i)?]);
            }
            Some(rs)
        } else {
            None
        };
        let and = if tag & TAG_AND != 0 {
            let k = r.small("a child count")?;
            let mut cs = Vec::new();
            for _ in 0..k {
                cs.push(r.index(i)?);
            }
            Some(cs)
        } else {
            None
        };
        nodes.push(StoredNode {
            s,
            c,
            g,
            e,
            or,
            and,
        });
    }
    if r.at != bytes.len() {
        return Err(format!(
            "packed certificate: {} bytes after the last node",
            bytes.len() - r.at
        ));
    }
    Ok(nodes)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 (RFC 4648, padded).
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                s.push(ALPHABET[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Decodes [`base64_encode`]'s text; anything else (wrong length, other characters, padding
/// inside, non-zero padding bits) is an error.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let t = text.as_bytes();
    if !t.len().is_multiple_of(4) {
        return Err("packed certificate: base64 length not a multiple of 4".into());
    }
    let value = |c: u8| -> Option<u32> { ALPHABET.iter().position(|&a| a == c).map(|p| p as u32) };
    let mut out = Vec::with_capacity(t.len() / 4 * 3);
    for (q, quad) in t.chunks(4).enumerate() {
        let last = q + 1 == t.len() / 4;
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return Err("packed certificate: misplaced base64 padding".into());
        }
        let mut v: u32 = 0;
        for &c in &quad[..4 - pad] {
            let d = value(c).ok_or("packed certificate: not base64")?;
            v = v << 6 | d;
        }
        v <<= 6 * pad as u32;
        let got = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        let keep = 3 - pad;
        if got[keep..].iter().any(|&b| b != 0) {
            return Err("packed certificate: non-zero base64 padding bits".into());
        }
        out.extend_from_slice(&got[..keep]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn node() -> impl Strategy<Value = StoredNode> {
        let mask = prop_oneof![
            Just(String::new()),
            any::<u128>().prop_map(|m| format!("{m:x}"))
        ];
        (
            mask.clone(),
            mask,
            proptest::option::of(any::<[i32; 2]>()),
            proptest::option::of(proptest::collection::vec(any::<[i32; 2]>(), 0..3)),
            proptest::option::of(proptest::collection::vec(any::<[u32; 2]>(), 0..5)),
            proptest::option::of(proptest::collection::vec(any::<u32>(), 0..5)),
        )
            .prop_map(|(s, c, g, e, or, and)| StoredNode {
                s,
                c,
                g,
                e,
                or,
                and,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 300,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..ProptestConfig::default()
        })]
        /// Any nodes in canonical form pack and unpack to themselves (the naive reference is
        /// the value itself).
        #[test]
        fn pack_round_trips(nodes in proptest::collection::vec(node(), 0..40)) {
            let text = pack_nodes(&nodes).expect("canonical nodes pack");
            prop_assert_eq!(unpack_nodes(&text).unwrap(), nodes);
        }

        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
            prop_assert_eq!(base64_decode(&base64_encode(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn base64_matches_rfc4648() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(plain.as_bytes()), coded);
            assert_eq!(base64_decode(coded).unwrap(), plain.as_bytes());
        }
        for bad in ["Zg=", "Zg=a", "Z===", "Zh==", "Zm9v!A==", "Zg==Zg=="] {
            assert!(base64_decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn non_canonical_masks_do_not_pack() {
        for m in ["0804", "80A", "x"] {
            let n = StoredNode {
                s: m.into(),
                c: String::new(),
                g: None,
                e: None,
                or: None,
                and: None,
            };
            assert_eq!(pack_nodes(&[n]), None, "{m}");
        }
    }

    #[test]
    fn damaged_streams_are_rejected() {
        let stream =
            |bytes: &[u8]| base64_encode(&miniz_oxide::deflate::compress_to_vec(bytes, LEVEL));
        // One joined node: count 1, tag 0.
        assert_eq!(unpack_nodes(&stream(&[1, 0])).unwrap().len(), 1);
        for (bytes, why) in [
            (&[1u8, 0, 0][..], "after the last node"),
            (&[2, 0], "announced"),
            (&[1, 64], "tag"),
            (&[1, TAG_S], "ends inside"),
            (&[1, TAG_AND, 1, 4], "outside"),
            (
                &[
                    1, TAG_S, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                ],
                "128 bits",
            ),
        ] {
            let e = unpack_nodes(&stream(bytes)).unwrap_err();
            assert!(e.contains(why), "{bytes:?}: {e}");
        }
        assert!(unpack_nodes("AAAA").unwrap_err().contains("inflate"));
        assert!(unpack_nodes("A").unwrap_err().contains("base64"));
    }
}
