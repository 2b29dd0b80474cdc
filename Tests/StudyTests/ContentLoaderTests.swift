import Formats
import Foundation
import Testing
import ScrollSimulation
@testable import Study
import TestSupport

@Suite("ContentLoader: the default Content/")
struct ContentLoaderDefaultTests {
    static let contentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Content")

    static func runs(_ s: Study) -> Int {
        s.strategies.count * s.latenciesMs.count * s.devices.count * s.gestures.count * s.seeds.count
    }

    @Test("The default content loads without errors or warnings; studies, run counts and names are as designed")
    func loads() throws {
        let content: SiteContent
        do { content = try ContentLoader.load(from: Self.contentURL) } catch {
            Issue.record("default content failed to load:\n\(error)")
            return
        }
        #expect(content.warnings.isEmpty, "\(content.warnings)")
        #expect(content.site.title == "Scroll studies")
        #expect(content.site.defaultLatenciesMs == [100, 1_000])
        let expected: [(String, Int)] = [
            ("glitchy-table", 6), ("capital-one", 8), ("capital-one-techniques", 32), ("digital-leaves-table", 6), ("digital-leaves-grid", 2),
            ("wwdc21", 8), ("rendering", 8), ("wwdc21-grid-techniques", 32), ("latency-sweep", 30), ("image-decoding", 3), ("older-phone", 2), ("insertions", 3), ("cache-revisits", 3),
            ("self-sizing", 3), ("prefetching", 10), ("user-datasets", 2), ("team-list", 3), ("grid-sizing", 2),
        ]
        #expect(content.studies.map(\.id) == expected.map(\.0))
        // Every study runs the site's default 5 seeds: 163 configurations, 815 runs (the latency
        // sweep's sixth strategy, reconfigure by id without its store, adds 5 latencies × 5 seeds;
        // the two technique searches add 16 combinations × 2 latencies and 32 × 1, 320 runs).
        #expect(content.studies.allSatisfy { $0.seeds == [1, 2, 3, 4, 5] && $0.jitter == 0.5 })
        #expect(content.studies.map(Self.runs) == expected.map { $0.1 * 5 })
        #expect(content.studies.map(Self.runs).reduce(0, +) == 815)
        #expect(content.datasets.map(\.id) == ["camera-roll", "catalog", "feed", "glitchy-300", "photos-19", "team", "users-1000"])
        #expect(content.devices.map(\.id) == ["iphone-120hz", "iphone-60hz", "older-iphone"])
        let older = try #require(content.devices.first { $0.id == "older-iphone" })
        #expect(older.screenScale == 2 && older.backgroundCores == 2 && older.decodePerMegapixelMain == 12_000)
        #expect(older.refreshRateHz == 60 && older.setImage == DeviceProfile.iPhone60Hz.setImage, "what the file leaves out comes from its base")
        // 31 strategy files (wwdc21-bare the latest) and the searches' 15 + 31 combinations beyond their bases.
        #expect(content.strategies.count == Strategy.presets.count + 31 + 15 + 31)
        #expect(content.strategies.map(\.id) == content.strategies.map(\.id).sorted())

        let sweep = try #require(content.studies.first { $0.id == "latency-sweep" })
        #expect(sweep.kind == .sweep)
        #expect(sweep.latenciesMs == [0, 100, 200, 500, 1_000])
        let grid = try #require(content.studies.first { $0.id == "digital-leaves-grid" })
        #expect(grid.presentation == Presentation(layout: .grid(GridSpec(columns: .evenWithOuterSpacing(3), spacing: 10, aspect: 1)),
                                                  cellDesign: .text, imageSide: 110))
        #expect(grid.gestures == [.rotate])
        let rendering = try #require(content.studies.first { $0.id == "rendering" })
        #expect(rendering.presentation?.cellDesign == .card)
        #expect(rendering.presentation?.layout == .table(.fixed(height: 64)))
        #expect(rendering.isolates == [.t16, .t17])
        #expect(rendering.sourceFile == "studies/rendering.json")

        let noViewModels = try #require(content.strategy("capitalone-no-viewmodels"))
        #expect(noViewModels.techniques == [.t7, .t8, .t10])
        let lru = try #require(content.strategy("cache-lru"))
        #expect(lru.techniques == [.t6, .t7, .t8, .t10, .t11] && lru.parameters.cacheCountLimit == 500 && lru.parameters.cachePolicy == .lruCount)
        let noReuse = try #require(content.strategy("reuse-off"))
        #expect(noReuse.techniques == [.t6, .t7, .t10])
        let syncFetch = try #require(content.strategy("fetch-sync"))
        #expect(syncFetch.techniques == [.t6, .t8, .t10])
        let perCall = try #require(content.strategy("grid-size-per-call"))
        #expect(perCall.techniques == [.t5, .t8, .t11, .t14, .t15, .t21])
        let teamList = try #require(content.studies.first { $0.id == "team-list" })
        #expect(teamList.dataset == "team" && teamList.isolates == [.t7, .t8])
        let gridSizing = try #require(content.studies.first { $0.id == "grid-sizing" })
        #expect(gridSizing.dataset == "catalog" && gridSizing.isolates == [.t20])
        let pmlw = try #require(content.strategy("self-sizing-estimate-150-pmlw"))
        #expect(pmlw.parameters.estimatedRowHeight == 150 && pmlw.parameters.setsPreferredMaxLayoutWidth)

        // Every run the studies describe is one the simulation accepts.
        for study in content.studies {
            let dataset = try #require(content.dataset(study.dataset))
            for s in study.strategies {
                let strategy = try #require(content.strategy(s))
                for d in study.devices {
                    let device = try #require(content.device(d))
                    for latency in study.latenciesMs {
                        let config = RunConfig(dataset: dataset, strategy: strategy, device: device, gesture: study.gestures[0],
                                               latency: .ms(latency), presentation: study.presentation)
                        #expect(config.problems().isEmpty, "\(study.id)/\(s): \(config.problems())")
                    }
                }
            }
        }
    }

    @Test("The three user datasets exercise each data format")
    func userDatasets() throws {
        let content = try ContentLoader.load(from: Self.contentURL)
        func rows(_ id: String) throws -> [DatasetRow] {
            let dataset = try #require(content.dataset(id))
            guard case let .rows(rows) = dataset.items else { Issue.record("\(id) has no rows"); return [] }
            return rows
        }
        let team = try rows("team")
        #expect(team.count == 40)
        #expect(team[0] == DatasetRow(id: "m01", text: "Ada Okafor", detail: "iOS engineer", imageURL: "avatars/1.jpg", imageWidth: 128, imageHeight: 128))
        #expect(content.dataset("team")?.requiresInitialFetch == true)

        let feed = try rows("feed")
        #expect(feed.count == 60)
        #expect(feed[0].id == "1000", "a number in a text field becomes its text")
        #expect(feed[7].text == "Lanterns at the night market 🏮 — \"one more photo\" became forty.")
        #expect(feed.allSatisfy { $0.imageWidth == 1_024 && $0.imageHeight == 768 })
        #expect(content.dataset("feed")?.presentation.layout == .grid(GridSpec(columns: .widthThreshold(narrow: 1, wide: 3, threshold: 500), spacing: 20, aspect: 0.8)))

        let catalog = try rows("catalog")
        #expect(catalog.count == 80)
        #expect(catalog[0].id == "CAT-001")
        #expect(catalog[0].text == "Classic desk lamp, grey")
        #expect(catalog[0].detail == "The \"Classic\" edition: brass arm, warm light\nShips in recycled packaging.")
        #expect(catalog[0].imageWidth == 800 && catalog[1].imageWidth == 600)
        #expect(content.dataset("catalog")?.presentation.layout == .grid(GridSpec(columns: .sizeClass, spacing: 1, aspect: nil, fixedItemHeight: 90)))
    }

    @Test("Loading twice gives the same content")
    func deterministic() throws {
        let a = try ContentLoader.load(from: Self.contentURL), b = try ContentLoader.load(from: Self.contentURL)
        #expect(a.studies == b.studies)
        #expect(a.strategies == b.strategies)
        #expect(a.datasets.map(\.id) == b.datasets.map(\.id))
        #expect(a.documents == b.documents)
    }
}

