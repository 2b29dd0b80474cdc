extension Duration {
    /// The duration in seconds: the wall times the terminal prints (stage times, progress, benchmarks).
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
