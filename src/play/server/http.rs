//! A small, bounded HTTP/1.1 reader and writer over `std::net`: one request
//! per connection (`Connection: close`), the head (request line and
//! headers) at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] lines, a body
//! only by `Content-Length` and at most [`MAX_BODY`] bytes. Every response
//! carries the same safety headers ([`write`]).

use std::io::{self, BufRead, BufReader, Read, Write};

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
    if !version.starts_with("HTTP/1.") {
        return Err(Refusal(505, "HTTP/1.x only"));
    }
    let mut headers = Vec::new();
    loop {
        let h = read_line(&mut r, &mut used)?;
        if h.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(Refusal(431, "too many headers"));
        }
        let Some((name, value)) = h.split_once(':') else {
            return Err(Refusal(400, "a malformed header"));
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        path: target.split('?').next().unwrap_or("").to_string(),
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(Refusal(411, "a body needs a Content-Length"));
    }
    let len = match req.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| Refusal(400, "a malformed Content-Length"))?,
    };
    if len > MAX_BODY {
        return Err(Refusal(413, "the body is too large"));
    }
    req.body = vec![0; len];
    r.read_exact(&mut req.body)
        .map_err(|_| Refusal(400, "the body ended early"))?;
    Ok(req)
}

/// One line of the head, without its CRLF, counted against [`MAX_HEAD`].
fn read_line(r: &mut impl BufRead, used: &mut usize) -> Result<String, Refusal> {
    let mut line = Vec::new();
    let left = (MAX_HEAD - *used) as u64;
    let n = r
        .by_ref()
        .take(left)
        .read_until(b'\n', &mut line)
        .map_err(|_| Refusal(408, "the request was not read in time"))?;
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
        503 => "Service Unavailable",
        _ => "HTTP Version Not Supported",
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
