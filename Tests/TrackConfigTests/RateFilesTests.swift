import Foundation
import TestSupport
import Testing
@testable import TrackConfig
import TrackCore

/// Where the rate files are found and how they are read together: the package's table, then the user's folder in
/// name order; a wrong file named and left out.
struct RateFilesTests {
    @Test func thePackagesTableIsBesideTheProgramsBinFolderOrInTheSourceTreeOfABuild() {
        #expect(RateFiles.packageCandidates(environment: [:], executable: "/usr/bin/trackd")
                    == ["/usr/share/trackd/rates.conf"])
        #expect(RateFiles.packageCandidates(environment: [:], executable: "/usr/local/bin/trackctl")
                    == ["/usr/local/share/trackd/rates.conf", "/usr/share/trackd/rates.conf"])
        #expect(RateFiles.packageCandidates(environment: [:], executable: "/src/trackd/.build/x86_64-unknown-linux-gnu/debug/trackctl")
                    == ["/src/trackd/.build/x86_64-unknown-linux-gnu/share/trackd/rates.conf", "/src/trackd/etc/rates.conf",
                        "/usr/share/trackd/rates.conf"])
        #expect(RateFiles.packageCandidates(environment: ["TRACKD_RATES": "/tmp/r.conf"], executable: "/usr/bin/trackd")
                    == ["/tmp/r.conf"])
        #expect(RateFiles.userDirectory(environment: [:]) == "/etc/trackd/rates.d")
        #expect(RateFiles.userDirectory(environment: ["CONFIGURATION_DIRECTORY": "/etc/trackd"]) == "/etc/trackd/rates.d")
        #expect(RateFiles.userDirectory(environment: ["TRACKD_RATES_DIR": "/tmp/d"]) == "/tmp/d")
    }

    @Test func theUsersFilesAreReadInNameOrderAfterThePackagesAndAWrongOneIsLeftOut() throws {
        let folder = try TemporaryFolder()
        let directory = folder.file("rates.d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "rate UK 2011-04-06 0.45 after 10000 0.25 source ITEPA\n".write(toFile: folder.file("rates.conf"), atomically: true, encoding: .utf8)
        try "rate UK 2026-04-06 0.50 source first\n".write(toFile: "\(directory)/10-first.conf", atomically: true, encoding: .utf8)
        try "rate UK 2026-04-06 0.55 source second\n".write(toFile: "\(directory)/20-second.conf", atomically: true, encoding: .utf8)
        try "rate UK 2026-04-06 0.99 source not a .conf\n".write(toFile: "\(directory)/30-notes.txt", atomically: true, encoding: .utf8)
        try "rate UK 2027-04-06 0.6O source a letter O\n".write(toFile: "\(directory)/40-wrong.conf", atomically: true, encoding: .utf8)
        let files = RateFiles.load(environment: ["TRACKD_RATES": folder.file("rates.conf"), "TRACKD_RATES_DIR": directory],
                                   executable: nil)
        #expect(files.files == [folder.file("rates.conf"), "\(directory)/10-first.conf", "\(directory)/20-second.conf",
                                "\(directory)/40-wrong.conf"])
        #expect(files.table.rates(of: .unitedKingdom).map(\.rate) == [450, 550])
        #expect(files.refused.map(\.description) == ["\(directory)/40-wrong.conf:1: '0.6O' is not a rate: a number above 0 and below 10 with at most three decimals, such as 0.55"])
        #expect(files.problems.isEmpty)
    }

    @Test func noPackageTableIsSaidAndTheUsersRowsStillCount() throws {
        let folder = try TemporaryFolder()
        try "rate DE 2014-01-01 0.30 source EStG\n".write(toFile: folder.file("de.conf"), atomically: true, encoding: .utf8)
        let files = RateFiles.load(environment: ["TRACKD_RATES": folder.file("missing.conf"), "TRACKD_RATES_DIR": folder.path],
                                   executable: nil)
        #expect(files.problems == ["no rate table found (looked for \(folder.file("missing.conf"))): no allowance can be worked out"])
        #expect(files.table.rates.map(\.country) == [.germany])
    }
}
