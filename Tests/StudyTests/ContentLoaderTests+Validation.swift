import ScrollSimulation
import Study
import TestSupport
import Testing

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
        expectDiagnostic(
            problems, "studies/s.json", 5, 34,
            "'strategies': unknown strategy 'wwdc2l'; did you mean 'wwdc21'? Valid strategy names: wwdc21,")
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
        expectDiagnostic(
            problems, "studies/s.json", 2, 3, "unknown key 'titel'; did you mean 'title'? Valid keys: title,")
        expectDiagnostic(problems, "studies/s.json", 4, 14, "unknown dataset 'users-100'; did you mean 'users-1000'?")
        expectDiagnostic(problems, "studies/s.json", 5, 15, "unknown device 'iphone-60'; did you mean 'iphone-60hz'?")
        expectDiagnostic(problems, "studies/s.json", 6, 16, "unknown gesture 'flinng'; did you mean 'fling'?")
        expectDiagnostic(
            problems, "studies/s.json", 6, 26, "inline gesture \"drag:fast:2\": expected velocity (pt/s) as a number")
        expectDiagnostic(
            problems, "studies/s.json", 8, 16, "'isolates' has \"T24\", which is not a technique; valid: T1 to T23")
        expectDiagnostic(
            problems, "strategies/mine.json", 3, 14, "'basedOn': unknown strategy 'wwdc-21'; did you mean 'wwdc21'?")
        expectDiagnostic(
            problems, "strategies/mine.json", 4, 18,
            "unknown key 'prefetchDistanse' in 'parameters'; did you mean 'prefetchDistance'?")
        expectDiagnostic(
            problems, "strategies/mine.json", 4, 56, "'parameters.cachePolicy': unknown cache policy 'lru'",
            "Valid cache policy names: lru-count")
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
        let problems = try Fixture.problems([
            "studies/s.json": study, "studies/t.json": study2,
            "datasets/d.json": #"{"builtin": "users-1000", "presentation": {"imageSide": "big"}}"#,
        ])
        expectDiagnostic(problems, "studies/s.json", 2, 12, "'title' must be a string, found the number 5")
        expectDiagnostic(
            problems, "studies/s.json", 5, 18, "'latenciesMs' must be an array of numbers, found the string \"100\"")
        expectDiagnostic(problems, "studies/s.json", 6, 16, "'seeds' must be an array of integers ≥ 0, found 2.5")
        expectDiagnostic(problems, "studies/s.json", 7, 12, "'order' must be an integer, found the string \"first\"")
        expectDiagnostic(
            problems, "studies/s.json", 8, 17,
            "'strategies' must be an array of strategy ids, found the string \"wwdc21\"")
        expectDiagnostic(
            problems, "studies/t.json", 1, 106, "'latenciesMs' must be an array of numbers, found the string \"1000\"")
        expectDiagnostic(
            problems, "datasets/d.json", 1, 57, "'presentation.imageSide' must be a number, found the string \"big\"")
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
        let problems = try Fixture.problems([
            "studies/s.json": study, "devices/slow.json": device, "strategies/mine.json": strategy,
            "site.json": #"{"title": "T", "tagline": "G", "defaultLatenciesMs": [1e400]}"#,
        ])
        expectDiagnostic(
            problems, "studies/s.json", 2, 18, "'latenciesMs' value -5 is out of range; valid: 0 to 60000 ms")
        expectDiagnostic(
            problems, "studies/s.json", 2, 22, "'latenciesMs' value 1e9 is out of range; valid: 0 to 60000 ms")
        expectDiagnostic(
            problems, "studies/s.json", 2, 38, "'seeds' value -1 is out of range; valid: 0 to 9007199254740991")
        expectDiagnostic(
            problems, "studies/s.json", 2, 52, "'order' value 1e20 is out of range; valid: -1000000 to 1000000")
        expectDiagnostic(
            problems, "devices/slow.json", 1, 45, "'viewportWidth' value -390 is out of range; valid: 100 to 5000 pt")
        expectDiagnostic(
            problems, "devices/slow.json", 1, 64, "'frameBase' value 1e30 is out of range; valid: 0 to 10000000 µs")
        expectDiagnostic(problems, "devices/slow.json", 1, 87, "'refreshRateHz' must be 60 or 120, found 90")
        expectDiagnostic(problems, "devices/slow.json", 1, 110, "'backgroundCores' must be an integer, found 0.5")
        expectDiagnostic(
            problems, "strategies/mine.json", 1, 86,
            "'parameters.cacheCountLimit' value 0 is out of range; valid: 1 to 1000000 entries")
        expectDiagnostic(
            problems, "strategies/mine.json", 1, 109,
            "'parameters.prefetchDistance' value 1e300 is out of range; valid: 1 to 1000 rows")
        expectDiagnostic(
            problems, "strategies/mine.json", 1, 128,
            "'parameters.pageSize' value -25 is out of range; valid: 1 to 100000 rows")
        expectDiagnostic(problems, "site.json", 1, 55, "the number 1e400 is too large")
    }

    @Test("Strategy problems are reported at the techniques; presets and built-in devices cannot be redefined")
    func strategyProblems() throws {
        let problems = try Fixture.problems([
            "strategies/no-delivery.json": "{\"name\": \"N\", \"summary\": \"S\",\n \"techniques\": [\"T6\", \"T8\"]}",
            "strategies/both-sizings.json":
                #"{"name": "N", "summary": "S", "basedOn": "digitalleaves", "add": ["T19"], "remove": ["T9"]}"#,
            "strategies/wwdc21.json": #"{"name": "N", "summary": "S", "techniques": ["T5", "T8"]}"#,
            "devices/iphone-60hz.json": #"{"basedOn": "iphone-60hz"}"#,
            "strategies/many.json":
                #"{"name": "N", "summary": "S", "techniques": ["T1", "T3"], "parameters": {"pageSize": 0}}"#,
        ])
        expectDiagnostic(
            problems, "strategies/many.json", 1, 45, "combines data-delivery techniques T1 and T3; use exactly one of")
        expectDiagnostic(problems, "strategies/many.json", 1, 86, "'parameters.pageSize' value 0 is out of range")
        expectDiagnostic(
            problems, "strategies/no-delivery.json", 2, 16,
            "strategy 'no-delivery' has no data-delivery technique; use exactly one of T1, T2, T3, T4, T5, T9, T10")
        expectDiagnostic(
            problems, "strategies/both-sizings.json", 1, 66,
            "uses both T18 (self-sizing with an estimate) and T19 (precomputed heights); pick one")
        expectDiagnostic(
            problems, "strategies/both-sizings.json", 1, 86, "'remove' lists T9, which the strategy does not use",
            severity: .warning)
        expectDiagnostic(
            problems, "strategies/wwdc21.json", nil, nil, "strategy id 'wwdc21' is a built-in preset's; rename the file"
        )
        expectDiagnostic(
            problems, "devices/iphone-60hz.json", nil, nil,
            "device id 'iphone-60hz' is a built-in device's or a catalog phone's; rename the file")
    }

    @Test("A sweep needs three latencies; a study may have at most 12 strategies and any number of runs")
    func studyLimits() throws {
        let twelve = (Strategy.presets.map { "\"\($0.id)\"" }).joined(separator: ", ")
        let problems = try Fixture.problems([
            "studies/sweep.json":
                #"{"title": "S", "question": "Q?", "kind": "sweep", "dataset": "glitchy-300", "strategies": ["glitchy-sync"], "latenciesMs": [100, 1000]}"#,
            "studies/big.json":
                #"{"title": "S", "question": "Q?", "dataset": "glitchy-300", "strategies": [\#(twelve)], "latenciesMs": [0, 1, 2, 3, 4, 5], "devices": ["iphone-60hz", "iphone-120hz"], "gestures": ["fling", "gentle"]}"#,
            "studies/none.json": #"{"title": "S", "question": "Q?", "dataset": "glitchy-300", "strategies": []}"#,
        ])
        expectDiagnostic(
            problems, "studies/sweep.json", 1, 124,
            "a sweep needs at least 3 latency settings in 'latenciesMs'; this one has 2")
        // 288 runs: once over a limit of 200 per study; now only a whole build over 20 000 runs stops (BuildCostTests).
        #expect(
            !problems.contains { $0.file == "studies/big.json" }, "\(problems.filter { $0.file == "studies/big.json" })"
        )
        expectDiagnostic(
            problems, "studies/none.json", 1, 74, "'strategies' has 0 entries; a study compares 1 to 12 strategies")
    }
}

