//! A small, bounded HTTP/1.1 reader and writer over `std::net`: one request
//! per connection (`Connection: close`), the head (request line and
//! headers) at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] lines, a body
//! only by `Content-Length` and at most [`MAX_BODY`] bytes. Every response
//! carries the same safety headers ([`write`]).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The request line and headers together, in bytes.
pub(crate) const MAX_HEAD: usize = 16 * 1024;
/// Header lines at most.
pub(crate) const MAX_HEADERS: usize = 64;
/// A request body at most (an action is a few hundred bytes).
pub(crate) const MAX_BODY: usize = 64 * 1024;

/// Nothing from outside: scripts, styles and images from this server only,
/// no inline script, no frames, no form posts elsewhere.
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// One request as read.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) method: String,
    /// The path as sent (the query cut off).
    pub(crate) path: String,
    /// The query as sent (after `?`; empty without one).
    pub(crate) query: String,
    /// Header names in lower case.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    /// The first header of that (lower-case) name.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A connection read against one deadline for the whole request: each
/// read may take only what is left of it, so a client trickling a byte at
/// a time is cut off at the deadline all the same.
pub(crate) struct Timed<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl<'a> Timed<'a> {
    pub(crate) fn new(stream: &'a TcpStream, until: Instant) -> Timed<'a> {
        Timed { stream, until }
    }
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut s = self.stream;
        s.read(buf)
    }
}

/// Why a request was not read: the status to answer with, and the reason.
#[derive(Debug)]
pub(crate) struct Refusal(pub u16, pub &'static str);

/// Reads one request, refusing whatever is over the bounds.
pub(crate) fn read(stream: impl Read) -> Result<Request, Refusal> {
    let mut r = BufReader::new(stream.take((MAX_HEAD + MAX_BODY + 1) as u64));
    let mut used = 0;
    let line = read_line(&mut r, &mut used)?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Refusal(400, "a malformed request line"));
    };
    version_of(version)?;
    let mut headers = Vec::new();
    loop {
        let h = read_line(&mut r, &mut used)?;
        if h.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(Refusal(431, "too many headers"));
        }
        headers.push(header(&h)?);
    }
    let mut req = Request {
        method: method.to_string(),
        path: target.split('?').next().unwrap_or("").to_string(),
        query: target.split_once('?').map_or("", |(_, q)| q).to_string(),
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(Refusal(411, "a body needs a Content-Length"));
    }
    if req.headers.iter().filter(|(n, _)| n == "host").count() > 1 {
        return Err(Refusal(400, "more than one Host header"));
    }
    let len = content_length(&req)?;
    if len > MAX_BODY {
        return Err(Refusal(413, "the body is too large"));
    }
    req.body = vec![0; len];
    r.read_exact(&mut req.body).map_err(|e| match late(&e) {
        true => Refusal(408, "the request was not read in time"),
        false => Refusal(400, "the body ended early"),
    })?;
    Ok(req)
}

/// The request line's version: HTTP/1.0 or HTTP/1.1 (RFC 9112 §2.3); any
/// other version is 505, anything else 400.
fn version_of(version: &str) -> Result<(), Refusal> {
    match version.as_bytes() {
        b"HTTP/1.1" | b"HTTP/1.0" => Ok(()),
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            Err(Refusal(505, "HTTP/1.0 and HTTP/1.1 only"))
        }
        _ => Err(Refusal(400, "a malformed HTTP version")),
    }
}

/// One header line: its name (a token, nothing between it and the colon:
/// RFC 9112 §5.1) in lower case, and its value trimmed. A line folded onto
/// the one before (starting with a space) is refused too.
fn header(line: &str) -> Result<(String, String), Refusal> {
    let Some((name, value)) = line.split_once(':') else {
        return Err(Refusal(400, "a malformed header"));
    };
    if name.is_empty() || !name.bytes().all(is_tchar) {
        return Err(Refusal(400, "a malformed header name"));
    }
    Ok((
        name.to_ascii_lowercase(),
        value.trim_matches([' ', '\t']).to_string(),
    ))
}

/// A token's characters (RFC 9110 §5.6.2).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The body's length: no `Content-Length` is none; one must be digits only
/// (no sign, no list); two are refused (RFC 9112 §6.3).
fn content_length(req: &Request) -> Result<usize, Refusal> {
    let mut given = req.headers.iter().filter(|(n, _)| n == "content-length");
    let Some((_, v)) = given.next() else {
        return Ok(0);
    };
    if given.next().is_some() {
        return Err(Refusal(400, "more than one Content-Length"));
    }
    if v.is_empty() || v.len() > 12 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Refusal(400, "a malformed Content-Length"));
    }
    v.parse()
        .map_err(|_| Refusal(400, "a malformed Content-Length"))
}

/// A read that ran out of time.
fn late(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// One line of the head, without its CRLF, counted against [`MAX_HEAD`].
fn read_line(r: &mut impl BufRead, used: &mut usize) -> Result<String, Refusal> {
    let mut line = Vec::new();
    let left = (MAX_HEAD - *used) as u64;
    let n = r
        .by_ref()
        .take(left)
        .read_until(b'\n', &mut line)
        .map_err(|e| match late(&e) {
            true => Refusal(408, "the request was not read in time"),
            false => Refusal(400, "the request ended early"),
        })?;
    *used += n;
    if !line.ends_with(b"\n") {
        return Err(match n as u64 == left {
            true => Refusal(431, "the request's head is too large"),
            false => Refusal(400, "the request ended early"),
        });
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| Refusal(400, "a header that is not UTF-8"))
}

/// The reason phrase of the statuses this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        507 => "Insufficient Storage",
        _ if status < 500 => "Client Error",
        _ => "Server Error",
    }
}

/// The head of a response with every safety header; `len` is the body's
/// length (`None`: a stream that runs until the connection closes).
pub(crate) fn head(status: u16, content_type: &str, len: Option<usize>) -> String {
    let mut h = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\n\
         Content-Security-Policy: {CSP}\r\nX-Content-Type-Options: nosniff\r\n\
         Referrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n\
         Cross-Origin-Resource-Policy: same-origin\r\nCache-Control: no-store\r\n\
         Connection: close\r\n",
        reason(status)
    );
    if let Some(len) = len {
        h.push_str(&format!("Content-Length: {len}\r\n"));
    }
    h.push_str("\r\n");
    h
}

/// Writes a whole response.
pub(crate) fn write(
    mut w: impl Write,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    w.write_all(head(status, content_type, Some(body.len())).as_bytes())?;
    w.write_all(body)?;
    w.flush()
}
