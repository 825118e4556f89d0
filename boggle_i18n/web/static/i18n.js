"use strict";
// The interface language: ICU-style message catalogues (static/i18n/CODE.json), plural rules from Intl.PluralRules.
// Every string the page shows comes from a catalogue: `I18n.t(key, values)` in the JavaScript, and
// data-i18n / data-i18n-placeholder / data-i18n-aria-label / data-i18n-title attributes in the HTML.

const I18n = {
  // The catalogues shipped in static/i18n/ (code -> name in its own language, written direction).
  LANGS: {
    en: "English", nl: "Nederlands", de: "Deutsch", fr: "Français", es: "Español", it: "Italiano",
    pt: "Português", pl: "Polski", uk: "Українська", he: "עברית",
  },
  code: "en",
  messages: {},
  fallback: {},

  // The browser's first language we have a catalogue for (`pt-BR` -> `pt`), else English.
  fromBrowser(languages) {
    for (const tag of languages || []) {
      const base = String(tag).toLowerCase().split("-")[0];
      if (base in I18n.LANGS) return base;
      if (base === "iw") return "he";
    }
    return "en";
  },

  async load(code) {
    const get = async (c) => {
      const res = await fetch(`static/i18n/${c}.json`);
      if (!res.ok) throw new Error(`no catalogue ${c}`);
      return res.json();
    };
    if (!Object.keys(I18n.fallback).length) I18n.fallback = await get("en");
    I18n.messages = code === "en" ? I18n.fallback : await get(code);
    I18n.code = code;
    I18n.plural = new Intl.PluralRules(code);
    I18n.number = new Intl.NumberFormat(code);
    I18n.names = Intl.DisplayNames ? new Intl.DisplayNames([code], { type: "language", fallback: "none" }) : null;
    document.documentElement.lang = code;
    document.documentElement.dir = I18n.messages["@dir"] || "ltr";
  },

  // A message with its values: `{name}`, and `{n, plural, one {# word} other {# words}}` (exact `=0` too).
  t(key, values = {}) {
    const text = I18n.messages[key] ?? I18n.fallback[key];
    if (text === undefined) return key;
    return I18n.format(text, values);
  },

  format(text, values) {
    let out = "";
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf("{", i);
      if (open < 0) { out += text.slice(i); break; }
      out += text.slice(i, open);
      const close = I18n._match(text, open);
      out += I18n._arg(text.slice(open + 1, close), values);
      i = close + 1;
    }
    return out;
  },

  _match(text, open) {
    let depth = 0;
    for (let j = open; j < text.length; j++) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}" && --depth === 0) return j;
    }
    throw new Error(`unbalanced message: ${text}`);
  },

  _arg(inner, values) {
    const comma = inner.indexOf(",");
    if (comma < 0) {
      const v = values[inner.trim()];
      if (typeof v === "number") return I18n.number.format(v);
      // In a right-to-left page a value (a language code, a board, a Latin word) is isolated from the text
      // around it (FSI ... PDI), so `en: 100 לוחות` keeps its order.
      return I18n.rtl() && v != null && v !== "" ? `\u2068${v}\u2069` : String(v ?? "");
    }
    const name = inner.slice(0, comma).trim();
    const rest = inner.slice(comma + 1);
    const kind = rest.slice(0, rest.indexOf(",")).trim();
    if (kind !== "plural") throw new Error(`unsupported message argument: ${kind}`);
    const n = Number(values[name]);
    const forms = {};
    let body = rest.slice(rest.indexOf(",") + 1);
    for (;;) {
      const brace = body.indexOf("{");
      if (brace < 0) break;
      const sel = body.slice(0, brace).trim();
      const end = I18n._match(body, brace);
      forms[sel] = body.slice(brace + 1, end);
      body = body.slice(end + 1);
    }
    const chosen = forms[`=${n}`] ?? forms[I18n.plural.select(n)] ?? forms.other;
    return I18n.format(chosen.replace(/#/g, I18n.number.format(n)), values);
  },

  rtl() {
    return (I18n.messages["@dir"] || "ltr") === "rtl";
  },

  // A language's name in the interface language (`nl` is "Niederländisch" in German), else `fallback`.
  languageName(code, fallback) {
    try {
      return (I18n.names && I18n.names.of(code)) || fallback;
    } catch {
      return fallback; // a code Intl does not take
    }
  },

  // Translate the static page: text, placeholders, accessible names and titles.
  apply(root = document) {
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = I18n.t(el.dataset.i18n);
    for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = I18n.t(el.dataset.i18nPlaceholder);
    for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", I18n.t(el.dataset.i18nAriaLabel));
    for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = I18n.t(el.dataset.i18nTitle);
    document.title = I18n.t("title");
  },
};
