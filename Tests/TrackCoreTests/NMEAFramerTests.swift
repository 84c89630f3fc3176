import TestSupport
import Testing
@testable import TrackCore

/// Cuts everything the framer emits out of `input`, fed in chunks.
private func frame(_ input: [UInt8], chunkSize: Int? = nil,
                   configuration: NMEAFramer.Configuration = NMEAFramer.Configuration())
    -> (sentences: [String], dropped: [NMEAFramingProblem], statistics: NMEAFramingStatistics) {
    var framer = NMEAFramer(configuration: configuration)
    var sentences: [String] = []
    var dropped: [NMEAFramingProblem] = []
    let handle: (NMEAFramer.Event) -> Void = { event in
        switch event {
        case .sentence(let bytes, _): sentences.append(String(decoding: bytes, as: UTF8.self))
        case .dropped(let problem, _, _): dropped.append(problem)
        }
    }
    let size = max(1, chunkSize ?? input.count)
    var start = 0
    while start < input.count {
        framer.feed(input[start..<min(start + size, input.count)], handle)
        start += size
    }
    framer.finish(handle)
    return (sentences, dropped, framer.statistics)
}

private func frame(_ text: String, chunkSize: Int? = nil) -> (sentences: [String], dropped: [NMEAFramingProblem], statistics: NMEAFramingStatistics) {
    frame(Array(text.utf8), chunkSize: chunkSize)
}

struct NMEAFramerTests {
    @Test func splitsOnCRLFAndLFAndCRCRLF() {
        let result = frame("$GPAAA,1*00\r\n$GPBBB,2*00\n$GPCCC,3*00\r\r\n")
        #expect(result.sentences == ["$GPAAA,1*00", "$GPBBB,2*00", "$GPCCC,3*00"])
        #expect(result.dropped.isEmpty)
    }

    @Test func skipsBlankLinesCommentsAndBanners() {
        let input = "# Name: test log\n\n************ program startup ************\n\r\n$GPAAA,1*00\r\n   \r\n"
        let result = frame(input)
        #expect(result.sentences == ["$GPAAA,1*00"])
        #expect(result.statistics.junkBytes > 0)
        #expect(result.dropped.isEmpty)
    }

    @Test func givesTheSameSentencesWhateverTheChunkSize() {
        var input = Array("garbage\r\n$GPAAA,1,2,3*00\r\n".utf8)
        input += NMEA.ubxFrame(class: 0x01, id: 0x07, payload: Array(repeating: 0x24, count: 40))
        input += Array("$GPBBB,4*00\r\n$GPCCC,5*00".utf8)
        let whole = frame(input)
        for size in [1, 2, 3, 7, 64] {
            let chunked = frame(input, chunkSize: size)
            #expect(chunked.sentences == whole.sentences, "chunk size \(size)")
            #expect(chunked.statistics == whole.statistics, "chunk size \(size)")
        }
        #expect(whole.sentences == ["$GPAAA,1,2,3*00", "$GPBBB,4*00", "$GPCCC,5*00"])
    }

    @Test func dropsOverlongLinesAndReadsTheNextSentence() {
        var configuration = NMEAFramer.Configuration()
        configuration.maxSentenceLength = 40
        let long = "$GPXXX," + String(repeating: "9", count: 100) + "*00\r\n"
        let result = frame(Array((long + "$GPAAA,1*00\r\n").utf8), configuration: configuration)
        #expect(result.sentences == ["$GPAAA,1*00"])
        #expect(result.dropped == [.overlong])
        #expect(result.statistics.overlongLines == 1)
    }

    @Test func countsAnOverlongLineTheSameWhereverTheReadsSplitIt() {
        // Found by scripts/fuzz nmea (minimized): the part of an overlong line that arrived in a later read was
        // counted as junk bytes, the same part read at once was not.
        let input = Array(("$GP000.00,52332,N,00020,E,1,09,20,E,1,09,0.1,M,39.6.,40.2,M,6,V,GGA,120000.00,523132,N,000,09,"
            + "0.9,40.1,M,39." + String(repeating: "Z", count: 57) + "6,V,,(P5P5Int" + String(repeating: "Z", count: 18)
            + "40.2,M,39.6,V,,(P5P5Int" + String(repeating: "Z", count: 16) + "40.2,M,39.6,V,,(P5P5Int").utf8)
        #expect(input.count == 258)
        let whole = frame(input)
        #expect(whole.dropped == [.overlong])
        #expect(whole.statistics.junkBytes == 0)
        for cut in 0...input.count {
            var framer = NMEAFramer()
            var dropped: [NMEAFramingProblem] = []
            let handle: (NMEAFramer.Event) -> Void = { if case .dropped(let problem, _, _) = $0 { dropped.append(problem) } }
            framer.feed(input[..<cut], handle)
            framer.feed(input[cut...], handle)
            framer.finish(handle)
            #expect(dropped == whole.dropped, "cut at \(cut)")
            #expect(framer.statistics == whole.statistics, "cut at \(cut)")
        }
    }

