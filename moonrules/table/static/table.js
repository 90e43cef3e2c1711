// The Moon table page: one seat's (or a spectator's) view of a room, over a WebSocket.
// The protocol is spec/table.md. Everything shown comes from the server's messages;
// the page decides no rule: a refused move comes back with its clause, and the suit led,
// the tile winning the trick and the player's trumps are the server's rulings.
// The page numbers seats from 1 (the protocol from 0).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const I = window.MoonI18n;
  const _ = I._, _n = I._n, N_ = I.N_, Nn_ = I.Nn_;
  const TRUMP_NAMES = { 0: N_("blanks (0s)"), 1: N_("aces (1s)"), 2: N_("deuces (2s)"), 3: N_("treys (3s)"),
    4: N_("fours (4s)"), 5: N_("fives (5s)"), 6: N_("sixes (6s)"), doubles: N_("doubles"), none: N_("no trump") };
  const SUIT_NAMES = { 0: N_("blanks"), 1: N_("aces"), 2: N_("deuces"), 3: N_("treys"), 4: N_("fours"),
    5: N_("fives"), 6: N_("sixes"), trump: N_("trump") };
  const BOTS = { random: N_("{name} (random bot)"), basic: N_("{name} (basic bot)"),
    strong: N_("{name} (strong bot)"), pimc: N_("{name} (sampling bot)"),
    learned: N_("{name} (learned bot)") };
  const HOLD_MS = 1500;   // a finished trick stays this long, or until a click or a key
  let ws = null;
  let last = null;        // the state message drawn
  let queue = [];         // state messages waiting while a finished trick is held
  let hold = null;        // {trick, number, timer}: the finished trick on show
  let peek = false;       // the "last trick" view is open
  let focusedSeq = null;  // the state whose turn got the keyboard focus
  let retry = 0;
  let stopped = false;
  let hintFor = null;     // the seq a hint was asked for
  let noticeAt = null;    // the seq a notice came at (it goes a few actions later)
  let named = false;      // the stored name was sent once
  const NAME_KEY = "moon-name";
  const MAX_NAME = 24;

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

  function tileImg(t, alt) {
    return el("img", { src: "/tiles/" + t + ".svg", alt: alt === undefined ? t : alt,
      width: 48, height: 96 });
  }

  function trumpName(t) { return t in TRUMP_NAMES ? _(TRUMP_NAMES[t]) : String(t); }

  function suitName(s) { return s in SUIT_NAMES ? _(SUIT_NAMES[s]) : String(s); }

  // -- names: seats from 1, "You" for the page's own seat --------------------------

  function isPartner(s, t) {
    return t.partnership && t.seat !== null && s !== t.seat && s % 2 === t.seat % 2;
  }

  // A seat's player's name (text, shown as text), or "Seat N".
  function nameOf(s, t) { return t.seats[s].name || _("Seat {n}", { n: s + 1 }); }

  function seatName(s, t) {
    if (s === null || s === undefined) return _("nobody");
    if (t.seat === s) return _("You");
    const p = t.seats[s].player;
    let name = nameOf(s, t);
    if (isPartner(s, t)) name = _("{name} (your partner)", { name: name });
    if (p !== "human") name = p in BOTS ? _(BOTS[p], { name: name }) : name + " (" + p + ")";
    return name;
  }

  function shortName(s, t) { return t.seat === s ? _("You") : nameOf(s, t); }

  // the sentence agreeing with the seat: "You bid." / "Seat 2 bids."
  function verb(s, t, you, other) { return t.seat === s ? you : other; }

  function sideName(i, t) {
    if (!t.partnership) return seatName(i, t);
    const a = { n: i + 1, a: i + 1, b: i + 3 };
    if (t.seat !== null && t.seat % 2 === i) return _("Your team (seats {a} & {b})", a);
    return _("Team {n} (seats {a} & {b})", a);
  }

  function sideShort(i, t) {
    if (!t.partnership) return shortName(i, t);
    return t.seat !== null && t.seat % 2 === i ? _("Us") : _("Team {n}", { n: i + 1 });
  }

  function callText(c) { return c === "pass" ? _("pass") : c === 21 ? _("21 (moon)") : String(c); }

  function orList(items) { return I.list(items, "or"); }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function isLegal(action, legal) { return legal.some((x) => same(x, action)); }

  // -- the connection -------------------------------------------------------

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = proto + "//" + location.host + "/rooms/" + encodeURIComponent(roomId) + "/ws";
    if (token) url += "?token=" + encodeURIComponent(token);
    ws = new WebSocket(url);
    if (window.MoonReview) window.MoonReview.attach(ws, sendMessage, () => last);  // review.js
    ws.onopen = () => { retry = 0; setConn(_("connected"), false); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "state") { queue.push(msg); pump(); }
      else if (msg.type === "refused") showRefusal(msg);
      else if (msg.type === "hint") showHint(msg);
      else if (msg.type === "notice") showNotice(msg);
    };
    ws.onclose = (ev) => {
      ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        stopped = true;
        setConn(_("not connected"), true);
        $("status").textContent = ev.code === 4404 ? _("There is no such room.") : _("This link is not valid.");
        $("table").setAttribute("aria-busy", "false");
        return;
      }
      if (stopped) return;
      if (ev.code === 1012) {
        // the server stops and says why: the table is restarting; the game waits
        setConn(_("The table is restarting…"), true);
        retry = Math.min(retry + 1, 6);
        setTimeout(connect, 1000 + 400 * retry);
        return;
      }
      setConn(_("connection lost — reconnecting…"), true);
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 400 * retry);
    };
  }

  function setConn(text, down) {
    const c = $("conn");
    c.textContent = text;
    c.classList.toggle("down", down);
  }

  function send(action) {
    if (sendMessage({ type: "act", action: action })) peek = false;
  }

  function sendMessage(message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      showRefusal({ code: "offline", rule: null, legal: [],
        text: { domain: "table", key: N_("Not connected: reconnecting…"), args: {} } });
      return false;
    }
    ws.send(JSON.stringify(message));
    return true;
  }

  // -- people: a name per seat, one tab playing a seat, the rematch -----------------

  function cleanName(text) {
    return String(text || "").replace(/\s+/g, " ").trim();
  }

  function renderPeople(msg) {
    const t = msg.table;
    const mine = t.seat === null ? null : t.seats[t.seat];
    const form = $("name-form");
    if (mine && !mine.name && !t.over) {
      let stored = null;
      try { stored = localStorage.getItem(NAME_KEY); } catch (e) { /* private mode */ }
      if (stored && !named && msg.active) { named = true; sendMessage({ type: "name", name: stored }); }
      else if (form.hidden) {
        form.hidden = false;
        $("name-input").value = stored || "";
      }
    } else form.hidden = true;
    const box = $("elsewhere");
    if (t.seat !== null && !msg.active) {
      box.hidden = false;
      $("elsewhere-text").textContent = _("This seat is open in another tab or window, and is played there: this one only watches.");
      $("take-seat").hidden = false;
    } else if (t.seat !== null && msg.tabs > 1) {
      box.hidden = false;
      $("elsewhere-text").textContent = _("This seat is also open in another tab or window: you play it here; the other only watches.");
      $("take-seat").hidden = true;
    } else box.hidden = true;
  }

  $("name-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = cleanName($("name-input").value);
    if (!name) { $("name-input").focus(); return; }
    try { localStorage.setItem(NAME_KEY, name.slice(0, MAX_NAME)); } catch (e) { /* private mode */ }
    named = true;
    if (sendMessage({ type: "name", name: name })) { $("name-form").hidden = true; focusFirstChoice(); }
  });

  $("take-seat").addEventListener("click", () => sendMessage({ type: "take-seat" }));
  $("rematch").addEventListener("click", () => {
    if (sendMessage({ type: "rematch" })) $("rematch").textContent = _("Setting up the next game…");
  });

  // A rematch this seat asked for (or, for a spectator, any) was set up: the page goes to the
  // new room, a seat with its own link's token. A seat that did not ask is told who did.
  function followRematch(prev, msg) {
    const next = msg.table.next;
    if (!next) return false;
    const url = "/rooms/" + encodeURIComponent(next) + (token ? "#token=" + encodeURIComponent(token) : "");
    const link = $("rematch-link");
    link.href = url;
    link.hidden = false;
    $("rematch").hidden = true;
    if (prev && !prev.table.next) { stopped = true; if (ws) ws.close(1000); location.assign(url); return true; }
    return false;
  }

  // -- help: a hint, a claim --------------------------------------------------------

  function renderHelp(msg, legal) {
    const t = msg.table, v = msg.view;
    const mine = legal.length > 0 && msg.active;
    const bar = $("help");
    bar.hidden = !mine;
    const hint = $("hint");
    hint.setAttribute("aria-disabled", t.hints ? "false" : "true");
    hint.title = t.hints ? _("What the best bot at this table would do now") : _("Hints are turned off in this room");
    const claim = $("claim-box");
    claim.hidden = !(mine && v.phase === "play");
    if (!claim.hidden) {
      const left = 7 - v.tricks.length;
      const sel = $("claim-n");
      const want = sel.value;
      sel.replaceChildren(el("option", { value: "all", text: left === 1 ? _("the last trick") :
        _n("all {count} trick left", "all {count} tricks left", left) }));
      // with three players a claim is of every trick left (CLAIM-1); with four, of some of them too
      if (t.seats.length === 4) for (let k = left - 1; k >= 1; k--) sel.append(el("option", { value: String(k), text: _n("{count} trick", "{count} tricks", k) }));
      if (Array.from(sel.options).some((o) => o.value === want)) sel.value = want;
      $("claim").setAttribute("aria-disabled", t.claims ? "false" : "true");
      $("claim").title = t.claims ? _("Claim: the server checks it against every line of play") : _("Claims are turned off in this room");
    }
    if (hintFor !== null && (hintFor !== msg.seq || !msg.active)) { hintFor = null; $("hint-box").hidden = true; }
  }

  $("hint").addEventListener("click", () => {
    if (!last) return;
    hintFor = last.seq;
    const box = $("hint-box");
    box.hidden = false;
    box.textContent = _("Thinking…");
    if (!sendMessage({ type: "hint" })) box.hidden = true;
  });

  $("claim").addEventListener("click", () => {
    const n = $("claim-n").value;
    sendMessage({ type: "claim", tricks: n === "all" ? null : Number(n) });
  });

  function pct(p) { return Math.round(p * 100) + "%"; }

  function showHint(msg) {
    const box = $("hint-box");
    if (!last || msg.seq !== last.seq) { box.hidden = true; return; }  // the game moved on
    const v = last.view;
    const a = msg.action;
    let what;
    // the bot the server names (a server that names none hints with strong)
    if (msg.bot === "learned") {
      if (v.phase === "bidding") what = a === "pass" ? _("the learned bot would pass.") : _("the learned bot would bid {call}.", { call: callText(a) });
      else if (v.phase === "trump") what = _("the learned bot would name {trump} as trump.", { trump: trumpName(a) });
      else if (v.phase === "discard") what = _("the learned bot would discard {tile}.", { tile: a });
      else what = _("the learned bot would play {tile}.", { tile: a });
    } else {
      if (v.phase === "bidding") what = a === "pass" ? _("the strong bot would pass.") : _("the strong bot would bid {call}.", { call: callText(a) });
      else if (v.phase === "trump") what = _("the strong bot would name {trump} as trump.", { trump: trumpName(a) });
      else if (v.phase === "discard") what = _("the strong bot would discard {tile}.", { tile: a });
      else what = _("the strong bot would play {tile}.", { tile: a });
    }
    box.replaceChildren(el("strong", { text: _("Hint:") }), " " + what);
    const ad = msg.advice;
    if (ad) {
      const parts = ad.bids.map((b) => _("{call}: {pct} in {trump}", { call: callText(b.bid), pct: pct(b.p_make), trump: trumpName(b.trump) }));
      const best = ad.best.bid === 0 ? _("pass") : _("bid {call} in {trump}", { call: callText(ad.best.bid), trump: trumpName(ad.best.trump) });
      box.append(el("br"), _n("Chance of making each bid ({count} sample deal): {parts}. Best expected score: {best}.",
        "Chance of making each bid ({count} sample deals): {parts}. Best expected score: {best}.", ad.samples,
        { parts: parts.join("; "), best: best }));
    }
    box.hidden = false;
    document.querySelectorAll("#hand button.hinted, #choices button.hinted").forEach((b) => b.classList.remove("hinted"));
    const key = JSON.stringify(a);
    document.querySelectorAll("#hand button, #choices button").forEach((b) => {
      if (b.dataset.tile === a || b.dataset.action === key) b.classList.add("hinted");
    });
  }

  function showNotice(msg) {
    const t = last ? last.table : null;
    const text = msg.text ? I.wire(msg.text, (s) => (t ? seatName(s, t) : _("Seat {n}", { n: s + 1 })),
      { libSeat: (s) => String(s + 1) }) : "";
    $("notice").textContent = text;
    $("notice").hidden = false;
    noticeAt = last ? last.seq : 0;
    $("announce").textContent = text;
  }

  // -- finished tricks: each stays on the table until HOLD_MS pass or the player clicks ----

  // The trick a state finished, if it did: {trick, number, handEnd}.
  function finishedTrick(prev, msg) {
    if (!prev) return null;
    const pv = prev.view, v = msg.view;
    if (msg.hand_number === prev.hand_number && v.tricks.length > pv.tricks.length) {
      const over = msg.table.over && !prev.table.over;
      return { trick: v.tricks[v.tricks.length - 1], number: v.tricks.length, handEnd: over };
    }
    const h = msg.last_hand;
    if (msg.hand_number !== prev.hand_number && h && h.number === prev.hand_number &&
        h.tricks.length > pv.tricks.length) {
      return { trick: h.tricks[h.tricks.length - 1], number: h.tricks.length, handEnd: true };
    }
    return null;
  }

  function pump() {
    while (!hold && queue.length) {
      const msg = queue.shift();
      const prev = last;
      const done = msg.held ? null : finishedTrick(prev, msg);
      if (!msg.held) announce(prev, msg, done);
      // a client far behind (a spectator of fast bots) catches up without holding
      if (done && queue.length < 6) {
        hold = { trick: done.trick, number: done.number,
          timer: setTimeout(release, HOLD_MS) };
        document.body.dataset.hold = String(done.number);
        if (done.handEnd) {
          // the hand's last trick shows on the hand it ended, before the next deal
          msg.held = true;
          queue.unshift(msg);
          hideRefusal();
          last = handPlayed(prev, done.trick, msg.last_hand, msg);
          render(last, false);
          continue;
        }
      }
      if (followRematch(prev, msg)) return;
      last = msg;
      hideRefusal();
      render(msg, true);
    }
  }

  // The hand as it stands once its last trick is played: no tile left, nobody to act.
  function handPlayed(prev, trick, ended, msg) {
    const m = JSON.parse(JSON.stringify(prev));
    const v = m.view;
    // the whole hand as it ended (a claim plays out several tricks at once): from the hand
    // the next deal reports, or, when the game ended with it, from the final state itself
    let whole = null;
    if (ended && ended.number === prev.hand_number && ended.tricks.length === 7) {
      whole = ended;
    } else if (msg && msg.hand_number === prev.hand_number && msg.view.tricks.length === 7) {
      whole = msg.view;
    }
    if (whole) {
      v.hand = [];
      v.hand_sizes = v.hand_sizes.map(() => 0);
      v.tricks = whole.tricks;
      v.tricks_won = whole.tricks_won;
      v.trick = [];
      v.to_act = null;
      m.legal = [];
      m.trick_led = null;
      m.trick_winning = null;
      m.trumps = [];
      return m;
    }
    trick.tiles.forEach((tile, i) => {
      const s = (trick.leader + i) % m.table.players;
      if (i >= v.trick.length && v.hand_sizes[s] > 0) v.hand_sizes[s] -= 1;
    });
    v.hand = v.hand.filter((x) => !trick.tiles.includes(x));
    // the trumps the page marks are the tiles still held: a trump just played is gone
    m.trumps = (m.trumps || []).filter((x) => v.hand.includes(x));
    v.tricks = [...v.tricks, trick];
    v.tricks_won[trick.winner] += 1;
    v.trick = [];
    v.to_act = null;
    m.legal = [];
    m.trick_led = null;
    m.trick_winning = null;
    return m;
  }

  function release() {
    if (!hold) return;
    clearTimeout(hold.timer);
    hold = null;
    delete document.body.dataset.hold;
    if (last) renderTrick(last);
    pump();
    // a click on the table to go on must not leave the player's turn without the focus
    setTimeout(() => {
      const a = document.activeElement;
      if (!a || a === document.body) focusFirstChoice();
    }, 0);
  }

  // a click or a key anywhere lets the held trick go (a click on a tile also plays it)
  document.addEventListener("pointerdown", () => release(), true);
  document.addEventListener("keydown", (ev) => { if (ev.key !== "Tab" && ev.key !== "Shift") release(); }, true);

  // -- what others do, said to screen readers -------------------------------------

  function announce(prev, msg, done) {
    if (!prev) return;
    const t = msg.table, v = msg.view, pv = prev.view;
    const said = [];
    const newHand = msg.hand_number !== prev.hand_number;
    if (!newHand) {
      for (let i = pv.bids.length; i < v.bids.length; i++) {
        const s = (v.first_bidder + i) % t.players;
        if (s === t.seat) continue;
        said.push(v.bids[i] === "pass" ? _("{who} passes.", { who: shortName(s, t) }) :
          _("{who} bids {call}.", { who: shortName(s, t), call: callText(v.bids[i]) }));
      }
      if (v.trump !== null && pv.trump === null && v.bidder !== t.seat) {
        said.push(_("{who} names {trump} as trump.", { who: shortName(v.bidder, t), trump: trumpName(v.trump) }));
      }
    }
    // tiles played since the last state: those of the trick on the table, or of the one won
    let before = pv.trick.length, tiles = v.trick, leader = v.leader;
    if (done) { tiles = done.trick.tiles; leader = done.trick.leader; }
    else if (newHand || v.tricks.length !== pv.tricks.length) before = 0;
    for (let i = before; i < tiles.length; i++) {
      const s = (leader + i) % t.players;
      if (s !== t.seat) said.push(_("{who} plays {tile}.", { who: shortName(s, t), tile: tiles[i] }));
    }
    if (done) {
      const w = done.trick.winner;
      said.push(verb(w, t, _("You win trick {n}.", { n: done.number }),
        _("{who} wins trick {n}.", { who: shortName(w, t), n: done.number })));
    }
    if (newHand && !t.over) said.push(_("Hand {n} is dealt.", { n: msg.hand_number }));
    if (t.over && !prev.table.over) said.push(_("Game over."));
    if (said.length) $("announce").textContent = said.join(" ");
  }

  // -- refusals: beside the hand, in the second person ----------------------------

  function allowedText(legal, phase) {
    if (!legal || !legal.length) return "";
    if (phase === "bidding") {
      const bids = legal.filter((c) => c !== "pass").map(callText);
      const pass = legal.includes("pass");
      if (!bids.length) return _("You may only pass.");
      return pass ? _("You may pass or bid {bids}.", { bids: orList(bids) }) : _("You may bid {bids}.", { bids: orList(bids) });
    }
    if (phase === "trump") return _("You may name {trumps}.", { trumps: orList(legal.map(trumpName)) });
    if (phase === "discard") return _("You may discard {tiles}.", { tiles: orList(legal) });
    return _("You may play {tiles}.", { tiles: orList(legal) });
  }

  // The library's sentences about a seat's own move, said to that seat in the second person.
  const YOU = {
    "Seat {seat} does not hold the tile {tile}.": N_("You do not hold the tile {tile}."),
    "Seat {seat} led {tile} while holding a trump: the first lead of the hand must be a trump.":
      N_("You led {tile} while holding a trump: the first lead of the hand must be a trump."),
    "Seat {seat} played {tile} on a trump lead while holding {count} trump: a trump lead must be followed with a trump.":
      Nn_("You played {tile} on a trump lead while holding {count} trump: a trump lead must be followed with a trump.",
        "You played {tile} on a trump lead while holding {count} trumps: a trump lead must be followed with a trump."),
    "Seat {seat} played {tile} while holding {count} tile of the suit led: the suit led must be followed.":
      Nn_("You played {tile} while holding {count} tile of the suit led: the suit led must be followed.",
        "You played {tile} while holding {count} tiles of the suit led: the suit led must be followed."),
    "Seat {seat} may not act now: it is not their turn, or not the time for that action.":
      N_("You may not act now: it is not your turn, or not the time for that action."),
    "Seat {seat} cannot make this claim: a claim is made on one's turn during play, of a number of tricks the rules allow.":
      N_("You cannot make this claim: a claim is made on one's turn during play, of a number of tricks the rules allow."),
    "The claim of seat {seat} does not hold: the others have a line of play against it, and play goes on.":
      N_("Your claim does not hold: the others have a line of play against it, and play goes on."),
    "Seat {seat} cannot discard {tile}: it is not in their hand.":
      N_("You cannot discard {tile}: it is not in your hand."),
    "Seat {seat} named a trump these rules do not offer: {trump}.":
      N_("You named a trump these rules do not offer: {trump}."),
  };

  // A refusal: the server's sentence (message ids and fields) in the page's language.
  function showRefusal(msg) {
    const box = $("refusal");
    const t = last ? last.table : null;
    box.replaceChildren();
    let text = msg.text;
    if (text && text.domain === "moonrules" && t && t.seat !== null && text.args && text.args.seat === t.seat) {
      const k = Array.isArray(text.key) ? text.key[0] : text.key;
      if (Object.prototype.hasOwnProperty.call(YOU, k)) text = Object.assign({}, text, { domain: "table", key: YOU[k] });
    }
    const sentence = I.wire(text, (s) => (t ? seatName(s, t) : _("Seat {n}", { n: s + 1 })),
      { libSeat: (s) => String(s + 1) });
    box.append(el("strong", { text: _("Not allowed") }));
    if (msg.rule) box.append(" (", el("span", { class: "rule", text: msg.rule }), ")");
    box.append(": " + sentence);
    const allowed = allowedText(msg.legal, last ? last.view.phase : null);
    if (allowed) box.append(" ", el("span", { class: "allowed", text: allowed }));
    box.append(el("button", { type: "button", class: "close", "aria-label": _("Close this message"),
      onclick: hideRefusal }, "×"));
    box.hidden = false;
    document.body.dataset.refusals = String(Number(document.body.dataset.refusals || 0) + 1);
  }

  function hideRefusal() { $("refusal").hidden = true; }

  // -- drawing ------------------------------------------------------------------

  function render(msg, current) {
    const v = msg.view, t = msg.table, legal = current ? msg.legal : [];
    $("table").setAttribute("aria-busy", "false");
    document.body.classList.toggle("seated", t.seat !== null && !t.over);
    document.body.dataset.seq = String(msg.seq);
    document.body.dataset.hand = String(msg.hand_number);
    const whoParts = [_("Room {room}", { room: t.room }),
      t.seat === null ? _("watching") : t.seats[t.seat].name ?
        _("you are seat {n} ({name})", { n: t.seat + 1, name: t.seats[t.seat].name }) :
        _("you are seat {n}", { n: t.seat + 1 }),
      typeof t.rules === "string" ? I.presetName(t.rules) : _("house rules")];
    if (t.spectators) whoParts.push(_n("{count} spectator", "{count} spectators", t.spectators));
    $("who").textContent = whoParts.join(" · ");
    document.title = t.seat === null ? _("Moon — watching") : _("Moon — seat {n}", { n: t.seat + 1 });
    $("hand-no").textContent = _("· hand {n}", { n: msg.hand_number });
    // a tournament's board ends with its hand: the next hand dealt is never played, nor shown
    document.querySelector("section.board").hidden = !!(t.board && t.over);
    renderStatus(v, t, legal, msg.active);
    renderContract(v, t);
    renderSeats(v, t);
    renderClocks(msg);
    renderTrick(msg);
    renderScores(v, t);
    renderSheet(msg.sheet || [], t);
    renderAuction(v, t);
    const had = document.activeElement;
    const key = had && had.closest && had.closest("#dock") ? had.dataset.tile || had.dataset.action : null;
    renderMine(msg, legal);
    renderPeople(msg);
    if (noticeAt !== null && msg.seq > noticeAt + 6) { noticeAt = null; $("notice").hidden = true; }
    renderHelp(msg, legal);
    document.body.dataset.turn = legal.length ? "1" : "0";
    if (legal.length && msg.seq !== focusedSeq) { focusedSeq = msg.seq; focusFirstChoice(); }
    else if (key) {
      const again = Array.from(document.querySelectorAll("#dock button"))
        .find((b) => b.dataset.tile === key || b.dataset.action === key);
      if (again) again.focus({ preventScroll: true });
    }
    renderLastHand(msg.last_hand, v, t);
    renderOver(v, t);
  }

  // It is the player's turn: the keyboard focus goes to the first legal choice, a call or
  // trump before any tile.
  function focusFirstChoice() {
    const first = document.querySelector("#choices button.legal, #hand button.legal");
    if (first) first.focus({ preventScroll: true });
  }

  const YOUR_TURN = { bidding: N_("Your turn: call (pass or bid)."),
    discard: N_("Your turn: discard a tile after taking the widow."),
    trump: N_("Your turn: name trump."), play: N_("Your turn: play a tile.") };
  const WAITING = { bidding: N_("Waiting for {who} to call (pass or bid)."),
    discard: N_("Waiting for {who} to discard a tile after taking the widow."),
    trump: N_("Waiting for {who} to name trump."), play: N_("Waiting for {who} to play a tile.") };

  function yourTurn(phase) { return _(YOUR_TURN[phase] || N_("Your turn.")); }

  function renderStatus(v, t, legal, active) {
    const s = $("status");
    const p = $("prompt");
    const box = s.closest(".status");
    const mine = legal.length > 0;
    box.classList.toggle("my-turn", mine);
    $("mine").classList.toggle("my-turn", mine);
    box.hidden = t.over;  // the game-over panel says it, once
    if (t.over) { s.textContent = _("Game over."); p.textContent = ""; return; }
    if (v.to_act === null) { s.textContent = _("The hand is over."); p.textContent = s.textContent; return; }
    if (!t.started) {
      const waiting = t.seats.filter((x) => x.player === "human" && !x.joined).map((x) => _("Seat {n}", { n: x.seat + 1 }));
      s.textContent = _("Waiting for every player to open their link: {seats}.", { seats: I.list(waiting, "and") });
      p.textContent = _("The game has not started.");
      return;
    }
    if (!mine && !active && t.seat !== null && v.to_act === t.seat) {
      s.textContent = _("Your turn, played in your other tab: choose “Play here” to play it in this one.");
      p.textContent = _("Your turn, in your other tab.");
      return;
    }
    if (mine) s.textContent = yourTurn(v.phase);
    else s.textContent = _(WAITING[v.phase] || N_("Waiting for {who}."), { who: seatName(v.to_act, t) });
    p.textContent = mine ? yourTurn(v.phase) : _("Waiting for {who}.", { who: shortName(v.to_act, t) });
  }

  function renderContract(v, t) {
    const c = $("contract");
    if (v.bidder === null) { c.textContent = _("The auction is on."); return; }
    const a = { who: seatName(v.bidder, t), call: callText(v.bid), trump: v.trump === null ? "" : trumpName(v.trump) };
    c.textContent = v.trump === null ? _("{who} bid {call}; trump is not named yet.", a) :
      _("{who} bid {call}; trump: {trump}.", a);
  }

  function renderSeats(v, t) {
    const list = $("seats");
    list.replaceChildren();
    for (let s = 0; s < t.players; s++) {
      const info = t.seats[s];
      const backs = el("div", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < v.hand_sizes[s]; i++) backs.append(el("span", { class: "back" }));
      const call = v.bids.length ? lastCallOf(v, s, t) : null;
      const cls = "seat" + (v.to_act === s && !t.over ? " to-act" : "") + (t.seat === s ? " me" : "") +
        (isPartner(s, t) ? " partner" : "");
      const li = el("li", { class: cls },
        el("div", { class: "name" },
          el("span", { class: "dot" + (info.player !== "human" || info.online ? " on" : ""),
            title: info.player !== "human" ? _("bot") : info.online ? _("connected") : _("not connected") }),
          seatName(s, t)),
        el("div", { class: "meta", text: [_n("{count} tile", "{count} tiles", v.hand_sizes[s]),
          _n("{count} trick", "{count} tricks", v.tricks_won[s]),
          call === null ? null : call === "pass" ? _("passed") : _("bid {call}", { call: callText(call) }),
          info.player === "human" && !info.online ? _("away") : null].filter((x) => x !== null).join(" · ") }),
        backs);
      if (v.to_act === s && !t.over) li.setAttribute("aria-current", "true");
      list.append(li);
    }
  }

  // -- turn clocks (a room with the clock option) -------------------------------------
  // The server sends milliseconds left; the page counts down from when it heard them.

  let clock = null, clockHeard = 0, clockTimer = null, clockPeople = [];

  function clockText(ms) {
    const sec = Math.max(0, Math.ceil(ms / 1000));
    const m = Math.floor(sec / 60), r = sec % 60;
    return m >= 60 ? Math.floor(m / 60) + ":" + String(m % 60).padStart(2, "0") + ":" + String(r).padStart(2, "0")
      : m + ":" + String(r).padStart(2, "0");
  }

  function renderClocks(msg) {
    clock = msg.clock || null;
    clockHeard = performance.now();
    clockPeople = msg.table.seats.map((x) => x.player === "human");  // a bot's seat has no clock
    document.body.classList.toggle("clocked", clock !== null);
    if (clock === null) {
      if (clockTimer !== null) { clearInterval(clockTimer); clockTimer = null; }
      return;
    }
    const items = $("seats").children;
    for (let s = 0; s < items.length && s < clock.seats.length; s++) {
      items[s].append(el("div", { class: "clock", "data-seat": String(s) }));
    }
    tickClocks();
    if (clockTimer === null) clockTimer = setInterval(tickClocks, 250);
  }

  function tickClocks() {
    if (clock === null) return;
    const gone = performance.now() - clockHeard;
    for (const box of document.querySelectorAll("#seats .clock")) {
      const s = Number(box.dataset.seat), info = clock.seats[s];
      let text, cls = "clock";
      if (clock.running === s) {
        const turn = clock.turn_left - gone;
        const bank = clock.bank_left - Math.max(0, gone - clock.turn_left);
        text = turn > 0 ? clockText(turn) + (clock.bank_left > 0 ? " + " + clockText(clock.bank_left) : "")
          : clock.bank > 0 ? _("bank {time}", { time: clockText(bank) }) : clockText(0);
        cls += " running" + (turn <= 0 ? " low" : "");
      } else {
        text = clock.bank > 0 && clockPeople[s] ? _("bank {time}", { time: clockText(info.bank) }) : "";
      }
      if (info.auto) { text = (text ? text + " · " : "") + _("played by the clock"); cls += " auto"; }
      box.className = cls;
      if (box.textContent !== text) box.textContent = text;
      box.title = clock.running === s ? _("this seat's time: its turn, then its bank") : _("time left in this seat's bank");
    }
  }

  function lastCallOf(v, s, t) {
    let call = null;
    for (let i = 0; i < v.bids.length; i++) {
      if ((v.first_bidder + i) % t.players === s) call = v.bids[i];
    }
    return call;
  }

  // The last trick won: of this hand, else the hand before's last.
  function lastTrickOf(msg) {
    const v = msg.view;
    if (v.tricks.length) return { trick: v.tricks[v.tricks.length - 1], number: v.tricks.length };
    const h = msg.last_hand;
    if (h && h.tricks.length && msg.view.phase !== "play") {
      return { trick: h.tricks[h.tricks.length - 1], number: h.tricks.length };
    }
    return null;
  }

  function renderTrick(msg) {
    const v = msg.view, t = msg.table;
    const list = $("trick");
    const note = $("trick-note");
    const area = $("trick-area");
    const btn = $("last-trick");
    list.replaceChildren();
    const prior = lastTrickOf(msg);
    btn.hidden = !prior || !!hold;
    if (!prior) peek = false;
    btn.setAttribute("aria-pressed", peek ? "true" : "false");
    btn.textContent = peek ? _("Back to this trick") : _("Last trick");
    let shown = null, title = _("Trick"), text = "";
    let tiles = v.trick, leader = v.leader, winner = null, winning = msg.trick_winning;
    if (hold || peek) {
      shown = hold || prior;
      tiles = shown.trick.tiles; leader = shown.trick.leader; winner = shown.trick.winner; winning = null;
      title = hold ? _("Trick {n}", { n: shown.number }) : _("Last trick: trick {n}", { n: shown.number });
      text = _("Won by {who}.", { who: seatName(winner, t) }) + (hold ? " " + _("Click or press a key to go on.") : "");
    } else if (v.phase === "play") {
      title = _("Trick {n}", { n: v.tricks.length + 1 });
      if (!tiles.length) text = verb(v.to_act, t, _("You lead."), _("{who} leads.", { who: seatName(v.to_act, t) }));
      else {
        const led = { suit: suitName(msg.trick_led) };
        if (winning !== null && winning !== undefined) {
          text = verb(winning, t, _("{suit} led · you are winning so far.", led),
            _("{suit} led · {who} is winning so far.", Object.assign({ who: seatName(winning, t) }, led)));
        } else text = _("{suit} led.", led);
      }
    } else {
      text = t.over ? "" : v.phase === "bidding" ? _("No trick yet: the auction is on.") : _("No trick yet.");
    }
    $("trick-h").textContent = title;
    note.textContent = text.charAt(0).toUpperCase() + text.slice(1);
    area.classList.toggle("held", !!hold);
    area.classList.toggle("peek", peek && !hold);
    tiles.forEach((tile, i) => {
      const seat = (leader + i) % t.players;
      const marks = [];
      if (i === 0) marks.push(_("led"));
      if (seat === winner) marks.push(_("won the trick"));
      else if (winner === null && seat === winning) marks.push(_("winning"));
      const label = _("{tile}, played by {who}", { tile: tile, who: seatName(seat, t) }) + (marks.length ? " (" + marks.join(", ") + ")" : "");
      list.append(el("li", { class: (i === 0 ? "led" : "") + (seat === winner ? " winner" : "") +
          (winner === null && seat === winning ? " winning" : "") },
        tileImg(tile, label), el("span", { class: "by", text: shortName(seat, t) }),
        marks.length ? el("span", { class: "mark", "aria-hidden": "true", text: marks.join(" · ") }) : null));
    });
  }

  // a click on the table (to go on from a finished trick) leaves the focus where it is
  $("trick-area").addEventListener("mousedown", (ev) => {
    if (!ev.target.closest("button")) ev.preventDefault();
  });

  $("last-trick").addEventListener("click", () => {
    peek = !peek;
    if (last) renderTrick(last);
  });

  function renderScores(v, t) {
    const table = $("scores");
    table.replaceChildren(el("caption", { class: "visually-hidden", text: _("Scores") }),
      el("tr", {}, el("th", { scope: "col", text: t.partnership ? _("Team") : _("Seat") }),
        el("th", { scope: "col", text: _("Score") })));
    v.scores.forEach((score, i) => {
      table.append(el("tr", {}, el("th", { scope: "row", text: sideName(i, t) }),
        el("td", { class: "num", text: String(score) })));
    });
    table.append(el("tr", {}, el("th", { scope: "row", text: _("Target") }),
      el("td", { class: "num", text: String(t.target) })));
  }

  function trumpShort(x) {
    return x === null ? "" : x in SUIT_NAMES ? _(SUIT_NAMES[x]) : x === "none" ? _("no trump") : x === "doubles" ? _("doubles") : String(x);
  }

  function renderSheet(sheet, t) {
    const table = $("sheet");
    const sides = t.partnership ? 2 : t.players;
    const head = el("tr", {}, el("th", { scope: "col", text: _("Hand") }),
      el("th", { scope: "col", text: _("Contract") }), el("th", { scope: "col", text: _("Tricks") }));
    for (let i = 0; i < sides; i++) head.append(el("th", { scope: "col", class: "num", text: sideShort(i, t) }));
    table.replaceChildren(el("caption", { class: "visually-hidden", text: _("Every hand: contract, tricks and points") }), head);
    if (!sheet.length) {
      table.append(el("tr", {}, el("td", { colspan: String(3 + sides), text: _("No hand has ended yet.") })));
      return;
    }
    sheet.forEach((h) => {
      let contract, tricks;
      if (h.thrown_in) { contract = _("thrown in"); tricks = "—"; }
      else {
        contract = _("{who}: {call} in {trump}", { who: shortName(h.bidder, t), call: callText(h.bid), trump: trumpShort(h.trump) });
        tricks = h.renege !== null ? _("renege by {who}", { who: shortName(h.renege, t) }) :
          h.made ? _("{n} made", { n: h.bidder_tricks }) : _("{n} set", { n: h.bidder_tricks });
      }
      const row = el("tr", {}, el("th", { scope: "row", text: String(h.number) }),
        el("td", { text: contract }), el("td", { text: tricks }));
      h.deltas.forEach((d) => row.append(el("td", { class: "num", text: (d > 0 ? "+" : "") + d })));
      table.append(row);
    });
  }

  function renderAuction(v, t) {
    const list = $("auction");
    list.replaceChildren();
    if (!v.bids.length) {
      list.append(el("li", { class: "first", text: verb(v.first_bidder, t, _("You call first."),
        _("{who} calls first.", { who: seatName(v.first_bidder, t) })) }));
      return;
    }
    v.bids.forEach((c, i) => {
      const seat = (v.first_bidder + i) % t.players;
      list.append(el("li", { text: seatName(seat, t) + ": " + callText(c) }));
    });
  }

  function renderMine(msg, legal) {
    const v = msg.view, t = msg.table;
    const section = $("mine");
    const dock = $("dock");
    if (t.seat === null || t.over) { dock.hidden = true; dockSize(); return; }
    dock.hidden = false;
    const choices = $("choices");
    choices.replaceChildren();
    const widow = $("widow");
    widow.textContent = "";
    if (v.widow !== null) {
      widow.textContent = v.discard !== null ? _("You took the widow, {tile}; you discarded {discard}.", { tile: v.widow, discard: v.discard }) :
        _("You took the widow, {tile}.", { tile: v.widow });
    }
    const myTurn = legal.length > 0;
    choices.hidden = !(myTurn && (v.phase === "bidding" || v.phase === "trump"));
    if (myTurn && v.phase === "bidding") {
      ["pass", ...t.bids].forEach((c) => choices.append(choice(c, callText(c),
        c === "pass" ? _("Pass") : c === 21 ? _("Bid {call}: all 7 tricks", { call: callText(c) }) :
          _("Bid {call}: {call} of the 7 tricks", { call: callText(c) }), legal)));
    } else if (myTurn && v.phase === "trump") {
      t.trumps.forEach((x) => choices.append(choice(x, trumpName(x), _("Name {trump} as trump", { trump: trumpName(x) }), legal)));
    }
    const verbText = v.phase === "discard" ? N_("Discard {tile}") : N_("Play {tile}");
    const tileTurn = myTurn && (v.phase === "play" || v.phase === "discard");
    const hand = $("hand");
    hand.replaceChildren();
    const trumps = msg.trumps || [];
    // trumps first, highest first as the server lists them; then the rest in the hand's order
    const tiles = [...trumps, ...v.hand.filter((x) => !trumps.includes(x))];
    tiles.forEach((tile) => {
      const ok = tileTurn && isLegal(tile, legal);
      const trump = trumps.includes(tile);
      const fromWidow = v.widow === tile;
      const what = tile + (trump ? _(", trump") : "") + (fromWidow ? _(", from the widow") : "");
      const label = tileTurn ? _(verbText, { tile: what }) + (ok ? "" : _(" (not allowed now)")) : what;
      const b = el("button", { type: "button", class: "tile" + (ok ? " legal" : tileTurn ? " not-legal" : "") +
          (trump ? " trump" : "") + (fromWidow ? " from-widow" : ""),
        "aria-label": label, "data-tile": tile, "aria-disabled": tileTurn ? null : "true",
        onclick: () => { if (tileTurn) send(tile); },
        onkeydown: arrowKeys }, tileImg(tile, ""), el("span", { class: "tname", text: tile }),
        trump || fromWidow ? el("span", { class: "badge", "aria-hidden": "true", text: trump ? _("trump") : _("widow") }) : null);
      hand.append(el("li", {}, b));
    });
    section.dataset.tiles = String(tiles.length);
    dockSize();
  }

  function choice(action, text, label, legal) {
    const ok = isLegal(action, legal);
    return el("button", { type: "button", class: "choice " + (ok ? "legal" : "not-legal"),
      "aria-label": label + (ok ? "" : _(" (not allowed now)")), "data-action": JSON.stringify(action),
      onclick: () => send(action), onkeydown: arrowKeys }, text);
  }

  function arrowKeys(ev) {
    if (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft") return;
    const group = ev.currentTarget.closest(".hand, .choices");
    const buttons = Array.from(group.querySelectorAll("button"));
    const i = buttons.indexOf(ev.currentTarget);
    const next = buttons[(i + (ev.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    if (next) { next.focus(); ev.preventDefault(); }
  }

  // On a phone the dock (the hand and the choices) is pinned to the bottom: the page keeps
  // room for it below everything else.
  function dockSize() {
    const dock = $("dock");
    const h = dock.hidden ? 0 : dock.getBoundingClientRect().height;
    document.documentElement.style.setProperty("--dock", Math.ceil(h) + "px");
  }
  if (window.ResizeObserver) new ResizeObserver(dockSize).observe($("dock"));
  window.addEventListener("resize", dockSize);

  function renderLastHand(h, v, t) {
    const section = $("last-hand");
    const show = h && (t.over || v.phase === "bidding" && v.bids.length < t.players);
    if (!show) { section.hidden = true; return; }
    section.hidden = false;
    $("last-h").textContent = t.over ? _("Hand {n}, the last", { n: h.number }) : _("Hand {n}, just ended", { n: h.number });
    const body = $("last-body");
    body.replaceChildren();
    let text;
    if (h.thrown_in) text = _("Everybody passed: the hand was thrown in.");
    else if (h.renege !== null) text = _("{who} reneged: the hand ended with the penalty.", { who: seatName(h.renege, t) });
    else {
      const a = { who: seatName(h.bidder, t), call: callText(h.bid), trump: trumpName(h.trump) };
      text = h.made ? _("{who} bid {call} in {trump} and made it.", a) :
        verb(h.bidder, t, _("You bid {call} in {trump} and were set.", a), _("{who} bid {call} in {trump} and was set.", a));
    }
    body.append(el("p", { text: text }));
    if (!h.thrown_in) {
      body.append(el("p", { text: _("Tricks won: {list}.", { list: h.tricks_won.map((n, s) => seatName(s, t) + " " + n).join(", ") }) }));
    }
    body.append(el("p", { class: "deltas", text: _("Score change: {list}.", { list:
      h.deltas.map((d, i) => sideName(i, t) + " " + (d > 0 ? "+" : "") + d).join(", ") }) }));
    const tricks = el("div", { class: "last-tricks", "aria-label": _("The hand's tricks") });
    h.tricks.forEach((tr, k) => {
      const g = el("div", { class: "t", role: "img", "aria-label": _("Trick {n}: {tiles}, won by {who}", { n: k + 1, tiles: tr.tiles.join(", "), who: seatName(tr.winner, t) }) });
      tr.tiles.forEach((tile, i) => {
        const img = tileImg(tile, "");
        if ((tr.leader + i) % t.players === tr.winner) img.className = "w";
        g.append(img);
      });
      tricks.append(g);
    });
    body.append(tricks);
  }

  function renderOver(v, t) {
    const section = $("game-over");
    if (!t.over) { section.hidden = true; return; }
    if (section.hidden) $("sheet-box").open = true;  // the whole game's sheet, at its end
    section.hidden = false;
    const winner = v.winner;
    const scores = v.scores.map((n, i) => sideName(i, t) + " " + n).join(", ") + ".";
    let text = t.partnership ? _("{who} wins the game: {scores}", { who: sideName(winner, t), scores: scores }) :
      verb(winner, t, _("You win the game: {scores}", { scores: scores }),
        _("{who} wins the game: {scores}", { who: seatName(winner, t), scores: scores }));
    if (t.board) text = _("The board is played (one hand, for the event's standings): {scores}", { scores: scores });
    $("over-text").textContent = text;
    followRematch(null, { table: t });
    const asked = (t.rematch || []).filter((s) => s !== t.seat);
    const askedText = $("rematch-asked");
    askedText.hidden = t.seat === null || !!t.next || !asked.length;
    askedText.textContent = asked.length ? _n("{names} asks to play again: choose “Play again” to join the next game.",
      "{names} ask to play again: choose “Play again” to join the next game.", asked.length,
      { names: I.list(asked.map((s) => nameOf(s, t)), "and") }) : "";
    $("rematch").hidden = t.seat === null || !!t.next || !!t.board;
    $("over-watch").hidden = t.seat !== null || !!t.next;
    const link = $("record-link");
    link.href = "/rooms/" + encodeURIComponent(roomId) + "/record";
    link.setAttribute("download", "moon-" + roomId + ".json");
  }

  I.ready.then(connect);
})();
