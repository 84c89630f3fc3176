import CGcrypt

/// CRC-32 (ISO 3309, as in zlib and Ethernet) through libgcrypt, which trackd maps anyway: the check of each record
/// of the running trip's point file.
enum CRC32 {
    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard trackd_gcrypt_initialize() == 0 else {
            fatalError("libgcrypt could not start (an older libgcrypt than trackd was built with?)")
        }
        var digest = [UInt8](repeating: 0, count: 4)
        gcry_md_hash_buffer(Int32(GCRY_MD_CRC32.rawValue), &digest, bytes.baseAddress, bytes.count)
        return digest.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
