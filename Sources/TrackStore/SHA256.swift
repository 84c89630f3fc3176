import CCrypto

/// SHA-256 through OpenSSL's libcrypto (EVP), fed in parts: the hash chain's digests.
struct SHA256: ~Copyable {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest (out of memory)")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds `bytes` to what is hashed.
    mutating func update(_ bytes: some Collection<UInt8>) {
        let done = bytes.withContiguousStorageIfAvailable { buffer in
            EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        } ?? Array(bytes).withUnsafeBufferPointer { buffer in
            EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
        precondition(done == 1, "libcrypto's SHA-256 update failed")
    }

    /// The digest of everything added, in lower-case hexadecimal.
    consuming func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32, "libcrypto's SHA-256 failed")
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes`, in lower-case hexadecimal.
    static func hex(of bytes: some Collection<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
