#!/usr/bin/env python3
"""The page on the home screen, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd and trackd-web:

    install.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

Pairs, opens the page and asks Chromium (DevTools: Page.getAppManifest, Page.getInstallabilityErrors) whether the
page can be installed: the manifest read without errors, its name, start, display and icons, and no installability
error. Each step waits for what it needs, never for a number of seconds. Writes FOLDER/figures.json and exits 0
only when every step passed.
"""
import argparse
import os

from phone import StepFailed, browser, console_errors, pair, play, visible, wait


def run(args, driver, figures):
    steps = []

    def step(name):
        steps.append(name)
        print(f"step {len(steps)}: {name}", flush=True)

    step("pair with the code trackctl web pair prints")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))

    step("Chromium reads the page's manifest")
    manifest = wait(driver, "the manifest", lambda d: (lambda m: m if m.get("url") else None)(
        d.execute_cdp_cmd("Page.getAppManifest", {})))
    figures["manifest_url"] = manifest.get("url")
    figures["manifest_errors"] = manifest.get("errors", [])
    if manifest.get("errors"):
        raise StepFailed(f"the manifest has errors: {manifest['errors']}")
    parsed = manifest.get("manifest") or {}
    figures["manifest"] = {k: parsed.get(k) for k in ("name", "shortName", "startUrl", "display", "scope")}
    if not manifest["url"].endswith("/manifest.json"):
        raise StepFailed("the page links another manifest: " + manifest["url"])

    step("Chromium finds nothing that keeps the page from being installed")
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    figures["installability_errors"] = errors
    if errors:
        raise StepFailed(f"Chromium would not install the page: {errors}")

    console_errors(driver, figures)
    figures["steps"] = steps


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "trackctl", "socket", "admin-socket", "out"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    os.umask(0o022)
    os.makedirs(args.out, exist_ok=True)
    figures = {}
    play(run, args, browser(args.out), figures)


if __name__ == "__main__":
    main()
