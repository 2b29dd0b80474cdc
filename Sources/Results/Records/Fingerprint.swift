import Formats
import Foundation
import ScrollSimulation

/// A stable hash of everything a run depends on, to key stored results: two runs with the same
/// fingerprint give the same result, and any change to an input — a strategy's parameter, a
/// dataset's row, a device constant, the gesture, the latency, the seed or the model version —
/// gives another fingerprint.
///
/// The inputs are written as canonical text by walking the whole `RunConfig` (every stored
/// property, recursively, with the names of types, fields and enum cases; sets and dictionaries
/// in sorted order), so a field added to the configuration later is covered without a list to
/// keep. The text is hashed with 64-bit FNV-1a and printed as 16 hex digits.
package enum Fingerprint {
    /// The fingerprint of a run configuration under the current model version.
    ///
    /// `datasetDigest`, when given, must be `digest(of: config.dataset)`: runs that share a
    /// dataset (every run of a study) can compute its digest once instead of walking its rows
    /// for every run. The result is the same either way.
    package static func of(
        _ config: RunConfig, datasetDigest: String? = nil, modelVersion: Int = SimulationModel.version
    ) -> String {
        hex(fnv1a64(canonicalText(config, datasetDigest: datasetDigest, modelVersion: modelVersion)))
    }

    /// A dataset's own digest: the hash of its canonical text.
    package static func digest(of dataset: Dataset) -> String {
        var sink = HashingSink()
        describe(dataset, into: &sink, depth: 0)
        return hex(sink.finish())
    }

    /// The text that is hashed: the model version, then the configuration, with the dataset
    /// written as its digest.
    package static func canonicalText(
        _ config: RunConfig, datasetDigest: String? = nil, modelVersion: Int = SimulationModel.version
    ) -> String {
        var out = "scrollstudy-run model=\(modelVersion)\n\(type(of: config)){"
        for (i, child) in Mirror(reflecting: config).children.enumerated() {
            if i > 0 { out += "," }
            out += (child.label ?? "?") + ":"
            if child.label == "dataset" {
                out += "digest(" + (datasetDigest ?? digest(of: config.dataset)) + ")"
            } else {
                describe(child.value, into: &out, depth: 1)
            }
        }
        return out + "}"
    }

    /// The fingerprint of a run's surroundings: every input except the strategy and the seed
    /// (dataset, device, gesture, latency, latency distribution, presentation, observation time),
    /// plus the model version. Two runs with equal context digests differ only in what a study
    /// compares (the strategy) and in seed noise, so their metrics may be compared; runs with
    /// different context digests are "not comparable".
    package static func context(
        of config: RunConfig, datasetDigest: String? = nil, modelVersion: Int = SimulationModel.version
    ) -> String {
        var out = "scrollstudy-context model=\(modelVersion)\n"
        for child in Mirror(reflecting: config).children {
            guard let label = child.label, label != "strategy", label != "seed", label != "recordSeries" else {
                continue
            }
            out += label + ":"
            if label == "dataset" {
                out += "digest(" + (datasetDigest ?? digest(of: config.dataset)) + ")"
            } else {
                describe(child.value, into: &out, depth: 1)
            }
            out += ";"
        }
        return hex(fnv1a64(out))
    }

    /// `of(config)` and `context(of: config)` together, walking each part of the configuration once
    /// (the same texts, so the same digests, as the two calls).
    package static func ofAndContext(
        _ config: RunConfig, datasetDigest: String? = nil, modelVersion: Int = SimulationModel.version
    ) -> (fingerprint: String, context: String) {
        ofAndContext(config, seeds: [config.seed], datasetDigest: datasetDigest, modelVersion: modelVersion)[0]
    }

    /// `ofAndContext` of `config` with each of `seeds` as its seed, walking every other part of the
    /// configuration once: the seeds of one planned configuration differ in nothing else. The same
    /// digests, in the same order, as `ofAndContext` of each seeded configuration.
    /// `parts`, when given, holds the canonical texts of the strategies and devices already met
    /// (`PartTexts`): a build whose configurations share a few strategies and devices walks each once.
    package static func ofAndContext(
        _ config: RunConfig, seeds: [UInt64], datasetDigest: String? = nil,
        modelVersion: Int = SimulationModel.version, parts memo: PartTexts? = nil
    ) -> [(fingerprint: String, context: String)] {
        var parts: [(label: String, text: String)] = []
        var seedAt: Int? = nil
        var context = "scrollstudy-context model=\(modelVersion)\n"
        for (i, child) in Mirror(reflecting: config).children.enumerated() {
            var part = ""
            if child.label == "dataset" {
                part = "digest(" + (datasetDigest ?? digest(of: config.dataset)) + ")"
            } else if child.label == "seed" {
                seedAt = i
            } else if let memo, child.label == "strategy" {
                part = memo.strategies.text(config.strategy, name: config.strategy.id)
            } else if let memo, child.label == "device" {
                part = memo.devices.text(config.device, name: config.device.id)
            } else if let memo, child.label == "gesture" {
                part = memo.gestures.text(config.gesture, name: config.gesture.id)
            } else if let memo, child.label == "presentation" {
                part = memo.presentations.text(config.presentation, name: "")
            } else {
                part = partText(child.value)
            }
            parts.append((child.label ?? "?", part))
            if let label = child.label, label != "strategy", label != "seed", label != "recordSeries" {
                context += label + ":" + part + ";"
            }
        }
        let contextDigest = hex(fnv1a64(context))
        // The run's text is `scrollstudy-run model=…\n<type>{label:text,…}`; only the seed's part
        // differs between the seeds. FNV-1a is fed byte after byte, so the state after the parts
        // before the seed is the same for every seed: it is taken once, and each seed adds only its
        // own part and the text after it (the strategy, device and gesture, the long parts, come first).
        func joined(_ range: Range<Int>) -> String {
            var text = ""
            for i in range {
                if i > 0 { text += "," }
                text += parts[i].label + ":" + parts[i].text
            }
            return text
        }
        var head = Hash64()
        head.add("scrollstudy-run model=\(modelVersion)\n\(type(of: config)){")
        guard let seedAt else {
            head.add(joined(0..<parts.count) + "}")
            return seeds.map { _ in (hex(head.value), contextDigest) }
        }
        head.add(joined(0..<seedAt))
        let tail = joined(seedAt + 1..<parts.count) + "}"
        return seeds.map { seed in
            var text = (seedAt > 0 ? "," : "") + parts[seedAt].label + ":"
            describe(seed, into: &text, depth: 1)
            var hash = head
            hash.add(text)
            hash.add(tail)
            return (hex(hash.value), contextDigest)
        }
    }

    /// One part of a run configuration (its strategy, device, …) as the run's canonical text writes it:
    /// `describe` at depth 1. What `PartTexts` files once per build.
    @Sendable package static func partText(_ value: Any) -> String {
        var text = ""
        describe(value, into: &text, depth: 1)
        return text
    }

    /// The digest of any value's canonical text (every stored property, recursively, as for a run
    /// configuration), for keys of cached work other than runs.
    package static func digest(ofValue value: Any) -> String {
        var sink = HashingSink()
        describe(value, into: &sink, depth: 0)
        return hex(sink.finish())
    }

    /// 64-bit FNV-1a of the UTF-8 bytes (`Hash64`).
    package static func fnv1a64(_ text: String) -> UInt64 { Hash64.of(text) }

    package static func hex(_ v: UInt64) -> String { Hash64.hex(v) }

    /// The value of a fingerprint's text, as `hex` writes it: exactly 16 lowercase hex digits; nil for any other text.
    package static func value(ofHex text: String) -> UInt64? {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        return UInt64(text, radix: 16)
    }

    /// Canonical text of any value, from its reflection.
    static func describe<Sink: CanonicalSink>(_ value: Any, into out: inout Sink, depth: Int) {
        precondition(depth < 64, "run configuration nested too deeply to fingerprint")
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let child = mirror.children.first {
                describe(child.value, into: &out, depth: depth + 1)
            } else {
                out.write("nil")
            }
        case .collection:
            out.write("[")
            for (i, child) in mirror.children.enumerated() {
                if i > 0 { out.write(",") }
                describe(child.value, into: &out, depth: depth + 1)
            }
            out.write("]")
        case .set, .dictionary:
            // Unordered: sorted by their canonical text, so the hash does not depend on hashing seeds.
            let items = mirror.children.map { child -> String in
                var text = ""
                describe(child.value, into: &text, depth: depth + 1)
                return text
            }.sorted()
            out.write("{" + items.joined(separator: ",") + "}")
        case .enum:
            out.write(TypeNames.name(of: type(of: value)) + ".")
            if let payload = mirror.children.first {
                out.write((payload.label ?? "?") + "(")
                describe(payload.value, into: &out, depth: depth + 1)
                out.write(")")
            } else {
                out.write(String(describing: value))
            }
        case .struct, .class, .tuple:
            out.write(mirror.displayStyle == .tuple ? "(" : TypeNames.name(of: type(of: value)) + "{")
            for (i, child) in mirror.children.enumerated() {
                if i > 0 { out.write(",") }
                if let label = child.label { out.write(label + ":") }
                describe(child.value, into: &out, depth: depth + 1)
            }
            out.write(mirror.displayStyle == .tuple ? ")" : "}")
        default:
            // Leaves: numbers print their shortest exact form; strings are quoted and escaped.
            if let s = value as? String {
                out.write(String(reflecting: s))
            } else {
                out.write(String(describing: value))
            }
        }
    }
}

