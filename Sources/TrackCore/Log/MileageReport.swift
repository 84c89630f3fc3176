/// Everything an export or a report shows for a period: the profile, the trips with their tracks, the history of
/// changes, the totals and the hash-chain head that anchors the log.
public struct MileageReport: Sendable, Hashable, Codable {
    public var profile: LogProfile
    /// The period as asked (`2026-11`) and its title (`November 2026`).
    public var period: String
    public var periodTitle: String
    /// The first day and the day after the last (in the profile's time zone); `nil` for all trips.
    public var from: CivilDate?
    public var until: CivilDate?
    public var kind: KindFilter
    /// The trips, oldest first, deleted ones included (marked) so that the odometer chain stays visible.
    public var trips: [ReportTrip]
    /// Changes to these trips and to the log in the period, oldest first.
    public var revisions: [LogRevision]
    /// The newest hash of the log's chain when the report was made (see `trackctl verify`).
    public var chainHead: String?
    /// When and by what the report was made.
    public var generatedAt: UTCTime
    public var generator: String
    /// With a country in the profile: the allowance of the period's business trips (`nil` without one).
    public var allowance: ReportAllowance?
    /// What `trackctl check` finds in the period (`nil`: not asked).
    public var findings: [LogFinding]?
    /// With a country in the profile: every tax year the period touches, oldest first, each from its first day to
    /// the period's end (or the year's last day), as a tax return asks for it.
    public var years: [YearSummary]

    public init(profile: LogProfile, period: String, periodTitle: String, from: CivilDate?, until: CivilDate?,
                kind: KindFilter, trips: [ReportTrip], revisions: [LogRevision], chainHead: String?,
                generatedAt: UTCTime, generator: String, allowance: ReportAllowance? = nil, findings: [LogFinding]? = nil,
                years: [YearSummary] = []) {
        self.years = years
        self.allowance = allowance
        self.findings = findings
        self.profile = profile
        self.period = period
        self.periodTitle = periodTitle
        self.from = from
        self.until = until
        self.kind = kind
        self.trips = trips
        self.revisions = revisions
        self.chainHead = chainHead
        self.generatedAt = generatedAt
        self.generator = generator
    }

    enum CodingKeys: String, CodingKey {
        case profile, period, from, until, kind, trips, revisions, generator, allowance, findings, years
        case periodTitle = "period_title"
        case chainHead = "chain_head"
        case generatedAt = "generated_at"
    }

    /// Totals in tenths of the profile's unit, from the rounded figures each row prints (so the table adds up).
    public var totals: Totals { Totals(trips.map(\.trip), unit: profile.distanceUnit) }

    /// Tenths of a kilometre by kind.
    public struct Totals: Sendable, Hashable, Codable {
        public var business: Int64 = 0
        public var `private`: Int64 = 0
        public var unclassified: Int64 = 0
        /// Of `private`, the commutes (`LogTrip.commute`).
        public var commute: Int64 = 0
        public var trips = 0

        public init() {}

        /// The totals of the entries that count (deleted ones do not), in tenths of `unit`.
        public init(_ entries: some Sequence<LogTrip>, unit: DistanceUnit = .kilometres) {
            for trip in entries where trip.counts {
                let tenths = trip.reportedTenths(in: unit).distance
                switch trip.kind {
                case .business: business += tenths
                case .private: `private` += tenths
                case .unclassified: unclassified += tenths
                }
                if trip.commute { commute += tenths }
                trips += 1
            }
        }

        enum CodingKeys: String, CodingKey {
            case business, `private`, unclassified, commute, trips
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            business = try c.decode(Int64.self, forKey: .business)
            `private` = try c.decode(Int64.self, forKey: .private)
            unclassified = try c.decode(Int64.self, forKey: .unclassified)
            // Totals from before commutes were recorded have none.
            commute = try c.decodeIfPresent(Int64.self, forKey: .commute) ?? 0
            trips = try c.decode(Int.self, forKey: .trips)
        }

        public var all: Int64 { business + `private` + unclassified }
    }
}

/// A trip with its track: segments of positions, a new segment after each outage.
public struct ReportTrip: Sendable, Hashable, Codable {
    public var trip: LogTrip
    public var segments: [[TrackPoint]]

    public init(trip: LogTrip, segments: [[TrackPoint]]) {
        self.trip = trip
        self.segments = segments
    }
}
