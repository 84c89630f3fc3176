import Foundation
import TestSupport
import Testing
import TrackCore
import TrackReports

/// The month's report as a mail: the CSV table and the printable report attached exactly as the exports render
/// them, named after the month, the totals and the chain head in the text.
struct ReportMailTests {
    static let sent = UTCTime.at("2026-11-02T07:31:00Z")

    static func message(_ report: MileageReport = ReportFixture.report()) throws -> MailMessage {
        try ReportMail.message(for: report, from: nil, to: [try MailAddress("driver@example.org")], at: sent,
                               domain: "example.org")
    }

    @Test func theMonthsMessageAttachesTheCSVAndTheHTMLExactlyAsRendered() throws {
        let report = ReportFixture.report()
        let parsed = try ParsedMail.parse(Data(try Self.message(report).bytes))
        #expect(parsed.defects.isEmpty)
        let files = parsed.parts.filter { $0.disposition == "attachment" }
        #expect(files.map(\.fileName) == ["2026-10.csv", "2026-10.html"])
        #expect(files.map(\.contentType) == ["text/csv", "text/html"])
        #expect(files.first?.bytes == Data(try ReportRenderer.render(report, as: .csv).utf8))
        #expect(files.last?.bytes == Data(try ReportRenderer.render(report, as: .html).utf8))
    }

    @Test func theSubjectNamesTheMonthThePlateAndTheDriver() throws {
        let parsed = try ParsedMail.parse(Data(try Self.message().bytes))
        #expect(parsed.headers["subject"] == "Mileage log October 2026: 123 ABC, Jüri Õunapuu")
        #expect(parsed.headers["to"] == "driver@example.org")
    }

    @Test func theTextGivesTheTotalsAndTheChainHead() throws {
        let report = ReportFixture.report()
        let body = ReportMail.body(for: report)
        #expect(body.contains("2026-10.csv") && body.contains("2026-10.html"))
        #expect(body.contains("Chain head when the report was made: \(report.chainHead!)"))
        #expect(body.contains("Total: \(LogTrip.kilometresText(tenths: report.totals.all)) km"))
        #expect(body.contains("Driver: Jüri Õunapuu"))
    }

    @Test func aProfileInGermanOrEstonianHasTheMailInItsWordsAndFigures() throws {
        var report = ReportFixture.report()
        report.profile.language = .german
        let german = ReportMail.body(for: report)
        #expect(ReportMail.subject(for: report) == "Fahrtenbuch Oktober 2026: 123 ABC, Jüri Õunapuu")
        #expect(german.hasPrefix("Anbei das Fahrtenbuch für Oktober 2026 (2026-10): 2026-10.csv für eine Tabellenkalkulation"))
        #expect(german.contains("Fahrer: Jüri Õunapuu\r\n") && german.contains("Kennzeichen: 123 ABC\r\n"))
        let total = LogTrip.kilometresText(tenths: report.totals.all).replacingOccurrences(of: ".", with: ",")
        #expect(german.contains("Gesamt: \(total) km ("), "\(german)")
        #expect(german.contains("Kettenkopf bei Erstellung des Berichts: \(report.chainHead!)"))
        report.profile.language = .estonian
        let estonian = ReportMail.body(for: report)
        #expect(ReportMail.subject(for: report) == "Sõidupäevik oktoober 2026: 123 ABC, Jüri Õunapuu")
        #expect(estonian.contains("Juht: Jüri Õunapuu\r\n") && estonian.contains("Kokku: \(total) km ("))
        #expect(estonian.contains("Ahela pea aruande koostamise ajal: \(report.chainHead!)"))
        // No line of either is the English mail's (but the empty ones).
        report.profile.language = nil
        let english = Set(ReportMail.body(for: report).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init))
        for body in [german, estonian] {
            let same = body.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init).filter { english.contains($0) }
            #expect(same.allSatisfy { $0.isEmpty }, "\(same)")
        }
    }

    @Test func theMessageIDNamesTheMonthTheChainHeadAndTheInstant() throws {
        let id = try Self.message().messageID
        #expect(id == "trackd.2026-10.0123456789ab.\(Self.sent.nanosecondsSinceEpoch / 1_000_000)@example.org")
        let odd = ReportMail.messageID(for: ReportFixture.report(), at: Self.sent, domain: "my host>")
        #expect(odd.hasSuffix("@myhost"))
    }

    @Test func aMonthAskedAsLastMonthIsNamedByItsNumber() throws {
        var report = ReportFixture.report()
        report.period = LogPeriod.lastMonth.description
        #expect(ReportMail.periodName(of: report) == "2026-10")
        #expect(ReportMail.attachmentNames(for: report) == ["2026-10.csv", "2026-10.html"])
        #expect(try Self.message(report).messageID.hasPrefix("trackd.2026-10."))
    }
}
