//! Rolling one term of a Roll: dice through the modifier pipeline (throw,
//! reroll, clamp, explode, keep, count, sort — see [`crate::dice::mods`]),
//! groups item by item, and the allocation-free path for the classic
//! notation that draws the same dice in the same order.

use super::{DieOutcome, ItemOutcome, TermOutcome};
use crate::dice::ast::{Dice, ExplodeStyle, Group, Keep, Term, TermKind, ThrowRule};
use crate::dice::limits::{MAX_EXPLOSIONS, MAX_REROLLS};
use crate::dice::mods::{Mods, Sort};
use crate::seed::DieSource;

/// Roll signed terms: each term's record and the signed sum.
pub(super) fn roll_terms<S: DieSource + ?Sized>(
    terms: &[Term],
    stream: &mut S,
) -> (Vec<TermOutcome>, i64) {
    let mut out = Vec::with_capacity(terms.len());
    let mut sum = 0i64;
    for term in terms {
        let t = roll_term(term, stream);
        sum += if term.negative { -t.value } else { t.value };
        out.push(t);
    }
    (out, sum)
}

fn roll_term<S: DieSource + ?Sized>(term: &Term, stream: &mut S) -> TermOutcome {
    let mut out = TermOutcome {
        term: term.to_string(),
        negative: term.negative,
        dice: Vec::new(),
        value: 0,
        items: Vec::new(),
        label: None,
    };
    match &term.kind {
        TermKind::Const(v) => out.value = *v as i64,
        TermKind::D66 => {
            let tens = stream.die(6);
            let units = stream.die(6);
            let value = i64::from(tens * 10 + units);
            out.dice.push(DieOutcome::plain(
                vec![i64::from(tens), i64::from(units)],
                value,
            ));
            out.value = value;
        }
        TermKind::Dice(d) => {
            let (dice, value) = roll_dice(d, stream);
            out.dice = dice;
            out.value = value;
            out.label = d.mods.label.clone();
        }
        TermKind::Group(g) => {
            let (items, value) = roll_group(g, stream);
            out.items = items;
            out.value = value;
            out.label = g.mods.label.clone();
        }
    }
    out
}

/// One throw: a face, rerolled as the rule says (the faces thrown away go
/// to `rerolled`), then clamped.
fn throw<S: DieSource + ?Sized>(rule: &ThrowRule, stream: &mut S, rerolled: &mut Vec<i64>) -> i64 {
    throw_with(rule, stream, |face| rerolled.push(face))
}

/// [`throw`], handing each face thrown away to `discard`.
fn throw_with<S: DieSource + ?Sized>(
    rule: &ThrowRule,
    stream: &mut S,
    mut discard: impl FnMut(i64),
) -> i64 {
    let draw = |s: &mut S| rule.faces.face(s.die(rule.faces.count()));
    let mut face = draw(stream);
    if let Some(r) = rule.reroll
        && r.when.matches(face)
    {
        discard(face);
        face = draw(stream);
        if !r.once {
            let mut again = 1;
            while r.when.matches(face) && again < MAX_REROLLS {
                discard(face);
                face = draw(stream);
                again += 1;
            }
            if r.when.matches(face) {
                // Past the cap, draw among the faces that end the reroll:
                // the same chances as rerolling on (each equally likely).
                discard(face);
                face = rule.nth_allowed(stream.die(rule.allowed_count()) - 1);
            }
        }
    }
    rule.clamp(face)
}

/// One die's value without a record: the same draws as [`roll_one`].
fn die_value<S: DieSource + ?Sized>(d: &Dice, rule: &ThrowRule, top: i64, stream: &mut S) -> i64 {
    let mut last = throw_with(rule, stream, |_| {});
    let (mut sum, mut thrown) = (last, 1u32);
    if let Some(e) = d.mods.explode {
        while ThrowRule::explodes(e, last, top) && thrown <= MAX_EXPLOSIONS {
            last = throw_with(rule, stream, |_| {});
            sum += last;
            thrown += 1;
        }
    }
    match d.mods.explode {
        Some(e) if e.style == ExplodeStyle::Core => sum - i64::from(thrown - 1),
        _ => sum,
    }
}

