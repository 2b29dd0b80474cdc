#!/usr/bin/env python3
"""Scale benchmark: how wall time, CPU and peak memory of a build grow with the number of distinct runs.

    swift build -c release
    python3 Tests/Bench/scale.py                          # 10^3 and 10^4 distinct sweep runs
    python3 Tests/Bench/scale.py --runs 1000,10000,100000 --shards 4
    python3 Tests/Bench/scale.py --runs 5025 --study-latencies 201   # one study of 5,025 runs

For each size N the default content folder is copied and N / 100 sweep studies are added, each of
100 distinct runs: the five glitchy-* strategies, 5 seeds, and four latencies of its own (3, 8,
13, 18 ms, then 50 ms more per study), so no run of one study repeats a run of another and every
run is simulated. The default studies' runs come on top (the table gives the total the build plans).

Each size is built with the release binary, in turn:
  cold   generate into an empty output folder with no cache (every run simulated, every page rendered);
  warm   generate again over that output with the cache the cold build left (nothing changed);
  shards (with --shards K) `run --shard i/K` into K results folders, one after another, then
         `generate --results` over all K (no cache): the merge and render of a sharded build. Its
         row sums the K+1 processes' wall and CPU and gives the largest peak RSS among them.

Each row gives wall seconds, CPU seconds (user + system), peak resident memory (MiB), the files
and bytes of the output folder, the largest file (marked when over 1 MB, 10^6 bytes: issue 24 asks
that no file pass it), the size of summary.json (which should grow only with the number of
studies), and runs per second per core (runs / wall / cores). Every figure is a whole-process measurement from the kernel (/usr/bin/time -f '%e %U %S
%M'); nothing inside the tool is instrumented. Uses only the Python standard library.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STRATEGIES = ["glitchy-sync", "glitchy-async-naive", "glitchy-serial-cancel", "glitchy-index-path-check", "glitchy-reconfigure"]
SEEDS = [1, 2, 3, 4, 5]


def timed(argv):
    """Runs argv; returns (wall s, cpu s, peak RSS MiB). Exits with the tool's error on failure."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as tf, tempfile.TemporaryFile() as err:
        # Standard error to a file, not a pipe nobody reads while the tool runs (it would fill and stop it).
        proc = subprocess.run(["/usr/bin/time", "-o", tf.name, "-f", "%e %U %S %M"] + [str(a) for a in argv],
                              stdout=subprocess.DEVNULL, stderr=err)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"error: {' '.join(map(str, argv))} exited {proc.returncode}\n{err.read().decode('utf-8', 'replace')[-3000:]}")
        wall, user, system, rss_kib = tf.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss_kib) / 1024.0


def sweep_content(dest: Path, distinct: int, latencies: int = 4):
    """The default content plus sweep studies of `latencies` x 25 runs each (distinct runs in all),
    no two alike: study k's latencies are 5 ms apart from 3 + k * (5 * latencies + 30) ms."""
    shutil.copytree(REPO / "Content", dest)
    per_study = latencies * len(STRATEGIES) * len(SEEDS)
    for k in range(max(1, distinct // per_study)):
        base = 3 + (5 * latencies + 30) * k
        study = {
            "title": f"Scale sweep {k + 1}",
            "question": f"How do the five GlitchyTable strategies behave between {base} and {base + 5 * (latencies - 1)} ms?",
            "kind": "sweep",
            "dataset": "glitchy-300",
            "gestures": ["aggressive"],
            "latenciesMs": [base + 5 * i for i in range(latencies)],
            "strategies": STRATEGIES,
            "seeds": SEEDS,
            "order": 10_000 + k,
        }
        (dest / "studies" / f"scale-sweep-{k + 1:05d}.json").write_text(json.dumps(study, indent=2) + "\n", encoding="utf-8")


def output_size(folder: Path):
    files = [p for p in folder.rglob("*") if p.is_file()]
    sizes = [(p.stat().st_size, str(p.relative_to(folder))) for p in files]
    largest = max(sizes, default=(0, "-"))
    summary = folder / "summary.json"
    return len(files), sum(s for s, _ in sizes), largest, summary.stat().st_size if summary.is_file() else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scrollstudy", default=str(REPO / ".build" / "release" / "scrollstudy"))
    ap.add_argument("--runs", default="1000,10000", help="comma-separated distinct sweep runs per size (default 1000,10000)")
    ap.add_argument("--study-latencies", type=int, default=4,
                    help="latencies per sweep study (default 4: 100 runs a study; 201: one study of 5,025 runs per 5,025)")
    ap.add_argument("--shards", type=int, default=0, help="also build as K shards merged (default: no)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--jobs for the tool (default: the core count)")
    ap.add_argument("--keep", help="build in this folder and keep it (default: a temporary folder)")
    args = ap.parse_args()
    if not Path(args.scrollstudy).exists():
        sys.exit(f"error: {args.scrollstudy} not found; build it first: swift build -c release")
    cores = os.cpu_count() or 1
    tmp_holder = None if args.keep else tempfile.TemporaryDirectory(prefix="scale-bench-")
    root = Path(args.keep or tmp_holder.name)
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    for distinct in [int(s) for s in args.runs.split(",")]:
        work = root / f"n{distinct}"
        shutil.rmtree(work, ignore_errors=True)
        content, out = work / "Content", work / "Output"
        sweep_content(content, distinct, args.study_latencies)
        generate = [args.scrollstudy, "generate", "--quiet", "--allow-large", "--jobs", args.jobs,
                    "--content", content, "--templates", REPO / "Templates", "--output", out]
        for label in ["cold", "warm"]:
            if label == "cold":
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(work / ".scrollstudy-cache", ignore_errors=True)
            wall, cpu, rss = timed(generate)
            rows.append((distinct, label, wall, cpu, rss) + output_size(out))
        if args.shards > 1:
            total_wall = total_cpu = peak = 0.0
            folders = []
            for i in range(1, args.shards + 1):
                folder = work / f"shard{i}"
                shutil.rmtree(folder, ignore_errors=True)
                w, c, r = timed([args.scrollstudy, "run", "--jobs", args.jobs, "--content", content,
                                 "--output-results", folder, "--shard", f"{i}/{args.shards}"])
                total_wall, total_cpu, peak = total_wall + w, total_cpu + c, max(peak, r)
                folders.append(folder)
            merged = work / "Merged"
            w, c, r = timed([args.scrollstudy, "generate", "--quiet", "--allow-large", "--no-cache", "--jobs", args.jobs,
                             "--content", content, "--templates", REPO / "Templates", "--output", merged, "--results"] + folders)
            total_wall, total_cpu, peak = total_wall + w, total_cpu + c, max(peak, r)
            rows.append((distinct, f"{args.shards} shards", total_wall, total_cpu, peak) + output_size(merged))
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(f"{cores} cores; --jobs {args.jobs}; {args.scrollstudy}")
    print("| sweep runs | build | wall s | CPU s | peak RSS MiB | files | MiB written | largest file KiB | summary.json KiB | runs/s/core |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for distinct, label, wall, cpu, rss, files, size, (largest, name), summary in rows:
        rate = distinct / wall / cores if wall > 0 else 0
        over = " **over 1 MB**" if largest > 1_000_000 else ""
        print(f"| {distinct:,} | {label} | {wall:.1f} | {cpu:.1f} | {rss:.0f} | {files:,} | {size / 1048576:.1f} | "
              f"{largest / 1024:.0f} ({name}){over} | {summary / 1024:.1f} | {rate:.0f} |")


if __name__ == "__main__":
    main()
