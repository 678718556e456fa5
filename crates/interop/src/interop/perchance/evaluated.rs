//! `[f = list.selectOne.evaluateItem]`: Perchance picks an item and
//! evaluates its text once, so every later `[f]` prints the same words
//! (without `.evaluateItem`, each `[f]` evaluates the item again). An item
//! whose text rolls only `{10-20}` number ranges and `{a|b}` choices of
//! plain words has a few outcomes, each as likely as Perchance makes it:
//! [`outcomes`] lists them, and [`super::vars`] makes a row for each, the
//! text with that outcome in every place. Anything else in the item (a
//! list, an escape, a weighted option) leaves the variable refused.

use super::gcd;
use super::text::signed;

/// Most outcomes one item may have.
pub const MAX_OUTCOMES: usize = 1_000;

/// The texts `item` can evaluate to, each with its number of ways (all
/// ways equally likely); `None` when it holds more than plain words,
/// number ranges and plain choices, or has more than [`MAX_OUTCOMES`].
pub fn outcomes(item: &str) -> Option<Vec<(String, u64)>> {
    let mut out = vec![(String::new(), 1u64)];
    let mut rest = item;
    while !rest.is_empty() {
        let cut = rest.find(['{', '}', '[', ']', '\\']).unwrap_or(rest.len());
        for (text, _) in &mut out {
            text.push_str(&rest[..cut]);
        }
        rest = &rest[cut..];
        let Some(inner) = rest.strip_prefix('{') else {
            if rest.is_empty() {
                break;
            }
            return None;
        };
        let close = inner.find('}')?;
        let options = choices(&inner[..close])?;
        if out.len().saturating_mul(options.len()) > MAX_OUTCOMES {
            return None;
        }
        out = out
            .iter()
            .flat_map(|(text, n)| options.iter().map(move |o| (format!("{text}{o}"), *n)))
            .collect();
        rest = &inner[close + 1..];
    }
    Some(out)
}

/// The options of `{…}`: `10-20` (each number), `a|b` (each word, none
/// weighted or holding braces); `None` for anything else.
fn choices(inner: &str) -> Option<Vec<String>> {
    if inner.contains(['{', '[', '\\', '^']) {
        return None;
    }
    if let Some((a, b)) = number_range(inner) {
        let span = usize::try_from(b.checked_sub(a)?).ok()?;
        if span >= MAX_OUTCOMES {
            return None;
        }
        return Some((a..=b).map(|n| n.to_string()).collect());
    }
    inner
        .contains('|')
        .then(|| inner.split('|').map(str::to_owned).collect())
}

/// `A-B` of whole numbers, `A` not above `B` (either may be negative).
fn number_range(t: &str) -> Option<(i64, i64)> {
    let (a, rest) = signed(t)?;
    let (b, rest) = signed(rest.strip_prefix('-')?)?;
    (rest.is_empty() && a <= b).then_some((a, b))
}

/// The weight of each outcome of each item: item `i` weighs `items[i]`,
/// shared among its outcomes by their ways, all whole numbers with the
/// same ratios and as small as they go (`None` past `max` in all).
pub fn weights(items: &[(u64, &[(String, u64)])], max: u128) -> Option<Vec<Vec<u64>>> {
    let lcm = items.iter().try_fold(1u128, |l, (_, o)| {
        let ways: u128 = o.iter().map(|(_, n)| u128::from(*n)).sum();
        let l = l.checked_mul(ways.max(1) / gcd(l, ways.max(1)))?;
        (l <= max).then_some(l)
    })?;
    let mut total = 0u128;
    let mut out = Vec::new();
    for (w, o) in items {
        let ways: u128 = o.iter().map(|(_, n)| u128::from(*n)).sum::<u128>().max(1);
        let each = u128::from(*w).checked_mul(lcm / ways)?;
        let row: Vec<u64> = o
            .iter()
            .map(|(_, n)| {
                let x = each.checked_mul(u128::from(*n))?;
                total = total.checked_add(x)?;
                u64::try_from(x).ok()
            })
            .collect::<Option<_>>()?;
        out.push(row);
    }
    if total > max {
        return None;
    }
    let g = out
        .iter()
        .flatten()
        .fold(0u128, |g, &w| gcd(g, u128::from(w)))
        .max(1);
    let g = u64::try_from(g).ok()?;
    Some(
        out.into_iter()
            .map(|r| r.into_iter().map(|w| w / g).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_plain_choices_are_listed_with_their_ways() {
        let got = outcomes("{1-3} {red|blue} apples").unwrap();
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], ("1 red apples".to_owned(), 1));
        assert_eq!(got[5], ("3 blue apples".to_owned(), 1));
        assert_eq!(outcomes("plain").unwrap(), [("plain".to_owned(), 1)]);
        for bad in [
            "[list]",
            "{a|b^2}",
            "{a}",
            "{5-1}",
            "{1-2000}",
            "a\\{b",
            "{1-9}{1-9}{1-9}{1-9}",
            "{1-3",
            "x}",
        ] {
            assert!(outcomes(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn each_item_keeps_its_weight_shared_among_its_outcomes() {
        let two = outcomes("{1-2}").unwrap();
        let three = outcomes("{a|b|c}").unwrap();
        let w = weights(&[(1, &two), (2, &three)], 1 << 53).unwrap();
        // 1/2 of item one each (1/3 of the whole), 1/3 of item two each (2/9).
        assert_eq!(w, [vec![3, 3], vec![4, 4, 4]]);
        assert!(weights(&[(u64::MAX, &two), (1, &three)], 1 << 53).is_none());
    }
}
