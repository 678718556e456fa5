#!/usr/bin/env bash
# Peer comparison: the same dice expressions through tablewright,
# @dice-roller/rpg-dice-roller (npm) and avrae's d20 (PyPI), and the exact
# METTLE success table (pools 1-20 x Difficulties 0-30) through icepool
# (PyPI), in one run. Prints rolls per second, microseconds per table and
# the ratios; then the same grid as a whole command — `tablewright check
# 1-20 --vs 0-30` against a Python script printing it with icepool — in
# milliseconds per process. Peers are installed into a scratch folder, not
# the project.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${TMPDIR:-/tmp}/tablewright-peers"
mkdir -p "$work"
if [ ! -d "$work/node_modules/@dice-roller/rpg-dice-roller" ]; then
  (cd "$work" && npm init -y >/dev/null && npm install --silent @dice-roller/rpg-dice-roller)
fi
python3 -m pip install -q --target "$work/py" d20 icepool >/dev/null 2>&1 || true
export PYTHONPATH="$work/py:${PYTHONPATH:-}"

cargo run --quiet --release --example throughput > "$work/ours.tsv"
cargo build --quiet --release

cat > "$work/rpg.mjs" <<'JS'
import { DiceRoller } from '@dice-roller/rpg-dice-roller';
const roller = new DiceRoller();
// `d6!` is the Core Rules explosion here and penetrating (`!p`) there.
for (const [name, notation] of [['3d6','3d6'],['2d6+4','2d6+4'],['4d6kh3','4d6kh3'],['d6!','1d6!p'],
    ['4d6dl1','4d6dl1'],['2d6ro<3','2d6ro<3'],['5d10>=8','5d10>=8'],['3d6!!','3d6!!']]) {
  let n = 0; const start = performance.now();
  while (performance.now() - start < 800) { for (let i = 0; i < 200; i++) roller.roll(notation); n += 200; }
  console.log(`rpg-dice-roller\t${name}\t${Math.round(n / ((performance.now() - start) / 1000))}`);
}
JS
(cd "$work" && node rpg.mjs) > "$work/rpg.tsv"

python3 - > "$work/py.tsv" <<'PY'
import time, d20, icepool
# d20 has no penetrating explosion, counting or compounding: nearest forms.
for name, notation in [("3d6","3d6"),("2d6+4","2d6+4"),("4d6kh3","4d6kh3"),("d6!","1d6e6"),
                       ("4d6dl1","4d6pl1"),("2d6ro<3","2d6ro<3")]:
    n = 0; start = time.perf_counter()
    while time.perf_counter() - start < 0.8:
        for _ in range(200):
            d20.roll(notation)
        n += 200
    print(f"d20\t{name}\t{n / (time.perf_counter() - start):.0f}")
# The METTLE table: faces 1-3 add to the Score, 4-6 add nothing to it.
score = icepool.Die([1, 2, 3, 0, 0, 0])
def table():
    return [[(n @ score).probability('>', d) for d in range(31)] for n in range(1, 21)]
table()
runs = 3; start = time.perf_counter()
for _ in range(runs):
    table()
print(f"icepool\tmettle-table\t{(time.perf_counter() - start) / runs * 1e6:.1f}")
PY

# The whole grid from the command line: one process each, timed end to end
# (start-up included), the median of 15 runs.
cat > "$work/grid.py" <<'PY'
import icepool
score = icepool.Die([1, 2, 3, 0, 0, 0])
print("pool " + " ".join(f"{d:>7}" for d in range(31)))
for n in range(1, 21):
    print(f"{n:>3}D " + " ".join(f"{float((n @ score).probability('>', d)) * 100:6.2f}%" for d in range(31)))
PY
python3 - "$PWD/target/release/tablewright" "$work/grid.py" > "$work/grid.tsv" <<'PY'
import statistics, subprocess, sys, time
ours, script = sys.argv[1], sys.argv[2]
for who, argv in [("tablewright", [ours, "check", "1-20", "--vs", "0-30"]),
                  ("icepool", [sys.executable, script])]:
    times = []
    for _ in range(15):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    print(f"{who}\tgrid-process\t{statistics.median(times):.2f}")
PY

python3 - "$work/ours.tsv" "$work/rpg.tsv" "$work/py.tsv" "$work/grid.tsv" <<'PY'
import sys, collections
rates = collections.defaultdict(dict)
for path in sys.argv[1:]:
    for line in open(path):
        who, what, value = line.strip().split("\t")
        rates[what][who] = float(value)
print(f"{'expression':<14}{'tablewright':>14}{'rpg-dice-roller':>17}{'d20':>12}{'ratio to best':>15}")
for what in ["3d6", "2d6+4", "4d6kh3", "d6!", "4d6dl1", "2d6ro<3", "5d10>=8", "3d6!!"]:
    r = rates[what]; best = max(r.get("rpg-dice-roller", 0), r.get("d20", 0), 1)
    print(f"{what:<14}{r['tablewright']:>14,.0f}{r.get('rpg-dice-roller', 0):>17,.0f}{r.get('d20', 0):>12,.0f}{r['tablewright'] / best:>14.0f}x")
t = rates["mettle-table"]
print(f"METTLE table (µs): tablewright {t['tablewright']:.1f}, icepool {t.get('icepool', float('nan')):.0f} "
      f"({t.get('icepool', 0) / t['tablewright']:.0f}x)")
g = rates["grid-process"]
print(f"METTLE grid as a command (ms per process): tablewright {g['tablewright']:.2f}, "
      f"icepool script {g.get('icepool', float('nan')):.1f} ({g.get('icepool', 0) / g['tablewright']:.0f}x)")
PY
