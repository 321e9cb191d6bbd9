"""HEAD is answered as GET is, headers alone, against a real `cribstats serve` (RFC 9110: a server that answers GET
answers HEAD): link checkers and uptime monitors ask HEAD, and every page answered 405."""

from __future__ import annotations

import socket
from pathlib import Path
from urllib.parse import urlsplit

from service_server import import_simulated, live_server


def _head(url: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """A HEAD request on a socket of its own: the status, the headers and whatever came after them."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
        sock.sendall(f"HEAD {path} HTTP/1.1\r\nHost: {address.netloc}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    return int(status.split()[1]), headers, rest


def test_head_is_answered_as_get(sqlite_url: str, tmp_path: Path) -> None:
    import_simulated(sqlite_url, tmp_path, ["Ann", "Bob"], seed=1)
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for path in ("/", "/standings", "/players/Ann", "/static/style.css", "/charts/averages.svg",
                     "/api/v1/games", "/players/Nobody"):  # fmt: skip
            got = client.get(path)
            status, headers, body = _head(site.url, path)
            assert status == got.status_code, path
            assert headers["content-type"] == got.headers["content-type"], path
            assert int(headers["content-length"]) == len(got.content), path
            assert body == b"", path


def test_a_method_not_allowed_names_the_allowed_ones_on_pages_and_the_api(sqlite_url: str, tmp_path: Path) -> None:
    """RFC 9110: a 405 must say what is allowed (``Allow``). The API's did, a page's did not (its error page
    dropped the header); both now list HEAD beside GET, which every route answers."""
    with live_server(sqlite_url, tmp_path) as site, site.client() as client:
        for method, path in (("PUT", "/standings"), ("POST", "/standings"), ("PUT", "/"), ("DELETE", "/games"),
                             ("PUT", "/charts/skunks.svg"), ("PUT", "/api/v1/stats")):  # fmt: skip
            answer = client.request(method, path)
            assert answer.status_code == 405, (method, path)
            assert answer.headers.get("allow") == "GET, HEAD", (method, path, dict(answer.headers))
