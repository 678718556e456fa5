//! Generators: each kind is a typed `Request` implementing [`Generator`],
//! whose `make` is a pure function of (tables, request, seed, address) →
//! a typed, serializable item that the rules core accepts.
//!
//! Item `i` of a kind draws only from the streams under `gen/<kind>/<i>`,
//! so `--count 3` begins with the same two items as `--count 2`, and every
//! part of an item (its name, its stats, its foes) has a sub-stream of its
//! own. A session pack places its items at the same addresses, so
//! `gen encounter --item 2` is the pack's `encounter/2` (see [`Address`],
//! [`Rerolls`] and [`Placed`]).
//!
//! - [`npc`]: METTLE or Core Rules stat blocks from archetype tables;
//!   [`traits`]: a person's want, secret, manner and look.
//! - [`injury`], [`mutation`]: Core Rules harm, applied to a character sheet.
//! - [`forage`]: one watch of foraging.
//! - [`checks`]: METTLE Checks as generators roll them, with exact odds.
//! - [`trap`]: a trap as a METTLE hazard vs POISE, with its exact odds.
//! - [`encounter`]: a situation, foes, zones, terrain cards and the odds
//!   that matter.
//! - [`map`]: a point-crawl travel map; [`journey`]: a journey across it.
//! - [`sheet`]: applying a table result's effects to a character sheet.
//! - [`voucher`]: a voucher for one holder.
//! - [`session`]: a session's pack assembled (every handout's items at once).

pub mod checks;
pub mod concept;
pub mod encounter;
pub mod forage;
pub mod injury;
pub mod journey;
pub mod map;
pub mod memory;
pub mod mutation;
pub mod npc;
pub mod recap;
pub mod session;
pub mod sheet;
pub mod traits;
pub mod trap;
pub mod voucher;
pub mod weather;

#[cfg(test)]
mod prose_tests;
#[cfg(test)]
mod trait_fit_tests;

use std::borrow::Borrow;
use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::content::Library;
use crate::seed::{DieSource, Seed, Stream};
use crate::tables::{RollError, Step, TableRoll};

/// Why a generator could not make what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenError {
    /// A request that the tables cannot satisfy, with what to do instead.
    Request(String),
    /// A table roll failed.
    Table(RollError),
    /// The item at this address repeats what the pack holds in every
    /// draw: its tables have run dry (the session's count for its kind
    /// asks for more than they hold).
    RunDry(Address),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Request(m) => f.write_str(m),
            GenError::Table(e) => e.fmt(f),
            GenError::RunDry(at) => write!(
                f,
                "{at} repeats what the pack already holds in all of {DRAWS} draws: its tables \
                 have run dry; ask for fewer {kind}s, or add rows to its tables with --content",
                kind = at.kind()
            ),
        }
    }
}

impl std::error::Error for GenError {}

impl From<RollError> for GenError {
    fn from(e: RollError) -> Self {
        GenError::Table(e)
    }
}

/// Where an item sits, and so which streams it draws from: item `index`
/// (0-based inside, shown 1-based to the GM as `encounter/2`) of `kind`,
/// or inside another item (`journey/0/leg/2/encounter`). `gen` and a
/// session pack use the same addresses. Every stream of the item is
/// `gen/<path>/<part>`, so an item depends only on the seed, its address
/// and its request — never on how many items come after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    path: String,
    kind: String,
    index: usize,
}

impl Address {
    /// Item `index` of `kind` on its own (`gen <kind>`).
    pub fn new(kind: &str, index: usize) -> Self {
        Address {
            path: format!("{kind}/{index}"),
            kind: kind.to_owned(),
            index,
        }
    }

