//! [`UsageError`]: every command-line mistake, one variant each — arguments
//! that do not fit together, and the few that only a file read shows
//! wrong (an address the session has no item at, a bundle given
//! `--seed`). Each exits with 2 ([`super::Error::Usage`]); the messages
//! are the tool's, word for word.

use std::fmt;

use crate::dice::limits;
use crate::input::limits::{MAX_REROLLS, MAX_SESSIONS};

/// A command-line mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageError {
    /// `odds` with neither an expression nor `--table`.
    OddsNeedsInput,
    /// `check POOL`: not a number of dice in range.
    CheckPool { pool: String },
    /// `check --vs`: more than a Difficulty.
    CheckVs { vs: String },
    /// `check POOL` or `--vs` with a `-` that is no range of whole
    /// numbers, low first, within the limit.
    CheckRange {
        arg: &'static str,
        text: String,
        max: u32,
    },
    /// `check` ranges making a grid of more cells than one shows.
    CheckGrid { cells: u64 },
    /// `check`: bonus or penalty dice, or the damage bonus, past the limits.
    CheckLimits,
    /// `check --team`: too many teammates or pools too big.
    CheckTeam,
    /// `check`: more dice in all than the limits allow.
    CheckDice { dice: u32 },
    /// `check --raise`: more raised dice than the pool has.
    CheckRaise { raises: u32, dice: u32 },
    /// `table --times`: out of 1 to 10000.
    TableTimes { times: usize },
    /// `table`: the results would print more than the output cap.
    TableOutput {
        times: usize,
        id: String,
        max_mib: usize,
    },
    /// `gen --count`: out of 1 to `max`.
    GenCount { count: usize, max: usize },
    /// `gen --item`: out of 1 to `max`.
    GenItem { item: usize, max: usize },
    /// `gen --reroll` or `--session` without `--item`.
    WithoutItem { flag: &'static str },
    /// `gen --reroll K`: more than a session's `[rerolls]` allows.
    TooManyRerolls { reroll: u32 },
    /// `gen voucher` with no `--holder`.
    VoucherHolders,
    /// `gen npc --terrain`: no such terrain in the tables in effect.
    NpcTerrain { terrain: String, why: String },
    /// `gen trap --terrain` naming no terrain in effect.
    TrapTerrain { terrain: String, why: String },
    /// `gen trap --system core --poise`.
    CorePoise,
    /// `gen trap --system core --from rules`.
    CoreRulesTraps,
    /// `gen trap --poise … --party …`.
    PoiseAndParty,
    /// `gen map --svg --count N`.
    MapSvgCount,
    /// `gen journey` without `--map` (or `--session`).
    JourneyMap,
    /// `gen forage --session`: a pack holds no foraging.
    SessionForage,
    /// `gen <kind> --session` with the kind's own request options.
    SessionOptions { kind: &'static str },
    /// `gen --session --item N`: the session has no such item.
    SessionItem { flaw: String },
    /// `prep --only`/`--reroll`: addresses the session has no item at.
    PrepAddresses { flaws: Vec<String> },
    /// A bundle given `--seed`, `--content` or `--templates`.
    BundleSources,
    /// `prep --reroll ADDRESS` asked more times than `[rerolls]` has
    /// left for it (the count the file holds, `recorded`, plus `asked`
    /// would pass the limit): named by the flag, since the edit that would
    /// hold the count is never written.
    RerollsPast {
        address: String,
        asked: u32,
        recorded: u32,
    },
    /// `prep --reroll` of a bundle.
    RerollBundle,
    /// `prep --reroll` of a campaign's session that has no plan of its own.
    RerollNoPlan { n: usize, plan_of: usize },
    /// `prep N`, `record N`, `share`/`verify` without DIR outside a campaign.
    NotInCampaign { what: &'static str },
    /// A session number off the scale.
    SessionNumber { n: usize },
    /// `prep BUNDLE N` with a bundle of one session (not a campaign).
    NumberWithoutCampaign,
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each family of commands has its own table of messages; a variant
        // is in exactly one (the test below holds every variant to a
        // message).
        self.dice_message(f)
            .or_else(|| self.gen_message(f))
            .or_else(|| self.session_message(f))
            .unwrap_or(Ok(()))
    }
}

impl UsageError {
    /// `odds` and `check`.
    fn dice_message(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use UsageError as U;
        let (pool, bonus_hint) = (limits::MAX_POOL, limits::HINT);
        Some(match self {
            U::OddsNeedsInput => f.write_str("odds: give an expression or --table ID"),
            U::CheckPool { pool: p } => write!(
                f,
                "check: `{p}` is not a pool size; give a number of dice from 0 to {pool}, e.g. \
                 `check 5 --vs 3`"
            ),
            U::CheckVs { vs } => write!(
                f,
                "check --vs `{vs}`: give only a Difficulty (a number or a ladder word); raises, \
                 Twists and teammates have their own flags"
            ),
            U::CheckRange { arg, text, max } => write!(
                f,
                "check {arg} `{text}`: a range is two whole numbers from 0 to {max}, low first, \
                 e.g. `check 1-20 --vs 0-30`"
            ),
            U::CheckGrid { cells } => write!(
                f,
                "check: the ranges make a grid of {cells} Checks; at most {} (pools 1-20 by \
                 Difficulties 0-30 is 620)",
                limits::MAX_GRID_CELLS
            ),
            U::CheckLimits => write!(f, "check: {bonus_hint}"),
            U::CheckTeam => write!(
                f,
                "check --team: at most {} teammates with pools up to {pool}",
                limits::MAX_CONTESTANTS
            ),
            U::CheckDice { dice } => write!(f, "check: {dice} dice in all; {bonus_hint}"),
            U::CheckRaise { raises, dice } => write!(
                f,
                "check: cannot raise {raises} dice from a pool of {dice}; raised dice come out \
                 of the pool"
            ),
            _ => return None,
        })
    }

    /// `table` and `gen`.
    fn gen_message(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use UsageError as U;
        Some(match self {
            U::TableTimes { times } => {
                write!(f, "table: --times {times}: ask for 1 to 10000 results")
            }
            U::TableOutput { times, id, max_mib } => write!(
                f,
                "table: {times} results of `{id}` print more than {max_mib} MiB; ask for fewer \
                 (--times) or roll them in several runs"
            ),
            U::GenCount { count, max } => {
                write!(f, "gen: --count {count}: ask for 1 to {max} items")
            }
            U::GenItem { item, max } => {
                write!(f, "gen: --item {item}: items are numbered from 1 to {max}")
            }
            U::WithoutItem { flag } => write!(
                f,
                "gen: {flag} is about one item: give --item N too (`gen encounter --item 2 \
                 {flag} ...`)"
            ),
            U::TooManyRerolls { reroll } => write!(
                f,
                "gen: --reroll {reroll}: an item is rerolled at most {MAX_REROLLS} times"
            ),
            U::VoucherHolders => {
                f.write_str("gen voucher: name the holders, one voucher each: --holder Ada,Brannoc")
            }
            U::NpcTerrain { terrain, why } => write!(f, "gen npc: --terrain {terrain}: {why}"),
            U::TrapTerrain { terrain, why } => write!(f, "gen trap: --terrain {terrain}: {why}"),
            U::CorePoise => f.write_str(
                "gen trap: --poise is METTLE's; a Core Rules trap's odds are for the party's \
                 STR, AGI and WIT (give --party)",
            ),
            U::CoreRulesTraps => f.write_str(
                "gen trap: --from rules: the Core Rules have no traps of their own; Core traps \
                 are built from parts (--from parts or any)",
            ),
            U::PoiseAndParty => f.write_str("gen trap: give --poise or --party, not both"),
            U::MapSvgCount => f.write_str("gen map --svg draws one map; leave out --count"),
            U::JourneyMap => f.write_str(
                "gen journey: give --map FILE (a map saved with `gen map --json > map.json`), or \
                 --session SESSION.toml --item 1 for a session pack's journey",
            ),
            U::SessionForage => f.write_str(
                "gen forage --session: a pack holds no foraging (its kinds are encounter, trap, \
                 npc, map, journey, voucher, injury and mutation)",
            ),
            U::SessionOptions { kind } => write!(
                f,
                "gen {kind} --session: the session sets the item's request (its terrain, system, \
                 party, entries and rerolls); leave out the options of `gen {kind}`"
            ),
            _ => return None,
        })
    }

    /// A session, a pack, a bundle or a campaign.
    fn session_message(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use UsageError as U;
        Some(match self {
            U::SessionItem { flaw } => write!(f, "gen --session: {flaw}"),
            U::PrepAddresses { flaws } => write!(f, "prep: {}", flaws.join("; ")),
            U::BundleSources => f.write_str(
                "a bundle carries its own seed, tables and templates: leave out --seed, --content \
                 and --templates",
            ),
            U::RerollsPast {
                address,
                asked,
                recorded,
            } => write!(
                f,
                "prep: --reroll {address} is asked {asked} time(s) on the command line, and the \
                 session's [rerolls] counts {recorded} for it: an item is rerolled at most \
                 {MAX_REROLLS} times, so at most {} more; ask fewer (nothing was written)",
                MAX_REROLLS.saturating_sub(*recorded)
            ),
            U::RerollBundle => f.write_str(
                "prep --reroll edits a session file's [rerolls]; a bundle is a record of one pack, \
                 so reroll in the session file it was shared from (or copy its session out)",
            ),
            U::RerollNoPlan { n, plan_of } => write!(
                f,
                "session {n} has no plan of its own (it takes session {plan_of}'s), so there is no \
                 [rerolls] to write: copy sessions/{plan_of}/plan.toml to sessions/{n}/plan.toml, \
                 then reroll"
            ),
            U::NotInCampaign { what } => write!(
                f,
                "{what} works inside a campaign folder (one with a campaign.toml here or above), \
                 and there is none here: `tablewright init DIR` makes one"
            ),
            U::SessionNumber { n } => write!(
                f,
                "session {n}: sessions are numbered from 1 to {MAX_SESSIONS}"
            ),
            U::NumberWithoutCampaign => f.write_str(
                "a session number after a file is for a campaign's bundle (made by `share` in a \
                 campaign); this file is one session's, so leave the number out",
            ),
            _ => return None,
        })
    }
}

impl std::error::Error for UsageError {}

#[cfg(test)]
mod tests {
    use super::UsageError as U;

    /// Every variant finds its message in one family's table: a variant
    /// left out of the tables would print nothing.
    #[test]
    fn every_variant_has_a_message() {
        let s = String::new;
        let all = [
            U::OddsNeedsInput,
            U::CheckPool { pool: s() },
            U::CheckVs { vs: s() },
            U::CheckRange {
                arg: "--vs",
                text: s(),
                max: 1,
            },
            U::CheckGrid { cells: 1 },
            U::CheckLimits,
            U::CheckTeam,
            U::CheckDice { dice: 1 },
            U::CheckRaise { raises: 1, dice: 1 },
            U::TableTimes { times: 0 },
            U::TableOutput {
                times: 1,
                id: s(),
                max_mib: 1,
            },
            U::GenCount { count: 0, max: 1 },
            U::GenItem { item: 0, max: 1 },
            U::WithoutItem { flag: "--reroll" },
            U::TooManyRerolls { reroll: 1 },
            U::VoucherHolders,
            U::NpcTerrain {
                terrain: s(),
                why: s(),
            },
            U::TrapTerrain {
                terrain: s(),
                why: s(),
            },
            U::CorePoise,
            U::CoreRulesTraps,
            U::PoiseAndParty,
            U::MapSvgCount,
            U::JourneyMap,
            U::SessionForage,
            U::SessionOptions { kind: "npc" },
            U::SessionItem { flaw: s() },
            U::PrepAddresses { flaws: Vec::new() },
            U::BundleSources,
            U::RerollsPast {
                address: s(),
                asked: 1,
                recorded: 1,
            },
            U::RerollBundle,
            U::RerollNoPlan { n: 2, plan_of: 1 },
            U::NotInCampaign { what: "prep N" },
            U::SessionNumber { n: 0 },
            U::NumberWithoutCampaign,
        ];
        for e in all {
            // A new variant must be added here (the match fails to compile
            // until it is), and so to a table.
            match &e {
                U::OddsNeedsInput
                | U::CheckPool { .. }
                | U::CheckVs { .. }
                | U::CheckRange { .. }
                | U::CheckGrid { .. }
                | U::CheckLimits
                | U::CheckTeam
                | U::CheckDice { .. }
                | U::CheckRaise { .. }
                | U::TableTimes { .. }
                | U::TableOutput { .. }
                | U::GenCount { .. }
                | U::GenItem { .. }
                | U::WithoutItem { .. }
                | U::TooManyRerolls { .. }
                | U::VoucherHolders
                | U::NpcTerrain { .. }
                | U::TrapTerrain { .. }
                | U::CorePoise
                | U::CoreRulesTraps
                | U::PoiseAndParty
                | U::MapSvgCount
                | U::JourneyMap
                | U::SessionForage
                | U::SessionOptions { .. }
                | U::SessionItem { .. }
                | U::PrepAddresses { .. }
                | U::BundleSources
                | U::RerollsPast { .. }
                | U::RerollBundle
                | U::RerollNoPlan { .. }
                | U::NotInCampaign { .. }
                | U::SessionNumber { .. }
                | U::NumberWithoutCampaign => {}
            }
            let text = e.to_string();
            assert!(!text.trim().is_empty(), "{e:?} prints {text:?}");
        }
    }
}
