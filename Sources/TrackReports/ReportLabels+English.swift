import TrackCore

extension ReportLabels {
    /// The report in English: the UK's and the US's logs, and a log without a country.
    public static let english = ReportLabels(
        code: "en", decimalSeparator: ".", thousandsSeparator: ",", title: "Mileage log",
        months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                 "November", "December"],
        driver: "Driver", plate: "Plate", company: "Company",
        car: "Car", carOwnership: [.own: "the driver's own (mileage allowance)", .company: "a company car (no mileage allowance)"],
        timeZone: "Time zone", generated: "Generated",
        generatedBy: "By", tripsOnly: "Trips", only: { "\($0) only" },
        periodRange: { "(\($0) to \($1))" },
        trips: "Trips",
        columns: [.number: "No.", .date: "Date", .start: "Start", .end: "End", .odometerStart: "Odometer start",
                  .odometerEnd: "Odometer end", .distance: "", .businessDistance: "Business",
                  .privateDistance: "Private", .commuteDistance: "Home–work", .amount: "Amount", .kind: "Kind",
                  .purpose: "Purpose", .whereabouts: "Customer / destination / from → to",
                  .destination: "Destination and address", .customer: "Customer", .detours: "Detours",
                  .notes: "Notes"],
        kinds: [.business: "business", .private: "private", .unclassified: "unclassified"],
        commute: "commute",
        noTrips: "No trips in this period.", allTrips: "All trips", totalOf: { "Total \($0)" },
        tripCount: { $0 == 1 ? "1 trip" : "\($0) trips" },
        odometerReadings: "Odometer readings",
        sources: [.car: ("C", "read from the car (OBD-II)"), .dashboard: ("D", "a dashboard reading typed in"),
                  .gps: ("G", "the log's odometer carried on by the distance GPS measured")],
        notes: NoteLabels(
            deleted: { "deleted: \($0)" }, deletedWithoutReason: "deleted (no reason given)",
            purposeMissing: "purpose missing", unrecorded: "not recorded: found by an odometer reading",
            correction: "correction: the log was ahead of the odometer", regular: { "regular trip '\($0)'" },
            routeWithheld: "route not kept (private trip, privacy mode)", routeErased: "route erased",
            outages: { "\($0 == 1 ? "1 outage" : "\($0) outages"), \($1) bridged" },
            idleAlerts: { $0 == 1 ? "1 idle alert" : "\($0) idle alerts" },
            cutOffByPowerLoss: "cut off by power loss, not yet recovered", stillRecorded: "still being recorded",
            endedByPowerLoss: "ended by power loss", endedByShutdown: "ended by shutdown",
            endedOnRestart: "ended on restart", ended: { "ended: \($0)" }, endsOn: { "ends on \($0)" },
            changed: "changed after it was written (see the change history)"),
        allowance: { "Allowance (\($0.name))" }, thisPeriod: "This period",
        unconfirmedRates: { through in
            (through.map { "The rates are known to hold only to \($0)" } ?? "No day of these rates is confirmed")
                + ": the amounts after it are at the last rate known, which may have changed."
        },
        taxYearSpan: { "tax year from \($0) to \($1)" },
        countedOver: { country in
            "counted over this log alone: " + (country == .estonia ? "the law counts the cap per employer"
                                               : "HMRC counts a person's business miles in all their cars")
        },
        ruleWords: { rate, unit, reduced, cap, from, source in
            var text = "\(rate)/\(unit)"
            if let reduced { text += " (\(reduced.rate) past \(reduced.threshold) \(unit) a tax year)" }
            if let cap { text += ", at most \(cap) a month" }
            return text + (from.map { " from \($0)" } ?? "") + " (\(source))"
        },
        yearTitle: { "Tax year from \($0) to \($1)" },
        yearIntroduction: "The figures the tax return asks for, from the tax year's first day to its last day in this period.",
        businessShare: "Business share", amount: "Allowance",
        check: "Check", checkClean: "Nothing a tax office would question", profile: "Profile", trip: "Trip",
        fix: "Fix",
        rules: [:],
        history: "Change history", noChanges: "No changes",
        historyColumns: ("Time", "User", "Trip / subject", "Field", "Old → new", "Reason"),
        historyTrip: { "trip \($0)" }, clock: { " (\($0) clock)" },
        maps: "Maps", noTracks: "No recorded tracks in this period.", trackOf: { "Track of trip \($0)" },
        chainHead: "Chain head", noChainHead: "The log has no chain head yet.",
        verify: "Check that the log has not been altered with <code>trackctl verify</code>.")
}
