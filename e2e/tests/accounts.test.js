// Accounts in the browser: sign up on /sign-in, the bar of every page names the account,
// signing out and back in, a wrong password refused on the page, and deleting the
// account; in English and in Arabic.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage, shot } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("sign up, the bar on every page, sign out, sign in, a wrong password, delete", { timeout: 90_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/`);
  await page.locator("#sign-in-link").click();
  await page.waitForURL(/\/sign-in\?next=%2F$/);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-up-name", "Ann");
  await page.fill("#sign-up-password", "correct horse");
  await shot(page, "accounts-sign-up");
  await page.locator("#sign-up button[type=submit]").click();
  // Back at the lobby, signed in.
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("#account .account-name");
  assert.equal(await page.textContent("#account .account-name"), "Ann");
  await shot(page, "accounts-lobby-signed-in");
  // The cookie is the server's: no script reads it.
  assert.equal(await page.evaluate(() => document.cookie), "");
  const [cookie] = await page.context().cookies();
  assert.equal(cookie.name, "calltrump_session");
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, "Lax");

  for (const path of ["/replay", "/night", "/rules/kaibosh"]) {
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector("#account .account-name");
    assert.equal(await page.textContent("#account .account-name"), "Ann", path);
  }

  await page.locator("#sign-out").click();
  await page.waitForSelector("#sign-in-link");
  assert.equal((await page.context().cookies()).length, 0, "signing out removes the cookie");

  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("body[data-ready=true]");
  await page.fill("#sign-in-name", "ann");
  await page.fill("#sign-in-password", "wrong horse");
  await page.locator("#sign-in button[type=submit]").click();
  await page.waitForFunction(() => document.getElementById("sign-in-error").textContent.includes("wrong name or password"));
  await page.fill("#sign-in-password", "correct horse");
  await page.locator("#sign-in button[type=submit]").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("#account .account-name");

  await page.goto(`${server.url}/sign-in`);
  await page.waitForSelector("#signed-in:not([hidden])");
  page.once("dialog", (dialog) => dialog.accept());
  await page.locator("#delete-account").click();
  await page.waitForURL(`${server.url}/`);
  await page.waitForSelector("#sign-in-link");
  const signIn = await fetch(`${server.url}/api/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Ann", password: "correct horse" }),
  });
  assert.equal(signIn.status, 401, "the account is gone");
  // The browser logs the wrong password's 401 as an error: the one expected.
  const unexpected = page.errors.filter((e) => !e.includes("status of 401"));
  assert.deepEqual(unexpected, []);
  assert.equal(page.errors.length, 1, page.errors.join("\n"));
});

test("the sign-in page in Arabic", { timeout: 60_000 }, async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/sign-in?lang=ar`);
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.getAttribute("html", "dir"), "rtl");
  assert.equal(await page.textContent("#sign-in-h"), "تسجيل الدخول");
  assert.equal(await page.textContent("#sign-in-link"), "تسجيل الدخول");
  await shot(page, "accounts-sign-in-arabic");
  assert.deepEqual(page.errors, []);
});
