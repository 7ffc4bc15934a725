// The page of `lossless view` (tools/view.py inlines it with the run's data): the fabric by tiers, ports
// coloured by queue and outlined when paused over time, a flow's path, rate and the chain of pauses it met.
// Plain JavaScript, no library, no network. State for tests: location.hash `t=<ns>&flow=<id>` (or
// `pair=h0,h2`) is applied on load and the result written into #state's data- attributes and each port's
// data-q / data-paused.
"use strict";
(function () {
  const F = window.FABRIC, SUMMARY = window.SUMMARY || {}, PFC = window.PFC || [];
  const NS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const nodes = F.nodes, ports = F.ports, flows = F.flows;
  const nodeName = (n) => nodes[n][0];
  const portName = (i) => nodeName(ports[i][0]) + ":" + ports[i][1];
  const fmtBytes = (b) => b >= 1e6 ? (b / 1e6).toFixed(2) + " MB" : b >= 1e3 ? (b / 1e3).toFixed(1) + " KB" : b + " B";
  const fmtTime = (ns) => (ns / 1e6).toFixed(3) + " ms";

  // --- the recording: full state per sample (queue bytes, paused mask) and per-flow delivered bytes
  const bin = Uint8Array.from(atob(window.FABRIC_BIN), (c) => c.charCodeAt(0));
  const dv = new DataView(bin.buffer);
  let at = 0;
  const magic = String.fromCharCode(...bin.slice(0, 8));
  if (magic !== "LLFABRIC") throw new Error("not a fabric recording");
  at = 8;
  const version = dv.getUint32(at, true); at += 4;
  const nPorts = dv.getUint32(at, true); at += 4;
  at += 4; // flows
  at += 8; // interval
  if (version !== F.version || nPorts !== ports.length) throw new Error("recording does not match fabric.json");
  const S = F.samples, P = nPorts;
  const times = new Float64Array(S);
  const queue = new Uint32Array(S * P), paused = new Uint8Array(S * P);
  const rates = new Map(); // flow -> [[sample, bytes], ...]
  const curQ = new Uint32Array(P), curP = new Uint8Array(P);
  for (let s = 0; s < S; ++s) {
    times[s] = Number(dv.getBigUint64(at, true)) / 1000; at += 8; // ns
    const n = dv.getUint32(at, true); at += 4;
    for (let k = 0; k < n; ++k) {
      const i = dv.getUint32(at, true), q = dv.getUint32(at + 4, true), m = dv.getUint8(at + 8);
      at += 9;
      curQ[i] = q; curP[i] = m;
    }
    queue.set(curQ, s * P); paused.set(curP, s * P);
    const m = dv.getUint32(at, true); at += 4;
    for (let k = 0; k < m; ++k) {
      const id = dv.getUint32(at, true), b = dv.getUint32(at + 4, true);
      at += 8;
      if (!rates.has(id)) rates.set(id, []);
      rates.get(id).push([s, b]);
    }
  }
  let qmax = 1;
  for (let k = 0; k < queue.length; ++k) if (queue[k] > qmax) qmax = queue[k];

  // --- pause intervals per port, from pfc.csv (where the frame was received: that port is the paused one)
  const portIndex = new Map();
  ports.forEach((p, i) => portIndex.set(p[0] + ":" + p[1], i));
  const intervals = new Map(); // port -> [[start, end, prio]]
  const open = new Map();
  for (const [t, i, prio, pause, quanta] of PFC) {
    const key = i + "/" + prio;
    const rate = ports[i][4];
    if (pause) {
      const until = t + (quanta * 512 / rate) * 1e9;
      if (open.has(key)) open.get(key)[1] = Math.max(open.get(key)[1], until);
      else {
        const iv = [t, until, prio];
        open.set(key, iv);
        if (!intervals.has(i)) intervals.set(i, []);
        intervals.get(i).push(iv);
      }
    } else if (open.has(key)) {
      open.get(key)[1] = t;
      open.delete(key);
    }
    // an interval whose pause expired before the next frame is closed by its own end time
    for (const [k, iv] of open) if (iv[1] < t) open.delete(k);
  }
  const pausedAt = (i, t) => (intervals.get(i) || []).find((iv) => iv[0] <= t && t < iv[1]);
  const nodePorts = new Map();
  ports.forEach((p, i) => { if (!nodePorts.has(p[0])) nodePorts.set(p[0], []); nodePorts.get(p[0]).push(i); });
  const sampleAt = (t) => {
    let lo = 0, hi = S - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (times[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  };

  // The chain of pauses behind port i paused at time t: its peer paused it; if the peer's own ports are paused
  // at t, the longest-paused of them was paused by its peer, and so on. Ends at a node with no paused port (the
  // culprit: its fullest egress is named) or at a node already in the chain (a cycle: a PFC deadlock).
  function chain(i, t) {
    const out = [{port: i, since: pausedAt(i, t)[0]}];
    const seen = new Set([ports[i][0]]);
    let node = ports[i][2];
    for (;;) {
      if (seen.has(node)) return {links: out, cycle: nodeName(node)};
      seen.add(node);
      let best = -1, bestSince = Infinity;
      for (const j of nodePorts.get(node) || []) {
        const iv = pausedAt(j, t);
        if (iv && iv[0] < bestSince) { best = j; bestSince = iv[0]; }
      }
      if (best < 0) {
        const s = sampleAt(t);
        let fullest = -1;
        for (const j of nodePorts.get(node) || [])
          if (fullest < 0 || queue[s * P + j] > queue[s * P + fullest]) fullest = j;
        return {links: out, root: node, rootPort: fullest, rootQueue: fullest >= 0 ? queue[s * P + fullest] : 0};
      }
      out.push({port: best, since: bestSince});
      node = ports[best][2];
    }
  }
  // A pause's cause is read 1 us after it began (while it lasts): the pauses of a cycle start nanoseconds apart,
  // and at the first one's start the others are not in force yet; later, a short upstream pause may be over.
  const settle = (i, t) => { const iv = pausedAt(i, t); return iv ? Math.min(iv[1] - 1, t + 1000) : t; };
  const chainText = (c) => c.links.map((l) => portName(l.port)).join(" < ") +
    (c.cycle ? " < " + c.cycle + " (cycle)" : " < " + nodeName(c.root));

  // --- layout: tiers bottom (hosts) to top; hosts ordered by their ToR, switches by their neighbours below
  const tiers = [];
  nodes.forEach((n, id) => { (tiers[n[2]] = tiers[n[2]] || []).push(id); });
  const peersOf = (n) => (nodePorts.get(n) || []).map((i) => ports[i][2]);
  const x = new Float64Array(nodes.length), y = new Float64Array(nodes.length);
  const manyHosts = (tiers[0] || []).length > 512;
  const hostW = manyHosts ? 0 : (tiers[0].length > 128 ? 5 : 12);
  const order = [];
  for (let k = 1; k < tiers.length; ++k) {
    let list = tiers[k].slice();
    if (k > 1) {
      const bary = (n) => { const below = peersOf(n).filter((p) => nodes[p][2] === k - 1);
        return below.length ? below.reduce((a, p) => a + order[k - 1].indexOf(p), 0) / below.length : 0; };
      const b = new Map(list.map((n) => [n, bary(n)]));
      list.sort((a, c) => b.get(a) - b.get(c) || a - c);
    }
    order[k] = list;
  }
  order[0] = [];
  for (const tor of order[1] || []) for (const p of peersOf(tor)) if (nodes[p][2] === 0) order[0].push(p);
  for (const h of tiers[0] || []) if (!order[0].includes(h)) order[0].push(h);
  const topTier = tiers.length - 1, rowH = 130, margin = 30;
  let width = 0;
  const switchW = (n) => Math.max(36, (nodePorts.get(n) || []).length * 7);
  for (let k = 1; k < tiers.length; ++k) width = Math.max(width, order[k].reduce((a, n) => a + switchW(n) + 14, 0));
  const hostSpan = manyHosts ? (order[1] || []).length * 40 : order[0].length * (hostW + 2);
  width = Math.max(width, hostSpan) + 2 * margin;
  const height = (topTier + 1) * rowH + margin;
  for (let k = 1; k < tiers.length; ++k) {
    const total = order[k].reduce((a, n) => a + switchW(n), 0);
    const gap = (width - 2 * margin - total) / Math.max(1, order[k].length);
    let cx = margin + gap / 2;
    for (const n of order[k]) { x[n] = cx + switchW(n) / 2; y[n] = margin + (topTier - k) * rowH; cx += switchW(n) + gap; }
  }
  if (!manyHosts) {
    const gap = (width - 2 * margin) / Math.max(1, order[0].length);
    order[0].forEach((h, k) => { x[h] = margin + gap * (k + 0.5); y[h] = margin + topTier * rowH; });
  }

  // --- drawing
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  // small fabrics are drawn larger than their natural size, large ones scroll
  svg.setAttribute("width", Math.min(4000, width * (width < 500 ? 2 : width < 1000 ? 1.5 : 1)));
  svg.setAttribute("id", "fabric");
  $("drawing").appendChild(svg);
  const natural = svg.getAttribute("width");
  $("fit").addEventListener("click", () => {
    const fit = svg.getAttribute("width") !== "100%";
    svg.setAttribute("width", fit ? "100%" : natural);
    $("fit").textContent = fit ? "actual size" : "fit width";
  });
  const el = (tag, attrs, parent) => { const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]); (parent || svg).appendChild(e); return e; };
  const gLinks = el("g", {}), gNodes = el("g", {}), gPorts = el("g", {});
  // a port's square sits on its node's edge toward the peer, in the order of the node's ports
  const portXY = new Array(P);
  const hostBlock = new Map();
  if (manyHosts) (order[1] || []).forEach((tor) => {
    const hs = peersOf(tor).filter((p) => nodes[p][2] === 0);
    hs.forEach((h) => { x[h] = x[tor]; y[h] = margin + topTier * rowH; hostBlock.set(h, tor); });
  });
  nodes.forEach((n, id) => {
    const mine = nodePorts.get(id) || [];
    if (n[1] === "host") {
      if (manyHosts) return;
      portXY[mine[0]] = [x[id], y[id] - 8];
      return;
    }
    // ports toward a higher tier, or to a switch of the same tier, on the top edge; toward hosts and lower tiers below
    const up = mine.filter((i) => nodes[ports[i][2]][2] > n[2] || (nodes[ports[i][2]][2] === n[2] && nodes[ports[i][2]][1] === "switch"));
    const down = mine.filter((i) => !up.includes(i));
    const w = switchW(id);
    const place = (list, py) => list.forEach((i, k) => { portXY[i] = [x[id] - w / 2 + (k + 0.5) * w / list.length, py]; });
    place(up.sort((a, b) => x[ports[a][2]] - x[ports[b][2]]), y[id] - 12);
    place(down.sort((a, b) => x[ports[a][2]] - x[ports[b][2]]), y[id] + 12);
  });
  if (manyHosts) ports.forEach((p, i) => { if (nodes[p[0]][1] === "host") portXY[i] = [x[p[0]], y[p[0]] - 8]; });
  const linkEl = new Map();
  let arcTop = 0;  // the highest arc between switches of one tier: the drawing grows upward to show it
  ports.forEach((p, i) => {
    const j = portIndex.get(p[2] + ":" + p[3]);
    if (j === undefined || j < i) return;
    const a = portXY[i], b = portXY[j];
    // two switches of one tier: an arc above them
    const arc = nodes[p[0]][2] === nodes[p[2]][2] && nodes[p[0]][1] === "switch";
    if (arc) arcTop = Math.max(arcTop, (20 + Math.abs(b[0] - a[0]) / 6) / 2 - a[1] + 12);
    const line = arc
      ? el("path", {d: `M${a[0]},${a[1]} Q${(a[0] + b[0]) / 2},${a[1] - 20 - Math.abs(b[0] - a[0]) / 6} ${b[0]},${b[1]}`, class: "link", fill: "none"}, gLinks)
      : el("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "link"}, gLinks);
    linkEl.set(i, line); linkEl.set(j, line);
  });
  if (arcTop > 0) svg.setAttribute("viewBox", `0 ${-arcTop} ${width} ${height + arcTop}`);
  nodes.forEach((n, id) => {
    if (n[1] === "host") {
      if (manyHosts) return;
      const r = el("rect", {x: x[id] - hostW / 2, y: y[id] - 6, width: hostW, height: 12, class: "host", "data-node": n[0]}, gNodes);
      r.addEventListener("click", () => pickHost(id));
      el("title", {}, r).textContent = n[0];
      if (hostW >= 12) el("text", {x: x[id], y: y[id] + 18, class: "label"}, gNodes).textContent = n[0];
      return;
    }
    const w = switchW(id);
    el("rect", {x: x[id] - w / 2, y: y[id] - 10, width: w, height: 20, rx: 3, class: "switch"}, gNodes);
    const label = el("text", {x: x[id], y: y[id] + 4, class: "label"}, gNodes);
    label.textContent = n[0];
  });
  if (manyHosts) for (const tor of order[1] || []) {
    const hs = peersOf(tor).filter((p) => nodes[p][2] === 0);
    const r = el("rect", {x: x[tor] - 16, y: margin + topTier * rowH - 6, width: 32, height: 12, class: "host"}, gNodes);
    el("title", {}, r).textContent = hs.map(nodeName).join(" ");
  }
  const portEl = new Array(P);
  ports.forEach((p, i) => {
    if (!portXY[i]) return;
    const s = nodes[p[0]][1] === "host" ? Math.max(3, Math.min(6, hostW - 1)) : 5;
    const r = el("rect", {x: portXY[i][0] - s / 2, y: portXY[i][1] - s / 2, width: s, height: s, id: "p" + i, class: "port"}, gPorts);
    el("title", {}, r).textContent = portName(i) + " -> " + nodeName(p[2]) + ":" + p[3];
    portEl[i] = r;
  });

  function colour(q) {
    if (q === 0) return "#e8e8e8";
    const v = Math.min(1, Math.sqrt(q / qmax));
    const stops = [[255, 237, 160], [253, 141, 60], [189, 0, 38]];
    const k = v < 0.5 ? 0 : 1, f = v < 0.5 ? v * 2 : (v - 0.5) * 2;
    const c = stops[k].map((a, m) => Math.round(a + (stops[k + 1][m] - a) * f));
    return `rgb(${c[0]},${c[1]},${c[2]})`;
  }

  // --- state
  let cur = 0, flow = -1, timer = null;
  const slider = $("slider");
  slider.max = S - 1;
  function show(s) {
    cur = Math.max(0, Math.min(S - 1, s));
    slider.value = cur;
    $("time").textContent = fmtTime(times[cur]);
    for (let i = 0; i < P; ++i) {
      const e = portEl[i];
      if (!e) continue;
      const q = queue[cur * P + i], m = paused[cur * P + i];
      e.setAttribute("fill", colour(q));
      e.setAttribute("data-q", q);
      e.setAttribute("data-paused", m);
      e.classList.toggle("paused", m !== 0);
    }
    $("state").dataset.sample = cur;
    $("state").dataset.timeNs = times[cur];
    if (flow >= 0) drawRateCursor();
  }
  slider.addEventListener("input", () => show(+slider.value));
  $("play").addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    $("play").textContent = "pause";
    timer = setInterval(() => { if (cur >= S - 1) { clearInterval(timer); timer = null; $("play").textContent = "play"; } else show(cur + 1); }, 80);
  });

  // --- a flow: path, rate over time, the queues and pauses on its way
  let firstHost = -1;
  function pickHost(h) {
    if (firstHost < 0) { firstHost = h; $("pick").textContent = "from " + nodeName(h) + ": click the receiver"; return; }
    const pair = flows.filter((f) => f[1] === firstHost && f[2] === h);
    $("pick").textContent = pair.length ? "" : `no flow from ${nodeName(firstHost)} to ${nodeName(h)}`;
    firstHost = -1;
    if (pair.length) selectFlow(pair.reduce((a, f) => (f[3] > a[3] ? f : a))[0]);
  }
  $("flowform").addEventListener("submit", (ev) => { ev.preventDefault(); selectFlow(+$("flowid").value); });

  function selectFlow(id) {
    const f = flows[id];
    document.querySelectorAll(".onpath").forEach((e) => e.classList.remove("onpath"));
    const panel = $("flowpanel");
    if (!f) { panel.innerHTML = `<p class="err">no flow ${id}</p>`; return; }
    flow = id;
    const [_, src, dst, size, start, finish, path] = f;
    const end = finish === null ? times[S - 1] : finish;
    let html = `<h3>flow ${id}: ${nodeName(src)} &rarr; ${nodeName(dst)}, ${fmtBytes(size)}</h3>` +
      `<p>start ${fmtTime(start)}, ${finish === null ? "unfinished" : "finish " + fmtTime(finish) + ", FCT " + ((finish - start) / 1e3).toFixed(1) + " us"}</p>`;
    const s0 = sampleAt(start), s1 = sampleAt(end);
    const chains = [];
    if (path) {
      html += "<table><tr><th>port</th><th>max queue while active</th><th>paused while active</th><th>pause chain (paused port &lt; the one behind it ... &lt; where it started)</th></tr>";
      for (const i of path) {
        if (linkEl.get(i)) linkEl.get(i).classList.add("onpath");
        if (portEl[i]) portEl[i].classList.add("onpath");
        let mq = 0;
        for (let s = s0; s <= s1; ++s) mq = Math.max(mq, queue[s * P + i]);
        let pausedNs = 0, first = null;
        for (const iv of intervals.get(i) || []) {
          const a = Math.max(iv[0], start), b = Math.min(iv[1], end);
          if (b > a) { pausedNs += b - a; if (first === null) first = a; }
        }
        let ctext = "";
        if (first !== null) { const tc = settle(i, first), c = chain(i, tc); c.t = tc; chains.push(c); ctext = chainText(c) + (c.root !== undefined && c.rootPort >= 0 ? ` (fullest egress ${portName(c.rootPort)}: ${fmtBytes(c.rootQueue)})` : ""); }
        html += `<tr data-port="${portName(i)}"><td>${portName(i)}</td><td>${fmtBytes(mq)}</td><td>${(pausedNs / 1e3).toFixed(1)} us</td><td class="chain">${ctext}</td></tr>`;
      }
      html += "</table>";
    } else {
      html += "<p>packets sprayed: no single path</p>";
    }
    html += '<svg id="rate" width="520" height="160"></svg>';
    panel.innerHTML = html;
    drawRate(id);
    const st = $("state");
    st.dataset.flow = id;
    st.dataset.path = path ? path.map(portName).join(",") : "";
    st.dataset.chain = chains.length ? chainText(chains[0]) : "";
    st.dataset.chainT = chains.length ? String(chains[0].t) : "";
    st.dataset.chains = chains.map(chainText).join(";");
  }

  function drawRate(id) {
    const g = $("rate"), pts = rates.get(id) || [];
    const interval = F.interval_ns;
    const w = 520, h = 160, l = 40, b = 20;
    const rmax = Math.max(1, ...pts.map((p) => p[1] * 8 / interval));
    const X = (s) => l + (w - l - 5) * s / Math.max(1, S - 1), Y = (r) => h - b - (h - b - 5) * r / rmax;
    const mk = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text) e.textContent = text; g.appendChild(e); return e; };
    mk("line", {x1: l, y1: h - b, x2: w, y2: h - b, stroke: "#999"});
    mk("text", {x: 2, y: 12, class: "axis"}, rmax.toFixed(1) + " Gb/s");
    mk("text", {x: l, y: h - 4, class: "axis"}, "rate over time (whole run)");
    mk("polyline", {points: pts.map((p) => `${X(p[0])},${Y(p[1] * 8 / interval)}`).join(" "), fill: "none", stroke: "#6a3d9a", "stroke-width": 1.5});
    mk("line", {id: "ratecursor", x1: X(cur), y1: 5, x2: X(cur), y2: h - b, stroke: "#000", "stroke-dasharray": "2,2"});
  }
  function drawRateCursor() {
    const c = $("ratecursor");
    if (!c) return;
    const xx = 40 + (520 - 45) * cur / Math.max(1, S - 1);
    c.setAttribute("x1", xx); c.setAttribute("x2", xx);
  }

  // --- lists: largest queues, longest pause chains, deadlocks and stalls the run reported
  {
    const peak = [];
    for (let i = 0; i < P; ++i) { let m = 0, ms = 0; for (let s = 0; s < S; ++s) if (queue[s * P + i] > m) { m = queue[s * P + i]; ms = s; } if (m > 0) peak.push([m, i, ms]); }
    peak.sort((a, b) => b[0] - a[0]);
    $("queues").innerHTML = peak.slice(0, 10).map(([m, i, s]) =>
      `<li><a href="#" data-s="${s}">${portName(i)}</a>: ${fmtBytes(m)} at ${fmtTime(times[s])}</li>`).join("") || "<li>no queue</li>";
    const seen = new Set(), longest = [];
    for (const [i, ivs] of intervals) for (const iv of ivs) {
      const c = chain(i, settle(i, iv[0])), key = chainText(c);
      if (seen.has(key)) continue;
      seen.add(key);
      longest.push([c.links.length, key, iv[0]]);
    }
    longest.sort((a, b) => b[0] - a[0] || a[2] - b[2]);
    $("chains").innerHTML = longest.slice(0, 10).map(([n, k, t]) =>
      `<li><a href="#" data-t="${t}">${k}</a> (${n} hop${n > 1 ? "s" : ""}, from ${fmtTime(t)})</li>`).join("") || "<li>no PFC pause</li>";
    // summary.json's own checks (README "Invariants, stalls and PFC deadlocks")
    const esc = (t) => String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;");
    const ns = (v) => v === null || v === undefined ? "still in force at the end" : fmtTime(v);
    const extra = [];
    const dl = SUMMARY.deadlocks;
    for (const c of (dl && dl.cycles) || [])
      extra.push(`<li><b>PFC deadlock</b> at priority ${c.priority}, formed at <a href="#" data-t="${c.formed_ns}">` +
        `${fmtTime(c.formed_ns)}</a>, resolved: ${ns(c.resolved_ns)}: ` +
        esc((c.ports || []).map((h) => `${h.switch}:${h.port} -> ${h.to}`).join(", ")) + "</li>");
    if (dl && dl.found > ((dl.cycles || []).length))
      extra.push(`<li>${dl.found - dl.cycles.length} more PFC deadlocks (summary.json)</li>`);
    const stalls = SUMMARY.stalls || [];
    for (const w of stalls.slice(0, 20))
      extra.push(`<li><b>stalled</b> <a href="#" data-flow="${w.flow}">flow ${w.flow}</a> (${esc(w.src)} -> ${esc(w.dst)}, ` +
        `${fmtBytes(w.size_bytes)}, ${fmtBytes(w.acked_bytes)} acknowledged): ${esc(w.why)}; waits for ${esc(w.waits_for)}: ` +
        `${esc(w.detail)}</li>`);
    if (stalls.length > 20) extra.push(`<li>${stalls.length - 20} more stalled flows (summary.json stalls)</li>`);
    const un = SUMMARY.unfinished;
    if (un && un.active) extra.push(`<li>${un.active} flows still active at the end of the run (${esc(un.run_end)})</li>`);
    $("reports").innerHTML = extra.join("") || "<li>no PFC deadlock or stalled flow reported</li>";
    document.querySelectorAll("#reports a[data-t]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); show(sampleAt(+a.dataset.t)); }));
    document.querySelectorAll("#reports a[data-flow]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); selectFlow(+a.dataset.flow); }));
    document.querySelectorAll("#queues a").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); show(+a.dataset.s); }));
    document.querySelectorAll("#chains a").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); show(sampleAt(+a.dataset.t)); }));
  }

  // --- start: the hash's time and flow
  const hash = new URLSearchParams(location.hash.slice(1));
  show(hash.has("t") ? sampleAt(+hash.get("t")) : 0);
  if (hash.has("flow")) selectFlow(+hash.get("flow"));
  if (hash.has("pair")) {
    const [a, b] = hash.get("pair").split(",").map((nm) => nodes.findIndex((n) => n[0] === nm));
    if (a >= 0 && b >= 0) { pickHost(a); pickHost(b); }
  }
  document.body.dataset.ready = "yes";
})();
