//! An encounter sheet, one page: the situation and its threat; the foes
//! grouped by kind (`Marsh leech ×8`) with their numbers, CALLINGS and
//! weapons and a tick track per foe, beside what else is on the field (the
//! leader's want, secret, manner and look, the others on stage, hazard,
//! trap, initiative); the zone diagram and the
//! rules of every tile and sporadic in it; the odds of every attack as two
//! compact grids (foes × PCs and PCs × foes, identical foes sharing a
//! row); ruled note lines in the space left.
//!
//! [`odds`]: the odds grid and its legend.

mod odds;

use odds::odds;
#[cfg(test)]
pub(super) use odds::odds_grid;

use crate::generators::encounter::{Encounter, Placed};
use crate::generators::npc::{Npc, NpcRules};
use crate::handouts::drawings::zones;
use crate::handouts::foes::{Group, base_name, callings, groups, names};
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::wording::lines;
use crate::wording::markup::Markup;
use crate::wording::perils;

/// Sub-headings.
const HEAD: f64 = 11.0;

/// How tightly a sheet is set: type sizes and spacing. A sheet takes the
/// first of [`FITS`] that keeps it on one page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Fit {
    /// The situation.
    lead: f64,
    /// Foes, hazards, trap, terrain cards.
    body: f64,
    /// Odds grid, tile rules, the headline.
    small: f64,
    /// Space after each foe group.
    gap: f64,
    /// Terrain cards and initiative in one paragraph, and the odds
    /// grid's explanation cut to its key.
    merge: bool,
    /// Attributes short (METTLE by initial, `N3 C2 P1 M2 F3`; Core without
    /// separators), headings smaller, range-band rows only as tall as
    /// their text.
    initials: bool,
    /// Initiative left to the run sheet's ladder and the situation's dice
    /// trail to the Markdown (the last resort).
    ladder: bool,
    /// The sheet's title at 13 pt and sub-headings at 9 pt.
    small_title: bool,
}

/// From roomy to tight; body text never goes under 8 pt (zone text stays
/// at 8.5 pt at least, whatever the fit).
pub(super) const FITS: [Fit; 6] = [
    fit((10.0, 9.5, 9.0), 3.0, 0),
    fit((9.5, 9.0, 8.5), 2.0, 1),
    fit((9.0, 8.5, 8.5), 1.0, 1),
    fit((9.0, 8.5, 8.5), 1.0, 2),
    fit((8.5, 8.0, 8.0), 0.0, 3),
    fit((8.0, 8.0, 8.0), 0.0, 4),
];

/// A fit of type sizes (lead, body, small), `gap` after each foe, cut
/// `level` times: 1 merges, 2 shortens attributes, 3 leaves initiative to
/// the run sheet, 4 sets the sheet's title and headings smaller still.
const fn fit((lead, body, small): (f64, f64, f64), gap: f64, level: u8) -> Fit {
    Fit {
        lead,
        body,
        small,
        gap,
        merge: level >= 1,
        initials: level >= 2,
        ladder: level >= 3,
        small_title: level >= 4,
    }
}

impl Fit {
    fn head(self) -> f64 {
        match (self.initials, self.small_title) {
            (_, true) => HEAD - 2.0,
            (true, false) => HEAD - 1.0,
            _ => HEAD,
        }
    }
}

/// The sheet titled `label[0]`, its headline giving the address
/// `label[1]`, set as roomy as still fits one page. The rare sheet that no
/// fit keeps to one page (eight foes of two kinds, a trap and a hazard on
/// a crowded field) is set on two by design: the battlefield — zones,
/// rules in play, terrain cards — starts the second page under a
/// "(continued)" heading, rather than a few lines spilling onto a page
/// of their own.
pub(super) fn labelled(f: &mut Flow, label: [&str; 2], e: &Encounter, w: &Wording) {
    let fits = |fit: Fit, split: bool| {
        let mut probe = f.probe();
        sheet(&mut probe, label, e, fit, split, w);
        probe.page_count() <= 1 + usize::from(split)
    };
    let (fit, split) = [false, true]
        .into_iter()
        .find_map(|split| {
            FITS.iter()
                .copied()
                .find(|fit| fits(*fit, split))
                .map(|fit| (fit, split))
        })
        .unwrap_or((FITS[FITS.len() - 1], true));
    sheet(f, label, e, fit, split, w);
}

