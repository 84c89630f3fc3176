#!/usr/bin/env python3
"""Every screen of the page in German and Estonian, in Debian's Chromium (headless, a 390x844 phone), through Selenium.

Run by Tests/SystemTests/WebBrowserTests.swift, which starts trackd (a German log whose profile's language is German,
a trip entered by hand at 14:05 over 12.4 km, a place, a rule, a business trip with its purpose running) and
trackd-web:

    languages.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock \
        --axe AXE.MIN.JS --web WEB_FOLDER --out FOLDER

The pairing page comes in the browser's language (German, by DevTools' Accept-Language override): its words and
axe-core. Then, the browser English (en-GB), the page takes the profile's German; this device's own choice,
Estonian, in Settings; with neither, the browser's language (Estonian). On each screen (the first run's three steps
too) and dialog (naming a place, stopping the running trip, adding a trip), in each language:
no English word of the page's left (a word of the page's English texts, web/texts-XX.js' keys, that no text of the
language's has; the board's own words, marked lang=en, counted apart), axe-core's rules with no serious or critical
violation, nothing wider than the screen, and at 200 % zoom (195 pixels) nothing wider either; times on a 24-hour
clock and the distance with a decimal comma. Writes FOLDER/screens/web-LANG-SCREEN-light.png, FOLDER/figures.json,
and exits 0 only when every step passed.
"""
import json
import os
import re
import subprocess

from selenium.webdriver.common.by import By

from accessibility import at_200_percent, axe, overflow, settle
from phone import StepFailed, Steps, click, console_errors, main, visible, wait

SCREENS = [("now", "trip-state", None), ("trips", "trip-list", None), ("trip/1", "detail-facts", None),
           ("places", "screen-places", None), ("reports", "verify-verdict", None), ("settings", "profile-driver", None),
           ("first-run/1", "first-driver", None), ("first-run/2", "first-odometer-save", None),
           ("first-run/3", "first-source", None),
           ("now", "trip-state", "name-place"), ("now", "trip-state", "stop-details"), ("trips", "trip-list", "add-trip")]
WORD = re.compile(r"[^\W\d_][^\W\d_'’-]{2,}")


def table(web, language):
    source = open(os.path.join(web, f"texts-{language}.js"), encoding="utf-8").read()
    return json.loads(source[source.index("{", source.index("export default")):source.rindex("}") + 1])


def english_only(web, language):
    """The words of the page's English texts that no text of the language has (its own words, names kept as they are)."""
    texts = table(web, language)
    own = {w.lower() for value in texts.values() for w in WORD.findall(value)}
    return {w.lower() for key in texts for w in WORD.findall(key)} - own


SHOWN = """
// The page's visible words: each text node shown (not in a closed dialog or a hidden part), and the placeholders and
// labels for screen readers of the controls shown.
const out = [], board = [];
const shown = (e) => { if (!e || e.closest('[hidden], dialog:not([open])')) return false;
  const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const p = n.parentElement;
  // The board's own words (a receiver's error, a note trackd wrote) are English, marked lang=en: counted apart.
  if (!p || p.closest('datalist, script, style, [translate=no]')) continue;
  if (p.closest('[lang=en]')) { if (n.nodeValue.trim() && shown(p)) board.push(n.nodeValue.trim()); continue; }
  const box = p.closest('select') || p;
  if (n.nodeValue.trim() && shown(box)) out.push(n.nodeValue.trim());
}
for (const e of document.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')) {
  if (!shown(e)) continue;
  for (const a of ['placeholder', 'aria-label', 'title', 'alt']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
}
return {out, board};
"""


def english_left(driver, words):
    left = []
    for text in driver.execute_script(SHOWN)["out"]:
        found = [w for w in WORD.findall(text) if w.lower() in words]
        if found:
            left.append(f"{text[:60]!r} ({', '.join(found)})")
    return left


def page_language(driver, language, what):
    wait(driver, f"the page in {language} ({what})",
         lambda d: d.execute_script("return document.documentElement.lang") == language and visible(d, "nav-now"))


def screens(args, driver, language, source, figures, problems):
    words = english_only(args.web, language)
    folder = os.path.join(args.out, "screens")
    os.makedirs(folder, exist_ok=True)
    results = {}
    november(driver)
    for screen, ready, dialog in SCREENS:
        settle(driver, screen, ready)
        name = screen.replace("/", "-") + (f"+{dialog}" if dialog else "")
        if dialog:
            click(driver, dialog, f"the dialog of {name}")
            wait(driver, f"the dialog of {name} open", lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
        left = english_left(driver, words)
        board = driver.execute_script(SHOWN)["board"]
        violations = axe(driver, source)
        if isinstance(violations, dict):
            raise StepFailed(f"axe-core did not run on {name}: {violations['error']}")
        serious = [{"id": v["id"], "impact": v["impact"], "targets": [n["target"] for n in v["nodes"][:3]]}
                   for v in violations if v["impact"] in ("serious", "critical")]
        sticking = overflow(driver)
        results[name] = {"english": left, "board": board, "serious": serious,
                         "violations": [f"{v['id']} ({v['impact']})" for v in violations],
                         "width": sticking["scroll"]}
        if left:
            problems.append(f"{language} {name}: English left: {left}")
        if serious:
            problems.append(f"{language} {name}: axe-core: {json.dumps(serious)}")
        if sticking["scroll"] > sticking["width"] or sticking["out"]:
            problems.append(f"{language} {name}: wider than the screen: {json.dumps(sticking)}")
        if not dialog:
            driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(folder, f"web-{language}-{name}-light.png"))
        if dialog:
            driver.execute_script("document.querySelector('dialog[open]').close()")
    figures[language] = results


