// The lobby: create a room (POST /api/rooms, see spec/table.md) and show its links.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let presets = [];
  let bots = ["random", "basic", "pimc", "strong", "learned"];
  let ratings = {};  // each level's rating in the bots' round robin (moonrules/bots/levels.json)
  // What each preset changes from the standard game (spec/rules.md, "Presets").
  const I = window.MoonI18n;
  const _ = I._, _n = I._n, N_ = I.N_;
  const PRESET_TEXT = {
    "standard": N_("Three players, 22 tiles and a one-tile widow the bidder takes before naming trump. Bids 4 to 7, or 21 (moon, all 7 tricks); first to 21 points."),
    "partnership": N_("Four players in two teams (seats 1 & 3 against 2 & 4), all 28 tiles, no widow."),
    "partnership-forced": N_("Partnerships; when the first three pass, the last to call must bid."),
    "partnership-min3": N_("Partnerships, with bids from 3 tricks."),
    "partnership-min5": N_("Partnerships, with bids from 5 tricks."),
    "pagat": N_("Three players; the widow is taken after trump is named, doubles cannot be trump, and a made moon scores 21."),
    "no-double-blank": N_("Three players with 21 tiles (no double blank, no widow); blanks cannot be trump."),
    "marks": N_("Three players scoring marks: a hand won is one mark; first to 7 marks."),
    "lead-trump": N_("Three players; the first lead of each hand must be a trump when the leader holds one."),
    "bidder-out": N_("Three players; when two reach the target in the same hand, the bidder goes out first."),
    "renege-penalty": N_("Three players; a renege is not refused but ends the hand with a penalty."),
  };
  const BOT_TEXT = {
    "random": N_("plays any legal move: for learning the controls."),
    "basic": N_("follows simple rules of thumb: bids its sure tricks, plays its high tiles."),
    "pimc": N_("searches sampled deals: strong, and a little slower."),
    "strong": N_("the strongest bot: searches the deals it cannot see and bids by its chances."),
    "learned": N_("the strong bot, its calls valued by learned models of tricks and defence."),
  };
  // why a room was not created, by the server's status (its own words are English, for logs)
  const CREATE_ERRORS = {
    400: N_("the room's settings were refused."),
    403: N_("a page of another site may not create rooms here."),
    408: N_("the request took too long; try again."),
    413: N_("the request is too large."),
    415: N_("the page sent the room in a form the server does not read."),
    429: N_("too many rooms created from this address; wait a little."),
    503: N_("the server is busy; try again in a moment."),
  };
  function createError(status) {
    return status in CREATE_ERRORS ? _(CREATE_ERRORS[status]) :
      _("the server could not create it now (status {status}).", { status: status });
  }

  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    if (selected) o.selected = true;
    return o;
  }

  const BOT_NAMES = { random: N_("random bot"), basic: N_("basic bot"), strong: N_("strong bot"),
    pimc: N_("sampling bot"), learned: N_("learned bot") };
  function botName(b) { return b in BOT_NAMES ? _(BOT_NAMES[b]) : b; }

  function players() {
    const p = presets.find((x) => x.name === $("rules").value);
    return p ? p.players : 3;
  }

  function describe() {
    const p = presets.find((x) => x.name === $("rules").value);
    const text = PRESET_TEXT[$("rules").value] ? _(PRESET_TEXT[$("rules").value]) :
      p ? (p.partnership ? _n("{count} player in partnerships.", "{count} players in partnerships.", p.players) :
        _n("{count} player.", "{count} players.", p.players)) : "";
    $("rules-desc").textContent = text;
    const list = $("bot-help");
    list.replaceChildren();
    const dt = (t) => { const e = document.createElement("dt"); e.textContent = t; return e; };
    const dd = (t) => { const e = document.createElement("dd"); e.textContent = t; return e; };
    list.append(dt(_("a person")), dd(_("gets a secret link to send to the player.")));
    bots.forEach((b) => {
      const text = BOT_TEXT[b] ? _(BOT_TEXT[b]) : _("a bot of the server.");
      const rated = ratings[b] === undefined ? "" : " " + _("Rated about {rating} among the bots.", { rating: ratings[b] });
      list.append(dt(botName(b)), dd(text + rated));
    });
  }

  function drawSeats() {
    describe();
    const box = $("seats");
    const old = {};
    box.querySelectorAll("select").forEach((s) => { old[s.dataset.seat] = s.value; });
    box.replaceChildren();
    const legend = document.createElement("legend");
    legend.textContent = _("Seats");
    box.append(legend);
    for (let s = 0; s < players(); s++) {
      const p = document.createElement("p");
      const label = document.createElement("label");
      label.htmlFor = "seat-" + s;
      label.textContent = players() === 4 ? _("Seat {n} (team {team})", { n: s + 1, team: s % 2 + 1 }) : _("Seat {n}", { n: s + 1 });
      const sel = document.createElement("select");
      sel.id = "seat-" + s;
      sel.dataset.seat = String(s);
      const want = old[s] || (s === 0 ? "human" : "basic");
      sel.append(option("human", _("a person"), want === "human"));
      bots.forEach((b) => sel.append(option(b, botName(b), want === b)));
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
      ratings = data.ratings || {};
      const sel = $("rules");
      sel.replaceChildren();
      presets.forEach((p) => sel.append(option(p.name,
        p.partnership ? _("{name} ({count}, teams)", { name: I.presetName(p.name), count: p.players }) :
          _n("{name} ({count} player)", "{name} ({count} players)", p.players, { name: I.presetName(p.name) }),
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
    a.textContent = primary ? _("open it") : url;
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
    copy.textContent = _("Copy link");
    copy.setAttribute("aria-label", _("Copy the link of {what}", { what: title }));
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = _("Copied"); }
      catch (e) { copy.textContent = _("Select and copy it by hand"); }
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
        const who = x.player !== "human" ? botName(x.player) :
          x.name ? (x.online ? _("{name} (at the table)", { name: x.name }) : _("{name} (away)", { name: x.name })) :
          x.joined ? _("a player without a name yet") : _("nobody yet: send the link");
        li.textContent = _("Seat {n}: {who}", { n: x.seat + 1, who: who });
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
      if (r.status !== 201) throw new Error(createError(r.status));
      data = await r.json();
    } catch (e) {
      const why = e instanceof SyntaxError || e instanceof TypeError ?
        _("the server could not be reached.") : e.message;
      err.textContent = _("The room was not created: {why}", { why: why });
      err.hidden = false;
      return;
    }
    const list = $("seat-links");
    list.replaceChildren();
    data.seats.forEach((s, i) => list.append(linkItem(i === 0 ? _("Seat {n} (yours?)", { n: s.seat + 1 }) : _("Seat {n}", { n: s.seat + 1 }), s.url, true)));
    list.append(linkItem(_("Watch"), data.watch, false));
    if (!data.seats.length) {
      const li = document.createElement("li");
      li.textContent = _("Every seat is a bot: open the watch link to see them play.");
      list.prepend(li);
    }
    watchSeats(data.room);
    $("created").hidden = false;
    $("created").scrollIntoView();
    const first = list.querySelector("a");
    if (first) first.focus();
  });
  I.ready.then(load);
})();
