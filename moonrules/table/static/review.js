// The review of a finished hand at the table (spec/table.md, "review"): a "Review" button
// on the last hand's panel and on the game-over panel opens a dialog; the page asks the
// server ({"type": "review", "hand": N}), shows "reviewing…" while the server works it
// out, and draws it when it comes: each decision with its mark (?!, ?, ??), the choice
// made, the best one and the expected points lost, and a summary per player. The server
// sends a seat its own decisions while the game goes on, everyone's once it is over.
// table.js hands this script its WebSocket (MoonReview.attach); everything else is here.
"use strict";

window.MoonReview = (function () {
  const $ = (id) => document.getElementById(id);
  const I = window.MoonI18n;
  const _ = I._, _n = I._n, N_ = I.N_;
  const MARKS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };  // CSS classes
  const MARK_NAMES = { "?!": N_("inaccuracy"), "?": N_("mistake"), "??": N_("blunder") };
  const TRUMPS = { 0: N_("blanks"), 1: N_("aces"), 2: N_("deuces"), 3: N_("treys"), 4: N_("fours"), 5: N_("fives"),
    6: N_("sixes"), doubles: N_("doubles"), none: N_("no trump") };
  const BOTS = { random: N_("{name} (random bot)"), basic: N_("{name} (basic bot)"),
    strong: N_("{name} (strong bot)"), pimc: N_("{name} (sampling bot)"),
    learned: N_("{name} (learned bot)") };
  let send = null;        // sends a message to the server (false when not connected)
  let state = null;       // the state message the page shows
  let shown = null;       // the hand the dialog shows
  let waiting = false;    // a review was asked for and has not come
  const got = new Map();  // "hand/over" -> the review message

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }

  function table() { const s = state(); return s ? s.table : null; }

  function name(seat, t) {
    if (t.seat === seat) return _("You");
    const n = t.seats[seat].name || _("Seat {n}", { n: seat + 1 });
    const p = t.seats[seat].player;
    return p === "human" ? n : p in BOTS ? _(BOTS[p], { name: n }) : n + " (" + p + ")";
  }

  function isTile(a) { return typeof a === "string" && /^[0-6]-[0-6]$/.test(a); }

  function actionText(a, kind) {
    if (kind === "call") return a === "pass" ? _("pass") : a === 21 ? _("bid 21 (moon)") : _("bid {call}", { call: a });
    if (kind === "trump") return _("trump {trump}", { trump: a in TRUMPS ? _(TRUMPS[a]) : String(a) });
    return String(a);
  }

  function actionNode(a, kind) {
    if (!isTile(a)) return el("span", { class: "rv-act", text: actionText(a, kind) });
    return el("span", { class: "rv-act" },
      el("img", { src: "/tiles/" + a + ".svg", alt: "", width: 18, height: 36 }), a);
  }

  function value(alt) {
    if (alt.single_dummy) return alt.single_dummy.points;
    return alt.double_dummy ? alt.double_dummy.points : 0;
  }

  function signed(x, digits) {
    const d = digits === undefined ? 2 : digits;
    const r = Number(x.toFixed(d));
    return (r > 0 ? "+" : r < 0 ? "−" : "") + Math.abs(r).toFixed(d);
  }

  function what(d, t) {
    const who = name(d.seat, t);
    if (d.kind === "call") return _("{who}, in the auction:", { who: who }) + " ";
    if (d.kind === "discard") return _("{who} discarded:", { who: who }) + " ";
    if (d.kind === "trump") return _("{who} named:", { who: who }) + " ";
    return _("Trick {n}: {who} played:", { n: d.trick, who: who }) + " ";
  }

  // -- the dialog ----------------------------------------------------------------

  function dialog() {
    let d = $("review");
    if (d) return d;
    d = el("dialog", { id: "review", class: "review", "aria-labelledby": "review-h" },
      el("div", { class: "rv-head" },
        el("h2", { id: "review-h", text: _("Review") }),
        el("label", { class: "rv-pick" }, _("Hand") + " ", el("select", { id: "review-hand",
          onchange: (ev) => open(Number(ev.target.value)) })),
        el("button", { type: "button", id: "review-close", class: "small", text: _("Close"),
          onclick: () => d.close() })),
      el("p", { id: "review-status", class: "rv-status", role: "status", "aria-live": "polite" }),
      el("div", { id: "review-body", class: "rv-body" }));
    d.addEventListener("close", () => { shown = null; });
    document.body.append(d);
    return d;
  }

  function finished() {
    const s = state();
    return s ? s.sheet.map((h) => h.number) : [];
  }

  function open(hand) {
    const t = table();
    if (!t || !hand) return;
    const d = dialog();
    shown = hand;
    const pick = $("review-hand");
    pick.replaceChildren(...finished().map((n) => el("option", { value: n, text: String(n),
      selected: n === hand })));
    $("review-h").textContent = _("Review of hand {n}", { n: hand });
    if (!d.open) d.showModal();
    const known = got.get(hand + "/" + t.over);
    if (known) { draw(known); return; }
    $("review-body").replaceChildren();
    status(_("reviewing…"), true);
    waiting = true;
    if (!send({ type: "review", hand: hand })) status(_("Not connected: reconnecting… try again."), false);
  }

  function status(text, busy) {
    const s = $("review-status");
    s.textContent = text;
    s.hidden = !text;
    s.classList.toggle("busy", !!busy);
    $("review").setAttribute("aria-busy", busy ? "true" : "false");
  }

  // -- messages from the server ----------------------------------------------------

  function onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "state") {
      // a spectator, or a seat where hints are off, has reviews once the game is over
      const t = msg.table;
      const b = $("review-hand-btn");
      if (b) b.hidden = !t.over && (t.seat === null || !t.hints);
    } else if (msg.type === "review") {
      const t = table();
      if (msg.status === "ready" && t) got.set(msg.hand + "/" + t.over, msg);
      if (msg.hand !== shown) return;
      if (msg.status === "computing") status(_("reviewing…"), true);
      else { waiting = false; draw(msg); }
    } else if (msg.type === "refused" && waiting && shown !== null &&
               ["not-now", "off", "unavailable", "too-fast", "bad-frame"].includes(msg.code)) {
      waiting = false;
      status(I.wire(msg.text, (s) => name(s, table() || { seat: null, seats: [] })), false);
    }
  }

  function draw(msg) {
    const t = table();
    const r = msg.review;
    const body = $("review-body");
    body.replaceChildren();
    if (!r || !t) { status(_("Nothing to show."), false); return; }
    status("", false);
    body.append(el("p", { class: "rv-scope", text: msg.scope === "own"
      ? _("Your decisions. Everyone's are shown once the game is over.")
      : _("Every player's decisions.") }));
    body.append(summary(r, t));
    const decisions = r.hands[0].decisions;
    if (!decisions.length) {
      body.append(el("p", { text: _("No decision to review: every move was forced.") }));
    }
    const list = el("ol", { class: "rv-list" });
    decisions.forEach((d) => list.append(decision(d, t)));
    body.append(list);
    body.append(el("p", { class: "note rv-how", text: _n("Expected points: the mean score of the hand for the player's side over {count} deal consistent with what the player could see, each played out perfectly. Marks by expected points lost: ?! {a}, ? {b}, ?? {c} (beyond the noise).",
      "Expected points: the mean score of the hand for the player's side over {count} deals consistent with what the player could see, each played out perfectly. Marks by expected points lost: ?! {a}, ? {b}, ?? {c} (beyond the noise).",
      r.samples, { a: r.thresholds["?!"], b: r.thresholds["?"], c: r.thresholds["??"] }) }));
  }

  function summary(r, t) {
    // each heading long, and short for a phone (review.css shows one of them)
    const head = el("tr", {}, ...[[_("Player"), _("Player")], [_("Decisions"), _("Dec.")], ["?!", "?!"],
      ["?", "?"], ["??", "??"], [_("Points lost"), _("Lost")], [_("Accuracy"), _("Acc.")]].map(([l, s]) =>
      el("th", { scope: "col", title: l }, el("span", { class: "rv-long", text: l }),
        el("span", { class: "rv-short", "aria-hidden": "true", text: s }))));
    const rows = r.players.map((p) => el("tr", {},
      el("th", { scope: "row", text: name(p.seat, t) }),
      el("td", { text: String(p.decisions) }),
      el("td", { text: String(p.marks["?!"]) }),
      el("td", { text: String(p.marks["?"]) }),
      el("td", { text: String(p.marks["??"]) }),
      el("td", { text: p.points_lost.toFixed(2) }),
      el("td", { text: p.accuracy === null ? "—" : Math.round(p.accuracy) + "%" })));
    return el("div", { class: "rv-summary-box" },
      el("table", { class: "rv-summary" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  function decision(d, t) {
    const best = d.alternatives.reduce((b, a) => (value(a) > value(b) ? a : b));
    const chosen = d.alternatives.find((a) => JSON.stringify(a.action) === JSON.stringify(d.chosen));
    const isBest = value(chosen) >= value(best);
    const li = el("li", { class: "rv-d" + (d.mark ? " rv-" + MARKS[d.mark] : "") });
    const mark = d.mark ? el("span", { class: "rv-mark", title: _(MARK_NAMES[d.mark]),
      "aria-label": _(MARK_NAMES[d.mark]), text: d.mark }) : el("span", { class: "rv-mark rv-none",
      "aria-hidden": "true", text: isBest ? "✓" : "·" });
    li.append(el("p", { class: "rv-line" }, mark, el("span", { text: what(d, t) }),
      actionNode(d.chosen, d.kind)));
    if (isBest) {
      li.append(el("p", { class: "rv-best", text: _("The best choice.") }));
    } else {
      li.append(el("p", { class: "rv-best" }, el("span", { text: _("Best:") + " " }),
        actionNode(best.action, d.kind),
        el("span", { text: " — " + (d.mark ? _("{points} points lost", { points: d.loss.toFixed(2) }) :
          _("{points} points lost (within the noise)", { points: d.loss.toFixed(2) })) })));
    }
    const rows = d.alternatives.map((a) => el("tr",
      { class: JSON.stringify(a.action) === JSON.stringify(d.chosen) ? "rv-chosen" : null },
      el("td", {}, actionNode(a.action, d.kind)),
      el("td", { text: a.single_dummy ? signed(a.single_dummy.points) + " ± " +
        a.single_dummy.se.toFixed(2) : "—" }),
      el("td", { text: a.double_dummy ? a.double_dummy.tricks + " / " +
        signed(a.double_dummy.points, 0) : _("not shown yet") })));
    li.append(el("details", { class: "rv-alts" }, el("summary", { text: _n("All {count} choice", "All {count} choices",
      d.alternatives.length) }),
      el("table", {}, el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: _("Choice") }),
        el("th", { scope: "col", text: _("Expected points") }),
        el("th", { scope: "col", text: _("Perfect play (tricks / points)") }))),
      el("tbody", {}, ...rows))));
    return li;
  }

  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("button.review-btn");
    if (!b) return;
    const s = state();
    if (s && s.last_hand) open(s.last_hand.number);
  });

  return {
    // table.js: its socket (each new one), how it sends, and the state it shows
    attach(ws, sender, current) {
      send = sender;
      state = current;
      ws.addEventListener("message", onMessage);
      if (shown !== null && waiting) {
        ws.addEventListener("open", () => { if (shown !== null) open(shown); }, { once: true });
      }
    },
    open: open,
  };
})();
