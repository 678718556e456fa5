#!/usr/bin/env bash
# Run the same battery of commands with two builds of tablewright and
# compare everything they print and write, byte for byte: stdout, stderr,
# exit codes and every pack file. Used to prove that a refactor leaves
# output alone (a deliberate change must be listed in CHANGELOG.md).
#
#   scripts/same-output.sh OLD_BINARY NEW_BINARY [WORKDIR]
#
# Run it from the repository root (it reads session.toml and tests/fixtures).
set -euo pipefail
old=$(realpath "$1"); new=$(realpath "$2")
work=${3:-$(mktemp -d)}
root=$(pwd)
seeds=(goblin-night a b c d e f g h i j k l m n o p q r s t)

battery() {
  local bin=$1 dir=$2
  mkdir -p "$dir"
  local n=0
  run() { # run ARGS... : record stdout, stderr and exit code
    n=$((n + 1))
    local tag; tag=$(printf '%03d' "$n")
    (cd "$root" && "$bin" "$@" >"$dir/$tag.out" 2>"$dir/$tag.err"; echo $? >"$dir/$tag.rc") || true
    printf '%s\n' "$*" >"$dir/$tag.cmd"
  }
  for s in "${seeds[@]}"; do
    run --out "$dir/packs" prep session.toml --seed "$s"
    run --out "$dir/letter" --paper letter --ink-saver prep session.toml --seed "$s"
  done
  run --out "$dir/packs" prep session.toml            # the session's own seed
  run --out "$dir/packs" prep session.toml --seed a   # the same bytes: nothing to do
  run --out "$dir/packs" --ink-saver prep session.toml --seed a   # refused: other bytes
  for s in goblin-night q7; do
    for j in "" --json; do
      run gen npc --count 3 --seed "$s" $j
      run gen npc --system core --count 3 --seed "$s" $j
      run gen npc --archetype bandit-captain --tier 2 --seed "$s" $j
      run gen injury --count 3 --seed "$s" $j
      run gen injury --permanent --character tests/fixtures/characters/sybilla.toml --seed "$s" $j
      run gen mutation --count 3 --character tests/fixtures/characters/sybilla.toml --seed "$s" $j
      run gen forage --count 3 --terrain swamp --kits fishing,trapping --water --seed "$s" $j
      run gen trap --count 3 --seed "$s" $j
      run gen trap --from parts --poise 1,2,3 --seed "$s" $j
      run gen encounter --count 3 --terrain ruins --party tests/fixtures/party.toml --seed "$s" $j
      run gen encounter --count 2 --system core --party 3,4,4,5 --seed "$s" $j
      run gen map --count 2 --stops 9 --terrain road,forest --seed "$s" $j
      run gen map --players --seed "$s" $j
    done
    run gen map --svg --seed "$s"
    run gen map --svg --players --seed "$s"
    run gen map --json --seed "$s" --stops 12
    cp "$dir/$(printf '%03d' "$n").out" "$dir/map-$s.json"
    run gen journey --map "$dir/map-$s.json" --count 2 --seed "$s"
    run gen journey --map "$dir/map-$s.json" --route shortest --rations 1 --water 0 --kits fishing --json --seed "$s"
    run roll --seed "$s" 3d6 "5D vs 3 twist" 4d6kh3 "d6!" "save 12" 1:4 "cp 18" "contest 10 8" d66
    run roll --seed "$s" --json 3d6 "2D+3"
    run check 5 --vs 3 --raise 1 --twist --team 2,3 --seed "$s"
    run table core.injury --times 5 --seed "$s"
    run table core.injury --times 2 --json --seed "$s"
  done
  run odds "5D vs 3"; run odds --json 4d6kh3; run odds --table core.mutation
  run tables; run tables --json; run validate; run validate --json
  # bad input: messages and exit codes
  run roll 2d6x4 --seed x; run roll 1000000d1000000; run odds 6d6116kh1
  run gen npc --archetype nobody --seed x; run gen npc --count 0; run gen encounter --terrain saltflats --seed x
  run gen journey --map nowhere.json; run gen injury --character nowhere.toml
  run table no.such.table; run table core.injury --times 0
  run check x --vs 3; run check 5 --vs "3 twist"; run odds
  for d in "$root"/tests/fixtures/invalid/*/; do run --content "$d" validate; done
  run prep nowhere.toml; run --paper a5 prep session.toml
  for f in "$root"/tests/fixtures/characters/*.toml; do run gen injury --character "$f" --seed x; done
}

battery "$old" "$work/old"
battery "$new" "$work/new"
# Paths inside outputs name the work folder; make them comparable.
find "$work/old" "$work/new" -type f \( -name '*.out' -o -name '*.err' -o -name '*.cmd' \) \
  -exec sed -i -e "s#$work/old#WORK#g" -e "s#$work/new#WORK#g" {} +
if diff -r "$work/old" "$work/new" >"$work/diff.txt"; then
  echo "same: $(find "$work/new" -type f | wc -l) files and outputs identical ($work)"
else
  echo "DIFFERENT: see $work/diff.txt"; head -50 "$work/diff.txt"; exit 1
fi
