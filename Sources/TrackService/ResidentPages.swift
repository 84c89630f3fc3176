import CMallocTuning
import Glibc
import SystemPackage

/// The process's own resident memory: how much of it is file pages (program and library code), and letting go of
/// the code pages it no longer runs.
///
/// The kernel maps a program's code 64 KB around every page it touches, and keeps it mapped for as long as the
/// process lives; `VmRSS` counts all of it. A daemon that ran its start-up once (the argument parser, the
/// configuration, the log's migrations and recovery, opening the source) keeps those pages counted, though it never
/// runs them again. `release()` takes them out of the process's page tables; what the daemon still runs comes back
/// at its next use, from the page cache (docs/benchmarks.md, "Memory").
public enum ResidentPages {
    /// Bytes of the process's memory that are file pages now (`/proc/self/statm`'s third field: file and shared
    /// pages); `nil` when it cannot be read.
    public static func fileBytes() -> Int? {
        guard let text = ProcFile.read("/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count >= 3, let pages = Int(fields[2]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// What a `release()` did.
    public struct Released: Sendable, Equatable {
        /// Bytes of code mappings (read and execute, never written) taken out of the page tables.
        public var codeBytes: Int
        /// Bytes of read-only file mappings (constants, unwind tables) offered back to the kernel.
        public var readOnlyBytes: Int
        /// Mappings the kernel refused (an old kernel without `MADV_PAGEOUT`, say).
        public var refused: Int
    }

    /// Takes the code pages of the program and its libraries out of the process's page tables, and their read-only
    /// pages with them; drops the program file's pages that no process maps from the page cache; returns freed heap
    /// memory to the system.
    ///
    /// Code mappings (`r-xp`) get `MADV_RANDOM`, `MADV_PAGEOUT` and `MADV_DONTNEED`; read-only ones (`r--p`, which
    /// include the relocated tables made read-only after start) `MADV_PAGEOUT`, and `MADV_DONTNEED` for the pages
    /// still the file's (`releaseUnchanged`); so does the program's `.rodata`, which the toolchain marks writable.
    /// `MADV_PAGEOUT` takes file pages only for a process that could open the file for writing (root's, in a
    /// benchmark); trackd, running as its own user, relies on `MADV_DONTNEED` and on the program file's pages leaving
    /// the page cache (`evictUnmappedPages`): the kernel maps, around each page a fault brings back, the
    /// neighbours still in the page cache, 64 KB of them (docs/benchmarks.md, "Memory").
    ///
    /// Safe at any moment and from any thread: what is released is never written (code, read-only mappings,
    /// constants), a page the process has its own copy of stays, and a released page refills from its file.
    /// Writable mappings but `.rodata`, the heap and stacks are left alone.
    ///
    /// `file` limits it to the mappings of that one file (a test's own, so that the test process keeps its code).
    public static func release(file: String? = nil) -> Released {
        var released = Released(codeBytes: 0, readOnlyBytes: 0, refused: 0)
        guard let maps = ProcFile.read("/proc/self/maps") else { return released }
        let program = file ?? programPath()
        let mappings = maps.split(separator: "\n").compactMap(Mapping.init)
            .filter { file == nil || $0.path == file![...] }
        let own = mappings.filter { $0.path == program?[...] }
        // The program's own mappings first, and its file's pages out of the page cache right after, before the
        // daemon's threads fault many of them back; then the libraries'.
        for mapping in own { advise(mapping, &released) }
        if let program {
            if file == nil, let rodata = programReadOnlyData() {
                released.readOnlyBytes += max(0, releaseUnchanged(rodata))
            }
            evictUnmappedPages(of: program)
        }
        for mapping in mappings where mapping.path != program?[...] { advise(mapping, &released) }
        if file == nil { trackd_malloc_trim() }
        return released
    }

    /// Releases one mapping: code and read-only mappings; others are left.
    private static func advise(_ mapping: Mapping, _ released: inout Released) {
        guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { return }
        let length = Int(mapping.end - mapping.start)
        switch mapping.permissions {
        case "r-xp":
            if [MADV_RANDOM, MADV_PAGEOUT, MADV_DONTNEED].allSatisfy({ madvise(start, length, $0) == 0 }) {
                released.codeBytes += length
            } else {
                released.refused += 1
            }
        case "r--p":
            let pagedOut = madvise(start, length, MADV_PAGEOUT) == 0
            if releaseUnchanged(UnsafeRawBufferPointer(start: start, count: length)) >= 0 || pagedOut {
                released.readOnlyBytes += length
            } else {
                released.refused += 1
            }
        default:
            break
        }
    }

    /// Takes the whole pages of `memory` that are still its file's out of the page tables; pages the process has a
    /// copy of stay. Only for memory nothing writes. The bytes released, or -1 when `/proc/self/pagemap` cannot be
    /// read.
    @discardableResult
    static func releaseUnchanged(_ memory: UnsafeRawBufferPointer) -> Int {
        guard let start = memory.baseAddress else { return 0 }
        return trackd_release_unchanged_pages(UInt(bitPattern: start), memory.count)
    }

    /// The program's `.rodata` in memory; `nil` when its section headers cannot be read.
    static func programReadOnlyData() -> UnsafeRawBufferPointer? {
        var start: UInt = 0
        var length = 0
        guard trackd_program_rodata(&start, &length) == 0, let base = UnsafeRawPointer(bitPattern: start) else {
            return nil
        }
        return UnsafeRawBufferPointer(start: base, count: length)
    }

    /// Drops the pages of `path` that no process maps from the page cache (`POSIX_FADV_DONTNEED`), so that a later
    /// fault reads the one page it needs and maps no neighbours with it: the kernel maps, around a faulting page, only
    /// neighbours already in the page cache. Needs no write permission on the file, unlike `MADV_PAGEOUT` on file
    /// pages, which the kernel refuses silently to a process that could not open the file for writing (trackd runs
    /// as its own user, and its program file is root's). Pages other processes map stay.
    private static func evictUnmappedPages(of path: String) {
        guard let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else {
            return
        }
        defer { try? descriptor.close() }
        _ = posix_fadvise(descriptor.rawValue, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// The running program's file (`/proc/self/exe`), as `/proc/self/maps` names it.
    static func programPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One line of `/proc/self/maps` that maps a file.
    struct Mapping {
        var start: UInt
        var end: UInt
        var permissions: Substring
        var path: Substring

        /// `nil` for a line that does not map a file (anonymous memory, the stack, the vDSO) or cannot be read.
        init?(_ line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let path = fields[5].drop(while: { $0 == " " })
            guard path.hasPrefix("/") else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                  end > start else { return nil }
            self.start = start
            self.end = end
            self.permissions = fields[1]
            self.path = path
        }
    }
}

