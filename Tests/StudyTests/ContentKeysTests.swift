import Foundation
import TestSupport
import Testing

@testable import Study

/// `Content/README.md` documents every key the decoders accept (`ContentKeys.all`).
@Suite("Content keys: every one documented")
struct ContentKeysTests {
    static var readme: String {
        get throws {
            try String(contentsOf: SmallSite.packageRoot.appendingPathComponent("Content/README.md"), encoding: .utf8)
        }
    }

    @Test("Each key of each content object is named in Content/README.md, as `key` or \"key\"")
    func documented() throws {
        let text = try Self.readme
        var missing: [String] = []
        for (object, keys) in ContentKeys.all {
            for key in keys where !text.contains("`\(key)`") && !text.contains("\"\(key)\"") {
                missing.append("\(object): \(key)")
            }
        }
        #expect(missing.isEmpty, "undocumented: \(missing.joined(separator: ", "))")
    }

    @Test("The table is what the decoders accept: an unknown key's message lists exactly the object's keys")
    func tableIsTheRule() throws {
        // A strategy's parameters: the message names every key of the table's list, and no other.
        let problems = try Fixture.problems([
            "strategies/x.json": #"{"basedOn": "glitchy-sync", "parameters": {"prefetchDistanc": 3}}"#
        ])
        let message = problems.map(\.message).first { $0.contains("unknown key 'prefetchDistanc'") } ?? ""
        let listed = message.components(separatedBy: "Valid keys: ").last?.components(separatedBy: ", ") ?? []
        #expect(Set(listed) == Set(StrategyDecoder.parameterKeys), "\(message)")
    }
}