/// Dice with any modifiers, for the total only: the same draws and the
/// same total as [`roll_dice`] (kept by value, so ties need no order;
/// sorting changes nothing), allocating only to keep or drop.
fn dice_value<S: DieSource + ?Sized>(d: &Dice, stream: &mut S) -> i64 {
    let rule = d.throw_rule();
    let top = rule.range().1;
    let score = |v: i64| d.mods.tally.map_or(v, |t| t.score(v));
    let total: i64 = match d.mods.keep {
        None => (0..d.count)
            .map(|_| score(die_value(d, &rule, top, stream)))
            .sum(),
        Some(keep) => kept_sum(d.count, keep, || die_value(d, &rule, top, stream), score),
    };
    total * i64::from(d.mods.times)
}

/// `score` summed over the values a keep rule keeps out of `count` drawn
/// by `next` (kept by value): on the stack up to 32 dice.
fn kept_sum(
    count: u32,
    keep: Keep,
    mut next: impl FnMut() -> i64,
    score: impl Fn(i64) -> i64,
) -> i64 {
    let mut small = [0i64; 32];
    let mut big = Vec::new();
    let values: &mut [i64] = if count as usize <= small.len() {
        &mut small[..count as usize]
    } else {
        big.resize(count as usize, 0);
        &mut big
    };
    for v in values.iter_mut() {
        *v = next();
    }
    let (k, highest) = keep.kept_of(count);
    if highest {
        values.sort_unstable_by(|a, b| b.cmp(a));
    } else {
        values.sort_unstable();
    }
    values.iter().take(k as usize).map(|&v| score(v)).sum()
}

/// One die: throws until the explosion (if any) stops; its value.
fn roll_one<S: DieSource + ?Sized>(
    d: &Dice,
    rule: &ThrowRule,
    top: i64,
    stream: &mut S,
) -> DieOutcome {
    let mut rerolled = Vec::new();
    let mut rolls = vec![throw(rule, stream, &mut rerolled)];
    if let Some(e) = d.mods.explode {
        while ThrowRule::explodes(e, *rolls.last().expect("thrown"), top)
            && rolls.len() as u32 <= MAX_EXPLOSIONS
        {
            rolls.push(throw(rule, stream, &mut rerolled));
        }
    }
    let pen = match d.mods.explode {
        Some(e) if e.style == ExplodeStyle::Core => rolls.len() as i64 - 1,
        _ => 0,
    };
    let value = rolls.iter().sum::<i64>() - pen;
    DieOutcome {
        rolls,
        value,
        kept: true,
        rerolled,
        counts: None,
    }
}

/// Which of `values` a keep rule keeps: the highest (or lowest), ties
/// broken by position (earlier first).
pub(super) fn keep_mask(values: &[i64], keep: Keep) -> Vec<bool> {
    let (k, highest) = keep.kept_of(values.len() as u32);
    let mut order: Vec<usize> = (0..values.len()).collect();
    if highest {
        order.sort_by(|&a, &b| values[b].cmp(&values[a]).then(a.cmp(&b)));
    } else {
        order.sort_by(|&a, &b| values[a].cmp(&values[b]).then(a.cmp(&b)));
    }
    let mut mask = vec![false; values.len()];
    for &i in order.iter().take(k as usize) {
        mask[i] = true;
    }
    mask
}

/// The kept units' total (or count), times the multiplier; `counts` gets
/// what each unit counts under a tally.
fn settle(values: &[i64], mods: &Mods, kept: &mut [bool], counts: &mut [Option<i64>]) -> i64 {
    if let Some(keep) = mods.keep {
        kept.copy_from_slice(&keep_mask(values, keep));
    }
    let mut total = 0i64;
    for (i, &v) in values.iter().enumerate() {
        let add = match mods.tally {
            Some(t) => {
                let c = t.score(v);
                counts[i] = Some(c);
                c
            }
            None => v,
        };
        if kept[i] {
            total += add;
        }
    }
    total * i64::from(mods.times)
}

