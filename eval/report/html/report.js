// searchbench report.html: renders the embedded data. Nothing is fetched;
// pages are built on demand (a case list shows PAGE rows at a time, a case's
// trace is decompressed when a case is first opened), so a run of 10,000
// cases stays responsive.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const RUNS = DATA.runs;
  const COMPARE = RUNS.length === 2;
  const CMP = DATA.comparison || {};
  const FLIPS = new Map((CMP.flips || []).map(f => [f.key, f]));
  // flipLabel names a flip: "pass→fail", or a sampled case's rates "2/5 → 5/5".
  const flipLabel = f => f.change || (f.to_fail ? "pass→fail" : "fail→pass");
  const PAGE = 200;
  const app = document.getElementById("app");

  // el builds an element: el("td", {class: "num"}, "text", child…).
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      // Through the CSSOM: the page's Content-Security-Policy refuses
      // style attributes.
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat(Infinity)) {
      if (k === undefined || k === null || k === false) continue;
      e.append(k instanceof Node ? k : String(k));
    }
    return e;
  }
  function table(header, rows, cls) {
    return el("table", {class: cls}, el("thead", {}, el("tr", {}, header.map(h => el("th", {}, h)))),
      el("tbody", {}, rows));
  }
  function pct(v) { return (100 * v).toFixed(1) + "%"; }
  // ID_SEP are the characters an id may wrap after on a narrow screen.
  const ID_SEP = /([\/\-_.:])/;
  // idText shows an id (a case key) with a break opportunity after each
  // separator, so a narrow column wraps it at "/" or "-", never inside a
  // word.
  function idText(id) {
    const out = [];
    for (const part of String(id).split(ID_SEP)) {
      if (part === "") continue;
      out.push(part);
      if (ID_SEP.test(part)) out.push(el("wbr"));
    }
    return out;
  }
  const looksLikeID = v => /^[\w.-]+\/[\w.\/-]+$/.test(v);
  // safeURL is url when it is an http or https address (a link may open
  // it); anything else (javascript:, data:) is shown as text only.
  function safeURL(url) {
    try {
      const u = new URL(url);
      return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
    } catch (e) { return null; }
  }
  // num shows a figure of a trace rounded to what it means: milliseconds
  // and counts whole, anything else to three significant digits.
  function num(name, v) {
    if (typeof v !== "number" || !isFinite(v)) return v;
    if (Number.isInteger(v)) return String(v);
    if (/\bms$/.test(name) || /tokens|attempts|results/.test(name)) return String(Math.round(v));
    return String(Number(v.toPrecision(3)));
  }
  function fmtValue(m) {
    switch (m.unit) {
      case "rate": return pct(m.value);
      case "score": return m.value.toFixed(3);
      case "tokens": return m.value.toFixed(1);
      case "ms": return m.value.toFixed(0) + " ms";
      case "usd": return usd(m.value);
    }
    return m.value.toFixed(2);
  }
  function usd(v) { return v === undefined || v === null ? "" : "$" + v.toFixed(Math.abs(v) < 1 ? 4 : 2); }
  function fmtCI(m) {
    if (m.unit === "usd" && m.den > 1 && m.ci_high) {
      const d = m.ci_high >= 1 ? 2 : 4; // both ends alike
      return "$" + (m.ci_low || 0).toFixed(d) + "–$" + m.ci_high.toFixed(d);
    }
    if (m.unit !== "rate" || !m.den || (!m.ci_low && !m.ci_high)) return "";
    return (100 * (m.ci_low || 0)).toFixed(1) + "–" + (100 * (m.ci_high || 0)).toFixed(1) + "%";
  }
  // fmtN is the terminal's n (FormatN): for a rate whose interval counts
  // cases, the cases and then the samples "68 (527/680)".
  function fmtN(m) {
    if (m.cases && m.unit === "rate") return `${m.cases} (${m.num || 0}/${m.den || 0})`;
    if (m.cases) return String(m.cases);
    if (m.unit === "rate") return (m.num || 0) + "/" + (m.den || 0);
    return m.den ? String(m.den) : "";
  }
  function ciBar(m) {
    if (m.unit !== "rate" || !fmtCI(m)) return "";
    const lo = m.ci_low || 0, hi = m.ci_high || 0;
    return el("div", {class: "ci", title: "95% CI " + fmtCI(m)},
      el("span", {style: `left:${100 * lo}%;width:${100 * (hi - lo)}%`}),
      el("i", {style: `left:calc(${100 * m.value}% - 1px)`}));
  }
  // samplesOf lists every sample of a case: sample 1 is the case's own
  // fields, samples 2..N follow.
  function samplesOf(c) {
    return [{k: 1, pass: c.pass, error: c.error, checks: c.checks || []}].concat(c.samples || []);
  }
  function passedSamples(c) { return samplesOf(c).filter(s => s.pass && !s.error).length; }
  // badge shows a case's outcome: pass, fail or error, or for a case of
  // several samples how many passed ("4/5"), coloured by the case's own
  // outcome (sample 1's, as the run counts it), amber when sample 1 passed
  // and another did not.
  function badge(c) {
    if (!c) return el("span", {class: "badge none"}, "absent");
    if (c.samples && c.samples.length) {
      const n = c.samples.length + 1, k = passedSamples(c);
      const cls = c.error ? "error" : !c.pass ? "fail" : k < n ? "mixed" : "pass";
      return el("span", {class: "badge samples " + cls,
        title: `${k} of ${n} samples passed; the run counts the case by sample 1 (${c.error ? "error" : c.pass ? "pass" : "fail"})`}, `${k}/${n}`);
    }
    if (c.error) return el("span", {class: "badge error"}, "error");
    return c.pass ? el("span", {class: "badge pass"}, "pass") : el("span", {class: "badge fail"}, "fail");
  }
  function sampleBadge(s) {
    if (s.error) return el("span", {class: "badge error"}, "error");
    return el("span", {class: "badge " + (s.pass ? "pass" : "fail")}, s.pass ? "pass" : "fail");
  }
  // diffPre shows a check's diff as the terminal prints it, lines coloured.
  function diffPre(text) {
    const pre = el("pre", {class: "diff"});
    for (const line of text.replace(/\n$/, "").split("\n")) {
      const head = line.startsWith("--- ") || line.startsWith("+++ ");
      const cls = head ? "hdr" : line.startsWith("-") ? "del" : line.startsWith("+") ? "add" : "hdr";
      pre.append(el("span", {class: cls}, line === "" ? " " : line));
    }
    return pre;
  }
  function hashParams(h) {
    const i = h.indexOf("?");
    return new URLSearchParams(i < 0 ? "" : h.slice(i + 1));
  }

  // Cases by key, per run; the case list is B's order (or the one run's),
  // then cases only A has; in a comparison the flipped cases come first.
  const byKey = RUNS.map(r => new Map(r.cases.map((c, i) => [c.key, i])));
  let keys = [];
  {
    const seen = new Set();
    for (const r of RUNS.slice().reverse()) for (const c of r.cases) if (!seen.has(c.key)) { seen.add(c.key); keys.push(c.key); }
    if (COMPARE) keys = keys.filter(k => FLIPS.has(k)).concat(keys.filter(k => !FLIPS.has(k)));
  }
  function caseOf(run, key) {
    const i = byKey[run].get(key);
    return i === undefined ? null : RUNS[run].cases[i];
  }
  function failing(c) { return c && (!c.pass || c.error); }
  function failedChecks(c) {
    const out = [];
    if (!c) return out;
    if (c.error) out.push("(error)");
    for (const k of c.checks || []) if (!k.p && !k.x) out.push(k.s + ": " + k.n);
    return out;
  }

  // ---- overview ----
  function runLine(r) {
    const m = r.meta, parts = ["variant " + m.variant];
    if (m.variant_hash) parts.push("hash " + m.variant_hash);
    parts.push("mode " + m.mode);
    if (m.backend) parts.push("recorded from " + m.backend + (m.sim_policies ? " (" + m.sim_policies.join(", ") + ")" : ""));
    if (m.filter) parts.push("filter " + m.filter.join(","));
    if (m.shard) parts.push("shard " + m.shard);
    if (m.shards) parts.push("merged from shards " + m.shards.join(", "));
    return parts.join(" · ");
  }
  function counts(r) {
    const s = r.summary;
    return `${s.cases} cases: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors`;
  }
  function verdict(r) {
    if (!r.gate) return el("div", {class: "verdict none", id: "verdict"}, counts(r) + " — not gated (a run measures; run --gates gives a verdict)");
    return el("div", {class: "verdict " + r.gate.verdict, id: "verdict"}, r.gate.line);
  }
  function heatmap(t) {
    const cols = t.header.slice(1);
    const rows = (t.rows || []).map(row => {
      const total = row.slice(1).reduce((a, v) => a + (parseInt(v, 10) || 0), 0);
      return el("tr", {}, el("th", {}, row[0]), row.slice(1).map((v, j) => {
        const n = parseInt(v, 10) || 0, share = total ? n / total : 0;
        const good = cols[j] === row[0];
        const rgb = good ? "26,127,55" : "207,34,46";
        return el("td", {class: "cell", title: `${row[0]} → ${cols[j]}: ${n} of ${total}`,
          style: n ? `background:rgba(${rgb},${(0.15 + 0.75 * share).toFixed(3)});color:${share > 0.55 ? "#fff" : "inherit"}` : ""}, v);
      }));
    });
    return table(t.header, rows, "heat");
  }
  function labelBars(t) {
    const rows = [];
    for (const row of t.rows || []) {
      t.header.slice(2).forEach((h, j) => {
        const v = parseFloat(row[j + 2]);
        rows.push(el("tr", {}, el("td", {}, j === 0 ? row[0] : ""), el("td", {class: "num"}, j === 0 ? row[1] : ""),
          el("td", {}, h), el("td", {class: "num"}, row[j + 2]),
          el("td", {class: "b"}, isNaN(v) ? "" : el("div", {class: "bar", style: `width:${(100 * v).toFixed(1)}%`}))));
      });
    }
    return table([t.header[0], t.header[1], "measure", "value", ""], rows, "bars");
  }
  function anyTable(t) {
    if (/confusion matrix/i.test(t.title)) return heatmap(t);
    if (/per label/i.test(t.title)) return labelBars(t);
    return table(t.header || [], (t.rows || []).map(r => el("tr", {}, r.map(c => el("td", {}, looksLikeID(c) ? idText(c) : c)))), "");
  }
  function checkGroups(run) {
    const groups = new Map();
    for (const c of RUNS[run].cases || []) for (const name of failedChecks(c)) {
      const g = groups.get(name) || [];
      g.push(c.key);
      groups.set(name, g);
    }
    return [...groups.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  }
  // headlineMetrics are the gate's headline, or for an ungated run the
  // pass rates below 100% (as the terminal summary shows).
  function headlineMetrics(r) {
    const byName = new Map((r.summary.metrics || []).map(m => [m.name, m]));
    if (r.gate && r.gate.headline && r.gate.headline.length) {
      return {title: "Headline", rows: r.gate.headline.map(n => byName.get(n) || {name: n, missing: true})};
    }
    // A rate with no passes has no "num" (the JSON omits zeros).
    // As the terminal counts them: a share where lower is better
    // (consent.wrong, incorrect answers) or with no direction (answers the
    // judge decided) is no pass rate.
    const rates = (r.summary.metrics || []).filter(m => m.unit === "rate" && m.den && m.better === "higher");
    const below = rates.filter(m => (m.num || 0) < m.den);
    const shown = below.length > 12 ? "; 12 shown" : "";
    return {title: `Pass rates below 100% (${below.length} of ${rates.length} rates${shown})`, rows: below.slice(0, 12)};
  }
  function metricRows(ms, head, notes) {
    return ms.map(m => m.missing ? el("tr", {}, el("td", {}, m.name), el("td", {colspan: notes ? 5 : 4}, "no data")) :
      el("tr", {class: head && head.has(m.name) ? "headline" : "", title: m.note || null},
        el("td", {}, m.name), el("td", {class: "num"}, fmtValue(m)), el("td", {class: "num nowrap"}, fmtCI(m)),
        el("td", {}, ciBar(m)), el("td", {class: "num"}, fmtN(m)), notes ? el("td", {class: "muted"}, m.note || "") : null));
  }
  function overview() {
    app.replaceChildren();
    if (COMPARE) return compareOverview();
    const r = RUNS[0];
    app.append(el("h1", {}, "searchbench report"), verdict(r),
      el("p", {}, runLine(r), el("span", {class: "muted"}, " — " + r.name)));
    if (r.gate && r.gate.violations && r.gate.violations.length) {
      app.append(el("h2", {}, `Gate violations (${r.gate.violations.length})`),
        table(["kind", "metric", "case", "want", "got", "explanation"], r.gate.violations.map(v => el("tr", {},
          el("td", {}, v.kind), el("td", {}, v.metric || ""), el("td", {}, v.case ? el("a", {href: "#case/" + encodeURIComponent(v.case)}, idText(v.case)) : ""),
          el("td", {}, v.want), el("td", {}, v.got), el("td", {}, v.explanation)))));
    }
    if (r.gate && r.gate.notes) app.append(el("ul", {}, r.gate.notes.map(n => el("li", {class: "muted"}, n))));
    const hl = headlineMetrics(r);
    const tables = r.summary.tables || [];
    const glance = tables.filter(t => /confusion matrix|per label/i.test(t.title));
    const left = el("div", {}, el("h2", {id: "headline"}, hl.title),
      hl.rows.length ? table(["metric", "value", "95% CI", "interval", "n"], metricRows(hl.rows, null, false), "metrics headline")
        : el("p", {}, "Every pass rate is 100%."));
    const right = el("div", {}, glance.map(t => [el("h2", {}, t.title), anyTable(t), (t.notes || []).map(n => el("p", {class: "muted"}, n))]));
    app.append(el("div", {class: "glance"}, left, right));
    const groups = checkGroups(0);
    app.append(el("h2", {}, "Failing checks by check"));
    if (!groups.length) app.append(el("p", {}, "No check failed."));
    else app.append(table(["check", "cases", "first cases"], groups.map(([name, ks]) => el("tr", {},
      el("td", {}, el("a", {href: "#cases?check=" + encodeURIComponent(name)}, name)), el("td", {class: "num"}, ks.length),
      el("td", {class: "wrap"}, ks.slice(0, 3).map((k, i) => [i ? ", " : "", el("a", {href: "#case/" + encodeURIComponent(k)}, idText(k))]),
        ks.length > 3 ? ", …" : "")))));
    app.append(el("p", {}, el("a", {href: "#cases?failing=1", id: "browse-failing"}, "Browse the failing cases"), " · ",
      el("a", {href: "#cases"}, "all cases")));
    const head = new Set((r.gate && r.gate.headline) || []);
    const metrics = r.summary.metrics || [];
    app.append(el("h2", {}, `All metrics (${metrics.length})`),
      table(["metric", "value", "95% CI", "interval", "n", "note"], metricRows(metrics, head, true), "metrics"));
    for (const t of tables.filter(t => !glance.includes(t))) {
      app.append(el("h2", {}, t.title), anyTable(t));
      for (const n of t.notes || []) app.append(el("p", {class: "muted"}, n));
    }
  }
  function compareOverview() {
    const [a, b] = RUNS;
    app.append(el("h1", {}, "searchbench compare"),
      el("p", {}, el("strong", {}, "A: "), a.name, " — ", runLine(a), " — ", counts(a)),
      el("p", {}, el("strong", {}, "B: "), b.name, " — ", runLine(b), " — ", counts(b)));
    for (const w of CMP.warnings || []) app.append(el("div", {class: "verdict none"}, "Warning: " + w));
    const flips = CMP.flips || [];
    const broken = flips.filter(f => f.to_fail).length;
    app.append(el("div", {class: "verdict none", id: "verdict"}, CMP.sampled
      ? `${flips.length} cases whose pass rate changed: ${broken} worse, ${flips.length - broken} better`
      : `${flips.length} cases flipped: ${broken} broken (pass→fail), ${flips.length - broken} fixed (fail→pass)`));
    if (flips.length) app.append(table(["case", "change", "A", "B"], flips.map(f => el("tr", {},
      el("td", {}, el("a", {href: "#case/" + encodeURIComponent(f.key)}, idText(f.key))), el("td", {}, flipLabel(f)),
      el("td", {}, badge(caseOf(0, f.key))), el("td", {}, badge(caseOf(1, f.key)))))));
    app.append(el("p", {}, el("a", {href: "#cases?failing=1", id: "browse-failing"}, "Browse the cases failing in A or B"), " · ",
      el("a", {href: "#cases"}, "all cases")));
    for (const t of CMP.tables || []) {
      app.append(el("h2", {}, t.title), anyTable(t));
      for (const n of t.notes || []) app.append(el("p", {class: "muted"}, n));
    }
  }

  // ---- case browser ----
  function options(values) { return [...new Set(values)].filter(v => v).sort(); }
  function browser(params) {
    app.replaceChildren();
    const all = keys.map(k => [k, RUNS.map((_, i) => caseOf(i, k))]);
    const pick = (f) => all.flatMap(([, cs]) => cs.filter(c => c).flatMap(f));
    const filt = {
      failing: params.get("failing") === "1", dataset: params.get("dataset") || "", label: params.get("label") || "",
      tag: params.get("tag") || "", check: params.get("check") || "", q: params.get("q") || "",
    };
    const update = () => {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(filt)) if (v) p.set(k, v === true ? "1" : v);
      const h = "#cases" + (p.toString() ? "?" + p : "");
      history.replaceState(null, "", h);
      render();
    };
    const select = (name, label, values) => el("label", {}, label + " ",
      el("select", {id: "f-" + name, onchange: e => { filt[name] = e.target.value; update(); }},
        el("option", {value: ""}, "all"), values.map(v => el("option", {value: v, selected: v === filt[name]}, v))));
    const search = el("input", {type: "search", id: "f-q", placeholder: "search ids, inputs, checks…", value: filt.q});
    search.addEventListener("input", () => { filt.q = search.value; update(); });
    app.append(el("h1", {}, "Cases"), el("div", {class: "filters"},
      el("label", {}, el("input", {type: "checkbox", id: "f-failing", checked: filt.failing,
        onchange: e => { filt.failing = e.target.checked; update(); }}), " failing only"),
      select("dataset", "dataset", pick(c => [c.dataset])),
      select("label", "label", options(pick(c => [c.label]))),
      select("tag", "tag", options(pick(c => c.tags || []))),
      select("check", "failing check", options(pick(failedChecks))),
      search));
    const count = el("p", {id: "count"});
    const list = el("tbody", {});
    const more = el("button", {id: "more"}, "show more");
    const head = COMPARE ? ["A", "B", "case", "kind", "label", "input", "$ A", "$ B", "failing checks"] : ["", "case", "kind", "label", "input", "$", "failing checks"];
    app.append(count, el("table", {class: "caselist"}, el("thead", {}, el("tr", {}, head.map(h => el("th", {}, h)))), list), more);
    let matched = [], shown = 0;
    const showMore = () => {
      for (const [k, cs] of matched.slice(shown, shown + PAGE)) {
        const c = cs.find(x => x) || {};
        const fails = [...new Set(cs.flatMap(failedChecks))];
        list.append(el("tr", {class: "case-row"},
          cs.map(x => el("td", {}, badge(x))),
          el("td", {}, el("a", {href: "#case/" + encodeURIComponent(k)}, idText(k)), FLIPS.has(k) ? el("span", {class: "chip"}, flipLabel(FLIPS.get(k))) : ""),
          el("td", {}, c.kind), el("td", {}, c.label || ""), el("td", {class: "input", title: (c.in || []).join(" ⏎ ")}, (c.in || []).join(" ⏎ ")),
          cs.map(x => el("td", {class: "num"}, x ? usd(x.usd) : "")),
          el("td", {class: "wrap"}, fails.join("; "))));
      }
      shown = Math.min(matched.length, shown + PAGE);
      more.hidden = shown >= matched.length;
      more.textContent = `show ${Math.min(PAGE, matched.length - shown)} more`;
    };
    more.addEventListener("click", showMore);
    function render() {
      const q = filt.q.toLowerCase();
      matched = all.filter(([k, cs]) => {
        const some = f => cs.some(c => c && f(c));
        if (filt.failing && !some(failing)) return false;
        if (filt.dataset && !some(c => c.dataset === filt.dataset)) return false;
        if (filt.label && !some(c => c.label === filt.label)) return false;
        if (filt.tag && !some(c => (c.tags || []).includes(filt.tag))) return false;
        if (filt.check && !some(c => failedChecks(c).includes(filt.check))) return false;
        if (q && !some(c => c.key.toLowerCase().includes(q) || (c.error || "").toLowerCase().includes(q) ||
          (c.in || []).some(s => s.toLowerCase().includes(q)) ||
          c.checks.some(k => (k.n + " " + (k.e || "") + " " + (k.g || "") + " " + (k.r || "")).toLowerCase().includes(q)))) return false;
        return true;
      });
      count.textContent = `${matched.length} of ${all.length} cases`;
      list.replaceChildren();
      shown = 0;
      showMore();
    }
    render();
  }

  // ---- case page ----
  const traceCache = new Map();
  async function traceOf(run, key) {
    const r = RUNS[run];
    if (!r.traces || !r.traces.length) return null;
    if (!traceCache.has(run)) {
      traceCache.set(run, (async () => {
        if (typeof DecompressionStream === "undefined") throw new Error("this browser cannot decompress the embedded traces (no DecompressionStream)");
        // The traces are base64 chunks of one gzip stream.
        const bin = Uint8Array.from(atob(r.traces.join("")), ch => ch.charCodeAt(0));
        const text = await new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
        return text.split("\n");
      })());
    }
    const lines = await traceCache.get(run);
    const i = byKey[run].get(key);
    return i === undefined || !lines[i] ? null : JSON.parse(lines[i]);
  }
  // checksView lists the failing checks first, each with its diff; the
  // passing ones (and measures) fold away under them.
  function checksView(c) {
    const row = k => {
      const rows = [el("tr", {class: "check " + (k.p ? "pass" : "fail")},
        el("td", {}, k.x ? el("span", {class: "badge none"}, "measure") : el("span", {class: "badge " + (k.p ? "pass" : "fail")}, k.p ? "pass" : "fail")),
        el("td", {}, k.s + ": " + k.n), el("td", {"data-l": "expected"}, el("code", {}, k.ev || k.e || "")), el("td", {"data-l": "got"}, el("code", {}, k.gv || k.g || "")),
        el("td", {class: "wrap reason"}, k.r || ""))];
      if (k.d) rows.push(el("tr", {}, el("td", {colspan: 5}, el("div", {class: "muted"}, "Diff (invisible characters shown as ␠ → ␍ ⍽ ‹U+XXXX›)"), diffPre(k.d))));
      return rows;
    };
    const head = ["", "check", "expected", "got", "reason"];
    const checks = c.checks || [];
    const failed = checks.filter(k => !k.p && !k.x), rest = checks.filter(k => k.p || k.x);
    const box = el("div", {class: "checks"});
    if (failed.length) box.append(table(head, failed.flatMap(row), "checks"));
    if (c.k > 1 && rest.length) {
      // A later sample's passing checks come by name only (the page
      // would be mostly them); sample 1 shows what they expect.
      box.append(el("p", {class: "muted passed-names"}, `${rest.length} more checks passed (or only measure): ` +
        rest.map(k => k.s + ": " + k.n).join("; ")));
    } else if (rest.length) {
      const t = table(head, rest.flatMap(row), "checks");
      box.append(failed.length ? el("details", {}, el("summary", {}, `${rest.length} more checks passed (or only measure)`), t) : t);
    }
    if (!checks.length) box.append(el("p", {class: "muted"}, "No check ran."));
    return box;
  }
  // gradesView shows the gold answer and, for each graded answer, its
  // label, who decided it (rule, judge or none) and why.
  function gradesView(c) {
    const g = c.gold || {};
    const box = el("div", {class: "grades"}, chips([["gold", g.gold], ["rejected", g["gold.reject"]], ["as of", g["gold.as_of"]],
      ["judge", g.judge]]));
    box.append(table(["turn", "answer", "label", "decided by", "reason"], c.grades.map(r => el("tr", {class: "check " + (r.label === "correct" ? "pass" : "fail")},
      el("td", {}, r.turn + " (" + r.phase.replace("phase", "phase ") + ")"), el("td", {class: "wrap", "data-l": "answer"}, r.answer),
      el("td", {"data-l": "label"}, el("span", {class: "badge " + (r.label === "correct" ? "pass" : r.label === "undecided" ? "none" : "fail")}, r.label)),
      el("td", {"data-l": "decided by"}, r.decided_by + (r.rule && r.rule !== "judge" ? " (" + r.rule + ")" : "")),
      el("td", {class: "wrap reason"}, r.reason))), "checks"));
    return box;
  }
  function chips(pairs) {
    return el("div", {}, pairs.filter(([, v]) => v !== undefined && v !== "" && v !== false && v !== null)
      .map(([k, v]) => el("span", {class: "chip"}, v === true ? k : k + ": " + num(k, v))));
  }
  function textBlock(title, text, open) {
    if (!text) return null;
    return el("details", {open: open}, el("summary", {}, title), el("pre", {}, text));
  }
  function turnView(t, i) {
    const box = el("div", {class: "turn"}, el("h3", {}, `Turn ${i + 1}`), el("pre", {class: "user"}, "user> " + t.input),
      chips([["phase", t.phase], ["intent", t.intent], ["rule", t.intent_rule], ["awaiting consent", t.awaiting_consent],
        ["override", t.override], ["query", t.query !== t.input ? t.query : ""], ["mode", t.mode], ["route", t.route],
        ["replaced", t.replaced], ["tokens", t.usage && t.usage.total_tokens], ["model ms", t.latency && t.latency.model_ms],
        ["search ms", t.latency && t.latency.search_ms]]));
    if (t.reason) box.append(el("p", {}, el("strong", {}, "Reason: "), t.reason));
    if (t.error) box.append(el("p", {class: "badge error"}, "error"), el("pre", {}, t.error));
    const calls = t.tool_calls || [];
    (t.model_calls || []).forEach((m, j) => {
      const req = el("div", {class: "req"}, el("strong", {}, `Model request ${j + 1}`),
        chips([["round", m.round], ["tools offered", (m.tools_offered || []).join(", ") || "none"], ["finish", m.finish_reason],
          ["prompt tokens", m.usage && m.usage.prompt_tokens], ["completion tokens", m.usage && m.usage.completion_tokens],
          ["attempts", m.attempts], ["statuses", (m.statuses || []).join(", ")], ["ms", m.latency_ms]]),
        textBlock("reasoning", m.reasoning, true), textBlock("content", m.content, true));
      if (m.error) req.append(el("pre", {}, "error: " + m.error));
      if (m.tool_calls && m.tool_calls.length) req.append(el("div", {}, "Tool calls asked for:"),
        el("ul", {}, m.tool_calls.map(tc => el("li", {}, el("code", {}, tc.name + "(" + tc.arguments + ")"), " ", el("span", {class: "muted"}, tc.id)))));
      box.append(req);
      for (const c of calls.filter(c => c.round === m.round)) box.append(searchView(c));
    });
    for (const c of calls.filter(c => !(t.model_calls || []).some(m => m.round === c.round))) box.append(searchView(c));
    if (t.raw_output !== undefined && t.raw_output !== "") box.append(textBlock("Raw output (as the model returned it)", t.raw_output, t.raw_output !== t.output));
    box.append(el("div", {}, el("strong", {}, "Output shown to the user"), el("pre", {class: "output"}, t.output || "(none)")));
    return box;
  }
  function searchView(c) {
    const box = el("div", {class: "search"}, el("strong", {}, `Search: ${c.tool}`), " ", el("code", {}, c.query),
      chips([["status", c.status], ["requested", c.requested_results], ["sent", c.sent_results], ["results", c.results],
        ["attempts", c.attempts], ["ms", c.latency_ms], ["id", c.id]]));
    if (c.error) box.append(el("pre", {}, "error: " + c.error));
    // A result's address is web content: only an http or https one is a
    // link.
    const title = r => {
      const href = safeURL(r.url);
      return href ? el("a", {href: href, rel: "noreferrer noopener", target: "_blank"}, r.title || "(untitled)")
        : el("span", {class: "nolink", title: "not an http or https address: not a link"}, r.title || "(untitled)");
    };
    if (c.retrieved && c.retrieved.length) box.append(el("ol", {class: "results"}, c.retrieved.map(r => el("li", {},
      title(r), r.published ? el("span", {class: "muted"}, " · " + r.published) : "",
      el("div", {class: "url"}, r.url), r.snippet ? el("div", {class: "muted"}, r.snippet) : ""))));
    else if (c.urls && c.urls.length) box.append(el("ul", {}, c.urls.map(u => el("li", {class: "url"}, u))));
    return box;
  }
  function evidenceView(tr) {
    const box = el("div", {class: "evidence"});
    if (tr.session) {
      box.append(chips([["variant", tr.session.variant], ["mode", tr.session.mode]]));
      (tr.session.turns || []).forEach((t, i) => box.append(turnView(t, i)));
    }
    if (tr.parser_input) {
      const p = tr.parser_input;
      box.append(chips([["prompt strategy", p.prompt]]), textBlock("reasoning (parser input)", p.reasoning, true), textBlock("content (parser input)", p.content, true));
    }
    if (tr.parse) {
      const p = tr.parse;
      box.append(chips([["primary", p.Primary], ["fallback", p.Fallback], ["strategy used", p.Strategy || "none"], ["field", p.Field]]),
        el("div", {}, "Calls extracted:"), el("pre", {}, JSON.stringify(p.Calls, null, 2)));
      if (p.Findings && p.Findings.length) box.append(el("ul", {}, p.Findings.map(f => el("li", {}, f))));
    }
    return box;
  }
  // sampleTrace is sample k's part of a case's trace: sample 1 is the
  // trace itself, later samples are under "samples".
  function sampleTrace(tr, k) {
    if (!tr || k === 1) return tr;
    const s = (tr.samples || []).find(x => x.sample === k);
    return s ? {session: s.session} : null;
  }
  function caseColumn(run, key) {
    const c = caseOf(run, key);
    const col = el("div", {class: "case-col"});
    if (COMPARE) col.append(el("h2", {}, (run ? "B: " : "A: ") + RUNS[run].meta.variant), el("p", {class: "muted"}, RUNS[run].name));
    if (!c) { col.append(el("p", {}, "This run has no case ", idText(key), ".")); return col; }
    col.append(el("p", {}, badge(c), " ", chips([["dataset", c.dataset], ["kind", c.kind], ["label", c.label], ["tags", (c.tags || []).join(", ")]])));
    const trace = traceOf(run, key);
    // evidence is a placeholder that becomes sample k's trace once the
    // traces are read.
    const evidence = k => {
      const ev = el("div", {class: "muted"}, "loading the trace…");
      trace.then(tr => {
        const t = sampleTrace(tr, k);
        ev.replaceWith(t ? evidenceView(t) : el("p", {class: "muted"}, tr
          ? `No trace was kept for sample ${k} (a run older than samples' traces).`
          : "No trace was recorded for this case (a merged report keeps none)."));
      }, err => { ev.replaceWith(el("pre", {class: "error"}, "The trace could not be read: " + err.message)); });
      return ev;
    };
    // The gold answer and the graded answers (sample 1's).
    if (c.grades && c.grades.length) col.append(el("h3", {}, "Correctness"), gradesView(c));
    if (!c.samples || !c.samples.length) {
      if (c.error) col.append(el("h3", {}, "Error"), el("pre", {class: "error"}, c.error));
      col.append(el("h3", {}, "Checks"), checksView(c), el("h3", {}, "What the model saw and did"), evidence(1));
      return col;
    }
    // A case of several samples shows every one: its outcome, checks with
    // their diffs, and trace. The failing ones are open.
    const all = samplesOf(c), n = all.length, k = passedSamples(c);
    col.append(el("p", {class: "samples-line"}, `${k} of ${n} samples passed. The run's pass and fail counts take sample 1 (` +
      (c.pass ? "pass" : "fail") + "); the samples table, pass^k and the flaky cases take all of them."));
    const anyFailed = all.some(s => !s.pass || s.error);
    for (const s of all) {
      const failed = failedChecks(s);
      col.append(el("details", {class: "sample", id: `sample-${run}-${s.k}`, open: !s.pass || !!s.error || (!anyFailed && s.k === 1)},
        el("summary", {}, el("strong", {}, `Sample ${s.k}`), " ", sampleBadge(s), failed.length ? " " + failed.join("; ") : ""),
        s.error ? el("pre", {class: "error"}, s.error) : "",
        el("h3", {}, "Checks"), checksView(s), el("h3", {}, "What the model saw and did"), evidence(s.k)));
    }
    return col;
  }
  function casePage(key) {
    app.replaceChildren();
    const i = keys.indexOf(key);
    const nav = el("p", {}, el("a", {href: "#cases"}, "← cases"),
      i > 0 ? [" · ", el("a", {href: "#case/" + encodeURIComponent(keys[i - 1])}, "previous")] : "",
      i >= 0 && i < keys.length - 1 ? [" · ", el("a", {href: "#case/" + encodeURIComponent(keys[i + 1])}, "next")] : "");
    app.append(nav, el("h1", {id: "case-title"}, idText(key)));
    if (COMPARE) {
      if (FLIPS.has(key)) {
        const f = FLIPS.get(key);
        app.append(el("div", {class: "verdict " + (f.to_fail ? "FAIL" : "PASS")}, f.change
          ? `pass rate over the samples ${f.change}: ${f.to_fail ? "worse" : "better"} in B`
          : f.to_fail ? "pass→fail: passed in A, fails in B" : "fail→pass: failed in A, passes in B"));
      }
      app.append(el("div", {class: "cols"}, caseColumn(0, key), caseColumn(1, key)));
    } else app.append(caseColumn(0, key));
    window.scrollTo(0, 0);
  }

  function route() {
    const h = decodeURIComponent(location.hash.slice(1));
    if (h.startsWith("case/")) casePage(h.slice(5));
    else if (h === "cases" || h.startsWith("cases?")) browser(hashParams(location.hash));
    else overview();
  }
  window.addEventListener("hashchange", route);
  route();
})();
