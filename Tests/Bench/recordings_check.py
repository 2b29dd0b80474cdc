#!/usr/bin/env python3
"""Figures of a real frame-timing recording, computed independently of the Swift importers.

    python3 Tests/Bench/recordings_check.py <file> [<file> …]

Reads each file as it was recorded (UTF-8, UTF-8 with BOM, or UTF-16 either byte order with a
BOM; CRLF or LF) and prints, per run, what the importer is compared with on the accuracy page:

- `dumpsys gfxinfo … framestats`: per process and window, the rows, their Flags, the rows still in
  flight (FrameCompleted 0), stale rows (FrameCompleted before IntendedVsync) and bogus ones (more
  than 10 s after it), then over the rest: frames, janky frames (FrameCompleted at or past
  FrameDeadline, or past IntendedVsync + one interval without a deadline column; SurfaceCanvas
  rows, Flags 0x4, counted but never janky: hwui's JankTracker rule), refresh intervals, span
  (first IntendedVsync to last FrameCompleted), largest gap between begins, begins off the vsync
  grid, and the window's own summary lines when the dump prints them.
- a gfxinfo dump without framestats: its summary lines (frames, janky, percentiles).
- Jetpack Macrobenchmark JSON: per benchmark its metrics; per-frame runs with frame counts and
  nearest-rank percentiles; the pre-1.1 percentile metrics (frameTime50thPercentileMs …).
- Flutter DevTools export: frames, DevTools' janky count (build or raster over budget, whole ms),
  gaps between vsyncs in intervals.
- Instruments `xctrace export` XML (<trace-query-result>, parsed by expat from the raw bytes, so
  its own encoding rules apply): per table its schema, columns and rows, `id`/`ref` resolved;
  for `hitches` the hitch count, total duration and processes; for `hitches-frame-lifetimes` and
  the other hitch stage tables their rows and durations; for `display-vsyncs-interval` the
  intervals between vsyncs; for `device-display-info` each display's maximum refresh rate.

No data is embedded here; every figure comes from the file given.
"""
import json
import math
import re
import sys


def decode(raw):
    if raw.startswith(b"\xff\xfe") or raw.startswith(b"\xfe\xff"):
        return raw.decode("utf-16"), "UTF-16" + ("LE" if raw[:2] == b"\xff\xfe" else "BE") + " with BOM"
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8"), "UTF-8 with BOM"
    return raw.decode("utf-8"), "UTF-8"


def nearest_rank(sorted_values, p):
    if not sorted_values:
        return None
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


def summary_lines(lines):
    out = {}
    for line in lines:
        t = line.strip()
        m = re.match(r"Total frames rendered: (\d+)", t)
        if m:
            out["total"] = int(m.group(1))
        m = re.match(r"Janky frames: (\d+) \(([\d.]+)%\)", t)
        if m:
            out["janky"] = int(m.group(1))
        m = re.match(r"(\d+)th percentile: (\d+)ms", t)
        if m:
            out["p" + m.group(1)] = int(m.group(2))
    return out


def gfxinfo(text):
    lines = text.replace("\r\n", "\n").split("\n")
    if "---PROFILEDATA---" not in [l.strip() for l in lines]:
        fail = [l.strip() for l in lines if "Failure while dumping" in l]
        if fail:
            print("  a failed dump:", fail[0][:120])
            return
        s = summary_lines(lines)
        print("  no framestats section; summary:", s)
        return
    process, window, pending, i = None, None, [], 0
    while i < len(lines):
        t = lines[i].strip()
        m = re.search(r"Graphics info for pid (\d+) \[(.*)\]", t)
        if m:
            process, window, pending = m.group(2) + " (pid " + m.group(1) + ")", None, []
        elif t.startswith("Window:"):
            window, pending = t[len("Window:"):].strip(), []
        elif t == "---PROFILEDATA---":
            end = i + 1
            while end < len(lines) and lines[end].strip() != "---PROFILEDATA---":
                end += 1
            section(process, window, summary_lines(pending), lines[i + 1:end], i + 2)
            i, pending = end, []
        else:
            pending.append(t)
        i += 1


