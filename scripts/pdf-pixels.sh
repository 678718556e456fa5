#!/usr/bin/env bash
# Compares the PDFs two builds of tablewright write, page by page, to the
# pixel: run when the PDF writer changes (issue 54: printpdf back as the
# writer; the comparison issue 39 made when it was dropped).
#
#   scripts/pdf-pixels.sh BEFORE_BINARY AFTER_BINARY [WORK_DIR]
#
# Both binaries prep the same packs: the METTLE sample on A4, on letter and
# with the ink saver; the Core sample on A4 and on letter with the ink
# saver; a 300-stop region (its atlas) on A4 and on letter; a party named in
# Latin, Greek, Cyrillic, CJK, kana and emoji. For each PDF: every page
# rendered with `pdftoppm -r 100` must be the same image, `pdftotext` and
# the outline (`mutool show … outline`) the same, and `qpdf --check` clean
# on the new one. Prints a line per PDF and a total; exits 1 on any
# difference. Needs poppler-utils, qpdf and mupdf-tools.
set -euo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
work=${3:-$(mktemp -d)}
mkdir -p "$work"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The sessions: NAME FILE [prep options].
sessions="$work/sessions"
mkdir -p "$sessions"
sed -e 's/stops = 10/stops = 300/' -e "s|tests/fixtures/party-mettle.toml|$root/tests/fixtures/party-mettle.toml|" \
    session.toml > "$sessions/atlas.toml"
sed 's/Фёдор/Фёдор 🐉/; s/さくら/さくら 😀✨/' tests/fixtures/party-world.toml > "$sessions/party-world.toml"
sed -e "s|tests/fixtures/party-mettle.toml|$sessions/party-world.toml|" \
    -e 's/\["Viktor", "Kirin"\]/["李雷", "さくら 😀✨"]/' session.toml > "$sessions/world.toml"
cases=(
  "mettle-a4 session.toml"
  "mettle-letter session.toml --paper letter"
  "mettle-ink session.toml --paper letter --ink-saver"
  "core-a4 session-core.toml"
  "core-letter-ink session-core.toml --paper letter --ink-saver"
  "atlas-a4 $sessions/atlas.toml"
  "atlas-letter $sessions/atlas.toml --paper letter"
  "world-a4 $sessions/world.toml"
  "world-ink $sessions/world.toml --ink-saver"
)

pages_total=0
failed=0
for case in "${cases[@]}"; do
  read -r name file opts <<< "$case"
  for side in before after; do
    bin=$before
    [ "$side" = after ] && bin=$after
    rm -rf "$work/$side/$name"
    # shellcheck disable=SC2086
    if ! "$bin" prep "$file" --out "$work/$side/$name" $opts > /dev/null 2> "$work/$side-$name.err"; then
      echo "prep failed ($side, $name):" >&2
      cat "$work/$side-$name.err" >&2
      exit 2
    fi
  done
  old=$(ls "$work"/before/"$name"/*/pack*.pdf)
  new=$(ls "$work"/after/"$name"/*/pack*.pdf)
  problems=()
  for side in before after; do
    pdf=$old
    [ "$side" = after ] && pdf=$new
    rm -rf "$work/png-$side"
    mkdir -p "$work/png-$side"
    pdftoppm -r 100 "$pdf" "$work/png-$side/p"
    pdftotext "$pdf" "$work/$side-$name.txt"
    mutool show "$pdf" outline > "$work/$side-$name.outline"
  done
  n=$(find "$work/png-before" -name 'p-*.ppm' | wc -l)
  m=$(find "$work/png-after" -name 'p-*.ppm' | wc -l)
  [ "$n" = "$m" ] || problems+=("$n pages before, $m after")
  same=0
  for page in "$work"/png-before/p-*.ppm; do
    if cmp -s "$page" "$work/png-after/$(basename "$page")"; then
      same=$((same + 1))
    else
      problems+=("page $(basename "$page" .ppm) differs")
    fi
  done
  cmp -s "$work/before-$name.txt" "$work/after-$name.txt" || problems+=("pdftotext differs")
  cmp -s "$work/before-$name.outline" "$work/after-$name.outline" || problems+=("outline differs")
  qpdf --check "$new" > "$work/after-$name.qpdf" 2>&1 || problems+=("qpdf --check: $(tail -1 "$work/after-$name.qpdf")")
  grep -q "No syntax or stream encoding errors found" "$work/after-$name.qpdf" || problems+=("qpdf found errors")
  pages_total=$((pages_total + n))
  outline=$(wc -l < "$work/after-$name.outline")
  if [ ${#problems[@]} -eq 0 ]; then
    echo "same   $name: $same/$n pages identical, text and outline ($outline entries) identical, qpdf clean"
  else
    failed=1
    echo "DIFFER $name: $same/$n pages identical; ${problems[*]}"
  fi
done
echo "$pages_total pages compared at 100 dpi in $work"
exit $failed
