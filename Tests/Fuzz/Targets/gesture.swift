// Fuzz target: the inline gesture syntax (`drag:300:6,pause:0.5,fling:-3000:fast`), then the
// timeline the engine builds from a parsed gesture. Invariants: a parsed gesture moves the list;
// its timeline's times are finite and ordered.
@testable import ScrollSimulation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let gesture: Gesture
    do { gesture = try Gesture.parse(inline: text) } catch {
        _ = error.description
        return 0
    }
    require(gesture.phases.contains { $0.moves }, "a gesture that never moves")
    let timeline = GestureTimeline(gesture)
    require(
        timeline.duration >= 0 && timeline.movingDuration <= timeline.duration,
        "durations \(timeline.movingDuration) of \(timeline.duration)")
    var end: Micros = 0
    for segment in timeline.segments {
        require(segment.start >= end && segment.end >= segment.start, "segments out of order")
        require(segment.displacementBefore.isFinite, "non-finite displacement")
        end = segment.end
    }
    for k in Micros(0)...16 {
        let t = timeline.duration / 16 * k
        require(timeline.displacement(at: t).isFinite, "non-finite displacement at \(t)")
    }
    return 0
}