def section(process, window, summary, rows, first_line):
    rows = [r.strip().rstrip(",") for r in rows if r.strip()]
    if not rows:
        return
    header = rows[0].split(",")
    col = {name: k for k, name in enumerate(header) if name not in ("",)}
    data = [list(map(int, r.split(","))) for r in rows[1:]]
    print(f"  section: {process} — {window or '(no window line)'}, {len(data)} rows, header {'Android 12+' if 'FrameDeadline' in col else 'Android 6-11'}")
    flags = {}
    for r in data:
        flags[r[col["Flags"]]] = flags.get(r[col["Flags"]], 0) + 1
    print("    flags:", dict(sorted(flags.items())))
    # The interval column, by value (Android 12+ prints interval and start time under each other's names).
    interval_col = None
    for name in ("FrameInterval", "FrameStartTime"):
        if name in col and data and 4_000_000 <= data[0][col[name]] <= 50_000_000:
            interval_col = name
    kept, in_flight, stale, bogus = [], [], [], []
    for n, r in enumerate(data):
        iv, fc = r[col["IntendedVsync"]], r[col["FrameCompleted"]]
        if fc == 0:
            in_flight.append(n + 1)
        elif fc < iv:
            stale.append(n + 1)
        elif fc - iv > 10_000_000_000:
            bogus.append(n + 1)
        else:
            kept.append(r)
    print(f"    in flight {len(in_flight)} {in_flight[:8]}, stale {len(stale)} {stale[:8]}, bogus {len(bogus)} {bogus[:8]}")
    if not kept:
        print("    nothing usable left")
        return
    intervals = sorted({r[col[interval_col]] for r in kept}) if interval_col else []
    step = None
    if not interval_col:
        begins = [r[col["IntendedVsync"]] for r in kept]
        steps = [b - a for a, b in zip(begins, begins[1:]) if b > a]
        step = min(steps) if steps else None
    janky = 0
    totals = []
    for r in kept:
        iv, fc = r[col["IntendedVsync"]], r[col["FrameCompleted"]]
        totals.append((fc - iv) / 1e6)
        if r[col["Flags"]] & 0x4:
            continue
        if "FrameDeadline" in col:
            due = r[col["FrameDeadline"]]
        else:
            due = iv + (r[col[interval_col]] if interval_col else (step or 16_666_667))
        if fc >= due:
            janky += 1
    begins = [r[col["IntendedVsync"]] for r in kept]
    span = (max(r[col["FrameCompleted"]] for r in kept) - begins[0]) / 1e6
    gaps = [(b - a) for a, b in zip(begins, begins[1:])]
    off_grid = 0
    for k, g in enumerate(gaps):
        period = kept[k + 1][col[interval_col]] if interval_col else step
        if period and g > 0:
            x = g / period
            if abs(x - round(x)) > 0.2:
                off_grid += 1
    totals.sort()
    print(f"    frames {len(kept)}, janky {janky}; interval column {interval_col or 'none'}"
          + (f" {', '.join(str(v) for v in intervals[:3])}{' …' if len(intervals) > 3 else ''} ns ({len(intervals)} values)" if intervals else f"; smallest vsync step {step} ns"))
    print(f"    span {span:.3f} ms, largest gap between begins {max(gaps) / 1e6 if gaps else 0:.3f} ms, begins off the grid {off_grid}")
    print(f"    total duration p50 {nearest_rank(totals, 50):.3f} p90 {nearest_rank(totals, 90):.3f} p99 {nearest_rank(totals, 99):.3f} ms")
    if summary:
        print("    the window's own summary:", summary)


def macrobenchmark(root):
    build = root.get("context", {}).get("build", {})
    print("  device:", build.get("model"), "API", build.get("version", {}).get("sdk"))
    for b in root.get("benchmarks", []):
        name = b.get("className", "").split(".")[-1] + "." + b.get("name", "")
        print("  benchmark", name, "metrics:", sorted(b.get("metrics", {})))
        for metric, v in sorted(b.get("metrics", {}).items()):
            if "Percentile" in metric or metric in ("totalFrameCount", "frameCount"):
                print(f"    {metric}: median {v.get('median')}, runs {v.get('runs')}")
        for metric, v in sorted(b.get("sampledMetrics", {}).items()):
            runs = v.get("runs", [])
            all_values = sorted(x for run in runs for x in run)
            print(f"    {metric}: {len(runs)} iterations, frames {[len(r) for r in runs]}, "
                  + ", ".join(f"P{p} {nearest_rank(all_values, p)}" for p in (50, 90, 95, 99)))


