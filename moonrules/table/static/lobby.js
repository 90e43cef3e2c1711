// The lobby: create a room (POST /api/rooms, see spec/table.md) and show its links.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let presets = [];
  let bots = ["random", "basic", "strong"];
  // What each preset changes from the standard game (spec/rules.md, "Presets").
  const PRESET_TEXT = {
    "standard": "Three players, 22 tiles and a one-tile widow the bidder takes before naming trump. Bids 4 to 7, or 21 (moon, all 7 tricks); first to 21 points.",
    "partnership": "Four players in two teams (seats 1 & 3 against 2 & 4), all 28 tiles, no widow.",
    "partnership-forced": "Partnerships; when the first three pass, the last to call must bid.",
    "partnership-min3": "Partnerships, with bids from 3 tricks.",
    "partnership-min5": "Partnerships, with bids from 5 tricks.",
    "pagat": "Three players; the widow is taken after trump is named, doubles cannot be trump, and a made moon scores 21.",
    "no-double-blank": "Three players with 21 tiles (no double blank, no widow); blanks cannot be trump.",
    "marks": "Three players scoring marks: a hand won is one mark; first to 7 marks.",
    "lead-trump": "Three players; the first lead of each hand must be a trump when the leader holds one.",
    "bidder-out": "Three players; when two reach the target in the same hand, the bidder goes out first.",
    "renege-penalty": "Three players; a renege is not refused but ends the hand with a penalty.",
  };
  const BOT_TEXT = {
    "random": "plays any legal move: for learning the controls.",
    "basic": "follows simple rules of thumb: bids its sure tricks, plays its high tiles.",
    "pimc": "searches sampled deals: strong, and a little slower.",
    "strong": "the strongest bot: searches the deals it cannot see and bids by its chances.",
  };

  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    if (selected) o.selected = true;
    return o;
  }

  function players() {
    const p = presets.find((x) => x.name === $("rules").value);
    return p ? p.players : 3;
  }

  function describe() {
    const p = presets.find((x) => x.name === $("rules").value);
    const text = PRESET_TEXT[$("rules").value] ||
      (p ? p.players + " players" + (p.partnership ? " in partnerships" : "") + "." : "");
    $("rules-desc").textContent = text;
    const list = $("bot-help");
    list.replaceChildren();
    const dt = (t) => { const e = document.createElement("dt"); e.textContent = t; return e; };
    const dd = (t) => { const e = document.createElement("dd"); e.textContent = t; return e; };
    list.append(dt("a person"), dd("gets a secret link to send to the player."));
    bots.forEach((b) => list.append(dt(b + " bot"), dd(BOT_TEXT[b] || "a bot of the server.")));
  }

  function drawSeats() {
    describe();
    const box = $("seats");
    const old = {};
    box.querySelectorAll("select").forEach((s) => { old[s.dataset.seat] = s.value; });
    box.replaceChildren();
    const legend = document.createElement("legend");
    legend.textContent = "Seats";
    box.append(legend);
    for (let s = 0; s < players(); s++) {
      const p = document.createElement("p");
      const label = document.createElement("label");
      label.htmlFor = "seat-" + s;
      label.textContent = "Seat " + (s + 1) + (players() === 4 ? " (team " + (s % 2 + 1) + ")" : "");
      const sel = document.createElement("select");
      sel.id = "seat-" + s;
      sel.dataset.seat = String(s);
      const want = old[s] || (s === 0 ? "human" : "basic");
      sel.append(option("human", "a person", want === "human"));
      bots.forEach((b) => sel.append(option(b, b + " bot", want === b)));
      p.append(label, sel);
      box.append(p);
    }
  }

  async function load() {
    try {
      const r = await fetch("/api/options");
      const data = await r.json();
      presets = data.presets;
      bots = data.bots;
      const sel = $("rules");
      sel.replaceChildren();
      presets.forEach((p) => sel.append(option(p.name,
        p.name + " (" + p.players + (p.partnership ? ", teams" : " players") + ")",
        p.name === "standard")));
    } catch (e) { /* the defaults stay */ }
    drawSeats();
  }

  function linkItem(title, url, primary) {
    const li = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = title + ": ";
    const a = document.createElement("a");
    a.href = url;
    a.textContent = primary ? "open it" : url;
    if (primary) a.className = "button primary";
    li.append(strong, a);
    if (primary) {
      const code = document.createElement("code");
      code.textContent = " " + url;
      li.append(document.createElement("br"), code);
    }
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "choice";
    copy.textContent = "Copy link";
    copy.setAttribute("aria-label", "Copy the link of " + title);
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; }
      catch (e) { copy.textContent = "Select and copy it by hand"; }
    });
    li.append(" ", copy);
    return li;
  }

  // Who sits where, with the names the players chose (GET /api/rooms/{room}: nothing secret),
  // looked at again every few seconds while the page shows the room.
  let watching = null;
  function watchSeats(room) {
    if (watching) clearInterval(watching);
    const look = async () => {
      let t;
      try { t = await (await fetch("/api/rooms/" + encodeURIComponent(room))).json(); }
      catch (e) { return; }
      const list = $("room-seats");
      list.replaceChildren();
      t.seats.forEach((x) => {
        const li = document.createElement("li");
        const who = x.player !== "human" ? x.player + " bot" :
          x.name ? x.name + (x.online ? " (at the table)" : " (away)") :
          x.joined ? "a player without a name yet" : "nobody yet: send the link";
        li.textContent = "Seat " + (x.seat + 1) + ": " + who;
        list.append(li);
      });
      if (t.over && watching) { clearInterval(watching); watching = null; }
    };
    look();
    watching = setInterval(look, 3000);
  }

  $("rules").addEventListener("change", drawSeats);
  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("create-error");
    err.hidden = true;
    const body = { rules: $("rules").value, bots: {},
      hints: $("opt-hints").checked, claims: $("opt-claims").checked };
    const clock = $("opt-clock") ? $("opt-clock").value : "";
    if (clock) {  // "TURN/BANK" in seconds
      const [turn, bank] = clock.split("/").map(Number);
      body.clock = { turn: turn, bank: bank };
    }
    document.querySelectorAll("#seats select").forEach((s) => {
      if (s.value !== "human") body.bots[s.dataset.seat] = s.value;
    });
    let data;
    try {
      const r = await fetch("/api/rooms", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      data = await r.json();
      if (r.status !== 201) throw new Error(data.error || ("status " + r.status));
    } catch (e) {
      err.textContent = "The room was not created: " + e.message;
      err.hidden = false;
      return;
    }
    const list = $("seat-links");
    list.replaceChildren();
    data.seats.forEach((s, i) => list.append(linkItem("Seat " + (s.seat + 1) + (i === 0 ? " (yours?)" : ""), s.url, true)));
    list.append(linkItem("Watch", data.watch, false));
    if (!data.seats.length) {
      const li = document.createElement("li");
      li.textContent = "Every seat is a bot: open the watch link to see them play.";
      list.prepend(li);
    }
    watchSeats(data.room);
    $("created").hidden = false;
    $("created").scrollIntoView();
    const first = list.querySelector("a");
    if (first) first.focus();
  });
  load();
})();
