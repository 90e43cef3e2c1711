// The table's words in the reader's language (docs/guides/table.md, "Languages").
// The page gets its catalog as JSON (GET /i18n/{lang}.json), built from the gettext .po
// files of the "table" and "moonrules" domains; it renders every sentence itself, from the
// message ids and fields the server sends, so each seat reads the room in its own language.
// The language: ?lang= in the address, else the one chosen with the switch (remembered in
// localStorage), else the browser's (navigator.languages), else English. One it has no
// catalog for falls back to English, with a one-line notice.
// The plural rule is the catalog's Plural-Forms expression (CLDR's, through Babel), compiled
// here by a small parser of its C-like grammar: never eval'd.
"use strict";

window.MoonI18n = (function () {
  const KEY = "moon-lang";
  let cat = null;         // the catalog JSON
  let pluralFn = () => 0;

  // -- the plural expression: n, integers, ! * / % + - < <= > >= == != && || ?: ( ) ------

  function compilePlural(src) {
    const tokens = String(src).match(/\s*(\d+|n|&&|\|\||==|!=|<=|>=|[-+*\/%<>!?:()])\s*/g);
    if (!tokens || tokens.join("").replace(/\s/g, "") !== String(src).replace(/\s/g, "").replace(/;$/, "")) {
      throw new Error("plural: not a plural expression");
    }
    const toks = tokens.map((x) => x.trim());
    let i = 0;
    const peek = () => toks[i];
    const take = (t) => { if (toks[i] !== t) throw new Error("plural: expected " + t); i++; };
    const BIN = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
    const ops = {
      "||": (a, b) => (a || b ? 1 : 0), "&&": (a, b) => (a && b ? 1 : 0),
      "==": (a, b) => (a === b ? 1 : 0), "!=": (a, b) => (a !== b ? 1 : 0),
      "<": (a, b) => (a < b ? 1 : 0), "<=": (a, b) => (a <= b ? 1 : 0),
      ">": (a, b) => (a > b ? 1 : 0), ">=": (a, b) => (a >= b ? 1 : 0),
      "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
      "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
    };
    function ternary() {
      const c = binary(0);
      if (peek() !== "?") return c;
      take("?");
      const a = ternary();
      take(":");
      const b = ternary();
      return (n) => (c(n) ? a(n) : b(n));
    }
    function binary(level) {
      if (level === BIN.length) return unary();
      let left = binary(level + 1);
      while (BIN[level].includes(peek())) {
        const op = ops[toks[i++]], l = left, r = binary(level + 1);
        left = (n) => op(l(n), r(n));
      }
      return left;
    }
    function unary() {
      const t = toks[i++];
      if (t === "!") { const x = unary(); return (n) => (x(n) ? 0 : 1); }
      if (t === "(") { const x = ternary(); take(")"); return x; }
      if (t === "n") return (n) => n;
      if (/^\d+$/.test(t || "")) { const k = Number(t); return () => k; }
      throw new Error("plural: unexpected " + t);
    }
    const f = ternary();
    if (i !== toks.length) throw new Error("plural: trailing " + toks[i]);
    return (n) => Number(f(Math.abs(Math.trunc(n))));
  }

  // -- looking up and formatting ---------------------------------------------------

  function fill(text, args) {
    return text.replace(/\{([A-Za-z0-9_]+)\}/g, (m, k) =>
      args && Object.prototype.hasOwnProperty.call(args, k) ? String(args[k]) : m);
  }

  function look(domain, id) {
    const d = cat && cat.domains && cat.domains[domain];
    return d && Object.prototype.hasOwnProperty.call(d, id) ? d[id] : null;
  }

  // a sentence of the table domain, its {names} filled from args
  function _(id, args) {
    const s = look("table", id);
    return fill(typeof s === "string" ? s : id, args);
  }

  // a sentence with a count: the form the language's plural rule gives count; {count} is it
  function _n(one, many, count, args) {
    return plural("table", one, many, count, args);
  }

  function plural(domain, one, many, count, args) {
    const forms = look(domain, one);
    const all = Object.assign({ count: count }, args || {});
    if (Array.isArray(forms)) {
      const k = pluralFn(count);
      return fill(forms[Math.min(Math.max(k, 0), forms.length - 1)], all);
    }
    return fill(count === 1 ? one : many, all);
  }

  function N_(id) { return id; }  // marks a message id for extraction; looked up later

  // the rule presets' names (a preset without one is shown by its identifier)
  const PRESET_NAMES = {
    "standard": N_("standard"),
    "partnership": N_("partnership"),
    "partnership-forced": N_("partnership, last to call must bid"),
    "partnership-min3": N_("partnership, bids from 3"),
    "partnership-min5": N_("partnership, bids from 5"),
    "pagat": N_("widow after trump (pagat.com)"),
    "no-double-blank": N_("no double blank"),
    "marks": N_("scored in marks"),
    "lead-trump": N_("trump led first"),
    "bidder-out": N_("bidder goes out first"),
    "renege-penalty": N_("renege penalised"),
  };
  function presetName(name) { return name in PRESET_NAMES ? _(PRESET_NAMES[name]) : String(name); }

  function Nn_(one, many) { return [one, many]; }  // marks a plural message id, likewise

  // CLDR's list pattern: kind "and" or "or"
  function list(items, kind) {
    const p = cat && cat.list ? cat.list[kind || "and"] : null;
    const xs = items.map(String);
    if (!p) return xs.join(", ");
    if (xs.length === 0) return "";
    if (xs.length === 1) return xs[0];
    if (xs.length === 2) return fill(p["2"], { 0: xs[0], 1: xs[1] });
    let out = fill(p.end, { 0: xs[xs.length - 2], 1: xs[xs.length - 1] });
    for (let i = xs.length - 3; i >= 1; i--) out = fill(p.middle, { 0: xs[i], 1: out });
    return fill(p.start, { 0: xs[0], 1: out });
  }

  // -- what the server sends: {domain, key, args, n?, allowed?, rule?} --------------

  // The sentence of a text the server sent. seatName(s) names a seat as the page does; a
  // clause's sentence (domain "moonrules") numbers seats as the library does unless
  // libSeat is given; withAllowed adds what the rules allowed and the clause, as
  // moonrules.i18n.render does.
  function wire(text, seatName, opts) {
    const o = opts || {};
    if (!text || typeof text !== "object") return "";
    const args = Object.assign({}, text.args || {});
    const lib = text.domain === "moonrules";
    const passWord = () => { const p = look("moonrules", "pass"); return typeof p === "string" ? p : "pass"; };
    const callWord = (c) => (c === null || c === undefined ? "?" : c === "pass" ? passWord() : String(c));
    const trumpWord = (x) => {  // as moonrules.i18n.render says a trump
      const id = x === "doubles" ? "doubles" : x === "none" ? "no-trump" : null;
      if (id === null) return x === null || x === undefined ? "?" : String(x);
      const w = look("moonrules", id);
      return typeof w === "string" ? w : id;
    };
    for (const k of Object.keys(args)) {
      const v = args[k];
      if (k === "seat") args[k] = v === null || v === undefined ? "?" : lib ? (o.libSeat ? o.libSeat(v) : String(v)) : seatName(v);
      else if (k === "seats" && Array.isArray(v)) args[k] = list(v.map(seatName), "and");
      else if (k === "call") args[k] = callWord(v);
      else if (k === "trump") args[k] = trumpWord(v);
      else if (v === null || v === undefined) args[k] = "?";
    }
    // a clause without a sentence of its own: named with its title, as moonrules.i18n.render does
    if (lib && text.key === "This action breaks rule {rule}." && cat && cat.titles &&
        typeof args.rule === "string" && cat.titles[args.rule]) {
      text = Object.assign({}, text, { key: "This action breaks rule {rule}: {title}." });
      args.title = cat.titles[args.rule];
    }
    let s;
    if (Array.isArray(text.key)) s = plural(text.domain, text.key[0], text.key[1], text.n || 0, args);
    else {
      const found = look(text.domain, text.key);
      s = fill(typeof found === "string" ? found : text.key, args);
    }
    if (o.withAllowed) {
      if (text.allowed && text.allowed.length) {
        const allowed = list(text.allowed.map(text.allowed_kind === "trumps" ? trumpWord : callWord), "and");
        const a = look("moonrules", "Allowed: {allowed}.");
        s += " " + fill(typeof a === "string" ? a : "Allowed: {allowed}.", { allowed: allowed });
      }
      if (text.rule) s += " (" + text.rule + ")";
    }
    return s;
  }

  // -- the page's static text: each text node and label that is a message id ---------

  const ATTRS = ["title", "aria-label", "placeholder", "alt"];

  function norm(s) { return s.replace(/\s+/g, " ").trim(); }

  function applyStatic(root) {
    const walker = document.createTreeWalker(root || document.body, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      if (node.parentElement && node.parentElement.closest("script, style, [data-no-i18n]")) continue;
      const raw = node.nodeValue;
      const id = node.__i18n || norm(raw);
      if (!id) continue;
      const s = look("table", id);
      if (typeof s !== "string") continue;
      node.__i18n = id;
      const lead = raw.match(/^\s*/)[0], tail = raw.match(/\s*$/)[0];
      node.nodeValue = lead + s + tail;
    }
    for (const e of (root || document.body).querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
      for (const a of ATTRS) {
        if (!e.hasAttribute(a)) continue;
        const key = "i18n" + a.replace(/-./g, (m) => m[1].toUpperCase());
        const id = e.dataset[key] || norm(e.getAttribute(a));
        const s = look("table", id);
        if (typeof s !== "string") continue;
        e.dataset[key] = id;
        e.setAttribute(a, s);
      }
    }
    const title = document.querySelector("title");
    if (title) {
      const id = title.dataset.i18n || norm(title.textContent);
      const s = look("table", id);
      if (typeof s === "string") { title.dataset.i18n = id; title.textContent = s; }
    }
  }

  // -- choosing the language ---------------------------------------------------------

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function wanted() {
    const q = new URLSearchParams(location.search).get("lang");
    if (q) return q;
    const s = stored();
    if (s) return s;
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    return langs.join(",");
  }

  async function load(asked) {
    const r = await fetch("/i18n/" + encodeURIComponent(asked || "en") + ".json");
    if (!r.ok) throw new Error("status " + r.status);
    return r.json();
  }

  function use(c) {
    cat = c;
    try { pluralFn = compilePlural(c.plural.expr); } catch (e) { pluralFn = (n) => (n === 1 ? 0 : 1); }
    document.documentElement.lang = c.html_lang || c.lang;
    document.documentElement.dataset.lang = c.lang;
  }

  // the switch: a select in the page's header, the choice remembered
  function addSwitch() {
    const bar = document.querySelector("header.bar");
    if (!bar || !cat || !cat.names || document.getElementById("lang-switch")) return;
    const label = document.createElement("label");
    label.className = "lang";
    const hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = _("Language");
    const sel = document.createElement("select");
    sel.id = "lang-switch";
    for (const [code, name] of Object.entries(cat.names)) {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = name;
      o.lang = code;
      if (code === cat.lang) o.selected = true;
      sel.append(o);
    }
    if (!(cat.lang in cat.names)) {
      const o = document.createElement("option");
      o.value = cat.lang; o.textContent = cat.lang; o.selected = true;
      sel.append(o);
    }
    sel.addEventListener("change", () => {
      try { localStorage.setItem(KEY, sel.value); } catch (e) { /* private mode */ }
      // the pages the server writes (an event's, the director's console) read the cookie
      document.cookie = "lang=" + encodeURIComponent(sel.value) + "; path=/; max-age=31536000; SameSite=Lax";
      const u = new URL(location.href);
      u.searchParams.delete("lang");
      if (u.toString() === location.href) location.reload();  // (a change of hash alone does not load)
      else location.replace(u.toString());
    });
    label.append(hidden, sel);
    bar.append(label);
  }

  function notice() {
    if (!cat || !cat.fallback || !cat.asked) return;
    const p = document.createElement("p");
    p.className = "lang-notice";
    p.setAttribute("role", "status");
    p.textContent = _("No translation for “{lang}”: the page is in English.", { lang: cat.asked });
    const bar = document.querySelector("header.bar");
    if (bar) bar.after(p);
  }

  const ready = (async () => {
    const asked = wanted();
    let c;
    try { c = await load(asked); } catch (e) { c = null; }
    if (!c) {
      try { c = await load("en"); } catch (e) { c = null; }
    }
    if (c) use(c);
    if (document.readyState === "loading") {
      await new Promise((res) => document.addEventListener("DOMContentLoaded", res, { once: true }));
    }
    applyStatic(document.body);
    addSwitch();
    notice();
    return c;
  })();

  return { _: _, _n: _n, N_: N_, Nn_: Nn_, list: list, wire: wire, presetName: presetName, applyStatic: applyStatic, ready: ready,
    compilePlural: compilePlural, plural: plural,
    lang: () => (cat ? cat.lang : "en") };
})();