    /// The address a GM writes (`encounter/2`, 1-based), read back.
    pub fn parse(text: &str) -> Option<Self> {
        let (kind, n) = text.split_once('/')?;
        let n: usize = n.parse().ok()?;
        let plain = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase());
        (plain && n >= 1 && n.to_string() == text[kind.len() + 1..])
            .then(|| Address::new(kind, n - 1))
    }

    /// The item rerolled `times` times (`prep --reroll`): every stream of
    /// the item moves to `gen/<path>/reroll/<times>/…`. Zero rerolls is the
    /// address itself.
    pub fn rerolled(&self, times: u32) -> Self {
        self.moved("reroll", times as usize)
    }

    /// The name its handout files start with: `encounter-2`.
    pub fn file_stem(&self) -> String {
        format!("{}-{}", self.kind, self.index + 1)
    }

    /// Item `index` of `kind` inside this one (an encounter's foes).
    pub fn child(&self, kind: &str, index: usize) -> Self {
        Address {
            path: format!("{}/{kind}/{index}", self.path),
            kind: kind.to_owned(),
            index,
        }
    }

    /// The one `kind` inside this item (an encounter's trap).
    pub fn only(&self, kind: &str) -> Self {
        Address {
            path: format!("{}/{kind}", self.path),
            kind: kind.to_owned(),
            index: 0,
        }
    }

    /// The kind of item the address names (`encounter`, `npc`, …).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Whether this is the item's own address, neither rerolled nor
    /// drawn again nor inside another item.
    pub(crate) fn is_plain(&self) -> bool {
        self.path == format!("{}/{}", self.kind, self.index)
    }

    /// 0-based place among the items of its kind.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The same item drawn again (`attempt` ≥ 1) because its first draw
    /// repeated something already in its pack: every stream of the item,
    /// and of the items inside it, moves to `gen/<path>/again/<attempt>/…`.
    /// Attempt 0 is the address itself, so an item that repeats nothing
    /// draws exactly what it always drew.
    pub fn again(&self, attempt: usize) -> Self {
        self.moved("again", attempt)
    }

    /// The same item with its streams under `<path>/<step>/<n>/…`; step
    /// 0 is the address itself.
    fn moved(&self, step: &str, n: usize) -> Self {
        if n == 0 {
            return self.clone();
        }
        Address {
            path: format!("{}/{step}/{n}", self.path),
            ..self.clone()
        }
    }

    /// The stream for one part of the item (`gen/<path>/<part>`).
    pub fn stream(&self, seed: &Seed, part: &str) -> Stream {
        seed.stream(&format!("gen/{}/{part}", self.path))
    }
}

impl fmt::Display for Address {
    /// The address as a GM reads it: `encounter/2` for the second.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.kind, self.index + 1)
    }
}

/// What every generator is: a typed request that makes the item at an
/// address from the tables and the seed, and nothing else.
pub trait Generator {
    /// The kind of item, the first part of its address (`encounter`).
    const KIND: &'static str;
    /// What is made (its JSON is the item's JSON).
    type Item: Serialize;
    /// Make the item at `at`, drawing only from the streams under it.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Self::Item, GenError>;
}

/// Item `index` of a request at the kind's own address (`gen <kind>`).
pub fn nth<G: Generator>(
    library: &Library,
    req: &G,
    seed: &Seed,
    index: usize,
) -> Result<G::Item, GenError> {
    req.make(library, seed, &Address::new(G::KIND, index))
}

/// Items `0..count` of a request at the kind's own addresses, each
/// rerolled as often as `rerolls` says: item `i` is the same whatever
/// `count` is.
pub fn make_many<G: Generator>(
    req: &G,
    library: &Library,
    seed: &Seed,
    count: usize,
    rerolls: &Rerolls,
) -> Result<Vec<G::Item>, GenError> {
    (0..count)
        .map(|i| make_nth(req, library, seed, i, rerolls))
        .collect()
}

/// Item `i` (0-based) of [`make_many`], on its own: the same whatever
/// the count (`gen --jsonl` streams items one by one with it).
pub fn make_nth<G: Generator>(
    req: &G,
    library: &Library,
    seed: &Seed,
    i: usize,
    rerolls: &Rerolls,
) -> Result<G::Item, GenError> {
    let at = Address::new(G::KIND, i);
    req.make(library, seed, &at.rerolled(rerolls.of(&at)))
}

