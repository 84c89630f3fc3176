import CGcrypt
import Testing
@testable import TrackStore

@Suite struct CRC32Tests {
    @Test func givesTheStandardCheckValue() {
        // The check value of CRC-32 (ISO 3309) over the nine digits, and of nothing.
        #expect(checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(checksum([]) == 0)
    }

    @Test func agreesWithLibgcryptsDigestSoOlderPointFilesStillRead() {
        // The point file's records were checked with libgcrypt's CRC-32 before; a file a power cut left behind by
        // that build must read the same. Buffers of every length up to a few records, with varied bytes.
        var generator = SystemRandomNumberGenerator()
        for length in [1, 3, 4, 7, 40, 63, 64, 65, 255, 1000, 4096, 10_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(checksum(bytes) == gcryptCRC32(bytes), "length \(length)")
        }
    }

    private func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { CRC32.checksum($0) }
    }

    private func gcryptCRC32(_ bytes: [UInt8]) -> UInt32 {
        #expect(trackd_gcrypt_initialize() == 0)
        var digest = [UInt8](repeating: 0, count: 4)
        bytes.withUnsafeBytes { gcry_md_hash_buffer(Int32(GCRY_MD_CRC32.rawValue), &digest, $0.baseAddress, $0.count) }
        return digest.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
