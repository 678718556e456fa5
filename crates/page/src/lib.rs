//! tablewright's page engine, which knows no game: shapes, drawings, text
//! measured with the bundled fonts, the SVG writer, the PDF backend with
//! reproducible bytes, and page layout (see [`page`]).

#![warn(missing_docs)]

pub mod page;
