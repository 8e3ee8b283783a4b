// The pages' words in the player's language: English or Arabic, from the Fluent files
// `/assets/en.ftl` and `/assets/ar.ftl`. The language is the one a page the server wrote
// in a language says it is in (`data-page-lang`: the rules pages), else `?lang=` when
// given, else the one chosen on this device before, else the browser's first known one;
// the page is marked with it (`lang`, and `dir="rtl"` for Arabic).

import { formatPattern, parseFtl } from "./fluent.js";

/** The languages offered, each named in itself. */
export const LANGUAGES = [{ id: "en", name: "English" }, { id: "ar", name: "العربية" }];
const STORE = "calltrump.lang";
const inBrowser = typeof document !== "undefined";

/** This page's language: "en" or "ar". */
export const LANG = inBrowser ? chooseLanguage() : "en";

function known(tag) {
  const base = String(tag ?? "").toLowerCase().split("-")[0];
  return LANGUAGES.find((l) => l.id === base)?.id ?? null;
}

function chooseLanguage() {
  // A page the server wrote in one language (a rules page) stays in it: its bar speaks
  // it too, and English text is never laid out right to left.
  const written = known(document.documentElement.dataset.pageLang);
  if (written) return written;
  const asked = known(new URLSearchParams(location.search).get("lang"));
  if (asked) {
    localStorage.setItem(STORE, asked);
    return asked;
  }
  return known(localStorage.getItem(STORE))
    ?? (navigator.languages ?? [navigator.language]).map(known).find(Boolean)
    ?? "en";
}

const messages = await load();

async function load() {
  const response = await fetch(`/assets/${LANG}.ftl`);
  if (!response.ok) throw new Error(`GET /assets/${LANG}.ftl answered ${response.status}`);
  return parseFtl(await response.text());
}

if (inBrowser) {
  document.documentElement.lang = LANG;
  document.documentElement.dir = LANG === "ar" ? "rtl" : "ltr";
}

/** The message `key` with `args` put in; a key missing from the file is an error. */
export function t(key, args = {}) {
  const pattern = messages.get(key);
  if (pattern == null) {
    console.error(`no string ${key} in ${LANG}.ftl`);
    return key;
  }
  return formatPattern(pattern, LANG === "ar" ? Object.fromEntries(Object.entries(args).map(([k, v]) => [k, num(v)])) : args);
}

const SIGNED = /^[+\-\u2212]\d/;

/**
 * A number as shown: in Arabic a signed one ("-4", "+3") is isolated left to right
 * (U+2066 … U+2069), since the right-to-left line would otherwise read its sign after
 * it ("4-"). Anything else is given back as it is.
 */
export function num(value) {
  const text = typeof value === "number" ? String(value) : value;
  return LANG === "ar" && typeof text === "string" && SIGNED.test(text) ? `\u2066${text}\u2069` : value;
}

/** Whether the strings have a message `key`. */
export function hasString(key) {
  return messages.has(key);
}

/**
 * Puts the words into the page's own HTML: `data-i18n="key"` sets an element's text,
 * `data-i18n-attr="aria-label:key placeholder:key2"` its attributes.
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(" ")) {
      const [attribute, key] = pair.split(":");
      node.setAttribute(attribute, t(key));
    }
  }
}

/** The language switch for a page's bar: choosing reloads the page in that language. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang-switch";
  select.setAttribute("aria-label", t("language-switch"));
  for (const { id, name } of LANGUAGES) {
    const option = new Option(name, id, id === LANG, id === LANG);
    option.lang = id;
    select.append(option);
  }
  select.addEventListener("change", () => {
    localStorage.setItem(STORE, select.value);
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) {
      url.searchParams.set("lang", select.value);
      location.replace(url);
    } else location.reload();
  });
  return select;
}
