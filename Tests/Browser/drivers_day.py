#!/usr/bin/env python3
"""A driver's whole day on the page, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (a recorded drive, then parking) and trackd-web:

    drivers_day.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock \
                   --month 2026-11 --out FOLDER

Each step waits for what it needs to see (an element, a text, a file), never for a number of seconds; a step that
does not see it within its patience fails with what the page showed. Writes FOLDER/screens/*.png (every screen at
phone size, light and dark) and FOLDER/figures.json (what was measured on the way), and exits 0 only when every
step passed.
"""
import argparse
import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from phone import PATIENCE, StepFailed, browser, play, click, fill, text, visible, wait



def message_ok(driver):
    elements = driver.find_elements(By.ID, "message")
    return elements and "ok" in (elements[0].get_attribute("class") or "").split() and elements[0].text


def open_trip(driver, selector, containing):
    """Clicks the first list item matching `selector` whose text has `containing`; its data-id, or None. The list
    is drawn again when trackd's status changes: an item gone stale is looked up again by the caller's wait."""
    for item in driver.find_elements(By.CSS_SELECTOR, selector):
        if containing in item.text:
            trip_id = item.get_attribute("data-id")
            item.click()
            return trip_id
    return None


def shoot(driver, out, name):
    folder = os.path.join(out, "screens")
    os.makedirs(folder, exist_ok=True)
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        driver.save_screenshot(os.path.join(folder, f"web-{name}-{scheme}.png"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def trackctl(args, *arguments):
    return subprocess.run([args.trackctl, "--socket", args.socket, *arguments], check=True,
                          capture_output=True).stdout


def status(args):
    return json.loads(trackctl(args, "--json", "status"))


def run(args, driver, figures):
    steps = []

    def step(name):
        steps.append(name)
        print(f"step {len(steps)}: {name}", flush=True)

    step("pair with the code trackctl web pair prints")
    printed = subprocess.run([args.trackctl, "web", "--admin-socket", args.admin_socket, "pair"], check=True,
                             capture_output=True, text=True).stdout
    url = next(line.strip() for line in printed.splitlines() if line.strip().startswith(args.url + "/pair?code="))
    driver.get(url)
    shoot(driver, args.out, "pair")
    driver.find_element(By.NAME, "name").send_keys("Anna's phone")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    # A log whose profile names no driver and no plate: the page opens on the first run (first_run.py walks it);
    # this day starts from Now.
    wait(driver, "the first run's decision", lambda d: d.execute_script("return document.body.dataset.firstRun"))
    if driver.execute_script("return document.body.dataset.firstRun") == "shown":
        click(driver, "first-skip-1", "leave the first run for later")
    wait(driver, "the Now screen after pairing", lambda d: visible(d, "nav-now"))

    step("watch the speed and the running trip's km change while the drive plays")
    wait(driver, "an unclassified trip running (auto_start)", lambda d: text(d, "trip-state") == "unclassified")
    speeds = set()
    wait(driver, "the speed to change at least three times",
         lambda d: speeds.add(text(d, "speed")) or len(speeds) >= 3)
    first_km = text(driver, "trip-km")
    wait(driver, "the trip's km to grow", lambda d: text(d, "trip-km") != first_km)
    figures["speeds_seen"] = sorted(speeds)
    shoot(driver, args.out, "now-driving")

    step("stop the unclassified trip")
    click(driver, "stop", "stop")
    if visible(driver, "stop-confirm"):
        click(driver, "stop-confirm", "confirm the stop")
    wait(driver, "no trip running", lambda d: text(d, "trip-state") == "none")

    step("start a business trip")
    click(driver, "start-business", "start business")
    wait(driver, "a business trip running", lambda d: text(d, "trip-state") == "business")
    wait(driver, "the business trip's km past 0.3", lambda d: float(text(d, "trip-km") or "0") >= 0.3)

    step("stop it with a purpose and a customer")
    click(driver, "stop", "stop")
    wait(driver, "the stop dialog", lambda d: visible(d, "stop-purpose"))
    shoot(driver, args.out, "stop-dialog")
    fill(driver, "stop-purpose", "Delivery of spare parts")
    fill(driver, "stop-customer", "Example Ltd")
    click(driver, "stop-confirm", "confirm the stop")
    wait(driver, "no trip running after the stop", lambda d: text(d, "trip-state") == "none")

    step("see it in the month's list")
    click(driver, "nav-trips", "Trips")
    wait(driver, "the business trip in the list", lambda d: any(
        "Delivery of spare parts" in item.text for item in d.find_elements(By.CSS_SELECTOR, "#trip-list li.trip")))
    order = wait(driver, "the list's order", lambda d: d.execute_script(
        "return [...document.querySelectorAll('#trip-list li.trip')].map(li => li.classList.contains('unclassified'))"))
    if not order[0] or sorted(order, reverse=True) != order:
        raise StepFailed(f"the trips to classify are not listed first: {order}")
    row = next(item for item in driver.find_elements(By.CSS_SELECTOR, "#trip-list li.trip")
               if "Delivery of spare parts" in item.text)
    # The purpose and customer given with the stop are the entry as written, not a change to it.
    shown = json.loads(trackctl(args, "--json", "show", row.get_attribute("data-id")))
    if shown["trip"].get("customer") != "Example Ltd" or shown["revisions"] or "changed" in row.text:
        raise StepFailed("the business trip as written: " + json.dumps(shown["trip"]) + " " + json.dumps(shown["revisions"])
                         + " " + row.text)
    shoot(driver, args.out, "trips")

    step("open the business trip's map")
    business_id = wait(driver, "the business trip opened", lambda d: open_trip(d, "#trip-list li.trip",
                                                                              "Delivery of spare parts"))
    wait(driver, "the trip's screen", lambda d: visible(d, "trip-detail")
         and d.find_element(By.ID, "trip-detail").get_attribute("data-id") == business_id)
    wait(driver, "the map drawn", lambda d: d.execute_script(
        "const m = document.getElementById('trip-map'); return m && m.complete && m.naturalWidth > 0"))
    shoot(driver, args.out, "trip")

    step("classify the unclassified trip as private")
    click(driver, "nav-trips", "Trips")
    first_id = wait(driver, "the unclassified trip opened",
                    lambda d: open_trip(d, "#trip-list li.trip.unclassified", ""))
    wait(driver, "the unclassified trip's screen", lambda d: visible(d, "edit-kind"))
    Select(driver.find_element(By.ID, "edit-kind")).select_by_value("private")
    fill(driver, "edit-reason", "Drove home after work")
    click(driver, "edit-save", "save the edit")
    wait(driver, "the edit confirmed", message_ok)
    shown = json.loads(trackctl(args, "--json", "show", first_id))
    trip = shown.get("trip", shown)
    if trip.get("kind") != "private":
        raise StepFailed(f"trackctl show {first_id} says kind {trip.get('kind')!r}, not private")

    step("name the spot where the car is parked")
    click(driver, "nav-now", "Now")
    # Parked for good: the recording's drive over (a stop at a junction during it shows speed 0 too, and the car
    # moves on while the place is being named).
    wait(driver, "the drive over (GPS time " + args.parked_from + ")",
         lambda d: ((status(args).get("last_fix") or {}).get("time") or "") >= args.parked_from, patience=PATIENCE * 5)
    wait(driver, "the car parked (speed 0 on the page)", lambda d: text(d, "speed") == "0", patience=PATIENCE * 5)
    # trackd names a place "here" from the positions since the car stopped: wait until it says so.
    wait(driver, "trackd to see the car stationary",
         lambda d: (status(args).get("motion") or {}).get("state") == "stationary", patience=PATIENCE * 5)
    click(driver, "name-place", "name this place")
    fill(driver, "place-name", "Example Ltd yard")
    shoot(driver, args.out, "name-place")
    click(driver, "place-save", "save the place")
    wait(driver, "the place named", message_ok)
    places = json.loads(trackctl(args, "--json", "place", "list"))
    if not any(p.get("name") == "Example Ltd yard" for p in places):
        raise StepFailed(f"the place is not in the log: {places}")
    click(driver, "nav-places", "Places")
    wait(driver, "the place listed", lambda d: any("Example Ltd yard" in p.text
                                                  for p in d.find_elements(By.CSS_SELECTOR, "#place-list li.place")))
    shoot(driver, args.out, "places")

    step("download the month's CSV, byte for byte trackctl export's")
    click(driver, "nav-reports", "Reports")
    wait(driver, "the month picker", lambda d: visible(d, "report-month"))
    driver.execute_script("const m = document.getElementById('report-month'); m.value = arguments[0];"
                          "m.dispatchEvent(new Event('change', {bubbles: true}));", args.month)
    downloads = os.path.join(args.out, "downloads")
    wait(driver, "the CSV link for the month", lambda d: args.month in
         (d.find_element(By.ID, "download-csv").get_attribute("href") or ""))
    click(driver, "download-csv", "download the CSV")
    downloaded = wait(driver, "the CSV file", lambda d: next(
        (os.path.join(downloads, f) for f in os.listdir(downloads) if f.endswith(".csv")), None))
    exported = os.path.join(args.out, "trackctl-export.csv")
    trackctl(args, "export", "--format", "csv", "--month", args.month, "--output", exported)
    with open(downloaded, "rb") as a, open(exported, "rb") as b:
        page_bytes, trackctl_bytes = a.read(), b.read()
    figures["csv_bytes"] = len(page_bytes)
    if page_bytes != trackctl_bytes:
        raise StepFailed(f"the downloaded CSV ({len(page_bytes)} bytes) differs from trackctl export "
                         f"({len(trackctl_bytes)} bytes)")

    step("see the month's report")
    wait(driver, "the report in its frame", lambda d: d.execute_script(
        "const f = document.getElementById('report-frame');"
        "return f && f.contentDocument && f.contentDocument.body &&"
        " f.contentDocument.body.innerText.includes('Delivery of spare parts')"))
    wait(driver, "verify's verdict", lambda d: text(d, "verify-verdict"))
    figures["verify_verdict"] = text(driver, "verify-verdict")
    shoot(driver, args.out, "reports")

    step("send the month's report by e-mail")
    wait(driver, "the e-mail button (trackd.conf names recipients)", lambda d: visible(d, "mail-report"))
    click(driver, "mail-report", "send the report by e-mail")
    wait(driver, "the page saying the report was sent",
         lambda d: "was sent to driver@example.org" in text(d, "message"))
    figures["mail_message"] = text(driver, "message")

    click(driver, "nav-settings", "Settings")
    wait(driver, "the settings", lambda d: visible(d, "profile-driver"))
    shoot(driver, args.out, "settings")

    step("a UK profile: the page reads miles, as trackctl does")
    trackctl(args, "profile", "set", "--country", "UK", "--reason", "the car moved to Leeds")
    driver.refresh()
    wait(driver, "the speedometer in mph", lambda d: d.execute_script(
        "return document.querySelector('[data-unit=speed]').textContent") == "mph")
    labels = driver.execute_script("return [...document.querySelectorAll('[data-unit]')].map(e => e.textContent)")
    if sorted(set(labels)) != ["mi", "mph"]:
        raise StepFailed(f"the page's unit labels for a UK profile: {labels}")
    click(driver, "nav-trips", "Trips")
    wait(driver, "the month's trips in miles", lambda d: " mi" in text(d, "trip-summary"))
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#trip-list li.trip')].map(li => [li.dataset.id, li.querySelector('.dist').textContent])")
    for trip_id, shown in rows:
        printed = next(line.split()[1:] for line in trackctl(args, "show", trip_id).decode().splitlines()
                       if line.strip().startswith("distance"))
        if shown != " ".join(printed):
            raise StepFailed(f"trip {trip_id}: the page says {shown!r}, trackctl show {' '.join(printed)!r}")
    figures["uk_rows"] = rows
    if "km" in driver.find_element(By.ID, "trip-list").text + text(driver, "trip-summary"):
        raise StepFailed("the trips screen still says km for a UK profile")
    shoot(driver, args.out, "trips-miles")

    problems = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    figures["console_errors"] = problems
    if problems:
        raise StepFailed("the browser's console has errors: " + json.dumps(problems))
    figures["steps"] = steps


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "trackctl", "socket", "admin-socket", "month", "out", "parked-from"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    # The umask this process was started with is whatever the test runner's was at that instant: trackd's
    # ControlServer, run in-process by other tests, binds its socket under umask 0177, and a browser started under it
    # cannot use the profile folders it makes (it exits at once). The browser gets the usual one.
    os.umask(0o022)
    os.makedirs(os.path.join(args.out, "downloads"), exist_ok=True)
    figures = {}
    driver = browser(args.out, downloads=os.path.join(args.out, "downloads"), logs=("browser", "performance"))
    play(run, args, driver, figures, failures=(StopIteration,))


if __name__ == "__main__":
    main()