@Suite("ContentLoader: malformed files")
struct ContentLoaderSyntaxTests {
    @Test("JSON syntax errors in any file are reported at their position",
          arguments: [
            ("{\n  \"title\": \"A\",\n  \"tagline\": \"B\"", 3, 17, "unexpected end of file; expected ',' or '}' after object member"),
            ("{\n  \"title\": \"A\",\n  \"tagline\": \"B\",\n}", 3, 17, "trailing comma after the last object member is not allowed in JSON (RFC 8259); remove the ','"),
            ("{\n  \"title\" \"A\",\n  \"tagline\": \"B\"\n}", 2, 11, "expected ':' after object key \"title\", found '\"'"),
            (#"{"title": "C:\path", "tagline": "B"}"#, 1, 14, #"invalid escape '\p'"#),
            ("{\n  \"title\": \"A\",\n  \"title\": \"B\",\n  \"tagline\": \"C\"\n}", 3, 3, "duplicate key \"title\" (first at line 2, column 3)"),
          ])
    func jsonErrors(text: String, line: Int, column: Int, message: String) throws {
        let problems = try Fixture.problems(["site.json": text, "studies/s.json": Fixture.study])
        expectDiagnostic(problems, "site.json", line, column, message)
        #expect(problems.count == 1, "\(problems)")
    }

    @Test("A file that is not UTF-8 is reported at its first bad byte")
    func notUTF8() throws {
        let folder = try Fixture.folder(["studies/s.json": Fixture.study])
        try folder.write("studies/t.json", Data([0x7B, 0x0A, 0x20, 0x22, 0xFF, 0x22, 0x7D]))
        expectDiagnostic(folder.problems(), "studies/t.json", 2, 3, "the file is not valid UTF-8 (byte 0xFF at offset 4)")
    }

    static let peopleFields = #"{"id": "id", "text": "name"}"#

    @Test("CSV: an unclosed quote and rows with the wrong number of fields, located in the data file")
    func csvErrors() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.peopleFields),
            "datasets/people.csv": "id,name\n1,Ann\n2,Bob,extra\n3,\"Cy\n4,Di\n",
        ])
        expectDiagnostic(problems, "datasets/people.csv", 3, 1, "this row has 3 fields but the header has 2 (id, name)")
        expectDiagnostic(problems, "datasets/people.csv", 4, 3, "unclosed quote: the quoted field that starts at line 4, column 3")
    }

    @Test("json-strings: an element that is not a string, a string that is not JSON, a string that is not an object")
    func jsonStrings() throws {
        let data = """
        [
          "{\\"id\\": \\"a\\", \\"name\\": \\"Ann\\"}",
          5,
          "{\\"id\\": }",
          "[1, 2]",
          {"id": "b", "name": "Bob"}
        ]
        """
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json-strings", fields: Self.peopleFields),
            "datasets/people-data.json": data,
        ])
        expectDiagnostic(problems, "datasets/people-data.json", 3, 3, "the element at index 1 must be a string holding a JSON-encoded object (format \"json-strings\"), found the number 5")
        expectDiagnostic(problems, "datasets/people-data.json", 4, 3, "the string at index 2 is not valid JSON: unexpected '}'; expected a value", "(at character 8 of the decoded string)")
        expectDiagnostic(problems, "datasets/people-data.json", 5, 3, "the string at index 3 must hold a JSON object, found an array")
        expectDiagnostic(problems, "datasets/people-data.json", 6, 3, "the element at index 4 must be a string", "found an object; for an array of objects use \"format\": \"json\"")
        #expect(problems.count == 4, "\(problems)")
    }

    @Test("json: elements must be objects; the hint names the json-strings format; a shared data file is reported once")
    func jsonArrayOfStrings() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.peopleFields),
            "datasets/people-again.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.peopleFields),
            "datasets/people-data.json": #"["{\"id\": \"a\", \"name\": \"Ann\"}"]"#,
        ])
        expectDiagnostic(problems, "datasets/people-data.json", 1, 2, "the element at index 0 must be an object, found the string", "use \"format\": \"json-strings\"")
        #expect(problems.count == 1, "no 'has no rows' on top, and not twice: \(problems)")
    }
}

