// A reader of the small part of Fluent (https://projectfluent.org) the pages' strings
// use: `key = text` messages, `#` comments, text continued on indented lines, and
// `{ $name }` and `{" "}` placeables. No selectors, terms or attributes: the strings are written
// so that they need none. Kept apart from the page (no fetch, no document) so the key
// check can read the same files the same way.

const MESSAGE = /^([a-zA-Z][a-zA-Z0-9_-]*)\s*=\s?(.*)$/;

/** The messages of an `.ftl` file's `text`: a Map from key to its pattern. */
export function parseFtl(text) {
  const messages = new Map();
  let key = null;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    // A comment or a blank line ends the message before it.
    if (line.trim() === "" || line.startsWith("#")) {
      key = null;
      continue;
    }
    const found = line.match(MESSAGE);
    if (found) {
      key = found[1];
      if (messages.has(key)) throw new Error(`line ${index + 1}: ${key} is given twice`);
      messages.set(key, found[2].trim());
    } else if (/^\s/.test(line) && key) {
      const before = messages.get(key);
      messages.set(key, before ? `${before}\n${line.trim()}` : line.trim());
    } else {
      throw new Error(`line ${index + 1}: not a message: ${line}`);
    }
  }
  return messages;
}

/** The variables a pattern names: `{ $seat } bids` → ["seat"]. */
export function variables(pattern) {
  return [...pattern.matchAll(/\{\s*\$([a-zA-Z][a-zA-Z0-9_-]*)\s*\}/g)].map((m) => m[1]);
}

/**
 * A pattern with its placeables filled: variables from `args` (a missing one is left as
 * `{$name}`), string literals (`{" "}`, for a space at an end) as they are.
 */
export function formatPattern(pattern, args = {}) {
  return pattern.replace(/\{\s*(?:\$([a-zA-Z][a-zA-Z0-9_-]*)|"([^"]*)")\s*\}/g,
    (whole, name, literal) => (literal != null ? literal : name in args ? String(args[name]) : `{$${name}}`));
}
