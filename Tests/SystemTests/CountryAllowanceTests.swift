import Foundation
import TestSupport
import Testing

/// A profile's country through trackctl: `trips` in its unit, each business trip's allowance and the totals, and the
/// amount that follows an edit.
struct CountryAllowanceTests {
    @Test func aUKProfileListsTripsInMilesWithTheirAllowanceAndAnEditToPrivateTakesItAway() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let set = try await trackctl(socket + ["profile", "set", "--country", "UK", "--reason", "kept for HMRC"])
        #expect(set.status == 0, "\(set.error)")
        #expect(set.output.contains("country      UK (the United Kingdom)"), "\(set.output)")
        #expect(set.output.contains("unit         miles"), "\(set.output)")
        // Distances typed in miles, as the profile reads them: 10.0 miles at 45p is £4.50.
        for trip in [["--date", "2026-03-02", "--distance", "10", "--business", "--purpose", "Site visit, Leeds"],
                     ["--date", "2026-03-03", "--distance", "5.0", "--private"]] {
            let added = try await trackctl(socket + ["add"] + trip + ["--reason", "paper log"])
            #expect(added.status == 0, "\(added.error)")
        }
        let listed = try await trackctl(socket + ["trips", "--month", "2026-03"])
        #expect(listed.status == 0, "\(listed.error)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(" mi ") == true && lines.first?.contains("Amount") == true, "\(listed.output)")
        let row = lines.first { $0.contains("Site visit") }?.split(separator: " ").map(String.init) ?? []
        #expect(row.contains("10.0") && row.contains("£4.50"), "\(listed.output)")
        #expect(lines.contains("business 10.0 mi · private 5.0 mi"), "\(listed.output)")
        #expect(lines.contains("allowance (UK): £4.50 · tax year from 2025-04-06 to 2026-03-31: £4.50"), "\(listed.output)")
        #expect(lines.contains { $0.hasPrefix("  £0.45/mi (£0.25 past 10,000 mi a tax year) from 2011-04-06 (ITEPA 2003 s. 230") },
                "\(listed.output)")
        #expect(!listed.output.contains(" km"), "no kilometres for a UK profile: \(listed.output)")

        // The business trip was private after all: no allowance any more.
        let edited = try await trackctl(socket + ["edit", "1", "--private", "--reason", "drove to a friend"])
        #expect(edited.status == 0, "\(edited.error)")
        let after = try await trackctl(socket + ["trips", "--month", "2026-03"])
        #expect(after.output.contains("allowance (UK): £0.00 · tax year from 2025-04-06 to 2026-03-31: £0.00"), "\(after.output)")

        let refused = try await trackctl(socket + ["profile", "set", "--country", "FR"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("'FR' is not a country trackd knows the rules of: EE, DE, UK or US"), "\(refused.error)")
        await daemon.stop()
    }

    @Test func aUKDriverReadsAndTypesMilesEverywhereAndTheLogKeepsTheMetres() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        var read: [String] = []
        func run(_ arguments: [String]) async throws -> String {
            let result = try await trackctl(socket + arguments)
            #expect(result.status == 0, "\(arguments): \(result.output) \(result.error)")
            read.append(result.output)
            return result.output
        }
        _ = try await run(["profile", "set", "--country", "UK", "--driver", "Ann Lee", "--plate", "AB12 CDE",
                           "--reason", "kept for HMRC"])
        // The dashboard says miles: 30,000.0 of them.
        let reading = try await run(["odometer", "set", "30000", "--reason", "dashboard"])
        #expect(reading.contains("odometer reading 30000.0 mi recorded"), "\(reading)")
        let added = try await run(["add", "--date", "2026-03-02", "--distance", "12.3", "--business",
                                   "--purpose", "Site visit, Leeds", "--destination", "1 Park Row, Leeds"])
        #expect(added.contains("30000.0–30012.3") && added.contains("12.3"), "\(added)")
        _ = try await run(["add", "--date", "2026-03-03", "--odometer-end", "30020", "--private"])
        _ = try await run(["regular", "add", "office", "--distance", "7.5", "--business", "--purpose", "Office"])
        #expect(try await run(["regular", "list"]).contains("office  7.5"))
        let shown = try await run(["show", "1"])
        #expect(shown.contains("odometer    30000.0 → 30012.3 mi") && shown.contains("distance    12.3 mi"), "\(shown)")
        let second = try await run(["show", "2"])
        #expect(second.contains("odometer    30012.3 → 30020.0 mi") && second.contains("distance    7.7 mi"), "\(second)")
        let odometer = try await run(["odometer"])
        #expect(odometer.contains("odometer     30020.0 mi") && odometer.contains("30000.0 mi"), "\(odometer)")
        _ = try await run(["trips", "--month", "2026-03"])
        _ = try await run(["check", "--month", "2026-03"])
        // The drive plays meanwhile: status with the car's position and speed.
        #expect(await daemon.reached("2026-11-22T08:04:00"), "\(daemon.process.output)")
        let status = try await run(["status"])
        #expect(status.contains(" mph") && status.contains("odometer 30020.0 mi"), "\(status)")
        for output in read {
            #expect(!output.contains("km") && !output.contains("kilomet"), "no kilometres for a UK profile: \(output)")
        }
        // The log keeps metres, and the miles printed give them back within the printed tenth.
        let shown1 = try await trackctl(socket + ["--json", "show", "1"])
        let trip = (try json(shown1.output) as? [String: Any])?["trip"] as? [String: Any]
        let metres = try #require(trip?["distance_m"] as? Double)
        #expect(abs(metres - 12.3 * 1609.344) <= 0.05 * 1609.344, "\(metres) m")
        #expect(abs((trip?["odometer_end"] as? Double ?? 0) - 30012.3 * 1.609344) <= 0.05 * 1.609344, "\(shown1.output)")
        await daemon.stop()
    }

    @Test func checkListsWhatAGermanTaxOfficeWouldQuestionAndExitsZeroOnceItIsFixed() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let set = try await trackctl(socket + ["profile", "set", "--country", "DE", "--driver", "Anna Tamm", "--plate", "B-AT 123"])
        #expect(set.status == 0, "\(set.error)")
        // Entered the day they were driven (the demo drive's GPS day: prompt), one without the business partner visited.
        let today = "2026-11-22"
        for trip in [["--purpose", "Wartung Anlage 3", "--customer", "Müller GmbH", "--destination", "Hauptstr. 5, Köln"],
                     ["--purpose", "Angebot besprechen", "--destination", "Ring 12, Bonn"]] {
            let added = try await trackctl(socket + ["add", "--date", today, "--distance", "30", "--business"] + trip)
            #expect(added.status == 0, "\(added.error)")
        }
        let found = try await trackctl(socket + ["check", "--month", "2026-11"])
        #expect(found.status == 4, "\(found.output) \(found.error)")
        let heads = found.output.split(separator: "\n").filter { !$0.hasPrefix("  ") }
        #expect(heads == ["trip 2 · customer-missing: business trip without the business partner visited",
                          "1 finding by the rules for Germany and every log's"], "\(found.output)")
        #expect(found.output.contains("  fix: trackctl edit 2 --customer \"NAME\""), "\(found.output)")

        let fixed = try await trackctl(socket + ["edit", "2", "--customer", "Schmidt KG", "--reason", "forgot"])
        #expect(fixed.status == 0, "\(fixed.error)")
        let clean = try await trackctl(socket + ["check", "--month", "2026-11"])
        #expect(clean.status == 0, "\(clean.output) \(clean.error)")
        #expect(clean.output == "nothing to question by the rules for Germany and every log's\n", "\(clean.output)")
        await daemon.stop()
        // The same from the file alone, as an accountant reads a copy of the card.
        let offline = try await trackctl(["--db", daemon.database, "--json", "check", "--month", "2026-11"])
        #expect(offline.status == 0 && offline.output == "[]\n", "\(offline.output) \(offline.error)")
    }
}
