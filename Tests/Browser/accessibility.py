#!/usr/bin/env python3
"""Every screen of the page for everyone, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (a trip entered by hand, a place, a rule, a
business trip with its purpose running) and trackd-web:

    accessibility.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock \
        --axe AXE.MIN.JS --out FOLDER

On each screen (Now, Trips, a trip, Places, Reports, Settings, the first run's three steps), light and dark:
axe-core's rules (the version scripts/axe-core installs), no serious or critical violation; every control there
reachable with the Tab key; and at 200 % zoom on the 390-pixel phone (a 195-pixel-wide layout) nothing wider than the
screen. Each dialog (naming a place, stopping the running trip, adding a trip), light and dark: axe-core. Writes
FOLDER/figures.json (each screen's findings) and exits 0 only when every screen passed.
"""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from phone import StepFailed, Steps, click, console_errors, main, pair, visible, wait

SCREENS = [("now", "trip-state"), ("trips", "trip-list"), ("trip/1", "detail-facts"), ("places", "screen-places"),
           ("reports", "verify-verdict"), ("settings", "profile-driver"), ("first-run/1", "first-driver"),
           ("first-run/2", "first-odometer-save"), ("first-run/3", "first-source")]
# The fewest controls a screen shows once loaded: the first run's later steps have their buttons alone (no tabs).
FEWEST = {"first-run/2": 2, "first-run/3": 1}
# The dialogs, each opened from its screen by its button: axe-core with the dialog open (the Tab key stays in a modal
# dialog; the screens' controls behind it are inert).
DIALOGS = [("now", "trip-state", "name-place", "place-dialog"), ("now", "trip-state", "stop-details", "stop-dialog"),
           ("trips", "trip-list", "add-trip", "add-dialog")]

# The controls a screen offers, visible and enabled, each with a path to name it by.
CONTROLS = """
// What can take the focus: a form control only while enabled, nothing hidden or in a closed dialog.
const formControl = (e) => e.matches('button, input, select, textarea');
const focusable = (e) => (!formControl(e) || e.matches(':enabled')) && e.tabIndex >= 0 && !e.closest('[hidden], dialog:not([open])');
const shown = (e) => { const r = e.getBoundingClientRect(); return r.width && r.height && getComputedStyle(e).visibility !== 'hidden'; };
const seen = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter((e) => focusable(e) && shown(e));
window.__controls = seen;
return seen.map((e) => e.id || (e.tagName.toLowerCase() + ':' + (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40)));
"""


def settle(driver, screen, ready):
    driver.get(driver.current_url.split("#")[0] + "#" + screen)
    wait(driver, f"the screen {screen}", lambda d: visible(d, ready) and not d.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"))


def axe(driver, source):
    driver.execute_script(source)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations), (e) => done({error: String(e)}));")


def keyboard(driver):
    """The visible controls the Tab key does not reach, going round the page once."""
    names = driver.execute_script(CONTROLS)
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    reached = set()
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(len(names) + 40):
        index = driver.execute_script("return window.__controls.indexOf(document.activeElement)")
        if index >= 0:
            reached.add(index)
        if len(reached) == len(names):
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    return [name for i, name in enumerate(names) if i not in reached], len(names)


def overflow(driver):
    """What sticks out past the screen's width (a horizontal scroll), by id or tag and text."""
    return driver.execute_script("""
      const w = document.documentElement.clientWidth, out = [];
      // Inside a box that clips what does not fit (a trip's line ending in "…") and itself fits: cut on purpose.
      const clipped = (e) => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        if (['hidden', 'clip'].includes(getComputedStyle(a).overflowX) && a.getBoundingClientRect().right <= w + 1) return true; }
        return false; };
      for (const e of document.querySelectorAll('body *')) {
        if (e.closest('[hidden], dialog:not([open])') || clipped(e)) continue;
        const r = e.getBoundingClientRect();
        if (r.width && r.right > w + 1) out.push((e.id || e.tagName.toLowerCase()) + ': ' + (e.textContent || '').trim().slice(0, 30));
      }
      return {scroll: document.documentElement.scrollWidth, width: w, out: out.slice(0, 8)};""")


def at_200_percent(driver, screens, results, problems, prefix=""):
    """Each of screens (name, element it shows when ready) laid out 195 pixels wide, a 390-pixel phone at 200 % zoom:
    what sticks out into results, a problem for each screen wider than that."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 195, "height": 422, "deviceScaleFactor": 4, "mobile": True})
    for screen, ready in screens:
        settle(driver, screen, ready)
        sticking = overflow(driver)
        results[f"{screen} 200%"] = sticking
        if sticking["scroll"] > sticking["width"] or sticking["out"]:
            problems.append(f"{prefix}{screen} at 200 %: " + json.dumps(sticking))


def run(args, driver, figures):
    steps = step = Steps()
    source = open(args.axe, encoding="utf-8").read()

    step("pair with the code trackctl web pair prints")
    pair(args, driver)
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))

    problems = []
    results = {}
    for scheme in ("light", "dark"):
        step(f"every screen in {scheme}: axe-core and the Tab key")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for screen, ready in SCREENS:
            settle(driver, screen, ready)
            violations = axe(driver, source)
            if isinstance(violations, dict):
                raise StepFailed(f"axe-core did not run on {screen}: {violations['error']}")
            found = [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
                      "targets": [n["target"] for n in v["nodes"][:3]]} for v in violations]
            missed, controls = keyboard(driver)
            if controls < FEWEST.get(screen, 5):
                raise StepFailed(f"{screen} ({scheme}) shows only {controls} controls: the screen did not load")
            results[f"{screen} {scheme}"] = {"violations": found, "controls": controls, "unreached": missed}
            serious = [v for v in found if v["impact"] in ("serious", "critical")]
            if serious:
                problems.append(f"{screen} ({scheme}): " + json.dumps(serious))
            if missed:
                problems.append(f"{screen} ({scheme}): the Tab key does not reach {missed}")
        for screen, ready, button, dialog in DIALOGS:
            settle(driver, screen, ready)
            click(driver, button, f"the dialog {dialog}")
            wait(driver, f"the dialog {dialog} open", lambda d: d.find_elements(By.CSS_SELECTOR, f"#{dialog}[open]"))
            violations = axe(driver, source)
            if isinstance(violations, dict):
                raise StepFailed(f"axe-core did not run on {dialog}: {violations['error']}")
            found = [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
                      "targets": [n["target"] for n in v["nodes"][:3]]} for v in violations]
            results[f"{dialog} {scheme}"] = {"violations": found}
            serious = [v for v in found if v["impact"] in ("serious", "critical")]
            if serious:
                problems.append(f"{dialog} ({scheme}): " + json.dumps(serious))
            driver.execute_script("document.querySelector('dialog[open]').close()")

    step("every screen at 200 % zoom on the 390-pixel phone")
    at_200_percent(driver, SCREENS, results, problems)
    figures["screens"] = results
    if problems:
        raise StepFailed("\n".join(problems))
    console_errors(driver, figures)
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run, extra=("axe",))
