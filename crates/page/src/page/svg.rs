//! A [`Drawing`] as a standalone SVG document: the SVG [`Canvas`].

use std::fmt::Write;

use super::{Anchor, Canvas, Drawing, TextStyle, halo_box, text_left, text_width};

/// Text for an SVG text node or attribute: XML's five, and, as numeric
/// references, what Markdown tools read inside an SVG pasted into a page
/// (Homebrewery's `{{…}}` blocks, `{…}` style injection, `$[…]`
/// variables, `\page`, `^…^`; Obsidian's `[[…]]`, `%%`, `==`), so
/// a name on a drawing is only text there too; control characters (not
/// allowed in XML) as their pictures (ESC as ␛).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '{' | '}' | '[' | ']' | '$' | '\\' | '^' | '%' | '=' | '`' | '*' | '_' | '|' | '~' => {
                out.push_str(&format!("&#{};", c as u32));
            }
            '\0'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document being written.
struct Svg(String);

impl Canvas for Svg {
    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), width: f64, dashed: bool) {
        let dash = if dashed {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            self.0,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="black" stroke-width="{width:.2}"{dash}/>"#
        );
    }

    fn circle(&mut self, (cx, cy): (f64, f64), r: f64, filled: bool, width: f64) {
        let fill = if filled { "black" } else { "white" };
        let _ = writeln!(
            self.0,
            r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{r:.2}" fill="{fill}" stroke="black" stroke-width="{width:.2}"/>"#
        );
    }

    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), filled: bool, width: f64) {
        let fill = if filled { "black" } else { "white" };
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{fill}" stroke="black" stroke-width="{width:.2}"/>"#
        );
    }

    fn tint(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), grey: f64) {
        let level = (grey.clamp(0.0, 1.0) * 255.0).round() as u8;
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="rgb({level},{level},{level})"/>"#
        );
    }

    fn band(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), width: f64, grey: f64) {
        let level = (grey.clamp(0.0, 1.0) * 255.0).round() as u8;
        let _ = writeln!(
            self.0,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="rgb({level},{level},{level})" stroke-width="{width:.2}" stroke-linecap="square"/>"#
        );
    }

    fn text(&mut self, (x, y): (f64, f64), style: TextStyle, text: &str) {
        let TextStyle { size, anchor, .. } = style;
        let weight = if style.bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        // The halo is a white box the size of the text, drawn first, so a
        // line under a label never shows through.
        if style.halo {
            let w = text_width(text, size);
            let ((hx, hy), (hw, hh)) = halo_box(text_left(x, w, anchor), y, size, w);
            let _ = writeln!(
                self.0,
                r#"<rect x="{hx:.2}" y="{hy:.2}" width="{hw:.2}" height="{hh:.2}" fill="white"/>"#
            );
        }
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            self.0,
            r#"<text x="{x:.2}" y="{y:.2}" font-size="{size:.2}" text-anchor="{anchor}"{weight}>{}</text>"#,
            escape(text)
        );
    }
}

/// The drawing as a standalone SVG document (numbers to two decimals, so
/// the bytes are the same everywhere).
pub fn document(d: &Drawing) -> String {
    let mut s = Svg(String::new());
    let _ = writeln!(
        s.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}pt" height="{h:.2}pt" viewBox="0 0 {w:.2} {h:.2}" font-family="Georgia, 'DejaVu Serif', serif">"#,
        w = d.width,
        h = d.height
    );
    let _ = writeln!(
        s.0,
        r#"<rect x="0" y="0" width="{:.2}" height="{:.2}" fill="white"/>"#,
        d.width, d.height
    );
    for shape in &d.shapes {
        shape.draw(&mut s);
    }
    s.0.push_str("</svg>\n");
    s.0
}
