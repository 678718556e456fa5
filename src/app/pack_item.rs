//! `gen <kind> --session SESSION --item N`: the item a session's pack
//! places at `<kind>/N`, exactly. A pack's items are drawn in the order
//! encounter, trap, npc, map, journey, voucher, injury, mutation, and an
//! item redraws where it would repeat what any item before it says — an
//! encounter's people or trap included — so the item depends on the
//! session's whole request, not only its own kind's. Here the session (or
//! bundle) gives that request: its seed (unless `--seed`), party, tables,
//! entries and `[rerolls]` (`--reroll K` sets the item's own count). The
//! item is printed as `gen` prints one: JSON or text.

use std::io::Write;

use super::generate::GenReport;
use super::request::SessionItem;
use crate::error::{Error, UsageError};
use crate::generators::Address;
use crate::generators::session::Pack;
use crate::pack::{Asked, Sources};
use crate::terminal::items;
use crate::workspace::Workspace;

pub(crate) fn run(
    ws: &Workspace,
    item: &SessionItem,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let mut src = Sources::read(ws, &item.session, None, &Asked::default(), err)?;
    let address = format!("{}/{}", item.kind, item.n);
    if let Some(flaw) = src.session.address_flaw(&address) {
        return Err(UsageError::SessionItem { flaw }.into());
    }
    let at = Address::parse(&address).expect("checked");
    match item.reroll {
        Some(0) => {
            src.session.rerolls.remove(&address);
        }
        Some(k) => {
            src.session.rerolls.insert(address.clone(), k);
        }
        None => {}
    }
    let pack = src.generate()?;
    if ws.json {
        let report = GenReport {
            seed: src.seed.as_str(),
            kind: item.kind,
            items: pack.item_json(&at).into_iter().collect(),
        };
        return super::json(out, &report);
    }
    if item.svg {
        let map = pack.map.as_ref().expect("checked");
        let view = crate::handouts::drawings::chart::View {
            players: item.players,
            reveal: pack.campaign.as_ref().and_then(|c| c.reveal.as_ref()),
        };
        let drawing = crate::handouts::drawings::chart::draw_view(map, view);
        write!(out, "{}", crate::page::svg::document(&drawing))?;
        return Ok(());
    }
    write!(out, "{}", text(&pack, item, at.index()))?;
    Ok(())
}

/// The item's text, as `gen <kind>` prints it.
fn text(pack: &Pack, item: &SessionItem, i: usize) -> String {
    match item.kind {
        "encounter" => items::encounter(&pack.encounters[i]),
        "trap" => items::trap(&pack.traps[i]),
        "npc" => items::npc(&pack.npcs[i]),
        "map" => items::map_known(
            pack.map.as_ref().expect("checked"),
            item.players,
            pack.campaign.as_ref().and_then(|c| c.reveal.as_ref()),
        ),
        "journey" => items::journey(pack.journey.as_ref().expect("checked")),
        "voucher" => items::voucher(&pack.vouchers[i]),
        "injury" => items::injury(&pack.injuries[i]),
        "mutation" => items::mutation(&pack.mutations[i]),
        other => unreachable!("`{other}` is no pack kind (refused by the request)"),
    }
}
