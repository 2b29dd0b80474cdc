#!/usr/bin/env python3
"""Browser checks for the generated site, opened from disk (file://) in headless Chromium.

What it asserts, for every HTML page under the output folder:
  * links: every internal href/src resolves to a file, every #fragment to an id in its target page,
    and nothing points at the network (the site must work offline and under any sub-path);
  * charts: every <svg> is inline with role="img" and a non-empty <title>;
  * loading: the page loads with no console messages of level warning or above and no failed
    requests, and every <img> has decoded;
  * accessibility: axe-core finds no serious or critical violations, in light and in emulated
    dark mode;
  * layout: no horizontal overflow of the document at 390 px and 1280 px viewport widths;
  * charts: no two <text> boxes of one chart intersect, and at 390 px every chart text renders
    at least 11 CSS px (computed font-size times the SVG's scale) and every chart is whole: its
    box inside the viewport, its parent's content box and every clipping ancestor (no chart
    cropped or scrolled sideways on a phone);
  * code: a <pre> wider than its box scrolls inside itself (overflow-x auto or scroll) and takes
    the keyboard focus (tabindex="0"); at 1280 px none is clipped while the page's column had room
    to show it whole;
  * headings: main's headings start at h1 and never skip a level going down;
  * contents: a page taller than 10 screens at 390 px with four or more sections (h2) has a
    contents list (nav.toc) linking to each of its sections;
  * tables: at 1280 px every cell of every table is visible inside its scroll container (or is
    inside a <details> expansion, checked opened); at 390 px no data table is wider than the
    screen (charts' data tables and scrollers marked data-wide aside) and each cell of a stacked
    table (table.stack) is labelled with its column header; printed (emulated print media, 720 px), every
    cell of every table outside a closed <details> is visible and within the page, every chart
    keeps together (break-inside: avoid) with its caption (break-after: avoid), no "Numbers
    behind this chart" label is left alone (break-after: avoid), and its data table prints although it
    was never opened;
  * reading, counted per width: words and numbers broken inside table cells and their labels,
    chart texts cut at the chart's edge, and document overflow (`READING_KINDS`);
  * size: the whole site within 5 MB and no file over 1 MB.
It also writes screenshots of the index, a study page and a run page at both widths to the
artifacts folder.

Usage: python3 Tests/Browser/check_site.py [--output Output] [--artifacts artifacts]
           [--chromium PATH] [--chromedriver PATH] [--pages GLOB] [--skip-axe]
Exit status 0 when every check passes, 1 otherwise (each failure printed as `page: problem`).
"""

from __future__ import annotations

import argparse
import fnmatch
import html.parser
import importlib.util
import json
import pathlib
import shutil
import sys
import time
import urllib.parse

WIDTHS = (390, 1280)
# The whole of Output/ may hold this many bytes per planned run (summary.json's run count): a budget
# that grows with the content a team adds (a fixed total would fail every new study) but not with
# what a page spends per run. The default site spent 10.4 KB per run at 470 runs and 10.65 KB at 495.
SITE_BYTES_PER_RUN = 11_000
PAGE_BYTE_LIMIT = 1_000_000   # any one file in it
HEIGHT = 900
MIN_CHART_TEXT_PX = 11.0      # smallest rendered chart text on a 390 px phone
PRINT_WIDTH = 720             # A4 at 96 dpi less 2 × 1.5 cm margins
BLOCKING_IMPACTS = ("serious", "critical")


# ---------------------------------------------------------------------------------------------
# Static checks: parse each page once, without a browser.

