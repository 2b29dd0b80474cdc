import Formats

/// A MetricKit daily metric payload: the JSON of `MXMetricPayload.jsonRepresentation()`, or an
/// array of such payloads.
///
/// A payload has `timeStampBegin`, `timeStampEnd`, `appVersion`, `metaData` (`deviceType`,
/// `osVersion`, `appBuildVersion`, …) and, for an app whose users scrolled that day,
/// `animationMetrics.scrollHitchTimeRatio` (`MXAnimationMetric`, iOS 14+), written as a value
/// and a unit in one string: `"12.5 ms per s"`. That ratio aggregates every scroll of every
/// reporting device over the day, so each payload becomes one run marked as a field aggregate
/// that carries the hitch time ratio and nothing else. Payloads without animation metrics are
/// skipped; a unit other than "ms per s" is an error, not a guess.
///
/// Quirks seen in real payloads:
/// - The strings are formatted in the device's locale (seen from iOS 14.0.1 in a zh-CN payload:
///   `"1,456秒"`, `"1,106,818千字节"`): numbers group thousands with commas, and the units of other
///   metrics are translated. A comma between groups of three digits is read as grouping
///   (`"1,000 ms per s"` is 1000); any other comma is a decimal comma (`"12,5"`) and an error, since
///   dropping it would read ten times the ratio.
/// - Xcode's Debug > Simulate MetricKit Payloads writes a payload whose scroll hitch time ratio is
///   `"1000 ms per s"`, the ratio's upper bound; it is an example, not a measurement.
enum MetricKitImporter {
    static let validUnits = ["ms per s"]

    static func runs(_ root: JSONNode, text: SourceText, file: String, options: MeasuredImportOptions)
        throws(MeasuredImportFailure) -> [MeasuredRun]
    {
        var j = JSONImport(file: file, text: text)
        let payloads = root.elements ?? [root]
        var runs: [MeasuredRun] = []
        for (index, payload) in payloads.enumerated() {
            guard j.object(payload, "a MetricKit payload") != nil else { continue }
            guard let animation = payload.field("animationMetrics") else { continue }
            guard let ratioNode = j.required(animation, "scrollHitchTimeRatio", in: "\"animationMetrics\""),
                let text = j.string(
                    ratioNode, "\"scrollHitchTimeRatio\" (a value and a unit, such as \"3.5 ms per s\")")
            else { continue }
            guard let ratio = value(text, node: ratioNode, &j) else { continue }
            var m = MeasuredMetrics()
            m.hitchTimeRatio = ratio
            let meta = payload.field("metaData")
            let build = meta?.field("appBuildVersion")?.stringValue ?? payload.field("appVersion")?.stringValue
            let begin = payload.field("timeStampBegin")?.stringValue, end = payload.field("timeStampEnd")?.stringValue
            var label = build.map { "build \($0)" } ?? "payload \(index + 1)"
            if let begin, let end { label += ", \(begin) to \(end)" }
            let device = [meta?.field("deviceType")?.stringValue, meta?.field("osVersion")?.stringValue].compactMap {
                $0
            }.joined(separator: ", ")
            runs.append(
                MeasuredRun(
                    format: .metricKit, label: options.label(label), device: device.isEmpty ? nil : device,
                    refreshHz: nil, timing: .presentation, content: .aggregates(m), sourceFile: file,
                    isFieldAggregate: true))
        }
        try j.check()
        if runs.isEmpty {
            j.error(
                root,
                "no payload has \"animationMetrics\": {\"scrollHitchTimeRatio\": …}; MetricKit reports it only for days on which users scrolled"
            )
            try j.check()
        }
        return runs
    }

    /// The number of "12.5 ms per s", after checking the unit.
    private static func value(_ text: String, node: JSONNode, _ j: inout JSONImport) -> Double? {
        let trimmed = text.trimmingSpaces
        let numberEnd =
            trimmed.firstIndex { !("0"..."9").contains($0) && $0 != "." && $0 != "-" && $0 != "," } ?? trimmed.endIndex
        let written = String(trimmed[..<numberEnd])
        let unit = String(trimmed[numberEnd...]).trimmingSpaces
        // The payload's strings are formatted in the device's locale: commas may group thousands
        // ("1,456"), but a comma that is not followed by groups of three digits is a decimal comma
        // ("12,5" in a German or French locale), and dropping it would read 125.
        guard isGroupedOrPlain(written) else {
            j.error(
                node,
                "\"scrollHitchTimeRatio\" is \"\(text)\": the comma in \"\(written)\" does not group thousands (a decimal comma, as a device in a German or French locale writes); expected digits with an optional decimal point and commas only between groups of three digits, such as \"12.5 ms per s\" or \"1,000 ms per s\""
            )
            return nil
        }
        let number = written.filter { $0 != "," }
        guard let v = Double(number), v.isFinite, v >= 0 else {
            j.error(
                node,
                "\"scrollHitchTimeRatio\" is \"\(text)\"; expected a number of ms per s and its unit, such as \"3.5 ms per s\""
            )
            return nil
        }
        guard validUnits.contains(unit) else {
            j.error(
                node,
                "unknown unit \"\(unit)\" in \"scrollHitchTimeRatio\": \"\(text)\"; valid: "
                    + validUnits.map { "\"\($0)\"" }.joined(separator: ", "))
            return nil
        }
        return v
    }

    /// True for a number without commas, or with commas only between groups of three digits before
    /// the decimal point ("1,000", "12,345.5").
    static func isGroupedOrPlain(_ number: String) -> Bool {
        guard number.contains(",") else { return true }
        let whole = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.filter { $0 != "-" }.count) else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy { ("0"..."9").contains($0) } }
    }
}
