import Foundation
import ScrollSimulation
import Study
import TestSupport
import Testing

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
            ("glitchy-table", 6), ("capital-one", 8), ("capital-one-techniques", 32), ("digital-leaves-table", 6),
            ("digital-leaves-grid", 2),
            ("wwdc21", 8), ("rendering", 8), ("wwdc21-grid-techniques", 32), ("latency-sweep", 30),
            ("image-decoding", 3), ("older-phone", 4), ("insertions", 3), ("cache-revisits", 3),
            ("self-sizing", 3), ("prefetching", 10), ("user-datasets", 2), ("team-list", 3), ("grid-sizing", 2),
        ]
        #expect(content.studies.map(\.id) == expected.map(\.0))
        // Every study runs the site's default 5 seeds: 165 configurations, 825 runs (the latency
        // sweep's sixth strategy, reconfigure by id without its store, adds 5 latencies × 5 seeds;
        // the two technique searches add 16 combinations × 2 latencies and 32 × 1, 320 runs; the
        // older phone's study runs the reference phone beside it on the same photos). A build adds
        // more seeds where these cannot decide (`MoreSeeds`); the plan does not.
        #expect(content.studies.allSatisfy { $0.seeds == [1, 2, 3, 4, 5] && $0.jitter == 0.5 })
        #expect(content.studies.map(Self.runs) == expected.map { $0.1 * 5 })
        #expect(content.studies.map(Self.runs).reduce(0, +) == 825)
        #expect(
            content.datasets.map(\.id) == [
                "camera-roll", "catalog", "feed", "glitchy-300", "photos-19", "team", "users-1000",
            ])
        #expect(content.devices.map(\.id) == ["iphone-120hz", "iphone-60hz", "older-iphone"])
        let older = try #require(content.devices.first { $0.id == "older-iphone" })
        // The catalog's iPhone 8, renamed: what the file leaves out comes from its base.
        var eight = DeviceProfile.phone(PhoneCatalog.phone("iphone-8")!)
        eight.id = older.id
        eight.name = older.name
        #expect(older == eight && older.screenScale == 2 && older.backgroundCores == 4 && older.refreshRateHz == 60)
        // 31 strategy files (wwdc21-bare the latest) and the searches' 15 + 31 combinations beyond their bases.
        #expect(content.strategies.count == Strategy.presets.count + 31 + 15 + 31)
        #expect(content.strategies.map(\.id) == content.strategies.map(\.id).sorted())

        let sweep = try #require(content.studies.first { $0.id == "latency-sweep" })
        #expect(sweep.kind == .sweep)
        #expect(sweep.latenciesMs == [0, 100, 200, 500, 1_000])
        let grid = try #require(content.studies.first { $0.id == "digital-leaves-grid" })
        #expect(
            grid.presentation
                == Presentation(
                    layout: .grid(GridSpec(columns: .evenWithOuterSpacing(3), spacing: 10, aspect: 1)),
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
        #expect(
            lru.techniques == [.t6, .t7, .t8, .t10, .t11] && lru.parameters.cacheCountLimit == 500
                && lru.parameters.cachePolicy == .lruCount)
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
                        let config = RunConfig(
                            dataset: dataset, strategy: strategy, device: device, gesture: study.gestures[0],
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
            guard case let .rows(rows) = dataset.items else {
                Issue.record("\(id) has no rows")
                return []
            }
            return rows
        }
        let team = try rows("team")
        #expect(team.count == 40)
        #expect(
            team[0]
                == DatasetRow(
                    id: "m01", text: "Ada Okafor", detail: "iOS engineer", imageURL: "avatars/1.jpg", imageWidth: 128,
                    imageHeight: 128))
        #expect(content.dataset("team")?.requiresInitialFetch == true)

        let feed = try rows("feed")
        #expect(feed.count == 60)
        #expect(feed[0].id == "1000", "a number in a text field becomes its text")
        #expect(feed[7].text == "Lanterns at the night market 🏮 — \"one more photo\" became forty.")
        #expect(feed.allSatisfy { $0.imageWidth == 1_024 && $0.imageHeight == 768 })
        #expect(
            content.dataset("feed")?.presentation.layout
                == .grid(
                    GridSpec(columns: .widthThreshold(narrow: 1, wide: 3, threshold: 500), spacing: 20, aspect: 0.8)))

        let catalog = try rows("catalog")
        #expect(catalog.count == 80)
        #expect(catalog[0].id == "CAT-001")
        #expect(catalog[0].text == "Classic desk lamp, grey")
        #expect(catalog[0].detail == "The \"Classic\" edition: brass arm, warm light\nShips in recycled packaging.")
        #expect(catalog[0].imageWidth == 800 && catalog[1].imageWidth == 600)
        #expect(
            content.dataset("catalog")?.presentation.layout
                == .grid(GridSpec(columns: .sizeClass, spacing: 1, aspect: nil, fixedItemHeight: 90)))
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
    @Test(
        "JSON syntax errors in any file are reported at their position",
        arguments: [
            (
                "{\n  \"title\": \"A\",\n  \"tagline\": \"B\"", 3, 17,
                "unexpected end of file; expected ',' or '}' after object member"
            ),
            (
                "{\n  \"title\": \"A\",\n  \"tagline\": \"B\",\n}", 3, 17,
                "trailing comma after the last object member is not allowed in JSON (RFC 8259); remove the ','"
            ),
            (
                "{\n  \"title\" \"A\",\n  \"tagline\": \"B\"\n}", 2, 11,
                "expected ':' after object key \"title\", found '\"'"
            ),
            (#"{"title": "C:\path", "tagline": "B"}"#, 1, 14, #"invalid escape '\p'"#),
            (
                "{\n  \"title\": \"A\",\n  \"title\": \"B\",\n  \"tagline\": \"C\"\n}", 3, 3,
                "duplicate key \"title\" (first at line 2, column 3)"
            ),
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
        expectDiagnostic(
            folder.problems(), "studies/t.json", 2, 3, "the file is not valid UTF-8 (byte 0xFF at offset 4)")
    }

    static let peopleFields = #"{"id": "id", "text": "name"}"#

    @Test("CSV: an unclosed quote and rows with the wrong number of fields, located in the data file")
    func csvErrors() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(file: "people.csv", format: "csv", fields: Self.peopleFields),
            "datasets/people.csv": "id,name\n1,Ann\n2,Bob,extra\n3,\"Cy\n4,Di\n",
        ])
        expectDiagnostic(problems, "datasets/people.csv", 3, 1, "this row has 3 fields but the header has 2 (id, name)")
        expectDiagnostic(
            problems, "datasets/people.csv", 4, 3, "unclosed quote: the quoted field that starts at line 4, column 3")
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
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json-strings", fields: Self.peopleFields),
            "datasets/people-data.json": data,
        ])
        expectDiagnostic(
            problems, "datasets/people-data.json", 3, 3,
            "the element at index 1 must be a string holding a JSON-encoded object (format \"json-strings\"), found the number 5"
        )
        expectDiagnostic(
            problems, "datasets/people-data.json", 4, 3,
            "the string at index 2 is not valid JSON: unexpected '}'; expected a value",
            "(at character 8 of the decoded string)")
        expectDiagnostic(
            problems, "datasets/people-data.json", 5, 3, "the string at index 3 must hold a JSON object, found an array"
        )
        expectDiagnostic(
            problems, "datasets/people-data.json", 6, 3, "the element at index 4 must be a string",
            "found an object; for an array of objects use \"format\": \"json\"")
        #expect(problems.count == 4, "\(problems)")
    }

    @Test("json: elements must be objects; the hint names the json-strings format; a shared data file is reported once")
    func jsonArrayOfStrings() throws {
        let problems = try Fixture.problems([
            "datasets/people.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: Self.peopleFields),
            "datasets/people-again.json": Fixture.descriptor(
                file: "people-data.json", format: "json", fields: Self.peopleFields),
            "datasets/people-data.json": #"["{\"id\": \"a\", \"name\": \"Ann\"}"]"#,
        ])
        expectDiagnostic(
            problems, "datasets/people-data.json", 1, 2, "the element at index 0 must be an object, found the string",
            "use \"format\": \"json-strings\"")
        #expect(problems.count == 1, "no 'has no rows' on top, and not twice: \(problems)")
    }
}
