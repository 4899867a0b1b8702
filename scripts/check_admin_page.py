#!/usr/bin/env python3
"""The admin page in a real browser: Debian's headless Chromium driven through chromedriver by
selenium, against a real `actionable serve` (SQLite) whose deliveries go to an upstream in this
process.

  sign in (a wrong token first), see a dead response with its error, press Retry, see it
  delivered (the upstream got the same webhook-id again); see the endpoints with their state
  and failure streak (one whose upstream is down shows its breaker open), pause and resume one
  with its buttons; the pictures drawn from the real taps (the timeline per minute, the buttons
  pressed by category, each endpoint's success rate and latency, the outbox's depth), with a
  screenshot kept as a test artifact (.build/test-artifacts/admin-charts.png, or in
  --screenshots); the Reload button; a forged CSRF token changes nothing; signed out, or in a
  fresh browser without a session, the page shows no data.

Usage: check_admin_page.py ACTIONABLE_BINARY [--screenshots DIR]
With --screenshots, the signed-in page and `actionable preview`'s file are saved there as
admin.png and preview.png (docs/images keeps the ones the README shows).
Waits are on events (the server's log, the upstream's requests, the page's elements), never on
fixed sleeps.
"""
import argparse
import http.server
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from checks import check, finish, free_port

ADMIN = "operator-token-0123456789abcdefghijkl"
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
class Upstream(http.server.BaseHTTPRequestHandler):
    """Answers 410 Gone until told otherwise; every request's webhook-id goes to a queue."""
    status = 410
    received = queue.Queue()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status = Upstream.status
        self.send_response(status)
        self.end_headers()
        Upstream.received.put((self.headers.get("webhook-id"), status))

    def log_message(self, *args):
        pass


