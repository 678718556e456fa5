//! ACS terrain cards: the 54-card deck (four suits of 2 to ace, two
//! jokers), what strength of tile a card calls for, which tiles fit a call,
//! the card rule (as written in `acs.card_rule`) that turns one side's cards
//! into tiles, bennies and a bonus, and who lays the first tile.
//!
//! The rule draws only what the cards leave open (a joker's suit when no
//! other card shows one, the strength a face card or joker gives); the tiles
//! themselves are chosen by the caller, which knows the tile table and the
//! field.

use crate::seed::DieSource;

/// The suits in deck order, with their signs; a suit's name is also the tag
/// its tiles carry.
pub const SUITS: [(&str, &str); 4] = [
    ("clubs", "♣"),
    ("spades", "♠"),
    ("diamonds", "♦"),
    ("hearts", "♥"),
];

/// Tile strengths, weakest first (also tile tags).
pub const LEVELS: [&str; 3] = ["minor", "medium", "major"];

/// The `suit` of a joker.
pub const JOKER: usize = 4;

/// A card of the 54-card deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// 0..4 for clubs, spades, diamonds, hearts; [`JOKER`] for a joker.
    pub suit: usize,
    /// 2..=14 (ace high); 15 for a joker.
    pub rank: u32,
}

impl Card {
    /// `5♦`, `K♠`, `Joker`.
    pub fn label(self) -> String {
        if self.suit == JOKER {
            return "Joker".into();
        }
        let rank = match self.rank {
            11 => "J".into(),
            12 => "Q".into(),
            13 => "K".into(),
            14 => "A".into(),
            n => n.to_string(),
        };
        format!("{rank}{}", SUITS[self.suit].1)
    }

    /// Face cards and jokers: their tile starts with a benny.
    pub fn wild(self) -> bool {
        (11..=13).contains(&self.rank) || self.suit == JOKER
    }

    /// The strength of tile the card calls for; none for a face card or
    /// joker (the strength is then drawn).
    pub fn level(self) -> Option<&'static str> {
        match self.rank {
            2..=5 => Some("minor"),
            6..=9 => Some("medium"),
            10 | 14 => Some("major"),
            _ => None,
        }
    }
}

/// The 54 cards in order: each suit 2 to ace, then two jokers.
pub fn deck() -> Vec<Card> {
    let mut d: Vec<Card> = (0..4)
        .flat_map(|suit| (2..=14).map(move |rank| Card { suit, rank }))
        .collect();
    d.push(Card {
        suit: JOKER,
        rank: 15,
    });
    d.push(Card {
        suit: JOKER,
        rank: 15,
    });
    d
}

/// What one suit group of a hand calls for: a tile of a suit and strength,
/// over the whole field (`field-2` or `field-3`, two or three cards) or on
/// one spot (a single card).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// The suit's name, which is also its tiles' tag (`clubs`, …).
    pub suit: &'static str,
    /// The strength asked for: one of [`LEVELS`].
    pub level: &'static str,
    /// The field tag for a whole-field call (`field-2`, `field-3`); `None` for
    /// a spot.
    pub field: Option<&'static str>,
}

/// Which tiles may answer a call, from their tags: the call's suit, its
/// strength (or `any-level`), and for a whole-field call its field tag. A
/// spot call prefers tiles that are not whole-field ones, if there are any.
pub fn tiles_for<'a, T, S: AsRef<str>>(
    tiles: &'a [T],
    tags: impl Fn(&T) -> &[S],
    call: &Call,
) -> Vec<&'a T> {
    let has = |t: &T, tag: &str| tags(t).iter().any(|x| x.as_ref() == tag);
    let fits = |t: &&T| has(t, call.suit) && (has(t, call.level) || has(t, "any-level"));
    match call.field {
        Some(f) => tiles.iter().filter(fits).filter(|t| has(t, f)).collect(),
        None => {
            let spot: Vec<&T> = tiles
                .iter()
                .filter(fits)
                .filter(|t| !has(t, "field-2") && !has(t, "field-3"))
                .collect();
            if spot.is_empty() {
                tiles.iter().filter(fits).collect()
            } else {
                spot
            }
        }
    }
}

/// A tile laid for a call, and what the rule says of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Laid<T> {
    /// The tile the caller chose for the call.
    pub tile: T,
    /// It covers the whole field (else it sits on one spot).
    pub whole_field: bool,
    /// Whether it starts with a benny.
    pub benny: bool,
    /// The cards it came from (`5♦ + 8♦`).
    pub from: String,
}