class PageScan(html.parser.HTMLParser):
    """Collects ids, outgoing references and the shape of inline SVG charts of one page."""

    REFERENCE_ATTRIBUTES = {"href", "src", "srcset", "poster", "data", "action", "formaction"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.references: list[tuple[str, str, str, int]] = []  # (tag, attribute, url, line)
        self.svgs: list[dict] = []
        self._svg_depth = 0
        self._in_svg_title = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes and attributes["id"] is not None:
            self.ids.add(attributes["id"])
        if "name" in attributes and tag == "a" and attributes["name"]:
            self.ids.add(attributes["name"])
        line = self.getpos()[0]
        for key, value in attrs:
            if key in self.REFERENCE_ATTRIBUTES and value is not None:
                if key == "srcset":
                    for candidate in value.split(","):
                        url = candidate.strip().split(" ")[0]
                        if url:
                            self.references.append((tag, key, url, line))
                else:
                    self.references.append((tag, key, value, line))
        if tag == "svg":
            if self._svg_depth == 0:
                self.svgs.append({"line": line, "role": attributes.get("role"), "title": None})
            self._svg_depth += 1
        elif tag == "title" and self._svg_depth == 1 and self.svgs[-1]["title"] is None:
            self.svgs[-1]["title"] = ""
            self._in_svg_title = True

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self._svg_depth -= 1

    def handle_endtag(self, tag):
        if tag == "svg" and self._svg_depth > 0:
            self._svg_depth -= 1
        elif tag == "title":
            self._in_svg_title = False

    def handle_data(self, data):
        if self._in_svg_title:
            self.svgs[-1]["title"] += data


def scan_pages(root: pathlib.Path, pages: list[pathlib.Path]) -> tuple[dict, list[str]]:
    scans: dict[pathlib.Path, PageScan] = {}
    for page in pages:
        scan = PageScan()
        scan.feed(page.read_text(encoding="utf-8"))
        scan.close()
        scans[page] = scan

    failures: list[str] = []
    id_cache: dict[pathlib.Path, set[str]] = {p: s.ids for p, s in scans.items()}
    for page, scan in scans.items():
        name = page.relative_to(root).as_posix()
        for tag, attribute, url, line in scan.references:
            followed = tag == "a" and attribute == "href"
            problem = check_reference(root, page, url, followed, id_cache)
            if problem:
                failures.append(f"{name}:{line}: <{tag}> {url!r}: {problem}")
        for svg in scan.svgs:
            if svg["role"] != "img":
                failures.append(f"{name}:{svg['line']}: <svg> has role={svg['role']!r}, expected 'img'")
            if not (svg["title"] or "").strip():
                failures.append(f"{name}:{svg['line']}: <svg> has no non-empty <title> as its first title")
    return scans, failures


def check_reference(root: pathlib.Path, page: pathlib.Path, url: str, followed: bool,
                    id_cache: dict[pathlib.Path, set[str]]) -> str | None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in ("mailto",):
        return None
    if parts.scheme in ("http", "https") or url.startswith("//"):
        # Links out to the sources are fine on <a>; anything loaded (img, link, script) is not.
        return None if followed else "loads from the network"
    if parts.scheme:
        return f"unexpected scheme {parts.scheme!r}"
    if url.startswith("/"):
        return "absolute path: links must be page-relative"
    target = page if parts.path == "" else (page.parent / urllib.parse.unquote(parts.path)).resolve()
    try:
        target.relative_to(root)
    except ValueError:
        return "points outside the output folder"
    if target.is_dir():
        return "points at a folder (no index file is implied from file://)"
    if not target.exists():
        return "target file does not exist"
    if parts.fragment:
        fragment = urllib.parse.unquote(parts.fragment)
        if target.suffix != ".html":
            return "fragment on a non-HTML target"
        ids = id_cache.get(target)
        if ids is None:
            scan = PageScan()
            scan.feed(target.read_text(encoding="utf-8"))
            ids = id_cache[target] = scan.ids
        if fragment not in ids:
            return f"no element with id {fragment!r} in {target.relative_to(root).as_posix()}"
    return None


# ---------------------------------------------------------------------------------------------
# Browser checks.

def axe_source() -> str:
    """axe-core's script. Taken from the axe-playwright-python wheel (axe 4.x, installed with
    --no-deps: only its bundled script is used), else from axe-selenium-python (axe 3.x)."""
    for package in ("axe_playwright_python", "axe_selenium_python"):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = pathlib.Path(list(spec.submodule_search_locations)[0])
        for candidate in sorted(folder.rglob("axe.min.js")):
            return candidate.read_text(encoding="utf-8")
    raise SystemExit("error: axe-core not found; pip install --no-deps axe-playwright-python")


def start_browser(chromium: str, chromedriver: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US",
                     f"--window-size={WIDTHS[-1]},{HEIGHT}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Network.enable", {})
    return driver


def set_viewport(driver, width: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})


