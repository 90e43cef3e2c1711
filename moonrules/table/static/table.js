// The Moon table page: one seat's (or a spectator's) view of a room, over a WebSocket.
// The protocol is spec/table.md. Everything shown comes from the server's messages;
// the page decides no rule: a refused move comes back with its clause.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const TRUMP_NAMES = { 0: "blanks", 1: "aces", 2: "deuces", 3: "treys", 4: "fours",
    5: "fives", 6: "sixes", doubles: "doubles", none: "no trump" };
  let ws = null;
  let last = null;        // the last state message
  let retry = 0;
  let stopped = false;
  let focusTile = null;   // keep the keyboard focus on the same tile across redraws

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

  function trumpName(t) { return TRUMP_NAMES[t] || String(t); }

  function seatName(s, table) {
    if (s === null || s === undefined) return "nobody";
    if (table.seat === s) return "You";
    const p = table.seats[s].player;
    return "Seat " + s + (p === "human" ? "" : " (" + p + " bot)");
  }

  function sideName(i, table) {
    if (!table.partnership) return seatName(i, table);
    const mine = table.seat !== null && table.seat % 2 === i ? " — yours" : "";
    return "Team " + i + " (seats " + i + " & " + (i + 2) + ")" + mine;
  }

  function callText(c) { return c === "pass" ? "pass" : c === 21 ? "21 (moon)" : String(c); }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function isLegal(action, legal) { return legal.some((x) => same(x, action)); }

  // -- the connection -------------------------------------------------------

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = proto + "//" + location.host + "/rooms/" + encodeURIComponent(roomId) + "/ws";
    if (token) url += "?token=" + encodeURIComponent(token);
    ws = new WebSocket(url);
    ws.onopen = () => { retry = 0; setConn("connected", false); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "state") { last = msg; hideRefusal(); render(msg); }
      else if (msg.type === "refused") showRefusal(msg);
    };
    ws.onclose = (ev) => {
      ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        stopped = true;
        setConn("not connected", true);
        $("status").textContent = ev.reason || "This link is not valid.";
        $("table").setAttribute("aria-busy", "false");
        return;
      }
      if (stopped) return;
      setConn("connection lost — reconnecting…", true);
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
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      showRefusal({ code: "offline", rule: null, message: "Not connected: reconnecting…", legal: [] });
      return;
    }
    ws.send(JSON.stringify({ type: "act", action: action }));
  }

  // -- refusals ---------------------------------------------------------------

  function showRefusal(msg) {
    const box = $("refusal");
    box.replaceChildren();
    box.append(el("strong", { text: "Refused" }));
    if (msg.rule) box.append(" — ", el("span", { class: "rule", text: msg.rule }));
    box.append(": ", msg.message);
    if (msg.legal && msg.legal.length) {
      box.append(el("br"), "Allowed now: " + msg.legal.map(callOrTile).join(", "));
    }
    box.hidden = false;
    document.body.dataset.refusals = String(Number(document.body.dataset.refusals || 0) + 1);
  }

  function hideRefusal() { $("refusal").hidden = true; }

  function callOrTile(a) {
    if (!last) return String(a);
    const phase = last.view.phase;
    if (phase === "bidding") return callText(a);
    if (phase === "trump") return trumpName(a);
    return String(a);
  }

  // -- drawing ------------------------------------------------------------------

  function render(msg) {
    const v = msg.view, t = msg.table, legal = msg.legal;
    $("table").setAttribute("aria-busy", "false");
    document.body.dataset.seq = String(msg.seq);
    $("who").textContent = "Room " + t.room + " · " +
      (t.seat === null ? "watching" : "you are seat " + t.seat) +
      " · " + (typeof t.rules === "string" ? t.rules : "house rules");
    document.title = "Moon — " + (t.seat === null ? "watching" : "seat " + t.seat);
    renderStatus(v, t, legal);
    renderContract(v, t);
    renderSeats(v, t);
    renderTrick(v, t);
    renderScores(v, t);
    renderAuction(v, t);
    renderMine(v, t, legal);
    renderLastHand(msg.last_hand, v, t);
    renderOver(v, t);
  }

  function renderStatus(v, t, legal) {
    const s = $("status");
    const box = s.closest(".status");
    const mine = legal.length > 0;
    box.classList.toggle("my-turn", mine);
    if (t.over) { s.textContent = "The game is over."; return; }
    if (!t.started) {
      const waiting = t.seats.filter((x) => x.player === "human" && !x.joined).map((x) => "seat " + x.seat);
      s.textContent = "Waiting for every player to open their link: " + waiting.join(", ") + ".";
      return;
    }
    const who = seatName(v.to_act, t);
    const what = { bidding: "call (pass or bid)", discard: "discard a tile after taking the widow",
      trump: "name trump", play: "play a tile" }[v.phase] || "act";
    if (mine) s.textContent = "Your turn: " + what + ".";
    else s.textContent = "Waiting for " + who + " to " + what + ".";
  }

  function renderContract(v, t) {
    const c = $("contract");
    if (v.bidder === null) { c.textContent = "The auction is on."; return; }
    let text = seatName(v.bidder, t) + (t.seat === v.bidder ? " bid " : " bids ") + callText(v.bid);
    text += v.trump === null ? "; trump not named yet." : "; trump: " + trumpName(v.trump) + ".";
    c.textContent = text;
  }

  function renderSeats(v, t) {
    const list = $("seats");
    list.replaceChildren();
    for (let s = 0; s < t.players; s++) {
      const info = t.seats[s];
      const backs = el("div", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < v.hand_sizes[s]; i++) backs.append(el("span", { class: "back" }));
      const call = v.bids.length ? lastCallOf(v, s, t) : null;
      const li = el("li", { class: "seat" + (v.to_act === s && !t.over ? " to-act" : "") + (t.seat === s ? " me" : "") },
        el("div", { class: "name" },
          el("span", { class: "dot" + (info.player !== "human" || info.online ? " on" : ""),
            title: info.player !== "human" ? "bot" : info.online ? "connected" : "not connected" }),
          seatName(s, t)),
        el("div", { class: "meta", text: v.hand_sizes[s] + " tiles · " + v.tricks_won[s] +
          (v.tricks_won[s] === 1 ? " trick" : " tricks") + (call !== null ? " · called " + callText(call) : "") +
          (info.player === "human" && !info.online ? " · away" : "") }),
        backs);
      if (v.to_act === s && !t.over) li.setAttribute("aria-current", "true");
      list.append(li);
    }
  }

  function lastCallOf(v, s, t) {
    let call = null;
    for (let i = 0; i < v.bids.length; i++) {
      if ((v.first_bidder + i) % t.players === s) call = v.bids[i];
    }
    return call;
  }

  function renderTrick(v, t) {
    const list = $("trick");
    const note = $("trick-note");
    list.replaceChildren();
    let tiles = v.trick, leader = v.leader, winner = null, faded = false;
    if (!tiles.length && v.tricks.length) {
      const tr = v.tricks[v.tricks.length - 1];
      tiles = tr.tiles; leader = tr.leader; winner = tr.winner; faded = true;
      note.textContent = "Last trick, won by " + seatName(winner, t) + ".";
    } else if (v.phase === "play" && !tiles.length) {
      note.textContent = seatName(v.to_act, t) + " to lead.";
    } else {
      note.textContent = "";
    }
    list.classList.toggle("faded", faded);
    tiles.forEach((tile, i) => {
      const seat = (leader + i) % t.players;
      list.append(el("li", { class: seat === winner ? "winner" : null },
        tileImg(tile, tile + " played by " + seatName(seat, t)), el("span", { text: seatName(seat, t) })));
    });
  }

  function renderScores(v, t) {
    const table = $("scores");
    table.replaceChildren(el("caption", { class: "visually-hidden", text: "Scores" }),
      el("tr", {}, el("th", { scope: "col", text: t.partnership ? "Team" : "Seat" }),
        el("th", { scope: "col", text: "Score" })));
    v.scores.forEach((score, i) => {
      table.append(el("tr", {}, el("th", { scope: "row", text: sideName(i, t) }),
        el("td", { class: "num", text: String(score) })));
    });
    table.append(el("tr", {}, el("th", { scope: "row", text: "Target" }),
      el("td", { class: "num", text: String(t.target) })));
  }

  function renderAuction(v, t) {
    const list = $("auction");
    list.replaceChildren();
    if (!v.bids.length) { list.append(el("li", { text: seatName(v.first_bidder, t) + " calls first." })); return; }
    v.bids.forEach((c, i) => {
      const seat = (v.first_bidder + i) % t.players;
      list.append(el("li", { text: seatName(seat, t) + ": " + callText(c) }));
    });
  }

  function renderMine(v, t, legal) {
    const section = $("mine");
    if (t.seat === null || t.over) { section.hidden = true; return; }
    section.hidden = false;
    const choices = $("choices");
    choices.replaceChildren();
    const widow = $("widow");
    widow.textContent = "";
    if (v.widow !== null) {
      widow.textContent = "You took the widow, " + v.widow + (v.discard !== null ? "; you discarded " + v.discard + "." : ".");
    }
    const myTurn = legal.length > 0;
    if (myTurn && v.phase === "bidding") {
      ["pass", ...t.bids].forEach((c) => choices.append(choice(c, callText(c), "Call " + callText(c), legal)));
    } else if (myTurn && v.phase === "trump") {
      t.trumps.forEach((x) => choices.append(choice(x, trumpName(x), "Name " + trumpName(x) + " as trump", legal)));
    }
    const verb = v.phase === "discard" ? "Discard" : "Play";
    const tileTurn = myTurn && (v.phase === "play" || v.phase === "discard");
    const hand = $("hand");
    hand.replaceChildren();
    v.hand.forEach((tile) => {
      const ok = tileTurn && isLegal(tile, legal);
      const label = tileTurn ? verb + " " + tile + (ok ? "" : " (not allowed now)") : tile;
      const b = el("button", { type: "button", class: "tile" + (ok ? " legal" : tileTurn ? " not-legal" : ""),
        "aria-label": label, "data-tile": tile, "aria-disabled": tileTurn ? null : "true",
        onclick: () => { if (tileTurn) { focusTile = tile; send(tile); } },
        onkeydown: arrowKeys }, tileImg(tile, ""), el("span", { text: tile }));
      hand.append(el("li", {}, b));
    });
    if (focusTile !== null) {
      const again = hand.querySelector('[data-tile="' + focusTile + '"]') || hand.querySelector("button.legal") || hand.querySelector("button");
      if (again && tileTurn) again.focus();
      focusTile = null;
    }
  }

  function choice(action, text, label, legal) {
    const ok = isLegal(action, legal);
    return el("button", { type: "button", class: "choice " + (ok ? "legal" : "not-legal"),
      "aria-label": label + (ok ? "" : " (not allowed now)"), "data-action": JSON.stringify(action),
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

  function renderLastHand(h, v, t) {
    const section = $("last-hand");
    const show = h && (t.over || v.phase === "bidding" && v.bids.length < t.players);
    if (!show) { section.hidden = true; return; }
    section.hidden = false;
    $("last-h").textContent = "Hand " + h.number + (t.over ? ", the last" : ", just ended");
    const body = $("last-body");
    body.replaceChildren();
    let text;
    if (h.thrown_in) text = "Everybody passed: the hand was thrown in.";
    else if (h.renege !== null) text = seatName(h.renege, t) + " reneged: the hand ended with the penalty.";
    else {
      text = seatName(h.bidder, t) + " bid " + callText(h.bid) + " in " + trumpName(h.trump) + " and " +
        (h.made ? "made it" : "was set") + ".";
    }
    body.append(el("p", { text: text }));
    if (!h.thrown_in) {
      body.append(el("p", { text: "Tricks won: " + h.tricks_won.map((n, s) => seatName(s, t) + " " + n).join(", ") + "." }));
    }
    body.append(el("p", { class: "deltas", text: "Score change: " +
      h.deltas.map((d, i) => sideName(i, t) + " " + (d > 0 ? "+" : "") + d).join(", ") + "." }));
    const tricks = el("div", { class: "last-tricks", "aria-label": "The hand's tricks" });
    h.tricks.forEach((tr, k) => {
      const g = el("div", { class: "t", role: "img", "aria-label": "Trick " + (k + 1) + ": " + tr.tiles.join(", ") + ", won by " + seatName(tr.winner, t) });
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
    section.hidden = false;
    const winner = v.winner;
    let text = t.partnership ? sideName(winner, t) + " wins the game" : seatName(winner, t) + (t.seat === winner ? " win the game" : " wins the game");
    text += ": " + v.scores.map((n, i) => sideName(i, t) + " " + n).join(", ") + ".";
    $("over-text").textContent = text;
    const link = $("record-link");
    link.href = "/rooms/" + encodeURIComponent(roomId) + "/record";
    link.setAttribute("download", "moon-" + roomId + ".json");
  }

  connect();
})();
