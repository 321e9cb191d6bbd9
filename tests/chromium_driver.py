"""Debian's chromium driven by Selenium (/usr/bin/chromedriver, no browser download), for the browser tests
(imported by them): one headless driver with its own profile, skipped, saying why, where either is missing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ENV = "CRIBSTATS_TEST_CHROMIUM"


@contextmanager
def chromium_driver(profile: Path, *, console_log: bool = False) -> Iterator[Any]:
    """A headless chromium under Selenium, its profile in ``profile``; with ``console_log`` the page's console
    messages are kept for ``driver.get_log("browser")``."""
    chromium = os.environ.get(CHROMIUM_ENV) or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.access(chromium, os.X_OK) or not os.access(driver_path, os.X_OK):
        pytest.skip(f"browser test skipped: needs chromium ({chromium}) and chromedriver ({driver_path})")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}"):  # fmt: skip
        options.add_argument(flag)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.implicitly_wait(20)  # a page after a form is posted
    try:
        yield driver
    finally:
        driver.quit()