@Suite("ContentLoader: names, keys, types and ranges")
struct ContentLoaderValidationTests {
    @Test("A misspelt strategy in a study points at the name and suggests the right one")
    func misspeltStrategy() throws {
        let study = """
        {
          "title": "S",
          "question": "Q?",
          "dataset": "users-1000",
          "strategies": ["glitchy-sync", "wwdc2l"]
        }
        """
        let problems = try Fixture.problems(["studies/s.json": study])
        #expect(problems.count == 1)
        expectDiagnostic(problems, "studies/s.json", 5, 34, "'strategies': unknown strategy 'wwdc2l'; did you mean 'wwdc21'? Valid strategy names: wwdc21,")
        #expect(problems.first?.description.hasPrefix("studies/s.json:5:34: error: ") == true)
    }

    @Test("Unknown keys, datasets, devices, gestures and techniques are errors with suggestions, closest first")
    func unknownNames() throws {
        let study = """
        {
          "titel": "S",
          "question": "Q?",
          "dataset": "users-100",
          "devices": ["iphone-60"],
          "gestures": ["flinng", "drag:fast:2"],
          "strategies": ["wwdc21"],
          "isolates": ["T24"]
        }
        """
        let strategy = """
        {
          "name": "N", "summary": "S",
          "basedOn": "wwdc-21",
          "parameters": {"prefetchDistanse": 5, "cachePolicy": "lru"}
        }
        """
        let problems = try Fixture.problems(["studies/s.json": study, "strategies/mine.json": strategy])
        expectDiagnostic(problems, "studies/s.json", 1, 1, "missing required key 'title' (a string)")
        expectDiagnostic(problems, "studies/s.json", 2, 3, "unknown key 'titel'; did you mean 'title'? Valid keys: title,")
        expectDiagnostic(problems, "studies/s.json", 4, 14, "unknown dataset 'users-100'; did you mean 'users-1000'?")
        expectDiagnostic(problems, "studies/s.json", 5, 15, "unknown device 'iphone-60'; did you mean 'iphone-60hz'?")
        expectDiagnostic(problems, "studies/s.json", 6, 16, "unknown gesture 'flinng'; did you mean 'fling'?")
        expectDiagnostic(problems, "studies/s.json", 6, 26, "inline gesture \"drag:fast:2\": expected velocity (pt/s) as a number")
        expectDiagnostic(problems, "studies/s.json", 8, 16, "'isolates' has \"T24\", which is not a technique; valid: T1 to T23")
        expectDiagnostic(problems, "strategies/mine.json", 3, 14, "'basedOn': unknown strategy 'wwdc-21'; did you mean 'wwdc21'?")
        expectDiagnostic(problems, "strategies/mine.json", 4, 18, "unknown key 'prefetchDistanse' in 'parameters'; did you mean 'prefetchDistance'?")
        expectDiagnostic(problems, "strategies/mine.json", 4, 56, "'parameters.cachePolicy': unknown cache policy 'lru'", "Valid cache policy names: lru-count")
    }

