#!/usr/bin/env python3
"""Rules on the page, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (a recorded drive through a FIFO, three trips
cut from it by trackctl once this script has added the rule) and trackd-web:

    rules_day.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock --out FOLDER

The driver adds a rule in Settings (every day 06:00-22:00: business, "Deliveries"); the three trips close
classified by it and "to confirm"; one is confirmed with one tap, the other two with "Confirm all"; the trip's
history names the rule. Each step waits for what it needs to see, never for a number of seconds. Writes
FOLDER/screens/*.png and FOLDER/figures.json, and exits 0 only when every step passed.
"""
import json
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from phone import StepFailed, Steps, click, console_errors, fill, main, pair, text, visible, wait
from drivers_day import message_ok, shoot


def trip_list(driver):
    """The trips screen, asked again (as a return to it does), and its list's text in lower case (the list's heads
    are shown in capitals)."""
    driver.execute_script("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    return driver.find_element(By.ID, "trip-list").text.lower()


def listed(driver):
    """The trip list's text as it is, in lower case."""
    return driver.find_element(By.ID, "trip-list").text.lower()


def run(args, driver, figures):
    steps = step = Steps()

    step("pair with the code trackctl web pair prints")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))

    step("add a rule by hours in Settings")
    driver.get(args.url + "/#settings")
    wait(driver, "the rule form", lambda d: visible(d, "rule-save") and "No rules yet" in text(d, "rule-list"))
    Select(driver.find_element(By.ID, "rule-type")).select_by_value("hours")
    wait(driver, "the hours' fields", lambda d: visible(d, "rule-start"))
    for day in driver.find_elements(By.NAME, "rule-day"):
        if not day.is_selected():
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", day)
            day.click()
    driver.execute_script("document.getElementById('rule-start').value = '06:00';"
                          "document.getElementById('rule-end').value = '22:00'")
    Select(driver.find_element(By.ID, "rule-kind")).select_by_value("business")
    click(driver, "rule-save", "a business rule without a purpose")
    wait(driver, "the refusal of a business rule without a purpose",
         lambda d: "needs a purpose" in text(d, "message"))
    fill(driver, "rule-purpose", "Deliveries")
    click(driver, "rule-save", "add the rule")
    wait(driver, "the rule in the list", lambda d: "Mon–Sun 06:00–22:00" in text(d, "rule-list"))
    if "business (Deliveries)" not in text(driver, "rule-list"):
        raise StepFailed("the rule's list does not say what it makes of a trip: " + text(driver, "rule-list"))
    driver.execute_script("document.getElementById('message-close').click();"
                          "document.getElementById('rule-form').scrollIntoView({block: 'start'})")
    shoot(driver, args.out, "settings-rules")
    print("rule added", flush=True)

    step("the three trips close classified by the rule, to confirm")
    driver.get(args.url + "/#trips")
    before = wait(driver, "three trips to confirm", lambda d: "to confirm (3)" in trip_list(d) and listed(d),
                  patience=600)
    if before.count("by rule: mon–sun 06:00–22:00") != 3 or "to classify" in before:
        raise StepFailed("the trips do not say which rule classified them: " + before)
    figures["list_before"] = before
    shoot(driver, args.out, "trips-to-confirm")

    step("confirm one trip with one tap")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#trip-list li.to-confirm button.confirm")
    if len(buttons) != 3:
        raise StepFailed(f"{len(buttons)} confirm buttons for three trips to confirm")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", buttons[0])
    buttons[0].click()
    wait(driver, "two left to confirm", lambda d: "to confirm (2)" in listed(d) and message_ok(d))

    step("confirm the rest with Confirm all")
    click(driver, "confirm-all", "confirm all")
    wait(driver, "none left to confirm", lambda d: "to confirm" not in listed(d) and "trips confirmed" in text(d, "message"))
    after = trip_list(driver)
    if "by rule" in after or after.count("business") < 3:
        raise StepFailed("the list still marks trips as to confirm: " + after)
    confirmed = json.loads(subprocess.run([args.trackctl, "--socket", args.socket, "--json", "trips", "--all"],
                                          check=True, capture_output=True).stdout)
    if [t.get("to_confirm", False) for t in confirmed] != [False, False, False] or {t["kind"] for t in confirmed} != {"business"}:
        raise StepFailed("trackctl does not see the three trips confirmed: " + json.dumps(confirmed))

    step("the trip's history names the rule")
    driver.get(args.url + "/#trip/1")
    wait(driver, "the rule among the trip's facts", lambda d: "Mon–Sun 06:00–22:00, confirmed" in text(d, "detail-facts"))
    history = wait(driver, "the history", lambda d: text(d, "trip-history"))
    if "by rule 1: Mon–Sun 06:00–22:00" not in history or "confirmed" not in history:
        raise StepFailed("the history does not show the rule and the confirmation: " + history)
    figures["history"] = history
    shoot(driver, args.out, "trip-by-rule")

    console_errors(driver, figures)
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run)
