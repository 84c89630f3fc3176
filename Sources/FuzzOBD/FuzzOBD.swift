import FuzzSupport

/// One fuzz input: what an ELM327 adapter might send (`OBDFuzzCase` says what is checked).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOBD(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    OBDFuzzCase(UnsafeBufferPointer(start: data, count: size)).run()
    return 0
}

/// The OBD-II adapter's answers' fuzz target: `scripts/fuzz obd`.
@main
enum FuzzOBD {
    static func main() {
        FuzzDriver.run(fuzzOBD)
    }
}