/// Items `0..reqs.len()` at the kind's addresses, item `i` made by
/// `reqs[i]` (a session's entry may set it apart) and rerolled as
/// `rerolls` says: [`make_many`] with a request for each item.
pub(crate) fn make_each<G: Generator>(
    reqs: &[G],
    library: &Library,
    seed: &Seed,
    rerolls: &Rerolls,
) -> Result<Vec<G::Item>, GenError> {
    reqs.iter()
        .enumerate()
        .map(|(i, req)| {
            let at = Address::new(G::KIND, i);
            req.make(library, seed, &at.rerolled(rerolls.of(&at)))
        })
        .collect()
}

/// How many times each item has been rerolled (`prep --reroll`, the
/// session's `[rerolls]`), by address; an item not named has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Rerolls(pub std::collections::BTreeMap<String, u32>);

impl Rerolls {
    /// The reroll count of the item at `at`.
    pub fn of(&self, at: &Address) -> u32 {
        self.0.get(&at.to_string()).copied().unwrap_or(0)
    }
}

/// An item with its address (and reroll count, when it has one), as it is
/// written in JSON: `{"address": "encounter/2", "reroll": 1, …the item…}`.
#[derive(Debug, Clone, Serialize)]
pub struct Placed<T: Serialize> {
    /// The item's address in its pack (`encounter/2`).
    pub address: String,
    /// How many times it was rerolled (0: left out of the JSON).
    #[serde(skip_serializing_if = "is_zero")]
    pub reroll: u32,
    #[serde(flatten)]
    /// The item itself, its fields beside the address in the JSON.
    pub item: T,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Items of `kind` with their addresses `kind/1`, `kind/2`, … and reroll
/// counts.
pub fn placed<'a, T: Serialize>(
    kind: &str,
    items: &'a [T],
    rerolls: &Rerolls,
) -> Vec<Placed<&'a T>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = Address::new(kind, i);
            Placed {
                address: at.to_string(),
                reroll: rerolls.of(&at),
                item,
            }
        })
        .collect()
}

/// What an item says that no other item in the same pack may say again:
/// an encounter's situation, an NPC's concept and name, a trap's name, a
/// stop's description. Keys are compared as written.
pub trait Distinct {
    /// What this item says that no other may say again.
    fn keys(&self) -> Vec<String>;

    /// What an item should not say again while its tables have other
    /// rows (a trap's trigger and effect): a draw that repeats one is
    /// drawn again, but when every draw would, the first whose [`keys`]
    /// are fresh is kept.
    ///
    /// [`keys`]: Distinct::keys
    fn soft_keys(&self) -> Vec<String> {
        Vec::new()
    }

    /// What of the item a campaign's memory compares with what earlier
    /// packs used ([`memory::Memory::keys`]); its [`keys`] unless the
    /// campaign remembers it otherwise (a trap by its trigger and effect,
    /// an encounter without the concepts of the people its situation
    /// puts on stage).
    ///
    /// [`keys`]: Distinct::keys
    fn remembered(&self) -> Vec<String> {
        self.keys()
    }
}

/// The keys already said in a pack, by the items at lower addresses, and
/// what a campaign's earlier packs said ([`memory::Memory::keys`]).
#[derive(Debug, Default, Clone)]
pub struct Said {
    keys: BTreeSet<String>,
    /// Keys earlier packs said: an item avoids them while its draws
    /// allow, and repeats one rather than run dry.
    remembered: BTreeSet<String>,
}

impl Said {
    /// Nothing said yet in the pack; `remembered` said by earlier packs.
    pub fn remembering(remembered: Vec<String>) -> Said {
        Said {
            keys: BTreeSet::new(),
            remembered: remembered.into_iter().collect(),
        }
    }

    /// Whether `keys` repeat nothing earlier packs said.
    pub(crate) fn new_to_the_campaign(&self, keys: &[String]) -> bool {
        keys.iter().all(|k| !self.remembered.contains(k))
    }

    /// Whether `keys` repeat nothing said and nothing among themselves.
    pub fn fresh(&self, keys: &[String]) -> bool {
        let mut own = BTreeSet::new();
        keys.iter()
            .all(|k| !self.keys.contains(k) && own.insert(k.as_str()))
    }

    /// Remember `keys` as said.
    pub fn add(&mut self, keys: Vec<String>) {
        self.keys.extend(keys);
    }

    /// Everything said so far, in order.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(String::as_str)
    }
}

