#!/usr/bin/env python3
"""The page out of the car's Wi-Fi, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (two trips entered by hand, one unclassified)
and trackd-web, and stops trackd-web when this script prints "ready for the board to go":

    offline.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

The page registers its service worker and lists all trips once it controls the page; then the board goes (trackd-web
stopped: the phone out of the car's Wi-Fi). Reloaded, the page still lists the trips, under a banner saying the
board is out of reach and when what it shows was the board's; a tap that would change a trip is refused at once,
saying that nothing was changed (no change kept to send later). Each step waits for what it needs, never for a
number of seconds. Writes FOLDER/screens/*.png and FOLDER/figures.json, and exits 0 only when every step passed.
"""
import socket
from urllib.parse import urlparse

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from phone import StepFailed, Steps, console_errors, main, pair, text, visible, wait
from drivers_day import shoot


def all_trips(driver):
    driver.get(driver.current_url.split("#")[0] + "#trips")
    wait(driver, "the period select", lambda d: visible(d, "period"))
    Select(driver.find_element(By.ID, "period")).select_by_value("all")
    return wait(driver, "both trips listed", lambda d: (lambda t: t if "12.4" in t and "8.3" in t else None)(
        d.find_element(By.ID, "trip-list").text))


def refused(port):
    """Whether the board's port refuses connections (trackd-web stopped)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return False
    except OSError:
        return True


def run(args, driver, figures):
    steps = step = Steps()

    step("pair; the service worker takes the page")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))
    wait(driver, "the service worker in control", lambda d: d.execute_script(
        "return navigator.serviceWorker && navigator.serviceWorker.controller !== null"))
    figures["settings_note"] = driver.execute_script("return document.getElementById('offline-note').textContent")

    step("the page and all trips, through the service worker")
    driver.refresh()
    wait(driver, "the page again", lambda d: visible(d, "nav-now"))
    figures["list_online"] = all_trips(driver)
    if visible(driver, "old-state"):
        raise StepFailed("the page says it is out of reach while the board answers: " + text(driver, "old-state"))

    step("the board goes (the phone leaves the car's Wi-Fi)")
    port = urlparse(args.url).port
    print("ready for the board to go", flush=True)
    wait(driver, "the board's port closed", lambda d: refused(port), patience=300)

    step("reloaded, the page lists the trips kept, marked old")
    driver.refresh()
    wait(driver, "the page from this device", lambda d: visible(d, "nav-now"))
    figures["list_offline"] = all_trips(driver)
    banner = wait(driver, "the banner", lambda d: visible(d, "old-state") and text(d, "old-state"))
    figures["banner"] = banner
    if "out of reach" not in banner or "said at" not in banner:
        raise StepFailed("the banner: " + banner)
    shoot(driver, args.out, "trips-out-of-reach")

    step("a change is refused at once: nothing was changed")
    tap = driver.find_elements(By.CSS_SELECTOR, "#trip-list li.trip .taps button[data-kind=private]")
    if not tap:
        raise StepFailed("no Private button on the unclassified trip: " + figures["list_offline"])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tap[0])
    tap[0].click()
    message = wait(driver, "the refusal", lambda d: "nothing was changed" in text(d, "message") and text(d, "message"))
    figures["refusal"] = message
    if "error" not in (driver.find_element(By.ID, "message").get_attribute("class") or ""):
        raise StepFailed("the refusal is not shown as an error: " + message)

    # The browser's own lines for what the board no longer answered (the live events, the map) are not the page's.
    console_errors(driver, figures, expected=lambda e: "ERR_CONNECTION_REFUSED" in e.get("message", "")
                   or "503" in e.get("message", "") or "/api/events" in e.get("message", ""))
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run)
