#!/usr/bin/env python3
"""A week with rules on the page, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which has trackd record three days' drives from the office to a
customer's (one boot each), names both places, starts trackd-web, and records two more days' drives once this script
says "rule accepted":

    rules_week.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

The driver classifies the first three trips on the page; after the third the page suggests a rule, which the driver
accepts; the next two trips close classified by it, and one tap confirms each; the trip's history names the rule.
Each step waits for what it needs to see, never for a number of seconds. Writes FOLDER/screens/*.png and
FOLDER/figures.json, and exits 0 only when every step passed.
"""
import json
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from phone import StepFailed, Steps, click, console_errors, fill, main, pair, text, visible, wait
from drivers_day import message_ok, shoot


def trips(driver):
    """The trips screen asked again (as a return to it does): the list's text in lower case (its heads are capitals)."""
    driver.execute_script("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    return driver.find_element(By.ID, "trip-list").text.lower()


def suggestions(driver):
    return driver.find_element(By.ID, "rule-suggestions").text


def run(args, driver, figures):
    steps = step = Steps()

    step("pair")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))

    step("three trips to classify, no suggestion yet")
    driver.get(args.url + "/#trips")
    Select(driver.find_element(By.ID, "period")).select_by_value("all")
    wait(driver, "three trips to classify", lambda d: "to classify (3)" in trips(d))
    if suggestions(driver):
        raise StepFailed("a suggestion before any trip was classified: " + suggestions(driver))

    for trip in (1, 2, 3):
        step(f"classify trip {trip} on its page")
        driver.get(f"{args.url}/#trip/{trip}")
        wait(driver, f"trip {trip}'s page", lambda d: visible(d, "edit-save") and "Example Ltd" in text(d, "detail-facts"))
        Select(driver.find_element(By.ID, "edit-kind")).select_by_value("business")
        fill(driver, "edit-purpose", "Delivery")
        fill(driver, "edit-customer", "Example Ltd")
        fill(driver, "edit-reason", "classified after the drive")
        click(driver, "edit-save", "save the classification")
        wait(driver, f"trip {trip} changed", lambda d: f"Trip {trip} changed." in text(d, "message"))
        driver.get(args.url + "/#trips")
        wait(driver, "the list after the change", lambda d: f"to classify ({3 - trip})" in trips(d) or trip == 3)
        if trip < 3:
            wait(driver, "the suggestions asked", lambda d: d.execute_script(
                "return !document.getElementById('trip-list').getAttribute('aria-busy')"))
            if suggestions(driver):
                raise StepFailed(f"a rule suggested after {trip} trips: " + suggestions(driver))

    step("the page suggests the rule after the third; accept it")
    offer = wait(driver, "the suggestion", lambda d: "Office → Example Ltd" in suggestions(d) and suggestions(d))
    if "business (Delivery, Example Ltd) 3 times" not in offer:
        raise StepFailed("the suggestion does not say what the rule would do: " + offer)
    figures["suggestion"] = offer
    shoot(driver, args.out, "trips-suggestion")
    button = driver.find_element(By.CSS_SELECTOR, "#rule-suggestions button.accept-suggestion")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(driver, "the rule added", lambda d: "Rule added: Office → Example Ltd" in text(d, "message") and not suggestions(d))
    print("rule accepted", flush=True)

    step("the next two trips close classified by the rule; one tap confirms each")
    def answering():
        """Whether trackd answers again (it is started anew after the two days' drives)."""
        return subprocess.run([args.trackctl, "--socket", args.socket, "status"], capture_output=True).returncode == 0

    def two_to_confirm(d):
        listed = trips(d)
        return listed if "to confirm (2)" in listed and answering() else None

    wait(driver, "two trips to confirm", two_to_confirm, patience=900)
    listed = wait(driver, "the list drawn from trackd started anew", two_to_confirm)
    if listed.count("by rule: office → example ltd") != 2:
        raise StepFailed("the new trips do not say which rule classified them: " + listed)
    figures["list_with_rule"] = listed
    for left in (1, 0):
        button = wait(driver, "a confirm button", lambda d: d.find_elements(By.CSS_SELECTOR, "#trip-list li.to-confirm button.confirm"))[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait(driver, f"{left} left to confirm",
             lambda d: (f"to confirm ({left})" in d.find_element(By.ID, "trip-list").text.lower() if left
                        else "to confirm" not in d.find_element(By.ID, "trip-list").text.lower()) and message_ok(d))
    confirmed = json.loads(subprocess.run([args.trackctl, "--socket", args.socket, "--json", "trips", "--all"],
                                          check=True, capture_output=True).stdout)
    if [(t["kind"], t.get("to_confirm", False)) for t in confirmed] != [("business", False)] * 5:
        raise StepFailed("trackctl does not see five business trips, none to confirm: " + json.dumps(confirmed))

    step("the fourth trip's history names the rule and the confirmation")
    driver.get(args.url + "/#trip/4")
    history = wait(driver, "the history", lambda d: "by rule 1: Office → Example Ltd" in text(d, "trip-history") and text(d, "trip-history"))
    if "confirmed" not in history:
        raise StepFailed("the history does not show the confirmation: " + history)
    figures["history"] = history

    # trackd is stopped and started again around the two days' drives: the calls the page made meanwhile failed
    # (trackd-web answers 502, or 500 for a call trackd dropped as it stopped; noticed, see the stop's note). Any
    # other error is one.
    console_errors(driver, figures, expected=lambda entry: entry.get("source") == "network"
                   and "/api/rpc/" in entry.get("message", "")
                   and ("status of 502" in entry.get("message", "") or "status of 500" in entry.get("message", "")))
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run)
