import Foundation
import TestSupport
import Testing
@testable import TrackConfig

/// The `profile:` section's time zone, checked against the system's time-zone database without Foundation's.
struct ProfileSettingsTests {
    /// A real zone file (Debian's tzdata, which the package depends on).
    private let tallinn = FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Tallinn")
    @Test func aTimeZoneIsATZifFileOfTheDatabase() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("Europe"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.file("Europe/Tallinn"), contents: tallinn))
        #expect(FileManager.default.createFile(atPath: folder.file("Europe/Notes"), contents: Data("not a zone".utf8)))
        #expect(FileManager.default.createFile(atPath: folder.file("Short"), contents: Data("TZ".utf8)))
        #expect(ProfileSettings.isTimeZone("Europe/Tallinn", folder: folder.path))
        #expect(!ProfileSettings.isTimeZone("Europe/Notes", folder: folder.path), "a file that is not TZif")
        #expect(!ProfileSettings.isTimeZone("Short", folder: folder.path))
        #expect(!ProfileSettings.isTimeZone("Europe", folder: folder.path), "a folder")
        #expect(!ProfileSettings.isTimeZone("Europe/Riga", folder: folder.path), "no such file")
        #expect(!ProfileSettings.isTimeZone("", folder: folder.path))
    }

    @Test func aNameCannotLeaveTheDatabase() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("zones"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.file("Outside"), contents: tallinn))
        #expect(!ProfileSettings.isTimeZone("../Outside", folder: folder.file("zones")))
        #expect(!ProfileSettings.isTimeZone(folder.file("Outside"), folder: folder.file("zones")), "an absolute path")
        #expect(ProfileSettings.isTimeZone("Outside", folder: folder.path), "the same file is a zone inside the database")
    }

    @Test func theSystemsDatabaseKnowsRealZonesOnly() {
        #expect(ProfileSettings.isTimeZone("Europe/Tallinn"))
        #expect(ProfileSettings.isTimeZone("UTC"))
        #expect(!ProfileSettings.isTimeZone("Mars/Olympus"))
        #expect(!ProfileSettings.isTimeZone("Europe/Tallinn\0"), "a name with a NUL byte")
        for name in ["localtime", "posixrules", "posix/Europe/Tallinn", "right/UTC"] {
            #expect(!ProfileSettings.isTimeZone(name), "\(name): a TZif file, but no zone's id")
        }
    }
}