/// The sheet at one fit; `split` starts the battlefield on a second page.
fn sheet(f: &mut Flow, label: [&str; 2], e: &Encounter, fit: Fit, split: bool, w: &Wording) {
    let title = format!("{}: {}", label[0], e.situation.row);
    f.section_sized(&title, if fit.small_title { 13.0 } else { 16.0 });
    f.para(&e.situation.text, fit.lead, false);
    layers(f, e, fit, w);
    f.para(&headline(label[1], e, !fit.ladder), fit.small, false);
    let groups = groups(&e.foes);
    foe_section(f, e, &groups, fit, w);
    odds(f, e, &groups, fit, w);
    if split {
        f.note_lines(&w.sheet.notes, 2);
        f.new_page();
        f.heading(&format!("{title} ({})", w.sheet.continued), 13.0);
    }
    f.heading(
        &format!("{} ({})", w.sheet.zones, e.layout.kind),
        fit.head(),
    );
    let width = f.content_width();
    let style = zones::Style {
        no_key: fit.ladder,
        compact: fit.initials,
    };
    f.drawing_scaled(&zones::draw_styled(e, width, style), 1.0, 1.0);
    // Short of room, the terrain cards and initiative join the rules'
    // columns; else they run the full width under them.
    let table = terrain_and_initiative(e, fit);
    if fit.merge {
        rules(f, e, fit, vec![table]);
    } else {
        rules(f, e, fit, Vec::new());
        paras(f, &[table], fit.body);
    }
    f.note_lines(&w.sheet.notes, 2);
}

/// The foes: first each kind rolled as several groups (see [`kinds`]) in
/// the full width, its foes in two columns; then the single groups in two
/// columns of about the same height, those on stage who are not foes
/// after them.
fn foe_section(f: &mut Flow, e: &Encounter, groups: &[Group], fit: Fit, w: &Wording) {
    let (many, single): (Vec<_>, Vec<_>) = kinds(groups).into_iter().partition(|k| k.len() > 1);
    if !groups.is_empty() {
        f.heading(&w.sheet.foes, fit.head());
    }
    for kind in &many {
        kind_block(f, kind, fit);
    }
    let single: Vec<&Group> = single.into_iter().flatten().collect();
    if single.is_empty() {
        return others(f, e, fit, w);
    }
    let (left, right) = single.split_at(balanced_split(&single));
    f.columns(
        14.0,
        &mut [
            &mut |f: &mut Flow| foes_only(f, left, fit),
            &mut |f: &mut Flow| {
                foes_only(f, right, fit);
                others(f, e, fit, w);
            },
        ],
    );
}

/// Where to split the foe groups into two columns of about the same
/// height (a group's height in lines: title, about two of stats, and a
/// track row, or for several foes one more per two); the left column
/// takes any odd line.
fn balanced_split(groups: &[&Group]) -> usize {
    let lines = |g: &&Group| match g.members.len() {
        1 => 4,
        n => 4 + n.div_ceil(2),
    };
    let total: usize = groups.iter().map(lines).sum();
    (1..groups.len())
        .min_by_key(|&i| {
            let left: usize = groups[..i].iter().map(lines).sum();
            ((2 * left).abs_diff(total), left < total - left)
        })
        .unwrap_or(1)
}

/// The item's address (`encounter/2`), terrain, threat and (with `trail`)
/// where the situation came from.
fn headline(address: &str, e: &Encounter, trail: bool) -> String {
    let threat = if e.foes.is_empty() {
        "no foes".to_owned()
    } else {
        format!(
            "threat {} (ratio {}; fair is 0.35–0.70)",
            e.threat.verdict,
            e.threat.ratio_said()
        )
    };
    let head = format!("{address} · {} · {threat}", e.terrain);
    if trail {
        format!("{head} · {}", e.situation.trail_text())
    } else {
        head
    }
}

/// Single foe groups, a block each: numbers, attacks, CALLINGS and a
/// tick track per foe.
fn foes_only(f: &mut Flow, groups: &[&Group], fit: Fit) {
    for g in groups {
        foe_group(f, g, fit);
    }
}

