//! Lines formatted once for every output (terminal text, Markdown handouts
//! and the PDF): chances as percentages, and the stat lines of METTLE stat
//! blocks and Core Rules sheets.

/// A chance as a percentage a person can read: `69.68%`, `0.0046%`,
/// `3.5e-13`.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_owned()
    } else if (0.999_999_5..1.0).contains(&p) {
        ">99.9999%".to_owned()
    } else if p >= 0.0001 {
        format!("{:.2}%", p * 100.0)
    } else if p >= 1e-8 {
        format!("{:.6}%", p * 100.0)
    } else {
        format!("{p:.1e}")
    }
}
