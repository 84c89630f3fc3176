/// What the rules look at in a trip that closes: its places and its times on the log's wall clock.
public struct TripFacts: Sendable, Hashable {
    public var startPlace: TripPlace?
    public var endPlace: TripPlace?
    /// The trip's start and end on the wall clock of the log's time zone, written as UTC (08:00 local is 08:00Z).
    public var localStart: UTCTime?
    public var localEnd: UTCTime?

    public init(startPlace: TripPlace?, endPlace: TripPlace?, localStart: UTCTime?, localEnd: UTCTime?) {
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.localStart = localStart
        self.localEnd = localEnd
    }
}
