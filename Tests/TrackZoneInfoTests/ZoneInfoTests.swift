import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackZoneInfo

struct ZoneInfoTests {
    @Test func readsAZoneFromTheSystemsFolder() throws {
        let tallinn = try #require(ZoneInfo.rules(for: "Europe/Tallinn"))
        // 2026-07-01T00:00:00Z, summer time; 2026-01-01, winter time.
        #expect(tallinn.offsetSeconds(atUnixSeconds: 1_782_864_000) == 10800)
        #expect(tallinn.offsetSeconds(atUnixSeconds: 1_767_225_600) == 7200)
        #expect(ZoneInfo.rules(for: "UTC")?.offsetSeconds(atUnixSeconds: 1_782_864_000) == 0)
    }

    @Test func knowsNoZoneTheFolderHasNoFileFor() {
        #expect(ZoneInfo.rules(for: "Europe/Talinn") == nil)
        #expect(ZoneInfo.rules(for: "Mars/Olympus_Mons") == nil)
        // A folder is not a zone.
        #expect(ZoneInfo.rules(for: "Europe") == nil)
    }

    @Test(arguments: ["", "/etc/localtime", "/usr/share/zoneinfo/UTC", "../zoneinfo/UTC", "Europe/../UTC", "..",
                      "Europe/..", "UTC\0"])
    func refusesNamesThatCouldLeaveTheFolder(name: String) {
        #expect(!ZoneInfo.isValidIdentifier(name))
        #expect(ZoneInfo.rules(for: name) == nil)
    }

    @Test func acceptsNamesWithDotsThatAreNotParentFolders() {
        #expect(ZoneInfo.isValidIdentifier("America/Argentina/Buenos_Aires"))
        #expect(ZoneInfo.isValidIdentifier("Etc/GMT+2"))
        #expect(ZoneInfo.isValidIdentifier("Zone..Name"))
    }

    @Test func readsFromTheFolderTZDIRNames() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("Test"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(ZoneInfo.defaultDirectory)/Asia/Kolkata", toPath: folder.file("Test/Zone"))
        try Data("not a zone".utf8).write(to: URL(fileURLWithPath: folder.file("Test/Bad")))
        #expect(ZoneInfo.rules(for: "Test/Zone", directory: folder.path)?.offsetSeconds(atUnixSeconds: 0) == 19800)
        #expect(ZoneInfo.rules(for: "Test/Bad", directory: folder.path) == nil)
        #expect(ZoneInfo.rules(for: "Europe/Tallinn", directory: folder.path) == nil)
        #expect(ZoneInfo.directory(environment: ["TZDIR": folder.path]) == folder.path)
        #expect(ZoneInfo.directory(environment: ["TZDIR": ""]) == "/usr/share/zoneinfo")
        #expect(ZoneInfo.directory(environment: [:]) == "/usr/share/zoneinfo")
    }
    // That the folder comes from the process's own TZDIR is tested on trackd, a process of its own, with and
    // without it: SystemdServiceTests.checksTheProfilesTimeZoneInTheFolderTZDIRNames.
}
