import Foundation
import MeasuredTimings
import Testing

@Suite("XCTest metrics from xcresulttool")
struct XCTestImporterTests {
    @Test("Each iteration of each scroll metric group is a run of XCTest's own aggregates")
    func iterations() throws {
        let runs = try Fixture.runs("xctest-metrics.json")
        // testScrollFeed: 3 iterations of the signpost metric; testGridHitches: 2 of XCTHitchMetric;
        // testLaunch has no hitch metric and gives none.
        #expect(
            runs.map(\.label) == [
                "FeedUITests/testScrollFeed() (Scroll_DecelerationAnimation) iteration 1/3",
                "FeedUITests/testScrollFeed() (Scroll_DecelerationAnimation) iteration 2/3",
                "FeedUITests/testScrollFeed() (Scroll_DecelerationAnimation) iteration 3/3",
                "FeedUITests/testGridHitches() iteration 1/2",
                "FeedUITests/testGridHitches() iteration 2/2",
            ])
        #expect(runs.allSatisfy { $0.frames == nil && $0.format == .xctestMetrics })
        #expect(runs[0].device == "iPhone 15, iOS 17.5")
        let m = runs[2].metrics
        #expect(m.hitchTimeRatio == 48.608)
        #expect(m.hitchCount == 5)
        #expect(m.hitchTimeMs == 58.33)
        #expect(m.frameRate == 55.8)
        #expect(m.framesPresented == 67)
        #expect(m.scrollDurationMs == 1_200)  // 1.2 s
        #expect(m.hitchBand == "critical")
        let grid = runs[4].metrics
        #expect(grid.hitchTimeRatio == 6.25)
        #expect(grid.hitchCount == 2)
        #expect(grid.framesPresented == nil, "XCTHitchMetric in this file gives no frame count: unknown, not 0")
    }

    @Test("An unknown unit is an error at its value, listing the valid units")
    func unknownUnit() {
        let broken = Fixture.text("xctest-metrics.json").replacingOccurrences(
            of: "\"unitOfMeasurement\" : \"ms per s\",\n            \"measurements\" : [ 13.336",
            with: "\"unitOfMeasurement\" : \"%\",\n            \"measurements\" : [ 13.336")
        let errors = Fixture.errors(broken, file: "metrics.json")
        // Line 40, column 35: the opening quote of the ratio's unit.
        #expect(
            errors == [
                "metrics.json:40:35: error: unknown unit \"%\" for \"Hitch Time Ratio (Scroll_DecelerationAnimation)\"; valid: \"ms per s\", \"ms/s\""
            ])
    }

    @Test("Iterations that disagree between metrics of one test run are an error; no run is returned")
    func iterationMismatch() {
        let broken = Fixture.text("xctest-metrics.json").replacingOccurrences(of: "[ 73, 90, 67 ]", with: "[ 73, 90 ]")
        let errors = Fixture.errors(broken, file: "metrics.json")
        // Line 53, column 30: the frame count's measurements array.
        #expect(
            errors == [
                "metrics.json:53:30: error: 2 measurements, but the hitch time ratio of the same test run has 3; every metric has one per iteration"
            ])
    }

    @Test("A syntax error: line and column")
    func syntax() {
        let broken = Fixture.text("xctest-metrics.json").replacingOccurrences(
            of: "\"measurements\" : [ 1.25, 1.5, 1.2 ]", with: "\"measurements\" : [ 1.25, 1.5, 1.2, ]")
        let errors = Fixture.errors(broken, file: "metrics.json")
        // Line 23, column 46: the trailing comma itself, as Formats' reader reports it.
        #expect(
            errors == [
                "metrics.json:23:46: error: trailing comma after the last array element is not allowed in JSON (RFC 8259); remove the ','"
            ])
    }
}