def set_color_scheme(driver, scheme: str) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def load_problems(driver) -> list[str]:
    problems: list[str] = []
    for entry in driver.get_log("browser"):
        if entry.get("level") in ("WARNING", "SEVERE"):
            problems.append(f"console {entry['level'].lower()}: {entry.get('message', '')[:300]}")
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.loadingFailed":
            params = message.get("params", {})
            problems.append(f"failed request: {params.get('errorText')} ({params.get('type')})")
        elif message.get("method") == "Network.responseReceived":
            response = message.get("params", {}).get("response", {})
            status = response.get("status", 200)
            if status and status >= 400:
                problems.append(f"HTTP {status} for {response.get('url')}")
    broken = driver.execute_script(
        "return Array.from(document.images)"
        ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));")
    problems.extend(f"image did not load: {src}" for src in broken)
    return problems


def overflow(driver) -> tuple[int, int, list[str]]:
    return driver.execute_script("""
        const root = document.documentElement;
        const width = root.clientWidth;
        const culprits = [];
        if (root.scrollWidth > width) {
          for (const el of document.body.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            const spills = r.right > width + 0.5 ||
                (style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1 && r.left + el.scrollWidth > width + 0.5);
            if (spills && style.position !== 'fixed') {
              let p = el.parentElement, clipped = false;
              while (p && p !== document.body) {
                const o = getComputedStyle(p).overflowX;
                if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
                p = p.parentElement;
              }
              if (!clipped) culprits.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                  (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''));
            }
            if (culprits.length >= 5) break;
          }
        }
        return [root.scrollWidth, width, culprits];
    """)


def chart_text_problems(driver) -> list[str]:
    """Pairs of <text> elements in one chart whose rendered boxes intersect (by more than half
    a pixel each way), and, with `min_px`, texts rendered smaller than that."""
    return driver.execute_script("""
        const problems = [];
        document.querySelectorAll('svg.chart').forEach((svg, n) => {
          const name = svg.querySelector('title') ? svg.querySelector('title').textContent : 'chart ' + n;
          const boxes = [];
          svg.querySelectorAll('text').forEach(t => {
            const r = t.getBoundingClientRect();
            if (r.width > 0 && r.height > 0 && t.textContent.trim()) boxes.push([t.textContent.trim(), r]);
          });
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i][1], b = boxes[j][1];
            const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (dx > 0.5 && dy > 0.5 && problems.length < 10)
              problems.push(`chart "${name}": labels "${boxes[i][0]}" and "${boxes[j][0]}" overlap`);
          }
        });
        return problems;
    """)


def chart_fit_problems(driver) -> list[str]:
    """Charts that do not fit whole: the part of each svg.chart's box beyond the viewport, beyond
    its parent's content box, or hidden by a clipping or scrolling ancestor, in px."""
    return driver.execute_script("""
        const problems = [], vw = document.documentElement.clientWidth;
        document.querySelectorAll('svg.chart').forEach((svg, n) => {
          const name = svg.querySelector('title') ? svg.querySelector('title').textContent : 'chart ' + n;
          const r = svg.getBoundingClientRect();
          if (r.width === 0) return;
          const parent = svg.parentElement, pr = parent.getBoundingClientRect(), ps = getComputedStyle(parent);
          const innerRight = pr.left + parseFloat(ps.borderLeftWidth) + parseFloat(ps.paddingLeft) + parent.clientWidth - parseFloat(ps.paddingLeft) - parseFloat(ps.paddingRight);
          let over = Math.max(r.right - vw, -r.left, r.right - innerRight, 0);
          for (let p = parent; p && p !== document.body; p = p.parentElement) {
            const o = getComputedStyle(p).overflowX;
            if (o === 'visible') continue;
            const c = p.getBoundingClientRect();
            over = Math.max(over, r.right - (c.left + p.clientWidth), c.left - r.left);
          }
          if (over > 0.5) problems.push(`chart "${name}": ${Math.round(r.width)} px wide, ${Math.round(over)} px of it cut off or beyond the screen`);
        });
        return problems;
    """)


# Reading checks, counted per width (`READING_KINDS`): a word or number broken across lines inside
# a table cell or a stacked table's cell label, a chart text clipped by its chart's edge, and the
# document wider than the screen. Closed <details> are opened first (what they show when opened
# must read as well), and each cell label drawn by CSS (::before) is measured as the text it shows.
READING_KINDS = ("broken words", "clipped labels", "overflow")

# A line may end inside a token only after one of these (where a reader expects a break): a hyphen
# or dash, a slash, a comma of a list written without spaces, an ellipsis ("p50…/p99").
BREAK_AFTER = "-\u2010\u2013\u2014/,\u2026"

