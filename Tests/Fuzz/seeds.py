#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target into a folder: seeds.py TARGET FOLDER.

Seeds come from the repository's Content/ and Templates/, from the specification suites in
../shared/specs when that folder is there, and from a few hand-written edge cases per target.
Each seed is one file named after where it came from.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONTENT = ROOT / "Content"
TEMPLATES = ROOT / "Templates"
SPECS = ROOT.parent / "shared" / "specs"


def files(folder, pattern):
    return sorted(p for p in folder.rglob(pattern) if p.is_file())


def name_of(path):
    return str(path.relative_to(ROOT)).replace("/", "_")


def json_seeds():
    for p in files(CONTENT, "*.json"):
        yield name_of(p), p.read_bytes()
    for p in files(SPECS / "mustache", "*.json"):
        yield "spec_" + p.name, p.read_bytes()
    yield "bom", b'\xef\xbb\xbf{"a": [1, 2.5e-3, -0, true, false, null, "\\u00e9\\ud83d\\ude00\\n"]}'
    yield "nested", b"[" * 150 + b"]" * 150
    yield "errors", b'{"a": 1, "a": 2, "b": [1,],\n "c": \'x\'}'
    yield "numbers", b"[0, -1, 1e308, 1e309, 0.1, 12345678901234567890, -0.0e+0]"


def csv_seeds():
    for p in files(CONTENT, "*.csv"):
        yield name_of(p), p.read_bytes()
    yield "quoted", b'id,name,note\r\n1,"a, b","say ""hi"""\r\n2,"two\nlines",x\r\n'
    yield "bom", b"\xef\xbb\xbfid,name\n1,x\n\n2,y"
    yield "problems", b'id,,id\n1,2\n"open,x\n3,a"b,c\n'
    yield "cr", b"a,b\r1,2\r3,4"


def mustache_seeds():
    templates = {p.stem: p.read_text(encoding="utf-8") for p in files(TEMPLATES, "*.mustache")}
    for name, text in templates.items():
        yield "template_" + name, text.encode()
        used = sorted(set(re.findall(r"\{\{[>]\s*([\w.-]+)\s*\}\}", text)) & set(templates))
        if used:
            parts = [text] + [f"{u}\n{templates[u]}" for u in used[:8]]
            yield "template_" + name + "_with_partials", "\0".join(parts).encode()
    for p in files(SPECS / "mustache", "*.json"):
        if "lambdas" in p.name:
            continue
        for i, test in enumerate(json.loads(p.read_text(encoding="utf-8"))["tests"]):
            partials = test.get("partials", {})
            parts = [test["template"]] + [f"{k}\n{v}" for k, v in sorted(partials.items())]
            yield f"spec_{p.stem}_{i}", "\0".join(parts).encode()
    yield "everything", (b"{{! comment }}{{title}}{{{title}}}{{&title}}{{#items}}{{name}}{{.}}{{/items}}"
                         b"{{^none}}none{{/none}}{{=<% %>=}}<%site.title%><%={{ }}=%>{{>a}}{{>*partial}}"
                         b"{{<a}}{{$b}}over{{/b}}{{/a}}\0a\n  {{$b}}default{{/b}}\n{{object.a.b.c}}")


def markdown_seeds():
    for p in files(CONTENT, "*.md"):
        yield name_of(p), p.read_bytes()
    spec = SPECS / "commonmark" / "spec-0.31.2.json"
    if spec.exists():
        for example in json.loads(spec.read_text(encoding="utf-8")):
            yield f"spec_{example['example']}", example["markdown"].encode()
    yield "front_matter", b"---\ntitle: \"T\"\ntags:\n  - a\n  - b\n---\n# H\n\n[x](study:glitchy-table) <b>raw</b>\n"
    yield "swift", b"```swift\nlet x = \"s\\(1)\" // c\n/* b */ func f() {}\n```\n"
    yield "headings", b"# a\n" * 40


