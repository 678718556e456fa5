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

/// Every asset by its address.
const ASSETS: &[(&str, Asset)] = &[
    (
        "/",
        Asset {
            content_type: HTML,
            body: include_bytes!("../../../assets/play/players.html"),
        },
    ),
    (
        "/gm",
        Asset {
            content_type: HTML,
            body: include_bytes!("../../../assets/play/gm.html"),
        },
    ),
    (
        "/assets/play.css",
        Asset {
            content_type: CSS,
            body: include_bytes!("../../../assets/play/play.css"),
        },
    ),
    (
        "/assets/gm.js",
        Asset {
            content_type: JS,
            body: include_bytes!("../../../assets/play/gm.js"),
        },
    ),
    (
        "/assets/players.js",
        Asset {
            content_type: JS,
            body: include_bytes!("../../../assets/play/players.js"),
        },
    ),
];

/// The asset at exactly this address.
pub(crate) fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|(p, _)| *p == path).map(|(_, a)| a)
}
