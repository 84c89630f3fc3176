import Foundation
import Testing
import TrackService

/// `systemd/trackd.catalog` as journalctl reads it: built into a catalog database under a root of its own (the
/// machine's catalog is left alone) and listed back.
struct JournalCatalogTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let journalctl = ["/usr/bin/journalctl", "/bin/journalctl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: journalctl != nil, "needs journalctl (Debian's systemd package)"))
    func journalctlExplainsEveryMessageIDFromTheCatalog() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-catalog-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalogs = folder.appendingPathComponent("usr/lib/systemd/catalog")
        try FileManager.default.createDirectory(at: catalogs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("systemd/trackd.catalog"),
                                         to: catalogs.appendingPathComponent("trackd.catalog"))

        let update = try run(["--root", folder.path, "--update-catalog"])
        #expect(update.status == 0, "\(update.output)")
        let list = try run(["--root", folder.path, "--list-catalog"])
        #expect(list.status == 0, "\(list.output)")

        // One line per entry: "ID trackd: Subject".
        let subjects = Dictionary(list.output.split(separator: "\n").map { line in
            (String(line.prefix(32)), String(line.dropFirst(33)))
        }, uniquingKeysWith: { first, _ in first })
        for id in LogMessageID.allCases {
            #expect(subjects[id.rawValue]?.hasPrefix("trackd: ") == true, "\(id) (\(id.rawValue)) is not in the catalog")
        }
        #expect(subjects.count == LogMessageID.allCases.count, "the catalog has entries for no message id: \(subjects)")
        #expect(subjects[LogMessageID.idleAlert.rawValue] == "trackd: Idle alert: the vehicle has stood still during trip @TRIP_ID@")
    }

    @Test func everyMessageIDIsA128BitIDOfItsOwn() {
        let ids = LogMessageID.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        }
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.journalctl!)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
