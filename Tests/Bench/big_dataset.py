#!/usr/bin/env python3
"""Big-dataset benchmark: peak memory of loading a content folder whose CSV dataset has 10^6 rows.

    swift build -c release
    python3 Tests/Bench/big_dataset.py                      # list, 1,000,000 rows, release binary
    python3 Tests/Bench/big_dataset.py --generate           # also generate a one-study site over it
    python3 Tests/Bench/big_dataset.py --rows 200000 --binary .build/debug/scrollstudy

A temporary content folder gets datasets/big.csv (a header and --rows rows in the shape of
Content/datasets/catalog.csv: sku, title, description, price, thumbnail, width, height; a tenth of
the descriptions quoted with a comma inside, every row about 63 bytes) and datasets/big.json, a
descriptor mapping those columns like catalog.json does.

  list      `scrollstudy list --content <copy of Content/ plus the big dataset>`: the whole content
            is loaded and validated (every row of the CSV read, mapped and its id checked) and the
            datasets listed. This is the loader's peak.
  generate  (with --generate) `scrollstudy generate --no-cache --quiet` over a small folder: a site.json,
            the big dataset and one study of it (one strategy, one latency, one seed, a fling), so
            that the build's own work stays small and the figure is what holding the dataset costs
            through plan, run and render.

Each row gives wall seconds and peak resident memory (MiB) from the kernel (/usr/bin/time -f '%e %M');
nothing inside the tool is instrumented. Uses only the Python standard library.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

DESCRIPTOR = {
    "name": "A million products",
    "summary": "Generated rows in the catalogue's CSV shape, to measure what loading a big dataset costs.",
    "file": "big.csv",
    "format": "csv",
    "fields": {"id": "sku", "text": "title", "detail": "description", "imageURL": "thumbnail",
               "imageWidth": "width", "imageHeight": "height"},
    "presentation": {"layout": {"kind": "grid", "columns": "sizeClass", "spacing": 1, "itemHeight": 90},
                     "cellDesign": "plain"},
}

STUDY = {
    "title": "Scrolling a million products",
    "question": "Does a grid of a million rows from a CSV file scroll like a small one?",
    "dataset": "big",
    "gestures": ["fling"],
    "latenciesMs": [100],
    "seeds": [1],
    "strategies": ["wwdc21"],
}

ITEMS = ["desk lamp", "notebook", "mug", "chair", "backpack", "kettle", "pen", "shelf"]
LINES = ["Classic", "Studio", "Travel", "Everyday"]


def write_csv(path: Path, rows: int) -> int:
    """Writes the CSV; returns its size in bytes. Deterministic: row k depends only on k."""
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write("sku,title,description,price,thumbnail,width,height\n")
        for k in range(1, rows + 1):
            title = f"{LINES[k % 4]} {ITEMS[k % 8]} {k}"
            description = f"\"size {k % 7 + 1}, grey\"" if k % 10 == 0 else f"model {k % 97}"
            width = 600 if k % 3 else 800
            f.write(f"P{k:07d},{title},{description},{(k * 37) % 10000 / 100:.2f},t/{k}.jpg,{width},600\n")
    return path.stat().st_size


def timed(argv):
    """Runs argv; returns (wall s, peak RSS MiB). Exits with the tool's error on failure."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as tf, tempfile.TemporaryFile() as err:
        proc = subprocess.run(["/usr/bin/time", "-o", tf.name, "-f", "%e %M"] + [str(a) for a in argv],
                              stdout=subprocess.DEVNULL, stderr=err)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"error: {' '.join(map(str, argv))} exited {proc.returncode}\n{err.read().decode('utf-8', 'replace')[-3000:]}")
        wall, rss_kib = tf.read().split()[-2:]
    return float(wall), int(rss_kib) / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the CSV (default 1000000)")
    parser.add_argument("--binary", default=str(REPO / ".build/release/scrollstudy"), help="the scrollstudy binary")
    parser.add_argument("--generate", action="store_true", help="also generate a one-study site over the dataset")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    args = parser.parse_args()
    binary = Path(args.binary)
    if not binary.exists():
        sys.exit(f"error: {binary} does not exist; build it first (swift build -c release)")

    work = Path(tempfile.mkdtemp(prefix="scrollstudy-big-"))
    try:
        content = work / "content"
        shutil.copytree(REPO / "Content", content)
        size = write_csv(content / "datasets/big.csv", args.rows)
        (content / "datasets/big.json").write_text(json.dumps(DESCRIPTOR, indent=2) + "\n", encoding="utf-8")
        print(f"dataset: {args.rows:,} rows, {size / 1e6:.1f} MB ({size:,} bytes); binary: {binary}")
        print(f"{'command':<10} {'wall s':>8} {'peak MiB':>9}")
        wall, rss = timed([binary, "list", "--content", content])
        print(f"{'list':<10} {wall:>8.2f} {rss:>9.1f}")
        if args.generate:
            small = work / "small"
            (small / "datasets").mkdir(parents=True)
            (small / "studies").mkdir()
            site = {"title": "Big dataset", "tagline": "One study of a generated million-row CSV."}
            (small / "site.json").write_text(json.dumps(site) + "\n", encoding="utf-8")
            for name in ["big.csv", "big.json"]:
                shutil.copy(content / "datasets" / name, small / "datasets" / name)
            (small / "studies/big.json").write_text(json.dumps(STUDY, indent=2) + "\n", encoding="utf-8")
            wall, rss = timed([binary, "generate", "--content", small, "--templates", REPO / "Templates",
                               "--output", work / "site", "--no-cache", "--quiet"])
            print(f"{'generate':<10} {wall:>8.2f} {rss:>9.1f}")
        if args.keep:
            print(f"kept: {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
