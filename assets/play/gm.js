// The GM's screen: the GM's view from /api/gm, every click an action posted
// to /api/act. The token comes from this page's address fragment (#t=…),
// which the browser never sends, and goes in a header. User text goes in
// through textContent only; the map is shown as an image.
"use strict";

const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
let view = null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function button(text, onClick, cls) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function status(text) { document.getElementById("status").textContent = text; }

// The log's lines this page has (the newest LOG_WINDOW at most): each
// load asks only for the lines after the last one (a cursor), so a click
// costs the same at line 10 and at line 10,000.
const LOG_WINDOW = 100;
let lines = [];

async function load() {
  const last = lines.length ? lines[lines.length - 1].k : 0;
  const r = await fetch("/api/gm?since=" + last, { headers: { "X-Tablewright-Token": token } });
  if (!r.ok) { status("Refused: open the GM's address that `play` printed (with its #t=…)."); return; }
  view = await r.json();
  // A log shorter than what the page has (another session): start again.
  if (view.log_total < last) { lines = []; return load(); }
  const struck = new Set(view.struck);
  lines = lines.concat(view.log).filter((l) => l.k > view.log_total - LOG_WINDOW);
  for (const l of lines) l.struck = struck.has(l.k);
  render();
}

// What "Last result" shows: the answer of the last click on this page,
// or (on a fresh load) the newest roll of the log, from the GM's view.
let shown = null;

async function act(action) {
  const r = await fetch("/api/act", {
    method: "POST",
    headers: { "X-Tablewright-Token": token, "Content-Type": "application/json" },
    body: JSON.stringify(action),
  });
  const answer = await r.json().catch(() => ({ error: "no answer" }));
  if (!r.ok) { status(answer.error || ("refused (" + r.status + ")")); return null; }
  status("");
  if (action.do === "undo") document.getElementById("undo-reason").value = "";
  const res = answer.result || {};
  // The view's copy of this result (its Twist, its check) replaces it.
  shown = { k: answer.k, do: action.do, line: answer.line, result: res, check: null, twist_open: false };
  await load();
  return answer;
}

// One roll or mark: its odds first, its text, and its log line (the
// trail of dice).
function resultBox(box, entry) {
  const res = entry.result || {};
  if (res.odds !== undefined) box.append(el("div", "odds", "Odds: " + res.odds));
  if (res.text) box.append(el("div", "line", res.text));
  // A Heal Check has no text of its own: what came of it, in words.
  else if (res.healer !== undefined) {
    let said = "Heal Check by " + res.healer + ": " + (res.passed ? "lives" : "dies") + ", Edge " + res.edge;
    if (res.twist) said += " (after the Twist)";
    if (entry.twist_open) said += ": a Twist may be called";
    box.append(el("div", "line", said));
  }
  box.append(el("div", "trail", entry.line));
}

function renderResults() {
  const results = view.results || [];
  if (!shown && results.length) shown = results[0];
  // The Twist may have been taken since: the view says.
  const fresh = shown && results.find((r) => r.k === shown.k);
  if (fresh) shown = fresh;
  const box = document.getElementById("result");
  box.replaceChildren();
  if (shown) resultBox(box, shown); else box.textContent = "Nothing rolled yet.";
  const twist = document.getElementById("twist");
  twist.replaceChildren();
  if (shown && shown.twist_open) {
    const k = shown.k;
    twist.append(button("Twist (reroll the Edge dice)", () => act({ do: "twist", k: k }), "warn"));
  }
  if (shown && shown.check) {
    const k = shown.check;
    twist.append(button("Show the players", () => act({ do: "push", k: k })));
  }
  const earlier = results.filter((r) => !shown || r.k !== shown.k).slice(0, 4);
  document.getElementById("earlier-head").hidden = !earlier.length;
  document.getElementById("earlier").replaceChildren(...earlier.map((r) => {
    const li = el("li");
    resultBox(li, r);
    return li;
  }));
}

function render() {
  document.getElementById("title").textContent = view.title;
  document.title = "GM — " + view.title;
  const where = [];
  if (view.day !== null && view.day !== undefined) where.push("Day " + view.day);
  if (view.stop) where.push(view.stop);
  document.getElementById("where").textContent = where.join(" · ");
  renderResults(); renderTables(); renderPcs(); renderItems(); renderTracker(); renderJourney(); renderLog();
}

