// The sign-in page: sign in, or create an account (which signs in); once signed in, who
// you are and the way to delete your account. Then back to the page that sent you here.

import { $ } from "./common.js";
import { LANG, languageSwitch, t, translatePage } from "./i18n.js";
import { showAccount } from "./account.js";

translatePage();
$("bar-nav").append(languageSwitch());
$("rules-nav").href = `/rules?lang=${LANG}`;
const me = await showAccount($("bar-nav"));

/** Where to go once signed in: this server's own page that sent us here, else the lobby. */
function next() {
  const asked = new URLSearchParams(location.search).get("next") ?? "/";
  const page = asked.startsWith("/") && !asked.startsWith("//") ? asked : "/";
  // The #fragment (a seat link's token) of the page the sign-in link was followed from.
  const [path, hash] = JSON.parse(sessionStorage.getItem("calltrump.return-hash") ?? "[]");
  sessionStorage.removeItem("calltrump.return-hash");
  return path === page.split("?")[0] && typeof hash === "string" ? page + hash : page;
}

if (me) {
  $("signed-in").hidden = false;
  $("signed-in-as").textContent = t("account-signed-in-as", { name: me.name });
} else {
  $("sign-in-panel").hidden = false;
  $("sign-up-panel").hidden = false;
}

/** Sends the form's name and password to `path`; on success goes on, else says why. */
function account(form, path, errorBox) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    $(errorBox).textContent = "";
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: fields.get("name"), password: fields.get("password") }),
    });
    if (response.ok) {
      location.assign(next());
      return;
    }
    const answer = await response.json().catch(() => ({}));
    $(errorBox).textContent = t("account-refused", { error: answer.error ?? String(response.status) });
  });
}
account($("sign-in"), "/api/session", "sign-in-error");
account($("sign-up"), "/api/accounts", "sign-up-error");

$("delete-account").addEventListener("click", async () => {
  if (!me || !confirm(t("account-delete-confirm", { name: me.name }))) return;
  const response = await fetch("/api/me", { method: "DELETE" });
  if (response.ok) location.assign("/");
  else $("delete-error").textContent = t("account-refused", { error: String(response.status) });
});
document.body.dataset.ready = "true";
