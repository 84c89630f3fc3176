import FuzzSupport

/// One fuzz input: bytes as a GPS receiver might send them (`NMEAFuzzCase` says what is checked).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    NMEAFuzzCase(UnsafeBufferPointer(start: data, count: size)).run()
    return 0
}

/// The NMEA reader's fuzz target: `scripts/fuzz nmea`.
@main
enum FuzzNMEA {
    static func main() {
        FuzzDriver.run(fuzzNMEA)
    }
}