def wait_for_line(process, text, lines):
    """Reads the server's output until a line contains text (the server's own signal)."""
    for line in process.stdout:
        lines.append(line)
        if text in line:
            return True
    return False


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"]:
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    return driver


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--screenshots")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    work = tempfile.mkdtemp(prefix="actionable-admin-")
    shutil.copytree(os.path.join(root, "Categories"), os.path.join(work, "Categories"))
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--admin-token", ADMIN, "--forward",
         f"invite.*=http://127.0.0.1:{upstream.server_address[1]}/rsvp", "--forward-secret", SECRET,
         "--breaker-failures", "1", "--breaker-probe", "1h"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    driver = None
    try:
        check(wait_for_line(server, "accepting action responses", lines), "serve starts")
        # A tap, as the app sends it; the upstream answers 410, so the response is dead.
        notification = subprocess.run(
            [binary, "payload", "invite", "--body", "Dinner?", "--set", "inviteId=42", "--user", "alice"],
            cwd=work, capture_output=True, text=True, check=True).stdout
        respond = subprocess.run(
            [binary, "respond", "accept", "--notification", "-", "--url", base],
            input=notification, cwd=work, capture_output=True, text=True)
        check(respond.returncode == 0 and "202" in respond.stdout, "the tap is accepted: " + respond.stdout.strip())
        response_id = respond.stdout.split('"id":"')[1].split('"')[0]
        first = Upstream.received.get(timeout=30)
        check(first[0] == response_id and first[1] == 410,
              f"the upstream answered 410 Gone (webhook-id {first[0]}: the response id)")
        check(wait_for_line(server, "delivery is dead", lines), "the delivery is dead")

        driver = browser()
        wait = WebDriverWait(driver, 20)

        def submit(button):
            """Clicks a form's button and returns once the page it navigates to replaced this one:
            a look-up made while the navigation runs is aborted by it ("aborted by navigation")."""
            old = driver.find_element(By.TAG_NAME, "html")
            button.click()

            def replaced(_):
                # Chromium reports an element of a replaced document either as stale or, while the
                # new one is being committed, as "Node with given id does not belong to the
                # document": both mean the old page is gone. Anything else is a real error.
                try:
                    old.is_enabled()
                    return False
                except StaleElementReferenceException:
                    return True
                except WebDriverException as error:
                    if "does not belong to the document" in (error.msg or ""):
                        return True
                    raise
            wait.until(replaced)
        driver.get(base + "/admin")
        check(driver.find_elements(By.ID, "token") != [], "signed out: the sign-in form")
        check(response_id not in driver.page_source and "count-dead" not in driver.page_source, "signed out: no data")

        driver.find_element(By.ID, "token").send_keys("not-the-token")
        submit(driver.find_element(By.ID, "sign-in"))
        problem = wait.until(EC.presence_of_element_located((By.ID, "problem")))
        check("not the server's admin token" in problem.text, "a wrong token is refused, with a message")
        check(response_id not in driver.page_source, "a wrong token shows no data")

        driver.find_element(By.ID, "token").send_keys(ADMIN)
        submit(driver.find_element(By.ID, "sign-in"))
        dead = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f'#dead tr[data-id="{response_id}"]')))
        check("410" in dead.find_element(By.CSS_SELECTOR, "td.error").text, "the dead response shows its last error")
        check(driver.find_element(By.CSS_SELECTOR, "#count-dead .n").text == "1", "the dead count is 1")
        cookie = driver.get_cookie("actionable_admin")
        check(cookie is not None and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
              "the session cookie is HttpOnly and SameSite=Strict")
        preview = driver.find_elements(By.CSS_SELECTOR, '#category-invite [data-locale="de"] li.destructive')
        check(any("Ablehnen" in element.text for element in preview), "the preview draws German destructive actions in red")
        if arguments.screenshots:
            os.makedirs(arguments.screenshots, exist_ok=True)
            driver.save_screenshot(os.path.join(arguments.screenshots, "admin.png"))

        def forged(path, what):
            """POSTs path's form with the real session cookie and a forged CSRF token: 403."""
            request = urllib.request.Request(
                base + path, data=b"csrf=forged", method="POST",
                headers={"Cookie": f"actionable_admin={cookie['value']}", "Content-Type": "application/x-www-form-urlencoded"})
            try:
                urllib.request.urlopen(request)
                check(False, what)
            except urllib.error.HTTPError as error:
                check(error.code == 403, f"{what} (403, got {error.code})")

        # A forged CSRF token with the real session cookie changes nothing.
        forged(f"/admin/deliveries/{response_id}/retry", "a forged CSRF token is refused")
        driver.get(base + "/admin")
        check(driver.find_elements(By.CSS_SELECTOR, f'#dead tr[data-id="{response_id}"]') != [], "after the forgery it is still dead")
        check(Upstream.received.empty(), "after the forgery nothing was sent again")

        # Retry, with the page's own form: delivered with the same webhook-id.
        Upstream.status = 204
        submit(driver.find_element(By.CSS_SELECTOR, f'#dead tr[data-id="{response_id}"] button.retry'))
        notice = wait.until(EC.presence_of_element_located((By.ID, "notice")))
        check(response_id in notice.text, "the page says the response is queued again")
        check(Upstream.received.get(timeout=30) == (first[0], 204), "the upstream got it again with the same webhook-id")
        # The delivered state is written right after the upstream's answer: reload until the page shows it.
        wait.until(lambda d: d.get(base + "/admin") or d.find_element(By.CSS_SELECTOR, "#count-delivered .n").text == "1")
        check(driver.find_elements(By.ID, "dead-empty") != [], "signed in: no dead response is left")

        # Endpoints: the seeded one is active; one whose upstream is down opens its breaker after
        # one failure (--breaker-failures 1), and the page says so with its failure streak.
        seeded = driver.find_elements(By.CSS_SELECTOR, '#endpoints tr[data-endpoint^="forward-"] td.state')
        check(len(seeded) == 1 and seeded[0].text == "active", "the --forward endpoint is listed, active")
        body = ('{"id":"down","url":"http://127.0.0.1:%d/down","filter":["invite.decline"]}' % free_port()).encode()
        created = urllib.request.urlopen(urllib.request.Request(
            f"{base}/v1/endpoints", data=body, method="POST",
            headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"}))
        check(created.status == 201, "an endpoint is created through /v1/endpoints")
        notification = subprocess.run(
            [binary, "payload", "invite", "--body", "Lunch?", "--set", "inviteId=43", "--user", "alice"],
            cwd=work, capture_output=True, text=True, check=True).stdout
        respond = subprocess.run(
            [binary, "respond", "decline", "--notification", "-", "--url", base],
            input=notification, cwd=work, capture_output=True, text=True)
        check(respond.returncode == 0 and "202" in respond.stdout, "a decline is accepted: " + respond.stdout.strip())
        check(Upstream.received.get(timeout=30)[1] == 204, "the live endpoint delivered the decline")
        check(wait_for_line(server, "circuit breaker is open", lines), "the down endpoint's breaker opened")

        def row(endpoint):
            return driver.find_element(By.CSS_SELECTOR, f'#endpoints tr[data-endpoint="{endpoint}"]')

        def shows(endpoint, state):
            """Whether the page (reloading after a form's redirect) shows the endpoint in state."""
            try:
                return row(endpoint).find_element(By.CSS_SELECTOR, "td.state").text == state
            except (StaleElementReferenceException, NoSuchElementException):
                return False  # the page is being replaced: asked again

        driver.get(base + "/admin")
        check(row("down").find_element(By.CSS_SELECTOR, "td.state").text == "open", "the down endpoint shows its breaker open")
        check(row("down").find_element(By.CSS_SELECTOR, "td.streak").text == "1", "the down endpoint shows a failure streak of 1")

        forged("/admin/endpoints/down/pause", "a forged CSRF token cannot pause an endpoint")
        driver.get(base + "/admin")
        check(row("down").find_element(By.CSS_SELECTOR, "td.state").text == "open", "after the forgery it is not paused")

        submit(row("down").find_element(By.CSS_SELECTOR, "button.pause"))
        wait.until(lambda d: shows("down", "paused"))
        check(row("down").find_elements(By.CSS_SELECTOR, "button.resume") != [], "a paused endpoint offers Resume")
        state = urllib.request.urlopen(urllib.request.Request(
            f"{base}/v1/endpoints/down", headers={"Authorization": f"Bearer {ADMIN}"})).read().decode()
        check('"paused":true' in state, "the API says it is paused")
        submit(row("down").find_element(By.CSS_SELECTOR, "button.resume"))
        wait.until(lambda d: shows("down", "active"))
        check(row("down").find_element(By.CSS_SELECTOR, "td.streak").text == "0", "resumed: the breaker is closed, the streak reset")

        # The pictures, from storage's counts per minute of these real taps.
        driver.get(base + "/admin")

        def total(series):
            return int(driver.find_element(By.CSS_SELECTOR, f'#timeline polyline[data-series="{series}"]').get_attribute("data-total"))

        check(total("accepted") == 2, f"the timeline counts the 2 taps accepted (got {total('accepted')})")
        check(total("delivered") >= 2, f"the timeline counts the deliveries delivered (got {total('delivered')})")
        check(total("dead") >= 1, f"the timeline counts the delivery that died (got {total('dead')})")
        points = driver.find_element(By.CSS_SELECTOR, '#timeline polyline[data-series="accepted"]').get_attribute("points").split()
        check(len(points) == 180, f"the timeline has a point per minute of the last 3 hours (got {len(points)})")
        bars = {bar.get_attribute("data-action"): int(bar.get_attribute("data-count"))
                for bar in driver.find_elements(By.CSS_SELECTOR, "#taps-invite g[data-action]")}
        check(bars.get("accept") == 1 and bars.get("decline") == 1 and bars.get("maybe") == 0,
              f"the invite chart shows which buttons were pressed, unpressed ones at 0 (got {bars})")
        size = driver.find_element(By.ID, "timeline").size
        check(size["width"] > 300 and size["height"] > 100, f"the timeline is drawn ({size})")
        forwarded = driver.find_element(By.CSS_SELECTOR, '#endpoints tr[data-endpoint^="forward-"]')
        check("% of" in forwarded.find_element(By.CSS_SELECTOR, "td.success").text,
              "the forwarded endpoint shows its success rate over the last hour: "
              + forwarded.find_element(By.CSS_SELECTOR, "td.success").text)
        check("ms" in forwarded.find_element(By.CSS_SELECTOR, "td.latency").text or " s" in forwarded.find_element(By.CSS_SELECTOR, "td.latency").text,
              "the forwarded endpoint shows its latency p50 / p99: " + forwarded.find_element(By.CSS_SELECTOR, "td.latency").text)
        check(driver.find_element(By.CSS_SELECTOR, "#outbox-depth .n").text.isdigit(), "the outbox's depth is shown")
        artifacts = arguments.screenshots or os.path.join(root, ".build", "test-artifacts")
        os.makedirs(artifacts, exist_ok=True)
        driver.set_window_size(1280, 2400)
        driver.save_screenshot(os.path.join(artifacts, "admin-charts.png"))
        print("     screenshot: " + os.path.join(artifacts, "admin-charts.png"))

        # The Reload button reads the category files again; unchanged, the page says so.
        submit(driver.find_element(By.ID, "reload-categories"))
        def reloaded(d):
            try:
                found = d.find_elements(By.ID, "last-reload")
                return bool(found) and "hold the catalog already served" in found[0].text
            except StaleElementReferenceException:
                return False  # the page is being replaced: asked again

        wait.until(reloaded)
        check(reloaded(driver), "the Reload button reloads the category files, and the page says they were unchanged")

        old_cookie = driver.get_cookie("actionable_admin")
        submit(driver.find_element(By.ID, "sign-out"))
        wait.until(EC.presence_of_element_located((By.ID, "token")))
        check(response_id not in driver.page_source, "signed out again: no data")
        driver.delete_all_cookies()
        driver.get(base + "/admin")
        check("count-delivered" not in driver.page_source, "a browser without a session sees no data")
        # The cookie of the ended session, put back as a copy of it would be: the server refuses it.
        driver.add_cookie({"name": "actionable_admin", "value": old_cookie["value"], "path": "/admin"})
        driver.get(base + "/admin")
        check(driver.find_elements(By.ID, "token") != [] and "count-delivered" not in driver.page_source,
              "the signed-out session's cookie, put back, gets the sign-in form")

        if arguments.screenshots:
            preview_file = os.path.join(work, "preview.html")
            subprocess.run([binary, "preview", os.path.join(work, "Categories"), "--output", preview_file], check=True,
                           capture_output=True)
            driver.get("file://" + preview_file)
            driver.save_screenshot(os.path.join(arguments.screenshots, "preview.png"))
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)
        upstream.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    finish("admin page: all checks passed")


if __name__ == "__main__":
    main()
