/// Built-in gestures and the inline form `drag:<pt/s>:<s>,fling:<pt/s>[:fast][:<s>],pause:<s>,…`.
public extension Gesture {
    /// A slow, steady read: 300 pt/s for 6 s.
    static let gentle = Gesture(
        id: "gentle", summary: "A slow read: drag down at 300 pt/s for 6 s.",
        phases: [.drag(velocity: 300, duration: .seconds(6))])

    /// One fast fling that decelerates at the normal rate.
    static let fling = Gesture(
        id: "fling",
        summary: "One fast fling down at 4 000 pt/s, decelerating at the normal rate (about 2 000 pt of travel).",
        phases: [.fling(velocity: 4_000, rate: .normal, cutAfter: nil)])

    /// Very fast repeated flings down and up, each caught by the next touch: GlitchyTable's stress.
    static let aggressive: Gesture = {
        var phases: [GesturePhase] = []
        let cut = Micros.ms(700)
        for v in [9_000.0, 9_000, 9_000, -9_000, -9_000, -9_000, 9_000, 9_000, -9_000] {
            phases.append(.fling(velocity: v, rate: .normal, cutAfter: cut))
        }
        phases.append(.fling(velocity: 6_000, rate: .normal, cutAfter: nil))
        return Gesture(
            id: "aggressive",
            summary:
                "Very fast repeated flings (±9 000 pt/s, each caught after 0.7 s by the next touch) down, up, down, up, then a last fling that settles.",
            phases: phases)
    }()

    /// Down, a short pause, then back up over the same rows.
    static let downThenUp = Gesture(
        id: "down-then-up",
        summary: "Drag down at 800 pt/s for 5 s, pause 0.5 s, drag back up at 800 pt/s for 5 s (revisits every row).",
        phases: [
            .drag(velocity: 800, duration: .seconds(5)), .pause(duration: .ms(500)), .reverse(duration: .seconds(5)),
        ])

    /// Scroll, rotate to landscape, keep scrolling.
    static let rotate = Gesture(
        id: "rotate", summary: "Drag down at 400 pt/s for 2 s, rotate the device, drag on for 2 s.",
        phases: [.drag(velocity: 400, duration: .seconds(2)), .rotate, .drag(velocity: 400, duration: .seconds(2))])

    /// Ten rows land above while the user scrolls.
    static let insertWhileScrolling = Gesture(
        id: "insert-while-scrolling",
        summary: "Drag down at 600 pt/s for 1.5 s, 10 rows are inserted above, drag on for 3 s.",
        phases: [
            .drag(velocity: 600, duration: .ms(1_500)), .insertAbove(count: 10),
            .drag(velocity: 600, duration: .seconds(3)),
        ])

    /// Jump to the end without having seen the rows above, then scroll back up through them.
    static let jumpThenUp = Gesture(
        id: "jump-then-up",
        summary: "Jump to the last row, then drag up at 500 pt/s for 6 s through rows never measured.",
        phases: [.scrollTo(row: Int.max), .pause(duration: .ms(200)), .drag(velocity: -500, duration: .seconds(6))])

    /// The built-in gestures, in the order `list` shows them.
    static let presets: [Gesture] = [gentle, fling, aggressive, downThenUp, rotate, insertWhileScrolling, jumpThenUp]

    /// The forms the inline syntax accepts, for error messages and help.
    static let inlineForms =
        "drag:<pt/s>:<seconds>, fling:<pt/s>[:fast][:<seconds>], pause:<seconds>, reverse:<seconds>, to:<row>, rotate, insert:<rows>"

    /// Parses the inline form, e.g. `drag:220:5,pause:0.5,fling:-3000:fast`.
    static func parse(inline text: String) throws(GestureParseError) -> Gesture {
        var phases: [GesturePhase] = []
        for rawPart in text.split(separator: ",", omittingEmptySubsequences: false) {
            let part = String(rawPart).trimmingSpaces
            let fields = part.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            func number(_ i: Int, _ what: String, _ range: ClosedRange<Double>) throws(GestureParseError) -> Double {
                guard i < fields.count, let v = Double(fields[i]), v.isFinite else {
                    throw GestureParseError(phase: part, message: "expected \(what) as a number in '\(part)'")
                }
                guard range.contains(v) else {
                    throw GestureParseError(
                        phase: part,
                        message:
                            "\(what) \(fields[i]) is out of range; valid: \(range.lowerBound.compact) to \(range.upperBound.compact)"
                    )
                }
                return v
            }
            func arity(_ allowed: ClosedRange<Int>) throws(GestureParseError) {
                guard allowed.contains(fields.count) else {
                    throw GestureParseError(phase: part, message: "wrong number of fields in '\(part)'")
                }
            }
            switch fields[0] {
            case "drag":
                try arity(3...3)
                phases.append(
                    .drag(
                        velocity: try number(1, "velocity (pt/s)", -50_000...50_000),
                        duration: .seconds(try number(2, "duration (s)", 0...120))))
            case "fling":
                try arity(2...4)
                var rate = DecelerationRate.normal
                var cut: Micros? = nil
                for extra in fields.dropFirst(2) {
                    if let r = DecelerationRate(rawValue: extra) {
                        rate = r
                        continue
                    }
                    guard let s = Double(extra), s.isFinite, (0...120).contains(s) else {
                        throw GestureParseError(
                            phase: part,
                            message:
                                "'\(extra)' is neither a deceleration rate (normal, fast) nor a cut-off in seconds (0 to 120)"
                        )
                    }
                    cut = .seconds(s)
                }
                phases.append(
                    .fling(velocity: try number(1, "velocity (pt/s)", -50_000...50_000), rate: rate, cutAfter: cut))
            case "pause":
                try arity(2...2)
                phases.append(.pause(duration: .seconds(try number(1, "duration (s)", 0...120))))
            case "reverse":
                try arity(2...2)
                phases.append(.reverse(duration: .seconds(try number(1, "duration (s)", 0...120))))
            case "to":
                try arity(2...2)
                phases.append(.scrollTo(row: Int(try number(1, "row", 0...1e9))))
            case "rotate":
                try arity(1...1)
                phases.append(.rotate)
            case "insert":
                try arity(2...2)
                phases.append(.insertAbove(count: Int(try number(1, "rows", 1...10_000))))
            default:
                throw GestureParseError(phase: part, message: "unknown phase '\(fields[0])'")
            }
        }
        let moving = phases.contains { $0.moves }
        guard moving else { throw GestureParseError(phase: text, message: "the gesture never moves the list") }
        return Gesture(id: text, summary: "Inline gesture \(text).", phases: phases)
    }
}

/// A gesture text that could not be parsed.
public struct GestureParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The phase text at fault.
    public var phase: String
    /// What is wrong.
    public var message: String
    /// The message with the valid forms.
    public var description: String { "\(message); valid phases: \(Gesture.inlineForms)" }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}

extension Double {
    /// The shortest decimal text of a number (`5`, `0.5`), locale-free.
    var compact: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
