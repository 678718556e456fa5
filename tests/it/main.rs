//! The one integration test binary: the real `tablewright` run as a user
//! would, one module per thing it specifies. Shared helpers are in `common`.
//!
//! - `architecture`: every module uses only what ARCHITECTURE.md allows
//! - `house`: issue 39: function and file lengths, circles of files and
//!   lib.rs's public modules, held by a ratchet that only tightens
//! - `common`: run the binary, read its output, fixtures, temp folders,
//!   goldens; `Test`, a builder for one run in a fresh folder, and `Run`,
//!   its checks; `prep_in`, the one way a test runs `prep`
//! - `cli`: roll, odds, check, usage errors and help
//! - `tables`: validate, tables, table, odds --table and user overrides
//! - `generators`: generators, golden items, characters and parties, maps, journeys
//! - `homebrew`: the GM's own regions, archetypes and extensions, `init`,
//!   validate proving generation, and the fixture property test
//! - `prep`: session packs, golden handouts and refusals
//! - `interop`: `export` and `import`: Foundry, Obsidian, Markdown, CSV
//!   and JSON, every built-in table round trip, real Foundry RollTables
//! - `pdf`: the pack PDF, checked with poppler-utils when installed
//! - `systems`: one system per pack (no other system's words over 50 seeds)
//! - `cards`: the card sheets' geometry, measured in the pack PDF
//! - `share`: `--only`, `--reroll`, bundles, `verify`, `gen --item`, 20 pinned packs
//! - `escaping`: issue 28 finding 4: hostile names and table rows are text
//!   in every Markdown flavour, the SVGs and the terminal (cmark-gfm renders)
//! - `flavours`: `prep --md` obsidian and homebrewery folders, verify, reroll
//! - `generator_files`: issue 41: Inspiration Pad Pro and TableSmith files
//!   imported with the original odds (own fixtures, and the shared real
//!   files when present); `generator_refusals`: every refused construct,
//!   `--from`, the IPP round trip; `generator_perchance`: Perchance
//!   generators and Obsidian Dice Roller notes, their refusals, the real
//!   generators when present, the Perchance round trip; `generator_text`:
//!   issue 53: imported generators read as their engines' (no `Name: text`)
//! - `shell`: `completions` for every shell and the `manpage`
//! - `bad_input`: every class of bad input, through the real binary, one
//!   `#[test]` per case
//! - `docs`: the README, CONTRIBUTING, ARCHITECTURE and the guide name only
//!   files, paths and commands that exist
//! - `campaign_play`: issue 29: a METTLE and a Core campaign played for
//!   three sessions (init, prep, record, prep, …), each pack and the
//!   ledger's figures asserted, every pack rebuilt byte for byte
//! - `living`: issue 28: hand edits, links, permissions, control
//!   characters, stray state; one test per finding
//! - `long_campaign`: issue 38: a ten-session METTLE and a six-session Core
//!   campaign played with the GM's mistakes, shared by the tests of its
//!   promises (Twist, stable PCs, sitting out, stale packs, GM files)
//! - `memory`: issue 32: a big table file loaded, or refused, in memory
//!   within ten times its bytes (the child's peak resident set)
//! - `memory_campaign`: issue 38, item 3: a campaign remembers what it
//!   used (no situation, NPC name or PC's name repeated while rows remain,
//!   said once when used up); journey encounters and returning NPCs
//!   recorded by the addresses the sheets print
//! - `memory_fifty`: issue 50, item 5: fifty sessions in one terrain and
//!   in a mixed region, both systems: repeats of what the party met
//!   measured from session 21 on, every one announced
//! - `traps_fitted`: issue 38 item 8: traps chosen and sized for the party,
//!   each PC's odds, the run sheet's deadly-trap flag, era tags
//! - `safety`: the pack folder's promises: crash safety, two preps at once,
//!   links, `--force` and the manifest
//! - `ledger_drift`: issue 51: every printed journey address accepted,
//!   one reachability rule, supplies conserved, a smaller party's `prep`,
//!   serials derived from what they name, a property test over campaigns
//! - `table_pack`: issue 38 item 6: a campaign's pack for the table
//!   ("Previously" on page 1, filled tracks, Heal Checks due, compact
//!   cards, no spill-over pages, every record key on the After sheet)

mod architecture;
mod bad_input;
mod campaign_play;
mod cards;
mod cli;
mod common;
mod docs;
mod escaping;
mod flavours;
mod generator_files;
mod generator_kit;
mod generator_perchance;
mod generator_refusals;
mod generator_text;
mod generators;
mod gm_files;
mod homebrew;
mod house;
mod interop;
mod ledger_drift;
mod living;
mod long_campaign;
mod memory;
mod memory_campaign;
mod memory_fifty;
mod pdf;
mod play_browser;
mod play_log;
mod play_table;
mod prep;
mod safety;
mod seasons;
mod share;
mod shell;
mod systems;
mod table_pack;
mod tables;
mod traps_fitted;