/// Display order (sorting changes nothing else).
fn sort_order(values: &[i64], sort: Option<Sort>) -> Option<Vec<usize>> {
    let sort = sort?;
    let mut order: Vec<usize> = (0..values.len()).collect();
    match sort {
        Sort::Ascending => order.sort_by_key(|&i| values[i]),
        Sort::Descending => order.sort_by_key(|&i| std::cmp::Reverse(values[i])),
    }
    Some(order)
}

fn reorder<T: Clone>(v: &mut Vec<T>, order: Option<Vec<usize>>) {
    if let Some(order) = order {
        *v = order.iter().map(|&i| v[i].clone()).collect();
    }
}

fn roll_dice<S: DieSource + ?Sized>(d: &Dice, stream: &mut S) -> (Vec<DieOutcome>, i64) {
    let rule = d.throw_rule();
    let top = rule.range().1;
    let mut dice: Vec<DieOutcome> = (0..d.count)
        .map(|_| roll_one(d, &rule, top, stream))
        .collect();
    let values: Vec<i64> = dice.iter().map(|x| x.value).collect();
    let mut kept = vec![true; dice.len()];
    let mut counts = vec![None; dice.len()];
    let total = settle(&values, &d.mods, &mut kept, &mut counts);
    for ((die, k), c) in dice.iter_mut().zip(kept).zip(counts) {
        die.kept = k;
        die.counts = c;
    }
    reorder(&mut dice, sort_order(&values, d.mods.sort));
    (dice, total)
}

fn roll_group<S: DieSource + ?Sized>(g: &Group, stream: &mut S) -> (Vec<ItemOutcome>, i64) {
    let mut items: Vec<ItemOutcome> = g
        .items
        .iter()
        .map(|terms| {
            let (terms, value) = roll_terms(terms, stream);
            ItemOutcome {
                terms,
                value,
                kept: true,
                counts: None,
            }
        })
        .collect();
    let values: Vec<i64> = items.iter().map(|x| x.value).collect();
    let mut kept = vec![true; items.len()];
    let mut counts = vec![None; items.len()];
    let total = settle(&values, &g.mods, &mut kept, &mut counts);
    for ((item, k), c) in items.iter_mut().zip(kept).zip(counts) {
        item.kept = k;
        item.counts = c;
    }
    reorder(&mut items, sort_order(&values, g.mods.sort));
    (items, total)
}

/// The value of one term without a record: the classic notation (plain
/// dice, the Core Rules explosion, keep highest/lowest) without
/// allocating where it can; everything else through the recorded roll.
/// Both draw the same dice in the same order.
pub(super) fn term_value<S: DieSource + ?Sized>(kind: &TermKind, stream: &mut S) -> i64 {
    match kind {
        TermKind::Const(v) => *v as i64,
        TermKind::D66 => i64::from(stream.die(6) * 10 + stream.die(6)),
        TermKind::Dice(d)
            if d.mods.is_classic() && matches!(d.faces, crate::dice::ast::Faces::Sides(_)) =>
        {
            let sides = d.faces.count();
            let explode = d.mods.explode.is_some();
            match d.mods.keep {
                None => (0..d.count)
                    .map(|_| classic_die(sides, explode, stream))
                    .sum(),
                Some(keep) => {
                    kept_sum(d.count, keep, || classic_die(sides, explode, stream), |v| v)
                }
            }
        }
        TermKind::Dice(d) => dice_value(d, stream),
        TermKind::Group(g) => roll_group(g, stream).1,
    }
}

/// A plain die, or one with the Core Rules explosion (a maximum counts one
/// less and the die is thrown again).
fn classic_die<S: DieSource + ?Sized>(sides: u32, explode: bool, stream: &mut S) -> i64 {
    let mut face = stream.die(sides);
    if !explode || face != sides {
        return i64::from(face);
    }
    let mut value = 0i64;
    let mut thrown = 1;
    while face == sides && thrown <= MAX_EXPLOSIONS {
        value += i64::from(sides - 1);
        face = stream.die(sides);
        thrown += 1;
    }
    value + i64::from(face)
}
