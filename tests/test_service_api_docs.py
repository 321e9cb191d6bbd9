"""The API's documentation page, ``/api/docs``, of a real ``cribstats serve``: the service's own page rendered from
its OpenAPI document, loading nothing from elsewhere. It was FastAPI's Swagger UI, whose script and styles came
from cdn.jsdelivr.net and its icon from fastapi.tiangolo.com: a blank page on a club server without internet,
and members' browsers asked third parties for it."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from chromium_driver import chromium_driver
from service_server import LiveServer, live_server


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("docs")
    with live_server(f"sqlite:///{folder / 'club.db'}", folder) as live:
        yield live


def _section(page: str, anchor: str) -> str:
    found = re.search(rf'<section class="operation" id="{re.escape(anchor)}">(.*?)</section>', page, re.S)
    assert found is not None, anchor
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))


def test_every_operation_is_on_the_page(site: LiveServer) -> None:
    document = httpx.get(site.url + "/api/v1/openapi.json").json()
    answer = httpx.get(site.url + "/api/docs")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    page = answer.text
    assert 'href="/api/v1/openapi.json"' in page
    count = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            count += 1
            text = " ".join(_section(page, operation["operationId"]).split())
            assert f"{method.upper()} {path}" in text
            assert operation["summary"] in text
            for parameter in operation.get("parameters", []):
                row = re.search(rf"{re.escape(parameter['name'])} {parameter['in']} (.*?) (yes|no) ", text)
                assert row is not None, (path, parameter["name"])
                assert row.group(2) == ("yes" if parameter.get("required") else "no")
                assert " ".join(parameter.get("description", "").replace("`", "").split()) in text
            for status, response in operation["responses"].items():
                assert f"{status} {response['description']}" in text, (path, status)
            for media in operation.get("requestBody", {}).get("content", {}):
                assert media in text
    assert count == 16
    upload = " ".join(_section(page, "upload_logs_api_v1_logs_post").split())
    assert "Key: needed." in upload and "form with file (list of file)" in upload
    games = " ".join(_section(page, "games_api_v1_games_get").split())
    assert "Key: needed only when the server is private." in games
    assert "limit query integer, 1 to 500, default 50 no" in games
    assert "Authorization: Bearer KEY" in html.unescape(page) and "cribstats keys add" in page


def test_nothing_comes_from_elsewhere(site: LiveServer) -> None:
    answer = httpx.get(site.url + "/api/docs")
    own = urlsplit(site.url).netloc
    hosts = {urlsplit(u).netloc for u in re.findall(r"https?://[^\s\"'<>)]+", answer.text)}
    assert hosts <= {own}, hosts
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    assert "<script" not in answer.text and "style=" not in answer.text and "<style" not in answer.text
    # no route serves Swagger UI or ReDoc any more, at FastAPI's addresses or under the API's
    for path in ("/docs", "/redoc", "/api/redoc", "/docs/oauth2-redirect", "/api/docs/oauth2-redirect"):
        other = httpx.get(site.url + path)
        assert other.status_code == 404, path
        assert "cdn.jsdelivr" not in other.text and "<script" not in other.text


@pytest.mark.browser
def test_the_page_renders_in_chromium_without_console_errors(site: LiveServer, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with chromium_driver(tmp_path / "profile", console_log=True) as driver:
        driver.get(site.url + "/")
        driver.find_element(By.LINK_TEXT, "API").click()
        driver.find_element(By.ID, "keys")
        assert driver.current_url == site.url + "/api/docs"
        sections = driver.find_elements(By.CSS_SELECTOR, "section.operation")
        assert len(sections) == 16 and all(s.is_displayed() for s in sections)
        # the service's stylesheet applies: an operation's heading in its accent colour #08306b, not black
        heading = driver.find_element(By.CSS_SELECTOR, "section.operation h2")
        colour = driver.execute_script("return getComputedStyle(arguments[0]).color", heading)
        assert colour == "rgb(8, 48, 107)"
        logged = driver.get_log("browser")
        assert [entry for entry in logged if entry["level"] in ("SEVERE", "WARNING")] == [], logged
        driver.find_element(By.ID, "openapi").click()
        WebDriverWait(driver, 30).until(lambda d: d.current_url.endswith("/openapi.json"))  # the click's load
        assert '"openapi"' in driver.page_source
