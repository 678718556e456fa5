//! The encounter sheet's odds of every attack: one grid, foes down and
//! PCs across, its legend beside it ([`odds_grid`], laid out by
//! [`odds`]).

use super::Fit;
use crate::generators::encounter::Encounter;
use crate::handouts::foes::Group;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::page::pdf::LINE_HEIGHT;

/// The odds of every attack as one grid, foes down and PCs across, its
/// legend beside it: each cell the foe's attack on the PC over the PC's on
/// the foe; a group of identical foes is one row, and so are foes whose
/// odds read the same. What is the same in every cell (Core's every attack
/// hits; no blow that fells) is said once in the legend, not in a column;
/// the PC columns are as wide as their widest text, so no cell wraps.
pub(super) fn odds(f: &mut Flow, e: &Encounter, groups: &[Group], fit: Fit, w: &Wording) {
    let Some(g) = odds_grid(f, e, groups, fit) else {
        return;
    };
    let rows = g.body.len() as f64;
    f.keep(fit.head() * 2.0 + (rows.min(3.0) * 2.0 + 1.0) * g.size * LINE_HEIGHT + 12.0);
    f.heading(&w.sheet.odds, fit.head());
    let head: Vec<&str> = g.header.iter().map(String::as_str).collect();
    f.columns_sized(
        ODDS_GAP,
        &[g.table_w, g.legend_w],
        &mut [
            &mut |f: &mut Flow| f.table(&head, &g.body, &g.widths, g.size),
            &mut |f: &mut Flow| f.para(&g.legend, g.size, false),
        ],
    );
}

/// Room between the odds grid and its legend.
const ODDS_GAP: f64 = 10.0;

/// The odds grid as laid out: its header and rows (each PC cell two
/// lines), the columns' shares of the table's width, the table's and the
/// legend's widths in points, the legend and the type size.
#[derive(Debug)]
pub(in crate::handouts::sheets) struct OddsGrid {
    pub(in crate::handouts::sheets) header: Vec<String>,
    pub(in crate::handouts::sheets) body: Vec<Vec<String>>,
    pub(in crate::handouts::sheets) widths: Vec<f64>,
    pub(in crate::handouts::sheets) table_w: f64,
    pub(in crate::handouts::sheets) legend_w: f64,
    pub(in crate::handouts::sheets) legend: String,
    pub(in crate::handouts::sheets) size: f64,
}

/// The grid of [`odds`] for this flow's column (`None` with no odds).
pub(in crate::handouts::sheets) fn odds_grid(
    f: &Flow,
    e: &Encounter,
    groups: &[Group],
    fit: Fit,
) -> Option<OddsGrid> {
    if e.odds.is_empty() {
        return None;
    }
    let mut pcs: Vec<String> = Vec::new();
    for o in &e.odds {
        let is_foe = e.foes.iter().any(|n| n.name == o.defender);
        if !is_foe && !pcs.contains(&o.defender) {
            pcs.push(o.defender.clone());
        }
    }
    let first_hit = e.odds[0].hit;
    let parts = OddsParts {
        hit: e.odds.iter().any(|o| o.hit != first_hit),
        fells: e.odds.iter().any(|o| o.fells > 0.0),
    };
    let body = odds_rows(e, groups, fit, parts, &pcs);
    let mut header = vec!["foe \\ PC".to_owned()];
    header.extend(pcs.iter().cloned());
    let size = fit.small;
    let (widths, table_w, legend_w) = odds_widths(f, &header, &body, size);
    let legend = odds_legend(e, parts, first_hit);
    Some(OddsGrid {
        header,
        body,
        widths,
        table_w,
        legend_w,
        legend,
        size,
    })
}

/// The grid's rows: a foe group's cells against each PC in `pcs`.
fn odds_rows(
    e: &Encounter,
    groups: &[Group],
    fit: Fit,
    parts: OddsParts,
    pcs: &[String],
) -> Vec<Vec<String>> {
    let find = |a: &str, d: &str| {
        e.odds
            .iter()
            .find(|o| o.attacker == a && o.defender == d)
            .map(|o| cell(o, parts))
            .unwrap_or_else(|| "–".into())
    };
    // Groups with the same numbers whose cells all read the same share
    // one row; a foe whose stats differ only on the tightest sheets, as a
    // last resort to keep the sheet on one page.
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut firsts: Vec<&Group> = Vec::new();
    for g in groups {
        let foe = &g.first().name;
        let cells: Vec<String> = pcs
            .iter()
            .map(|pc| format!("{}\n{}", find(foe, pc), find(pc, foe)))
            .collect();
        let same = |(row, first): &(&mut Vec<String>, &&Group)| {
            row[1..] == cells[..] && (first.same_numbers(g) || fit.ladder)
        };
        match body.iter_mut().zip(&firsts).find(same) {
            Some((row, _)) => row[0] = format!("{}, {}", row[0], g.short()),
            None => {
                body.push(std::iter::once(g.short()).chain(cells).collect());
                firsts.push(g);
            }
        }
    }
    body
}

