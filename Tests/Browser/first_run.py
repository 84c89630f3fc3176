#!/usr/bin/env python3
"""A new board's first phone on the page, in Debian's Chromium (headless, a 390x844 phone), through Selenium: the
claim with the owner code, the first run (the profile, the odometer, the receiver and the OBD-II adapter, then Now),
a reload that does not show it again, and Settings changing the country, the unit, the rate and the car later.

Run by Tests/SystemTests/WebFirstRunTests.swift, which starts trackd (a serial receiver on a pseudo-terminal that
trackctl play feeds once this script prints "step 5:"; `obd.adapter: auto`, with an ELM327 emulator plugged in as a
USB-serial port at that step too) and trackd-web with an owner code:

    first_run.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --owner-code CODE \
                 --link RECEIVER-PATH --out FOLDER

The browser's time zone is Europe/London (the first run suggests the phone's). Each step waits for what it needs to
see (an element, a text, a value in the log), never for a number of seconds; a step that does not see it within its
patience fails with what the page showed. Writes FOLDER/first-run-*.png (each step at phone size, light, for
docs/setup.md) and FOLDER/figures.json (the steps passed and what was read back), and exits 0 only when every step
passed.
"""
import argparse
import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from phone import PATIENCE, StepFailed, browser, play, click, fill, text, visible, wait

ZONE = "Europe/London"
MILE = 1609.344


def value(driver, element_id):
    return driver.find_element(By.ID, element_id).get_attribute("value")


def choose(driver, element_id, option):
    wait(driver, f"#{element_id} to choose from", lambda d: visible(d, element_id))
    Select(driver.find_element(By.ID, element_id)).select_by_value(option)


def message(driver, kind):
    """The page's message when it is of `kind` (ok, error), else None."""
    elements = driver.find_elements(By.ID, "message")
    if elements and elements[0].is_displayed() and kind in (elements[0].get_attribute("class") or "").split():
        return elements[0].text
    return None


def hush(driver):
    """Closes the page's message, so that a screenshot shows the step alone."""
    if visible(driver, "message-close"):
        driver.find_element(By.ID, "message-close").click()
    wait(driver, "the message closed", lambda d: not d.find_element(By.ID, "message-bar").is_displayed())


def shoot(driver, out, name):
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(out, f"first-run-{name}.png"))


def state(driver):
    """The receiver's state on the first run, without the lines that say more."""
    return text(driver, "first-source-state").split("\n")[0]


def decided(driver):
    """What the page decided about the first run once it knew the device and the profile: shown, not shown."""
    return driver.execute_script("return document.body.dataset.firstRun || ''")


def trackctl(args, *arguments):
    return json.loads(subprocess.run([args.trackctl, "--socket", args.socket, "--json", *arguments], check=True,
                                     capture_output=True).stdout)


def expect_profile(args, expected, what):
    profile = trackctl(args, "profile")
    wrong = {key: profile.get(key) for key, want in expected.items() if profile.get(key) != want}
    if wrong:
        raise StepFailed(f"{what}: trackctl profile has {wrong}, not {expected} (all of it: {profile})")
    return profile