@Suite("MetricKit payloads")
struct MetricKitImporterTests {
    @Test("scrollHitchTimeRatio with its unit, as a field aggregate; a day without animation metrics gives no run")
    func payloads() throws {
        let runs = try Fixture.runs("metrickit-payloads.json", MeasuredImportOptions(label: "Feed"))
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.isFieldAggregate)
        #expect(run.label == "Feed — build 4201, 2026-11-20 00:00:00 to 2026-11-20 23:59:00")
        #expect(run.device == "iPhone15,4, iPhone OS 18.1 (22B83)")
        #expect(run.metrics.hitchTimeRatio == 7.5)
        #expect(run.metrics.known.map(\.name) == ["hitchTimeRatio", "hitchBand", "organizerBand"])
        #expect(run.metrics.hitchBand == "warning")
    }

    @Test("A single payload object is read too")
    func single() throws {
        let text = Fixture.text("metrickit-payloads.json")
        let first =
            String(
                text[
                    text.index(
                        after: text.firstIndex(of: "[")!)..<text.range(of: "},\n  {\n    \"appVersion\"")!.lowerBound])
            + "}"
        let runs = try MeasuredImport.runs(Array(first.utf8), file: "day.json")
        #expect(runs.count == 1 && runs[0].metrics.hitchTimeRatio == 7.5)
    }

    @Test("Thousands grouped with commas")
    func grouped() throws {
        let text = Fixture.text("metrickit-payloads.json").replacingOccurrences(
            of: "\"7.5 ms per s\"", with: "\"1,000 ms per s\"")
        let runs = try MeasuredImport.runs(Array(text.utf8), file: "payloads.json")
        #expect(runs.first?.metrics.hitchTimeRatio == 1_000)
        #expect(runs.first?.metrics.organizerBand == "immediate-attention")
    }

    @Test("An unknown unit is an error at the value")
    func unknownUnit() {
        let broken = Fixture.text("metrickit-payloads.json").replacingOccurrences(
            of: "\"7.5 ms per s\"", with: "\"7.5 s per hour\"")
        // Line 19, column 32: the opening quote of the value.
        #expect(
            Fixture.errors(broken, file: "payload.json") == [
                "payload.json:19:32: error: unknown unit \"s per hour\" in \"scrollHitchTimeRatio\": \"7.5 s per hour\"; valid: \"ms per s\""
            ])
    }
}

@Suite("Macrobenchmark benchmarkData.json")
struct MacrobenchmarkImporterTests {
    @Test(
        "frameOverrunMs and frameDurationCpuMs per-frame runs: one run per iteration; benchmarks without them skipped")
    func iterations() throws {
        let runs = try Fixture.runs("macrobenchmark-benchmarkData.json", MeasuredImportOptions(refreshHz: 60))
        #expect(
            runs.map(\.label) == [
                "ScrollBenchmark.scrollFeed iteration 1/2", "ScrollBenchmark.scrollFeed iteration 2/2",
            ])
        #expect(runs[0].device == "Pixel 7 (API 34)")
        #expect(runs[0].timing == .completion)
        let frames = try #require(runs[0].frames)
        #expect(frames.count == 6)
        #expect(frames[2].overrun == 4_000 && frames[2].cpuDuration == 21_000)
        #expect(frames[0].begin == nil, "Macrobenchmark keeps no timestamps")
        let m = runs[0].metrics
        // Overruns [-11.2, -10.1, 4.0, -9.9, -10.8, -8.5]: one frame late by 4 ms → one 16.667 ms vsync at 60 Hz.
        #expect(m.hitchCount == 1)
        #expect(close(m.hitchTimeMs, 16.667))
        #expect(m.droppedFrames == 1)
        #expect(m.hitchTimeRatio == nil, "no timestamps, no measured interval")
        #expect(m.frameDurationP50Ms == nil)
        // Sorted overruns: -11.2, -10.8, -10.1, -9.9, -8.5, 4.0: p50 rank 3 = -10.1; p90 rank 6 = 4.0.
        #expect(close(m.frameOverrunP50Ms, -10.1))
        #expect(close(m.frameOverrunP90Ms, 4.0))
        // Sorted CPU times: 5.1, 5.5, 6.0, 6.2, 7.3, 21.0: p50 rank 3 = 6.0; p95 rank 6 = 21.0.
        #expect(close(m.frameCPUDurationP50Ms, 6.0))
        #expect(close(m.frameCPUDurationP95Ms, 21.0))
        // Iteration 2: 17.5 ms late → ceil(17.5 / 16.667) = 2 vsyncs.
        #expect(close(runs[1].metrics.hitchTimeMs, 33.334))
    }

    @Test("Without the refresh rate: hitch count from the overruns, but no hitch time")
    func noRefresh() throws {
        let m = try #require(Fixture.runs("macrobenchmark-benchmarkData.json").first).metrics
        #expect(m.hitchCount == 1)
        #expect(m.hitchTimeMs == nil)
    }

    @Test("A per-frame value that is not a number, and iterations of different lengths")
    func malformed() {
        let text = Fixture.text("macrobenchmark-benchmarkData.json")
        let notNumber = text.replacingOccurrences(
            of: "[-11.5, -11.3, -11.0, 17.5, -11.4]", with: "[-11.5, -11.3, \"-11.0\", 17.5, -11.4]")
        // Line 71: iteration 2's overruns; column 40 the string, column 25 the array.
        #expect(
            Fixture.errors(notNumber, file: "data.json") == [
                "data.json:71:40: error: frameOverrunMs values must be numbers of milliseconds, found the string \"-11.0\""
            ])
        let short = text.replacingOccurrences(
            of: "[-11.5, -11.3, -11.0, 17.5, -11.4]", with: "[-11.5, -11.3, -11.0, 17.5]")
        #expect(
            Fixture.errors(short, file: "data.json") == [
                "data.json:71:25: error: iteration 2 has 4 frameOverrunMs values but 5 frameDurationCpuMs values; both list the same frames"
            ])
    }
}