function renderTables() {
  const t = document.getElementById("table");
  const had = t.value;
  t.replaceChildren(...view.tables.map((tb) => { const o = el("option", null, tb.title); o.value = tb.id; return o; }));
  if (had) t.value = had;
  const sel = document.getElementById("check-pc");
  const was = sel.value;
  sel.replaceChildren(...view.pcs.map((p) => { const o = el("option", null, p.name); o.value = p.name; return o; }));
  if (was) sel.value = was;
}

function renderPcs() {
  const box = document.getElementById("pcs");
  box.replaceChildren(...view.pcs.map((p) => {
    const c = el("div", "pc");
    const tr = p.track || {};
    c.append(el("strong", null, p.name), el("span", "track", " " + (tr.label || "") + " " + tr.now + "/" + tr.max));
    // What the record will say of the Heal Check made at the table.
    if (p.fate === "dead") c.append(el("div", "fate", "Dead: the Heal Check failed"));
    else if (p.healed) c.append(el("div", "fate", "Stable: the Heal Check passed, Edge " + p.healed.edge));
    const row = el("div", "row");
    const amount = el("input"); amount.type = "number"; amount.value = "1"; amount.min = "1"; amount.size = 3;
    amount.setAttribute("aria-label", "amount for " + p.name);
    row.append(amount,
      button("Damage", () => act({ do: "damage", pc: p.name, amount: Number(amount.value) })),
      button("Heal", () => act({ do: "damage", pc: p.name, amount: -Number(amount.value) })));
    c.append(row);
    const st = el("div", "tags");
    for (const s of p.statuses) st.append(button(s + " ✕", () => act({ do: "status", pc: p.name, status: s, on: false }), "tag"));
    const add = el("input"); add.placeholder = "status"; add.size = 8; add.setAttribute("aria-label", "status for " + p.name);
    st.append(add, button("+", () => add.value && act({ do: "status", pc: p.name, status: add.value, on: true })));
    c.append(st);
    // Core Rules: omens spent and corruption gained, entered here once.
    if (p.omens !== null && p.omens !== undefined) {
      const core = el("div", "row");
      core.append(el("span", null, "Omens " + p.omens + " · corruption " + p.corruption + " "),
        button("Omen spent", () => act({ do: "omens", pc: p.name, spent: 1 })),
        button("Corruption +1", () => act({ do: "corruption", pc: p.name, amount: 1 })));
      c.append(core);
      const took = p.injuries.concat(p.mutations);
      if (took.length) c.append(el("div", "tags", "Took: " + took.join(", ")));
    }
    if (p.vouchers.length) {
      const v = el("div", "tags");
      for (const s of p.vouchers) v.append(button("Spend " + s, () => act({ do: "spend", serial: s }), "tag"));
      c.append(v);
    }
    return c;
  }));
}

function renderItems() {
  const list = document.getElementById("items");
  list.replaceChildren(...view.items.map((it) => {
    const li = el("li", it.met ? "item met" : "item");
    const d = el("details");
    const s = el("summary");
    s.append(el("span", "kind", it.kind), " ", el("span", "item-title", it.title));
    if (it.odds) s.append(el("span", "odds", it.odds));
    d.append(s);
    for (const para of String(it.text || "").split("\n")) if (para) d.append(el("p", null, para));
    const row = el("div", "buttons");
    row.append(mark(it), button("Show the players", () => act({ do: "push", address: it.address })));
    li.append(d, row);
    li.dataset.address = it.address;
    return li;
  }));
}

// An item's mark: a voucher is handed in during play (spent by its
// serial, once); anything else is met.
function mark(it) {
  if (it.serial) {
    if (it.spent) return el("span", "mark", "✓ spent");
    const b = button("Spend " + it.serial, () => act({ do: "spend", serial: it.serial }));
    b.title = "Handed in: its holder reveals one helpful thing they did in the downtime";
    return b;
  }
  if (it.met) return el("span", "mark", "✓ met");
  // Core Rules: an injury or a mutation goes to the PC who took it.
  if ((it.kind === "injury" || it.kind === "mutation") && view.system === "core") {
    const who = el("select");
    who.setAttribute("aria-label", "who took " + it.address);
    who.replaceChildren(...view.pcs.map((p) => { const o = el("option", null, p.name); o.value = p.name; return o; }));
    const span = el("span");
    span.append(who, button("Taken", () => act({ do: "met", address: it.address, pc: who.value })));
    return span;
  }
  return button("Met", () => act({ do: "met", address: it.address }));
}

