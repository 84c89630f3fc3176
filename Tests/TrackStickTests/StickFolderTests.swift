import Foundation
import SystemPackage
import Testing
import TestSupport
import TrackDigest
@testable import TrackStick

/// A car's folder on a stick brought up to date: only what changed is written, what went is removed, files of
/// anyone else's and a damaged manifest are handled, and nothing is ever left half written under its name.
struct StickFolderTests {
    private func file(_ name: String, _ text: String) -> StickFile {
        let bytes = Array(text.utf8)
        return StickFile(name: name, fingerprint: SHA256.hex(of: bytes)) { () throws(StickError) -> [UInt8] in bytes }
    }

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    private func names(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func writesEveryFileThenOnlyWhatChanged() throws {
        let stick = try TemporaryFolder()
        var folder = StickFolder(path: stick.file("trackd/AB-123"))
        let first = try folder.update(to: [file("2026-10.csv", "october"), file("2026-11.csv", "november")])
        #expect(first.written == ["2026-10.csv", "2026-11.csv"])
        #expect(first.unchanged.isEmpty && first.removed.isEmpty)
        #expect(try contents(stick.file("trackd/AB-123/2026-11.csv")) == "november")
        #expect(try names(stick.file("trackd/AB-123")) == [".trackd-manifest", "2026-10.csv", "2026-11.csv"])

        var again = StickFolder(path: stick.file("trackd/AB-123"))
        let manifest = try contents(stick.file("trackd/AB-123/.trackd-manifest"))
        let second = try again.update(to: [file("2026-10.csv", "october"), file("2026-11.csv", "november, edited")])
        #expect(second.written == ["2026-11.csv"])
        #expect(second.unchanged == ["2026-10.csv"])
        #expect(try contents(stick.file("trackd/AB-123/2026-11.csv")) == "november, edited")
        #expect(try contents(stick.file("trackd/AB-123/.trackd-manifest")) != manifest)

        var third = StickFolder(path: stick.file("trackd/AB-123"))
        let same = try third.update(to: [file("2026-10.csv", "october"), file("2026-11.csv", "november, edited")])
        #expect(same.written.isEmpty && same.bytes == 0, "nothing written when nothing changed: \(same)")
    }

    @Test func aFileChangedOrShortenedOnTheStickIsWrittenAgain() throws {
        let stick = try TemporaryFolder()
        var folder = StickFolder(path: stick.file("trackd/car"))
        _ = try folder.update(to: [file("2026-11.html", "<p>the report</p>")])
        try Data("<p>the rep".utf8).write(to: URL(fileURLWithPath: stick.file("trackd/car/2026-11.html")))
        var again = StickFolder(path: stick.file("trackd/car"))
        let outcome = try again.update(to: [file("2026-11.html", "<p>the report</p>")])
        #expect(outcome.written == ["2026-11.html"])
        #expect(try contents(stick.file("trackd/car/2026-11.html")) == "<p>the report</p>")
    }

    @Test func removesOnlyItsOwnFilesThatWentAndLeavesAPersonsFiles() throws {
        let stick = try TemporaryFolder()
        var folder = StickFolder(path: stick.file("trackd/car"))
        _ = try folder.update(to: [file("2026-10.gpx", "tracks"), file("2026-11.gpx", "tracks")])
        try Data("mine".utf8).write(to: URL(fileURLWithPath: stick.file("trackd/car/notes.txt")))
        var again = StickFolder(path: stick.file("trackd/car"))
        let outcome = try again.update(to: [file("2026-11.gpx", "tracks")])
        #expect(outcome.removed == ["2026-10.gpx"])
        #expect(try names(stick.file("trackd/car")) == [".trackd-manifest", "2026-11.gpx", "notes.txt"])
    }

    @Test func aTemporaryFileLeftByAnInterruptedCopyIsRemovedAndItsFileWritten() throws {
        let stick = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: stick.file("trackd/car"), withIntermediateDirectories: true)
        try Data("half a rep".utf8).write(to: URL(fileURLWithPath: stick.file("trackd/car/.2026-11.html.partial")))
        var folder = StickFolder(path: stick.file("trackd/car"))
        let outcome = try folder.update(to: [file("2026-11.html", "half a report, and the rest")])
        #expect(outcome.written == ["2026-11.html"])
        #expect(try names(stick.file("trackd/car")) == [".trackd-manifest", "2026-11.html"])
    }

    @Test func aDamagedManifestCostsFilesWrittenAgainNeverAFileLeftOut() throws {
        let stick = try TemporaryFolder()
        var folder = StickFolder(path: stick.file("trackd/car"))
        _ = try folder.update(to: [file("2026-10.csv", "a"), file("2026-11.csv", "b")])
        let path = stick.file("trackd/car/.trackd-manifest")
        let damaged = try contents(path).replacingOccurrences(of: " 2026-10.csv", with: " 2026-10.c\u{0}sv")
            + "garbage line\n\u{FF}\u{FE}"
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
        var again = StickFolder(path: stick.file("trackd/car"))
        let outcome = try again.update(to: [file("2026-10.csv", "a"), file("2026-11.csv", "b")])
        #expect(outcome.written == ["2026-10.csv"])
        #expect(outcome.unchanged == ["2026-11.csv"])
        #expect(StickManifest(parsing: try contents(path)).entries.keys.sorted() == ["2026-10.csv", "2026-11.csv"])
    }

    @Test func writeErrorsAreNamedByWhatTheyMeanForTheStick() {
        // The errors themselves are met in StickTests, on mounted images (read-only, full, pulled out).
        let error = StickError.writing("/x", step: "creating", errno: .readOnlyFileSystem)
        #expect(error.reason == "the stick is read-only")
        #expect(StickError.writing("/x", step: "writing", errno: .noSpace).reason == "the stick is full")
        #expect(StickError.writing("/x", step: "writing", errno: .ioError).reason == "the stick's filesystem is damaged")
        #expect(StickError.writing("/x", step: "writing", errno: Errno(rawValue: ENOTCONN)).reason == "the stick was pulled out")
        #expect(StickError.writing("/x", step: "renaming", errno: .permissionDenied).reason == "renaming failed: \(Errno.permissionDenied)")
    }

    @Test func theCarsFolderIsItsPlateInCapitalsElseCar() {
        #expect(StickCopier.folderName(plate: "123 abc") == "123-ABC")
        #expect(StickCopier.folderName(plate: " B-MW 1234 ") == "B-MW-1234")
        #expect(StickCopier.folderName(plate: "../../etc") == "ETC")
        #expect(StickCopier.folderName(plate: "") == "car")
        #expect(StickCopier.folderName(plate: nil) == "car")
    }
}
