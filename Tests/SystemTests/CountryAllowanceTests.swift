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

    @Test func aUKAprilPaysTheTripsBeforeAndAfterTheSixthByTheirOwnTaxYearAndTotalsEach() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--country", "UK", "--reason", "kept for HMRC"]).status == 0)
        // 3 April 2026 is in the tax year 2025-26, 10 April in 2026-27.
        for date in ["2026-04-03", "2026-04-10"] {
            let added = try await trackctl(socket + ["add", "--date", date, "--distance", "10", "--business",
                                                     "--purpose", "Site visit, Leeds", "--reason", "paper log"])
            #expect(added.status == 0, "\(added.error)")
        }
        let listed = try await trackctl(socket + ["trips", "--month", "2026-04"])
        #expect(listed.status == 0, "\(listed.error)")
        // 45p in 2025-26, 55p from 6 April 2026 (HMRC's rate announced in May 2026, backdated).
        let rows = listed.output.split(separator: "\n").filter { $0.contains("Site visit") }
        #expect(rows.count == 2 && rows[0].contains("£4.50") && rows[1].contains("£5.50"), "\(listed.output)")
        #expect(listed.output.contains("allowance (UK): £10.00 · tax year from 2025-04-06 to 2026-04-05: £4.50"
                                       + " · tax year from 2026-04-06 to 2026-04-30: £5.50"), "\(listed.output)")
        // The report has each tax year's summary, and the same amounts from the file alone.
        await daemon.stop()
        let html = try await trackctl(["--db", daemon.database, "export", "--format", "html", "--month", "2026-04"])
        #expect(html.status == 0, "\(html.error)")
        #expect(html.output.contains("Tax year from 2025-04-06 to 2026-04-05") && html.output.contains("Tax year from 2026-04-06 to 2026-04-30"),
                "\(html.output)")
        let offline = try await trackctl(["--db", daemon.database, "trips", "--month", "2026-04"])
        #expect(offline.output == listed.output, "\(offline.output)")
    }

    @Test func aRateAddedInTheRatesFolderChangesAPastMonthsReportAndAWrongRowIsRefusedWithItsFileAndLine() async throws {
        let folder = try TemporaryFolder()
        let rates = folder.file("rates.d")
        try FileManager.default.createDirectory(atPath: rates, withIntermediateDirectories: true)
        let environment = ["TRACKD_RATES_DIR": rates]
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10", environment: environment)
        let socket = ["--socket", daemon.socket]
        func ctl(_ arguments: [String]) async throws -> CommandResult {
            try await run(Products.trackctl, socket + arguments, removing: ["TRACKD_SOCKET"], adding: environment)
        }
        #expect(try await ctl(["profile", "set", "--country", "UK", "--reason", "kept for HMRC"]).status == 0)
        let added = try await ctl(["add", "--date", "2026-04-10", "--distance", "10", "--business", "--purpose", "Site visit, Leeds",
                                   "--reason", "paper log"])
        #expect(added.status == 0, "\(added.error)")
        func aprilReport() async throws -> String {
            let html = try await ctl(["export", "--format", "html", "--month", "2026-04"])
            #expect(html.status == 0, "\(html.error)")
            return html.output
        }
        let head = try await ctl(["--json", "verify"])
        // The shipped table: 55p from 6 April 2026.
        let before = try await aprilReport()
        #expect(before.contains("£5.50") && !before.contains("£6.00"), "\(before)")
        // An accountant's row, with its source: the same month's report pays it, from the next report on.
        try Data("# ours\nrate UK 2026-04-06 0.60 after 10000 0.30 source Letter from our accountant, 1 December 2026\n".utf8)
            .write(to: URL(fileURLWithPath: "\(rates)/accountant.conf"))
        let after = try await aprilReport()
        #expect(after.contains("£6.00") && after.contains("Letter from our accountant, 1 December 2026"), "\(after)")
        let listed = try await ctl(["trips", "--month", "2026-04"])
        #expect(listed.output.contains("allowance (UK): £6.00"), "\(listed.output)")
        let shown = try await ctl(["rates", "--country", "UK", "--on", "2026-04-10"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.contains("2026-04-06  £0.60/mi (£0.30 past 10,000 mi a tax year)   in force on 2026-04-10"), "\(shown.output)")
        #expect(shown.output.contains("read from \(rates)/accountant.conf:2"), "\(shown.output)")

        // A wrong row: its file is named with the line and left out whole; the rest still count.
        try Data("rate UK 2026-04-06 0,6x source typed in a hurry\n".utf8).write(to: URL(fileURLWithPath: "\(rates)/wrong.conf"))
        let refused = try await ctl(["rates", "--country", "UK"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("\(rates)/wrong.conf:1: '0,6x' is not a rate"), "\(refused.error)")
        let still = try await aprilReport()
        #expect(still.contains("£6.00"), "\(still)")
        // The log itself never changed: the same chain, intact.
        let verified = try await ctl(["--json", "verify"])
        #expect(verified.status == 0 && verified.output == head.output, "\(verified.output) \(head.output)")
        await daemon.stop()
    }

    @Test func statusTripsTheReportAndCheckSayWhenThePeriodReachesPastTheDayTheRatesAreKnownTo() async throws {
        let folder = try TemporaryFolder()
        // The shipped table, but the US rates known only to 30 June 2026; the drive is of 22 November 2026.
        let shipped = try String(contentsOfFile: ShippedRates.path, encoding: .utf8)
        let table = shipped.replacingOccurrences(of: "checked US 2026-12-31", with: "checked US 2026-06-30")
        #expect(table != shipped)
        try table.write(toFile: folder.file("rates.conf"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.file("rates.d"), withIntermediateDirectories: true)
        let environment = ["TRACKD_RATES": folder.file("rates.conf"), "TRACKD_RATES_DIR": folder.file("rates.d")]
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10", environment: environment)
        func ctl(_ arguments: [String]) async throws -> CommandResult {
            try await run(Products.trackctl, ["--socket", daemon.socket] + arguments, removing: ["TRACKD_SOCKET"], adding: environment)
        }
        #expect(try await ctl(["profile", "set", "--country", "US", "--driver", "Ann Lee", "--plate", "7ABC123",
                               "--reason", "kept for the IRS"]).status == 0)
        let added = try await ctl(["add", "--date", "2026-11-20", "--distance", "10", "--business", "--purpose", "Site visit",
                                   "--destination", "12 Main St, Springfield", "--reason", "paper log"])
        #expect(added.status == 0, "\(added.error)")
        #expect(await poll(upTo: 60) { await daemon.status()?["last_fix"] != nil }, "\(daemon.process.output)")
        let status = try await ctl(["status"])
        #expect(status.output.contains("  rates    US's allowance rates are known to hold only to 2026-06-30: trips from then on"),
                "\(status.output)")
        let listed = try await ctl(["trips", "--month", "2026-11"])
        #expect(listed.output.contains("the rates for US are known only to 2026-06-30: amounts after it are at the last rate known"),
                "\(listed.output)")
        #expect(listed.output.contains("$7.25"), "still worked out, at the last rate known: \(listed.output)")
        let html = try await ctl(["export", "--format", "html", "--month", "2026-11"])
        #expect(html.output.contains("The rates are known to hold only to 2026-06-30"), "\(html.output)")
        let check = try await ctl(["--json", "check", "--month", "2026-11"])
        #expect(check.status == 4, "\(check.output) \(check.error)")
        #expect(check.output.contains("\"rule\":\"rate-unconfirmed\""), "\(check.output)")
        // Known to the year's end (the shipped table): none of it.
        try shipped.write(toFile: folder.file("rates.conf"), atomically: true, encoding: .utf8)
        let confirmed = try await ctl(["--json", "check", "--month", "2026-11"])
        #expect(confirmed.status == 0 && confirmed.output == "[]\n", "\(confirmed.output) \(confirmed.error)")
        #expect(!(try await ctl(["status"])).output.contains("  rates "))
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
        // The journey's start is a named place with its postcode, its end a destination with one (HMRC asks both).
        let office = try await trackctl(socket + ["place", "add", "Office", "--at", "53.7961,-1.5536",
                                                  "--address", "1 Wellington St, Leeds LS1 4DL"])
        #expect(office.status == 0, "\(office.error)")
        let added = try await run(["add", "--date", "2026-03-02", "--distance", "12.3", "--business", "--from", "Office",
                                   "--purpose", "Site visit, Leeds", "--destination", "1 Park Row, Leeds LS1 5AB"])
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

    @Test func aGermanCompanyCarsFahrtenbuchHasNoKilometreAllowanceAndTheDriversOwnCarHasIt() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let socket = ["--socket", daemon.socket]
        func ctl(_ arguments: [String]) async throws -> CommandResult {
            let result = try await trackctl(socket + arguments)
            #expect(result.status == 0, "\(arguments): \(result.output) \(result.error)")
            return result
        }
        _ = try await ctl(["profile", "set", "--country", "DE", "--driver", "Anna Tamm", "--plate", "B-AT 123",
                           "--reason", "Fahrtenbuch"])
        _ = try await ctl(["add", "--date", "2026-11-20", "--distance", "30", "--business", "--purpose", "Wartung Anlage 3",
                           "--customer", "Müller GmbH", "--destination", "Hauptstr. 5, 50667 Köln", "--reason", "Papier"])
        // Not said: the driver's own car, as before: 30 km at 0.30 €/km.
        let unsaid = try await ctl(["trips", "--month", "2026-11"])
        #expect(unsaid.output.contains("allowance (DE): 9.00 €"), "\(unsaid.output)")

        let company = try await ctl(["profile", "set", "--car", "company", "--reason", "Firmenwagen seit November"])
        #expect(company.output.contains("car          a company car"), "\(company.output)")
        #expect(company.output.contains("rate         none: a company car has no mileage allowance"), "\(company.output)")
        let listed = try await ctl(["trips", "--month", "2026-11"])
        #expect(!listed.output.contains("€") && !listed.output.contains("allowance"), "\(listed.output)")
        #expect(listed.output.contains("Wartung Anlage 3"), "\(listed.output)")
        let html = try await ctl(["export", "--format", "html", "--month", "2026-11"]).output
        #expect(html.contains("Firmenwagen (keine Kilometerpauschale)"), "the Fahrtenbuch says whose car")
        #expect(!html.contains("Reisekosten") && !html.contains("€"), "no kilometre allowance in a company car's Fahrtenbuch")
        #expect(html.contains("Dienstlich km"), "the business kilometres are still there")

        // The driver's own car: the allowance is back, and the change is in the history and the chain.
        let own = try await ctl(["profile", "set", "--car", "own", "--reason", "eigenes Auto"])
        #expect(own.output.contains("car          the driver's own"), "\(own.output)")
        let back = try await ctl(["export", "--format", "html", "--month", "2026-11"]).output
        #expect(back.contains("Privatfahrzeug des Fahrers") && back.contains("Reisekosten") && back.contains("9,00 €"),
                "\(back.count) bytes")
        _ = try await ctl(["verify"])  // (exits 0 only when the chain is intact)
        let refused = try await trackctl(socket + ["profile", "set", "--car", "leased"])
        #expect(refused.status != 0 && refused.error.contains("'leased' is not whose car: own or company"), "\(refused.error)")
        await daemon.stop()
    }

    @Test func checkListsWhatAGermanTaxOfficeWouldQuestionAndExitsZeroOnceItIsFixed() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let set = try await trackctl(socket + ["profile", "set", "--country", "DE", "--driver", "Anna Tamm", "--plate", "B-AT 123"])
        #expect(set.status == 0, "\(set.error)")
        // Entered the day they were driven (the demo drive's GPS day: prompt), one without the business partner visited.
        // A change is stamped with trackd's GPS time: wait for its first fixes, else the wall clock's day stamps it.
        #expect(await daemon.reached("2026-11-22T08:00:01"), "\(daemon.process.output)")
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
        // In the profile's language: the same finding in German, the command as typed.
        #expect(try await trackctl(socket + ["profile", "set", "--language", "de"]).status == 0)
        let german = try await trackctl(socket + ["check", "--month", "2026-11"])
        #expect(german.status == 4, "\(german.output) \(german.error)")
        #expect(german.output.split(separator: "\n").filter { !$0.hasPrefix("  ") }
                == ["Fahrt 2 · customer-missing: Dienstfahrt ohne aufgesuchten Geschäftspartner",
                    "1 Befund nach den Regeln für Deutschland und für jedes Fahrtenbuch"], "\(german.output)")
        #expect(german.output.contains("  Abhilfe: trackctl edit 2 --customer \"NAME\" --reason \"…\""), "\(german.output)")
        #expect(try await trackctl(socket + ["profile", "set", "--language", ""]).status == 0)

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
