/// A 64-bit hash of bytes taken eight at a time, for what a build hashes in bulk and keeps only
/// for itself: the manifest's file hashes (every output file's bytes, hashed when it is written
/// and again when a kept file is checked) and the page keys. `Hash64` (FNV-1a) takes one byte per
/// step, a multiply each; this takes a word per step, so a 250 MB site costs about a sixth.
/// Fingerprints, cache names and everything published stay on `Hash64`.
///
/// Each `add` hashes its piece with its length, so pieces never run together: `add("ab")` and
/// `add("a"); add("b")` differ. Words are read little-endian, so the value is the same on every
/// machine. Every step is a bijection of the state (xor a word, multiply by an odd constant,
/// xor-shift), so two inputs of one length that differ in one word always give different states
/// after that word. Not cryptographic.
package struct WordHash64: Sendable {
    package private(set) var value: UInt64 = 0x243f_6a88_85a3_08d3

    package init() {}

    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0x9e37_79b9_7f4a_7c15
        z ^= z >> 29
        z = z &* 0xbf58_476d_1ce4_e5b9
        return z ^ (z >> 32)
    }

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        var h = Self.mix(value ^ UInt64(n))
        var i = 0
        while i + 8 <= n {
            h = Self.mix(h ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        if i < n {
            var w: UInt64 = 0
            for j in i..<n { w |= UInt64(bytes[j]) << (8 * UInt64(j - i)) }
            h = Self.mix(h ^ w)
        }
        value = h
    }

    package mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    package mutating func add(_ text: String) {
        var t = text
        t.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `bytes`, as 16 lowercase hex digits.
    package static func hex(of bytes: [UInt8]) -> String {
        var hash = WordHash64()
        hash.add(bytes)
        return hash.hex
    }

    package var hex: String { Hash64.hex(value) }
}
