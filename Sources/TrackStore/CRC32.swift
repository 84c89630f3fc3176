import CZlib

/// CRC-32 (ISO 3309, as in Ethernet) through zlib: the check of each record of the running trip's point file.
///
/// zlib's `crc32` is a plain function over a table; libgcrypt's digest, which this was before, went through its
/// whole message-digest machinery for every record and kept some 0.5 MB of libgcrypt's code resident while a trip
/// ran (docs/benchmarks.md, "Memory"). The values are the same.
enum CRC32 {
    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let crc = crc32_z(crc32_z(0, nil, 0), base.assumingMemoryBound(to: Bytef.self), bytes.count)
        return UInt32(truncatingIfNeeded: crc)
    }
}
