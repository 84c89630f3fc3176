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
    /// last day the country's rates are known to hold for are paid at a rate that may have changed).
    public static func findings(profile: LogProfile, entries: [LogTrip], before: LogTrip? = nil,
                                changes: [Change] = [], rates: RateTable? = nil) -> [LogFinding] {
        let country = profile.country
        var findings: [LogFinding] = []
        if profile.driver == nil {
            findings.append(LogFinding(rule: .profileDriver, trip: nil, problem: "the profile names no driver",
                                       why: whoAsks(country, for: "the driver"),
                                       fix: "trackctl profile set --driver \"NAME\" --reason \"…\""))
        }
        if profile.plate == nil {
            findings.append(LogFinding(rule: .profilePlate, trip: nil, problem: "the profile names no registration plate",
                                       why: whoAsks(country, for: "the car's registration plate"),
                                       fix: "trackctl profile set --plate \"PLATE\" --reason \"…\""))
        }
        let counted = entries.filter { $0.counts && $0.state == .closed }
        var previous = before
        for trip in counted {
            findings += tripFindings(trip, country: country, changes: changes.filter { $0.trip == trip.id })
            if let link = odometerLink(from: previous, to: trip, unit: profile.distanceUnit) { findings.append(link) }
            if trip.reportedTenths.end != nil { previous = trip }
        }
        if let country, profile.rate == nil, profile.paysAllowance, let rates {
            let through = rates.checked[country]?.through
            let past = counted.filter { trip in
                trip.kind == .business && trip.date.map { rates.isUnconfirmed(country, on: $0) } == true
            }
            if let first = past.first {
                let count = past.count == 1 ? "a business trip" : "\(past.count) business trips"
                findings.append(LogFinding(
                    rule: .rateUnconfirmed, trip: first.id,
                    problem: "\(count) paid at the last rate known: "
                        + (through.map { "\(country.rawValue)'s rates are known to hold only to \($0)" }
                           ?? "the rate table confirms no day of \(country.rawValue)'s rates"),
                    why: "an allowance is tax-free only at the rate in force on the trip's day, and "
                        + "\(country == .unitedKingdom ? "HMRC" : country == .unitedStates ? "the IRS" : "the law") may have set another since",
                    fix: "trackctl rates --country \(country.rawValue); a new rate goes, with its source, in a file in "
                        + "/etc/trackd/rates.d/ (docs/countries.md, \"The allowance\")"))
            }
        }
        return findings
    }

    private static func tripFindings(_ trip: LogTrip, country: Country?, changes: [Change]) -> [LogFinding] {
        var findings: [LogFinding] = []
        let id = trip.id
        let edit = "trackctl edit \(id)"
        if trip.kind == .unclassified {
            findings.append(LogFinding(rule: .unclassified, trip: id, problem: "neither business nor private",
                                       why: "a log's every trip is one or the other; an unclassified one counts as private",
                                       fix: "\(edit) --business --purpose \"…\" (or --private) --reason \"…\""))
        }
        if trip.toConfirm, trip.kind != .unclassified {
            findings.append(LogFinding(rule: .toConfirm, trip: id,
                                       problem: "classified by rule '\(trip.rule?.text ?? "")', not confirmed by the driver",
                                       why: "the driver answers for every entry; a classification no one has confirmed is the logger's guess",
                                       fix: "trackctl confirm \(id) (or \(edit) --business/--private --reason \"…\")"))
        }
        guard trip.kind == .business else { return findings }
        let purpose = trip.purpose?.trimmingWhitespace ?? ""
        if purpose.isEmpty {
            findings.append(LogFinding(rule: .purposeMissing, trip: id, problem: "business trip without a purpose",
                                       why: whoAsks(country, for: "the purpose of each business trip"),
                                       fix: "\(edit) --purpose \"what it was for\" --reason \"…\""))
        } else if vaguePurposes.contains(normalized(purpose)) {
            findings.append(LogFinding(rule: .purposeVague, trip: id, problem: "purpose \"\(purpose)\" says nothing of what the trip was for",
                                       why: whoAsks(country, for: "a precise purpose (a customer, a site, an errand), not \"\(purpose)\" alone"),
                                       fix: "\(edit) --purpose \"whom or what for\" --reason \"…\""))
        }
        if country == .germany, trip.customer?.trimmingWhitespace.isEmpty ?? true {
            findings.append(LogFinding(rule: .customerMissing, trip: id, problem: "business trip without the business partner visited",
                                       why: whoAsks(country, for: "the business partners visited (aufgesuchte Geschäftspartner)"),
                                       fix: "\(edit) --customer \"NAME\" --reason \"…\""))
        }
        let destination = !(trip.destination?.trimmingWhitespace.isEmpty ?? true) || trip.endPlace?.address != nil
        if [.germany, .unitedKingdom, .unitedStates].contains(country), !destination {
            findings.append(LogFinding(rule: .destinationMissing, trip: id,
                                       problem: country == .germany ? "business trip without the destination's address"
                                           : "business trip without its destination",
                                       why: whoAsks(country, for: country == .germany ? "the destination with its address (Reiseziel mit Anschrift)"
                                                        : "the destination of each business trip"),
                                       fix: "\(edit) --destination \"STREET NUMBER, TOWN\" --reason \"…\" (or a named place with an address)"))
        }
        if country == .unitedKingdom {
            let start = trip.startPlace?.address.map(UKPostcode.contains) ?? false
            let end = (trip.endPlace?.address.map(UKPostcode.contains) ?? false)
                || (trip.destination.map(UKPostcode.contains) ?? false)
            if !start || !end {
                let missing = !start && !end ? "the start's and the end's postcodes" : !start ? "the start's postcode" : "the end's postcode"
                findings.append(LogFinding(rule: .postcodesMissing, trip: id, problem: "business journey without \(missing)",
                                           why: "HMRC's guidance on employees' business mileage asks the postcode of the start "
                                               + "and of the end of each business journey, with its reason",
                                           fix: "\(edit) --from PLACE --to PLACE --reason \"…\", places whose address has the "
                                               + "postcode (trackctl place add … --address \"…, SW1A 1AA\"; or --destination "
                                               + "with the end's postcode)"))
            }
        }
        if country == .germany, let date = trip.date {
            let late = changes.filter { $0.date.daysSinceEpoch - date.daysSinceEpoch > promptDays }
            if let latest = late.max(by: { $0.date < $1.date }) {
                let days = latest.date.daysSinceEpoch - date.daysSinceEpoch
                let what = late.contains { $0.field == "entry" } ? "entered" : "changed (\(Set(late.map(\.field)).sorted().joined(separator: ", ")))"
                findings.append(LogFinding(rule: .notPrompt, trip: id, problem: "\(what) \(days) days after the trip",
                                           why: "the Finanzamt accepts a Fahrtenbuch kept promptly (zeitnah, BFH VI R 64/04); "
                                               + "entries more than \(promptDays) days late may make it reject the whole log",
                                           fix: "nothing undoes it: keep entries and changes within \(promptDays) days of the trip"))
            }
        }
        return findings
    }

    /// A gap or an overlap between the odometer at the end of `previous` and at the start of `trip`, as the log
    /// prints them in `unit`.
    private static func odometerLink(from previous: LogTrip?, to trip: LogTrip, unit: DistanceUnit) -> LogFinding? {
        guard let previous, let end = previous.reportedTenths(in: unit).end, let start = trip.reportedTenths(in: unit).start,
              start != end
        else { return nil }
        let name = unit.rawValue
        let difference = DistanceUnit.text(tenths: abs(start - end))
        let ends = "trip \(previous.id) ends at \(DistanceUnit.text(tenths: end)) \(name), trip \(trip.id) starts at "
            + "\(DistanceUnit.text(tenths: start)) \(name)"
        if start > end {
            return LogFinding(rule: .odometerGap, trip: trip.id, problem: "\(difference) \(name) missing before it: \(ends)",
                              why: "consecutive entries must chain: the odometer at one's end is the next one's start",
                              fix: "trackctl add --distance \(difference) --private|--business … for the driving in between, "
                                  + "or trackctl odometer set with the dashboard's reading")
        }
        return LogFinding(rule: .odometerOverlap, trip: trip.id, problem: "\(difference) \(name) counted twice: \(ends)",
                          why: "consecutive entries must chain: an entry cannot start below the previous one's end",
                          fix: "trackctl edit \(trip.id) (or trip \(previous.id)) with the right odometer, or delete the entry counted twice")
    }

    /// Who asks for `what`, and where.
    private static func whoAsks(_ country: Country?, for what: String) -> String {
        switch country {
        case .germany: "the Finanzamt asks for \(what) (R 8.1 Abs. 9 Nr. 2 LStR)"
        case .estonia: "Maksu- ja Tolliamet asks for \(what) (Vabariigi Valitsuse määrus nr 164 § 4)"
        case .unitedKingdom: "HMRC asks for \(what) (the date, destination, purpose and miles of each business journey)"
        case .unitedStates: "the IRS asks for \(what) (Publication 463, chapter 5: recordkeeping)"
        case nil: "a tax office asks for \(what)"
        }
    }

    /// Lower case, spaces trimmed, a final full stop dropped.
    private static func normalized(_ purpose: String) -> String {
        var text = purpose.lowercased().trimmingWhitespace
        while text.hasSuffix(".") || text.hasSuffix("!") { text.removeLast() }
        return text.trimmingWhitespace
    }
}
