// The tunefarm console: one live stream (/api/feed, Server-Sent Events read through fetch so the
// read token travels in a header, never in a URL) and a few reads when the operator picks
// something. No timer asks the server for anything; the stream pushes at most once a second.
(function () {
  "use strict";

  const TOKEN_KEY = "tunefarm.readToken";
  const state = { agents: [], sweeps: [], records: 0 };
  const search = { key: null, points: [], plotBest: null, plotParam: null };
  const sensors = { readings: {}, plotTemp: null, plotClock: null, dirty: false };
  let liveSince = 0;

  // ---- reading the farm --------------------------------------------------------------------

  function headers() {
    const t = sessionStorage.getItem(TOKEN_KEY);
    return t ? { Authorization: "Bearer " + t } : {};
  }

  async function getJson(path) {
    const r = await fetch(path, { headers: headers() });
    if (r.status === 401) { askToken("that token was refused"); throw new Error("unauthorized"); }
    if (!r.ok) throw new Error(path + ": " + r.status);
    return r.json();
  }

  async function start() {
    const access = await (await fetch("/api/access")).json();
    if (access.readsNeedToken && !sessionStorage.getItem(TOKEN_KEY)) { askToken(""); return; }
    connect();
    loadSensors();
    loadTable();
  }

  function askToken(message) {
    document.getElementById("login").classList.remove("hidden");
    document.getElementById("login-error").textContent = message;
    document.getElementById("login-token").focus();
  }

  document.getElementById("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, document.getElementById("login-token").value.trim());
    document.getElementById("login").classList.add("hidden");
    connect();
    loadSensors();
    loadTable();
  });

  let stream = null;
  async function connect() {
    if (stream) stream.abort();
    stream = new AbortController();
    setLive("connecting…", "wait");
    try {
      const r = await fetch("/api/feed", { headers: headers(), signal: stream.signal });
      if (r.status === 401) { askToken("that token was refused"); return; }
      if (!r.ok || !r.body) throw new Error("feed: " + r.status);
      liveSince = Date.now();
      setLive("live", "ok");
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      throw new Error("feed closed");
    } catch (e) {
      if (e.name === "AbortError") return;
      setLive("reconnecting…", "bad");
      setTimeout(connect, 2000);
    }
  }

  function dispatch(block) {
    let event = "message", data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    if (!data) return;
    const body = JSON.parse(data);
    if (event === "state") onState(body);
    else if (event === "records") onRecords(body);
  }

  function setLive(text, kind) {
    document.getElementById("live-text").textContent = text;
    document.getElementById("live").className = "live " + kind;
  }

  // ---- state: agents and sweeps ------------------------------------------------------------

  function onState(s) {
    const before = state.records;
    state.agents = s.agents;
    state.sweeps = s.sweeps;
    state.records = s.records;
    for (const a of s.agents) addReading(a.id, a.lastSeen, a.tempC, a.clockMhz);
    renderSummary();
    renderAgents();
    renderSweeps();
    if (!search.key) pickFirstSearch();
    if (s.records !== before) scheduleTable();
    drawSensors();
  }

  function renderSummary() {
    const online = state.agents.filter((a) => a.state !== "offline").length;
    setText("sum-agents", online + " / " + state.agents.length);
    setText("sum-leases", state.agents.filter((a) => a.state === "measuring").length);
    setText("sum-sweeps", state.sweeps.filter((s) => s.state !== "done").length + " / " + state.sweeps.length);
    setText("sum-records", state.records);
  }

  function renderAgents() {
    const rows = state.agents.map((a) => {
      const c = a.candidate || a.lastCandidate;
      const cand = c ? `<span class="mono">${esc(c.sweep)}</span> · #${c.index} <span class="muted">${esc(paramText(c.params))}</span>` : `<span class="muted">—</span>`;
      return `<tr><td class="mono">${esc(a.id)}</td><td class="mono clip" title="${esc(a.deviceClass)}">${esc(short(a.deviceClass))}</td>
        <td><span class="pill ${a.state}">${a.state}</span></td><td>${cand}</td>
        <td>${a.lastSeen ? ago(a.lastSeen) : "—"}</td>
        <td class="num">${a.tempC == null ? absent(a.id, "tempC") : a.tempC.toFixed(1) + " °C"}</td>
        <td class="num">${a.clockMhz == null ? absent(a.id, "clockMhz") : Math.round(a.clockMhz) + " MHz"}</td>
        <td class="num">${a.measured}</td><td class="mono">${a.version == null ? '<span class="muted">—</span>' : esc(String(a.version))}</td></tr>`;
    });
    fill("agents", rows, 9, "no agents registered");
  }

  function renderSweeps() {
    const rows = [];
    for (const s of state.sweeps.slice().reverse()) {
      const failures = Object.entries(s.failures || {}).map(([k, v]) => `<span class="pill fail">${esc(k)} ${v}</span>`).join(" ") || '<span class="muted">none</span>';
      const searches = s.searches.length ? s.searches : [null];
      searches.forEach((q, i) => {
        const key = q ? searchKey(s.id, q.deviceClass, q.kernel) : null;
        const pct = q && q.budget > 0 ? Math.min(100, (100 * q.measured) / q.budget) : q && q.done ? 100 : 0;
        const progress = q ? `<div class="bar"><div style="width:${pct.toFixed(1)}%"></div></div>
            <span class="muted">${q.measured}${q.budget > 0 ? " / " + q.budget : ""} measured${q.pending ? ", " + q.pending + " out" : ""}</span>` : "";
        rows.push(`<tr class="${key && key === search.key ? "selected" : ""} ${key ? "pick" : ""}" data-key="${esc(key || "")}">
          ${i === 0 ? `<td rowspan="${searches.length}"><b>${esc(s.name)}</b><br><span class="mono muted">${esc(s.id)}</span></td>
            <td rowspan="${searches.length}">${esc(s.kernel)}</td><td rowspan="${searches.length}"><span class="pill ${esc(s.state)}">${esc(s.state)}</span>${s.priority ? ` <span class="muted">priority ${s.priority}</span>` : ""}
              <div class="actions">${actions(s)}</div></td>` : ""}
          <td>${q ? `<span class="mono clip" title="${esc(q.deviceClass)}">${esc(short(q.deviceClass))}</span> · ${esc(q.kernel)}` : '<span class="muted">waiting for an agent</span>'}</td>
          <td class="progress-col">${progress}</td>
          <td class="num">${q ? q.rate.toFixed(2) : ""}</td>
          <td class="num">${q ? eta(q) : ""}</td>
          ${i === 0 ? `<td rowspan="${searches.length}">${failures}</td>` : ""}</tr>`);
      });
    }
    fill("sweeps", rows, 8, "no sweeps yet");
  }

  /** The lifecycle buttons a sweep's state allows. */
  function actions(s) {
    const allowed = { running: ["pause", "cancel"], waiting: ["pause", "cancel"], paused: ["resume", "cancel"] }[s.state] || [];
    return allowed.map((a) => `<button type="button" class="small ${a}" data-action="${a}" data-sweep="${esc(s.id)}">${a}</button>`).join(" ");
  }

  // A write: sent with the admin token when the tab has one; a farm on loopback without an admin
  // token takes writes without one. A 401 or 403 asks for the token and sends again.
  const ADMIN_KEY = "tunefarm.adminToken";
  let pendingAction = null;
  async function control(sweep, action) {
    const t = sessionStorage.getItem(ADMIN_KEY);
    const r = await fetch(`/api/sweeps/${encodeURIComponent(sweep)}/${action}`, { method: "POST", headers: t ? { Authorization: "Bearer " + t } : {} });
    if (r.status === 401 || r.status === 403) {
      pendingAction = [sweep, action];
      document.getElementById("admin").classList.remove("hidden");
      document.getElementById("admin-error").textContent = t ? "that token was refused" : "";
      document.getElementById("admin-token").focus();
      return;
    }
    if (!r.ok) { const e = await r.json(); alertLine(`${action} ${sweep}: ${e.error}`); }
  }
  document.getElementById("admin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(ADMIN_KEY, document.getElementById("admin-token").value.trim());
    document.getElementById("admin").classList.add("hidden");
    if (pendingAction) { const [s, a] = pendingAction; pendingAction = null; control(s, a); }
  });
  function alertLine(text) { setLive(text, "bad"); setTimeout(() => setLive("live", "ok"), 5000); }

  document.querySelector("#sweeps tbody").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-action]");
    if (b) { e.stopPropagation(); control(b.dataset.sweep, b.dataset.action); return; }
    const tr = e.target.closest("tr.pick");
    if (tr) selectSearch(tr.dataset.key);
  });

  /** A missing reading: "no sensor" when the agent never had one, "no reading" when only this one is missing. */
  function absent(agent, field) {
    const rs = sensors.readings[agent];
    const ever = rs && [...rs.values()].some((r) => r[field] != null);
    return `<span class="muted">${ever ? "no reading" : "no sensor"}</span>`;
  }

  function eta(q) {
    if (q.done) return "done";
    if (q.etaS == null) return '<span class="muted">—</span>';
    const s = Math.round(q.etaS);
    return s < 60 ? s + " s" : s < 3600 ? Math.round(s / 60) + " min" : (s / 3600).toFixed(1) + " h";
  }

  // ---- one search: best so far, time against a parameter, failures -------------------------

  function searchKey(sweep, deviceClass, kernel) { return [sweep, deviceClass, kernel].join("\u0001"); }

  function pickFirstSearch() {
    for (const s of state.sweeps.slice().reverse()) {
      if (s.searches.length) { selectSearch(searchKey(s.id, s.searches[0].deviceClass, s.searches[0].kernel)); return; }
    }
  }

  async function selectSearch(key) {
    search.key = key;
    const [sweep, deviceClass, kernel] = key.split("\u0001");
    setText("search-title", `— ${sweep} · ${kernel} on ${short(deviceClass)}`);
    renderSweeps();
    const q = new URLSearchParams({ deviceClass, kernel });
    const body = await getJson(`/api/sweeps/${encodeURIComponent(sweep)}/points?${q}`);
    if (search.key !== key) return;
    search.points = body.points;
    fillParams();
    drawSearch();
  }

  function onRecords(points) {
    let mine = false;
    for (const p of points) {
      if (search.key && searchKey(p.sweep, p.deviceClass, p.kernel) === search.key) { search.points.push(p); mine = true; }
    }
    if (mine) { if (!document.getElementById("param").options.length) fillParams(); drawSearch(); }
  }

  function fillParams() {
    const sel = document.getElementById("param");
    const names = new Set();
    for (const p of search.points) Object.keys(p.params || {}).forEach((k) => names.add(k));
    const current = sel.value;
    sel.innerHTML = [...names].sort().map((n) => `<option>${esc(n)}</option>`).join("");
    if (names.has(current)) { sel.value = current; return; }
    // First pick: the parameter the search varied most, which says the most against time.
    const spread = (n) => new Set(search.points.map((p) => JSON.stringify(p.params && p.params[n]))).size;
    const widest = [...names].sort((a, b) => spread(b) - spread(a))[0];
    if (widest) sel.value = widest;
  }
  document.getElementById("param").addEventListener("change", drawSearch);

  function drawSearch() {
    const ok = search.points.filter((p) => p.status === "OK" && p.medianNs != null);
    const failed = search.points.filter((p) => p.status !== "OK");
    // Best so far, trial by trial (round 0 only: finalists' re-measurements are not new trials).
    const trials = search.points.filter((p) => p.round === 0);
    const xs = [], best = [], each = [];
    let b = null;
    trials.forEach((p, i) => {
      const ms = p.status === "OK" && p.medianNs != null ? p.medianNs / 1e6 : null;
      if (ms != null && (b == null || ms < b)) b = ms;
      xs.push(i + 1); best.push(b); each.push(ms);
    });
    search.plotBest = plot(search.plotBest, "plot-best", [xs, best, each], {
      x: "trial", series: [
        { label: "best so far", stroke: "#4fd1c5", width: 2, paths: uPlot.paths.stepped({ align: 1 }), spanGaps: true, points: { show: false } },
        { label: "trial", stroke: "#a0aec0", width: 0, paths: () => null, points: { show: true, size: 5, fill: "#a0aec0" } }],
    });
    // Each OK candidate's time against the chosen parameter; enum values are placed by rank.
    const param = document.getElementById("param").value;
    const values = [...new Set(ok.map((p) => p.params[param]))];
    const numeric = values.every((v) => typeof v === "number");
    values.sort((a, b) => (numeric ? a - b : String(a).localeCompare(String(b))));
    const pts = ok.map((p) => [numeric ? p.params[param] : values.indexOf(p.params[param]), p.medianNs / 1e6]).sort((a, b) => a[0] - b[0]);
    search.plotParam = plot(search.plotParam, "plot-param", [pts.map((p) => p[0]), pts.map((p) => p[1])], {
      x: param || "parameter", xValues: numeric ? null : values,
      series: [{ label: "median", stroke: "#f6ad55", width: 0, paths: () => null, points: { show: true, size: 6, fill: "#f6ad55" } }],
    });
    setText("failure-count", failed.length ? `(${failed.length} of ${search.points.length})` : "");
    const rows = failed.slice(-50).reverse().map((p) => `<tr><td><span class="pill fail">${esc(p.status)}</span></td>
      <td>#${p.index}</td><td class="muted">${esc(paramText(p.params))}</td><td class="mono">${esc(p.agent)}</td></tr>`);
    fill("failures", rows, 4, "none");
  }

  // ---- sensors over time ---------------------------------------------------------------------

  async function loadSensors() {
    const body = await getJson("/api/sensors");
    for (const [agent, rs] of Object.entries(body)) for (const r of rs) addReading(agent, r.t, r.tempC, r.clockMhz);
    drawSensors();
  }

  function addReading(agent, t, tempC, clockMhz) {
    if (!agent || !t) return;
    if (tempC == null && clockMhz == null) return; // no sensor: nothing to plot, never a fake 0
    const rs = (sensors.readings[agent] = sensors.readings[agent] || new Map());
    rs.set(Math.round(t / 1000), { tempC, clockMhz });
    if (rs.size > 2000) rs.delete(rs.keys().next().value);
    sensors.dirty = true;
  }

  function drawSensors() {
    const agents = Object.keys(sensors.readings).sort();
    const withData = agents.filter((a) => sensors.readings[a].size);
    // Absent is never 0: an agent without a sensor is named, not drawn along the axis.
    const lacking = (field) => state.agents.map((a) => a.id).filter((id) => !withData.includes(id) || ![...sensors.readings[id].values()].some((r) => r[field] != null));
    const noTemp = lacking("tempC"), noClock = lacking("clockMhz");
    setText("temp-note", noTemp.length ? "no temperature sensor on " + noTemp.join(", ") : "");
    setText("clock-note", noClock.length ? "no clock reading on " + noClock.join(", ") : "");
    if (!sensors.dirty && sensors.plotTemp) return;
    sensors.dirty = false;
    const times = [...new Set(withData.flatMap((a) => [...sensors.readings[a].keys()]))].sort((a, b) => a - b);
    const series = (field) => withData.map((a) => times.map((t) => { const r = sensors.readings[a].get(t); return r && r[field] != null ? r[field] : null; }));
    const palette = ["#63b3ed", "#f687b3", "#68d391", "#f6e05e", "#b794f4", "#fc8181"];
    const spec = () => withData.map((a, i) => ({ label: a, stroke: palette[i % palette.length], width: 1.5, spanGaps: true, points: { show: false } }));
    sensors.plotTemp = plot(sensors.plotTemp, "plot-temp", [times, ...series("tempC")], { time: true, series: spec() });
    sensors.plotClock = plot(sensors.plotClock, "plot-clock", [times, ...series("clockMhz")], { time: true, series: spec() });
  }

  // ---- the best-kernel table -----------------------------------------------------------------

  let tableTimer = null;
  function scheduleTable() {
    // New records may change the table; read it at most every 5 s while a sweep runs.
    if (tableTimer) return;
    tableTimer = setTimeout(() => { tableTimer = null; loadTable(); }, 5000);
  }

  function tableQuery() {
    const q = new URLSearchParams();
    const c = document.getElementById("f-class").value, op = document.getElementById("f-op").value, shape = document.getElementById("f-shape").value.trim();
    if (c) q.set("deviceClass", c);
    if (op) q.set("op", op);
    if (shape) q.set("shape", shape);
    return q.toString();
  }

  async function loadTable() {
    const body = await getJson("/api/table?" + tableQuery());
    const rows = body.entries.map((e) => `<tr><td class="mono clip" title="${esc(e.deviceClass)}">${esc(short(e.deviceClass))}</td>
      <td>${esc(e.kernel.op)}</td><td class="mono">${esc(Object.entries(e.kernel.shape).map(([k, v]) => k + "=" + v).join(" "))}</td>
      <td>${esc(e.objective || "latency")}</td>
      <td class="mono">${esc(paramText(e.params))}</td><td class="num">${(e.stats.medianNs / 1e6).toFixed(3)} ms</td>
      <td class="num">${e.sustainedNs == null ? "n/a" : (e.sustainedNs / 1e6).toFixed(3) + " ms"}</td>
      <td class="num">${e.energyJ == null ? "n/a" : e.energyJ.toPrecision(3) + " J"}</td>
      <td class="num">${e.gflops == null ? "—" : e.gflops.toFixed(1)}</td>
      <td class="num">${e.speedupOverDefault == null ? "—" : e.speedupOverDefault.toFixed(2) + "×"}</td>
      <td class="num">${e.boardSpread == null ? "—" : (100 * e.boardSpread).toFixed(1) + " %"}</td></tr>`);
    fill("table", rows, 11, "no entries" + (tableQuery() ? " match the filters" : " yet"));
    if (!tableQuery()) {
      fillOptions("f-class", [...new Set(body.entries.map((e) => e.deviceClass))]);
      fillOptions("f-op", [...new Set(body.entries.map((e) => e.kernel.op))]);
    }
  }

  function fillOptions(id, values) {
    const sel = document.getElementById(id), current = sel.value;
    sel.innerHTML = '<option value="">all</option>' + values.sort().map((v) => `<option value="${esc(v)}">${esc(short(v))}</option>`).join("");
    sel.value = current;
  }

  document.getElementById("table-filters").addEventListener("submit", (e) => { e.preventDefault(); loadTable(); });
  document.getElementById("download").addEventListener("click", async () => {
    // A fetched blob rather than a plain link: the read token goes in a header.
    const r = await fetch("/api/table?" + tableQuery(), { headers: headers() });
    const url = URL.createObjectURL(await r.blob());
    const a = document.createElement("a");
    a.href = url; a.download = "tunefarm-table.json";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  // ---- small things ----------------------------------------------------------------------------

  function plot(existing, id, data, o) {
    const el = document.getElementById(id);
    const width = Math.max(300, el.clientWidth);
    const shape = JSON.stringify([o.x, o.xValues, o.series.map((x) => x.label)]);
    if (existing && existing.tfShape === shape) {
      existing.setData(data);
      if (Math.abs(existing.width - width) > 4) existing.setSize({ width, height: 200 });
      return existing;
    }
    if (existing) existing.destroy();
    const axis = { stroke: "#a0aec0", grid: { stroke: "#2d3748", width: 1 }, ticks: { stroke: "#2d3748" } };
    const xAxis = Object.assign({}, axis, o.xValues ? { values: (u, vals) => vals.map((v) => (Number.isInteger(v) && o.xValues[v] !== undefined ? o.xValues[v] : "")) } : {},
      o.x ? { label: o.x, labelSize: 18 } : {});
    const u = new uPlot({
      width, height: 200, scales: { x: { time: !!o.time } },
      legend: { show: true, live: false },
      series: [{ label: o.x || "time" }].concat(o.series),
      axes: [xAxis, Object.assign({}, axis, { size: 56 })],
    }, data, el);
    u.tfShape = shape;
    return u;
  }

  function fill(id, rows, cols, empty) {
    document.querySelector(`#${id} tbody`).innerHTML = rows.length ? rows.join("") : `<tr class="empty"><td colspan="${cols}">${empty}</td></tr>`;
  }
  function setText(id, t) { document.getElementById(id).textContent = t; }
  function paramText(p) { return p ? Object.entries(p).map(([k, v]) => k + "=" + v).join(" ") : ""; }
  function short(s) { return s && s.length > 28 ? s.slice(0, 26) + "…" : s || ""; }
  function ago(t) {
    const s = Math.max(0, Math.round((Date.now() - t) / 1000));
    return s < 60 ? s + " s ago" : s < 3600 ? Math.round(s / 60) + " min ago" : new Date(t).toLocaleString();
  }
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  // Relative times ("3 s ago") age between updates; redraw them once a second (no request).
  setInterval(() => { if (state.agents.length) renderAgents(); }, 1000);
  window.addEventListener("resize", () => {
    for (const [p, id] of [[search.plotBest, "plot-best"], [search.plotParam, "plot-param"], [sensors.plotTemp, "plot-temp"], [sensors.plotClock, "plot-clock"]]) {
      if (p) p.setSize({ width: Math.max(300, document.getElementById(id).clientWidth), height: 200 });
    }
  });

  start();
})();