/// The groups of one kind (archetype), in the order they first appear:
/// separately rolled cultists are one kind.
fn kinds<'g, 'a>(groups: &'g [Group<'a>]) -> Vec<Vec<&'g Group<'a>>> {
    let key = |g: &Group| g.first().archetype.clone();
    let mut out: Vec<Vec<&Group>> = Vec::new();
    for g in groups {
        match out.iter_mut().find(|k| key(k[0]) == key(g)) {
            Some(k) => k.push(g),
            None => out.push(vec![g]),
        }
    }
    out
}

/// A foe's numbers, attacks and the name of its track: (`NATURE 3 · … ·
/// Soak 2 · Speed 1`, `sickle (DM 3, melee, 4D)`, `Mettle`); `short`
/// writes the attributes short.
fn numbers(n: &Npc, short: bool) -> (String, String, &'static str) {
    match &n.rules {
        NpcRules::Mettle(m) => (
            format!(
                "{} · Soak {} · Speed {}",
                if short {
                    lines::mettle_initials_short(&m.block)
                } else {
                    lines::mettle_attributes(&m.block)
                },
                m.soak,
                m.block.speed
            ),
            lines::weapons_pools(&m.block),
            "Mettle",
        ),
        NpcRules::Core(c) => (
            format!(
                "{} · armour {}",
                if short {
                    lines::core_attributes(&c.sheet).replace(" · ", " ")
                } else {
                    lines::core_attributes(&c.sheet)
                },
                c.sheet.armour
            ),
            lines::core_attack(&c.sheet, Markup::Plain),
            "health",
        ),
    }
}

/// `, veteran +1`, `, green -2` or nothing.
fn grade(n: &Npc) -> String {
    match n.grade {
        g if g > 0 => format!(", veteran +{g}"),
        g if g < 0 => format!(", green {g}"),
        _ => String::new(),
    }
}

/// ` · CALLINGS: Chant the old words 4D` (METTLE) or ` · skills, traits:
/// lore, fanatic` (Core Rules); nothing without any.
fn callings_text(n: &Npc) -> String {
    let calls = callings(n);
    let word = match n.rules {
        NpcRules::Mettle(_) => "CALLINGS",
        NpcRules::Core(_) => "skills, traits",
    };
    if calls.is_empty() {
        String::new()
    } else {
        format!(" · {word}: {calls}")
    }
}

fn title_size(fit: Fit) -> f64 {
    if fit.initials { fit.body + 0.5 } else { 10.0 }
}

fn foe_group(f: &mut Flow, g: &Group, fit: Fit) {
    let n = g.first();
    f.para(&g.title(), title_size(fit), true);
    let (stats, attacks, track) = numbers(n, fit.initials);
    let stats = format!("tier {} {}{} · {stats}", n.tier, n.kind, grade(n));
    f.para(
        &format!("{stats} · {attacks}{}", callings_text(n)),
        fit.body,
        false,
    );
    let tough = lines::foe_line(n).toughness.max(0) as usize;
    let tracks = group_tracks(g, &format!("{track} {tough}"), tough);
    f.tracks(&tracks, fit.body);
    f.gap(fit.gap);
}

/// What a group of a kind block says besides its names, part by part.
struct Parts {
    /// `N3 C2 P2 M5 F2` or `STR 3 AGI 5 WIT 4`.
    attributes: String,
    /// `tier 1 human`, `Soak 2 · Speed 1` or `armour 0`, the attacks and
    /// the CALLINGS (or skills): said once for the block when every foe
    /// shares them.
    rest: [String; 4],
    track: String,
    tough: usize,
}

fn parts(n: &Npc) -> Parts {
    let (attributes, extra) = match &n.rules {
        NpcRules::Mettle(m) => (
            lines::mettle_initials_short(&m.block),
            format!("Soak {} · Speed {}", m.soak, m.block.speed),
        ),
        NpcRules::Core(c) => (
            lines::core_attributes(&c.sheet).replace(" · ", " "),
            format!("armour {}", c.sheet.armour),
        ),
    };
    let (_, attacks, track) = numbers(n, true);
    let tough = lines::foe_line(n).toughness.max(0) as usize;
    Parts {
        attributes,
        rest: [
            format!("tier {} {}", n.tier, n.kind),
            extra,
            attacks,
            callings_text(n).trim_start_matches(" · ").to_owned(),
        ],
        track: format!("{track} {tough}"),
        tough,
    }
}