READING_SCRIPT = r"""
    const breakAfter = arguments[0], broken = [], clipped = [];
    const opened = [];
    document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; opened.push(d); });
    // Cell labels drawn by CSS become real spans with the pseudo-element's computed style.
    const hide = document.createElement('style');
    hide.textContent = '[data-check-label]::before { content: none !important; }';
    const labels = [];
    document.querySelectorAll('main td, main th').forEach(cell => {
      const cs = getComputedStyle(cell, '::before');
      let text = cs.content;
      if (!text || text === 'none' || text === 'normal') return;
      if (/^attr\(/.test(text)) text = cell.getAttribute(text.slice(5, -1).trim()) || '';
      else text = text.replace(/^"|"$/g, '').replace(/\"/g, '"');
      if (!text.trim()) return;
      const span = document.createElement('span');
      for (const property of cs) if (property !== 'content') span.style.setProperty(property, cs.getPropertyValue(property));
      span.textContent = text;
      span.dataset.checkMade = '1';
      labels.push([cell, span]);
    });
    labels.forEach(([cell, span]) => { cell.dataset.checkLabel = '1'; cell.insertBefore(span, cell.firstChild); });
    document.head.appendChild(hide);

    const lineOf = (node, start, end) => {
      const range = document.createRange();
      range.setStart(node, start); range.setEnd(node, end);
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5 && r.height > 0);
      return rects;
    };
    const where = el => {
      const table = el.closest('table');
      const caption = table && table.caption ? table.caption.textContent.trim().slice(0, 40) : '';
      return caption ? `table "${caption}"` : (table ? 'table.' + (table.className || 'plain').split(' ')[0] : el.tagName.toLowerCase());
    };
    const cells = document.querySelectorAll('main td, main th');
    for (const cell of cells) {
      // A stacked table's header row is kept for screen readers only, in a 1 px box.
      const head = cell.closest('thead');
      if (head && getComputedStyle(head).position === 'absolute') continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('svg')) continue;
        const text = node.data;
        for (const m of text.matchAll(/\S{2,}/g)) {
          const rects = lineOf(node, m.index, m.index + m[0].length);
          if (rects.length < 2) continue;
          const tops = new Set(rects.map(r => Math.round(r.top)));
          if (tops.size < 2) continue;
          // Where does the line change? A break is fine after a dash or a slash.
          let previousTop = null;
          for (let i = 0; i < m[0].length; i++) {
            const r = lineOf(node, m.index + i, m.index + i + 1)[0];
            if (!r) continue;
            if (previousTop !== null && r.top > previousTop + 2 && !breakAfter.includes(m[0][i - 1])) {
              const isLabel = node.parentElement.dataset.checkMade === '1';
              broken.push(`${where(cell)}: ${isLabel ? 'label' : 'cell'} "${m[0].slice(0, i)}/${m[0].slice(i)}"`);
              break;
            }
            previousTop = r.top;
          }
        }
      }
    }
    // Chart texts outside their chart's box (an <svg> clips what lies beyond it) or a clipping ancestor's.
    document.querySelectorAll('main svg').forEach((svg, n) => {
      if (svg.parentElement.closest('svg')) return;
      const box = svg.getBoundingClientRect();
      if (box.width === 0) return;
      const name = svg.querySelector('title') ? svg.querySelector('title').textContent.trim().slice(0, 50) : 'svg #' + (n + 1);
      svg.querySelectorAll('text').forEach(t => {
        if (!t.textContent.trim()) return;
        const r = t.getBoundingClientRect();
        if (r.width === 0) return;
        let cut = r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1;
        for (let p = svg.parentElement; !cut && p && p !== document.body; p = p.parentElement) {
          const o = getComputedStyle(p).overflowX;
          if (o === 'visible') continue;
          const c = p.getBoundingClientRect();
          if (r.left < c.left - 1 || r.right > c.left + p.clientWidth + 1) cut = true;
        }
        if (cut) clipped.push(`chart "${name}": label "${t.textContent.trim().slice(0, 40)}" cut at the chart's edge`);
      });
    });
    labels.forEach(([cell, span]) => { span.remove(); delete cell.dataset.checkLabel; });
    hide.remove();
    opened.forEach(d => { d.open = false; });
    return [broken, clipped];
"""


def reading_problems(driver) -> tuple[list[str], list[str]]:
    """(broken words, clipped labels) on the page at the current width."""
    broken, clipped = driver.execute_script(READING_SCRIPT, BREAK_AFTER)
    return broken, clipped