def frontmatter_seeds():
    for p in files(CONTENT, "*.md"):
        lines = p.read_bytes().split(b"\n")
        if lines and lines[0].strip() == b"---":
            end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == b"---"), min(len(lines), 40))
            yield name_of(p), b"\n".join(lines[: end + 1]) + b"\nbody\n"
    yield "list", b"---\nkey: value\nlist:\n  - one\n  - 'two'\n# comment\n\nempty:\n---\n"
    yield "crlf", b"---\r\na: 1\r\n---\r\nbody"
    yield "errors", b"---\n- item\nno colon\na: 1\na: 2\n"
    yield "unclosed", b"---\ntitle: x\n"


def gesture_seeds():
    for i, text in enumerate([
        "drag:300:6", "fling:4000", "fling:9000:normal:0.7,fling:-9000:fast:0.7,fling:6000",
        "drag:800:5,pause:0.5,reverse:5", "drag:400:2,rotate,drag:400:2", "drag:600:1.5,insert:10,drag:600:3",
        "to:1000000000,pause:0.2,drag:-500:6", "drag:220:5,pause:0.5,fling:-3000:fast", "fling:-50000:fast:120",
        " drag : 1e2 : 0.5 ", "drag:0:0", "rotate",
    ]):
        yield f"inline_{i}", text.encode()


def bundle(paths):
    """Files of Content/ as one content-fuzzer input: `@@ path` lines, each followed by the file."""
    parts = [b"@@ " + p.encode() + b"\n" + (CONTENT / p).read_bytes() for p in paths]
    return b"\n".join(parts)


def content_seeds():
    rel = lambda p: str(p.relative_to(CONTENT))
    yield "site", bundle(["site.json"])
    for p in files(CONTENT / "studies", "*.json"):
        yield "study_" + p.stem, bundle(["site.json", rel(p)])
    for p in files(CONTENT / "datasets", "*.json"):
        descriptor = json.loads(p.read_text(encoding="utf-8"))
        paths = ["site.json", rel(p)]
        if isinstance(descriptor, dict) and isinstance(descriptor.get("file"), str):
            paths.append("datasets/" + descriptor["file"])
            studies = [s for s in files(CONTENT / "studies", "*.json") if p.stem in s.read_text(encoding="utf-8")]
            paths += [rel(s) for s in studies[:1]]
        yield "dataset_" + p.stem, bundle(paths)
    strategies = files(CONTENT / "strategies", "*.json")
    for i in range(0, len(strategies), 6):
        yield f"strategies_{i}", bundle(["site.json"] + [rel(p) for p in strategies[i:i + 6]])
    yield "devices", bundle(["site.json"] + [rel(p) for p in files(CONTENT / "devices", "*.json")])
    yield "documents", bundle(["site.json", "model.md"] + [rel(p) for p in files(CONTENT / "techniques", "*.md")][:3])
    yield "odd", (b"@@ site.json\n{\"title\": \"t\", \"tagline\": \"g\", \"defaultLatenciesMs\": [5, 5]}\n"
                  b"@@ datasets/x.json\n{\"name\": \"x\", \"summary\": \"s\", \"file\": \"x.csv\", \"fields\": {\"text\": \"t\"}}\n"
                  b"@@ datasets/x.csv\n\xef\xbb\xbft,u\n\"a\",b\n@@ notes.txt\nhello\n@@ a/b/c/d/e/f/g/h/i/j\nx\n"
                  b"@@ studies/Bad Name.json\n{}\n@@ .hidden\nx")


SEEDS = {
    "json": json_seeds, "csv": csv_seeds, "mustache": mustache_seeds, "markdown": markdown_seeds,
    "frontmatter": frontmatter_seeds, "gesture": gesture_seeds, "content": content_seeds,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SEEDS:
        sys.exit(f"usage: seeds.py {{{','.join(SEEDS)}}} FOLDER")
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, data in SEEDS[sys.argv[1]]():
        (out / re.sub(r"[^\w.-]", "_", name)).write_bytes(data)
        count += 1
    if not SPECS.exists() and sys.argv[1] in ("json", "mustache", "markdown"):
        print(f"seeds: {SPECS} is absent; no specification examples among the seeds")
    print(f"seeds: {count} for {sys.argv[1]}")


if __name__ == "__main__":
    main()
