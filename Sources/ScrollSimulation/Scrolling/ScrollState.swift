/// Where the list is scrolled and how far the gesture has got: its clock, the content offset,
/// the viewport (which a rotation turns), and which of its actions and motion ends have passed.
///
/// Owns the offset and keeps it inside the content: every change goes through a method that
/// clamps it, except the offset correction of an estimated row (T18), which UIKit applies as is.
struct ScrollState {
    /// What the finger does, as a timeline from the gesture's start.
    let timeline: GestureTimeline
    /// When the gesture began: the presentation of the first frame with content. Nil before.
    private(set) var gestureStart: Micros? = nil
    /// The content offset, pt.
    private(set) var offset = 0.0
    private(set) var viewportWidth: Double
    private(set) var viewportHeight: Double
    /// Rotations so far: cells laid out before the latest one have stale attributes.
    private(set) var rotations = 0
    /// The gesture's displacement already applied to the offset.
    private var appliedDisplacement = 0.0
    private var nextAction = 0
    private var segmentHint = 0
    private let motionEnds: [Micros]
    private var motionEndIndex = 0

    init(gesture: Gesture, viewportWidth: Double, viewportHeight: Double) {
        timeline = GestureTimeline(gesture)
        motionEnds = timeline.motionEnds
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
    }

    /// The gesture starts at `time`.
    mutating func start(at time: Micros) { gestureStart = time }

    /// The gesture's displacement, whether the list moves, and the scroll direction, `rel` µs after it began.
    mutating func sample(at rel: Micros) -> (displacement: Double, moving: Bool, direction: Int) {
        timeline.sample(at: rel, hint: &segmentHint)
    }

    /// The next instantaneous action due at or before `rel`, taken; nil when none is due.
    mutating func takeAction(until rel: Micros) -> GesturePhase? {
        guard nextAction < timeline.actions.count, timeline.actions[nextAction].time <= rel else { return nil }
        defer { nextAction += 1 }
        return timeline.actions[nextAction].phase
    }

    /// How many motion ends (a drag or a deceleration ending) passed by `rel`, each counted once.
    mutating func takeMotionEnds(until rel: Micros) -> Int {
        var passed = 0
        while motionEndIndex < motionEnds.count, motionEnds[motionEndIndex] <= rel {
            motionEndIndex += 1
            passed += 1
        }
        return passed
    }

    /// Moves the offset with the gesture to its total displacement `d`, within `contentHeight`.
    mutating func follow(displacement d: Double, contentHeight: Double) {
        offset += d - appliedDisplacement
        appliedDisplacement = d
        clamp(contentHeight: contentHeight)
    }

    /// Jumps to `top` (scrollToRow), within `contentHeight`.
    mutating func jump(to top: Double, contentHeight: Double) {
        offset = top
        clamp(contentHeight: contentHeight)
    }

    /// Keeps the offset inside content `contentHeight` tall.
    mutating func clamp(contentHeight: Double) {
        let maxOffset = max(0, contentHeight - viewportHeight)
        offset = min(max(0, offset), maxOffset)
    }

    /// The list corrects its offset by `delta` when a row above it was measured (T18).
    mutating func correct(by delta: Double) { offset += delta }

    /// The device turns: width and height swap.
    mutating func rotate() {
        swap(&viewportWidth, &viewportHeight)
        rotations += 1
    }
}
