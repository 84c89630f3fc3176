#!/usr/bin/env python3
"""A page printed to PDF by Debian's Chromium (headless), through chromedriver and DevTools' Page.printToPDF, as
the browser's own print dialog prints it: the page's CSS page size (A4, a landscape named page), no header or
footer. CountryMonthTests prints each country's report with it.

    print_pdf.py PAGE.html OUT.pdf WORK_FOLDER

Started by the tests as TestSubprocess starts every program (none of the test process's descriptors inherited), as
Tests/Browser/drivers_day.py is, and like it sets the usual umask first: the test process's is ControlServer's 0177
whenever another test binds a control socket in-process at the instant this is started, and a browser started under
it cannot use the profile folders it makes ("Chrome instance exited"; CI saw all four countries fail so).
"""
import base64
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main():
    os.umask(0o022)
    page, out, work = sys.argv[1:4]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--user-data-dir=" + os.path.join(work, "profile")):
        options.add_argument(argument)
    log = os.path.join(work, "chromedriver.log")
    service = Service("/usr/bin/chromedriver", service_args=["--verbose"], log_path=log)
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except Exception:
        # Why the browser did not start is in chromedriver's log (Chromium's own output included): its end, for the
        # test's failure.
        with open(log, errors="replace") as file:
            lines = file.read().splitlines()
        print("\n".join(line for line in lines if "[DEBUG]" not in line)[-6000:], file=sys.stderr)
        raise
    try:
        driver.get("file://" + os.path.abspath(page))
        printed = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "displayHeaderFooter": False,
                                                            "printBackground": False})
    finally:
        driver.quit()
    with open(out, "wb") as file:
        file.write(base64.b64decode(printed["data"]))
    print("%s: %d bytes" % (out, os.path.getsize(out)))


if __name__ == "__main__":
    main()
