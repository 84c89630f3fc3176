import TestSupport
import Testing
@testable import TrackCore

struct NMEAReaderTests {
    /// A u-center style capture: text with binary frames, a comment, damaged and unchecked sentences.
    private func capture() -> [UInt8] {
        var bytes = Array("# captured with u-center\r\n".utf8)
        bytes += NMEA.ubxFrame(class: 0x01, id: 0x07, payload: Array(repeating: 0x24, count: 92))
        bytes += Array(NMEA.lines(
            "GNRMC,085451.00,A,0120.51239,N,10340.80820,E,0.017,,081022,,,D,V",
            "GNGGA,085451.00,0120.51239,N,10340.80820,E,2,12,0.58,58.7,M,5.4,M,,0000",
            "GNGSA,A,3,10,23,32,25,22,26,31,16,,,,,1.01,0.58,0.83,1"
        ).utf8)
        bytes += NMEA.ubxFrame(class: 0x01, id: 0x35, payload: Array(0..<200).map { UInt8($0) })
        bytes += Array("$GNRMC,085452.00,A,0120.51240,N,10340.80821,E,0.015,,081022,,,D,V*00\r\n".utf8)  // bad checksum
        bytes += Array("$GNGGA,085452.00,0120.51240,N,10340.80821,E,2,12,0.58,58.7,M,5.4,M,,0000\r\n".utf8)  // no checksum
        bytes += Array(NMEA.lines("GNGSA,A,3,10,23,32,25,22,26,31,16,,,,,1.01,0.58,0.83,1").utf8)
        bytes += Array(NMEA.lines(
            "PUBX,00,085452.00,0120.51240,N,10340.80821,E",
            "GNTXT,01,01,02,u-blox AG - www.u-blox.com",
            "GNRMC,085453.00,A,0120.51241,N,10340.80822,E,0.011,,081022,,,D,V",
            "GNGGA,085453.00,0120.51241,N,10340.80822,E,2,12,0.58,58.7,M,5.4,M,,0000"
        ).utf8)
        bytes += [0x00, 0xFF, 0x24, 0x47, 0x0D, 0x0A]  // junk with a '$' in it
        bytes += Array("$GNRMC,085454.00,A,0120.5".utf8)  // the capture stopped mid-sentence
        return bytes
    }

    @Test func readsACaptureWithBinaryFramesAndCountsEverythingItPassedOver() throws {
        let result = NMEA.read(capture())
        // 08:54:52 lost its RMC (bad checksum) and its GGA (no checksum in a checksummed stream).
        #expect(result.fixes.count == 2)
        #expect(result.fixes.allSatisfy { $0.mode == .threeD && $0.quality == .dgps })
        #expect(result.fixes.map(\.time) == [.iso("2022-10-08T08:54:51Z"), .iso("2022-10-08T08:54:53Z")])
        let statistics = result.statistics
        #expect(statistics.framing.binaryFrames == 2)
        #expect(statistics.badChecksums == 1)
        #expect(statistics.malformedSentences == 1)
        #expect(statistics.missingChecksums == 0)
        #expect(statistics.proprietarySentences == 1)
        #expect(statistics.unsupportedSentences == 1)
        #expect(statistics.framing.truncatedAtEnd == 1)
        #expect(statistics.epochs == 2)
        #expect(statistics.positionFixes == 2)
        #expect(statistics.sentencesByType[.rmc] == 2)
        #expect(statistics.sentencesByType[.gga] == 2)
        #expect(statistics.framing.bytes == capture().count)
    }

    @Test func reportsEachRejectedSentenceWithItsLineAndReason() throws {
        let result = NMEA.read(capture())
        #expect(result.problems.count == 3)
        #expect(result.problems[1].problem == .sentence(.checksumMissing))
        let checksum = try #require(result.problems.first)
        guard case .sentence(.badChecksum(let stated, _)) = checksum.problem else {
            Issue.record("expected the checksum problem first, got \(checksum)")
            return
        }
        #expect(stated == 0)
        #expect(checksum.excerpt.hasPrefix("$GNRMC,085452.00"))
        // Line 6: the second binary frame carries a line-feed byte, which a text view shows as a line break too.
        #expect(checksum.position.line == 6)
        #expect(result.problems.last?.problem == .framing(.truncatedAtEnd))
    }

    @Test func acceptsSentencesWithoutChecksumsFromAReceiverThatSendsNone() {
        let input = "$GPGGA,222449,3746.4406,N,12225.1830,W,1,05,1.5,10.0,M,-31.0,M,,\r\n"
            + "$GPRMC,222449,A,3746.4406,N,12225.1830,W,0.0,0.0,251010,,\r\n"
            + "$GPGGA,222450,3746.4407,N,12225.1831,W,1,05,1.5,10.0,M,-31.0,M,,\r\n"
        let result = NMEA.read(input)
        #expect(result.fixes.count == 2)
        #expect(result.problems.isEmpty)
        #expect(result.statistics.missingChecksums == 3)
    }

    @Test func rejectsASentenceCutShortInAStreamThatCarriesChecksums() {
        var input = ""
        for second in 10..<15 {
            input += NMEA.lines("GPRMC,1000\(second),A,4807.038,N,01131.000,E,0.0,0.0,221126,,")
        }
        // The line lost its end, checksum and all, yet what is left still reads as a valid RMC.
        input += "$GPRMC,100015,A,4807.0,N,01131.000,E,0.0\r\n"
        let result = NMEA.read(input)
        #expect(result.fixes.count == 5)
        #expect(result.problems.map(\.problem) == [.sentence(.checksumMissing)])
    }

    @Test func readsTheSameFixesWhateverTheChunkSize() {
        let whole = NMEA.read(capture())
        for size in [1, 5, 64, 1000] {
            let chunked = NMEA.read(capture(), chunkSize: size)
            #expect(chunked.fixes == whole.fixes, "chunk size \(size)")
            #expect(chunked.statistics == whole.statistics, "chunk size \(size)")
        }
    }

    @Test func neverStopsOnGarbage() {
        var generator = SplitMix64(seed: 7)
        let pieces = ["$GPGGA,", "$GPRMC,", "$GNGSA,A,", "$GPGST,", "$GPZDA,", ",", "*", "4807.038", "N", "E", "W",
                      "123519", "A", "V", "\r\n", "\n", "$", "-", ".", "99", "", "230394", "$P", "\u{00}"]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int(generator.next() % 80) {
                text += pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            var bytes = Array(text.utf8)
            if generator.next() % 4 == 0 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
            let result = NMEA.read(bytes, chunkSize: Int(generator.next() % 17) + 1)
            #expect(result.statistics.framing.bytes == bytes.count)
            for fix in result.fixes where fix.hasPosition {
                #expect(abs(fix.latitude!) <= 90 && abs(fix.longitude!) <= 180)
            }
        }
    }
}
