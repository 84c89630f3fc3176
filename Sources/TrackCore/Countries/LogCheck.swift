/// The log checked as an auditor would read it: every entry a tax office would question, with the rule and what
/// would fix it. Rules for every log (the profile's driver and plate, unclassified trips, business trips without a
/// purpose or with a vague one, gaps and overlaps in the odometer), and the country's own (docs/countries.md). Pure:
/// the log's entries in, findings out.
public enum LogCheck {
    /// A change to an entry, on the local date it was made (`entry`: the entry was added by hand).
    public struct Change: Sendable, Hashable {
        public var trip: TripID
        public var field: String
        public var date: CivilDate

        public init(trip: TripID, field: String, date: CivilDate) {
            self.trip = trip
            self.field = field
            self.date = date
        }
    }

    /// Days after a trip within which Germany expects its entry and its changes ("zeitnah").
    public static let promptDays: Int64 = 7

    /// Purposes that say nothing of what the trip was for, as written alone (case, spaces and a final full stop
    /// aside), in the languages of the countries.
    public static let vaguePurposes: Set<String> = [
        "business", "business trip", "work", "work trip", "job", "trip", "drive", "travel", "meeting", "errand",
        "ametisõit", "töösõit", "tööasjad", "tööasi", "töö", "sõit",
        "dienstfahrt", "dienstreise", "geschäftsfahrt", "geschäftsreise", "geschäftlich", "dienstlich", "fahrt",
    ]

    /// The findings for `entries` (a period's, in the log's order), with `before`, the last entry before the period
    /// (for the odometer's first link), `changes` made to them, and the allowance `rates` (business trips past the
    /// last day the country's rates are known to hold for are paid at a rate that may have changed); in the words of
    /// `words` (the profile's language when not given).
    public static func findings(profile: LogProfile, entries: [LogTrip], before: LogTrip? = nil,
                                changes: [Change] = [], rates: RateTable? = nil, words: CheckWords? = nil) -> [LogFinding] {
        let country = profile.country
        let w = words ?? .of(profile.spokenLanguage)
        var findings: [LogFinding] = []
        if profile.driver == nil {
            findings.append(LogFinding(rule: .profileDriver, trip: nil, problem: w.noDriver,
                                       why: w.whoAsks(country, w.driver),
                                       fix: "trackctl profile set --driver \"\(w.nameValue)\" --reason \"\(w.reasonValue)\""))
        }
        if profile.plate == nil {
            findings.append(LogFinding(rule: .profilePlate, trip: nil, problem: w.noPlate,
                                       why: w.whoAsks(country, w.plate),
                                       fix: "trackctl profile set --plate \"\(w.plateValue)\" --reason \"\(w.reasonValue)\""))
        }
        let counted = entries.filter { $0.counts && $0.state == .closed }
        var previous = before
        for trip in counted {
            findings += tripFindings(trip, country: country, changes: changes.filter { $0.trip == trip.id }, words: w)
            if let link = odometerLink(from: previous, to: trip, unit: profile.distanceUnit, words: w) { findings.append(link) }
            if trip.reportedTenths.end != nil { previous = trip }
        }
        if let country, profile.rate == nil, profile.paysAllowance, let rates {
            let through = rates.checked[country]?.through
            let past = counted.filter { trip in
                trip.kind == .business && trip.date.map { rates.isUnconfirmed(country, on: $0) } == true
            }
            if let first = past.first {
                findings.append(LogFinding(
                    rule: .rateUnconfirmed, trip: first.id, problem: w.rateUnconfirmed(past.count, country, through),
                    why: w.rateWhy(country), fix: w.rateFix("trackctl rates --country \(country.rawValue)")))
            }
        }
        return findings
    }