/// What a pair, triple or straight among the natural cards gives a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bonus {
    /// Three natural cards of one rank: every spot tile starts with a benny.
    Triple,
    /// Two natural cards of one rank: one spot tile starts with a benny.
    Pair,
    /// Three natural cards in sequence (an ace may be low): the side decides
    /// who lays the first tile.
    Straight,
}

impl Bonus {
    /// What the bonus gives, as the handout says it.
    pub fn text(self) -> &'static str {
        match self {
            Bonus::Triple => "triple: every tile starts with a benny",
            Bonus::Pair => "pair: one tile starts with a benny",
            Bonus::Straight => "straight: this side decides who lays the first tile",
        }
    }
}

/// One side's cards played by the card rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Play<T> {
    /// The tiles laid, one per call.
    pub tiles: Vec<Laid<T>>,
    /// Bennies that could not sit on a tile (whole-field tiles) go to the side.
    pub bennies: u32,
    /// The bonus the natural cards give, if any.
    pub bonus: Option<Bonus>,
}

/// The suit each card counts as: its own, or for a joker the largest suit
/// group among the other cards (lowest suit on a tie), else a drawn suit.
fn suits_of<S: DieSource>(cards: &[Card], s: &mut S) -> Vec<usize> {
    let mut suit_of: Vec<usize> = cards.iter().map(|c| c.suit).collect();
    for (i, c) in cards.iter().enumerate() {
        if c.suit != JOKER {
            continue;
        }
        let mut counts = [0usize; 4];
        for (j, other) in cards.iter().enumerate() {
            if j != i && other.suit < JOKER {
                counts[other.suit] += 1;
            }
        }
        let best = (0..4)
            .max_by_key(|&k| (counts[k], std::cmp::Reverse(k)))
            .unwrap_or(0);
        suit_of[i] = if counts[best] > 0 {
            best
        } else {
            s.die(4) as usize - 1
        };
    }
    suit_of
}

/// A group's strength: its highest card's, or drawn for a face card or joker.
fn level_of<S: DieSource>(highest: Card, s: &mut S) -> &'static str {
    highest
        .level()
        .unwrap_or_else(|| LEVELS[s.die(3) as usize - 1])
}

/// Pairs, triples and straights among the natural (not wild) cards.
pub fn bonus(cards: &[Card]) -> Option<Bonus> {
    let mut ranks: Vec<u32> = cards.iter().filter(|c| !c.wild()).map(|c| c.rank).collect();
    ranks.sort_unstable();
    let most_alike = ranks
        .iter()
        .map(|r| ranks.iter().filter(|x| *x == r).count())
        .max()
        .unwrap_or(0);
    let straight = ranks.len() >= 3
        && ranks
            .windows(3)
            .any(|w| w[1] == w[0] + 1 && w[2] == w[1] + 1)
        || (ranks.contains(&14) && ranks.contains(&2) && ranks.contains(&3));
    if most_alike >= 3 {
        Some(Bonus::Triple)
    } else if most_alike == 2 {
        Some(Bonus::Pair)
    } else if straight {
        Some(Bonus::Straight)
    } else {
        None
    }
}

/// The card rule: jokers join the largest suit group; each suit group of two
/// or three cards lays one whole-field tile at its highest card's strength
/// (its wild cards' bennies go to the side), a single card lays a tile on one
/// spot (with a benny if wild); then a triple gives every spot tile a benny,
/// a pair one spot tile (or the side, if there is none). `lay` chooses the
/// tile for a call (and its spot), drawing from the same source; it may find
/// none.
pub fn play<T, S: DieSource>(
    cards: &[Card],
    s: &mut S,
    mut lay: impl FnMut(&Call, &mut S) -> Option<T>,
) -> Play<T> {
    let mut tiles = Vec::new();
    let mut bennies = 0;
    let suit_of = suits_of(cards, s);
    for (suit, (suit_name, _)) in SUITS.iter().enumerate() {
        let group: Vec<Card> = cards
            .iter()
            .zip(&suit_of)
            .filter(|(_, s2)| **s2 == suit)
            .map(|(c, _)| *c)
            .collect();
        let Some(&first) = group.first() else {
            continue;
        };
        let from = group
            .iter()
            .map(|c| c.label())
            .collect::<Vec<_>>()
            .join(" + ");
        let whole_field = group.len() >= 2;
        let (highest, field, benny) = if whole_field {
            let highest = group.iter().max_by_key(|c| c.rank).copied().expect("group");
            let field = if group.len() == 2 {
                "field-2"
            } else {
                "field-3"
            };
            bennies += group.iter().filter(|c| c.wild()).count() as u32;
            (highest, Some(field), false)
        } else {
            (first, None, first.wild())
        };
        let call = Call {
            suit: suit_name,
            level: level_of(highest, s),
            field,
        };
        if let Some(tile) = lay(&call, s) {
            tiles.push(Laid {
                tile,
                whole_field,
                benny,
                from,
            });
        }
    }
    let bonus = bonus(cards);
    let mut spots = tiles.iter_mut().filter(|t| !t.whole_field);
    match bonus {
        Some(Bonus::Triple) => spots.for_each(|t| t.benny = true),
        Some(Bonus::Pair) => match spots.next() {
            Some(t) => t.benny = true,
            None => bennies += 1,
        },
        _ => {}
    }
    Play {
        tiles,
        bennies,
        bonus,
    }
}