/// Several groups of one kind (see [`kinds`]): `Cultist ×7` and what they
/// all share in the full width, then each foe's name, grade, numbers and
/// whatever else differs, with its track, in two columns.
fn kind_block(f: &mut Flow, kind: &[&Group], fit: Fit) {
    let parts: Vec<Parts> = kind.iter().map(|g| parts(g.first())).collect();
    let shared: Vec<bool> = (0..4)
        .map(|i| parts.iter().all(|p| p.rest[i] == parts[0].rest[i]))
        .collect();
    let count: usize = kind.iter().map(|g| g.members.len()).sum();
    let title = format!("{} ×{count}", base_name(kind[0].first()));
    f.para(&title, title_size(fit), true);
    let common: Vec<&str> = (0..4)
        .filter(|&i| shared[i] && !parts[0].rest[i].is_empty())
        .map(|i| parts[0].rest[i].as_str())
        .collect();
    f.para(&common.join(" · "), fit.body, false);
    let lines: Vec<Member> = kind
        .iter()
        .zip(&parts)
        .map(|(g, p)| {
            let own = (0..4).filter(|&i| !shared[i] && !p.rest[i].is_empty());
            let mut said = vec![who(g), p.attributes.clone()];
            said.extend(own.map(|i| p.rest[i].clone()));
            Member {
                line: said.join(" · "),
                tracks: group_tracks(g, &p.track, p.tough),
            }
        })
        .collect();
    let (left, right) = lines.split_at(lines.len().div_ceil(2));
    f.columns(
        14.0,
        &mut [
            &mut |f: &mut Flow| kind_members(f, left, fit),
            &mut |f: &mut Flow| kind_members(f, right, fit),
        ],
    );
    f.gap(fit.gap);
}

/// A group of a kind block: its line and its tracks.
struct Member {
    line: String,
    tracks: Vec<(String, usize)>,
}

/// A group's names and grade: `Wat Nettleship, veteran +1`, `Marsh leech
/// 3, 5, 6, 7, veteran +1`, `Wendel Hartwell, Ash Kettle`.
fn who(g: &Group) -> String {
    format!("{}{}", names(g), grade(g.first()))
}

/// A group's tracks: `Mettle 5` for one foe; `Mettle 5 each:` then a
/// track per foe labelled by its number or name.
fn group_tracks(g: &Group, track: &str, tough: usize) -> Vec<(String, usize)> {
    if g.members.len() == 1 {
        return vec![(track.to_owned(), tough)];
    }
    let base = base_name(g.first());
    let mut t = vec![(format!("{track} each:"), 0)];
    t.extend(g.members.iter().map(|m| {
        let label = m
            .name
            .strip_prefix(&base)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(&m.name);
        (label.to_owned(), tough)
    }));
    t
}

/// Each group of a kind block: its line, then its tracks (a lone foe's
/// on the same line when it fits, short of room without the track's
/// name).
fn kind_members(f: &mut Flow, members: &[Member], fit: Fit) {
    let step = fit.body + 1.5;
    for m in members {
        let [(track, tough)] = m.tracks.as_slice() else {
            f.para(&m.line, fit.body, false);
            f.tracks(&m.tracks, fit.body);
            continue;
        };
        let fits = |label: &str| {
            f.text_width(label, fit.body, false) + 4.0 + (*tough).min(6) as f64 * step
                <= f.content_width()
        };
        let label = format!("{} · {track}", m.line);
        if fits(&label) {
            f.tracks(&[(label, *tough)], fit.body);
        } else if fit.initials && fits(&m.line) {
            // Short of room, the boxes alone say how many points.
            f.tracks(&[(m.line.clone(), *tough)], fit.body);
        } else {
            f.para(&m.line, fit.body, false);
            f.tracks(&[(track.clone(), *tough)], fit.body);
        }
    }
}

