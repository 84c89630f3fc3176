import FuzzSupport

/// One fuzz input: bytes as a client might write them to the control socket (`ControlFuzzCase` says what is
/// checked).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ControlFuzzCase(UnsafeBufferPointer(start: data, count: size)).run(on: ControlFuzzDaemon.current())
    return 0
}

/// The control-request fuzz target: `scripts/fuzz control`.
@main
enum FuzzControlRequest {
    static func main() {
        FuzzDriver.run(fuzzControlRequest)
    }
}
