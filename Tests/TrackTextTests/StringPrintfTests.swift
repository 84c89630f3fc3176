import Testing
import TrackText

@Suite struct StringPrintfTests {
    @Test func writesFixedDecimalsAsTheCLibraryDoes() {
        #expect(String(printf: "%.6f, %.6f", 59.437, 24.75362) == "59.437000, 24.753620")
        #expect(String(printf: "%.1f km/h", 87.25) == "87.2 km/h")   // 87.25 is exact: ties go to even
        #expect(String(printf: "%.2f km", 0.125) == "0.12 km")
        #expect(String(printf: "%.0f m", -3.5) == "-4 m")
    }

    @Test func padsIntegers() {
        #expect(String(printf: "%02d:%02d", 7, 5) == "07:05")
        #expect(String(printf: "%ld", Int.min) == "-9223372036854775808")   // Int is a C long: %ld
    }

    @Test func growsPastItsFirstBuffer() {
        let long = String(printf: "%300.3f", 1.5)
        #expect(long.count == 300)
        #expect(long.hasSuffix(" 1.500"))
    }
}
