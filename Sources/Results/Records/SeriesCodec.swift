import ScrollSimulation

/// The run cache's compact binary form of a run's series (frames and content lanes): every
/// integer as a zigzag LEB128 varint, the content offset as its 64-bit pattern. Writing and reading
/// a run's series this way costs a small fraction of Foundation's JSON coders, which took about a
/// third of a cold site build; nothing outside the cache reads these bytes.
enum SeriesCodec {
    /// Appends `frames` and `lanes` to `out`.
    static func write(frames: [FrameSample], lanes: [[ContentSegment]], into out: inout [UInt8]) {
        out.reserveCapacity(out.count + 16 + frames.count * 48 + lanes.reduce(0) { $0 + 4 + $1.count * 10 })
        putUnsigned(UInt64(frames.count), &out)
        for f in frames {
            putSigned(f.begin, &out)
            putSigned(f.presented, &out)
            putSigned(f.duration, &out)
            putSigned(f.hitch, &out)
            putUnsigned(UInt64(f.hitchKind), &out)
            putSigned(f.overrun, &out)
            putUnsigned(f.scrolling ? 1 : 0, &out)
            putSigned(f.mainWork, &out)
            putSigned(f.renderWork, &out)
            putFixed(f.offset.bitPattern, &out)
            putSigned(Int64(f.visible), &out)
            putSigned(Int64(f.placeholder), &out)
            putSigned(Int64(f.stale), &out)
            putSigned(Int64(f.queueDepth), &out)
            putSigned(Int64(f.imageBytes), &out)
        }
        putUnsigned(UInt64(lanes.count), &out)
        for lane in lanes {
            putUnsigned(UInt64(lane.count), &out)
            for s in lane {
                putSigned(s.start, &out)
                putSigned(s.end, &out)
                putUnsigned(UInt64(s.state.rawValue), &out)
                putSigned(Int64(s.shownItem), &out)
            }
        }
    }

    /// Reads what `write` wrote, from `reader`'s position.
    static func read(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> (
        frames: [FrameSample], lanes: [[ContentSegment]]
    ) {
        let frameCount = try reader.count(atLeast: 16)
        var frames: [FrameSample] = []
        frames.reserveCapacity(frameCount)
        for _ in 0..<frameCount {
            let begin = try reader.signed(), presented = try reader.signed(), duration = try reader.signed(),
                hitch = try reader.signed()
            let hitchKind = try narrow(reader.unsigned(), UInt8.self)
            let overrun = try reader.signed()
            let scrolling = try reader.unsigned()
            guard scrolling <= 1 else { throw .init(why: "scrolling flag \(scrolling)") }
            let mainWork = try reader.signed(), renderWork = try reader.signed()
            let offset = Double(bitPattern: try reader.fixed())
            let visible = try narrow(reader.signed(), Int32.self), placeholder = try narrow(reader.signed(), Int32.self)
            let stale = try narrow(reader.signed(), Int32.self), queueDepth = try narrow(reader.signed(), Int32.self)
            let imageBytes = try narrow(reader.signed(), Int.self)
            frames.append(
                FrameSample(
                    begin: begin, presented: presented, duration: duration, hitch: hitch, hitchKind: hitchKind,
                    overrun: overrun, scrolling: scrolling == 1, mainWork: mainWork, renderWork: renderWork,
                    offset: offset, visible: visible, placeholder: placeholder, stale: stale,
                    queueDepth: queueDepth, imageBytes: imageBytes))
        }
        let laneCount = try reader.count(atLeast: 1)
        var lanes: [[ContentSegment]] = []
        lanes.reserveCapacity(laneCount)
        for _ in 0..<laneCount {
            let segmentCount = try reader.count(atLeast: 4)
            var lane: [ContentSegment] = []
            lane.reserveCapacity(segmentCount)
            for _ in 0..<segmentCount {
                let start = try reader.signed(), end = try reader.signed()
                let raw = try narrow(reader.unsigned(), UInt8.self)
                guard let state = SlotState(rawValue: raw) else { throw .init(why: "content state \(raw)") }
                let shown = try narrow(reader.signed(), Int.self)
                lane.append(ContentSegment(start: start, end: end, state: state, shownItem: shown))
            }
            lanes.append(lane)
        }
        return (frames, lanes)
    }

    static func putUnsigned(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func putSigned(_ value: Int64, _ out: inout [UInt8]) {
        putUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)), &out)
    }

    static func putFixed(_ value: UInt64, _ out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

/// Reads varints and fixed words from bytes, refusing to run past the end.
struct ByteReader {
    struct Malformed: Error, CustomStringConvertible {
        let why: String
        var description: String { why }
    }

    let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var atEnd: Bool { position == bytes.count }

    mutating func unsigned() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw Malformed(why: "ends inside a number at byte \(position)") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw Malformed(why: "number too long at byte \(position)") }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(Malformed) -> Int64 {
        let u = try unsigned()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func fixed() throws(Malformed) -> UInt64 {
        guard bytes.count - position >= 8 else { throw Malformed(why: "ends inside a word at byte \(position)") }
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(bytes[position + k]) << UInt64(8 * k) }
        position += 8
        return value
    }

    /// A count of items, each at least `bytesEach` long: never more than the bytes left could hold.
    mutating func count(atLeast bytesEach: Int) throws(Malformed) -> Int {
        let n = try unsigned()
        guard n <= UInt64((bytes.count - position) / bytesEach) else {
            throw Malformed(why: "count \(n) at byte \(position) exceeds the file")
        }
        return Int(n)
    }

    /// `count` bytes from the current position.
    mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - position >= count else {
            throw Malformed(why: "ends \(count - (bytes.count - position)) bytes early")
        }
        defer { position += count }
        return bytes[position..<position + count]
    }

}

private func narrow<T: FixedWidthInteger>(_ value: UInt64, _: T.Type) throws(ByteReader.Malformed) -> T {
    guard let v = T(exactly: value) else { throw .init(why: "\(value) out of range") }
    return v
}

private func narrow<T: FixedWidthInteger>(_ value: Int64, _: T.Type) throws(ByteReader.Malformed) -> T {
    guard let v = T(exactly: value) else { throw .init(why: "\(value) out of range") }
    return v
}
