/// What trackd keeps of where the car went, and for how long: the `privacy:` section of the configuration
/// (docs/privacy.md).
public struct PrivacyPolicy: Sendable, Hashable {
    /// What happens to the route of a private trip.
    public enum PrivateRoutes: String, Sendable, Hashable, CaseIterable {
        /// Privacy mode: a trip private from its start stores no route; one reclassified private loses it then.
        case erase
        /// Private trips keep their routes like the others.
        case keep
    }

    public var privateRoutes: PrivateRoutes
    /// How long business trips must be kept; `trackctl erase --all` refuses to erase those inside it.
    public var retention: RetentionPolicy
    /// Routes of trips older than this many months are erased (checked at start and after each trip); 0 keeps
    /// them until erased by hand.
    public var eraseRoutesAfterMonths: Int

    public init(privateRoutes: PrivateRoutes = .erase, retention: RetentionPolicy = RetentionPolicy(),
                eraseRoutesAfterMonths: Int = 0) {
        self.privateRoutes = privateRoutes
        self.retention = retention
        self.eraseRoutesAfterMonths = eraseRoutesAfterMonths
    }

    /// What a GPS trip of `kind` starting now keeps of its route.
    public func route(startingAs kind: TripKind) -> TripRoute {
        kind == .private && privateRoutes == .erase ? .withheld : .recorded
    }

    /// Whether a trip reclassified private loses its route.
    public var erasesRoutesOfPrivateTrips: Bool { privateRoutes == .erase }

    /// The first day whose trips keep their routes under `eraseRoutesAfterMonths`, counted from `today`; `nil` when
    /// routes are kept.
    public func routesKept(since today: CivilDate) -> CivilDate? {
        guard eraseRoutesAfterMonths > 0 else { return nil }
        let months = today.year * 12 + (today.month - 1) - eraseRoutesAfterMonths
        let year = months / 12
        let month = months % 12 + 1
        let day = min(today.day, CivilDate.daysIn(month: month, year: year))
        return CivilDate(year: year, month: month, day: day)
    }
}