/// Card initiative: who lays the first tile. A side whose cards made a
/// straight chooses; else the foes, who hold the centre, if there are any;
/// else the party.
pub fn first_to_lay(straight: Option<&str>, foes: bool) -> String {
    match straight {
        Some(side) => format!("{side}, whose straight lets them choose"),
        None if foes => "foes, who hold the centre".into(),
        None => "party".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Faces in order; the test fails if the rule throws more dice than that.
    struct Faces(Vec<u32>);

    impl DieSource for Faces {
        fn die(&mut self, sides: u32) -> u32 {
            let f = self.0.remove(0);
            assert!((1..=sides).contains(&f));
            f
        }
    }

    fn card(suit: usize, rank: u32) -> Card {
        Card { suit, rank }
    }

    #[test]
    fn the_deck_has_54_distinct_cards() {
        let d = deck();
        assert_eq!(d.len(), 54);
        let mut labels: Vec<String> = d.iter().map(|c| c.label()).collect();
        labels.retain(|l| l != "Joker");
        let n = labels.len();
        labels.sort();
        labels.dedup();
        assert_eq!((n, labels.len()), (52, 52));
        assert_eq!(card(1, 13).label(), "K♠");
        assert_eq!(card(2, 5).label(), "5♦");
    }

    #[test]
    fn card_rule_worked_examples() {
        // 5♦ + 8♦ → a whole-field diamond tile of medium strength (the 8),
        // with no dice thrown.
        let mut calls = Vec::new();
        let p = play(&[card(2, 5), card(2, 8)], &mut Faces(vec![]), |c, _| {
            calls.push(*c);
            Some(())
        });
        assert_eq!(
            calls,
            [Call {
                suit: "diamonds",
                level: "medium",
                field: Some("field-2")
            }]
        );
        assert!(p.tiles[0].whole_field && !p.tiles[0].benny);
        assert_eq!(p.tiles[0].from, "5♦ + 8♦");
        assert_eq!((p.bennies, p.bonus), (0, None));
        // K♠ → a spade tile on one spot, of a drawn strength, with a benny.
        let mut calls = Vec::new();
        let p = play(&[card(1, 13)], &mut Faces(vec![3]), |c, _| {
            calls.push(*c);
            Some(())
        });
        assert_eq!(
            calls,
            [Call {
                suit: "spades",
                level: "major",
                field: None
            }]
        );
        assert!(p.tiles[0].benny && !p.tiles[0].whole_field);
    }

    #[test]
    fn jokers_join_the_largest_suit_and_pairs_give_a_benny() {
        // Joker + 7♥ + 7♣: the joker joins (tied) clubs, the lower suit,
        // and as the highest card of its group leaves the strength to a die.
        let p = play(
            &[card(4, 15), card(3, 7), card(0, 7)],
            &mut Faces(vec![2]),
            |c, _| Some(c.suit),
        );
        let laid: Vec<(&str, bool)> = p.tiles.iter().map(|t| (t.tile, t.whole_field)).collect();
        assert_eq!(laid, [("clubs", true), ("hearts", false)]);
        assert_eq!(p.bonus, Some(Bonus::Pair));
        // The pair's benny sits on the spot tile; the joker's goes to the side.
        assert!(p.tiles[1].benny);
        assert_eq!(p.bennies, 1);
        // Three natural cards in a row make a straight.
        assert_eq!(
            bonus(&[card(0, 14), card(1, 2), card(2, 3)]),
            Some(Bonus::Straight)
        );
        assert_eq!(
            first_to_lay(Some("party"), true),
            "party, whose straight lets them choose"
        );
        assert_eq!(first_to_lay(None, false), "party");
    }
}
