import Foundation
import TestSupport
import Testing
@testable import TrackService

/// Files replaced whole or not at all, including those written in pieces.
struct AtomicFileTests {
    @Test func contentsWrittenInPiecesLargerThanTheBufferArriveWholeAndInOrder() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("track.gpx")
        try AtomicFile.write(Array("old".utf8), to: path, mode: 0o640)
        let line = "      <trkpt lat=\"59.4370000\" lon=\"24.7536000\"><time>2026-11-22T08:00:00Z</time></trkpt>\n"
        let lines = 3 * AtomicFile.Output.bufferSize / line.utf8.count + 7
        try AtomicFile.write(to: path, mode: 0o640) { output in
            for number in 0..<lines { try output.write("\(number) \(line)") }
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count > 3 * AtomicFile.Output.bufferSize)
        #expect(text == (0..<lines).map { "\($0) \(line)" }.joined())
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
    }

    @Test func aFailureWhileWritingLeavesTheOldFileAndNoTemporaryOne() throws {
        struct ReadFailed: Error {}
        let folder = try TemporaryFolder()
        let path = folder.file("track.gpx")
        try AtomicFile.write(Array("the old track\n".utf8), to: path)
        #expect(throws: ReadFailed.self) {
            try AtomicFile.write(to: path) { output in
                for _ in 0..<5_000 { try output.write("a point that will never be complete\n") }
                throw ReadFailed()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old track\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["track.gpx"])
    }
}
