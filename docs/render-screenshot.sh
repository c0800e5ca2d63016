#!/usr/bin/env bash
# Regenerates a screenshot of a rendered proof page (docs/render-hex4-corner.png by default).
# Needs Debian's `chromium` (apt-get install -y chromium) and, to keep the PNG small, `pngquant`.
# usage: docs/render-screenshot.sh [PROOF.hexp] [OUT.png]
set -euo pipefail
proof=${1:-proofs/examples/hex4-corner.hexp}
out=${2:-docs/render-hex4-corner.png}
tmp=$(mktemp -d)
cargo run --release --quiet -- render "$proof" --html "$tmp/page.html" || [ $? -ne 2 ]
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --screenshot="$tmp/shot.png" --window-size=1200,1600 \
  "file://$tmp/page.html" 2>/dev/null
pngquant --quality 70-95 --speed 1 --force --output "$out" "$tmp/shot.png"
rm -rf "$tmp"
ls -l "$out"
