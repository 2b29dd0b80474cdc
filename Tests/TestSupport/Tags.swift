import Testing

extension Tag {
    /// A suite or test that takes many seconds on a debug build (the default content generated many
    /// times, real processes killed, thousands of simulations). The fast loop skips them:
    /// `swift test --skip-build --skip-tags slow`; `swift test` runs everything.
    @Tag package static var slow: Self
}
