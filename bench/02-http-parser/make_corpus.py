#!/usr/bin/env python3
"""Writes corpus.http, the requests that chapter 2's benchmark parses: what a
server sees from browsers and API clients. 70 browser-like GETs with 10-20
header fields (navigations, images, scripts, conditional requests with
cookies), 20 small POSTs (forms and JSON), and 10 chunked uploads (some with
trailer fields), shuffled, as one pipelined stream with CRLF line ends.
The random choices come from a fixed seed, so the file is the same on every
run; it is committed, and the benchmark reads it as it is."""

import json
import random
from pathlib import Path

CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/118.0.0.0 Safari/537.36")
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/118.0"
SAFARI = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.0 Safari/605.1.15")
HOSTS = ["www.example.com", "shop.example.org", "static.example.net", "api.example.com"]
PAGES = ["/", "/index.html", "/products/42", "/search?q=erlang+web+server&page=2",
         "/blog/2008/08/yaws-sendfile", "/account/settings", "/docs/ch02-http-parser.html"]
ASSETS = ["/static/app.3f9a1c.js", "/static/style.9b2e.css", "/img/logo.svg",
          "/img/photos/2023/IMG_1042.jpg?w=640", "/fonts/inter-var.woff2", "/favicon.ico"]
ACCEPT_HTML = ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
               "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")


def cookie(rng: random.Random) -> str:
    parts = [f"_ga=GA1.2.{rng.randrange(10**9)}.{rng.randrange(10**9)}",
             f"session={rng.getrandbits(128):032x}", "theme=dark", f"cart={rng.randrange(100)}"]
    return "; ".join(parts[:rng.randrange(1, 5)])


def browser_get(rng: random.Random) -> list[tuple[str, str]]:
    page = rng.random() < 0.4
    host = rng.choice(HOSTS)
    fields = [("Host", host), ("Connection", "keep-alive")]
    agent = rng.choice([CHROME, FIREFOX, SAFARI])
    if agent is CHROME:
        fields += [("sec-ch-ua", '"Chromium";v="118", "Google Chrome";v="118", "Not=A?Brand";v="99"'),
                   ("sec-ch-ua-mobile", "?0"), ("sec-ch-ua-platform", '"Linux"')]
    if page:
        fields += [("Upgrade-Insecure-Requests", "1"), ("User-Agent", agent),
                   ("Accept", ACCEPT_HTML), ("Sec-Fetch-Site", "same-origin"),
                   ("Sec-Fetch-Mode", "navigate"), ("Sec-Fetch-User", "?1"),
                   ("Sec-Fetch-Dest", "document")]
    else:
        fields += [("User-Agent", agent), ("Accept", "image/avif,image/webp,*/*;q=0.8"),
                   ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "no-cors"),
                   ("Sec-Fetch-Dest", "image")]
    fields += [("Referer", f"https://{host}{rng.choice(PAGES)}"),
               ("Accept-Encoding", "gzip, deflate, br"), ("Accept-Language", "en-US,en;q=0.9")]
    if rng.random() < 0.7:
        fields.append(("Cookie", cookie(rng)))
    if rng.random() < 0.3:
        fields += [("If-None-Match", f'"{rng.getrandbits(64):016x}"'),
                   ("If-Modified-Since", "Tue, 12 Aug 2008 10:31:07 GMT")]
    while len(fields) < 10:
        fields.append(("DNT", "1"))
    return ["GET", rng.choice(PAGES) if page else rng.choice(ASSETS), fields[:20]]


def post(rng: random.Random) -> tuple[str, str, list, bytes]:
    host = rng.choice(HOSTS)
    if rng.random() < 0.5:
        body = "&".join(f"field{i}=value+{rng.randrange(10**6)}" for i in range(rng.randrange(2, 12)))
        kind = "application/x-www-form-urlencoded"
    else:
        body = json.dumps({"id": rng.randrange(10**6), "items": [rng.randrange(100) for _ in range(rng.randrange(1, 40))],
                           "note": "pipelined request " * rng.randrange(1, 8)})
        kind = "application/json"
    fields = [("Host", host), ("User-Agent", rng.choice([CHROME, FIREFOX, "curl/7.88.1"])),
              ("Accept", "*/*"), ("Content-Type", kind), ("Origin", f"https://{host}"),
              ("Content-Length", str(len(body)))]
    return ["POST", rng.choice(["/api/items", "/login", "/comments/new", "/cart/add"]), fields, body.encode()]


def chunked_upload(rng: random.Random) -> tuple[str, str, list, bytes]:
    fields = [("Host", rng.choice(HOSTS)), ("User-Agent", "uploader/1.4"),
              ("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")]
    chunks = b""
    for _ in range(rng.randrange(2, 7)):
        data = bytes(rng.randrange(32, 127) for _ in range(rng.randrange(100, 1200)))
        chunks += f"{len(data):x}\r\n".encode() + data + b"\r\n"
    trailer = f"X-Checksum: {rng.getrandbits(32):08x}\r\n" if rng.random() < 0.5 else ""
    return ["PUT", f"/upload/{rng.randrange(10**6)}", fields, chunks + b"0\r\n" + trailer.encode() + b"\r\n"]


def encode(method: str, target: str, fields: list, body: bytes = b"") -> bytes:
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in fields) + "\r\n"
    return head.encode() + body


def main() -> None:
    rng = random.Random(2008)
    requests = [encode(*browser_get(rng)) for _ in range(70)]
    requests += [encode(*post(rng)) for _ in range(20)]
    requests += [encode(*chunked_upload(rng)) for _ in range(10)]
    rng.shuffle(requests)
    out = Path(__file__).resolve().parent / "corpus.http"
    out.write_bytes(b"".join(requests))
    print(f"wrote {out.name}: {len(requests)} requests, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
