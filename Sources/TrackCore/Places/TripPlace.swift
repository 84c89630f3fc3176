/// Where a trip started or ended, when that was a named place: the place's number, and its name and address as
/// they were when the trip got them (a place renamed later does not rewrite the log; its history says who changed
/// what).
public struct TripPlace: Sendable, Hashable, Codable {
    /// The place's number; `nil` when the place was removed since.
    public var id: PlaceID?
    public var name: String
    public var address: String?

    public init(id: PlaceID?, name: String, address: String? = nil) {
        self.id = id
        self.name = name
        self.address = address
    }

    /// "Example Ltd, Tartu mnt 1, Tallinn", or the name alone.
    public var text: String { address.map { "\(name), \($0)" } ?? name }
}
