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

    @Test func releasingKeepsThePagesTheProcessChanged() throws {
        // As the relocated tables of a program: written once at start, then made read-only.
        let file = try #require(MappedFile(pages: 64, protection: PROT_READ | PROT_WRITE))
        let pageSize = file.length / 64
        let changed = file.base.advanced(by: 5 * pageSize + 17).assumingMemoryBound(to: UInt8.self)
        let original = changed.pointee
        changed.pointee = original &+ 101
        #expect(mprotect(file.base, file.length, PROT_READ) == 0)
        let sum = file.touchAll()
        let released = ResidentPages.release(file: file.path)
        #expect(released.refused == 0)
        #expect(released.readOnlyBytes == file.length)
        #expect(changed.pointee == original &+ 101)
        #expect(file.touchAll() == sum)
    }

    @Test func releasingUnchangedPagesTakesTheFilesPagesAndLeavesTheCopies() throws {
        let file = try #require(MappedFile(pages: 256, protection: PROT_READ | PROT_WRITE))
        let pageSize = file.length / 256
        for page in [0, 100, 255] {
            file.base.advanced(by: page * pageSize).storeBytes(of: 0xA5, as: UInt8.self)
        }
        let sum = file.touchAll()
        let before = try #require(ResidentPages.fileBytes())
        let released = ResidentPages.releaseUnchanged(UnsafeRawBufferPointer(start: file.base, count: file.length))
        let after = try #require(ResidentPages.fileBytes())
        // Every page but the three copies, whether or not the process could write the file (no MADV_PAGEOUT here).
        #expect(released == (256 - 3) * pageSize)
        #expect(before - after >= file.length / 2, "file pages \(before) -> \(after)")
        for page in [0, 100, 255] {
            #expect(file.base.advanced(by: page * pageSize).load(as: UInt8.self) == 0xA5)
        }
        #expect(file.touchAll() == sum)
    }

    @Test func findsTheProgramsConstantsInsideItsOwnMappings() throws {
        let rodata = try #require(ResidentPages.programReadOnlyData())
        let program = try #require(ResidentPages.programPath())
        let start = UInt(bitPattern: rodata.baseAddress!)
        let end = start + UInt(rodata.count)
        let maps = try #require(ProcFile.read("/proc/self/maps"))
        let own = maps.split(separator: "\n").compactMap(ResidentPages.Mapping.init).filter { $0.path == program[...] }
        #expect(rodata.count > 0)
        #expect(own.contains { $0.start <= start && start < $0.end })
        #expect(own.contains { $0.start < end && end <= $0.end })
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
