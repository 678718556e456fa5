//! Command-line arguments (clap derive). Raw arguments only: meaning is
//! given to them in [`crate::app`].

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// Seeded tables, dice and handouts for game masters.
///
/// The same --seed always gives the same results, byte for byte.
#[derive(Debug, Parser)]
#[command(name = "tablewright", version, about, long_about = None)]
#[command(after_help = NOTATION_HELP)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parse the process's arguments, with each subcommand's help listing
    /// only the global flags it uses. On a usage mistake, exits with
    /// clap's message shown through the terminal's escaping layer (the
    /// message quotes the argument, which may hold control characters).
    pub fn parse_args() -> Cli {
        let args = with_dice_args(std::env::args_os());
        let mut command = command();
        let cli = command
            .try_get_matches_from_mut(args)
            .and_then(|m| Cli::from_arg_matches(&std::mem::ManuallyDrop::new(m)));
        // The command tree and the matches are left for the process's end
        // to free: freeing them piece by piece cost a short command more
        // than a tenth of its work (issue 32).
        std::mem::forget(command);
        cli.unwrap_or_else(|e| exit_on_usage(e))
    }

    /// [`Cli::parse_args`] from given arguments (for tests).
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        Cli::from_arg_matches(&command().try_get_matches_from(args)?)
    }
}

/// Print a usage error (or help, or the version) and exit as clap does,
/// but with the error's text cleaned: help and version are the tool's own
/// words and keep clap's styling.
fn exit_on_usage(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit()
    }
    let text = crate::terminal::clean::clean(&e.render().to_string());
    eprint!("{text}");
    std::process::exit(e.exit_code())
}

/// The global flags, by id (every command that does not say otherwise
/// uses them all).
const GLOBALS: [&str; 8] = [
    "seed",
    "json",
    "content",
    "templates",
    "out",
    "force",
    "paper",
    "ink_saver",
];

/// The global flags a subcommand uses; the others are still accepted
/// (before or after the subcommand) but left out of its help.
fn uses(subcommand: &str) -> &'static [&'static str] {
    match subcommand {
        "roll" | "check" => &["seed", "json"],
        "odds" | "tables" => &["json", "content"],
        "table" | "gen" => &["seed", "json", "content"],
        "validate" => &["json", "content", "templates"],
        "init" => &["json", "force"],
        "record" => &["force", "content"],
        "campaign" => &["json"],
        "export" | "import" => &["content", "force"],
        "completions" => &[],
        "manpage" => &["force"],
        _ => &GLOBALS,
    }
}

/// The clap command, with the help of each subcommand (and of `gen`'s
/// kinds) trimmed to the global flags it uses: a subcommand gets a hidden
/// copy of each global flag it does not use, which clap then propagates in
/// place of the shown one (it never propagates over a flag that is there).
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let globals: Vec<clap::Arg> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        let used = uses(&name);
        cmd = cmd.mut_subcommand(&name, |mut sub| {
            for a in globals
                .iter()
                .filter(|a| !used.contains(&a.get_id().as_str()))
            {
                sub = sub.arg(a.clone().hide(true));
            }
            sub
        });
    }
    cmd
}

#[derive(Debug, Args)]
pub struct Global {
    /// Seed text: share it to share the results. Without it a new seed is
    /// chosen and printed on stderr.
    #[arg(long, global = true, value_name = "TEXT")]
    pub seed: Option<String>,
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// A folder of table files to add (repeatable; later folders win, and a
    /// table with a built-in id replaces the built-in one).
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Vec<std::path::PathBuf>,
    /// A folder of templates replacing the built-in ones of the same name.
    #[arg(long, global = true, value_name = "DIR")]
    pub templates: Option<std::path::PathBuf>,
    /// Where handouts go (a folder per seed is made inside).
    #[arg(long, global = true, default_value = "out", value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// Replace handout files that already exist.
    #[arg(long, global = true)]
    pub force: bool,
    /// Paper for PDF handouts (A4 by default, the size most of the world
    /// prints on; US and Canadian printers want `letter`).
    #[arg(long, global = true, value_enum, default_value = "a4")]
    pub paper: PaperSize,
    /// Saves ink: text in dark grey, rules at half width, no filled shapes.
    #[arg(long, global = true)]
    pub ink_saver: bool,
}

