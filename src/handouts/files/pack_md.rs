//! The pieces of `pack.md` around its handouts: its contents, each
//! handout a heading level down, the one line that says what the pack
//! holds, and text for a code span (the seed).

use crate::generators::count;
use crate::generators::session::Pack;

/// Text for a code span (`` `seed` ``), where a backslash would show:
/// as it is, but a backtick (which would end the span) as `'`, a line
/// break as a space and a control character as its picture.
pub(super) fn in_code(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '`' => '\'',
            '\n' | '\r' | '\t' => ' ',
            c => crate::wording::markup::control_picture(c).unwrap_or(c),
        })
        .collect()
}

/// The contents of `pack.md`: the heading each bound part starts with.
pub(super) fn contents(parts: &[String]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|p| p.lines().find_map(|l| l.strip_prefix("## ")))
        .map(str::to_owned)
        .collect()
}

/// A handout's Markdown one heading level down (`# Trap` → `## Trap`), so
/// `pack.md` keeps one H1, the pack's title.
pub(super) fn demote(md: &str) -> String {
    let mut out = String::with_capacity(md.len() + 16);
    for line in md.split_inclusive('\n') {
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if (1..6).contains(&hashes) && line[hashes..].starts_with(' ') {
            out.push('#');
        }
        out.push_str(line);
    }
    out
}

/// What a pack holds, in one line: `2 encounters, 1 trap, 4 NPCs, a map
/// and a journey, 2 downtime vouchers`; parts it has none of are left out.
pub(super) fn summary(pack: &Pack) -> String {
    let slips = pack.injuries.len() + pack.mutations.len();
    let mut parts: Vec<String> = [
        (pack.encounters.len(), "encounter", "encounters"),
        (pack.traps.len(), "trap", "traps"),
        (pack.npcs.len(), "NPC", "NPCs"),
    ]
    .iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, one, many)| count(*n, one, many))
    .collect();
    match (&pack.map, &pack.journey) {
        (Some(_), Some(_)) => parts.push("a map and a journey".into()),
        (Some(_), None) => parts.push("a map".into()),
        _ => {}
    }
    for (n, one, many) in [
        (pack.vouchers.len(), "downtime voucher", "downtime vouchers"),
        (slips, "slip", "slips"),
    ] {
        if n > 0 {
            parts.push(count(n, one, many));
        }
    }
    if parts.is_empty() {
        return "nothing asked for".into();
    }
    parts.join(", ")
}