/// What an encounter's weather is called: `Conditions` below ground.
pub(super) fn weather_word<'w>(e: &Encounter, w: &'w Wording) -> &'w String {
    if e.below_ground() {
        &w.sheet.conditions
    } else {
        &w.sheet.weather
    }
}

/// The weather, the twist and the ending laid over the situation, who
/// comes back into it, and the spoils: a paragraph each, or one run at
/// the tightest fit.
fn layers(f: &mut Flow, e: &Encounter, fit: Fit, w: &Wording) {
    let said: Vec<String> = [
        (weather_word(e, w), e.weather.as_ref().map(|l| &l.text)),
        (&w.sheet.twist, e.twist.as_ref().map(|l| &l.text)),
        (&w.sheet.ending, e.ending.as_ref().map(|l| &l.text)),
        (&w.sheet.returning, e.returning.as_ref().map(|r| &r.text)),
        (&w.sheet.spoils, e.spoils.as_ref().map(|l| &l.text)),
    ]
    .into_iter()
    .filter_map(|(word, layer)| layer.map(|l| format!("{word}: {l}")))
    .collect();
    if fit.small_title {
        f.para(&said.join(" · "), fit.small, false);
    } else {
        for s in &said {
            f.para(s, fit.lead, false);
        }
    }
}

/// The people on stage who are not foes.
fn others(f: &mut Flow, e: &Encounter, fit: Fit, w: &Wording) {
    if let Some(n) = e.leader() {
        let who = format!("{}: {}", e.leader_label(), lines::who(n));
        if fit.small_title {
            // The tightest fit, kept for sheets that hold most: who leads,
            // their traits left to the encounter's Markdown and JSON.
            f.para(&who, fit.small, true);
        } else {
            f.para(&who, fit.body, true);
            f.para(&traits_text(n, w), fit.body, false);
        }
    }
    if e.others.is_empty() {
        return;
    }
    f.heading("Also on stage", fit.head());
    for n in &e.others {
        let line = lines::foe_line(n);
        f.para(&lines::who(n), fit.body, true);
        let mut said = format!("{} · {}", line.stats, line.attack);
        if !n.traits.is_empty() {
            said = format!("{said} · {}", traits_text(n, w));
        }
        f.para(&said, fit.body, false);
    }
}

/// A person's traits in one run, in the GM's words: `Wants: … · Secret:
/// … · Manner: … · Look: …`.
fn traits_text(n: &Npc, w: &Wording) -> String {
    let said: Vec<String> = n
        .traits
        .lines()
        .into_iter()
        .map(|(label, text)| format!("{}: {text}", w.npc.trait_label(label)))
        .collect();
    said.join(" · ")
}

/// A paragraph of the rules block: its text and whether it is bold.
type Line = (String, bool);

/// The situation's hazard and a trap lying in wait, in the pack's system:
/// a block each (a trap's name in bold, then its rules and odds); `brief`,
/// the way to disarm it by its name alone (its whole text is in the
/// trap's Markdown and JSON).
pub(super) fn hazards(e: &Encounter, brief: bool) -> Vec<Vec<Line>> {
    let mut blocks = Vec::new();
    if let Some(h) = &e.hazard {
        blocks.push(vec![(format!("Hazard: {}", perils::hazard(h)), false)]);
    }
    if let Some(t) = &e.trap {
        let odds = perils::odds_short(t);
        let odds = if odds.is_empty() {
            String::new()
        } else {
            format!(" · {odds}")
        };
        blocks.push(vec![
            (format!("Trap: {}", t.name), true),
            (
                format!(
                    "Trigger: {} Clue: {} Effect: {}{}",
                    t.trigger,
                    t.clue,
                    t.effect,
                    t.disarm.as_ref().map_or_else(String::new, |d| {
                        let d = if brief {
                            d.split(':').next().unwrap_or(d)
                        } else {
                            d
                        };
                        format!(" Disarm: {d}")
                    })
                ),
                false,
            ),
            (format!("{}{odds}", perils::roll(t)), false),
        ]);
    }
    blocks
}