/// How many times an item is drawn again before its tables count as run
/// dry. With a table of n equally likely rows of which k are taken, a
/// draw repeats with chance k/n; 64 draws all repeat with chance
/// (k/n)^64, under one in a thousand even when 9 rows of 10 are taken.
pub const DRAWS: usize = 64;

/// Items `0..reqs.len()` at the kind's addresses, item `i` made by
/// `reqs[i]` (a session may set each item's request apart) and rerolled
/// as `rerolls` says, each drawn again (see [`Address::again`]) while its keys repeat
/// what `said` holds or an earlier item of the batch said; what each item
/// says is added to `said`. An item depends only on itself and the items
/// before it.
pub fn make_distinct<G: Generator>(
    reqs: &[G],
    library: &Library,
    seed: &Seed,
    said: &mut Said,
    rerolls: &Rerolls,
) -> Result<Vec<G::Item>, GenError>
where
    G::Item: Distinct,
{
    make_distinct_by::<G, _>(
        reqs.len(),
        |made| &reqs[made.len()],
        library,
        seed,
        said,
        rerolls,
    )
}

/// [`make_distinct`] for `n` items whose requests depend on the items
/// made before them: item `i` is made by `req_for(&items[..i])` (a request
/// of its own, or one borrowed).
pub(crate) fn make_distinct_by<G: Generator, R: Borrow<G>>(
    n: usize,
    mut req_for: impl FnMut(&[G::Item]) -> R,
    library: &Library,
    seed: &Seed,
    said: &mut Said,
    rerolls: &Rerolls,
) -> Result<Vec<G::Item>, GenError>
where
    G::Item: Distinct,
{
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let req = req_for(&items);
        items.push(make_one(req.borrow(), i, library, seed, said, rerolls)?);
    }
    Ok(items)
}

/// Item `i` of `req`'s kind, rerolled as asked and fresh against `said`,
/// which then holds what it says.
fn make_one<G: Generator>(
    req: &G,
    i: usize,
    library: &Library,
    seed: &Seed,
    said: &mut Said,
    rerolls: &Rerolls,
) -> Result<G::Item, GenError>
where
    G::Item: Distinct,
{
    let at = Address::new(G::KIND, i);
    let at = at.rerolled(rerolls.of(&at));
    let item = draw_fresh(req, library, seed, &at, said)?;
    said.add(item.keys());
    said.add(item.soft_keys());
    Ok(item)
}

/// The first draw of the item at `at` whose keys are fresh, or an error
/// naming the item when [`DRAWS`] draws all repeat.
fn draw_fresh<G: Generator>(
    req: &G,
    library: &Library,
    seed: &Seed,
    at: &Address,
    said: &Said,
) -> Result<G::Item, GenError>
where
    G::Item: Distinct,
{
    // The first draw fresh in every way is kept; failing that, the best
    // of the others: new to the campaign before fresh in its soft keys.
    let mut kept: [Option<G::Item>; 3] = [None, None, None];
    for attempt in 0..DRAWS {
        let item = req.make(library, seed, &at.again(attempt))?;
        let keys = item.keys();
        if said.fresh(&keys) {
            let new = said.new_to_the_campaign(&item.remembered());
            let all: Vec<String> = keys.into_iter().chain(item.soft_keys()).collect();
            let soft = said.fresh(&all);
            let rank = match (new, soft) {
                (true, true) => return Ok(item),
                (true, false) => 0,
                (false, true) => 1,
                (false, false) => 2,
            };
            kept[rank].get_or_insert(item);
        }
    }
    kept.into_iter()
        .flatten()
        .next()
        .ok_or_else(|| GenError::RunDry(at.clone()))
}

/// Results of inline rolls in a table result's own trail, in order, whose
/// notation is `expr` (e.g. the `d4` of "STR drops by {d4}").
pub(crate) fn inline_rolls(roll: &TableRoll, expr: &str) -> Vec<i64> {
    roll.trail
        .iter()
        .filter_map(|s| match s {
            Step::Dice { expr: e, result } if e == expr => Some(*result),
            _ => None,
        })
        .collect()
}

