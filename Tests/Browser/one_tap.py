#!/usr/bin/env python3
"""The trip list's one tap, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (a recorded drive through a FIFO cut into three
trips by trackctl: the first two unclassified, the third classified by an hours rule added before it; the places
Office and Example Ltd at the drive's ends; a German profile) and trackd-web:

    one_tap.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

The list names each trip's places ("Office → …", "… → Example Ltd") and the business trip's amount; a tap makes
the first trip business (its purpose asked in the row, refused empty; then marked changed, with its amount), its Undo makes it unclassified again; a tap makes the
second a commute (the German log keeps commutes apart); the third is confirmed with one tap and its Undo makes it to
confirm again. trackctl sees each change. Each step waits for what it needs to see, never for a number of seconds.
Writes FOLDER/screens/*.png and FOLDER/figures.json, and exits 0 only when every step passed.
"""
import json
import subprocess

from selenium.webdriver.common.by import By

from phone import StepFailed, Steps, console_errors, main, pair, text, visible, wait
from drivers_day import message_ok, shoot


def listed(driver):
    """The trip list's text, in lower case (its heads are shown in capitals)."""
    return driver.find_element(By.ID, "trip-list").text.lower()


def row(driver, trip):
    rows = driver.find_elements(By.CSS_SELECTOR, f"#trip-list li.trip[data-id='{trip}']")
    return rows[0] if rows else None


def tap(driver, trip, selector, what):
    r = row(driver, trip)
    buttons = r.find_elements(By.CSS_SELECTOR, selector) if r else []
    if not buttons:
        raise StepFailed(f"trip {trip} has no {what}: " + (r.text if r else "no such row"))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", buttons[0])
    buttons[0].click()


def undo(driver):
    wait(driver, "the message's Undo", lambda d: visible(d, "message-undo"))
    driver.find_element(By.ID, "message-undo").click()


def trip(args, number):
    return json.loads(subprocess.run([args.trackctl, "--socket", args.socket, "--json", "show", str(number)],
                                     check=True, capture_output=True).stdout)


def run(args, driver, figures):
    steps = step = Steps()

    step("pair with the code trackctl web pair prints")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))

    step("the list names each trip's places and the business trip's amount")
    driver.get(args.url + "/#trips")
    before = wait(driver, "two trips to classify and one to confirm",
                  lambda d: "to classify (2)" in listed(d) and "to confirm (1)" in listed(d) and listed(d))
    figures["list_before"] = before
    if "office → …" not in text(driver, "trip-list").lower() or "… → example ltd" not in before:
        raise StepFailed("the list does not name the trips' places: " + before)
    third = row(driver, 3)
    if third is None or "€" not in third.text:
        raise StepFailed("the business trip shows no amount: " + (third.text if third else before))
    taps = [b.get_attribute("data-kind") for b in row(driver, 1).find_elements(By.CSS_SELECTOR, ".taps button")]
    if taps != ["business", "private", "commute"]:
        raise StepFailed(f"the one-tap buttons of an unclassified trip in a German log: {taps}")
    shoot(driver, args.out, "trips-one-tap")

    step("a tap makes trip 1 business with its purpose, marked changed, with its amount")
    tap(driver, 1, "button[data-kind=business]", "Business button")
    wait(driver, "the purpose asked in the row", lambda d: visible(d, "tap-purpose-1"))
    field = driver.find_element(By.ID, "tap-purpose-1")
    if field != driver.switch_to.active_element:
        raise StepFailed("the purpose's field does not have the focus")
    row(driver, 1).find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, "the refusal without a purpose", lambda d: "needs one" in text(d, "message"))
    field.send_keys("Delivery\n")
    wait(driver, "trip 1 business", lambda d: "to classify (1)" in listed(d) and "trip 1: business" in text(d, "message").lower())
    first = row(driver, 1).text.lower()
    if "changed" not in first or "€" not in first:
        raise StepFailed("trip 1 in the list after the tap: " + first)
    if trip(args, 1)["trip"]["kind"] != "business":
        raise StepFailed("trackctl does not see trip 1 business")
    shoot(driver, args.out, "trips-one-tap-undo")

    step("its Undo makes trip 1 unclassified again")
    undo(driver)
    wait(driver, "trip 1 to classify again",
         lambda d: "to classify (2)" in listed(d) and "to classify again" in text(d, "message"))
    shown = trip(args, 1)
    if shown["trip"]["kind"] != "unclassified" or shown["trip"].get("purpose"):
        raise StepFailed("trackctl sees trip 1 as " + json.dumps(shown["trip"]))
    kinds = [(r["old"], r["new"]) for r in shown["revisions"] if r["field"] == "kind"]
    if kinds != [("unclassified", "business"), ("business", "unclassified")]:
        raise StepFailed(f"trip 1's history of its kind: {kinds}")
    figures["history_1"] = kinds

    step("one tap makes trip 2 a commute")
    tap(driver, 2, "button[data-kind=commute]", "Commute button")
    wait(driver, "trip 2 a commute", lambda d: "to classify (1)" in listed(d) and message_ok(d))
    second = trip(args, 2)["trip"]
    if second["kind"] != "private" or not second.get("commute"):
        raise StepFailed("trackctl sees trip 2 as " + json.dumps(second))

    step("one tap confirms trip 3, and its Undo makes it to confirm again")
    tap(driver, 3, "button.confirm", "Confirm button")
    wait(driver, "nothing to confirm", lambda d: "to confirm" not in listed(d) and "trip 3 confirmed" in text(d, "message").lower())
    if trip(args, 3)["trip"].get("to_confirm"):
        raise StepFailed("trackctl sees trip 3 still to confirm")
    undo(driver)
    wait(driver, "trip 3 to confirm again", lambda d: "to confirm (1)" in listed(d) and "to confirm again" in text(d, "message"))
    if not trip(args, 3)["trip"].get("to_confirm"):
        raise StepFailed("trackctl does not see trip 3 to confirm again")
    figures["list_after"] = listed(driver)

    console_errors(driver, figures)
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run)
