// Shared by every fuzz target (compiled into each one): the input as bytes and a check that
// stops the fuzzer with a message when an invariant does not hold.

/// The fuzz input as an array of bytes.
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Traps (a crash libFuzzer reports, with the input saved) when `condition` is false.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant: " + message()) }
}