    @Test("Wrong types name the key, what it must be, and what was found")
    func wrongTypes() throws {
        let study = """
        {
          "title": 5,
          "question": "Q?",
          "dataset": "users-1000",
          "latenciesMs": "100",
          "seeds": [1, 2.5],
          "order": "first",
          "strategies": "wwdc21"
        }
        """
        let study2 = """
        {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "latenciesMs": [100, "1000"]}
        """
        let problems = try Fixture.problems(["studies/s.json": study, "studies/t.json": study2,
                                             "datasets/d.json": #"{"builtin": "users-1000", "presentation": {"imageSide": "big"}}"#])
        expectDiagnostic(problems, "studies/s.json", 2, 12, "'title' must be a string, found the number 5")
        expectDiagnostic(problems, "studies/s.json", 5, 18, "'latenciesMs' must be an array of numbers, found the string \"100\"")
        expectDiagnostic(problems, "studies/s.json", 6, 16, "'seeds' must be an array of integers ≥ 0, found 2.5")
        expectDiagnostic(problems, "studies/s.json", 7, 12, "'order' must be an integer, found the string \"first\"")
        expectDiagnostic(problems, "studies/s.json", 8, 17, "'strategies' must be an array of strategy ids, found the string \"wwdc21\"")
        expectDiagnostic(problems, "studies/t.json", 1, 106, "'latenciesMs' must be an array of numbers, found the string \"1000\"")
        expectDiagnostic(problems, "datasets/d.json", 1, 57, "'presentation.imageSide' must be a number, found the string \"big\"")
    }

    @Test("Negative and absurd numbers are errors that name the valid range")
    func ranges() throws {
        let study = """
        {"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"],
         "latenciesMs": [-5, 1e9], "seeds": [-1], "order": 1e20}
        """
        let device = """
        {"basedOn": "iphone-60hz", "viewportWidth": -390, "frameBase": 1e30, "refreshRateHz": 90, "backgroundCores": 0.5}
        """
        let strategy = """
        {"name": "N", "summary": "S", "basedOn": "wwdc21", "parameters": {"cacheCountLimit": 0, "prefetchDistance": 1e300, "pageSize": -25}}
        """
        let problems = try Fixture.problems(["studies/s.json": study, "devices/slow.json": device, "strategies/mine.json": strategy,
                                             "site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [1e400]}"#])
        expectDiagnostic(problems, "studies/s.json", 2, 18, "'latenciesMs' value -5 is out of range; valid: 0 to 60000 ms")
        expectDiagnostic(problems, "studies/s.json", 2, 22, "'latenciesMs' value 1e9 is out of range; valid: 0 to 60000 ms")
        expectDiagnostic(problems, "studies/s.json", 2, 38, "'seeds' value -1 is out of range; valid: 0 to 9007199254740991")
        expectDiagnostic(problems, "studies/s.json", 2, 52, "'order' value 1e20 is out of range; valid: -1000000 to 1000000")
        expectDiagnostic(problems, "devices/slow.json", 1, 45, "'viewportWidth' value -390 is out of range; valid: 100 to 5000 pt")
        expectDiagnostic(problems, "devices/slow.json", 1, 64, "'frameBase' value 1e30 is out of range; valid: 0 to 10000000 µs")
        expectDiagnostic(problems, "devices/slow.json", 1, 87, "'refreshRateHz' must be 60 or 120, found 90")
        expectDiagnostic(problems, "devices/slow.json", 1, 110, "'backgroundCores' must be an integer, found 0.5")
        expectDiagnostic(problems, "strategies/mine.json", 1, 86, "'parameters.cacheCountLimit' value 0 is out of range; valid: 1 to 1000000 entries")
        expectDiagnostic(problems, "strategies/mine.json", 1, 109, "'parameters.prefetchDistance' value 1e300 is out of range; valid: 1 to 1000 rows")
        expectDiagnostic(problems, "strategies/mine.json", 1, 128, "'parameters.pageSize' value -25 is out of range; valid: 1 to 100000 rows")
        expectDiagnostic(problems, "site.json", 1, 55, "the number 1e400 is too large")
    }

    @Test("Strategy problems are reported at the techniques; presets and built-in devices cannot be redefined")
    func strategyProblems() throws {
        let problems = try Fixture.problems([
            "strategies/no-delivery.json": "{\"name\": \"N\", \"summary\": \"S\",\n \"techniques\": [\"T6\", \"T8\"]}",
            "strategies/both-sizings.json": #"{"name": "N", "summary": "S", "basedOn": "digitalleaves", "add": ["T19"], "remove": ["T9"]}"#,
            "strategies/wwdc21.json": #"{"name": "N", "summary": "S", "techniques": ["T5", "T8"]}"#,
            "devices/iphone-60hz.json": #"{"basedOn": "iphone-60hz"}"#,
            "strategies/many.json": #"{"name": "N", "summary": "S", "techniques": ["T1", "T3"], "parameters": {"pageSize": 0}}"#,
        ])
        expectDiagnostic(problems, "strategies/many.json", 1, 45, "combines data-delivery techniques T1 and T3; use exactly one of")
        expectDiagnostic(problems, "strategies/many.json", 1, 86, "'parameters.pageSize' value 0 is out of range")
        expectDiagnostic(problems, "strategies/no-delivery.json", 2, 16, "strategy 'no-delivery' has no data-delivery technique; use exactly one of T1, T2, T3, T4, T5, T9, T10")
        expectDiagnostic(problems, "strategies/both-sizings.json", 1, 66, "uses both T18 (self-sizing with an estimate) and T19 (precomputed heights); pick one")
        expectDiagnostic(problems, "strategies/both-sizings.json", 1, 86, "'remove' lists T9, which the strategy does not use", severity: .warning)
        expectDiagnostic(problems, "strategies/wwdc21.json", nil, nil, "strategy id 'wwdc21' is a built-in preset's; rename the file")
        expectDiagnostic(problems, "devices/iphone-60hz.json", nil, nil, "device id 'iphone-60hz' is a built-in device's; rename the file")
    }

    @Test("A sweep needs three latencies; a study may have at most 12 strategies and any number of runs")
    func studyLimits() throws {
        let twelve = (Strategy.presets.map { "\"\($0.id)\"" }).joined(separator: ", ")
        let problems = try Fixture.problems([
            "studies/sweep.json": #"{"title": "S", "question": "Q?", "kind": "sweep", "dataset": "glitchy-300", "strategies": ["glitchy-sync"], "latenciesMs": [100, 1000]}"#,
            "studies/big.json": #"{"title": "S", "question": "Q?", "dataset": "glitchy-300", "strategies": [\#(twelve)], "latenciesMs": [0, 1, 2, 3, 4, 5], "devices": ["iphone-60hz", "iphone-120hz"], "gestures": ["fling", "gentle"]}"#,
            "studies/none.json": #"{"title": "S", "question": "Q?", "dataset": "glitchy-300", "strategies": []}"#,
        ])
        expectDiagnostic(problems, "studies/sweep.json", 1, 124, "a sweep needs at least 3 latency settings in 'latenciesMs'; this one has 2")
        // 288 runs: once over a limit of 200 per study; now only a whole build over 20 000 runs stops (BuildCostTests).
        #expect(!problems.contains { $0.file == "studies/big.json" }, "\(problems.filter { $0.file == "studies/big.json" })")
        expectDiagnostic(problems, "studies/none.json", 1, 74, "'strategies' has 0 entries; a study compares 1 to 12 strategies")
    }
}

@Suite("ContentLoader: datasets")
struct ContentLoaderDatasetTests {
    static let fields = #"{"id": "id", "text": "name", "detail": "role", "imageURL": "avatar", "imageWidth": "w", "imageHeight": "h"}"#

    @Test("A user dataset maps records to rows; studies can use it and built-in datasets by name")
    func mapping() throws {
        let data = """
        [
          {"id": 7, "name": "Ann", "role": "Admin", "avatar": "a/7.jpg", "w": 128, "h": 96},
          {"id": "x", "name": 42, "role": null, "avatar": null}
        ]
        """
        let folder = try Fixture.folder([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.fields,
                                                       extra: #", "textSource": "model", "requiresInitialFetch": true"#),
            "datasets/people-data.json": data,
            "studies/a.json": #"{"title": "A", "question": "Q?", "dataset": "people", "strategies": ["wwdc21"]}"#,
            "studies/b.json": #"{"title": "B", "question": "Q?", "dataset": "synthetic:5000", "strategies": ["wwdc21"], "order": 1}"#,
        ])
        let content = try folder.load()
        #expect(content.datasets.map(\.id) == ["people", "synthetic:5000"])
        #expect(content.studies.map(\.id) == ["b", "a"], "sorted by order, then id")
        let people = try #require(content.dataset("people"))
        #expect(people.textSource == .model && people.requiresInitialFetch)
        #expect(people.presentation == Presentation(layout: .table(.fixed(height: 64)), cellDesign: .plain, imageSide: 44))
        guard case let .rows(rows) = people.items else { Issue.record("expected rows"); return }
        #expect(rows == [
            DatasetRow(id: "7", text: "Ann", detail: "Admin", imageURL: "a/7.jpg", imageWidth: 128, imageHeight: 96),
            DatasetRow(id: "x", text: "42", detail: nil, imageURL: nil, imageWidth: 0, imageHeight: 0),
        ])
        let study = try #require(content.studies.first { $0.id == "a" })
        #expect(study.devices == ["iphone-60hz"] && study.gestures == [.aggressive] && study.latenciesMs == [100, 1_000] && study.seeds == [1] && study.jitter == 0)
        #expect(study.presentation == nil && study.order == 100 && study.kind == .comparison)
    }

    @Test("A built-in dataset under another name, with overrides")
    func builtIn() throws {
        let folder = try Fixture.folder([
            "datasets/big.json": #"{"builtin": "synthetic:5000", "name": "Big list", "presentation": {"layout": {"kind": "table", "rowHeight": 50}}}"#,
        ])
        let content = try folder.load()
        let big = try #require(content.dataset("big"))
        #expect(big.count == 5_000 && big.name == "Big list")
        #expect(big.presentation.layout == .table(.fixed(height: 50)))
        #expect(big.presentation.cellDesign == .text, "unchanged parts come from the built-in dataset")

        let problems = try Fixture.problems([
            "datasets/big.json": #"{"builtin": "users-100", "file": "x.json"}"#,
            "datasets/users-1000.json": #"{"builtin": "users-1000"}"#,
        ])
        expectDiagnostic(problems, "datasets/big.json", 1, 13, "unknown dataset 'users-100'; did you mean 'users-1000'?")
        expectDiagnostic(problems, "datasets/big.json", 1, 26, "key 'file' cannot be used with 'builtin'")
        expectDiagnostic(problems, "datasets/users-1000.json", nil, nil, "dataset id 'users-1000' is a built-in dataset's name")
    }

    @Test("Record problems name the data file, the row, the field and the record's fields")
    func recordProblems() throws {
        let data = """
        [
          {"id": "a", "name": "Ann", "role": "Admin", "avatar": "a.jpg", "w": 128, "h": 128},
          {"id": "b", "title": "Bob", "role": "User", "avatar": "b.jpg", "w": 128, "h": 128},
          {"id": "c", "name": {"first": "Cy"}, "avatar": "c.jpg", "w": 0, "h": 128},
          {"id": "a", "name": "Di", "avatar": "d.jpg", "w": 128, "h": 20001}
        ]
        """
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.fields),
            "datasets/people-data.json": data,
        ])
        let file = "datasets/people-data.json"
        expectDiagnostic(problems, file, 3, 3, "the row at index 1 has no field 'name' (for 'fields.text'); its fields are: id, title, role, avatar, w, h")
        expectDiagnostic(problems, file, 4, 23, "field 'name' (for 'fields.text') of the row at index 2 must be a string or a number, found an object")
        expectDiagnostic(problems, file, 4, 64, "field 'w' (for 'fields.imageWidth') of the row at index 2 must be a whole number of pixels from 1 to 20000, found the number 0")
        expectDiagnostic(problems, file, 5, 63, "field 'h' (for 'fields.imageHeight') of the row at index 3", "found the number 20001")
        #expect(problems.count == 4, "\(problems)")

