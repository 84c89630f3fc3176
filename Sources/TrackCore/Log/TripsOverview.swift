/// What the page's list of trips shows of a period: the trips, which of them a person changed after they were
/// written (`LogRevision.changesAnEntry`), and the business trips' amounts where the profile's country pays an
/// allowance (each trip's share of its month's, as the report has it).
public struct TripsOverview: Sendable, Hashable, Codable {
    /// The trips, oldest first, deleted ones included (as `trips` lists them).
    public var trips: [LogTrip]
    /// The trips among them a person changed after they were written, in the order of their numbers.
    public var changed: [TripID]
    /// The allowance of the period's business trips (`nil` without a country, or for a company car).
    public var allowance: ReportAllowance?

    public init(trips: [LogTrip], changed: [TripID], allowance: ReportAllowance?) {
        self.trips = trips
        self.changed = changed
        self.allowance = allowance
    }
}