/// `export --format`: what to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Foundry VTT RollTable documents (JSON).
    Foundry,
    /// Markdown roll tables with block ids for Obsidian's Dice Roller.
    Obsidian,
    /// Plain GitHub Markdown tables.
    Gfm,
    /// Every row, tag, note and effect (the `tables --json` schema).
    Json,
    /// Inspiration Pad Pro generator files (`.ipt`).
    Ipt,
    /// A Perchance generator (`.perchance`).
    Perchance,
}

/// `import --from`: the generator format of files whatever their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ImportFrom {
    /// Inspiration Pad Pro (`.ipt`).
    Ipt,
    /// TableSmith (`.tab`).
    Tablesmith,
    /// Perchance generator text (`.perchance`).
    Perchance,
    /// Obsidian Dice Roller / Randomness Markdown.
    Obsidian,
}

impl From<ImportFrom> for crate::interop::Reader {
    fn from(a: ImportFrom) -> Self {
        match a {
            ImportFrom::Ipt => Self::Ipt,
            ImportFrom::Tablesmith => Self::TableSmith,
            ImportFrom::Perchance => Self::Perchance,
            ImportFrom::Obsidian => Self::Obsidian,
        }
    }
}

impl From<ExportFormat> for crate::interop::Format {
    fn from(a: ExportFormat) -> Self {
        match a {
            ExportFormat::Foundry => Self::Foundry,
            ExportFormat::Obsidian => Self::Obsidian,
            ExportFormat::Gfm => Self::Gfm,
            ExportFormat::Json => Self::Json,
            ExportFormat::Ipt => Self::Ipt,
            ExportFormat::Perchance => Self::Perchance,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PaperSize {
    A4,
    Letter,
}

/// `prep --md`: a Markdown flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MdArg {
    /// GitHub Markdown, the pack's own (no folder).
    Gfm,
    /// Obsidian: callouts, block ids, roll tables for the Dice Roller.
    Obsidian,
    /// Homebrewery V3: pages, monster frames, note boxes, inline drawings.
    Homebrewery,
}

impl From<MdArg> for crate::handouts::Flavour {
    fn from(a: MdArg) -> Self {
        match a {
            MdArg::Gfm => Self::Gfm,
            MdArg::Obsidian => Self::Obsidian,
            MdArg::Homebrewery => Self::Homebrewery,
        }
    }
}

/// `--season`: the season an encounter's weather is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SeasonArg {
    Spring,
    Summer,
    Autumn,
    Winter,
}

impl From<SeasonArg> for crate::generators::weather::Season {
    fn from(a: SeasonArg) -> Self {
        match a {
            SeasonArg::Spring => Self::Spring,
            SeasonArg::Summer => Self::Summer,
            SeasonArg::Autumn => Self::Autumn,
            SeasonArg::Winter => Self::Winter,
        }
    }
}

/// `--system`: which rules to make things for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SystemArg {
    Mettle,
    Core,
}

impl From<SystemArg> for crate::rules::RulesSystem {
    fn from(a: SystemArg) -> Self {
        match a {
            SystemArg::Mettle => Self::Mettle,
            SystemArg::Core => Self::Core,
        }
    }
}

/// `gen trap --from`: where traps come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TrapSource {
    /// The five traps of the rules.
    Rules,
    /// Built from trigger, clue and effect tables.
    Parts,
    /// Either: a third of traps come from the rules.
    Any,
}

impl From<TrapSource> for crate::generators::trap::Source {
    fn from(a: TrapSource) -> Self {
        match a {
            TrapSource::Rules => Self::Rules,
            TrapSource::Parts => Self::Parts,
            TrapSource::Any => Self::Any,
        }
    }
}