    @Test func keepsALastSentenceWithoutLineEndWhenItsChecksumIsThere() {
        #expect(frame("$GPAAA,1*00\r\n$GPBBB,2*3F").sentences == ["$GPAAA,1*00", "$GPBBB,2*3F"])
    }

    @Test func dropsALastSentenceCutShortAtTheEnd() {
        let result = frame("$GPAAA,1*00\r\n$GPBBB,2,3,")
        #expect(result.sentences == ["$GPAAA,1*00"])
        #expect(result.dropped == [.truncatedAtEnd])
    }

    @Test func readsTwoSentencesGluedWithoutALineBreak() {
        let result = frame("$GPAAA,1*00$GPBBB,2*00\r\n")
        #expect(result.sentences == ["$GPAAA,1*00", "$GPBBB,2*00"])
        #expect(result.statistics.missingLineBreaks == 1)
    }

    @Test func dropsASentenceInterruptedByANewDollar() {
        let result = frame("$GPAAA,1,2$GPBBB,2*00\r\n")
        #expect(result.sentences == ["$GPBBB,2*00"])
        #expect(result.dropped == [.interrupted])
    }

    @Test func restartsOnADoubledDollarPrefix() {
        let result = frame("$$GNRMC,1*00\r\n")
        #expect(result.sentences == ["$GNRMC,1*00"])
        #expect(result.dropped.isEmpty)
    }

    @Test func skipsUBXFramesWholeEvenWhenTheirPayloadHoldsDollars() {
        let payload = Array("$GPGGA,fake,inside,binary*00\r\n".utf8) + [0x00, 0xFF, 0x0A]
        var input = NMEA.ubxFrame(class: 0x01, id: 0x07, payload: payload)
        input += Array("$GPAAA,1*00\r\n".utf8)
        input += NMEA.ubxFrame(class: 0x01, id: 0x02, payload: [])
        input += Array("$GPBBB,2*00\r\n".utf8)
        let result = frame(input)
        #expect(result.sentences == ["$GPAAA,1*00", "$GPBBB,2*00"])
        #expect(result.statistics.binaryFrames == 2)
        #expect(result.dropped.isEmpty)
    }

    @Test func rescansAFalseUBXSyncForText() {
        // 0xB5 0x62 followed by a length that does not fit: not a frame, the text after it is still read.
        var input: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xFF, 0x7F]
        input += Array("$GPAAA,1*00\r\n".utf8)
        // A frame-shaped run with a wrong checksum, hiding a sentence.
        input += [0xB5, 0x62, 0x01, 0x07, 20, 0x00] + Array("$GPBBB,2*00\r\n".utf8) + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let result = frame(input)
        #expect(result.sentences.contains("$GPAAA,1*00"))
        #expect(result.sentences.contains("$GPBBB,2*00"))
    }

    @Test func dropsASentenceWithBinaryBytesInsideAndReadsTheNextOne() {
        var input = Array("$GPAAA,1,".utf8) + [0x00, 0x81, 0xFE]
        input += Array("junk\r\n$GPBBB,2*00\r\n".utf8)
        let result = frame(input)
        #expect(result.sentences == ["$GPBBB,2*00"])
        #expect(result.dropped == [.binaryData])
    }

    @Test func survivesRandomBinaryNoise() {
        var generator = SplitMix64(seed: 42)
        var input: [UInt8] = []
        for round in 0..<200 {
            for _ in 0..<Int(generator.next() % 300) { input.append(UInt8(truncatingIfNeeded: generator.next())) }
            input += Array("\r\n$GPAAA,\(round)*00\r\n".utf8)
        }
        let result = frame(input, chunkSize: 97)
        // Noise may swallow a sentence only when it ends inside a would-be sentence; most must come through.
        let clean = result.sentences.filter { $0.hasPrefix("$GPAAA,") }
        #expect(clean.count >= 190)
        #expect(result.statistics.bytes == input.count)
    }

    @Test func countsLinesForDiagnostics() {
        var framer = NMEAFramer()
        var positions: [NMEASourcePosition] = []
        framer.feed(Array("# header\n\n$GPAAA,1*00\r\n$GPBBB".utf8)) { event in
            if case .sentence(_, let position) = event { positions.append(position) }
        }
        framer.feed(Array(",2*00\r\n".utf8)) { event in
            if case .sentence(_, let position) = event { positions.append(position) }
        }
        #expect(positions.map(\.line) == [3, 4])
        #expect(positions[0].byteOffset == 10)
    }
}
