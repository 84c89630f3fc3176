import TrackCore

/// A period's report as an e-mail: the CSV table (`2026-11.csv`) and the printable HTML report (`2026-11.html`) as
/// attachments, the totals and the chain head in the text. What the daemon sends when a month has ended and what
/// `trackctl export --mail` sends by hand; docs/mail.md.
public enum ReportMail {
    /// The message for `report`, made at `time`; `domain` is the right-hand side of its `Message-ID` (the sender's
    /// domain, or the host's name). Throws for a profile whose time zone is unknown.
    public static func message(for report: MileageReport, from: MailAddress?, to: [MailAddress], at time: UTCTime,
                               domain: String) throws(ReportError) -> MailMessage {
        MailMessage(from: from, to: to, subject: subject(for: report), date: time,
                    messageID: messageID(for: report, at: time, domain: domain), body: body(for: report),
                    attachments: try attachments(for: report))
    }

    /// The two files: the CSV table and the printable HTML report, each named after the period.
    public static func attachments(for report: MileageReport) throws(ReportError) -> [MailAttachment] {
        [
            MailAttachment(fileName: fileName(report, .csv), contentType: "text/csv; charset=utf-8",
                           bytes: Array(try ReportRenderer.render(report, as: .csv).utf8)),
            MailAttachment(fileName: fileName(report, .html), contentType: "text/html; charset=utf-8",
                           bytes: Array(try ReportRenderer.render(report, as: .html).utf8)),
        ]
    }

    /// The attachments' file names: `2026-11.csv`, `2026-11.html`.
    public static func attachmentNames(for report: MileageReport) -> [String] {
        [fileName(report, .csv), fileName(report, .html)]
    }

    /// `Mileage log November 2026: 123 ABC, Mari Õunapuu`: the period's title, the plate and the driver.
    public static func subject(for report: MileageReport) -> String {
        let who = [report.profile.plate, report.profile.driver].compactMap { $0?.nilIfEmpty }
        let language = report.profile.spokenLanguage
        return MailLabels.of(language).subject(periodTitle(of: report, in: language))
            + (who.isEmpty ? "" : ": " + who.joined(separator: ", "))
    }

    /// `trackd.2026-11.3f9a0c1b2d4e.1796104800000@example.org`: the period, the start of the chain head and the
    /// instant in milliseconds, so that two sendings of a month never share an id.
    public static func messageID(for report: MileageReport, at time: UTCTime, domain: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        let right = String(domain.filter(allowed.contains)).nilIfEmpty ?? "localhost"
        let period = String(periodName(of: report).filter(allowed.contains)).nilIfEmpty ?? "report"
        let head = report.chainHead.map { String($0.prefix(12)) }?.nilIfEmpty ?? "nochain"
        let milliseconds = time.nanosecondsSinceEpoch / 1_000_000
        return "trackd.\(period).\(head).\(milliseconds)@\(right)"
    }

    /// The period's name in the files' names and the log's record: `2026-11` for a calendar month (also when it
    /// was asked for as `last-month`), else the period as asked (`2026-11-01..2026-11-15`).
    public static func periodName(of report: MileageReport) -> String {
        if let from = report.from, let until = report.until, from.day == 1, until == from.firstOfNextMonth {
            return LogPeriod.month(year: from.year, month: from.month).description
        }
        return report.period
    }

    /// The period's title in `language`: a month's in its words (`Oktober 2026`), any other (and English) as the
    /// report gives it.
    private static func periodTitle(of report: MileageReport, in language: Language) -> String {
        language == .english ? report.periodTitle : ReportLabels.of(language).periodTitle(report)
    }

    /// The text the reader sees: what is attached, the totals, and the chain head that anchors the report; in the
    /// profile's language (the attachments are in the report's).
    public static func body(for report: MileageReport) -> String {
        let language = report.profile.spokenLanguage
        let mail = MailLabels.of(language), labels = ReportLabels.of(language), check = CheckWords.of(language)
        var lines = [mail.attached(periodTitle(of: report, in: language), periodName(of: report), fileName(report, .csv),
                                   fileName(report, .html)), ""]
        let profile = report.profile
        for (label, value) in [(labels.driver, profile.driver), (labels.plate, profile.plate), (labels.company, profile.company)] {
            if let value = value?.nilIfEmpty { lines.append("\(label): \(value)") }
        }
        for line in ReportSummary(report).lines {
            let label = switch line.kind {
            case "all": mail.total
            case "business": mail.business
            case "private": mail.private
            case "commute": mail.commute
            default: mail.unclassified
            }
            let distance = labels.number(DistanceUnit.text(tenths: line.tenths))
            lines.append("\(label): \(distance) \(profile.distanceUnit.rawValue) (\(labels.tripCount(line.trips)))")
        }
        if let allowance = report.allowance {
            var line = mail.allowance("\(allowance.country)", labels.number(allowance.currency.text(minor: allowance.total)))
            for year in allowance.taxYears {
                line += mail.taxYear(year.from, year.through, labels.number(allowance.currency.text(minor: year.total)))
            }
            lines.append(line)
            if allowance.unconfirmed {
                lines.append(labels.unconfirmedRates(allowance.checkedThrough))
            }
        }
        if let findings = report.findings {
            lines.append(findings.isEmpty ? mail.checkClean : mail.checkFound(findings.count))
            for finding in findings {
                lines.append("- \(finding.trip.map(check.trip) ?? check.profile): \(finding.problem)")
            }
        }
        lines.append("")
        if let head = report.chainHead {
            lines.append(mail.chainHead(head))
            lines.append(mail.verify)
        } else {
            lines.append(mail.noChain)
        }
        lines.append(mail.madeBy(report.generator, report.generatedAt.iso8601(fractionDigits: 0)))
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func fileName(_ report: MileageReport, _ format: ReportFormat) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let stem = String(periodName(of: report).filter(allowed.contains)).nilIfEmpty ?? "report"
        return "\(stem).\(format.fileExtension)"
    }
}

extension String {
    /// `nil` for an empty text.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
