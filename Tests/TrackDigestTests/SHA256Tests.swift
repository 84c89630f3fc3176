import Testing
import TrackDigest

@Suite struct SHA256Tests {
    @Test func givesTheStandardsDigests() {
        // FIPS 180-4's examples (NIST's "SHA256.pdf") and the empty message.
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                    == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func aMessageFedInPartsHasTheDigestOfTheWhole() {
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var parts = SHA256()
        parts.update("ab".utf8)
        parts.update("c".utf8.lazy.map { $0 })   // no contiguous storage: copied first
        #expect(parts.finalizeHex() == SHA256.hex(of: Array("abc".utf8)))
    }
}