@Suite("Format recognition")
struct SnifferTests {
    @Test("Each fixture is recognised from its content")
    func recognise() throws {
        let expected: [(String, MeasuredFormat)] = [
            ("instruments-hitches-lifetimes.xml", .instrumentsHitches),
            ("instruments-hitches-only.xml", .instrumentsHitches),
            ("xctest-metrics.json", .xctestMetrics), ("metrickit-payloads.json", .metricKit),
            ("gfxinfo-android12.txt", .gfxinfoFramestats), ("gfxinfo-legacy.txt", .gfxinfoFramestats),
            ("macrobenchmark-benchmarkData.json", .macrobenchmark),
            ("flutter-devtools-performance.json", .flutterDevTools),
            ("gfxinfo-android12-swapped-120hz.txt", .gfxinfoFramestats),
            ("gfxinfo-multiprocess.txt", .gfxinfoFramestats),
        ]
        for (name, format) in expected {
            #expect(try MeasuredImport.format(of: Fixture.bytes(name), file: name) == format, "\(name)")
        }
    }

    @Test("Content of no known format: an error that lists the formats")
    func unknown() {
        let errors = Fixture.errors("{\"frames\": []}", file: "other.json")
        #expect(errors.count == 1)
        let e = errors.first ?? ""
        #expect(
            e.hasPrefix(
                "other.json:1:1: error: a JSON object with none of \"benchmarks\" (Macrobenchmark), \"metaData\"/\"animationMetrics\" (MetricKit) or \"devToolsSnapshot\" (Flutter DevTools); the measured formats read are: instruments-hitches"
            ), "\(e)")
        for format in MeasuredFormat.allCases { #expect(e.contains(format.rawValue)) }
        #expect(
            Fixture.errors("frame,ms\n1,16.7\n", file: "frames.csv").first?.hasPrefix(
                "frames.csv:1:1: error: the content is none of them; the measured formats read are:") == true)
        #expect(
            Fixture.errors("<plist></plist>", file: "x.plist").first?.hasPrefix(
                "x.plist:1:1: error: an XML file without <trace-query-result>") == true)
    }
}

@Suite("Located JSON through Formats")
struct LocatedJSONTests {
    @Test("A malformed file: Formats' message at the line and column in characters, nothing imported")
    func malformed() {
        // Line 3: two spaces, "\"Größe\": 1," is 13 characters (ß and ö one each), then a missing comma.
        let text = "{\n  \"benchmarks\": [],\n  \"Größe\": 1 \"context\": {}\n}\n"
        #expect(
            Fixture.errors(text, file: "bench.json") == [
                "bench.json:3:14: error: expected ',' or '}' after object member, found '\"'"
            ])
    }

    @Test("A key repeated in an object is an error at the second key, naming the first")
    func duplicateKey() {
        let text = "{\"benchmarks\": [],\n \"benchmarks\": []}"
        #expect(
            Fixture.errors(text, file: "bench.json") == [
                "bench.json:2:2: error: duplicate key \"benchmarks\" (first at line 1, column 2); a key may appear only once in an object"
            ])
    }

    @Test("A byte that is not UTF-8: its line and column")
    func notUTF8() throws {
        var bytes = Array("{\n  \"benchmarks\": [\"".utf8)
        bytes.append(0xFF)
        bytes += Array("\"]}".utf8)
        do {
            _ = try MeasuredImport.runs(bytes, file: "bench.json")
            Issue.record("a file with a byte that is not UTF-8 imported")
        } catch {
            #expect(
                error.description
                    == "bench.json:2:19: error: the byte 0xFF is not UTF-8; measured files are read as UTF-8, or as UTF-16 when they start with a byte-order mark (as Windows PowerShell writes them); save the file in one of these"
            )
        }
    }

    @Test("Columns count characters: 👍🏽 (two scalars) is one column")
    func characterColumns() {
        let text = "{\"é👍🏽\": 1, \"animationMetrics\": {\"scrollHitchTimeRatio\": \"1 parsec\"}}"
        #expect(
            Fixture.errors(text, file: "day.json") == [
                "day.json:1:56: error: unknown unit \"parsec\" in \"scrollHitchTimeRatio\": \"1 parsec\"; valid: \"ms per s\""
            ])
    }
}
