// The lobby: create a room (POST /api/rooms, see spec/table.md) and show its links.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let presets = [];
  let bots = ["random", "basic", "strong"];

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

  function drawSeats() {
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
      label.textContent = "Seat " + s + (players() === 4 ? " (team " + (s % 2) + ")" : "");
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
        p.name + " (" + p.players + " players" + (p.partnership ? ", partnerships" : "") + ")",
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

  $("rules").addEventListener("change", drawSeats);
  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("create-error");
    err.hidden = true;
    const body = { rules: $("rules").value, bots: {} };
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
    data.seats.forEach((s, i) => list.append(linkItem("Seat " + s.seat + (i === 0 ? " (yours?)" : ""), s.url, true)));
    list.append(linkItem("Watch", data.watch, false));
    if (!data.seats.length) {
      const li = document.createElement("li");
      li.textContent = "Every seat is a bot: open the watch link to see them play.";
      list.prepend(li);
    }
    $("created").hidden = false;
    $("created").scrollIntoView();
    const first = list.querySelector("a");
    if (first) first.focus();
  });
  load();
})();
