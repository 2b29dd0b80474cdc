/// 64-bit FNV-1a over bytes, fed in pieces: the hash of everything the project names or publishes
/// (run fingerprints, cache file names, results folders' ids). What a build hashes in bulk for
/// itself alone (the manifest's file hashes, the page keys) goes through `WordHash64`, a word at
/// a time. Not cryptographic: it names inputs, it does not defend against someone crafting collisions.
package struct Hash64: Sendable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var h = value
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        value = h
    }

    package mutating func add(_ text: String) {
        var t = text
        t.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    package mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    package init() {}

    /// The hash of `text`'s UTF-8 bytes.
    package static func of(_ text: String) -> UInt64 {
        var hash = Hash64()
        hash.add(text)
        return hash.value
    }

    /// `value` as 16 lowercase hex digits.
    package var hex: String { Self.hex(value) }

    /// `v` as 16 lowercase hex digits.
    package static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
