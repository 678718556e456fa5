//! The calendar's first season: a session file's `season` (the season of
//! its day 1), `campaign.toml`'s (the season of the campaign's day 1, the
//! seasons turning every 91 days from there) and `gen journey --season`;
//! each encounter meets the weather of its own day's season.

use std::path::Path;

use serde_json::Value;

use crate::common::{ok_json, run_in, stderr, temp_dir};

/// The weather tables of a pack's encounters (`pack.json`).
fn weather_tables(pack: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pack.join("pack.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["pack"]["encounters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["weather"]["table"].as_str().unwrap_or("none").to_owned())
        .collect()
}

/// The one folder `prep` made under `out`.
fn made(out: &Path) -> std::path::PathBuf {
    let mut dirs: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

#[test]
fn a_session_files_season_is_the_weather_of_its_encounters() {
    let dir = temp_dir("season-session");
    for (season, table) in [
        ("", "gen.weather.spring"),
        ("season = \"winter\"\n", "gen.weather.winter"),
        ("season = \"autumn\"\n", "gen.weather.autumn"),
    ] {
        let file = dir.join("s.toml");
        std::fs::write(
            &file,
            format!(
                "title = \"Seasons\"\nseed = \"seasons\"\nterrain = \"forest\"\n{season}\
                 party = \"3,4,4,5\"\nencounters = 4\n"
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let o = run_in(&dir, &["prep", "s.toml", "--out", "out"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let tables = weather_tables(&made(&out));
        assert_eq!(tables.len(), 4);
        assert!(tables.iter().all(|t| t == table), "{season}: {tables:?}");
    }
}

#[test]
fn a_campaign_that_starts_in_autumn_meets_autumn_weather_on_day_one() {
    let base = temp_dir("season-campaign");
    let o = run_in(&base, &["init", "camp"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let camp = base.join("camp");
    let path = camp.join("campaign.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    // The starter region is the campaign's own saltflats: give its
    // plan a terrain the built-in weather knows.
    std::fs::write(&path, format!("season = \"autumn\"\n{text}")).unwrap();
    let plan = camp.join("sessions/1/plan.toml");
    let text = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(
        &plan,
        text.replace("terrain = \"saltflats\"", "terrain = \"hills\""),
    )
    .unwrap();
    let o = run_in(&camp, &["prep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let tables = weather_tables(&camp.join("out/session-1"));
    assert!(!tables.is_empty());
    assert!(
        tables.iter().all(|t| t == "gen.weather.autumn"),
        "{tables:?}"
    );
}

#[test]
fn gen_journey_season_sets_the_first_days_weather() {
    let dir = temp_dir("season-journey");
    let map = ok_json(&[
        "--seed",
        "season-map",
        "--json",
        "gen",
        "map",
        "--stops",
        "14",
    ]);
    let path = dir.join("map.json");
    std::fs::write(&path, map["items"][0].to_string()).unwrap();
    let path = path.to_str().unwrap();
    let mut seen = 0;
    for (season, table) in [
        ("summer", "gen.weather.summer"),
        ("winter", "gen.weather.winter"),
    ] {
        for k in 0..6 {
            let seed = format!("season-journey-{k}");
            let j = ok_json(&[
                "--seed",
                &seed,
                "--json",
                "gen",
                "journey",
                "--map",
                path,
                "--season",
                season,
                "--rations",
                "9",
                "--water",
                "9",
            ]);
            for e in j["items"][0]["encounters"].as_array().unwrap() {
                if e["day"].as_u64().unwrap() > 91 {
                    continue;
                }
                let w = &e["encounter"]["weather"]["table"];
                if w.is_string() {
                    assert_eq!(w, table, "{seed} {season}: {e}");
                    seen += 1;
                }
            }
        }
    }
    assert!(
        seen > 0,
        "no journey met an encounter: the test saw nothing"
    );
}