def flutter(root):
    perf = root.get("performance", {})
    frames = perf.get("flutterFrames", [])
    hz = perf.get("displayRefreshRate")
    print(f"  flutter {root.get('flutterVersion')}, {len(frames)} frames, {hz} Hz")
    if not frames or not hz:
        return
    budget = 1000 / hz
    interval = 1e6 / hz
    janky = sum(1 for f in frames if f["build"] // 1000 > budget or f["raster"] // 1000 > budget)
    begins = [f["startTime"] - f["vsyncOverhead"] for f in frames]
    gaps = [(b - a) / interval for a, b in zip(begins, begins[1:])]
    off = [(k + 2, round(g * interval / 1000, 3), round(g, 2)) for k, g in enumerate(gaps) if abs(g - round(g)) > 0.2]
    print(f"    janky (DevTools) {janky}; vsync gaps off the grid {len(off)}: {off[:6]}")
    print(f"    span {(begins[-1] + frames[-1]['elapsed'] - begins[0]) / 1000:.3f} ms, numbers {frames[0]['number']}–{frames[-1]['number']}")


def xctrace(raw):
    import xml.etree.ElementTree as ET
    root = ET.fromstring(raw)
    by_id = {}
    for e in root.iter():
        if "id" in e.attrib:
            by_id[e.attrib["id"]] = e
    def value(e):
        t = by_id.get(e.attrib["ref"], e) if "ref" in e.attrib else e
        return t
    print(f"  root <{root.tag}>, {len(root.findall('node'))} table(s)")
    for node in root.findall("node"):
        schema = node.find("schema")
        if schema is None:
            continue
        name = schema.attrib.get("name")
        cols = [c.findtext("mnemonic") for c in schema.findall("col")]
        rows = [[value(c) for c in r] for r in node.findall("row")]
        print(f"  table {name}: {len(rows)} rows; columns {cols}")
        def column(mnemonic):
            if mnemonic not in cols:
                return []
            k = cols.index(mnemonic)
            return [r[k] for r in rows if k < len(r) and r[k].tag != "sentinel"]
        durations = [int(c.text) for c in column("duration")]
        if durations:
            print(f"    durations: sum {sum(durations) / 1e6:.3f} ms, min {min(durations) / 1e6:.3f}, max {max(durations) / 1e6:.3f} ms")
        if name == "hitches":
            procs = sorted({c.attrib.get("fmt", "") for c in column("process")})
            print(f"    hitches {len(durations)}, processes {procs}")
        if name and "vsync" in name:
            starts = sorted(int(c.text) for c in column("start" if "start" in cols else "timestamp"))
            steps = [b - a for a, b in zip(starts, starts[1:])]
            if steps:
                steps.sort()
                print(f"    vsync starts {len(starts)}, step median {steps[len(steps) // 2]} ns ({1e9 / steps[len(steps) // 2]:.2f} Hz), min {steps[0]}, max {steps[-1]} ns")
        if "max-refresh-rate" in cols:
            print("    max refresh rates:", [c.text for c in column("max-refresh-rate")], "built-in:", [c.attrib.get("fmt") for c in column("built-in")])


def main(paths):
    for path in paths:
        raw = open(path, "rb").read()
        try:
            text, encoding = decode(raw)
        except UnicodeDecodeError as e:
            print(f"{path}: not text ({e})")
            continue
        crlf = "\r\n" in text
        print(f"{path}: {len(raw)} bytes, {encoding}{', CRLF' if crlf else ''}")
        start = text.lstrip()[:1]
        if start == "<":
            xctrace(raw)
        elif start in "{[":
            root = json.loads(text)
            if isinstance(root, dict) and "benchmarks" in root:
                macrobenchmark(root)
            elif isinstance(root, dict) and ("devToolsSnapshot" in root or "performance" in root):
                flutter(root)
            else:
                print("  JSON of another shape; top-level keys:", sorted(root)[:10] if isinstance(root, dict) else "array")
        else:
            gfxinfo(text)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
