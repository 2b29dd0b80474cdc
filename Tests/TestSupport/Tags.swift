import Testing

extension Tag {
    /// A suite or test that takes many seconds on a debug build (the default content generated many
    /// times, real processes killed, thousands of simulations). Swift 6.3's `swift test` cannot skip a
    /// tag from the command line, so each slow suite's type is also named `Slow…` and each slow test in
    /// a quick suite `slow…()`: the fast loop is `swift test --skip-build --skip '\.Slow|/slow'`;
    /// `swift test` runs everything. Keep the tag and the name together.
    @Tag package static var slow: Self
}