/// `gen journey --route`: which way to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RouteArg {
    Shortest,
    Safest,
}

impl From<RouteArg> for crate::generators::journey::Route {
    fn from(a: RouteArg) -> Self {
        match a {
            RouteArg::Shortest => Self::Shortest,
            RouteArg::Safest => Self::Safest,
        }
    }
}

impl From<PaperSize> for crate::page::pdf::Paper {
    fn from(p: PaperSize) -> Self {
        match p {
            PaperSize::A4 => Self::A4,
            PaperSize::Letter => Self::Letter,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll one or more expressions and show every die.
    Roll {
        /// Expressions such as `3d6`, `2d6+4`, `d6!`, `4d6kh3`, `5D vs 3`,
        /// `3D+3`, `save 12`, `1:4`, `cp 18`, `contest 10 8`.
        #[arg(required = true, value_name = "EXPR")]
        exprs: Vec<String>,
    },
    /// Exact odds of an expression: the full distribution, mean and range,
    /// or a Check's chance of success by Edge.
    Odds {
        /// A dice expression.
        #[arg(
            value_name = "EXPR",
            required_unless_present = "table",
            conflicts_with = "table"
        )]
        expr: Option<String>,
        /// Odds of every row of a table instead (sub-tables and roll-again
        /// rows included).
        #[arg(long, value_name = "ID")]
        table: Option<String>,
    },
    /// Roll a METTLE Check and show the dice, Score, Edge and outcome, with
    /// the exact chance beforehand.
    Check(CheckArgs),
    /// List every table: id, title, dice, system, rows, origin and source,
    /// with what overrides and extends it (--json: every table whole).
    Tables {
        /// List the terrains instead: every region (a gen.encounter.<name>
        /// table), what the generators take from it and where it came from.
        #[arg(long)]
        terrains: bool,
    },
    /// Roll on a table and show the result with its trail of dice.
    Table {
        #[arg(value_name = "ID")]
        id: String,
        /// How many results.
        #[arg(long, default_value_t = 1, value_name = "N")]
        times: usize,
        /// Only rows with this tag (e.g. a terrain).
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
    },
    /// Check every table (built in, a session.toml's `content` where it
    /// runs, and --content) and list every problem.
    Validate,
    /// Make a campaign folder that validates and preps as it stands: a
    /// session file, a party, an example region and archetype, templates.
    Init {
        /// The folder (default: here).
        #[arg(value_name = "DIR", default_value = ".")]
        dir: std::path::PathBuf,
        /// The campaign's rules: METTLE (a party of stat blocks, Downtime
        /// Vouchers) or the Core Rules (a party of sheets, injuries, full
        /// rests).
        #[arg(long, value_enum, default_value = "mettle")]
        system: SystemArg,
    },
    /// Inside a campaign: the campaign now (day, the party's stop, each
    /// PC, vouchers in hand, NPCs met, stops visited) and what each
    /// recorded session changed, by which rule.
    Campaign,
    /// Make a whole session pack from a session file (or a bundle) into
    /// OUT/<seed>/; in a campaign, session N's pack (the next by default)
    /// into out/session-N/.
    Prep {
        /// In a campaign, a session's number (default: the next, the first
        /// without a record); else the session file or a bundle made by
        /// `share` (default: session.toml).
        #[arg(value_name = "N|SESSION.toml")]
        session: Option<std::path::PathBuf>,
        /// With a campaign's bundle: the session whose pack to make
        /// (default: the bundle's own, else the next).
        #[arg(value_name = "N")]
        number: Option<usize>,
        /// Write only this item's handout files (an address such as
        /// `encounter/2`; repeatable).
        #[arg(long, value_name = "ADDRESS", conflicts_with = "reroll")]
        only: Vec<String>,
        /// Reroll this item (an address such as `encounter/2`; repeatable):
        /// its count goes into the session's [rerolls] and the files that
        /// change are rewritten.
        #[arg(long, value_name = "ADDRESS")]
        reroll: Vec<String>,
        /// Markdown flavours to write besides the pack's own GitHub
        /// Markdown, each in a folder named after it (`homebrewery/pack.md`):
        /// gfm (the pack's own), obsidian, homebrewery (repeatable, or
        /// comma-separated).
        #[arg(long, value_enum, value_delimiter = ',', value_name = "FLAVOUR")]
        md: Vec<MdArg>,
    },
    /// Print one self-contained bundle of a session (session, party, your
    /// tables and templates, tool version and tables hash): `share
    /// session.toml > bundle.toml`, then `prep bundle.toml` anywhere.
    Share {
        /// The session file (default: session.toml; in a campaign, the
        /// whole campaign).
        #[arg(value_name = "SESSION.toml")]
        session: Option<std::path::PathBuf>,
    },
    /// Rebuild a pack from its own bundle.toml and say whether every file
    /// in the folder matches (exit 0) or which differ (exit 1).
    Verify {
        /// A pack folder made by `prep` (in a campaign, default: every
        /// session's pack in out/).
        #[arg(value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
    /// Write session N's record (sessions/N/record.toml), pre-filled from
    /// its pack, for the GM to edit after play; never over a record
    /// without --force.
    Record {
        /// The session's number.
        #[arg(value_name = "N")]
        n: usize,
    },
    /// Play a session at the table: a local web server with the GM's
    /// screen (its address carries a secret token) and the players'
    /// screen; every roll and mark goes into the session's play log, from
    /// which `record N` pre-fills. Ctrl-C stops it.
    Play {
        /// Inside a campaign: the session's number (default: the last
        /// prepped without a record). Outside one: a pack folder made by
        /// `prep`.
        #[arg(value_name = "N|PACKDIR")]
        what: Option<String>,
        /// The port to listen on (default: a free one).
        #[arg(long, value_name = "P")]
        port: Option<u16>,
        /// Serve on the local network too (default: this machine only).
        #[arg(long)]
        lan: bool,
    },
    /// Print tables for another tool — Foundry VTT RollTables, Obsidian
    /// Dice Roller tables, GitHub Markdown, tablewright JSON, Inspiration
    /// Pad Pro or Perchance — or write one file per table with --to.
    Export {
        /// Table ids (`tables` lists them).
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
        /// The format to write.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Write one file per table into this folder instead of printing
        /// (`<id>.json` or `<id>.md`).
        #[arg(long, value_name = "DIR")]
        to: Option<std::path::PathBuf>,
    },
    /// Read Foundry VTT RollTables (JSON), tablewright JSON, pasted
    /// Markdown or CSV tables with a die or weight column, Inspiration Pad
    /// Pro (`.ipt`), TableSmith (`.tab`) or Perchance (`.perchance`) files,
    /// or Obsidian notes with Dice Roller tables (`--from obsidian`), and
    /// write each file as a validated table file.
    Import {
        /// Files to read (`.json`, `.md`, `.csv`, `.ipt`, `.tab`,
        /// `.perchance`).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
        /// The folder the table files go into.
        #[arg(long, value_name = "DIR", default_value = "content")]
        to: std::path::PathBuf,
        /// Read every file in this generator format, whatever its name.
        #[arg(long, value_enum, value_name = "FORMAT")]
        from: Option<ImportFrom>,
        /// Import what can be carried exactly and list every construct
        /// left out (a table using one is left out whole, and every table
        /// that rolls on it).
        #[arg(long)]
        skip_unsupported: bool,
    },
    /// List the built-in templates; with `--to DIR`, write them into DIR
    /// for a GM to edit (a campaign's `templates` folder, or `--templates
    /// DIR`). A copy left as it is changes nothing: a file with the same
    /// bytes as the built-in one is never an override.
    Templates {
        /// Write every built-in template into this folder.
        #[arg(long, value_name = "DIR")]
        to: Option<std::path::PathBuf>,
    },
    /// Print a completion script for a shell: `tablewright completions bash
    /// > ~/.local/share/bash-completion/completions/tablewright`.
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL", value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `tablewright manpage >
    /// ~/.local/share/man/man1/tablewright.1`; with `--to DIR`, write a page
    /// per command into DIR instead (`tablewright.1`, `tablewright-prep.1`, …).
    Manpage {
        /// Write every page (the top one and one per subcommand) into this
        /// folder instead of printing the top page.
        #[arg(long, value_name = "DIR")]
        to: Option<std::path::PathBuf>,
    },
    /// Generate NPCs, injuries, mutations, foraging, traps, encounters, maps,
    /// journeys or vouchers (`--item N --session S`: one item of a pack).
    Gen {
        #[command(subcommand)]
        kind: GenKind,
        /// How many items (item i is the same whatever the count).
        #[arg(long, global = true, default_value_t = 1, value_name = "N")]
        count: usize,
        /// Just the item a session pack places at `<kind>/N` (1-based), with
        /// the pack's no-repeat rule among items 1..N of the kind.
        #[arg(long, global = true, value_name = "N", conflicts_with = "count")]
        item: Option<usize>,
        /// With --item: the item as rerolled K times (`prep --reroll`, the
        /// session's [rerolls]).
        #[arg(long, global = true, value_name = "K")]
        reroll: Option<u32>,
        /// With --item: the item at `<kind>/N` of this session's (or
        /// bundle's) pack, exactly — its request, the items before it of
        /// every kind, its [rerolls]; --seed still wins over its seed.
        #[arg(long, global = true, value_name = "SESSION.toml")]
        session: Option<std::path::PathBuf>,
        /// JSON Lines: each item on a line of its own (as `--json` lists
        /// it), written as soon as it is made; --count up to 1,000,000.
        #[arg(long, global = true, conflicts_with = "session")]
        jsonl: bool,
    },
}

#[derive(Debug, Clone, Subcommand)]
pub enum GenKind {
    /// An NPC with a full stat block.
    Npc {
        #[arg(long, value_enum, default_value = "mettle")]
        system: SystemArg,
        /// An archetype name (e.g. `bandit-captain`); `tables`/`table gen.npc.core` lists them.
        #[arg(long, value_name = "NAME")]
        archetype: Option<String>,
        /// Threat tier: 1 minion, 2 veteran, 3 boss.
        #[arg(long, value_name = "N")]
        tier: Option<u8>,
        /// Draw among the folk this terrain's encounter table names, as a
        /// session pack with this `terrain` does.
        #[arg(long, value_name = "TERRAIN")]
        terrain: Option<String>,
        /// People only (no beasts or monsters), as a session pack's NPCs.
        #[arg(long)]
        people: bool,
    },
    /// A Core Rules injury, applied to a character sheet if given.
    Injury {
        /// A Core Rules character sheet (TOML).
        #[arg(long, value_name = "FILE")]
        character: Option<std::path::PathBuf>,
        /// An injury from spending an omen to cheat death: permanent.
        #[arg(long)]
        permanent: bool,
    },
    /// A Core Rules mutation, applied to a character sheet if given.
    Mutation {
        #[arg(long, value_name = "FILE")]
        character: Option<std::path::PathBuf>,
    },
    /// One watch of foraging.
    Forage {
        #[arg(long, default_value = "forest", value_name = "TERRAIN")]
        terrain: String,
        /// Kits carried: fishing, trapping.
        #[arg(long, value_delimiter = ',', value_name = "KITS")]
        kits: Vec<String>,
        /// There is a body of water in the region.
        #[arg(long)]
        water: bool,
        /// The forager's WIT.
        #[arg(long, default_value_t = 10, value_name = "N")]
        wit: u32,
        /// The damage die of the forager's ranged weapon.
        #[arg(long, default_value = "d6", value_name = "DIE")]
        damage: String,
    },
    /// A trap in its system, with its exact odds: against POISE (METTLE)
    /// or the chance to fail its save (Core Rules).
    Trap {
        #[arg(long, value_enum, default_value = "any")]
        from: TrapSource,
        #[arg(long, value_enum, default_value = "mettle")]
        system: SystemArg,
        /// POISE values to give odds for (METTLE; default 1-6).
        #[arg(long, value_delimiter = ',', value_name = "LIST")]
        poise: Option<Vec<u32>>,
        /// A party file or a pool summary: odds for its POISE values, or
        /// (Core Rules) its STR, AGI and WIT scores (default: 10,10,10,10).
        #[arg(long, value_name = "FILE|POOLS")]
        party: Option<String>,
        /// The terrain the trap is set in: its parts fit it (default: one
        /// drawn for each trap).
        #[arg(long, value_name = "TERRAIN")]
        terrain: Option<String>,
    },
    /// A METTLE downtime voucher for each holder named.
    Voucher {
        /// The holders, one voucher each, in order (`--holder Ada,Brannoc`).
        #[arg(long = "holder", value_delimiter = ',', value_name = "NAMES")]
        holders: Vec<String>,
    },
    /// An encounter scaled to the party.
    Encounter {
        #[arg(long, default_value = "road", value_name = "TERRAIN")]
        terrain: String,
        #[arg(long, value_enum, default_value = "mettle")]
        system: SystemArg,
        /// A party file (TOML: [[mettle]] stat blocks or [[core]] sheets),
        /// or a pool summary such as `3,4,4,5` (default: four average PCs).
        #[arg(long, value_name = "FILE|POOLS")]
        party: Option<String>,
        /// The season its weather is drawn in (underground has none).
        #[arg(long, value_enum, default_value = "spring")]
        season: SeasonArg,
    },
    /// A point-crawl travel map: stops, paths, Difficulties, days.
    Map {
        #[arg(long, default_value_t = 12, value_name = "N")]
        stops: usize,
        /// Terrains to use (default: road, forest, hills, swamp, ruins).
        #[arg(long, value_delimiter = ',', value_name = "LIST")]
        terrain: Vec<String>,
        /// Print the map as an SVG drawing instead.
        #[arg(long)]
        svg: bool,
        /// The players' copy: no Difficulties, no hooks.
        #[arg(long)]
        players: bool,
    },
    /// A journey across a map, day by day, by the rules of the party's system.
    Journey {
        /// A map saved with `gen map --json > map.json` (required unless
        /// --session gives the pack's map).
        #[arg(long, value_name = "FILE")]
        map: Option<std::path::PathBuf>,
        /// Starting stop (name or number; default: the map's start).
        #[arg(long, value_name = "STOP")]
        from: Option<String>,
        /// Destination (name or number; default: the map's goal).
        #[arg(long, value_name = "STOP")]
        to: Option<String>,
        /// The rules the party travels by.
        #[arg(long, value_enum, default_value = "mettle")]
        system: SystemArg,
        /// A party file or a pool summary such as `3,4,4,5` (METTLE) or
        /// `10,12,9,11` (Core Rules).
        #[arg(long, value_name = "FILE|POOLS")]
        party: Option<String>,
        #[arg(long, value_enum, default_value = "safest")]
        route: RouteArg,
        /// Rations each PC carries.
        #[arg(long, default_value_t = 3, value_name = "N")]
        rations: u32,
        /// Units of water each PC carries.
        #[arg(long, default_value_t = 3, value_name = "N")]
        water: u32,
        /// Units of water each PC can carry, filled at a source (default:
        /// the party file's `water_capacity`, else 3 or --water if more).
        #[arg(long, value_name = "N")]
        water_capacity: Option<u32>,
        /// Kits carried: fishing, trapping, camping.
        #[arg(long, value_delimiter = ',', value_name = "KITS")]
        kits: Vec<String>,
        /// Never take a Twist on a failed Travel Check (METTLE).
        #[arg(long)]
        no_twist: bool,
        /// The season of the journey's first day (its encounters meet the
        /// weather of their own day's season; a season lasts 91 days).
        #[arg(long, value_enum, default_value = "spring")]
        season: SeasonArg,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Dice in the pool (`5` or `5D`).
    #[arg(value_name = "POOL")]
    pub pool: String,
    /// The Difficulty the Score must beat (a number or a ladder word:
    /// routine, challenging, daunting, formidable, "nigh impossible").
    #[arg(long, value_name = "D")]
    pub vs: String,
    /// Dice set to six before rolling (straight to Edge).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub raise: u32,
    /// Bonus dice (+ND).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub bonus_dice: u32,
    /// Penalty dice (−ND).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub penalty_dice: u32,
    /// Damage bonus added to Edge on a success (a weapon's DM, a trap's bonus).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub dm: u32,
    /// Call a Twist on a failure with Edge: reroll the Edge dice once.
    #[arg(long)]
    pub twist: bool,
    /// Teammates' pools for Teamwork (+1D if any is higher), e.g. `--team 5,3`.
    #[arg(long, value_delimiter = ',', value_name = "POOLS")]
    pub team: Vec<u32>,
}

const NOTATION_HELP: &str = "\
Notation:
  3d6  d20  2d6+4  2d6-4  1d6+2d8+4   Roll: sum, bonus/penalty, never below 0
  (2d6+1)/2  3d6*2                   halve (rounding up) or double a Roll
  d66  d%                            tens-and-units d66, d100
  d6!  d6!p                          Core Rules explosion (a 6 counts 5, roll again)
  d6!!  d10!>=9  d6x                 explosion adding the full face
  d6 enhanced  d8 impaired           roll twice, keep the higher / lower
  4d6kh3  4d6k3  2d20kl  4d6dl1 dh1  keep / drop highest or lowest
  2d6r<3  d6rr1  2d6ro<3             reroll until gone / once
  5d10>=8  5d10cs>=8f1  d100<=45     count dice (successes, failures)
  4dF  4d6min2  2*1d8+3  2d6[fire]   Fudge, min/max faces, multiplier, label
  {3d6,3d6}kh1  {2d6}>=8             groups: keep or count whole sums
  5D  5D vs 3  5D+2D-1D vs daunting  METTLE pool and Check (Score beats Difficulty)
  5D vs 3 raise 1 twist team 6       raises, Twist, Teamwork
  3D+3  6D+6                         hazard: count Edge, add the bonus
  5D+7 vs 3                          a hazard that checks (traps): damage on success
  save 12   d20<=12                  d20 roll-under save
  contest Sybilla=10 Theobald=6      ability - d20, ranked, ties contest again
  1:4                                a one-in-four chance
  cp 18   cp 4+5   cp 4 & 5          CP table: degree of success -> dice value";

/// The command line, with negative dice expressions after `roll` and `odds`
/// (`roll -1d4`, `odds -2d6+10`) kept as expressions rather than read as
/// options: an argument there that starts with a single `-` and parses as
/// dice gets a leading space (the parser skips it), so flags after an
/// expression (`roll 3d6 --json`) keep working and no `--` is needed.
pub fn with_dice_args(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    use clap::CommandFactory;
    let command = Cli::command();
    // Long options that take a value: the word after them is that value.
    let takes_value: Vec<String> = command
        .get_arguments()
        .filter(|a| a.get_action().takes_values() && a.get_long().is_some())
        .map(|a| format!("--{}", a.get_long().unwrap_or_default()))
        .collect();
    let mut out = Vec::new();
    let mut dice = false;
    let mut previous_takes_value = false;
    for (i, arg) in args.into_iter().enumerate() {
        let text = arg.to_str().map(str::to_owned);
        let value_here = previous_takes_value;
        previous_takes_value = text.as_ref().is_some_and(|t| takes_value.contains(t));
        if let Some(t) = &text {
            if t == "--" {
                dice = false;
            } else if !dice && i > 0 && !value_here && (t == "roll" || t == "odds") {
                dice = true;
            } else if dice
                && t.starts_with('-')
                && !t.starts_with("--")
                && crate::dice::parse(t).is_ok()
            {
                out.push(format!(" {t}").into());
                continue;
            }
        }
        out.push(arg);
    }
    out
}
