import Foundation
import TestSupport
import Testing

/// A month driven in each country's profile, as a driver keeps it: the bundled drive recorded by trackd and trips
/// entered by hand, some of them deliberately incomplete. `trackctl check` lists exactly those faults and nothing
/// else; fixed, it exits 0; the month's report is printed to PDF by headless Chromium, in the country's form and
/// language. With `TRACKD_REPORT_PDFS=FOLDER` the PDFs are kept there (docs/countries.md: the pictures).
struct CountryMonthTests {
    /// What differs between the countries: the words of a vague purpose, what trip 5 leaves out and how it is fixed,
    /// the finding that says so, and the rules' name in check's last line.
    struct Plan: Sendable, CustomTestStringConvertible {
        let code: String
        let name: String
        let vague: String
        let trip5: [String]
        let trip5Finding: String?
        let trip5Fix: [String]
        /// Trip 1's detour, in the country's language.
        let detour: String
        let reportWords: [String]
        /// Business trips the country's rules find without the postcodes of their ends (HMRC asks them), and the
        /// commands that give them.
        var postcodesMissing: [Int] = []
        var postcodeFixes: [[String]] = []
        var testDescription: String { code }
    }

    static let plans = [
        Plan(code: "EE", name: "Estonia", vague: "ametisõit", trip5: ["--purpose", "Objekti ülevaatus, Tartu"],
             trip5Finding: nil, trip5Fix: [], detour: "4 km läbi Ülemiste, tee suletud",
             reportWords: ["Sõidupäevik", "Läbisõit km", "ametisõit", "Sõiduhüvitis (Eesti)", "erasõit (kodu–töö)"]),
        Plan(code: "DE", name: "Germany", vague: "Dienstfahrt",
             trip5: ["--purpose", "Angebot besprechen", "--destination", "Ring 12, 53111 Bonn"],
             trip5Finding: "trip 5 · customer-missing: business trip without the business partner visited",
             trip5Fix: ["--customer", "Schmidt KG"], detour: "4 km über Ülemiste, Straße gesperrt",
             reportWords: ["Fahrtenbuch", "km-Stand Beginn", "Reiseziel mit Anschrift", "Aufgesuchte Geschäftspartner",
                           "Dienstlich km", "Steuerjahr vom 2026-01-01 bis 2026-11-30",
                           "<td class=\"text\">4 km über Ülemiste, Straße gesperrt</td>",
                           "Summe Wohnung–Arbeitsstätte (1 Fahrt)"]),
        Plan(code: "UK", name: "the United Kingdom", vague: "Business trip",
             trip5: ["--purpose", "Quarterly review", "--customer", "Leeds Tools Ltd"],
             trip5Finding: "trip 5 · destination-missing: business trip without its destination",
             trip5Fix: ["--destination", "1 Park Row, Leeds LS1 5AB"], detour: "2 mi via the depot, road closed",
             reportWords: ["private (commute)", "Mileage log", "Odometer start", "Allowance (the United Kingdom)", "Tax year from 2026-04-06"],
             postcodesMissing: [1, 3, 5, 6],
             postcodeFixes: [
                ["place", "add", "Leeds office", "--at", "53.7997,-1.5492", "--address", "1 Park Row, Leeds LS1 5AB"],
                ["place", "add", "Example Ltd", "--at", "53.4668,-2.3151", "--address", "Unit 4, Trafford Park, Manchester M17 1DQ"],
             ] + [1, 3, 5, 6].map { ["edit", "\($0)", "--from", "Leeds office", "--to", "Example Ltd"] }),
        Plan(code: "US", name: "the United States", vague: "work trip",
             trip5: ["--purpose", "Quarterly review", "--customer", "Acme Inc."],
             trip5Finding: "trip 5 · destination-missing: business trip without its destination",
             trip5Fix: ["--destination", "100 Main St, Springfield IL"], detour: "2 mi via the depot, road closed",
             reportWords: ["private (commute)", "Mileage log", "Allowance (the United States)", "$0.725/mi"]),
    ]