def november(driver):
    """The trip list at November 2026, the hand-entered trip's month (whatever today's date)."""
    settle(driver, "trips", "trip-list")
    driver.execute_script("const m = document.getElementById('period-month'); m.value = '2026-11';"
                          "m.dispatchEvent(new Event('change'))")
    wait(driver, "the trip of 23 November in the list",
         lambda d: d.find_elements(By.CSS_SELECTOR, "#trip-list li.trip[data-id='1']"))


def conventions(driver, language, problems):
    """The hand-entered trip's 14:05 and 12.4 km as the language writes them, in the trip list and the trip."""
    november(driver)
    listed = wait(driver, "the trip in the list", lambda d: d.find_element(By.ID, "trip-list").text or None)
    if "12,4" not in listed:
        problems.append(f"{language}: the list's distance is not 12,4: {listed!r}")
    settle(driver, "trip/1", "detail-facts")
    facts = wait(driver, "the trip's facts", lambda d: d.find_element(By.ID, "detail-facts").text or None)
    if "14:05" not in facts or re.search(r"\b[AP]M\b", facts, re.I):
        problems.append(f"{language}: the trip's time is not 14:05 on a 24-hour clock: {facts!r}")
    return listed, facts


def zoomed(driver, language, figures, problems):
    """Each screen at 200 % zoom on the 390-pixel phone, the language's longer words too."""
    at_200_percent(driver, [(screen, ready) for screen, ready, dialog in SCREENS if not dialog], figures[language],
                   problems, prefix=f"{language} ")


def browser_language(driver, tags):
    """The browser's languages from now on (Accept-Language and navigator.languages), by DevTools."""
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride",
                           {"userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": tags})


def everything(args, driver, language, source, figures, problems):
    screens(args, driver, language, source, figures, problems)
    figures[f"{language}_conventions"] = conventions(driver, language, problems)


def choose(driver, language):
    """This device's language in Settings ('' for none: the profile's, else the browser's)."""
    settle(driver, "settings", "profile-driver")
    driver.execute_script("const s = document.getElementById('device-language'); s.value = arguments[0];"
                          "s.dispatchEvent(new Event('change'))", language)


def run(args, driver, figures):
    steps = step = Steps()
    source = open(args.axe, encoding="utf-8").read()
    problems = []

    step("the pairing page in the browser's language (German): its words, axe-core; paired")
    browser_language(driver, "de-DE,de")
    printed = subprocess.run([args.trackctl, "web", "--admin-socket", args.admin_socket, "pair"], check=True,
                             capture_output=True, text=True).stdout
    driver.get(next(line.strip() for line in printed.splitlines() if line.strip().startswith(args.url + "/pair?code=")))
    wait(driver, "the pairing page in German", lambda d: d.execute_script("return document.documentElement.lang") == "de")
    heading = driver.find_element(By.TAG_NAME, "h1").text
    english = [text for text in ("Pair this device", "Enter the code", "Name of this device", "Anna's phone", ">Pair<")
               if text in driver.page_source]
    violations = axe(driver, source)
    serious = [v["id"] for v in violations if v["impact"] in ("serious", "critical")] if isinstance(violations, list) else violations
    figures["pair_de"] = {"heading": heading, "english": english,
                          "violations": [f"{v['id']} ({v['impact']})" for v in violations] if isinstance(violations, list) else violations}
    if heading != "Dieses Gerät koppeln" or english or serious:
        problems.append(f"the German pairing page: heading {heading!r}, English {english}, axe-core {serious}")
    os.makedirs(os.path.join(args.out, "screens"), exist_ok=True)
    driver.save_screenshot(os.path.join(args.out, "screens", "web-de-pair-light.png"))
    driver.find_element(By.NAME, "name").send_keys("Annas Handy")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(driver, "the page after pairing", lambda d: visible(d, "nav-now"))
    browser_language(driver, "en-GB,en")
    driver.refresh()
    page_language(driver, "de", "the profile's, the browser being English")

    step("every screen and dialog in German (the profile's language)")
    everything(args, driver, "de", source, figures, problems)

    step("this device's own choice in Settings: Estonian, over the profile's German")
    choose(driver, "et")
    page_language(driver, "et", "this device's choice")
    driver.refresh()
    page_language(driver, "et", "this device's choice, kept over a reload")

    step("every screen and dialog in Estonian")
    everything(args, driver, "et", source, figures, problems)

    step("neither a choice nor the profile's: the browser's language")
    choose(driver, "")
    page_language(driver, "de", "the profile's again")
    subprocess.run([args.trackctl, "--socket", args.socket, "profile", "set", "--language", ""], check=True,
                   capture_output=True)
    browser_language(driver, "et-EE,et")
    driver.refresh()
    page_language(driver, "et", "the browser's, the profile naming none")
    figures["navigator_languages"] = driver.execute_script("return navigator.languages")

    step("every screen at 200 % zoom in Estonian, then in German (this device's choice)")
    zoomed(driver, "et", figures, problems)
    choose(driver, "de")
    page_language(driver, "de", "this device's choice at 200 %")
    zoomed(driver, "de", figures, problems)

    figures["problems"] = problems
    if problems:
        raise StepFailed("\n".join(problems))
    console_errors(driver, figures)
    figures["steps"] = list(steps)


if __name__ == "__main__":
    main(run, extra=("axe", "web"))