/// The grid's column widths (fractions of the table's width), the
/// table's width and the legend's beside it, at type size `size`.
fn odds_widths(
    f: &Flow,
    header: &[String],
    body: &[Vec<String>],
    size: f64,
) -> (Vec<f64>, f64, f64) {
    // Each PC column as wide as its widest line (cells and header), plus
    // the table's cell padding and a little air (less when the grid is
    // wide: many PCs).
    let total = f.content_width();
    let gap = ODDS_GAP;
    let widest = |i: usize| {
        let head = f.text_width(&header[i], size, true);
        body.iter()
            .flat_map(|row| row[i].lines())
            .map(|l| f.text_width(l, size, false))
            .fold(head, f64::max)
    };
    let text: Vec<f64> = (1..header.len()).map(widest).collect();
    let (legend_min, foe_min) = (120.0, 60.0);
    let roomy = text.iter().map(|t| t + 9.0).sum::<f64>() + foe_min + gap + legend_min <= total;
    let pad = if roomy { 4.0 + 5.0 } else { 4.0 + 1.0 };
    let measured: Vec<f64> = text.iter().map(|t| t + pad).collect();
    let data: f64 = measured.iter().sum();
    let widest_foe = body
        .iter()
        .map(|row| f.text_width(&row[0], size, false) + pad)
        .fold(f.text_width(&header[0], size, true) + pad, f64::max);
    // The legend takes what the grid leaves, but never less than a
    // readable column; the foe column (whose names may wrap) the rest.
    let foe_w = widest_foe.min(total - data - gap - legend_min).max(foe_min);
    let table_w = foe_w + data;
    let legend_w = total - gap - table_w;
    let mut widths = vec![foe_w / table_w];
    widths.extend(measured.iter().map(|w| w / table_w));
    (widths, table_w, legend_w)
}

/// What the grid's cells say, in words beside it.
fn odds_legend(e: &Encounter, parts: OddsParts, first_hit: f64) -> String {
    let mut legend = String::from(
        "In each cell, above: the foe attacking the PC; below: the PC attacking the foe.",
    );
    legend.push_str(if parts.hit {
        " Chance to hit, then mean damage"
    } else {
        " Mean damage"
    });
    legend.push_str(if e.system == crate::rules::RulesSystem::Core {
        " after armour"
    } else {
        " after Soak"
    });
    let (fells, none) = fells_said(e.system);
    legend.push_str(if parts.fells { fells } else { "." });
    if !parts.hit {
        legend.push_str(&format!(" Every attack {}", hits_always(e, first_hit)));
    }
    if !parts.fells {
        legend.push_str(none);
    }
    legend
}

/// What "fells" means, and the sentence for no blow that fells. METTLE:
/// damage at or over the defender's Mettle, which a new Scene refills, so
/// from full. Core Rules: critical damage, half or more of the health the
/// defender has as the fight starts — a wounded PC's, as the ledger left
/// it, not their maximum (at 3 of 8 health, 2 damage is critical).
fn fells_said(system: crate::rules::RulesSystem) -> (&'static str, &'static str) {
    match system {
        crate::rules::RulesSystem::Core => (
            "; \"fells\": the chance one blow takes half or more of the health each has now.",
            " No single blow takes half the health anyone has now.",
        ),
        _ => (
            "; \"fells\": the chance one blow fells from full.",
            " No single blow fells anyone from full.",
        ),
    }
}

/// Which parts of an odds cell vary across the grid (a part that does
/// not is said once in the legend).
#[derive(Debug, Clone, Copy)]
struct OddsParts {
    hit: bool,
    fells: bool,
}

/// The legend's line for a hit chance that is the same in every cell.
fn hits_always(e: &Encounter, hit: f64) -> String {
    let system = if e.system == crate::rules::RulesSystem::Core {
        " (Core Rules)"
    } else {
        ""
    };
    if hit >= 1.0 {
        format!("hits{system}.")
    } else {
        format!("hits {} of the time{system}.", short_percent(hit))
    }
}

/// `83% 1.8`, and `fells 5%` when one blow can fell; the parts that are
/// the same in every cell left out.
fn cell(o: &crate::generators::encounter::AttackOdds, parts: OddsParts) -> String {
    let mut out = Vec::new();
    if parts.hit {
        out.push(short_percent(o.hit));
    }
    out.push(format!("{:.1}", o.expected_damage));
    if parts.fells && o.fells > 0.0 {
        out.push(format!("fells {}", short_percent(o.fells)));
    }
    out.join(" ")
}

/// A chance in whole percent that never rounds to a certainty it is not:
/// `83%`, `<1%`, `>99%`.
fn short_percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".into()
    } else if p >= 1.0 {
        "100%".into()
    } else if p < 0.005 {
        "<1%".into()
    } else if p > 0.995 {
        ">99%".into()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_fells_is_said_from_the_health_a_pc_has_now_not_from_full() {
        use crate::rules::RulesSystem;
        // Issue 51, finding 9: 3 of 8 health shows 75% against a d4 (2
        // damage is half of 3), which "fells from full" misread.
        let (fells, none) = fells_said(RulesSystem::Core);
        for said in [fells, none] {
            assert!(!said.contains("full"), "{said}");
            assert!(said.contains("health") && said.contains("now"), "{said}");
        }
        let (fells, none) = fells_said(RulesSystem::Mettle);
        assert!(fells.contains("from full") && none.contains("from full"));
    }

    #[test]
    fn short_percent_never_claims_a_certainty() {
        assert_eq!(short_percent(0.0), "0%");
        assert_eq!(short_percent(0.001), "<1%");
        assert_eq!(short_percent(0.8298), "83%");
        assert_eq!(short_percent(0.999), ">99%");
        assert_eq!(short_percent(1.0), "100%");
    }
}