function renderTracker() {
  const t = view.tracker || { combatants: [] };
  const list = document.getElementById("tracker");
  list.replaceChildren(...t.combatants.map((c, i) => {
    const li = el("li", t.turn === i ? "turn" : "");
    const tr = c.track || {};
    li.append(el("span", "side " + c.side, c.side), " ", el("strong", null, c.name), " ",
      el("span", null, "init " + c.init + " · " + (tr.label || "") + " " + tr.now + "/" + tr.max));
    li.append(button("−1", () => act({ do: "tracker", op: "set", name: c.name, now: tr.now - 1 })),
      button("+1", () => act({ do: "tracker", op: "set", name: c.name, now: tr.now + 1 })));
    if (c.statuses.length) li.append(el("span", "tags", c.statuses.join(", ")));
    return li;
  }));
  if (t.round) list.prepend(el("li", "round", "Round " + t.round));
}

// The stop the party was at when the list was last drawn.
let partyAt = "";

function renderJourney() {
  const stops = (view.map && view.map.stops) || [];
  const sel = document.getElementById("arrive-stop");
  const was = sel.value;
  sel.replaceChildren(...stops.map((s) => { const o = el("option", null, s.name + (s.visited ? " ✓" : "")); o.value = s.name; return o; }));
  // Where the party is, unless the GM picked another stop since.
  sel.value = was && was !== partyAt ? was : (view.stop || "");
  if (sel.selectedIndex < 0 && stops.length) sel.selectedIndex = 0;
  partyAt = view.stop || "";
  const day = document.getElementById("arrive-day");
  if (!day.value && view.day !== null && view.day !== undefined) day.value = view.day;
  const sup = view.supplies;
  const box = document.getElementById("supplies");
  box.replaceChildren();
  if (sup) box.append(el("span", null, "Money " + sup.money + " · rations " + sup.rations + " · water " + sup.water));
  document.getElementById("supplies-form").hidden = !view.campaign;
  const heal = document.getElementById("heal");
  heal.replaceChildren(...view.heal.map((h) => {
    const li = el("li", h.done ? "met" : "");
    li.append(el("span", null, (h.pc || "—") + " healed by " + h.healer + ": " + h.dice + " vs " + h.difficulty + " (" + h.odds + ", with the Twist " + h.odds_twist + ")"));
    if (!h.done) li.append(button("Roll", () => act({ do: "heal", pc: h.pc, twist: false })),
      button("Roll, Twist if failed", () => act({ do: "heal", pc: h.pc, twist: true })));
    return li;
  }));
}

function renderLog() {
  const log = document.getElementById("log");
  log.replaceChildren(...lines.slice().reverse().map((l) => {
    const li = el("li", null, l.line);
    li.value = l.k;
    if (!l.struck && !/^\d+ (roll|dice|check|twist|undo|tracker)\b/.test(l.line)) {
      li.append(" ", button("undo", () => {
        const reason = document.getElementById("undo-reason").value.trim();
        act(reason ? { do: "undo", k: l.k, reason: reason } : { do: "undo", k: l.k });
      }, "small"));
    }
    if (l.struck) li.className = "struck";
    return li;
  }));
}

function onSubmit(id, f) {
  document.getElementById(id).addEventListener("submit", (e) => { e.preventDefault(); f(); });
}

document.getElementById("roll-table").addEventListener("click", () => act({ do: "roll", table: document.getElementById("table").value }));
onSubmit("dice-form", () => act({ do: "dice", expr: document.getElementById("dice").value }));
onSubmit("check-form", () => act({
  do: "check", pc: document.getElementById("check-pc").value,
  pool: document.getElementById("check-pool").value, difficulty: Number(document.getElementById("check-diff").value),
}));
onSubmit("tracker-form", () => act({ do: "tracker", op: "start", name: document.getElementById("tracker-name").value }));
document.getElementById("tracker-next").addEventListener("click", () => act({ do: "tracker", op: "next" }));
document.getElementById("tracker-end").addEventListener("click", () => act({ do: "tracker", op: "end" }));
onSubmit("arrive-form", () => act({
  do: "arrive", stop: document.getElementById("arrive-stop").value, day: Number(document.getElementById("arrive-day").value),
}));
onSubmit("supplies-form", () => act({
  do: "supplies", money: document.getElementById("sup-money").value || "0",
  rations: Number(document.getElementById("sup-rations").value), water: Number(document.getElementById("sup-water").value),
}));

load();