        // Once the rows are fixed, the repeated id is what is left.
        let fixed = data.replacingOccurrences(of: "\"title\"", with: "\"name\"").replacingOccurrences(of: #"{"first": "Cy"}"#, with: "\"Cy\"")
            .replacingOccurrences(of: "\"w\": 0", with: "\"w\": 1").replacingOccurrences(of: "20001", with: "200")
        let again = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: Self.fields),
            "datasets/people-data.json": fixed,
        ])
        expectDiagnostic(again, file, 5, 10, "duplicate id \"a\": the row at index 3 has the id of the row at index 0 (line 2, column 3); ids must be unique")
        #expect(again.count == 1, "\(again)")
    }

    @Test("A field no row has is a mistake in the descriptor, with a suggestion and the fields there are")
    func unknownField() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: #"{"text": "nmae", "idd": "id"}"#),
            "datasets/people.csv": "id,name\n1,Ann\n",
        ])
        expectDiagnostic(problems, "datasets/people.json", 1, 113, "unknown key 'idd' in 'fields'; did you mean 'id'?")
        let problems2 = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: #"{"text": "nmae"}"#),
            "datasets/people.csv": "id,name\n1,Ann\n",
        ])
        expectDiagnostic(problems2, "datasets/people.json", 1, 105, "'fields.text' names \"nmae\", which is not a column of 'people.csv'; did you mean 'name'? Columns: id, name")
    }

    @Test("Empty datasets and repeated ids are errors", arguments: [
        ("people.json", "json", "[]", 1, 1, "'people-data.json' has no rows; a dataset needs at least one"),
        ("people.csv", "csv", "id,name\n", 1, 1, "'people-data.csv' has no rows"),
        ("people.csv", "csv", "id,name\n1,Ann\n2,Bob\n1,Cy\n", 4, 1, "duplicate id \"1\": the row at index 2 has the id of the row at index 0 (line 2, column 1)"),
    ])
    func emptyAndDuplicates(dataFile: String, format: String, data: String, line: Int, column: Int, message: String) throws {
        let name = dataFile.replacingOccurrences(of: "people", with: "people-data")
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: name, format: format, fields: #"{"id": "id", "text": "name"}"#),
            "datasets/" + name: data,
        ])
        expectDiagnostic(problems, "datasets/" + name, line, column, message)
    }

    @Test("The data file must be a file name next to the descriptor")
    func dataFileName() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "../x.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/others.json": Fixture.descriptor(file: "peple.csv", format: "csv", fields: #"{"text": "name"}"#),
            "datasets/people.csv": "name\nAnn\n",
        ])
        let misnamed = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": #"[{"name": "Ann"}]"#,
            "studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "people-data", "strategies": ["wwdc21"]}"#,
        ])
        expectDiagnostic(misnamed, "studies/s.json", 1, 45, "'dataset': 'people-data' is a data file, not a dataset; use the id of the descriptor that names it: 'people'")
        expectDiagnostic(problems, "datasets/people.json", 1, 55, "'file' must be the name of a file next to the descriptor in datasets/ (no '/', '..' or leading '.'), found \"../x.json\"")
        expectDiagnostic(problems, "datasets/others.json", 1, 55, "'file': no data file 'peple.csv'; did you mean 'people.csv'?")
    }
}

