//! The pages, embedded in the binary (`assets/play/`): `play` needs no
//! network and no file beside the binary. Only these addresses exist; no
//! path is ever looked up on disk.

/// One embedded file.
pub(crate) struct Asset {
    pub(crate) content_type: &'static str,
    pub(crate) body: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Every asset: its address, its type, its bytes.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        HTML,
        include_bytes!("../../../assets/play/players.html"),
    ),
    ("/gm", HTML, include_bytes!("../../../assets/play/gm.html")),
    (
        "/assets/play.css",
        CSS,
        include_bytes!("../../../assets/play/play.css"),
    ),
    (
        "/assets/gm.js",
        JS,
        include_bytes!("../../../assets/play/gm.js"),
    ),
    (
        "/assets/players.js",
        JS,
        include_bytes!("../../../assets/play/players.js"),
    ),
];

/// The asset at exactly this address.
pub(crate) fn find(path: &str) -> Option<Asset> {
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, content_type, body)| Asset { content_type, body })
}
