// The page's words in the player's language: English, Croatian or Romanian. Each language's
// messages are one catalogue (i18n/<code>.json) and a page loads only the one it uses. The
// language is the one chosen on the page (kept in localStorage), else the browser's first
// language the page speaks, else English. A message may have plural forms, picked by
// Intl.PluralRules for its ``count``: Croatian and Romanian have "one", "few" and "other".

/** @typedef {"en" | "hr" | "ro"} Language */
/** @typedef {string | Partial<Record<Intl.LDMLPluralRule, string>>} Message */

/** Each language by its own name, as the header's choice lists them. */
export const LANGUAGES = /** @type {const} */ ({ en: "English", hr: "Hrvatski", ro: "Română" });
const KEPT = "gin:language";

/** @type {Record<string, Message>} */
let messages = {};
let current = /** @type {Language} */ ("en");
let plurals = new Intl.PluralRules("en");

/** @param {string | null | undefined} code @returns {code is Language} */
const spoken = (code) => typeof code === "string" && Object.hasOwn(LANGUAGES, code);

/** The language to show: the one chosen here before, else the browser's, else English.
 * @returns {Language} */
export function chosenLanguage() {
  const kept = localStorage.getItem(KEPT);
  if (spoken(kept)) return kept;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag.toLowerCase().split("-")[0];
    if (spoken(code)) return code;
  }
  return "en";
}

/** The language now shown. */
export const language = () => current;

/** Loads a language's catalogue and makes it the page's. @param {Language} code */
export async function useLanguage(code) {
  const response = await fetch(`i18n/${code}.json`);
  if (!response.ok) throw new Error(`${code}: HTTP ${response.status}`);
  messages = await response.json();
  current = code;
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
}

/** The language chosen on the page, remembered for the next visit. @param {Language} code */
export async function switchLanguage(code) {
  await useLanguage(code);
  localStorage.setItem(KEPT, code);
}

/**
 * A message with its ``{name}`` parameters filled in; with a ``count``, the plural form the
 * language uses for it. An unknown key shows itself, so a gap is seen rather than hidden.
 * @param {string} key @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const message = messages[key];
  let text = key;
  if (typeof message === "string") text = message;
  else if (message) {
    const count = Number(params.count ?? 0);
    text = message[plurals.select(count)] ?? message.other ?? key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue has a message: a problem type the page knows, say. @param {string} key */
export const has = (key) => Object.hasOwn(messages, key);