@Suite("ContentLoader: files, identifiers, documents, Unicode and ordering")
struct ContentLoaderFilesTests {
    @Test("File names must be identifiers; a reference like '../x' is an unknown name")
    func identifiers() throws {
        let problems = try Fixture.problems([
            "studies/My Study.json": Fixture.study,
            "strategies/Fast_One.json": #"{"name": "N", "summary": "S", "techniques": ["T5", "T8"]}"#,
            "studies/ok.json": #"{"title": "S", "question": "Q?", "dataset": "../x", "strategies": ["wwdc21"]}"#,
        ])
        expectDiagnostic(problems, "studies/My Study.json", nil, nil,
                         "'My Study' is not a valid id: a file name in studies/ (without .json) must be 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit",
                         "rename the file to 'my-study.json'")
        expectDiagnostic(problems, "strategies/Fast_One.json", nil, nil, "'Fast_One' is not a valid id", "'fast-one.json'")
        expectDiagnostic(problems, "studies/ok.json", 1, 45, "'dataset': unknown dataset '../x'")
        #expect(ContentLoader.isIdentifier("a") && ContentLoader.isIdentifier("0-x") && ContentLoader.isIdentifier(String(repeating: "a", count: 64)))
        #expect(!ContentLoader.isIdentifier("") && !ContentLoader.isIdentifier("-a") && !ContentLoader.isIdentifier("../x")
                && !ContentLoader.isIdentifier("é") && !ContentLoader.isIdentifier(String(repeating: "a", count: 65)))
    }

    @Test("Strings over 10 000 characters are kept, with a warning")
    func longStrings() throws {
        let long = String(repeating: "é", count: 10_001)
        let folder = try TemporaryContent([
            "site.json": #"{"title": "\#(long)", "tagline": "\#(String(repeating: "x", count: 10_000))"}"#,
        ])
        let content = try folder.load()
        #expect(content.site.title == long)
        #expect(content.warnings.count == 1)
        expectDiagnostic(content.warnings, "site.json", 1, 11, "a string of 10001 characters is longer than 10000; it is kept as written", severity: .warning)
    }

    @Test("Unicode text (emoji, right-to-left, combining marks) is kept exactly, in JSON and CSV")
    func unicode() throws {
        let title = "Scroll 👩‍👩‍👧‍👦 studies — עברית, العربية, Zoe\u{0308} and e\u{0301}"
        let folder = try Fixture.folder([
            "site.json": #"{"title": "\#(title)", "tagline": "\u05e9\u05dc\u05d5\u05dd \ud83d\udcdc"}"#,
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: #"{"text": "name", "detail": "note"}"#),
            "datasets/people.csv": "name,note\n\"\(title)\",\"🏳️‍🌈, \"\"quoted\"\"\"\n",
        ])
        let content = try folder.load()
        #expect(content.site.title.unicodeScalars.elementsEqual(title.unicodeScalars), "no normalisation")
        #expect(content.site.tagline == "שלום 📜")
        guard case let .rows(rows) = content.dataset("people")?.items else { Issue.record("no rows"); return }
        #expect(rows[0].text.unicodeScalars.elementsEqual(title.unicodeScalars))
        #expect(rows[0].detail == "🏳️‍🌈, \"quoted\"")
        #expect(rows[0].id == "0", "the id defaults to the row index")
    }

    @Test("Markdown files become documents; unexpected files are warnings; hidden files are ignored")
    func documentsAndStrayFiles() throws {
        let folder = try Fixture.folder([
            "techniques/t3.md": "# T3\n\nPer-cell queues.",
            "strategies/wwdc21.md": "Notes on WWDC21.",
            "README.md": "\u{FEFF}About.",
            "studies/notes.txt": "x",
            "techniques/t3.json": "{}",
            ".hidden.json": "{ not json",
            "studies/.DS_Store": "junk",
            "datasets/orphan.csv": "a\n1\n",
            "datasets/orphan-data.json": "[1, 2]",
        ])
        let content = try folder.load()
        #expect(content.documents == [ContentDocument(path: "README.md", text: "About."),
                                      ContentDocument(path: "strategies/wwdc21.md", text: "Notes on WWDC21."),
                                      ContentDocument(path: "techniques/t3.md", text: "# T3\n\nPer-cell queues.")])
        let w = content.warnings
        #expect(w.map(\.file) == ["datasets/orphan-data.json", "datasets/orphan.csv", "studies/notes.txt", "techniques/t3.json"])
        expectDiagnostic(w, "studies/notes.txt", nil, nil, "unexpected file 'studies/notes.txt'; studies/ holds one <id>.json per study", severity: .warning)
        expectDiagnostic(w, "techniques/t3.json", nil, nil, "only Markdown documents (*.md) are read from techniques/", severity: .warning)
        expectDiagnostic(w, "datasets/orphan.csv", nil, nil, "is not used: no dataset descriptor names it in 'file'", severity: .warning)
        expectDiagnostic(w, "datasets/orphan-data.json", nil, nil, "holds an array but no dataset descriptor names it in 'file'", severity: .warning)
    }

    @Test("A missing site.json or folder is an error")
    func missing() throws {
        let folder = try TemporaryContent(["studies/s.json": Fixture.study])
        expectDiagnostic(folder.problems(), "site.json", nil, nil, "missing site.json")
        do {
            _ = try ContentLoader.load(from: folder.url.appendingPathComponent("nope"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("does not exist"))
        }
    }

    @Test("User devices start from a built-in profile")
    func devices() throws {
        let content = try Fixture.folder([
            "devices/old-phone.json": #"{"basedOn": "iphone-60hz", "name": "Old phone", "viewportWidth": 320, "viewportHeight": 568, "decodePerMegapixelMain": 12000, "backgroundCores": 2}"#,
            "studies/s.json": #"{"title": "S", "question": "Q?", "dataset": "users-1000", "strategies": ["wwdc21"], "devices": ["old-phone", "iphone-120hz"]}"#,
        ]).load()
        #expect(content.devices.map(\.id) == ["iphone-120hz", "iphone-60hz", "old-phone"])
        let old = try #require(content.device("old-phone"))
        #expect(old.name == "Old phone" && old.viewportWidth == 320 && old.decodePerMegapixelMain == 12_000 && old.backgroundCores == 2)
        #expect(old.viewCreate == DeviceProfile.iPhone60Hz.viewCreate && old.refreshRateHz == 60)
        #expect(content.studies[0].devices == ["old-phone", "iphone-120hz"])
    }

    @Test("All problems are reported in one error, in file order")
    func allProblemsInFileOrder() throws {
        let problems = try Fixture.problems([
            "studies/b.json": "{\"title\": \"S\",\n \"question\": \"Q?\", \"dataset\": \"users-1000\",\n \"strategies\": [\"nope\", \"wwdc21\", \"nah\"]}",
            "studies/a.json": "{\"title\": \"S\"",
            "strategies/s.json": "{\"name\": \"N\", \"summary\": \"S\", \"techniques\": [\"T5\"], \"colour\": 1}",
            "site.json": "{\"title\": \"T\"}",
            "devices/d.json": "[]",
        ])
        #expect(problems.map { "\($0.file):\($0.line ?? 0):\($0.column ?? 0)" } == [
            "devices/d.json:1:1", "site.json:1:1", "strategies/s.json:1:53", "studies/a.json:1:14", "studies/b.json:3:17", "studies/b.json:3:35",
        ])
        #expect(problems[0].message == "a device file must be a JSON object {…}, found an empty array")
        #expect(problems[1].message == "missing required key 'tagline' (a string)")
        #expect(problems[2].message.hasPrefix("unknown key 'colour'"))
        #expect(problems[3].message.hasPrefix("unexpected end of file; expected ',' or '}' after object member"))
        #expect(problems[4].message.hasPrefix("'strategies': unknown strategy 'nope'"))
        #expect(problems[5].message.hasPrefix("'strategies': unknown strategy 'nah'"))
        let error = ContentError(problems)
        #expect(error.description.split(separator: "\n").count == 6)
        #expect(error.description.hasPrefix("devices/d.json:1:1: error: a device file must be a JSON object"))
    }

    @Test("Row problems beyond the first ten are summarised in one line")
    func manyRowProblems() throws {
        let rows = (0..<25).map { #"{"name": \#($0 < 3 ? "\"ok\"" : "true")}"# }.joined(separator: ",\n")
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people-data.json", format: "json", fields: #"{"text": "name"}"#),
            "datasets/people-data.json": "[\n" + rows + "\n]",
        ])
        #expect(problems.count == 11)
        expectDiagnostic(problems, "datasets/people-data.json", 15, 10, "… and 12 more row problems in this file, from here on (only the first 10 are listed)")
    }
}

@Suite("Content/README.md")
struct ContentReadmeTests {
    @Test("Every JSON example in the format documentation is valid JSON")
    func examplesParse() throws {
        let url = ContentLoaderDefaultTests.contentURL.appendingPathComponent("README.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count >= 6)
        for block in blocks {
            let parsed = PositionedJSON.parse(SourceText(block))
            #expect(parsed.error == nil && parsed.duplicates.isEmpty, "\(parsed.error?.message ?? ""): \(block)")
        }
    }
}
