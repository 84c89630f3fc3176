import Testing
@testable import TrackService

@Suite struct ResidentPagesTests {
    @Test func releasingCodePagesShrinksTheFilePagesAndTheProcessRunsOn() {
        // This test process has run the code of every suite before it: its code pages are resident.
        let before = ResidentPages.fileBytes()
        let released = ResidentPages.release()
        let after = ResidentPages.fileBytes()
        #expect(released.codeBytes > 0)
        #expect(released.refused == 0)
        let shrunk = before.flatMap { before in after.map { $0 < before } }
        #expect(shrunk == true, "file pages \(String(describing: before)) -> \(String(describing: after))")
    }

    @Test func readsOnlyLinesThatMapAFile() {
        let code = ResidentPages.Mapping("55d0c1a00000-55d0c1b00000 r-xp 00001000 08:01 1234   /usr/sbin/trackd")
        #expect(code?.start == 0x55d0_c1a0_0000)
        #expect(code?.end == 0x55d0_c1b0_0000)
        #expect(code?.permissions == "r-xp")
        #expect(ResidentPages.Mapping("7ffd1000-7ffd3000 r-xp 00000000 00:00 0   [vdso]") == nil)
        #expect(ResidentPages.Mapping("55d0c2000000-55d0c2100000 rw-p 00000000 00:00 0   [heap]") == nil)
        #expect(ResidentPages.Mapping("7f0000000000-7f0000001000 rw-p 00000000 00:00 0") == nil)
        #expect(ResidentPages.Mapping("7f10-7f00 r-xp 00000000 08:01 12 /usr/lib/libc.so.6") == nil)
    }

    @Test func growthOverTheRunningSetEarnsAnotherRelease() {
        #expect(ResidentTrimService.hasGrown(from: 8 << 20, to: (9 << 20) + 4096, by: 1 << 20))
        #expect(!ResidentTrimService.hasGrown(from: 8 << 20, to: 9 << 20, by: 1 << 20))
        #expect(!ResidentTrimService.hasGrown(from: 8 << 20, to: 7 << 20, by: 1 << 20))
    }
}
