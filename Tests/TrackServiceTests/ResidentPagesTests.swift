import Glibc
import Testing
@testable import TrackService

@Suite struct ResidentPagesTests {
    /// A file of `pages` pages of known bytes, mapped privately with `protection`, every page read once.
    private final class MappedFile {
        let path: String
        let base: UnsafeMutableRawPointer
        let length: Int

        init?(pages: Int, protection: Int32) {
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            var template = Array("/tmp/trackd-resident.XXXXXX".utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            path = String(cString: template)
            length = pages * pageSize
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / pageSize) }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == length, fsync(descriptor) == 0,
                  let mapped = mmap(nil, length, protection, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
                close(descriptor)
                unlink(path)
                return nil
            }
            close(descriptor)
            base = mapped
            _ = touchAll()
        }

        /// Reads every byte; the sum of them.
        func touchAll() -> Int {
            let bytes = UnsafeRawBufferPointer(start: base, count: length)
            return bytes.reduce(0) { $0 + Int($1) }
        }

        deinit {
            munmap(base, length)
            unlink(path)
        }
    }

    @Test(arguments: [("code", PROT_READ | PROT_EXEC), ("read-only", PROT_READ)])
    func releasingAMappingShrinksTheFilePagesAndItsBytesComeBackUnchanged(kind: String, protection: Int32) throws {
        let file = try #require(MappedFile(pages: 256, protection: protection))
        let sum = file.touchAll()
        let before = try #require(ResidentPages.fileBytes())
        let released = ResidentPages.release(file: file.path)
        let after = try #require(ResidentPages.fileBytes())
        #expect(released.refused == 0)
        #expect(kind == "code" ? released.codeBytes == file.length : released.readOnlyBytes == file.length)
        // Most of the 1 MB left the process's page tables (other threads of the test process may fault a little in).
        #expect(before - after >= file.length / 2, "file pages \(before) -> \(after)")
        // Read again, the pages come back from the file, unchanged.
        #expect(file.touchAll() == sum)
    }

    @Test func readsOnlyLinesThatMapAFile() {
        let code = ResidentPages.Mapping("55d0c1a00000-55d0c1b00000 r-xp 00001000 08:01 1234   /usr/sbin/trackd")
        #expect(code?.start == 0x55d0_c1a0_0000)
        #expect(code?.end == 0x55d0_c1b0_0000)
        #expect(code?.permissions == "r-xp")
        #expect(code?.path == "/usr/sbin/trackd")
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
