//! tablewright: seeded tables, dice and handouts for game masters.
//!
//! The pipeline (load → parse → validate → generate → render → output), one
//! module per step (render is four: wording, terminal, page, handouts);
//! ARCHITECTURE.md at the repository root is the map:
//! - **seed** ([`seed`]): a shared seed text becomes independent random
//!   streams, one per generated item, so results reproduce byte for byte.
//! - **dice** ([`dice`]): one notation for every roll in the rules — parse,
//!   roll on a stream, and compute exact odds.
//! - **rules** ([`rules`]): the numbers and mechanics of the rules core
//!   (METTLE, the Core Rules, ACS, the CP chapter, the party), shared by
//!   the dice engine, validation, GM files and generators.
//! - **content** ([`content`]) and **tables** ([`tables`]): table files
//!   loaded, validated and rolled with a trail of dice; exact table odds.
//! - **input** ([`input`]): the GM's own files (sessions, parties,
//!   characters, saved maps), checked and pointed at by line and column.
//! - **interop** ([`interop`]): tables in other tools' formats (Foundry
//!   VTT, Obsidian, Markdown, CSV, JSON), exported and imported.
//! - **generators** ([`generators`]): one [`generators::Generator`] per
//!   kind of item, each a pure function of tables, request, seed and
//!   address.
//! - **wording** ([`wording`]): game text formatted once for every output
//!   (percentages, stat lines, trap and hazard rules).
//! - **terminal** ([`terminal`]): what a GM reads on the terminal (rolls,
//!   odds, generated items); JSON is the same results through serde.
//! - **page** ([`page`]): the page engine, which knows no game: shapes,
//!   drawings, the SVG writer, the PDF backend and page layout.
//! - **handouts** ([`handouts`]): a session pack as files and sheets on top
//!   of `page`: Markdown templates and flavours, drawings (map, zones),
//!   the PDF sheets.
//! - **pack** ([`pack`]): a session pack built — a session file or a
//!   bundle read into its sources, every handout file made from them,
//!   a pack folder compared with its bundle.
//! - **output** ([`output`]): the only code that writes files, all or
//!   nothing.
//! - **diagnostic** ([`diagnostic`]) and **error** ([`error`]): one shape
//!   for every problem in what a user wrote, and the typed errors.
//! - **campaign** ([`campaign`]): a campaign folder (`campaign.toml`
//!   found walking up, session plans and records) and its session records
//!   folded over its starting party by the rules, into the state each
//!   pack starts from.
//! - **workspace** ([`workspace`]): the one place the global options, the
//!   campaign or session file found where a command runs, the tables and
//!   the templates are brought together; the seed is chosen there.
//! - **app** ([`app`]) and **cli** ([`cli`]): the commands, each over a
//!   typed request the arguments are checked into once; `main.rs` only
//!   parses arguments, calls [`app::run`] and turns errors into exit codes.

#![warn(unreachable_pub)]

pub mod app;
pub mod campaign;
pub mod cli;
pub use tablewright_content::content;
use tablewright_core::diagnostic;
pub use tablewright_core::dice;
use tablewright_core::hash;
mod error;
pub use tablewright_generators::generators;
pub mod handouts;
mod input;
use tablewright_interop::interop;
mod output;
mod pack;
use tablewright_page::page;
mod play;
use tablewright_content::bounded;
use tablewright_content::tables;
use tablewright_core::rules;
pub use tablewright_core::seed;
use tablewright_generators::terminal;
use tablewright_generators::wording;
mod workspace;

// The nouns every stage shares, for the binary, the tests, the benches and
// the fuzz targets; the modules they live in stay private.
pub use error::Error;
pub use input::Session;
/// The folder name a seed's pack is written to under the output folder.
pub use output::slug;
pub use rules::{Party, RulesSystem};
