#!/usr/bin/env python3
"""The page on the home screen, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd and trackd-web:

    install.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

Pairs, opens the page and asks Chromium (DevTools: Page.getAppManifest, Page.getInstallabilityErrors) whether the
page can be installed: the manifest read without errors, its name, start, display and icons, and no installability
error. Each step waits for what it needs, never for a number of seconds. Writes FOLDER/figures.json and exits 0
only when every step passed.
"""

from phone import StepFailed, Steps, console_errors, main, pair, visible, wait


def run(args, driver, figures):
    steps = step = Steps()

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
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run)
