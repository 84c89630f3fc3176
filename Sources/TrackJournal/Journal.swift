import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// The systemd journal's native protocol, through libsystemd.
public enum Journal {
    /// Sends one entry with `sd_journal_sendv`: one `NAME=value` iovec per field. libsystemd writes a value with a
    /// newline in the binary form (name, newline, 64-bit little-endian length, bytes) and passes an entry too large
    /// for one datagram as a sealed memfd. Without a journald (no socket) it succeeds and the entry is dropped.
    public static func send(_ fields: [JournalField]) throws(JournalError) {
        guard !fields.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(0) { $0 + $1.name.utf8.count + 1 + $1.value.utf8.count })
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(fields.count)
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: field.value.utf8)
            spans.append((start, bytes.count - start))
        }
        let result = bytes.withUnsafeMutableBytes { buffer -> Int32 in
            let base = buffer.baseAddress!
            let vectors = spans.map { iovec(iov_base: base + $0.start, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
        if result < 0 { throw .sendFailed(errno: -result) }
    }
}
