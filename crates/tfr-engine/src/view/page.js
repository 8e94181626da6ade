"use strict";
// tfr view's page: a grid of records (PAGE at a time) and a single-record
// view, from the server's JSON API. Data goes into the page with
// textContent only; the overlays' SVG is the server's, escaped there.
(() => {
  const PAGE = 24;
  const $ = (id) => document.getElementById(id);
  const state = { mode: "grid", at: 0, total: 0, complete: false, where: null, error: null };
  let token = 0;
  let retry = null;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  async function getJSON(url) {
    const r = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (!r.ok) throw new Error(url + ": HTTP " + r.status);
    return r.json();
  }

  // #g=N: the grid page holding record N; #n=N: record N alone.
  function readHash() {
    const m = /^#(n|g)=(\d{1,16})$/.exec(location.hash);
    if (!m) return { mode: "grid", at: 0 };
    const v = Number(m[2]);
    return m[1] === "n" ? { mode: "single", at: v } : { mode: "grid", at: v - (v % PAGE) };
  }

  function writeHash() {
    const h = (state.mode === "single" ? "#n=" : "#g=") + state.at;
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  function totalText() {
    const n = state.total.toLocaleString("en-US");
    const what = state.where ? " matching " + state.where : "";
    if (state.error) return n + " records" + what + " before an error: " + state.error;
    return state.complete ? n + " records" + what : "at least " + n + " records" + what + " (indexing…)";
  }

  function showStatus() {
    $("status").textContent = totalText();
    const last = state.mode === "grid" ? state.at + PAGE : state.at + 1;
    $("prev").disabled = state.at === 0;
    $("next").disabled = state.complete && last >= state.total;
    if (state.mode === "grid") {
      const end = state.complete ? Math.min(state.at + PAGE, state.total) : state.at + PAGE;
      $("place").textContent = end > state.at ? state.at + "–" + (end - 1) : "";
    } else {
      $("place").textContent = "#" + state.at;
    }
  }

  function message(text) {
    $("message").textContent = text || "";
  }

  // The picture a card shows: the annotated one, else the first.
  function pictureOf(r) {
    const a = r.annotations;
    const images = r.images || {};
    if (a && a.image && images[a.image]) return { feature: a.image, url: images[a.image][0] };
    for (const [feature, urls] of Object.entries(images)) {
      if (!(a && a.mask === feature)) return { feature, url: urls[0] };
    }
    return null;
  }

  // A picture in a box of `box` pixels (small ones scaled up, at most
  // 8 times, pixelated from 3 times), its overlay over it.
  function frame(r, feature, url, first, box) {
    const f = el("div", "frame");
    const img = el("img");
    img.alt = feature + " of record " + r.n;
    img.decoding = "async";
    img.addEventListener("load", () => fit(img, f, box));
    img.src = url;
    f.append(img);
    const svg = r.overlay && r.overlay[feature];
    if (svg && first) f.insertAdjacentHTML("beforeend", svg);
    return f;
  }

  function fit(img, f, box) {
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    if (!w || !h) return;
    const s = Math.min(box / w, box / h, 8);
    img.width = Math.max(1, Math.round(w * s));
    img.height = Math.max(1, Math.round(h * s));
    if (s >= 3) img.classList.add("px");
    // Labels keep their size on the screen whatever the picture's scale.
    const svg = f.querySelector("svg.ov");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width) return;
    const k = img.width / vb.width;
    for (const t of svg.querySelectorAll("text")) {
      t.style.fontSize = 11 / k + "px";
      t.style.strokeWidth = 3 / k + "px";
    }
    // Keypoints at most 5 pixels in radius on the screen.
    for (const c of svg.querySelectorAll("circle")) {
      if (Number(c.getAttribute("r")) * k > 5) c.setAttribute("r", String(5 / k));
    }
  }

  function caption(c) {
    const s = el("span", c.highlight ? "cls hl" : "cls", c.text);
    s.style.borderLeftColor = c.colour;
    return s;
  }

  function place(r, short) {
    const name = short ? r.file.replace(/^.*\//, "") : r.file;
    const p = el("span", "file", name + " · record " + r.record);
    p.title = r.file;
    return p;
  }

  function summary(features) {
    if (features === null || features === undefined) return "";
    const lines = [];
    for (const [k, v] of Object.entries(features)) {
      let t = JSON.stringify(v);
      if (t.length > 60) t = t.slice(0, 57) + "…";
      lines.push(k + ": " + t);
      if (lines.length >= 8) break;
    }
    return lines.join("\n");
  }

  function card(r) {
    const a = el("article", "card");
    a.tabIndex = 0;
    a.dataset.n = String(r.n);
    a.setAttribute("role", "listitem");
    const pic = pictureOf(r);
    if (pic) {
      const d = el("div", "pics");
      d.append(frame(r, pic.feature, pic.url, true, 176));
      a.append(d);
    } else {
      a.append(el("pre", "text", r.error ? r.error : summary(r.features)));
    }
    const cap = el("p", "cap");
    cap.append(el("b", null, "#" + r.n), " ", place(r, true));
    if (r.caption) cap.append(" ", caption(r.caption));
    const problems = (r.annotations && r.annotations.problems) || [];
    if (problems.length) cap.append(" ", el("span", "problem", "⚠ " + problems.length));
    a.append(cap);
    a.addEventListener("click", () => openRecord(r.n));
    return a;
  }

  function later(f) {
    clearTimeout(retry);
    retry = setTimeout(f, 1000);
  }

  function absent(data, n) {
    if (!data.complete) {
      message("Record " + n + " is not reached yet: indexing, " + data.total + " records so far…");
      return true;
    }
    message(data.total === 0 ? "No records" + (state.where ? " match " + state.where : "") + "." : "No record " + n + ": the last is " + (data.total - 1) + ".");
    return false;
  }

  async function showGrid(focusN) {
    const my = ++token;
    const data = await getJSON("/api/records?offset=" + state.at + "&limit=" + PAGE);
    if (my !== token) return;
    update(data);
    const grid = $("grid");
    grid.replaceChildren();
    if (data.records.length === 0) {
      if (absent(data, state.at)) later(() => showGrid(focusN));
      return;
    }
    message(data.error ? "Stopped: " + data.error : "");
    for (const r of data.records) grid.append(card(r));
    const pick = grid.querySelector('[data-n="' + String(focusN) + '"]');
    if (pick) pick.focus();
  }

  async function showSingle() {
    const my = ++token;
    const data = await getJSON("/api/records?offset=" + state.at + "&limit=1");
    if (my !== token) return;
    update(data);
    const r = data.records[0];
    const images = $("single-images");
    const problems = $("single-problems");
    images.replaceChildren();
    problems.replaceChildren();
    $("single-features").textContent = "";
    $("single-head").textContent = "";
    if (!r) {
      if (absent(data, state.at)) later(showSingle);
      return;
    }
    message(r.error ? r.error : "");
    const head = $("single-head");
    head.append("#" + r.n + " ", place(r, false), " (" + r.type + ")");
    if (r.caption) head.append(" ", caption(r.caption));
    const mask = r.annotations && r.annotations.mask;
    for (const [feature, urls] of Object.entries(r.images || {})) {
      urls.forEach((url, i) => {
        const fig = el("figure");
        const box = Math.min(640, Math.max(160, images.clientWidth || 640));
        // A segmentation mask is shown coloured by class, as drawn over
        // the picture.
        const shown = feature === mask ? url.replace(/^\/api\/image\//, "/api/mask/") : url;
        fig.append(frame(r, feature, shown, i === 0, box));
        let text = urls.length > 1 ? feature + " [" + i + "]" : feature;
        if (feature === mask) text += " (coloured by class)";
        fig.append(el("figcaption", null, text));
        images.append(fig);
      });
    }
    for (const p of (r.annotations && r.annotations.problems) || []) {
      problems.append(el("p", "problem", p.type + ": " + p.detail));
    }
    $("single-features").textContent = JSON.stringify(r.features, null, 2);
  }

  function update(data) {
    state.total = data.total;
    state.complete = data.complete;
    if (data.error) state.error = data.error;
    showStatus();
  }

  function show(focusN) {
    clearTimeout(retry);
    writeHash();
    const single = state.mode === "single";
    $("grid").hidden = single;
    $("single").hidden = !single;
    $("back").hidden = !single;
    showStatus();
    const shown = single ? showSingle() : showGrid(focusN);
    shown.catch((e) => message(String(e)));
  }

  function openRecord(n) {
    state.mode = "single";
    state.at = n;
    show();
  }

  function toGrid() {
    const n = state.at;
    state.mode = "grid";
    state.at = n - (n % PAGE);
    show(n);
  }

  function step(dir) {
    const size = state.mode === "grid" ? PAGE : 1;
    const next = state.at + dir * size;
    if (next < 0) return;
    if (dir > 0 && state.complete && next >= state.total) return;
    state.at = next;
    show();
  }

  function jump(n) {
    if (state.mode === "single") {
      state.at = n;
      show();
    } else {
      state.at = n - (n % PAGE);
      show(n);
    }
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const typing = e.target instanceof HTMLInputElement;
    if (e.key === "Escape") {
      if (typing) e.target.blur();
      if (state.mode === "single") toGrid();
      return;
    }
    if (typing) return;
    if (e.key === "ArrowRight") {
      e.preventDefault();
      step(1);
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      step(-1);
    } else if (e.key === "Enter" && e.target.classList && e.target.classList.contains("card")) {
      e.preventDefault();
      openRecord(Number(e.target.dataset.n));
    }
  });
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("back").addEventListener("click", toGrid);
  $("jump").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("jump-n").value.trim();
    if (!/^\d{1,16}$/.test(text)) {
      message("Give a record number (0, 1, 2, …).");
      return;
    }
    $("jump-n").blur();
    jump(Number(text));
  });
  window.addEventListener("hashchange", () => {
    const h = readHash();
    if (h.mode !== state.mode || h.at !== state.at) {
      state.mode = h.mode;
      state.at = h.at;
      show();
    }
  });

  async function poll() {
    try {
      const info = await getJSON("/api/info");
      state.total = info.total;
      state.complete = info.complete;
      state.where = info.where;
      state.error = info.error;
      showStatus();
      if (!info.complete) setTimeout(poll, 1000);
    } catch (e) {
      message(String(e));
    }
  }

  const h = readHash();
  state.mode = h.mode;
  state.at = h.at;
  poll();
  show(h.mode === "grid" ? null : undefined);
})();