/// The canonical texts (or digests) of values a build meets many times — the same strategy in
/// thousands of configurations, the same measured run in every copy of a study — each made once.
/// A value is filed under a name (its id) and found again only when it equals (`==`) the value
/// filed: within one build a name stands for one value (content ids are unique), and a different
/// value under the same name gets its own text. Thread-safe, so the work pool's threads share it.
package final class TextMemo<Value: Equatable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: [(value: Value, text: String)]] = [:]
    private let make: @Sendable (Value) -> String

    package init(_ make: @escaping @Sendable (Value) -> String) { self.make = make }

    /// The text of `value`, made the first time a value equal to it is asked for under `name`.
    package func text(_ value: Value, name: String) -> String {
        if let hit = lock.withLock({ known[name]?.first(where: { $0.value == value })?.text }) { return hit }
        let text = make(value)  // outside the lock: two threads may both make it, and file the same text
        lock.withLock {
            if known[name]?.contains(where: { $0.value == value }) != true {
                known[name, default: []].append((value, text))
            }
        }
        return text
    }
}

/// The canonical texts of the strategies, devices, gestures and presentations of a build's configurations, as
/// `Fingerprint.ofAndContext` writes them (`describe` at depth 1), and their digests: what the plan
/// stage walks once and the later stages' keys reuse (`PlanFingerprints.parts`).
package final class PartTexts: Sendable {
    package let strategies = TextMemo<Strategy>(Fingerprint.partText)
    package let devices = TextMemo<DeviceProfile>(Fingerprint.partText)
    package let gestures = TextMemo<Gesture>(Fingerprint.partText)
    /// A study's presentation override (few distinct ones, all filed under one name).
    package let presentations = TextMemo<Presentation?>(Fingerprint.partText)
    /// Digests of whole values (`Fingerprint.digest(ofValue:)`) by name.
    package let strategyDigests = TextMemo<Strategy> { Fingerprint.digest(ofValue: $0) }
    package let deviceDigests = TextMemo<DeviceProfile> { Fingerprint.digest(ofValue: $0) }

    package init() {}

    package func digest(_ strategy: Strategy) -> String { strategyDigests.text(strategy, name: strategy.id) }
    package func digest(_ device: DeviceProfile) -> String { deviceDigests.text(device, name: device.id) }
}

/// Type names as `"\(type)"` prints them, kept once per type: printing a type name looks up its
/// metadata every time, and a configuration names the same few types for every run.
private enum TypeNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var names: [ObjectIdentifier: String] = [:]

    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = lock.withLock({ names[key] }) { return known }
        let name = "\(type)"
        lock.withLock { names[key] = name }
        return name
    }
}

/// Where canonical text goes: a `String` that keeps it whole, or a `HashingSink` that hashes it in pieces.
protocol CanonicalSink {
    mutating func write(_ text: String)
}

extension String: CanonicalSink {
    mutating func write(_ text: String) { self += text }
}

/// Hashes canonical text as it is written (64-bit FNV-1a, the same value as hashing the whole text),
/// holding at most about 64 KiB of it: a dataset of a million rows has some hundred megabytes of text.
struct HashingSink: CanonicalSink {
    private var hash = Hash64()
    private var pending = ""

    mutating func write(_ text: String) {
        pending += text
        if pending.utf8.count >= 1 << 16 {
            hash.add(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// The hash of everything written.
    mutating func finish() -> UInt64 {
        hash.add(pending)
        pending = ""
        return hash.value
    }
}