/// Every result in a roll's tree (itself, sub-tables, roll-again results),
/// depth first.
pub(crate) fn all_results(roll: &TableRoll) -> Vec<&TableRoll> {
    let mut out = vec![roll];
    for r in roll.nested.iter().chain(&roll.rerolls) {
        out.extend(all_results(r));
    }
    out
}

/// One of `items`, chosen with one die of as many faces (none if empty).
pub fn pick<'a, T>(items: &'a [T], s: &mut impl DieSource) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[s.die(items.len() as u32) as usize - 1])
}

/// `1 ration`, `3 rations`: a count with its word, for any integer.
pub fn count<T: fmt::Display + PartialEq + From<u8>>(n: T, one: &str, many: &str) -> String {
    let word = if n == T::from(1) { one } else { many };
    format!("{n} {word}")
}

/// `a, b and c`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// An archetype id as a GM reads it, capitalised: an id of two words
/// names a thing and its kind, and its hyphen is a space
/// (`bandit-captain` → `Bandit captain`); an id of three or more words is
/// one compound word and keeps its hyphens, a lone `o` written `o'` as
/// English writes it (`will-o-wisp` → `Will-o'-wisp`, `jack-in-the-green`
/// → `Jack-in-the-green`).
pub fn display_name(archetype: &str) -> String {
    let parts: Vec<&str> = archetype.split('-').collect();
    let words = if parts.len() >= 3 {
        let parts: Vec<&str> = parts
            .iter()
            .map(|p| if *p == "o" { "o'" } else { p })
            .collect();
        parts.join("-")
    } else {
        parts.join(" ")
    };
    let mut chars = words.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;

    #[test]
    fn display_names_keep_compound_words_whole() {
        for (id, shown) in [
            ("bandit-captain", "Bandit captain"),
            ("wolf", "Wolf"),
            ("will-o-wisp", "Will-o'-wisp"),
            ("jack-in-the-green", "Jack-in-the-green"),
            ("", ""),
        ] {
            assert_eq!(display_name(id), shown, "{id}");
        }
    }

    /// A generator whose items say one of `faces` words.
    struct Words {
        faces: u32,
    }

    impl Generator for Words {
        const KIND: &'static str = "word";
        type Item = u32;
        fn make(&self, _: &Library, seed: &Seed, at: &Address) -> Result<u32, GenError> {
            Ok(at.stream(seed, "word").die(self.faces))
        }
    }

    impl Distinct for u32 {
        fn keys(&self) -> Vec<String> {
            vec![self.to_string()]
        }
    }

    fn words(faces: u32, count: usize, said: &mut Said) -> Result<Vec<u32>, GenError> {
        let seed = Seed::new("words").unwrap();
        let reqs: Vec<Words> = (0..count).map(|_| Words { faces }).collect();
        make_distinct(&reqs, &test_library(), &seed, said, &Rerolls::default())
    }

    #[test]
    fn distinct_items_fill_a_table_then_say_it_ran_dry() {
        let mut said = Said::default();
        let mut all = words(6, 6, &mut said).unwrap();
        all.sort();
        assert_eq!(all, vec![1, 2, 3, 4, 5, 6]);
        let err = words(6, 7, &mut Said::default()).unwrap_err().to_string();
        assert!(err.contains("word/7") && err.contains("run dry"), "{err}");
    }

    #[test]
    fn what_lower_addresses_said_is_never_said_again() {
        let mut said = Said::default();
        said.add(vec!["1".into(), "2".into()]);
        let got = words(4, 2, &mut said).unwrap();
        assert!(got.iter().all(|w| *w > 2), "{got:?}");
    }

    #[test]
    fn a_first_draw_that_repeats_nothing_is_the_plain_draw() {
        let seed = Seed::new("words").unwrap();
        let at = Address::new("word", 0);
        let plain = Words { faces: 1000 }
            .make(&test_library(), &seed, &at)
            .unwrap();
        let got = words(1000, 1, &mut Said::default()).unwrap();
        assert_eq!(got, vec![plain]);
        assert_ne!(
            at.again(1).stream(&seed, "x").die(1 << 30),
            at.stream(&seed, "x").die(1 << 30)
        );
    }
}