def run(args, driver, figures):
    steps = []

    def step(name):
        steps.append(name)
        print(f"step {len(steps)}: {name}", flush=True)

    step("claim the new board with its owner code")
    driver.get(args.url + "/pair")
    wait(driver, "the claim form", lambda d: "Claim this board" in d.find_element(By.TAG_NAME, "h1").text)
    driver.find_element(By.NAME, "code").send_keys(args.owner_code)
    driver.find_element(By.NAME, "name").send_keys("Anna's phone")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(driver, "the first run's decision", decided)
    if decided(driver) != "shown" or not visible(driver, "first-driver"):
        raise StepFailed(f"the first run is not shown to the board's first phone ({decided(driver)!r}, {driver.current_url})")
    if driver.find_element(By.ID, "nav-now").is_displayed():
        raise StepFailed("the tabs show during the first run")

    step("the profile: refusals said on the page, then saved as typed")
    wait(driver, "the phone's time zone suggested", lambda d: value(d, "first-timezone") == ZONE)
    fill(driver, "first-driver", "Anna Tamm")
    fill(driver, "first-plate", "AB12 CDE")
    fill(driver, "first-company", "Example Ltd")
    fill(driver, "first-rate", "0.45")
    click(driver, "first-profile-save", "save without a country")
    refused = wait(driver, "the page refusing a rate without a country", lambda d: message(d, "error"))
    if "choose the country" not in refused or not visible(driver, "first-driver"):
        raise StepFailed(f"a rate without a country: {refused!r}")
    if trackctl(args, "profile").get("driver"):
        raise StepFailed("the refused profile reached the log")
    choose(driver, "first-country", "UK")
    wait(driver, "the rate in pounds a mile", lambda d: text(d, "first-rate-name") == "Own rate, £/mi")
    choose(driver, "first-unit", "mi")
    choose(driver, "first-car", "own")
    fill(driver, "first-rate", "12")
    click(driver, "first-profile-save", "save a rate trackd refuses")
    refused = wait(driver, "trackd's refusal of a rate of 12", lambda d: "'12' is not a rate" in (message(d, "error") or "")
                   and message(d, "error"))
    figures["refusals"] = [refused]
    fill(driver, "first-rate", "0.45")
    hush(driver)
    shoot(driver, args.out, "1-profile")
    click(driver, "first-profile-save", "save the profile")
    wait(driver, "the odometer step", lambda d: visible(d, "first-odometer-reading"))
    figures["profile"] = expect_profile(args, {"driver": "Anna Tamm", "plate": "AB12 CDE", "company": "Example Ltd",
                                               "country": "UK", "unit": "mi", "car": "own", "rate": 450,
                                               "time_zone": ZONE}, "the first run's profile")

    step("the odometer from the dashboard, in the profile's miles")
    unit = driver.execute_script(
        "return document.querySelector('#first-odometer [data-unit=distance]').textContent")
    if unit != "mi":
        raise StepFailed(f"the odometer step asks in {unit!r}, not mi")
    fill(driver, "first-odometer-reading", "31415.9")
    wait(driver, "the button saying it saves", lambda d: text(d, "first-odometer-save") == "Save and go on")
    hush(driver)
    shoot(driver, args.out, "2-odometer")
    click(driver, "first-odometer-save", "save the reading")
    saved = wait(driver, "the reading saved", lambda d: message(d, "ok"))
    if "31,415.9 mi" not in saved:
        raise StepFailed(f"the page's word on the reading: {saved!r}")
    wait(driver, "the receiver's step", lambda d: visible(d, "first-now"))
    readings = trackctl(args, "odometer")["readings"]
    figures["reading"] = readings[-1] if readings else None
    if len(readings) != 1 or abs(readings[0]["reading_m"] - 31415.9 * MILE) > 0.5 \
            or "first run" not in readings[0]["reason"]:
        raise StepFailed(f"trackctl odometer's readings: {readings}")

    step("the receiver waiting, no OBD-II adapter plugged in yet")
    wait(driver, "the receiver's port", lambda d: args.link in text(d, "first-port"))
    wait(driver, "the receiver not connected yet", lambda d: state(d) not in ("", "–", "connected"))
    wait(driver, "no fix yet", lambda d: text(d, "first-fix").startswith("no fix"))
    # auto with no adapter: no fault, said as such, and no car to show.
    wait(driver, "no adapter, and that it is not needed",
         lambda d: text(d, "first-obd").startswith("None plugged in") and "Not needed" in text(d, "first-obd"))
    if visible(driver, "first-obd-car"):
        raise StepFailed(f"a car is shown without an adapter: {text(driver, 'first-obd-car')!r}")
    figures["waiting"] = {"state": text(driver, "first-source-state"), "fix": text(driver, "first-fix"),
                          "obd": text(driver, "first-obd")}
    hush(driver)
    shoot(driver, args.out, "3-receiver-waiting")
    # Shown again only if the page loads again: the receiver must come on this very page.
    driver.execute_script("window.firstRunPage = 'the same'")

    step("the receiver plugged in: connected, with a fix, on the page as it happens")
    wait(driver, "the receiver connected", lambda d: state(d) == "connected", patience=PATIENCE * 3)
    fix = wait(driver, "a fix", lambda d: text(d, "first-fix").split(",")[0] in ("2D fix", "3D fix")
               and text(d, "first-fix"), patience=PATIENCE * 3)
    wait(driver, "the adapter found by asking", lambda d: text(d, "first-obd").startswith("Found: ELM327"),
         patience=PATIENCE * 3)
    wait(driver, "the car answering", lambda d: text(d, "first-obd-car").startswith("answering"))
    if driver.execute_script("return window.firstRunPage") != "the same":
        raise StepFailed("the page loaded again to show the receiver")
    figures["found"] = {"receiver": text(driver, "first-source"), "port": text(driver, "first-port"), "fix": fix,
                        "obd": text(driver, "first-obd"), "car": text(driver, "first-obd-car")}
    shoot(driver, args.out, "3-receiver")

    step("Now: the main screen, a trip one tap away")
    click(driver, "first-now", "Now")
    wait(driver, "the Now screen with its tabs", lambda d: visible(d, "start-business") and visible(d, "nav-now"))
    if driver.find_element(By.ID, "screen-first-run").is_displayed():
        raise StepFailed("the first run still shows after Now")
    shoot(driver, args.out, "4-now")

    step("a reload, and a browser that kept nothing, do not show the first run again")
    driver.refresh()
    wait(driver, "the first run's decision after a reload", decided)
    if decided(driver) != "not shown" or not visible(driver, "start-business"):
        raise StepFailed(f"after a reload: {decided(driver)!r}, {driver.current_url}")
    # The profile decides, not this browser: its memory gone, the driver and the plate still end the first run.
    driver.execute_script("localStorage.clear()")
    driver.refresh()
    wait(driver, "the first run's decision with nothing kept", decided)
    if decided(driver) != "not shown":
        raise StepFailed(f"a browser that kept nothing is shown the first run again: {driver.current_url}")

    step("Settings: the country, the unit, the rate and the car changed later")
    click(driver, "nav-settings", "Settings")
    wait(driver, "the profile in Settings", lambda d: value(d, "profile-country") == "UK")
    shown = {key: value(driver, "profile-" + key) for key in ("driver", "plate", "company", "country", "unit", "car",
                                                            "rate", "timezone")}
    if shown != {"driver": "Anna Tamm", "plate": "AB12 CDE", "company": "Example Ltd", "country": "UK", "unit": "mi",
                 "car": "own", "rate": "0.45", "timezone": ZONE}:
        raise StepFailed(f"Settings show {shown}")
    choose(driver, "profile-country", "DE")
    wait(driver, "the rate in euros a kilometre", lambda d: text(d, "profile-rate-name") == "Own rate, €/km")
    choose(driver, "profile-unit", "")
    choose(driver, "profile-car", "company")
    fill(driver, "profile-rate", "0.3")
    fill(driver, "profile-reason", "the car moved to Germany")
    hush(driver)
    # From the company down, below the sticky title.
    driver.execute_script("const c = document.getElementById('profile-company').closest('label');"
                          "window.scrollTo(0, c.getBoundingClientRect().top + window.scrollY - 90)")
    driver.save_screenshot(os.path.join(args.out, "first-run-5-settings.png"))
    click(driver, "profile-save", "save the profile")
    wait(driver, "the profile saved", lambda d: message(d, "ok") == "Profile saved.")
    figures["changed"] = expect_profile(args, {"driver": "Anna Tamm", "plate": "AB12 CDE", "country": "DE",
                                               "unit": None, "car": "company", "rate": 300, "time_zone": ZONE},
                                        "Settings' profile")
    wait(driver, "the page in kilometres", lambda d: d.execute_script(
        "return document.querySelector('[data-unit=speed]').textContent") == "km/h")

    # The refusals asked for on purpose are the only failed requests the console may show.
    problems = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                and "/api/rpc/profile.set" not in entry.get("message", "")]
    figures["console_errors"] = problems
    if problems:
        raise StepFailed("the browser's console has errors: " + json.dumps(problems))
    figures["steps"] = steps


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "trackctl", "socket", "owner-code", "link", "out"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    # As drivers_day.py: the umask this process was started with may be the test runner's 0177 of the moment; the
    # browser gets the usual one.
    os.umask(0o022)
    os.makedirs(args.out, exist_ok=True)
    figures = {}
    driver = browser(args.out, zone=ZONE)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    play(run, args, driver, figures, failures=(KeyError,))


if __name__ == "__main__":
    main()