@Suite("validation.json: cells, sets, pairs and iOS versions")
struct ValidationCaseFormTests {
    static func validationCase(
        _ id: String, metric: String = "layout-cost", unit: String = "ms", simulation: String, extra: String = ""
    ) -> String {
        """
        {"id": "\(id)", "metric": "\(metric)", "quantity": "Q", "published": 1, "unit": "\(unit)", "device": "D", "conditions": "C",
         "source": {"title": "T", "url": "https://example.org"}, "assumptions": "A", "simulation": \(simulation)\(extra)}
        """
    }

    @Test("A case's set, its pair and its iOS version are checked where they are written")
    func located() throws {
        let cell = #"{"device": "iphone-6s", "cell": {"labels": 2}, "work": ["measure"]}"#
        let validation =
            "{\"cases\": [\n"
            + [
                Self.validationCase("a", simulation: cell, extra: #", "set": "test""#),
                Self.validationCase("b", simulation: cell, extra: #", "set": "train""#),
                Self.validationCase(
                    "c", metric: "hitch-time-ratio", unit: "ms/s",
                    simulation:
                        #"{"device": "iphone-60hz", "dataset": "glitchy-100", "strategy": "glitchy-sync", "gesture": "fling", "latencyMs": 100, "figure": "hitchTimeRatio"}"#,
                    extra: #", "set": "test", "after": "a""#),
                Self.validationCase(
                    "d",
                    simulation: #"{"device": "iphone-60hz", "cell": {"labels": 2}, "work": ["measure"], "ios": 11}"#,
                    extra: #", "set": "test""#),
                Self.validationCase(
                    "e",
                    simulation: #"{"device": "iphone-6s", "cell": {"labels": 2, "lables": 3}, "work": ["mesure"]}"#,
                    extra: #", "set": "fit""#),
                Self.validationCase("f", simulation: cell, extra: #", "set": "test", "after": "zz""#),
            ].joined(separator: ",\n") + "\n]}"
        let problems = try Fixture.problems(["validation.json": validation])
        #expect(
            problems.contains {
                $0.file == "validation.json" && $0.message.contains("'train'") && $0.message.contains("fit")
            }, "\(problems)")
        #expect(
            problems.contains { $0.message.contains("'a' is a layout-cost case and this one hitch-time-ratio") },
            "\(problems)")
        #expect(problems.contains { $0.message.contains("device 'iphone-60hz' is not a catalog phone") }, "\(problems)")
        #expect(problems.contains { $0.message.contains("unknown key 'lables'") }, "\(problems)")
        #expect(problems.contains { $0.message.contains("'mesure'") && $0.message.contains("measure") }, "\(problems)")
        #expect(problems.contains { $0.message.contains("no case has the id 'zz'") }, "\(problems)")
        #expect(problems.allSatisfy { $0.line != nil }, "every problem located: \(problems)")
    }
}

@Suite("validation.json: a run case's cell")
struct ValidationRunCellTests {
    @Test("A run case that names the source's cell runs with that anatomy; one that does not keeps the dataset's cell")
    func runCell() throws {
        let run =
            #""device": "iphone-se", "dataset": "synthetic:300", "strategy": "digitalleaves", "gesture": "fling", "latencyMs": 0, "figure": "hitchTimeRatio""#
        let validation =
            "{\"cases\": [\n"
            + [
                ValidationCaseFormTests.validationCase(
                    "own", metric: "hitch-time-ratio", unit: "ms/s",
                    simulation:
                        "{\(run), \"cell\": {\"labels\": 2, \"multilineLabels\": 1, \"views\": 8, \"constraints\": 40, \"attributedLabels\": 1}}",
                    extra: #", "set": "test""#),
                ValidationCaseFormTests.validationCase(
                    "plain", metric: "hitch-time-ratio", unit: "ms/s", simulation: "{\(run)}",
                    extra: #", "set": "test""#),
            ].joined(separator: ",\n") + "\n]}"
        let content = try Fixture.folder(["validation.json": validation]).load()
        let runs = AccuracyPlan.runs(content)
        let own = try #require(runs.first { $0.id.contains("--own--") }),
            plain = try #require(runs.first { $0.id.contains("--plain--") })
        let anatomy = own.config.effectivePresentation.cellDesign.anatomy
        #expect(
            anatomy.labels == 2 && anatomy.multilineLabels == 1 && anatomy.views == 8 && anatomy.constraints == 40
                && anatomy.attributedLabels == 1)
        #expect(plain.config.effectivePresentation.cellDesign == plain.config.dataset.presentation.cellDesign)
        #expect(own.config.dataset.presentation.cellDesign != own.config.effectivePresentation.cellDesign)
    }
}
