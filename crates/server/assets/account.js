// Who is signed in, in every page's bar: the account's name and a button to sign out,
// or a link to sign in. The session is an HttpOnly cookie the page cannot read: it asks
// `GET /api/session` (always 200, so that no page logs an error for a guest).

import { t } from "./i18n.js";

/** The signed-in account (`{name, created_at}`), or null. */
export async function whoAmI() {
  try {
    const response = await fetch("/api/session");
    return response.ok ? (await response.json()).account : null;
  } catch {
    return null;
  }
}

/**
 * Puts the account's part of the bar at the end of `nav`: the name and "Sign out", or
 * "Sign in" (which comes back to this page; its `#` part, a seat's token, is kept in
 * this tab, never sent). A signed-in person with no name remembered on this device
 * takes the account's as the name shown at tables.
 */
export async function showAccount(nav) {
  const me = await whoAmI();
  if (me && !localStorage.getItem("calltrump.name")) localStorage.setItem("calltrump.name", me.name);
  const box = document.createElement("span");
  box.id = "account";
  box.className = "account";
  if (me) {
    const name = document.createElement("a");
    name.href = "/sign-in";
    name.className = "account-name";
    name.textContent = me.name;
    name.setAttribute("aria-label", t("account-signed-in-as", { name: me.name }));
    const out = document.createElement("button");
    out.type = "button";
    out.id = "sign-out";
    out.textContent = t("account-sign-out");
    out.addEventListener("click", async () => {
      await fetch("/api/session", { method: "DELETE" });
      location.reload();
    });
    box.append(name, out);
  } else {
    const link = document.createElement("a");
    link.id = "sign-in-link";
    link.href = `/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`;
    link.textContent = t("account-sign-in");
    // A seat link's token is in the page's #fragment, which the server never sees: kept
    // in this tab for the way back, so that a friend who signs in keeps the seat.
    link.addEventListener("click", () => {
      sessionStorage.setItem("calltrump.return-hash", JSON.stringify([location.pathname, location.hash]));
    });
    box.append(link);
  }
  nav.append(box);
  return me;
}
