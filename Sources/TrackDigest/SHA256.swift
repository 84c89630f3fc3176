import CGcrypt

/// SHA-256 through libgcrypt (Debian's libgcrypt20, which libsystemd already maps into trackd), fed in parts: the
/// hash chain's digests and the web page's session tokens. libcrypto would do as well, but its initialization costs
/// some 2 MB of resident memory (docs/benchmarks.md, "Memory").
public struct SHA256: ~Copyable {
    private let handle: gcry_md_hd_t

    public init() {
        var handle: gcry_md_hd_t?
        guard trackd_gcrypt_initialize() == 0, gcry_md_open(&handle, Int32(GCRY_MD_SHA256.rawValue), 0) == 0,
              let handle else {
            fatalError("libgcrypt could not start a SHA-256 digest (an older libgcrypt than trackd was built with?)")
        }
        self.handle = handle
    }

    deinit {
        gcry_md_close(handle)
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            gcry_md_write(handle, buffer.baseAddress, buffer.count)
        }
        if done == nil {
            Array(bytes).withUnsafeBufferPointer { buffer in gcry_md_write(handle, buffer.baseAddress, buffer.count) }
        }
    }

    /// The digest of everything added, in lower-case hexadecimal.
    public consuming func finalizeHex() -> String {
        guard let digest = gcry_md_read(handle, Int32(GCRY_MD_SHA256.rawValue)) else {
            fatalError("libgcrypt gave no SHA-256 digest")
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in UnsafeBufferPointer(start: digest, count: 32) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes`, in lower-case hexadecimal.
    public static func hex(of bytes: some Collection<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
