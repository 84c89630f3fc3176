import CMallocTuning
import Glibc
import TrackInput

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
        guard let text = read("/proc/self/statm") else { return nil }
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

    /// Takes the code pages of the program and its libraries out of the process's page tables, offers its read-only
    /// file pages back to the kernel, and returns freed heap memory to the system.
    ///
    /// Code mappings (`r-xp`) get `MADV_RANDOM`, `MADV_PAGEOUT` and `MADV_DONTNEED`: with the first two, far fewer
    /// pages come back with each fault than the 64 KB around it that follow `MADV_DONTNEED` alone (measured;
    /// docs/benchmarks.md, "Memory"); the last takes the pages shared with other processes (the C library's), which
    /// `MADV_PAGEOUT` leaves, out of this process's page tables. Read-only mappings (`r--p`, which include the
    /// relocated tables made read-only after start) only get `MADV_PAGEOUT`.
    ///
    /// Safe at any moment and from any thread: code mappings are private and never written, so dropping them loses
    /// nothing (a private file mapping refills from its file), and `MADV_PAGEOUT` never discards a page the process
    /// changed. Writable mappings, the heap and stacks are left alone.
    ///
    /// `file` limits it to the mappings of that one file (a test's own, so that the test process keeps its code).
    public static func release(file: String? = nil) -> Released {
        var released = Released(codeBytes: 0, readOnlyBytes: 0, refused: 0)
        guard let maps = read("/proc/self/maps") else { return released }
        for line in maps.split(separator: "\n") {
            guard let mapping = Mapping(line), file == nil || mapping.path == file![...] else { continue }
            let advice: [Int32]
            switch mapping.permissions {
            case "r-xp": advice = [MADV_RANDOM, MADV_PAGEOUT, MADV_DONTNEED]
            case "r--p": advice = [MADV_PAGEOUT]
            default: continue
            }
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            if advice.allSatisfy({ madvise(start, length, $0) == 0 }) {
                if mapping.permissions == "r-xp" {
                    released.codeBytes += length
                } else {
                    released.readOnlyBytes += length
                }
            } else {
                released.refused += 1
            }
        }
        if file == nil { trackd_malloc_trim() }
        return released
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

    /// A small file of `/proc`, whole; `nil` when it cannot be read.
    private static func read(_ path: String) -> String? {
        guard var file = try? InputFile(path: path, chunkSize: 16_384) else { return nil }
        var bytes: [UInt8] = []
        do {
            while try file.next({ bytes.append(contentsOf: $0) }) {}
        } catch {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

