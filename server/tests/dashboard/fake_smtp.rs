//! A fake SMTP server for the mail tests: plain text, accepts every mail, keeps what it got.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use std::sync::{Arc, Mutex};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
};

/// What the fake SMTP server received: (recipients, data) per mail.
pub type Inbox = Arc<Mutex<Vec<(Vec<String>, String)>>>;

/// A plain-text SMTP server on a free port that accepts every mail into `inbox`.
pub async fn fake_smtp() -> (u16, Inbox) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Inbox = Arc::default();
    let received = inbox.clone();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let inbox = received.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                let mut rcpt = Vec::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        b"250-fake\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("RCPT TO:") {
                        rcpt.push(line[8..].trim().trim_matches(['<', '>']).to_string());
                        b"250 OK\r\n"
                    } else if upper == "DATA" {
                        write.write_all(b"354 go on\r\n").await.unwrap();
                        let mut data = String::new();
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                            data.push_str(&l);
                            data.push('\n');
                        }
                        inbox.lock().unwrap().push((std::mem::take(&mut rcpt), data));
                        b"250 queued\r\n"
                    } else if upper == "QUIT" {
                        write.write_all(b"221 bye\r\n").await.unwrap();
                        break;
                    } else {
                        b"250 OK\r\n"
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, inbox)
}

/// A mail as headers and its body decoded (base64 or quoted-printable, as the mail says).
pub fn decoded(data: &str) -> String {
    let (head, body) = data.split_once("\n\n").unwrap();
    let bytes = if head.contains("Content-Transfer-Encoding: base64") {
        base64(&body.replace('\n', ""))
    } else if head.contains("Content-Transfer-Encoding: quoted-printable") {
        quoted_printable(&body.replace("=\n", ""))
    } else {
        body.as_bytes().to_vec()
    };
    format!("{head}\n\n{}", String::from_utf8(bytes).unwrap())
}

fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = u32::try_from(ALPHABET.iter().position(|a| *a == c).unwrap()).unwrap();
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).unwrap());
        }
    }
    out
}

fn quoted_printable(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}
