import Foundation
import TestSupport
import Testing
import TrackCore
import TrackctlTexts

/// trackctl in the driver's language (issue 59, item 5): the terminal's where its locale names one, else the log's
/// profile's (through trackd, or from a `--db` file), its figures as the language writes them; English, as before,
/// where neither names another. The expected words are the tables' (`SaidTexts`): this checks that trackctl chooses
/// the language and says everything through them, TrackctlTextsTests that the tables are whole.
struct TrackctlLanguageTests {
    /// `key` with `values` in `language`, as trackctl's table has it.
    static func said(_ key: String, _ language: Language, _ values: String...) -> String {
        Said(key: key, values: values).text(in: language)
    }

    /// trackctl with `LANG` set to `locale` and no other locale variable.
    static func trackctl(_ arguments: [String], locale: String) async throws -> CommandResult {
        try await run(Products.trackctl, arguments, removing: ["TRACKD_SOCKET", "LC_ALL", "LC_MESSAGES", "LANGUAGE"],
                      adding: ["LANG": locale])
    }

    @Test func speaksTheProfilesLanguageUnderTheCLocaleTheTerminalsWhereItNamesOneAndEnglishOtherwise() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let added = try await Self.trackctl(socket + ["add", "--date", "2026-11-20", "--distance", "42.5", "--business",
                                                      "--purpose", "Site visit", "--start", "08:15", "--end", "09:05"],
                                            locale: "C.UTF-8")
        #expect(added.status == 0, "\(added.error)")
        let trips = socket + ["trips", "--month", "2026-11"]

        // No language in the profile, the C locale: English, as trackctl always printed it.
        let english = try await Self.trackctl(trips, locale: "C.UTF-8")
        #expect(english.output.hasPrefix("ID  Date"), "\(english.output)")
        #expect(english.output.contains("42.5") && english.output.contains("business 42.5 km · private 0.0 km"),
                "\(english.output)")

        // The profile's German under the C locale: the words, the decimal comma.
        #expect(try await Self.trackctl(socket + ["profile", "set", "--language", "de"], locale: "C.UTF-8").status == 0)
        let german = try await Self.trackctl(trips, locale: "C.UTF-8")
        #expect(german.status == 0, "\(german.error)")
        let header = german.output.split(separator: "\n").first.map(String.init) ?? ""
        for column in ["Date", "Time", "Kind", "Odometer", "Purpose", "Notes"] {
            #expect(header.contains(Self.said(column, .german)), "\(column): \(german.output)")
        }
        #expect(header.contains("Datum") && !header.contains("Purpose"), "\(german.output)")
        #expect(german.output.contains(Self.said("business {0} · private {1}", .german, "42,5 km", "0,0 km")),
                "\(german.output)")
        let shown = try await Self.trackctl(socket + ["show", "1"], locale: "C.UTF-8")
        #expect(shown.output.hasPrefix(Self.said("trip {0}: {1}, {2}, {3}", .german, "1", Self.said("business", .german),
                                                 Self.said("manual", .german), Self.said("closed", .german))),
                "\(shown.output)")
        #expect(shown.output.contains("  " + Self.said("distance", .german)) && shown.output.contains("42,5 km"),
                "\(shown.output)")
        // A refusal before trackd is asked: the terminal's language alone (C: English), then German where it says so.
        let refusedC = try await Self.trackctl(socket + ["confirm"], locale: "C.UTF-8")
        #expect(refusedC.status != 0 && refusedC.error.contains("give the trips' numbers or --all"), "\(refusedC.error)")
        let refusedDE = try await Self.trackctl(socket + ["confirm"], locale: "de_DE.UTF-8")
        #expect(refusedDE.error.contains(Self.said("give the trips' numbers or --all", .german)), "\(refusedDE.error)")

        // The terminal's own language wins over the profile's: Estonian, and English.
        let estonian = try await Self.trackctl(socket + ["status"], locale: "et_EE.UTF-8")
        #expect(estonian.status == 0, "\(estonian.error)")
        #expect(estonian.output.split(separator: "\n").contains { $0.hasPrefix("  " + Self.said("received", .estonian) + " ") },
                "\(estonian.output)")
        let estonianTrips = try await Self.trackctl(trips, locale: "et_EE.UTF-8")
        #expect(estonianTrips.output.contains(Self.said("business {0} · private {1}", .estonian, "42,5 km", "0,0 km")),
                "\(estonianTrips.output)")
        let englishTerminal = try await Self.trackctl(trips, locale: "en_GB.UTF-8")
        #expect(englishTerminal.output.hasPrefix("ID  Date") && englishTerminal.output.contains("business 42.5 km"),
                "\(englishTerminal.output)")
        await daemon.stop()

        // A log pulled off the card: the file's profile speaks, with no trackd to ask.
        let offline = try await Self.trackctl(["--db", daemon.database, "trips", "--all"], locale: "C.UTF-8")
        #expect(offline.status == 0, "\(offline.error)")
        #expect(offline.output.contains(Self.said("business {0} · private {1}", .german, "42,5 km", "0,0 km")),
                "\(offline.output)")
        // trackd out of reach: the terminal's language, or English.
        let unreachable = try await Self.trackctl(socket + ["status"], locale: "de_DE.UTF-8")
        #expect(unreachable.status == 2, "\(unreachable.error)")
        #expect(unreachable.error.contains(Self.said("no socket file", .german)), "\(unreachable.error)")
    }
}
