import TestSupport
import Testing
import TrackCore

/// `NMEAProbe` decides from a port's first bytes whether a receiver talks at that speed.
struct NMEAProbeTests {
    /// "$BODY*hh\r\n" with the checksum computed.
    private func sentence(_ body: String) -> [UInt8] {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(checksum, radix: 16, uppercase: true)
        return Array("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n".utf8)
    }

    private let rmc = "GNRMC,080001.00,A,5231.00000,N,01324.00000,E,0.000,0.00,221126,,,A,V"
    private let gga = "GNGGA,080001.00,5231.00000,N,01324.00000,E,1,10,0.90,35.0,M,18.1,M,,"

    @Test func twoSentencesWithGoodChecksumsAreNMEA() {
        var probe = NMEAProbe()
        probe.feed(sentence(rmc))
        #expect(!probe.isConclusive)
        #expect(probe.verdict == .garbage(bytes: sentence(rmc).count))
        probe.feed(sentence(gga))
        #expect(probe.isConclusive)
        #expect(probe.verdict == .nmea(sentences: 2))
    }

    @Test func aReceiverWithoutFixStillTalksNMEA() {
        var probe = NMEAProbe()
        probe.feed(sentence("GPRMC,,V,,,,,,,,,,N") + sentence("GPGGA,,,,,,0,00,99.99,,,,,,"))
        #expect(probe.verdict == .nmea(sentences: 2))
    }

    @Test func sentencesCutAcrossReadsAreJoined() {
        var probe = NMEAProbe()
        let bytes = sentence(rmc) + sentence(gga)
        for byte in bytes { probe.feed([byte]) }
        #expect(probe.verdict == .nmea(sentences: 2))
        #expect(probe.bytes == bytes.count)
    }

    @Test func noiseAtTheWrongSpeedIsNotNMEA() {
        var random = SplitMix64(seed: 57)
        var probe = NMEAProbe()
        // What a UART read at the wrong speed gives: bytes of every value, now and then a '$' among them.
        let noise = (0..<8192).map { index in index % 97 == 0 ? UInt8(ascii: "$") : UInt8(truncatingIfNeeded: random.next()) }
        probe.feed(noise)
        #expect(probe.verdict == .garbage(bytes: 8192))
    }

    @Test func damagedChecksumsDoNotCount() {
        var probe = NMEAProbe()
        var damaged = sentence(rmc)
        damaged[10] ^= 0x01
        probe.feed(damaged + damaged + damaged)
        #expect(probe.verdict == .garbage(bytes: damaged.count * 3))
        #expect(probe.verified == 0)
    }

    @Test func fourSentencesWithoutChecksumsAreNMEA() {
        var probe = NMEAProbe()
        let bare = Array("$\(rmc)\r\n".utf8)
        probe.feed(bare + bare + bare)
        #expect(!probe.isConclusive)
        probe.feed(bare)
        #expect(probe.verdict == .nmea(sentences: 4))
    }

    @Test func nothingReadIsSilent() {
        let probe = NMEAProbe()
        #expect(probe.verdict == .silent)
        #expect(probe.verdict.description == "silent")
    }
}
