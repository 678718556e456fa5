// The players' screen: the players' view, pushed by the server (server-sent
// events) each time the GM reveals something. User text goes in through
// textContent only; the map is shown as an image, so nothing in it runs.
"use strict";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svgImage(svg, alt) {
  const img = el("img");
  img.alt = alt;
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  return img;
}

function show(view) {
  document.getElementById("title").textContent = view.title || "At the table";
  document.title = view.title || "At the table";
  const map = document.getElementById("map");
  map.replaceChildren();
  if (view.map && view.map.svg) map.append(svgImage(view.map.svg, "The map as the party knows it"));
  const hs = document.getElementById("handouts");
  hs.replaceChildren();
  const list = (view.handouts || []).slice().reverse();
  if (!list.length) hs.append(el("p", "hint", "What the GM shows you appears here."));
  for (const h of list) {
    const c = el("article", "card handout");
    c.append(el("h2", null, h.title));
    for (const para of String(h.text || "").split("\n\n")) c.append(el("p", null, para));
    hs.append(c);
  }
}

function connect() {
  const status = document.getElementById("status");
  const es = new EventSource("/api/events");
  es.onmessage = (e) => { status.textContent = ""; show(JSON.parse(e.data)); };
  es.onerror = () => { status.textContent = "reconnecting…"; };
}

connect();
