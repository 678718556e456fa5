//! Issue 40: a session played with `play` leaves a play log, and `record
//! N` makes the record from it — here a log written by hand into a
//! prepped campaign, recorded through the real binary (twice: the same
//! bytes), never over a record edited by hand, a damaged log named by
//! its line, and `prep` making the next session from the record.

use crate::campaign_play::{ok_in, pack};
use crate::common::{run_in, stderr, temp_dir};

#[test]
fn record_n_fills_the_record_from_the_play_log_and_prep_goes_on_from_it() {
    let base = temp_dir("play-log");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    let legs = p1["campaign"]["after"]["legs"].as_array().unwrap();
    let stop = legs[1].as_str().unwrap();
    let log = camp.join("sessions/1/play.log");
    let text = format!(
        "1 met address=\"encounter/1\"\n\
         2 damage pc=\"Ada\" amount=3 → Mettle 7 → 4\n\
         3 met address=\"npc/2\"\n\
         4 status pc=\"Ada\" status=\"Shaken\" on=true\n\
         5 supplies money=12 rations=0 water=0\n\
         6 damage pc=\"Cress\" amount=1 → Mettle 8 → 7\n\
         7 undo k=6 → strikes 6\n\
         8 arrive stop=\"{stop}\" day=4\n"
    );
    std::fs::write(&log, &text).unwrap();

    let said = ok_in(&camp, &["record", "1"]);
    assert!(said.contains("from the play log"), "{said}");
    let path = camp.join("sessions/1/record.toml");
    let record = std::fs::read_to_string(&path).unwrap();
    for line in [
        "day = 4 ".to_owned(),
        format!("stop = \"{stop}\""),
        "met = [\"encounter/1\"]".into(),
        "npcs_met = [\"npc/2\"]".into(),
        "money = 12 ".into(),
        "statuses = [\"Shaken\"]".into(),
    ] {
        assert!(record.contains(&line), "{line}\n{record}");
    }
    let ada = &record[record.find("name = \"Ada\"").unwrap()..];
    assert!(ada.contains("damage = 3 "), "{ada}");
    let cress = &record[record.find("name = \"Cress\"").unwrap()..];
    assert!(
        cress.contains("damage = 0 "),
        "the struck damage counts: {cress}"
    );

    // Again: the same bytes, nothing written.
    let said = ok_in(&camp, &["record", "1"]);
    assert!(
        said.contains("already holds what the play log says"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), record);

    // A hand edit is never overwritten: the conflict is named.
    let edited = record.replace("money = 12 ", "money = 10 ");
    std::fs::write(&path, &edited).unwrap();
    let o = run_in(&camp, &["record", "1"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("record.toml:"), "{e}");
    assert!(e.contains("was edited by hand, and the play log"), "{e}");
    assert!(e.contains("money = 10"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    std::fs::write(&path, &record).unwrap();

    // A damaged log is named by its line; nothing is written.
    std::fs::write(&log, text.replace("amount=3", "amount=4")).unwrap();
    let o = run_in(&camp, &["record", "1"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("play.log:2:1"), "{e}");
    assert!(e.contains("does not replay to what it says"), "{e}");
    std::fs::write(&log, &text).unwrap();

    // The next session starts where the log left the party.
    ok_in(&camp, &["prep"]);
    let c2 = &pack(&camp, 2)["campaign"];
    assert_eq!(c2["day"], 4);
    assert_eq!(c2["stop"], stop);
}
