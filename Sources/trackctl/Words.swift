import TrackCore
import TrackctlTexts

/// The log's own values (a trip's kind, source and state) as trackctl names them to a person, in its language.
enum Words {
    /// `business`, `private`, `unclassified`.
    static func kind(_ kind: TripKind) -> String {
        switch kind {
        case .business: t("business")
        case .private: t("private")
        case .unclassified: t("unclassified")
        }
    }

    /// `gps`, `manual`, `regular`, `unrecorded`, `correction`.
    static func source(_ source: TripSource) -> String {
        switch source {
        case .gps: t("gps")
        case .manual: t("manual")
        case .regular: t("regular")
        case .unrecorded: t("unrecorded")
        case .correction: t("correction")
        }
    }

    /// `open`, `closed`, `deleted`.
    static func state(_ state: TripState) -> String {
        switch state {
        case .open: t("open")
        case .closed: t("closed")
        case .deleted: t("deleted")
        }
    }

    /// `yes`, `no`.
    static func yes(_ value: Bool) -> String {
        value ? t("yes") : t("no")
    }

    /// A country's name.
    static func country(_ country: Country) -> String {
        switch country {
        case .estonia: t("Estonia")
        case .germany: t("Germany")
        case .unitedKingdom: t("the United Kingdom")
        case .unitedStates: t("the United States")
        }
    }

    /// A rule's condition as a person reads it: `Office ↔ Example Ltd` (the places' names as trackd gave them),
    /// `Mon–Fri 08:00–18:00`, `outside Mon–Fri 08:00–18:00`, `regular trip 'Depot'`.
    static func rule(_ rule: ClassificationRule) -> String {
        switch rule.condition {
        case .places:
            return rule.text ?? ""
        case .hours(let hours, let outside):
            let when = "\(days(hours.days)) \(WorkHours.clock(hours.start))–\(WorkHours.clock(hours.end))"
            return outside ? t("outside \(when)") : when
        case .regular(let name):
            return t("regular trip '\(name)'")
        }
    }

    /// Days as `WorkHours.daysText` writes them (`Mon–Fri`, `Sat, Sun`), the day names in trackctl's language.
    static func days(_ days: [Int]) -> String {
        WorkHours.daysText(days, names: [t("Mon"), t("Tue"), t("Wed"), t("Thu"), t("Fri"), t("Sat"), t("Sun")])
    }

    /// What a rule makes of a trip: `business (Delivery, Example Ltd)`, `private (commute)`, `as the regular trip`.
    static func outcome(_ rule: ClassificationRule) -> String {
        if case .regular = rule.condition { return t("as the regular trip") }
        var details = [rule.purpose, rule.customer].compactMap { $0.flatMap { $0.trimmed.isEmpty ? nil : $0 } }
        if rule.commute { details.insert(t("commute"), at: 0) }
        return details.isEmpty ? kind(rule.kind) : "\(kind(rule.kind)) (\(details.joined(separator: ", ")))"
    }

    /// `active`, `paused`, `declined`.
    static func state(_ state: RuleState) -> String {
        switch state {
        case .active: t("active")
        case .paused: t("paused")
        case .declined: t("declined")
        }
    }

    /// `trip 3` or `trips 1, 2, 3`, at most ten named.
    static func trips(_ trips: [TripID]) -> String {
        let shown = trips.prefix(10).map(\.description).joined(separator: ", ")
        if trips.count == 1 { return t("trip \(shown)") }
        return trips.count > 10 ? t("trips \(shown), … and \(trips.count - 10) more") : t("trips \(shown)")
    }
}
