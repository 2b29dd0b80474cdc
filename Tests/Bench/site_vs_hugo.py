#!/usr/bin/env python3
"""Side-by-side site-build benchmark: ScrollStudy against Hugo, at the same page count and page size.

    swift build -c release
    python3 Tests/Bench/site_vs_hugo.py                  # default content and 40x, 5 paired runs each
    python3 Tests/Bench/site_vs_hugo.py --scales 1 --runs 3

For each scale the content folder is copied and every study duplicated (scale - 1) times under new
ids, so the number of runs and pages grows with it. ScrollStudy generates that content once to
count its pages and their average size; a Hugo site with one layout and the same number of pages,
each of about the same size, is then written beside it. The two builds are timed in turn (A B A B
...), each from an empty output folder, and the table gives medians: wall time, pages per second,
the ratio of ScrollStudy's pages per second to Hugo's, and each tool's peak resident memory. Every
ScrollStudy build in the pairs starts without its cache (.scrollstudy-cache/ beside the output), so
every run is simulated and every page rendered. A no-op regeneration (ScrollStudy again over its own
unchanged output, with the cache the last build left) is timed after the pairs.

Needs Hugo (Debian: apt-get install hugo). Uses only the Python standard library. Every figure is a
whole-process measurement: wall time from the parent, CPU and peak RSS from the kernel's rusage of
each child (os.wait4), so nothing inside either tool is instrumented.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_timed(argv, cwd=None):
    """Runs argv to completion; returns (wall s, cpu s, peak RSS in MiB)."""
    # Standard error goes to a file, not a pipe: a pipe nobody reads while the child runs fills
    # up (64 KiB) and stops the child (generate prints a line per study at the end).
    with tempfile.TemporaryFile() as errfile:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errfile)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        errfile.seek(0)
        err = errfile.read().decode("utf-8", "replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(map(str, argv))} exited {proc.returncode}\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def scaled_content(source: Path, dest: Path, scale: int):
    shutil.copytree(source, dest)
    studies = sorted((dest / "studies").glob("*.json"))
    for study in studies:
        spec = json.loads(study.read_text(encoding="utf-8"))
        for k in range(2, scale + 1):
            copy = dict(spec)
            copy["title"] = f"{spec['title']} (copy {k})"
            if "order" in copy:
                copy["order"] = spec["order"] + 1000 * k
            (study.parent / f"{study.stem}-copy{k}.json").write_text(json.dumps(copy, indent=2), encoding="utf-8")


def site_pages(output: Path):
    pages = sorted(output.rglob("*.html"))
    total = sum(p.stat().st_size for p in pages)
    return len(pages), total / max(len(pages), 1)


def hugo_site(dest: Path, pages: int, page_bytes: float, markdown_per_html: float = 0.6):
    """A one-layout Hugo site with `pages` HTML pages (home + one section list + singles), each
    single page's Markdown about `page_bytes * markdown_per_html` bytes long."""
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "layouts" / "_default").mkdir(parents=True)
    (dest / "content" / "pages").mkdir(parents=True)
    (dest / "config.toml").write_text(
        'baseURL = "https://example.invalid/"\ntitle = "bench"\nrelativeURLs = true\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n', encoding="utf-8")
    shell = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
             '<link rel="stylesheet" href="site.css"></head><body><header><nav><a href="{{ "/" | relURL }}">Home</a></nav></header>'
             '<main><h1>{{ .Title }}</h1>%s</main><footer>{{ .Site.Title }}</footer></body></html>\n')
    (dest / "layouts" / "_default" / "single.html").write_text(shell % "{{ .Content }}", encoding="utf-8")
    listing = '{{ .Content }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>'
    (dest / "layouts" / "_default" / "list.html").write_text(shell % listing, encoding="utf-8")
    (dest / "layouts" / "index.html").write_text(shell % listing, encoding="utf-8")
    # A body of paragraphs, a list and a table, repeated to about the average page size.
    block = ("Scrolling at {n} rows per second, the list shows **{n} cells** and *one placeholder*; "
             "see [the run](../p{n}/) for the `frame` chart.\n\n"
             "- median {n} ms\n- p95 {n} ms\n\n| metric | value |\n|---|---|\n| hitches | {n} |\n| wrong rows | {n} % |\n\n")
    singles = max(pages - 2, 1)
    (dest / "content" / "_index.md").write_text("---\ntitle: Home\n---\nAll pages.\n", encoding="utf-8")
    (dest / "content" / "pages" / "_index.md").write_text("---\ntitle: Pages\n---\nEvery page.\n", encoding="utf-8")
    target = max(page_bytes * markdown_per_html, 200)
    for i in range(singles):
        body, n = [], 0
        while sum(map(len, body)) < target:
            body.append(block.format(n=i * 31 + n))
            n += 1
        (dest / "content" / "pages" / f"p{i:05d}.md").write_text(
            f"---\ntitle: Page {i}\n---\n" + "".join(body), encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scrollstudy", default=str(REPO / ".build" / "release" / "scrollstudy"))
    ap.add_argument("--hugo", default=shutil.which("hugo") or "hugo")
    ap.add_argument("--scales", default="1,40", help="comma-separated content multipliers (default 1,40)")
    ap.add_argument("--runs", type=int, default=5, help="paired runs per scale (default 5)")
    args = ap.parse_args()
    if not Path(args.scrollstudy).exists():
        sys.exit(f"error: {args.scrollstudy} not found; build it first: swift build -c release")
    if not shutil.which(args.hugo):
        sys.exit("error: hugo not found; install it first: apt-get install hugo")
    hugo_version = subprocess.run([args.hugo, "version"], capture_output=True, text=True).stdout.split()[1]

    rows = []
    with tempfile.TemporaryDirectory(prefix="site-bench-") as tmp:
        tmp = Path(tmp)
        for scale in [int(s) for s in args.scales.split(",")]:
            work = tmp / f"x{scale}"
            content = work / "Content"
            scaled_content(REPO / "Content", content, scale)
            out = work / "Output"
            # --allow-large: at 40x the default content plans more runs than generate builds unasked.
            ss = [args.scrollstudy, "generate", "--allow-large", "--content", str(content), "--templates", str(REPO / "Templates"), "--output", str(out)]
            shutil.rmtree(work / ".scrollstudy-cache", ignore_errors=True)
            run_timed(ss)  # warm-up, and the page count
            pages, avg = site_pages(out)
            files = [p for p in out.rglob("*") if p.is_file()]
            largest = max(files, key=lambda p: (p.stat().st_size, str(p)))
            site_bytes = sum(p.stat().st_size for p in files)
            hugo_dir = work / "hugo"
            hugo_out = work / "hugo-public"
            hg = [args.hugo, "--quiet", "--ignoreCache", "-s", str(hugo_dir), "-d", str(hugo_out)]
            # Two passes: the first measures how much HTML Hugo makes of this Markdown, the second
            # sizes the pages to ScrollStudy's average.
            factor = 0.6
            for _ in range(2):
                hugo_site(hugo_dir, pages, avg, factor)
                shutil.rmtree(hugo_out, ignore_errors=True)
                run_timed(hg)
                hugo_pages, hugo_avg = site_pages(hugo_out)
                factor *= avg / hugo_avg
            cache = work / ".scrollstudy-cache"  # generate's cache beside the output
            a, b = [], []
            for _ in range(args.runs):
                # A full build: no output and no cache (every run simulated, every page rendered).
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(cache, ignore_errors=True)
                a.append(run_timed(ss))
                shutil.rmtree(hugo_out, ignore_errors=True)
                b.append(run_timed(hg))
            noop = [run_timed(ss) for _ in range(args.runs)]  # output and cache left in place: nothing changed
            # One strategy edited (a new cache size each time): its runs are simulated again and the
            # pages that show them rendered; every other run and page is taken from the cache.
            strategy = content / "strategies" / "cache-lru.json"
            original = strategy.read_text(encoding="utf-8")
            if '"cacheCountLimit": 500' not in original:
                sys.exit(f"error: {strategy.name} no longer sets cacheCountLimit 500; update the benchmark's edit")
            edit = []
            for k in range(args.runs):
                strategy.write_text(original.replace('"cacheCountLimit": 500', f'"cacheCountLimit": {401 + k}'), encoding="utf-8")
                edit.append(run_timed(ss))
            strategy.write_text(original, encoding="utf-8")
            med = lambda xs, i: statistics.median(x[i] for x in xs)
            ratios = [(pages / x[0]) / (hugo_pages / y[0]) for x, y in zip(a, b)]
            rows.append(dict(scale=scale, pages=pages, avg=avg, hugo_pages=hugo_pages, hugo_avg=hugo_avg,
                             ss_wall=med(a, 0), ss_cpu=med(a, 1), ss_rss=max(x[2] for x in a),
                             hg_wall=med(b, 0), hg_cpu=med(b, 1), hg_rss=max(x[2] for x in b),
                             ratio=statistics.median(ratios), ratio_lo=min(ratios), ratio_hi=max(ratios),
                             noop=med(noop, 0), edit=med(edit, 0), edit_cpu=med(edit, 1), files=len(files), site_bytes=site_bytes,
                             largest=str(largest.relative_to(out)), largest_bytes=largest.stat().st_size))
            shutil.rmtree(work, ignore_errors=True)

    print(f"Site build, ScrollStudy vs Hugo {hugo_version}; medians of {args.runs} paired runs, each from an empty output folder;")
    print(f"{os.cpu_count()} cores. Ratio = ScrollStudy pages/s ÷ Hugo pages/s, median of the pairs [min–max].\n")
    print("| content | pages (avg KB) | ScrollStudy wall · CPU | pages/s | Hugo pages (avg KB) | Hugo wall · CPU | pages/s | ratio | no-op regen | one strategy edited, wall · CPU | peak RSS ScrollStudy · Hugo |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['scale']}× | {r['pages']} ({r['avg']/1024:.1f}) | {r['ss_wall']:.2f} s · {r['ss_cpu']:.2f} s | {r['pages']/r['ss_wall']:.0f} "
              f"| {r['hugo_pages']} ({r['hugo_avg']/1024:.1f}) | {r['hg_wall']:.2f} s · {r['hg_cpu']:.2f} s | {r['hugo_pages']/r['hg_wall']:.0f} "
              f"| {r['ratio']:.2f}× [{r['ratio_lo']:.2f}–{r['ratio_hi']:.2f}] | {r['noop']:.2f} s ({100*r['noop']/r['ss_wall']:.0f} % of full) "
              f"| {r['edit']:.2f} s · {r['edit_cpu']:.2f} s ({100*r['edit']/r['ss_wall']:.0f} % of full; CPU {100*r['edit_cpu']/r['ss_cpu']:.0f} %) "
              f"| {r['ss_rss']:.0f} MiB · {r['hg_rss']:.0f} MiB |")
    print()
    for r in rows:
        print(f"ScrollStudy output at {r['scale']}×: {r['files']:,} files, {r['site_bytes']:,} bytes; largest file {r['largest']}, "
              f"{r['largest_bytes']:,} bytes (goal: no file over 1,000,000)")


if __name__ == "__main__":
    main()
