#!/usr/bin/env python3
"""Measure a pack PDF's ink and blank paper, page by page and by page type.

    scripts/page-ink.py PACK.pdf [--compare OTHER.pdf] [--dpi 100] [--margin 12.7]

Each page is rendered in grey by `pdftoppm -gray` (poppler) and read as a
PGM; Python 3's standard library does the rest.

- dark pixels: pixels darker than mid-grey (value < 128 of 255);
- ink: the sum of (255 - value) / 255 over all pixels, i.e. how much of the
  page a printer covers, in pixel units (grey counts in part);
- blank share: the page inside the margins (12.7 mm, the packs' half inch)
  cut into 10 mm cells; a cell is blank when no pixel in it is darker than
  200 (no ink at all, allowing for anti-aliasing).

Page types come from the first line of each page's text (pdftotext): the
run sheet (page 1), encounter sheets, card sheets, maps and the journey
log; a card sheet is known by its cards' addresses (`npc/3`); any other
page that starts with no section heading continues the type before.

With --compare, the second PDF's ink and dark pixels are set against the
first's (for the ink saver: default pack first, ink-saver pack second).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

MM = 72.0 / 25.4  # points per millimetre

TYPES = [
    ("Encounter", "encounter"),
    ("NPC cards", "cards"),
    ("Trap cards", "cards"),
    ("Cards", "cards"),
    ("Cut-out cards", "cards"),
    ("Downtime vouchers", "cards"),
    ("Injury and mutation slips", "cards"),
    ("Slips", "cards"),
    ("Point-crawl map", "map"),
    ("GM map", "map"),
    ("Players' map", "map"),
    ("Map", "map"),
    ("Journey", "journey"),
]


def read_pgm(path):
    """Width, height and the grey bytes of a binary PGM (P5, 8 bit)."""
    with open(path, "rb") as f:
        data = f.read()
    fields = []
    pos = 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            while data[pos : pos + 1] not in (b"\n", b""):
                pos += 1
            continue
        start = pos
        while not data[pos : pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    if fields[0] != b"P5" or int(fields[3]) > 255:
        raise ValueError(f"{path}: not an 8-bit binary PGM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1 : pos + 1 + w * h]
    return w, h, pixels


CARD_ADDRESS = re.compile(r"\b(npc|trap|voucher|injury|mutation)/[0-9]+\b")


def page_types(pdf, pages):
    """The type of every page, from its first line of text."""
    out = []
    current = "run sheet"
    for i in range(1, pages + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(i), "-l", str(i), pdf, "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        first = next((l.strip() for l in text.splitlines() if l.strip()), "")
        if i == 1:
            current = "run sheet"
        elif CARD_ADDRESS.search(text):
            # Card sheets have no heading: each card carries its address.
            current = "cards"
        else:
            for prefix, kind in TYPES:
                if first.startswith(prefix):
                    current = kind
                    break
        out.append(current)
    return out


def page_count(pdf):
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True)
    for line in info.stdout.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    raise ValueError(f"{pdf}: no page count")


def measure(pdf, dpi, margin_mm):
    """Per page: (type, dark pixels, ink, blank cells, cells)."""
    pages = page_count(pdf)
    types = page_types(pdf, pages)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["pdftoppm", "-gray", "-r", str(dpi), pdf, os.path.join(tmp, "p")],
            check=True,
        )
        files = sorted(f for f in os.listdir(tmp) if f.endswith(".pgm"))
        for kind, name in zip(types, files):
            w, h, px = read_pgm(os.path.join(tmp, name))
            dark = sum(1 for v in px if v < 128)
            ink = sum(255 - v for v in px) / 255.0
            blank, cells = blank_cells(w, h, px, dpi, margin_mm)
            rows.append((kind, dark, ink, blank, cells))
    return rows


def blank_cells(w, h, px, dpi, margin_mm):
    """Blank and total 10 mm cells inside the margins."""
    per_mm = dpi / 25.4
    m = round(margin_mm * per_mm)
    cell = 10.0 * per_mm
    nx = int((w - 2 * m) // cell)
    ny = int((h - 2 * m) // cell)
    inked = [[False] * nx for _ in range(ny)]
    for y in range(m, m + int(ny * cell)):
        cy = int((y - m) // cell)
        row = px[y * w + m : y * w + m + int(nx * cell)]
        if min(row) >= 200:
            continue
        line = inked[cy]
        for x, v in enumerate(row):
            if v < 200:
                line[int(x // cell)] = True
    blank = sum(1 for r in inked for c in r if not c)
    return blank, nx * ny


def report(pdf, rows):
    print(f"{pdf}: {len(rows)} pages")
    print(f"{'page':>4}  {'type':<10} {'dark px':>9} {'ink':>9} {'blank':>6}")
    for i, (kind, dark, ink, blank, cells) in enumerate(rows, 1):
        print(f"{i:>4}  {kind:<10} {dark:>9} {ink:>9.0f} {100 * blank / cells:>5.1f}%")
    print("by page type (blank share of the 10 mm cells inside the margins):")
    kinds = []
    for r in rows:
        if r[0] not in kinds:
            kinds.append(r[0])
    for k in kinds:
        sel = [r for r in rows if r[0] == k]
        blank = sum(r[3] for r in sel)
        cells = sum(r[4] for r in sel)
        print(f"  {k:<10} {len(sel)} page(s)  blank {100 * blank / cells:5.1f}%")
    blank = sum(r[3] for r in rows)
    cells = sum(r[4] for r in rows)
    dark = sum(r[1] for r in rows)
    ink = sum(r[2] for r in rows)
    print(f"  whole pack {len(rows)} page(s)  blank {100 * blank / cells:5.1f}%  dark px {dark}  ink {ink:.0f}")
    return dark, ink


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdf")
    ap.add_argument("--compare", help="a second PDF (e.g. the ink-saver pack)")
    ap.add_argument("--dpi", type=int, default=100)
    ap.add_argument("--margin", type=float, default=12.7, help="margin in mm")
    args = ap.parse_args()
    dark, ink = report(args.pdf, measure(args.pdf, args.dpi, args.margin))
    if args.compare:
        print()
        dark2, ink2 = report(args.compare, measure(args.compare, args.dpi, args.margin))
        print()
        print(f"{args.compare} against {args.pdf}:")
        print(f"  dark pixels {100 * (1 - dark2 / dark):+.1f}% fewer" if dark else "  no dark pixels")
        print(f"  ink         {100 * (1 - ink2 / ink):+.1f}% less" if ink else "  no ink")
    return 0


if __name__ == "__main__":
    sys.exit(main())
