"""What the page's browser tests share (drivers_day.py, first_run.py): Debian's Chromium, headless at a phone's
390×844 through chromedriver, and the steps a thumb takes on the page, each waiting for what it needs."""

import argparse
import json
import os
import subprocess
import sys

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PATIENCE = float(os.environ.get("TRACKD_TEST_PATIENCE", "1")) * 60


class StepFailed(Exception):
    pass


def browser(log_folder, downloads=None, zone=None, logs=("browser",)):
    """A phone's browser; chromedriver's log in log_folder (why a browser did not start, if it did not)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
                     "--disable-dev-shm-usage", "--no-first-run", "--lang=en-GB"):
        options.add_argument(argument)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                                  "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {log: "ALL" for log in logs})
    service = Service("/usr/bin/chromedriver", service_args=["--verbose"],
                      log_path=os.path.join(log_folder, "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    if downloads:
        driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    if zone:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    return driver


def wait(driver, what, condition, patience=PATIENCE):
    """Waits until condition(driver) is truthy and returns it; fails with the page's message and the step."""
    try:
        return WebDriverWait(driver, patience, poll_frequency=0.1,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except WebDriverException as error:
        message = ""
        try:
            message = driver.find_element(By.ID, "message").text
        except WebDriverException:
            pass
        raise StepFailed(f"{what}: not seen (page's message: {message!r}; url {driver.current_url}; {error.msg})")


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text.strip()


def visible(driver, element_id):
    elements = driver.find_elements(By.ID, element_id)
    return elements and elements[0].is_displayed() and elements[0].is_enabled()


def click(driver, element_id, what):
    wait(driver, f"{what}: #{element_id} to click", lambda d: visible(d, element_id))
    # In the middle of the screen, as a thumb would have it: not under the tabs at the bottom.
    button = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def fill(driver, element_id, typed):
    wait(driver, f"#{element_id} to fill", lambda d: visible(d, element_id))
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(typed)


def pair(args, driver, name="Anna's phone"):
    """Pairs the browser with the code `trackctl web pair` prints, as a driver opening its link would."""
    printed = subprocess.run([args.trackctl, "web", "--admin-socket", args.admin_socket, "pair"], check=True,
                             capture_output=True, text=True).stdout
    url = next(line.strip() for line in printed.splitlines() if line.strip().startswith(args.url + "/pair?code="))
    driver.get(url)
    driver.find_element(By.NAME, "name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()


def console_errors(driver, figures, expected=lambda entry: False):
    """Fails the step when the browser's console holds an error `expected` does not pass; records them in figures."""
    problems = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE" and not expected(entry)]
    figures["console_errors"] = problems
    if problems:
        raise StepFailed("the browser's console has errors: " + json.dumps(problems))


def play(run, args, driver, figures, failures=()):
    """Runs run(args, driver, figures) and exits: 0 when it passed; 1 when a step failed, with the page at that moment
    in args.out/failure.png. The figures it measured go to args.out/figures.json either way, and the browser quits."""
    try:
        run(args, driver, figures)
        status_code = 0
    except (StepFailed, WebDriverException, subprocess.CalledProcessError) + tuple(failures) as error:
        print(f"FAILED: {error}", file=sys.stderr, flush=True)
        try:
            driver.save_screenshot(os.path.join(args.out, "failure.png"))
        except WebDriverException:
            pass
        status_code = 1
    finally:
        with open(os.path.join(args.out, "figures.json"), "w") as out:
            json.dump(figures, out, indent=2)
        driver.quit()
    sys.exit(status_code)


class Steps(list):
    """A script's steps: called with each one's name as it begins, printed for the test to follow."""

    def __call__(self, name):
        self.append(name)
        print(f"step {len(self)}: {name}", flush=True)


def main(run, extra=()):
    """The command line of a script the web tests run (--url, --trackctl, --socket, --admin-socket, --out, and the
    `extra` options), then `play`: exits 0 only when every step of run(args, driver, figures) passed."""
    parser = argparse.ArgumentParser()
    for name in ("url", "trackctl", "socket", "admin-socket", "out") + tuple(extra):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    os.umask(0o022)
    os.makedirs(args.out, exist_ok=True)
    play(run, args, browser(args.out), {})
