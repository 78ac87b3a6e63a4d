//! A tiny HTTP/1.1 server on 127.0.0.1 for the CI tests: it records every request it gets
//! (method, path, headers, body) and answers from a handler (fake GitHub/GitLab APIs, a fake
//! release server, a foreign host that must never be called).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A reply: status line text (e.g. `200 OK`), extra headers, body.
pub struct Response {
    pub status: &'static str,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(status: &'static str, body: &serde_json::Value) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    pub fn bytes(status: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "application/octet-stream".into())],
            body,
        }
    }
}

/// A running server: its base URL (`http://127.0.0.1:PORT`) and what it has received.
pub struct Server {
    pub url: String,
    pub seen: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}

/// Serves `handler` on a fresh port of 127.0.0.1, one connection at a time, on a thread that
/// lives as long as the test process.
pub fn serve<F>(handler: F) -> Server
where
    F: Fn(&Request, &str) -> Response + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (log, base) = (seen.clone(), url.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let Some(req) = read_request(&mut BufReader::new(stream.try_clone().unwrap())) else {
                continue;
            };
            log.lock().unwrap().push(req.clone());
            let resp = handler(&req, &base);
            let mut head = format!("HTTP/1.1 {}\r\n", resp.status);
            for (k, v) in &resp.headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!(
                "Content-Length: {}\r\nConnection: close\r\n\r\n",
                resp.body.len()
            ));
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&resp.body);
        }
    });
    Server { url, seen }
}

fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        if h.trim().is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap_or((&h, ""));
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap_or(0));
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}