/// The terrain cards drawn, and how initiative runs.
fn terrain_and_initiative(e: &Encounter, fit: Fit) -> Vec<Line> {
    let sides: Vec<String> = e
        .terrain_cards
        .iter()
        .map(|d| {
            let bennies = match d.bennies {
                0 => String::new(),
                1 => " (1 benny to the side)".to_owned(),
                n => format!(" ({n} bennies to the side)"),
            };
            format!("{} {}{bennies}", d.side, d.cards.join(" "))
        })
        .collect();
    let cards = format!(
        "Terrain cards: {}; first to lay: {}.",
        sides.join(" · "),
        e.first_to_lay
    );
    let initiative = if fit.ladder {
        "Initiative: as on the run sheet's ladder."
    } else {
        lines::initiative(e.system)
    };
    if fit.merge {
        vec![(format!("{cards} {initiative}"), false)]
    } else {
        vec![(cards, false), (initiative.to_owned(), false)]
    }
}

/// The rules in play, in two columns of about the same length: every
/// tile and sporadic on the field (keyed as in the zone diagram), the
/// hazard and the trap, then the `more` blocks.
fn rules(f: &mut Flow, e: &Encounter, fit: Fit, more: Vec<Vec<Line>>) {
    let placed = zones::keyed(e);
    // Short of room, a tile's place is left to the diagram.
    let place = |p: &Placed| match (fit.initials, p.benny) {
        (false, false) => p.at.clone(),
        (false, true) => format!("{}, starts with a benny", p.at),
        (true, false) => String::new(),
        (true, true) => "benny".to_owned(),
    };
    let mut blocks: Vec<Vec<Line>> = merged(&placed, place)
        .iter()
        .map(|t| vec![(tile_line(t), false)])
        .collect();
    blocks.extend(hazards(e, fit.small_title));
    blocks.extend(more);
    // Two columns of about the same length of text.
    let len = |b: &Vec<Line>| b.iter().map(|(t, _)| t.len()).sum::<usize>();
    let total: usize = blocks.iter().map(len).sum();
    let split = (0..=blocks.len())
        .min_by_key(|&i| (2 * blocks[..i].iter().map(len).sum::<usize>()).abs_diff(total))
        .unwrap_or(0);
    let (left, right) = blocks.split_at(split);
    f.columns(
        14.0,
        &mut [
            &mut |f: &mut Flow| paras(f, left, fit.small),
            &mut |f: &mut Flow| paras(f, right, fit.small),
        ],
    );
}

fn paras(f: &mut Flow, blocks: &[Vec<Line>], size: f64) {
    for (text, bold) in blocks.iter().flatten() {
        f.para(text, size, *bold);
    }
}

/// Tiles of the same name and rules, once: their keys and places.
struct Tile<'a> {
    keys: Vec<&'a str>,
    places: Vec<String>,
    tile: &'a Placed,
}

/// The keyed tiles with repeats merged, in the order they first appear,
/// each with what `place` says of where it lies.
fn merged<'a>(
    placed: &'a [(String, &'a Placed)],
    place: impl Fn(&Placed) -> String,
) -> Vec<Tile<'a>> {
    let mut out: Vec<Tile> = Vec::new();
    for (key, p) in placed {
        let place = place(p);
        match out
            .iter_mut()
            .find(|t| t.tile.name == p.name && t.tile.text == p.text)
        {
            Some(t) => {
                t.keys.push(key);
                t.places.push(place);
            }
            None => out.push(Tile {
                keys: vec![key],
                places: vec![place],
                tile: p,
            }),
        }
    }
    out
}

/// `T1 CLATTER (Right flank, starts with a benny): rules`, or for a tile
/// drawn twice `T2, T5 HIDEYHOLE (Right flank; The middle): rules`;
/// short of room `T1 CLATTER (benny): rules`, `T4 PIT: rules`.
fn tile_line(t: &Tile) -> String {
    let text = if t.tile.text.is_empty() {
        String::new()
    } else {
        format!(": {}", t.tile.text)
    };
    let places: Vec<&str> = t
        .places
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    let places = if places.is_empty() {
        String::new()
    } else {
        format!(" ({})", places.join("; "))
    };
    format!("{} {}{places}{text}", t.keys.join(", "), t.tile.name)
}