def code_block_problems(driver, wide: bool) -> list[str]:
    """<pre> blocks wider than their box that do not scroll inside themselves with a keyboard
    stop, and (on a wide screen) that are clipped although the page's column had room."""
    return driver.execute_script("""
        const wide = arguments[0], problems = [];
        const main = document.querySelector('main'), ms = getComputedStyle(main);
        const column = main.clientWidth - parseFloat(ms.paddingLeft) - parseFloat(ms.paddingRight);
        document.querySelectorAll('main pre').forEach((pre, n) => {
          if (pre.scrollWidth <= pre.clientWidth + 1) return;
          const o = getComputedStyle(pre).overflowX, name = 'pre #' + (n + 1);
          if (o !== 'auto' && o !== 'scroll') problems.push(`${name}: ${pre.scrollWidth} px of code in ${pre.clientWidth} px, clipped (overflow-x: ${o})`);
          else if (pre.getAttribute('tabindex') !== '0') problems.push(`${name}: scrolls sideways but has no tabindex="0" for keyboard users`);
          if (wide && pre.getBoundingClientRect().width < column - 1)
            problems.push(`${name}: ${pre.scrollWidth} px of code clipped to ${Math.round(pre.getBoundingClientRect().width)} px in a ${Math.round(column)} px column`);
        });
        return problems;
    """, wide)


def heading_problems(driver) -> list[str]:
    """main's headings in order: the first an h1, and none more than one level below the one before."""
    return driver.execute_script("""
        const problems = [];
        let previous = 0;
        document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6').forEach(h => {
          const level = +h.tagName[1];
          if (level > previous + 1 && problems.length < 3)
            problems.push(`heading "${h.textContent.trim().slice(0, 50)}" is an h${level} after ${previous ? 'an h' + previous : 'no heading'}`);
          previous = level;
        });
        return problems;
    """)


def contents_problems(driver, screens: float = 10, sections: int = 4) -> list[str]:
    """A page over `screens` viewport heights tall with `sections` or more h2s must have a
    nav.toc linking to every h2 (with an id) outside it."""
    return driver.execute_script("""
        const screens = arguments[0], least = arguments[1];
        const tall = document.documentElement.scrollHeight / window.innerHeight;
        const h2s = Array.from(document.querySelectorAll('main h2')).filter(h => !h.closest('nav.toc'));
        if (tall <= screens || h2s.length < least) return [];
        const toc = document.querySelector('main nav.toc');
        if (!toc) return [`${tall.toFixed(0)} screens tall with ${h2s.length} sections and no contents list (nav.toc)`];
        const linked = new Set(Array.from(toc.querySelectorAll('a[href^="#"]')).map(a => decodeURIComponent(a.getAttribute('href').slice(1))));
        const missing = h2s.filter(h => !h.id || !linked.has(h.id)).map(h => h.textContent.trim().slice(0, 40));
        return missing.length ? [`the contents list does not link to: ${missing.join('; ')}`] : [];
    """, screens, sections)


def print_problems(driver) -> list[str]:
    """In print: each chart figure keeps together and its data table is shown."""
    return driver.execute_script("""
        const problems = [];
        document.querySelectorAll('figure.chart-figure').forEach((fig, n) => {
          const name = (fig.querySelector('figcaption') || {}).textContent || 'figure ' + (n + 1);
          // The drawing keeps together and its caption stays with it; the figure may break before
          // its numbers (a figure kept whole leaves most of a page blank when its table is long).
          const svg = fig.querySelector(':scope > svg'), caption = fig.querySelector('figcaption');
          if (svg) { const s = getComputedStyle(svg); if (s.breakInside !== 'avoid' && s.pageBreakInside !== 'avoid') problems.push(`"${name.trim()}": the chart may break across pages (break-inside: ${s.breakInside})`); }
          if (caption) { const s = getComputedStyle(caption); if (s.breakAfter !== 'avoid' && s.pageBreakAfter !== 'avoid') problems.push(`"${name.trim()}": its caption may be left at the foot of a page (break-after: ${s.breakAfter})`); }
          fig.querySelectorAll('details').forEach(d => { const s = getComputedStyle(d); if (s.breakAfter !== 'avoid' && s.pageBreakAfter !== 'avoid') problems.push(`"${name.trim()}": "Numbers behind this chart" may be left alone at the foot of a page`); });
          fig.querySelectorAll('table').forEach(table => {
            if (!table.checkVisibility()) problems.push(`"${name.trim()}": its numbers do not print ("Numbers behind this chart" stays closed)`);
          });
        });
        return problems.slice(0, 5);
    """)


