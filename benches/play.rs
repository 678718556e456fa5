//! `tablewright play` served locally (issue 40 asks: the GM's page in
//! under 50 ms, a roll answered in under 10 ms, 8 players' screens
//! connected at once with memory bounded). A campaign is made and prepped
//! in a temporary folder and `play` runs in a thread through the library's
//! own entry point, as the binary would; every request is a fresh
//! connection, as a browser's would be.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;
use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::cli::Cli;

/// Runs `tablewright ARGS` in the working folder.
fn run(args: &[&str], out: &mut dyn Write) {
    let cli = Cli::parse_from(std::iter::once("tablewright").chain(args.iter().copied()));
    tablewright::app::run(&cli, out, &mut std::io::sink()).expect("the command runs");
}

/// A writer that hands each line to a channel.
struct Lines(mpsc::Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(b);
        while let Some(i) = self.1.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.1.drain(..=i).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line).trim().to_string());
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `play` started in a fresh campaign: (port, token).
fn start() -> (u16, String) {
    let dir = std::env::temp_dir().join(format!("tablewright-bench-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_current_dir(&dir).unwrap();
    run(&["init", "camp"], &mut std::io::sink());
    std::env::set_current_dir(dir.join("camp")).unwrap();
    run(&["prep"], &mut std::io::sink());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || run(&["play"], &mut Lines(tx, Vec::new())));
    let gm = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("play printed");
    let url = gm.rsplit_once(' ').unwrap().1;
    let (base, token) = url.split_once("/gm#t=").unwrap();
    let port = base.rsplit_once(':').unwrap().1.parse().unwrap();
    (port, token.to_string())
}

fn send(port: u16, head: &str, body: &str) -> TcpStream {
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        c,
        "{head}\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    c
}

fn exchange(port: u16, head: &str, body: &str) -> Vec<u8> {
    let mut out = Vec::new();
    send(port, head, body).read_to_end(&mut out).unwrap();
    assert!(
        out.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&out)
    );
    out
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0)
}

fn bench(c: &mut Criterion) {
    let (port, token) = start();
    let gm = format!("POST /api/act HTTP/1.1\r\nX-Tablewright-Token: {token}");
    c.bench_function("play: the GM's page served", |b| {
        b.iter(|| exchange(port, "GET /gm HTTP/1.1", ""))
    });
    c.bench_function("play: the GM's view served", |b| {
        b.iter(|| {
            exchange(
                port,
                &format!("GET /api/gm HTTP/1.1\r\nX-Tablewright-Token: {token}"),
                "",
            )
        })
    });
    c.bench_function("play: a roll answered (2d6+1, its log line fsynced)", |b| {
        b.iter(|| exchange(port, &gm, r#"{"do":"dice","expr":"2d6+1"}"#))
    });

    // 8 players' screens: each gets the view again after a change.
    let before = rss_kib();
    let mut screens: Vec<BufReader<TcpStream>> = (0..8)
        .map(|_| BufReader::new(send(port, "GET /api/events HTTP/1.1", "")))
        .collect();
    let next_data = |r: &mut BufReader<TcpStream>| loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0);
        if line.starts_with("data: ") {
            return;
        }
    };
    screens.iter_mut().for_each(next_data);
    let view = exchange(
        port,
        &format!("GET /api/gm HTTP/1.1\r\nX-Tablewright-Token: {token}"),
        "",
    );
    let text = String::from_utf8_lossy(&view);
    let json: serde_json::Value =
        serde_json::from_str(text.split_once("\r\n\r\n").unwrap().1).unwrap();
    let stops: Vec<String> = json["map"]["stops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let mut i = 0;
    c.bench_function("play: an arrival seen by 8 players' screens", |b| {
        b.iter(|| {
            i += 1;
            let stop = serde_json::json!(stops[i % stops.len()]);
            let body = format!(r#"{{"do":"arrive","stop":{stop},"day":{}}}"#, 1 + i);
            let began = Instant::now();
            exchange(port, &gm, &body);
            screens.iter_mut().for_each(next_data);
            began.elapsed()
        })
    });
    eprintln!(
        "memory: {} KiB before the 8 screens, {} KiB with them (after {i} arrivals)",
        before,
        rss_kib()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