    private static func tripFindings(_ trip: LogTrip, country: Country?, changes: [Change], words w: CheckWords) -> [LogFinding] {
        var findings: [LogFinding] = []
        let id = trip.id
        let edit = "trackctl edit \(id)"
        let reason = "--reason \"\(w.reasonValue)\""
        if trip.kind == .unclassified {
            findings.append(LogFinding(rule: .unclassified, trip: id, problem: w.unclassified, why: w.unclassifiedWhy,
                                       fix: "\(edit) --business --purpose \"…\" (\(w.orPrivate) --private) \(reason)"))
        }
        if trip.toConfirm, trip.kind != .unclassified {
            findings.append(LogFinding(rule: .toConfirm, trip: id, problem: w.toConfirm(trip.rule?.text ?? ""), why: w.toConfirmWhy,
                                       fix: w.toConfirmFix("trackctl confirm \(id)", "\(edit) --business/--private \(reason)")))
        }
        guard trip.kind == .business else { return findings }
        let purpose = trip.purpose?.trimmingWhitespace ?? ""
        if purpose.isEmpty {
            findings.append(LogFinding(rule: .purposeMissing, trip: id, problem: w.purposeMissing,
                                       why: w.whoAsks(country, w.purposeOfEach),
                                       fix: "\(edit) --purpose \"\(w.purposeValue)\" \(reason)"))
        } else if vaguePurposes.contains(normalized(purpose)) {
            findings.append(LogFinding(rule: .purposeVague, trip: id, problem: w.purposeVague(purpose),
                                       why: w.whoAsks(country, w.precisePurpose(purpose)),
                                       fix: "\(edit) --purpose \"\(w.whomValue)\" \(reason)"))
        }
        if country == .germany, trip.customer?.trimmingWhitespace.isEmpty ?? true {
            findings.append(LogFinding(rule: .customerMissing, trip: id, problem: w.customerMissing,
                                       why: w.whoAsks(country, w.partnersVisited),
                                       fix: "\(edit) --customer \"\(w.nameValue)\" \(reason)"))
        }
        let destination = !(trip.destination?.trimmingWhitespace.isEmpty ?? true) || trip.endPlace?.address != nil
        if [.germany, .unitedKingdom, .unitedStates].contains(country), !destination {
            findings.append(LogFinding(rule: .destinationMissing, trip: id,
                                       problem: country == .germany ? w.addressMissing : w.destinationMissing,
                                       why: w.whoAsks(country, country == .germany ? w.destinationWithAddress : w.destinationOfEach),
                                       fix: "\(edit) --destination \"\(w.addressValue)\" \(reason) (\(w.orNamedPlace))"))
        }
        if country == .unitedKingdom {
            let start = trip.startPlace?.address.map(UKPostcode.contains) ?? false
            let end = (trip.endPlace?.address.map(UKPostcode.contains) ?? false)
                || (trip.destination.map(UKPostcode.contains) ?? false)
            if !start || !end {
                findings.append(LogFinding(rule: .postcodesMissing, trip: id, problem: w.postcodesMissing(w.postcodes(!start, !end)),
                                           why: w.postcodesWhy, fix: w.postcodesFix(edit)))
            }
        }
        if country == .germany, let date = trip.date {
            let late = changes.filter { $0.date.daysSinceEpoch - date.daysSinceEpoch > promptDays }
            if let latest = late.max(by: { $0.date < $1.date }) {
                let days = latest.date.daysSinceEpoch - date.daysSinceEpoch
                let fields = late.contains { $0.field == "entry" } ? nil : Set(late.map(\.field)).sorted()
                findings.append(LogFinding(rule: .notPrompt, trip: id, problem: w.late(fields, days),
                                           why: w.lateWhy(promptDays), fix: w.lateFix(promptDays)))
            }
        }
        return findings
    }

    /// A gap or an overlap between the odometer at the end of `previous` and at the start of `trip`, as the log
    /// prints them in `unit`.
    private static func odometerLink(from previous: LogTrip?, to trip: LogTrip, unit: DistanceUnit,
                                     words w: CheckWords) -> LogFinding? {
        guard let previous, let end = previous.reportedTenths(in: unit).end, let start = trip.reportedTenths(in: unit).start,
              start != end
        else { return nil }
        let name = unit.rawValue
        // The figures as the language writes them: a decimal comma in German and Estonian (the command's stays a point).
        let comma = w.language != .english
        let text = { (tenths: Int64) in
            let figure = DistanceUnit.text(tenths: tenths)
            return (comma ? String(figure.map { $0 == "." ? "," : $0 }) : figure) + " " + name
        }
        let difference = DistanceUnit.text(tenths: abs(start - end))
        let ends = w.ends(previous.id, text(end), trip.id, text(start))
        if start > end {
            return LogFinding(rule: .odometerGap, trip: trip.id, problem: w.gap(text(abs(start - end)), ends),
                              why: w.gapWhy, fix: w.gapFix(difference))
        }
        return LogFinding(rule: .odometerOverlap, trip: trip.id, problem: w.overlap(text(abs(start - end)), ends),
                          why: w.overlapWhy, fix: w.overlapFix(trip.id, previous.id))
    }

    /// Lower case, spaces trimmed, a final full stop dropped.
    private static func normalized(_ purpose: String) -> String {
        var text = purpose.lowercased().trimmingWhitespace
        while text.hasSuffix(".") || text.hasSuffix("!") { text.removeLast() }
        return text.trimmingWhitespace
    }
}