def chart_text_sizes(driver) -> list[str]:
    """Chart texts whose computed font-size times the SVG's scale is under MIN_CHART_TEXT_PX."""
    return driver.execute_script("""
        const limit = arguments[0], problems = [];
        document.querySelectorAll('svg.chart').forEach((svg, n) => {
          const box = svg.viewBox.baseVal;
          if (!box || !box.width) return;
          const scale = svg.getBoundingClientRect().width / box.width;
          let smallest = Infinity, which = '';
          svg.querySelectorAll('text').forEach(t => {
            const px = parseFloat(getComputedStyle(t).fontSize) * scale;
            if (t.textContent.trim() && px < smallest) { smallest = px; which = t.textContent.trim(); }
          });
          if (smallest < limit - 0.01) {
            const name = svg.querySelector('title') ? svg.querySelector('title').textContent : 'chart ' + n;
            problems.push(`chart "${name}": text "${which}" renders at ${smallest.toFixed(1)} px (minimum ${limit})`);
          }
        });
        return problems;
    """, MIN_CHART_TEXT_PX)


# A table's cells that are not fully visible: zero-sized (hidden), outside the visible part of
# a clipping or scrolling ancestor, or beyond the document's width. With `opened`, closed
# <details> are opened first (an expansion counts when its content fits once opened);
# otherwise tables inside closed <details> are skipped.
HIDDEN_CELLS_SCRIPT = """
    const opened = arguments[0], problems = [];
    if (opened) document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; d.dataset.checkOpened = '1'; });
    const docWidth = document.documentElement.clientWidth;
    document.querySelectorAll('main table').forEach((table, n) => {
      if (!opened && table.closest('details:not([open])')) return;
      const name = (table.caption ? table.caption.textContent.trim() : '') ||
                   (table.className ? 'table.' + table.className.split(' ')[0] : 'table') + ' #' + (n + 1);
      let hidden = 0, first = '';
      for (const cell of table.querySelectorAll('th, td')) {
        if (cell.closest('thead') && getComputedStyle(cell.closest('thead')).position === 'absolute') continue;
        const r = cell.getBoundingClientRect();
        let visible = r.width > 0 && r.height > 0 && r.left >= -0.5 && r.right <= docWidth + 0.5;
        for (let p = cell.parentElement; visible && p && p !== document.body; p = p.parentElement) {
          const o = getComputedStyle(p).overflowX;
          if (o === 'visible') continue;
          const c = p.getBoundingClientRect();
          if (r.left < c.left - 0.5 || r.right > c.left + p.clientWidth + 0.5) visible = false;
        }
        if (!visible) { hidden++; if (!first) first = cell.textContent.trim().slice(0, 40); }
      }
      if (hidden) problems.push(`table "${name}": ${hidden} cells not visible (first: "${first}")`);
    });
    document.querySelectorAll('details[data-check-opened]').forEach(d => { d.open = false; delete d.dataset.checkOpened; });
    return problems;
"""


def hidden_table_cells(driver, opened: bool) -> list[str]:
    return driver.execute_script(HIDDEN_CELLS_SCRIPT, opened)


def stacked_table_problems(driver) -> list[str]:
    """At a phone width, no data table may be wider than the screen: each is stacked (table.stack,
    one card per row) or narrow enough as it is. Exempt are the tables behind charts
    (table.chart-data, in their own scroller inside a closed <details>) and tables inside a
    scroller marked `data-wide` (explicitly allowed to scroll sideways). In every table.stack,
    each cell's label (its ::before text, from CSS or from its data-label) must be the text of
    its column's header."""
    return driver.execute_script("""
        const problems = [], docWidth = document.documentElement.clientWidth;
        const say = p => { if (problems.length < 12) problems.push(p); };
        document.querySelectorAll('main table').forEach((table, n) => {
          const name = 'table' + (table.className ? '.' + table.className.split(' ').join('.') : '') +
                       (table.id ? '#' + table.id : '') + ' (' + (n + 1) + ')';
          if (table.classList.contains('chart-data') || table.closest('[data-wide]')) return;
          const box = table.getBoundingClientRect();
          if (box.width === 0 && box.height === 0) return;  // not rendered (e.g. in a closed <details>)
          if (box.right > docWidth + 0.5 || box.width > docWidth + 0.5 || table.scrollWidth > table.clientWidth + 1)
            say(`${name}: ${Math.round(box.width)} px wide on a ${docWidth} px screen` +
                (table.classList.contains('stack') ? ' although stacked' : '; stack it (class stack)'));
          if (!table.classList.contains('stack')) return;
          const headers = Array.from(table.querySelectorAll('thead tr:first-child th')).map(h => h.textContent.trim());
          for (const row of table.querySelectorAll('tbody tr')) {
            Array.from(row.children).forEach((cell, i) => {
              if (cell.tagName !== 'TD' || getComputedStyle(cell).display === 'none') return;
              let label = getComputedStyle(cell, '::before').content;
              if (/^attr\(/.test(label)) label = cell.getAttribute('data-label') || '';
              else label = label.replace(/^"|"$/g, '');
              if (!label || label === 'none') say(`${name}: a cell in column ${i + 1} has no label`);
              else if (headers[i] !== undefined && headers[i] !== label)
                say(`${name}: column ${i + 1} is labelled "${label}" but its header is "${headers[i]}"`);
            });
          }
        });
        return problems;
    """)


