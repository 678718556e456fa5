#!/usr/bin/env bash
# Renders the sample pack on A4 and writes one small picture of each sheet
# to docs/src/images/ (the README shows them). Needs poppler-utils (pdftoppm).
# Usage: scripts/page-pictures.sh [path/to/tablewright]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/tablewright}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" prep session.toml --out "$out" >/dev/null
pdf=$(ls "$out"/*/pack.pdf)
mkdir -p docs/src/images
# Page numbers of the sample pack's sheets (see its run sheet's contents).
for spec in 1:run-sheet 2:encounter-sheet 4:gm-map 5:players-map 6:journey-log 7:card-sheet; do
  pdftoppm -png -r 30 -f "${spec%%:*}" -l "${spec%%:*}" -singlefile "$pdf" "docs/src/images/${spec#*:}"
done
