//! What a request must keep to and what every answer carries: oversized
//! bodies and heads, paths outside the pages, the safety headers, no
//! inline script, the requests RFC 9112 says to refuse, a reason for
//! every status, a refused write answered 507.

use super::*;

#[test]
fn oversized_bodies_and_heads_are_refused() {
    let s = start();
    let t = token(&s);
    let big = format!(
        "{{\"do\":\"dice\",\"expr\":\"{}\"}}",
        "1".repeat(super::super::http::MAX_BODY)
    );
    assert_eq!(act(&s, &t, &big).0, 413);
    let host = format!("127.0.0.1:{}", s.port());
    let long = format!(
        "GET / HTTP/1.1\r\nHost: {host}\r\nX-Long: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(raw(&s, long.as_bytes()).0, 431);
    let many: String = (0..100).map(|i| format!("X-{i}: 1\r\n")).collect();
    let text = format!("GET / HTTP/1.1\r\nHost: {host}\r\n{many}\r\n");
    assert_eq!(raw(&s, text.as_bytes()).0, 431);
    let chunked =
        format!("POST /api/act HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n");
    assert_eq!(raw(&s, chunked.as_bytes()).0, 411);
}

#[test]
fn paths_outside_the_pages_are_refused() {
    let s = start();
    for path in [
        "/../Cargo.toml",
        "/assets/../../etc/passwd",
        "/assets/%2e%2e/x",
        "/%2e%2e/x",
        "/assets\\..\\x",
        "/assets/play.css/..",
        "/src/main.rs",
        "/assets/",
    ] {
        let (status, _, body) = request(&s, "GET", path, "", "");
        assert!(status == 400 || status == 404, "{path}: {status}");
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "{path}"
        );
    }
    assert_eq!(raw(&s, b"GET ../x HTTP/1.1\r\nHost: x\r\n\r\n").0, 400);
}

#[test]
fn every_answer_carries_the_safety_headers() {
    let s = start();
    for (path, ty) in [
        ("/", "text/html"),
        ("/gm", "text/html"),
        ("/assets/play.css", "text/css"),
        ("/assets/gm.js", "text/javascript"),
        ("/assets/players.js", "text/javascript"),
        ("/api/players", "application/json"),
        ("/nothing", "application/json"),
    ] {
        let (_, head, _) = request(&s, "GET", path, "", "");
        let head = head.to_ascii_lowercase();
        assert!(
            head.contains(&format!("content-type: {ty}")),
            "{path}: {head}"
        );
        assert!(
            head.contains("content-security-policy: default-src 'none'; script-src 'self'"),
            "{path}"
        );
        assert!(
            !head.contains("unsafe-inline") && !head.contains("http:") && !head.contains("https:")
        );
        for h in [
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
            "x-frame-options: deny",
            "cache-control: no-store",
            "content-length: ",
        ] {
            assert!(head.contains(h), "{path}: {h}");
        }
    }
}

#[test]
fn the_pages_use_no_inline_script_and_nothing_from_outside() {
    for path in ["/", "/gm"] {
        let page = std::str::from_utf8(super::super::assets::find(path).unwrap().body).unwrap();
        assert!(page.contains("<script src=\"/assets/"), "{path}");
        assert!(
            !page.contains("<script>") && !page.contains("onclick") && !page.contains("onload"),
            "{path}: no inline code"
        );
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "{path}"
        );
    }
    for path in ["/assets/gm.js", "/assets/players.js"] {
        let js = std::str::from_utf8(super::super::assets::find(path).unwrap().body).unwrap();
        assert!(
            !js.contains("innerHTML")
                && !js.contains("outerHTML")
                && !js.contains("insertAdjacentHTML"),
            "{path}: user text goes in through textContent"
        );
        assert!(!js.contains("http://") && !js.contains("https://") && !js.contains("eval("));
    }
}

#[test]
fn requests_rfc_9112_says_to_refuse_are_refused() {
    let s = start();
    let host = format!("Host: 127.0.0.1:{}\r\n", s.port());
    let cases: [(String, u16); 10] = [
        (format!("GET / HTTP/1.1\r\n{host}{host}\r\n"), 400),
        (
            format!("GET / HTTP/1.1\r\n{host}Host: evil.example\r\n\r\n"),
            400,
        ),
        (
            format!(
                "POST /api/act HTTP/1.1\r\n{host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{{}} "
            ),
            400,
        ),
        (
            format!("POST /api/act HTTP/1.1\r\n{host}Content-Length: +2\r\n\r\n{{}}"),
            400,
        ),
        (
            format!("POST /api/act HTTP/1.1\r\n{host}Content-Length: 2, 2\r\n\r\n{{}}"),
            400,
        ),
        (format!("GET / HTTP/1.9\r\n{host}\r\n"), 505),
        (format!("GET / HTTP/2.0\r\n{host}\r\n"), 505),
        (format!("GET / HTTP/1.1x\r\n{host}\r\n"), 400),
        (
            format!("GET / HTTP/1.1\r\nHost : 127.0.0.1:{}\r\n\r\n", s.port()),
            400,
        ),
        (format!("GET / HTTP/1.1\r\n{host} X-Folded: 1\r\n\r\n"), 400),
    ];
    for (text, want) in cases {
        let (status, head, body) = raw(&s, text.as_bytes());
        assert_eq!(status, want, "{text:?}: {head}");
        assert!(body.starts_with("{\"error\":"), "{text:?}: {body}");
    }
    assert_eq!(
        raw(&s, format!("GET / HTTP/1.0\r\n{host}\r\n").as_bytes()).0,
        200
    );
}

#[test]
fn every_status_has_its_own_reason() {
    use super::super::http::head;
    assert!(head(505, "x", None).starts_with("HTTP/1.1 505 HTTP Version Not Supported\r\n"));
    assert!(head(507, "x", None).starts_with("HTTP/1.1 507 Insufficient Storage\r\n"));
    assert!(head(500, "x", None).starts_with("HTTP/1.1 500 Internal Server Error\r\n"));
    assert!(head(418, "x", None).starts_with("HTTP/1.1 418 Client Error\r\n"));
}

#[test]
fn an_action_the_disk_refused_is_answered_507_in_json() {
    let s = start();
    let t = token(&s);
    let (status, head, body) = act(&s, &t, r#"{"do":"full"}"#);
    assert_eq!(status, 507, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json")
    );
    assert!(body.contains("No space left"), "{body}");
}
