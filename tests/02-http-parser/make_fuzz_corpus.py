#!/usr/bin/env python3
"""Writes the seed corpus of chapter 2's fuzz target (fuzz_parsers.cpp) into
corpus/: one file per seed, named by its content's hash. Each seed is a byte
that chooses how the fuzzer cuts the input into pieces, then the bytes of
requests (or responses) a client could send. Re-run it after adding seeds;
tools/fuzz 02 runs the fuzzer on them."""

import hashlib
from pathlib import Path

HOST = b"Host: example.com\r\n"
GET = b"GET / HTTP/1.1\r\n" + HOST + b"\r\n"
CHUNKED = b"Transfer-Encoding: chunked\r\n"


def post(fields: bytes, body: bytes) -> bytes:
    return b"POST /form HTTP/1.1\r\n" + HOST + fields + b"\r\n" + body


SEEDS = [
    GET,
    GET + GET + GET,
    b"\r\n" + GET,
    b"GET /search?q=a+b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    b"OPTIONS * HTTP/1.1\r\n" + HOST + b"\r\n",
    b"CONNECT example.com:443 HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET http://example.com/a HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET / HTTP/2.0\r\n" + HOST + b"\r\n",
    b"GET /\r\n\r\n",
    b"GET  / HTTP/1.1\r\n" + HOST + b"\r\n",
    b"GET / HTTP/1.1\n" + HOST + b"\r\n",
    b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + HOST + b"X-A: a\r\n b\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + HOST + b"X-A: a\rb\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + HOST + b"X-Latin: caf\xe9\r\nX-Empty:\r\n\r\n",
    b"GET / HTTP/1.1\r\nAccept: */*\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + HOST + HOST + b"\r\n",
    post(b"Content-Length: 5\r\n", b"hello") + GET,
    post(b"Content-Length: 5, 5\r\n", b"hello"),
    post(b"Content-Length: 5\r\nContent-Length: 6\r\n", b"hello!"),
    post(b"Content-Length: 99999999999999999999\r\n", b""),
    post(b"Content-Length: 3\r\n" + CHUNKED, b"0\r\n\r\n"),
    post(CHUNKED + b"Content-Length: 3\r\n", b"0\r\n\r\n"),
    post(b"Transfer-Encoding: gzip, chunked\r\n", b"0\r\n\r\n"),
    post(b"Transfer-Encoding: chunked, gzip\r\n", b"0\r\n\r\n"),
    post(CHUNKED, b"5\r\nhello\r\n0\r\n\r\n") + GET,
    post(CHUNKED, b"3;name=value\r\nabc\r\n2 ; q=\"a;b\"\r\nde\r\n0\r\n\r\n"),
    post(CHUNKED, b"2\r\nhi\r\n0\r\nX-Checksum: 42\r\nX-More: a b\r\n\r\n"),
    post(CHUNKED, b"10000000000000005\r\nhello\r\n0\r\n\r\n"),
    post(CHUNKED, b"FFFFFFFFFFFFFFFF\r\nhello\r\n"),
    post(CHUNKED, b"3\r\nhello\r\n0\r\n\r\n"),
    post(CHUNKED, b"5 \r\nhello\r\n0\r\n\r\n"),
    b"POST / HTTP/1.0\r\nConnection: keep-alive\r\n" + CHUNKED + b"\r\n1\r\nx\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
    b"HTTP/1.1 404 Not Found\r\n" + CHUNKED + b"\r\n1\r\nx\r\n0\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.0 200\r\n\r\nuntil the connection closes",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
]


def main() -> None:
    here = Path(__file__).resolve().parent
    corpus = here / "corpus"
    corpus.mkdir(exist_ok=True)
    bench = here.parents[1] / "bench" / "02-http-parser" / "corpus.http"
    seeds = list(SEEDS)
    if bench.exists():  # the benchmark's realistic requests, a few at a time
        data = bench.read_bytes()
        seeds += [data[i:i + 2000] for i in range(0, min(len(data), 20000), 2000)]
    for number, seed in enumerate(seeds):
        for step in (0, 1 + number % 31):  # one byte at a time, and larger pieces
            data = bytes([step]) + seed
            name = hashlib.sha1(data).hexdigest()[:16]
            (corpus / name).write_bytes(data)


if __name__ == "__main__":
    main()