def set_print_media(driver, on: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print" if on else ""})


def run_axe(driver, source: str) -> list[str]:
    if not driver.execute_script("return typeof window.axe !== 'undefined';"):
        driver.execute_script(source)
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']})
           .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                 nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))))
           .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));
    """)
    return [f"axe {v['impact']}: {v['id']} — {v['help']} at {', '.join(v['nodes'])}"
            for v in result if v.get("impact") in BLOCKING_IMPACTS]


def screenshot_targets(root: pathlib.Path, pages: list[pathlib.Path]) -> list[tuple[str, pathlib.Path]]:
    wanted = [("index", root / "index.html")]
    studies = sorted(p for p in pages if p.parent.name == "studies" and p.name != "index.html")
    runs = sorted(p for p in pages if p.parent.name == "runs")
    preferred_run = root / "runs" / "glitchy-table--glitchy-async-naive--1000ms.html"
    preferred_study = root / "studies" / "glitchy-table.html"
    if studies:
        wanted.append(("study", preferred_study if preferred_study in studies else studies[0]))
    if runs:
        wanted.append(("run", preferred_run if preferred_run in runs else runs[0]))
    return wanted


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("--output", default="Output", help="generated site (default: Output)")
    arguments.add_argument("--artifacts", default="artifacts", help="screenshots folder (default: artifacts)")
    arguments.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    arguments.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    arguments.add_argument("--pages", default="*", help="only pages whose relative path matches this glob")
    arguments.add_argument("--skip-axe", action="store_true", help="skip the accessibility audit")
    options = arguments.parse_args()

    root = pathlib.Path(options.output).resolve()
    if not (root / "index.html").is_file():
        print(f"error: {root.name}/index.html not found; run 'scrollstudy generate' first", file=sys.stderr)
        return 2
    all_pages = sorted(root.rglob("*.html"))
    pages = [p for p in all_pages if fnmatch.fnmatch(p.relative_to(root).as_posix(), options.pages)]

    started = time.monotonic()
    failures: list[str] = []
    scans, static_failures = scan_pages(root, all_pages)
    failures += static_failures
    svg_count = sum(len(s.svgs) for s in scans.values())
    reference_count = sum(len(s.references) for s in scans.values())
    print(f"static: {len(all_pages)} pages, {reference_count} links and sources, {svg_count} charts; "
          f"{len(static_failures)} problems")
    sizes = {p: p.stat().st_size for p in sorted(root.rglob("*")) if p.is_file()}
    total = sum(sizes.values())
    runs = sum(s["runs"] for s in json.loads((root / "summary.json").read_text(encoding="utf-8"))["studies"])
    SITE_BYTE_LIMIT = SITE_BYTES_PER_RUN * runs
    largest = max(sizes, key=sizes.get)
    print(f"size: {len(sizes)} files, {total:,} bytes (limit {SITE_BYTES_PER_RUN:,} per run × {runs} runs = {SITE_BYTE_LIMIT:,}); largest "
          f"{largest.relative_to(root).as_posix()} {sizes[largest]:,} bytes (limit {PAGE_BYTE_LIMIT:,})")
    if total > SITE_BYTE_LIMIT:
        failures.append(f"{root.name}/: {total:,} bytes in all, over the {SITE_BYTE_LIMIT:,} byte budget")
    failures += [f"{p.relative_to(root).as_posix()}: {n:,} bytes, over {PAGE_BYTE_LIMIT:,}"
                 for p, n in sizes.items() if n > PAGE_BYTE_LIMIT]

    source = "" if options.skip_axe else axe_source()
    driver = start_browser(options.chromium, options.chromedriver)
    checked = 0
    reading = {width: {kind: 0 for kind in READING_KINDS} for width in WIDTHS}
    try:
        for number, page in enumerate(pages, 1):
            name = page.relative_to(root).as_posix()
            page_failures: list[str] = []
            set_color_scheme(driver, "light")
            set_viewport(driver, WIDTHS[-1])
            for log in ("browser", "performance"):
                driver.get_log(log)  # drop the previous page's entries
            driver.get(page.as_uri())
            page_failures += load_problems(driver)
            page_failures += heading_problems(driver)
            if not options.skip_axe:
                page_failures += [f"(light) {p}" for p in run_axe(driver, source)]
                set_color_scheme(driver, "dark")
                if not driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches;"):
                    page_failures.append("dark mode emulation did not take effect")
                page_failures += [f"(dark) {p}" for p in run_axe(driver, source)]
                set_color_scheme(driver, "light")
            for width in WIDTHS:
                set_viewport(driver, width)
                scroll_width, client_width, culprits = overflow(driver)
                if scroll_width > client_width:
                    page_failures.append(f"horizontal overflow at {width} px: document is {scroll_width} px "
                                         f"wide (first wide elements: {', '.join(culprits) or 'unknown'})")
                    reading[width]["overflow"] += 1
                broken, clipped = reading_problems(driver)
                reading[width]["broken words"] += len(broken)
                reading[width]["clipped labels"] += len(clipped)
                page_failures += [f"at {width} px: broken word in {p}" for p in broken[:5]]
                page_failures += [f"at {width} px: {p}" for p in clipped[:5]]
                if len(broken) > 5 or len(clipped) > 5:
                    page_failures.append(f"at {width} px: {len(broken)} broken words and {len(clipped)} clipped labels in all")
                page_failures += [f"at {width} px: {p}" for p in code_block_problems(driver, wide=width == WIDTHS[-1])]
                if width == WIDTHS[-1]:
                    page_failures += [f"at {width} px: {p}" for p in chart_text_problems(driver)]
                    page_failures += [f"at {width} px: {p}" for p in hidden_table_cells(driver, opened=True)]
                else:
                    page_failures += [f"at {width} px: {p}" for p in chart_text_sizes(driver)]
                    page_failures += [f"at {width} px: {p}" for p in chart_fit_problems(driver)]
                    page_failures += [f"at {width} px: {p}" for p in contents_problems(driver)]
                    page_failures += [f"at {width} px: {p}" for p in stacked_table_problems(driver)]
            set_viewport(driver, PRINT_WIDTH)
            set_print_media(driver, True)
            page_failures += [f"print: {p}" for p in hidden_table_cells(driver, opened=False)]
            page_failures += [f"print: {p}" for p in print_problems(driver)]
            set_print_media(driver, False)
            failures += [f"{name}: {p}" for p in page_failures]
            checked += 1
            if number % 25 == 0 or number == len(pages):
                print(f"browser: [{number}/{len(pages)}] {len(failures)} problems so far", flush=True)

        artifacts = pathlib.Path(options.artifacts)
        artifacts.mkdir(parents=True, exist_ok=True)
        for label, page in screenshot_targets(root, all_pages):
            for width in WIDTHS:
                set_viewport(driver, width)
                driver.get(page.as_uri())
                full_height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": min(full_height, 4000),
                                        "deviceScaleFactor": 1, "mobile": False})
                target = artifacts / f"{label}-{width}.png"
                driver.save_screenshot(str(target))
                print(f"screenshot: {target} ({page.relative_to(root).as_posix()})")
    finally:
        driver.quit()

    for failure in failures:
        print(f"FAIL {failure}")
    for width in WIDTHS:
        counts = ", ".join(f"{kind} {reading[width][kind]}" for kind in READING_KINDS)
        print(f"reading at {width} px over {checked} pages: {counts}")
    elapsed = time.monotonic() - started
    audit = "skipped" if options.skip_axe else "light and dark"
    print(f"browser checks: {checked} pages loaded from file:// at {' and '.join(map(str, WIDTHS))} px, "
          f"axe {audit}; {len(failures)} problems; {elapsed:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
