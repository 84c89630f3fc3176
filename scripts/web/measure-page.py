#!/usr/bin/env python3
"""The driver's page measured in headless Chromium (scripts/bench-web runs it): the first screen's bytes on the
wire, its time to interactive on a throttled 3G profile, and how long a fix takes from trackd to the page.

    measure-page.py --url http://127.0.0.1:PORT --trackctl PATH --socket CONTROL.sock --admin-socket ADMIN.sock \
                    [--fixes N]

Prints one JSON object. A benchmark: it reports, it asserts nothing.
"""
import argparse
import json
import statistics
import subprocess
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Chrome DevTools' "3G" profile (Lighthouse's mobile throttling): 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up.
THREE_G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
                     "--disable-dev-shm-usage", "--no-first-run"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Network.enable", {})
    return driver


def pair(args, driver):
    printed = subprocess.run([args.trackctl, "web", "--admin-socket", args.admin_socket, "pair"], check=True,
                             capture_output=True, text=True).stdout
    url = next(line.strip() for line in printed.splitlines() if line.strip().startswith(args.url + "/pair?code="))
    driver.get(url)
    driver.find_element(By.NAME, "name").send_keys("bench")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "nav-now"))


def first_screen(args, driver):
    """Loads the first screen cold (no cache) on throttled 3G; returns bytes and times."""
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    # Past the service worker the pairing registered, which keeps the page's files: a first visit has none.
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", THREE_G)
    started = time.monotonic()
    driver.get(args.url + "/")
    # Interactive: the script has shown trackd's speed (the HTML alone shows a dash) and a start or stop button.
    WebDriverWait(driver, 60, poll_frequency=0.01).until(lambda d: d.execute_script(
        "const s = document.getElementById('speed'); const b = [...document.querySelectorAll('#start-business, #stop')];"
        "return s && /^[0-9]+$/.test(s.textContent.trim()) && b.some(x => x.offsetParent !== null && !x.disabled)"))
    interactive_s = time.monotonic() - started
    timing = driver.execute_script("""
        const nav = performance.getEntriesByType('navigation')[0];
        const resources = performance.getEntriesByType('resource')
            .filter(r => !r.name.includes('/api/events'));
        return {
          document_bytes: nav.transferSize, document_body_bytes: nav.encodedBodySize,
          resources: resources.map(r => ({name: r.name.replace(location.origin, ''), bytes: r.transferSize,
                                          body: r.encodedBodySize, ms: Math.round(r.duration)})),
          dom_content_loaded_ms: Math.round(nav.domContentLoadedEventEnd),
          load_ms: Math.round(nav.loadEventEnd)};""")
    timing["bytes_on_wire"] = timing["document_bytes"] + sum(r["bytes"] for r in timing["resources"])
    timing["interactive_s"] = round(interactive_s, 3)
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": False})
    return timing


def fix_latency(args, driver):
    """Each speed the page shows, against when trackctl watch printed the fix with that speed (same clock)."""
    driver.get(args.url + "/")
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "speed"))
    driver.execute_script("""
        window.__shown = [];
        const speed = document.getElementById('speed');
        new MutationObserver(() => window.__shown.push([Date.now(), speed.textContent.trim()]))
            .observe(speed, {childList: true, characterData: true, subtree: true});""")
    fixes = []
    watch = subprocess.Popen([args.trackctl, "--socket", args.socket, "--json", "watch"], stdout=subprocess.PIPE,
                             text=True)

    def read():
        for line in watch.stdout:
            now = time.time() * 1000
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("method") == "fix" and "speed" in message.get("params", {}):
                fixes.append((now, str(round(message["params"]["speed"] * 3.6))))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    WebDriverWait(driver, 600, poll_frequency=0.2).until(
        lambda d: len(d.execute_script("return window.__shown")) >= args.fixes)
    watch.terminate()
    shown = driver.execute_script("return window.__shown")
    latencies = []
    for at, text in shown:
        earlier = [f for f in fixes if f[1] == text and f[0] <= at + 5]
        if earlier:
            latencies.append(at - earlier[-1][0])
    latencies.sort()
    return {"changes": len(shown), "matched": len(latencies),
            "median_ms": round(statistics.median(latencies), 1) if latencies else None,
            "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))], 1) if latencies else None,
            "max_ms": round(latencies[-1], 1) if latencies else None}


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "trackctl", "socket", "admin-socket"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--fixes", type=int, default=60)
    args = parser.parse_args()
    driver = browser()
    try:
        pair(args, driver)
        result = {"first_screen": first_screen(args, driver), "fix_to_page": fix_latency(args, driver)}
    finally:
        driver.quit()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
