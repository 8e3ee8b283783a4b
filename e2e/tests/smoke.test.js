// The served pages load in Chromium without script errors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, newPage } from "../lib.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("the lobby page loads", async () => {
  const page = await newPage(browser);
  await page.goto(server.url + "/");
  assert.match(await page.title(), /calltrump/);
  assert.ok(await page.locator("h1").isVisible());
  assert.deepEqual(page.errors, []);
});
