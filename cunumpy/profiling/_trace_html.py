"""The page of the HTML timeline: style and script inline, no network, no library.

``_trace_files.write_html`` fills ``@TITLE@``, ``@TRACKS@`` (one ``div.track`` per track,
in one ``div.process`` per rank), ``@SUMMARY@`` (the summary's tables) and ``@DATA@``
(the Chrome trace events). The script draws each track on its canvas; the wheel zooms,
a drag pans, a double click shows everything, and hovering shows an event's details.
"""

from __future__ import annotations

__all__ = ["PAGE"]

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cunumpy trace: @TITLE@</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 12px; color: #222; background: #fff; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
h2 { font-size: 14px; margin: 10px 0 2px 0; }
h3 { font-size: 13px; margin: 14px 0 4px 0; }
.meta, .note { color: #666; font-weight: normal; }
.help { color: #666; margin: 0 0 8px 0; }
#timeline { border: 1px solid #ccc; padding: 4px; }
.track { display: flex; align-items: stretch; border-top: 1px solid #eee; }
.label { width: 220px; min-width: 220px; padding: 2px 6px; font-size: 12px;
         overflow: hidden; text-overflow: ellipsis; white-space: nowrap; background: #f6f6f6; }
.track canvas, #axis { flex: 1; height: 18px; display: block; }
#axisrow { display: flex; }
#axisrow .label { background: #fff; }
#tooltip { position: fixed; pointer-events: none; background: #fffbe6; border: 1px solid #bba;
           padding: 4px 6px; font-size: 12px; display: none; max-width: 480px; white-space: pre-wrap; }
table { border-collapse: collapse; margin: 2px 0; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; font-size: 12px; }
th { background: #f0f0f0; }
.legend span { display: inline-block; margin-right: 12px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
</style>
</head>
<body>
<h1>cunumpy trace <span class="meta">@TITLE@</span></h1>
<p class="help">Wheel: zoom at the pointer. Drag: pan. Double click: everything.
Hover: details. One track per host thread, per CUDA stream and for the MPI calls of each rank.</p>
<div class="legend" id="legend"></div>
<div id="timeline">
<div id="axisrow"><div class="label">time</div><canvas id="axis"></canvas></div>
@TRACKS@
</div>
<div id="tooltip"></div>
<section id="summary">
<h2>Summary</h2>
@SUMMARY@
</section>
<script id="trace-data" type="application/json">@DATA@</script>
<script>
"use strict";
const COLORS = {region: null, nvtx: "#4aa3a2", device: "#3c9a4a", copy: "#e08a1e",
  wait: "#d0443e", kernel: "#3b6fd1", mpi: "#8b5a2b", memory: "#777", trace: "#000"};
const data = JSON.parse(document.getElementById("trace-data").textContent).traceEvents;
const tids = new Map(), rows = new Map();
for (const e of data) {
  if (e.ph === "M" && e.name === "thread_name") tids.set(e.pid + "/" + e.args.name, e.tid);
}
let t0 = Infinity, t1 = -Infinity;
for (const e of data) {
  if (e.ph === "M") continue;
  const key = e.pid + ":" + e.tid;
  if (!rows.has(key)) rows.set(key, []);
  rows.get(key).push(e);
  if (e.ph === "C") continue;  // counters do not widen the view
  t0 = Math.min(t0, e.ts);
  t1 = Math.max(t1, e.ts + (e.dur || 0));
}
if (!isFinite(t0)) { t0 = 0; t1 = 1; }
if (t1 <= t0) t1 = t0 + 1;
const full = [t0, t1];
let view = [t0, t1];
function hue(name) {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) % 360;
  return "hsl(" + h + ",55%,62%)";
}
function color(e) {
  if (e.cat === "copy") return e.name === "to_host" ? "#e08a1e" : "#a05cc8";
  return COLORS[e.cat] || hue(e.name);
}
const tracks = [];
for (const div of document.querySelectorAll(".track")) {
  const tid = tids.get(div.dataset.rank + "/" + div.dataset.track);
  const events = rows.get(div.dataset.rank + ":" + tid) || [];
  events.sort((a, b) => a.ts - b.ts || (b.dur || 0) - (a.dur || 0));
  const stack = [];
  let depth = 0;
  for (const e of events) {
    if (e.ph !== "X") { e.depth = 0; continue; }
    while (stack.length && stack[stack.length - 1] <= e.ts) stack.pop();
    e.depth = stack.length;
    stack.push(e.ts + e.dur);
    depth = Math.max(depth, e.depth);
  }
  const canvas = div.querySelector("canvas");
  const counter = events.some(e => e.ph === "C");
  canvas.style.height = (counter ? 36 : (depth + 1) * 18) + "px";
  div.dataset.events = events.length;
  tracks.push({div, canvas, events, counter});
}
function fmt(us) {
  const a = Math.abs(us);
  if (a >= 1e6) return (us / 1e6).toFixed(3) + " s";
  if (a >= 1e3) return (us / 1e3).toFixed(3) + " ms";
  return us.toFixed(1) + " us";
}
function fit(canvas) {
  const r = canvas.getBoundingClientRect(), d = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * d));
  canvas.height = Math.max(1, Math.round(r.height * d));
  const g = canvas.getContext("2d");
  g.setTransform(d, 0, 0, d, 0, 0);
  return [g, r.width, r.height];
}
function x(t, w) { return (t - view[0]) / (view[1] - view[0]) * w; }
function drawAxis() {
  const [g, w, h] = fit(document.getElementById("axis"));
  g.clearRect(0, 0, w, h);
  const span = view[1] - view[0];
  let step = Math.pow(10, Math.floor(Math.log10(span / 5)));
  if (span / step > 10) step *= 2;
  if (span / step > 10) step *= 2.5;
  g.fillStyle = "#444"; g.font = "11px sans-serif";
  const first = full[0] + Math.ceil((view[0] - full[0]) / step) * step;
  for (let t = first; t <= view[1]; t += step) {
    const px = x(t, w);
    g.fillRect(px, h - 5, 1, 5);
    g.fillText(fmt(t - full[0]), px + 2, h - 6);
  }
}
function drawTrack(tr) {
  const [g, w, h] = fit(tr.canvas);
  g.clearRect(0, 0, w, h);
  if (tr.counter) {
    const values = tr.events.filter(e => e.ph === "C").map(e => [e.ts, e.args.used || 0]);
    const top = Math.max(1, ...values.map(v => v[1]));
    g.strokeStyle = "#777"; g.beginPath();
    values.forEach(([t, v], i) => {
      const px = x(t, w), py = h - 2 - (h - 4) * v / top;
      if (i === 0) g.moveTo(px, py); else g.lineTo(px, py);
    });
    g.stroke();
    return;
  }
  for (const e of tr.events) {
    if (e.ph === "i") { g.fillStyle = "#000"; g.fillRect(x(e.ts, w), 0, 1, h); continue; }
    if (e.ph !== "X") continue;
    const a = x(e.ts, w), b = x(e.ts + e.dur, w);
    if (b < 0 || a > w) continue;
    g.fillStyle = color(e);
    const y = e.depth * 18 + 1;
    g.fillRect(a, y, Math.max(b - a, 1), 16);
    if (b - a > 30) {
      g.fillStyle = "#111"; g.font = "11px sans-serif";
      g.save(); g.beginPath(); g.rect(a, y, b - a, 16); g.clip();
      g.fillText(e.name, Math.max(a, 0) + 2, y + 12); g.restore();
    }
  }
}
function draw() { drawAxis(); tracks.forEach(drawTrack); }
const tip = document.getElementById("tooltip");
for (const tr of tracks) {
  tr.canvas.addEventListener("mousemove", ev => {
    const r = tr.canvas.getBoundingClientRect();
    const t = view[0] + (ev.clientX - r.left) / r.width * (view[1] - view[0]);
    const depth = Math.floor((ev.clientY - r.top) / 18);
    let hit = null;
    for (const e of tr.events) {
      if (e.ph === "X" && e.depth === depth && e.ts <= t && t <= e.ts + e.dur) hit = e;
    }
    if (!hit) { tip.style.display = "none"; return; }
    let text = hit.name + "  [" + hit.cat + "]\\nstart " + fmt(hit.ts - full[0]) + ", took " + fmt(hit.dur);
    for (const [k, v] of Object.entries(hit.args || {})) text += "\\n" + k + ": " + v;
    tip.textContent = text;
    tip.style.left = (ev.clientX + 12) + "px"; tip.style.top = (ev.clientY + 12) + "px";
    tip.style.display = "block";
  });
  tr.canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; });
}
const timeline = document.getElementById("timeline");
timeline.addEventListener("wheel", ev => {
  const c = ev.target.closest("canvas");
  if (!c) return;
  ev.preventDefault();
  const r = c.getBoundingClientRect();
  const at = view[0] + (ev.clientX - r.left) / r.width * (view[1] - view[0]);
  const k = ev.deltaY > 0 ? 1.25 : 0.8;
  view = [at - (at - view[0]) * k, at + (view[1] - at) * k];
  draw();
}, {passive: false});
let drag = null;
timeline.addEventListener("mousedown", ev => { drag = [ev.clientX, view.slice()]; });
window.addEventListener("mouseup", () => { drag = null; });
window.addEventListener("mousemove", ev => {
  if (!drag) return;
  const w = document.getElementById("axis").getBoundingClientRect().width;
  const dt = (ev.clientX - drag[0]) / w * (drag[1][1] - drag[1][0]);
  view = [drag[1][0] - dt, drag[1][1] - dt];
  draw();
});
timeline.addEventListener("dblclick", () => { view = full.slice(); draw(); });
window.addEventListener("resize", draw);
const legend = document.getElementById("legend");
for (const [cat, c] of Object.entries({"region": "hsl(200,55%,62%)", "nvtx range": COLORS.nvtx,
    "device interval": COLORS.device, "copy to host": "#e08a1e", "copy to device": "#a05cc8",
    "host wait": COLORS.wait, "kernel": COLORS.kernel, "MPI call": COLORS.mpi})) {
  const s = document.createElement("span");
  s.innerHTML = '<i style="background:' + c + '"></i>' + cat;
  legend.appendChild(s);
}
document.body.dataset.rendered = String(tracks.length);
draw();
</script>
</body>
</html>
"""