    @Test(arguments: plans)
    func checkListsExactlyTheDeliberateFaultsAndNothingOnceTheyAreFixed(plan: Plan) async throws {
        let folder = try TemporaryFolder()
        // The drive at eight times its pace: the changes below are stamped with its GPS time (2026-11-22), so that
        // Germany's seven days are counted from the drive's day, not from the day the test runs. Its first seconds
        // (the car parked) until the trip is started, then the rest: a busy machine's slow commands cannot outlast it.
        let feed = try DriveFeed(DriveLog.demo, at: folder.file("drive.fifo"))
        let drive = try await Trackd.start(state: folder.path, source: "file://\(feed.path)?speed=8")
        try await feed.give(through: 8 * 3600 + 5, while: drive.process)
        #expect(await drive.reached("2026-11-22T08:00:01"), "\(drive.process.output)")
        let socket = ["--socket", drive.socket]
        func ask(_ arguments: [String], status: Int32 = 0) async throws -> CommandResult {
            let result = try await trackctl(socket + arguments)
            #expect(result.status == status, "\(arguments): \(result.output) \(result.error) \(drive.process.isRunning ? "" : drive.process.output)")
            return result
        }
        // The profile names the driver but not the plate (a fault).
        _ = try await ask(["profile", "set", "--country", plan.code, "--driver", "Kim Berg", "--reason", "new log"])
        _ = try await ask(["odometer", "set", "25000", "--reason", "dashboard"])
        // Trips by hand, in the log's order: 1 (with a detour) and 2 (the way to work) complete, 3 with a vague
        // purpose, 4 unclassified, 5 without what plan.trip5 leaves out.
        let complete = ["--customer", "Example Ltd", "--destination", "Tartu mnt 1, 10145 Tallinn"]
        for trip in [["--date", "2026-11-16", "--distance", "42.5", "--business", "--purpose", "Delivery of spare parts",
                      "--detour", plan.detour] + complete,
                     ["--date", "2026-11-17", "--distance", "12.0", "--commute"],
                     ["--date", "2026-11-18", "--distance", "30.2", "--business", "--purpose", plan.vague] + complete,
                     ["--date", "2026-11-19", "--distance", "8.3", "--unclassified"],
                     ["--date", "2026-11-20", "--distance", "64.0", "--business"] + plan.trip5] {
            _ = try await ask(["add"] + trip + ["--reason", "paper log"])
        }
        // The drive itself, trip 6: business, its purpose left for later (a fault).
        _ = try await ask(["start", "--business", "--customer", "Example Ltd", "--destination", "Sadama 25, 10111 Tallinn"])
        try await feed.finish(while: drive.process)
        #expect(await drive.exitStatus(waitingUpTo: 600) == 0, "trackd ends with its file: \(drive.process.output)")

        // From the card, with no daemon: exactly the deliberate faults.
        let found = try await trackctl(["--db", drive.database, "check", "--month", "2026-11"])
        #expect(found.status == 4, "\(found.output) \(found.error)")
        let heads = found.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") }
        var findings = [(0, "profile · profile-plate: the profile names no registration plate"),
                        (3, "trip 3 · purpose-vague: purpose \"\(plan.vague)\" says nothing of what the trip was for"),
                        (4, "trip 4 · unclassified: neither business nor private")]
            + (plan.trip5Finding.map { [(5, $0)] } ?? [])
            + [(6, "trip 6 · purpose-missing: business trip without a purpose")]
        findings += plan.postcodesMissing.map {
            ($0, "trip \($0) · postcodes-missing: business journey without the start's and the end's postcodes")
        }
        // In the log's order, each trip's findings in the rules' order.
        let expected = findings.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        #expect(heads == expected + ["\(expected.count) findings by the rules for \(plan.name) and every log's"],
                "\(found.output)")

        // The same drive again (no trip this time) for its clock, and the faults fixed.
        let clock = try DriveFeed(DriveLog.demo, at: folder.file("drive-again.fifo"))
        let again = try await Trackd.start(state: folder.path, source: "file://\(clock.path)?speed=4", run: 1)
        try await clock.give(through: 8 * 3600 + 5, while: again.process)
        #expect(await again.reached("2026-11-22T08:00:01"), "\(again.process.output)")
        let fixing = ["--socket", again.socket]
        var fixes: [[String]] = [["profile", "set", "--plate", "AB-123", "--reason", "forgot it"],
                                 ["edit", "3", "--purpose", "Site visit at Example Ltd", "--reason", "made precise"],
                                 ["edit", "4", "--private", "--reason", "drove home"],
                                 ["edit", "6", "--purpose", "Delivery to the harbour", "--reason", "given after the drive"]]
        if !plan.trip5Fix.isEmpty {
            let trip5: [String] = ["edit", "5"] + plan.trip5Fix + ["--reason", "looked it up"]
            fixes.append(trip5)
        }
        for postcodes in plan.postcodeFixes {
            let fix: [String] = postcodes + ["--reason", "the postcodes HMRC asks"]
            fixes.append(fix)
        }
        for fix in fixes {
            let fixed = try await trackctl(fixing + fix)
            #expect(fixed.status == 0, "\(fix): \(fixed.output) \(fixed.error)")
        }
        let clean = try await trackctl(fixing + ["check", "--month", "2026-11"])
        #expect(clean.status == 0, "\(clean.output) \(clean.error)")
        #expect(clean.output == "nothing to question by the rules for \(plan.name) and every log's\n", "\(clean.output)")
        let html = folder.file("2026-11-\(plan.code).html")
        let exported = try await trackctl(fixing + ["export", "--format", "html", "--month", "2026-11", "--output", html])
        #expect(exported.status == 0, "\(exported.error)")
        clock.end()
        #expect(await again.exitStatus(waitingUpTo: 120) == 0, "trackd ends with its file: \(again.process.output)")

        // Printed as a person prints it: headless Chromium's PDF, A4, landscape for the German form's fifteen columns.
        // (Tests/Browser/print_pdf.py says why through chromedriver.)
        let report = try String(contentsOfFile: html, encoding: .utf8)
        for word in plan.reportWords { #expect(report.contains(word), "\(word) in the \(plan.code) report") }
        let pdf = ProcessInfo.processInfo.environment["TRACKD_REPORT_PDFS"].map { "\($0)/report-2026-11-\(plan.code).pdf" }
            ?? folder.file("report.pdf")
        let printed = try await HeadlessPrint.print(html, to: pdf, work: folder.file("chromium"))
        try #require(printed.status == 0, "printing exited \(printed.status): \(printed.output)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(bytes.starts(with: Data("%PDF-".utf8)))
        let text = String(decoding: bytes, as: UTF8.self)
        let pages = text.components(separatedBy: "/MediaBox [0 0 ").dropFirst().map { $0.prefix(while: { $0 != "]" }) }
        #expect(!pages.isEmpty, "no pages in \(pdf)")
        // A4 is 210 × 297 mm, 595.28 × 841.89 points; the German form on landscape pages. Within a point, whatever
        // rounding the browser writes.
        let (width, height) = plan.code == "DE" ? (841.89, 595.28) : (595.28, 841.89)
        let sizes = pages.map { $0.split(separator: " ").compactMap { Double($0) } }
        #expect(sizes.allSatisfy { $0.count == 2 && abs($0[0] - width) <= 1 && abs($0[1] - height) <= 1 }, "\(Set(pages))")
    }
}
