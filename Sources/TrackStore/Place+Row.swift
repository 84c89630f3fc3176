import TrackSQLite
import TrackText
import TrackCore

extension Place {
    /// A place from its table row.
    init(row: Row) throws {
        let kindText: String? = try row["kind"]
        let kind = try kindText.map { text in
            guard let kind = TripKind(rawValue: text) else {
                throw StoreError.invalid("place \(try row["id"] as Int64? ?? 0) has an unknown kind '\(text)'")
            }
            return kind
        }
        try self.init(id: PlaceID(row["id"] as Int64), name: row["name"],
                      position: Coordinate(latitude: row["lat"], longitude: row["lon"]), radius: row["radius"],
                      address: row["address"], customer: row["customer"], purpose: row["purpose"], kind: kind)
    }

    /// The column values of the place's row (all but `id`).
    var columns: [String: (any DatabaseValueConvertible)?] {
        ["name": name, "key": Place.key(name), "lat": position.latitude, "lon": position.longitude,
         "radius": radius, "address": address, "customer": customer, "purpose": purpose, "kind": kind?.rawValue]
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("id", id.rawValue)
        record.add("name", name)
        record.add("lat", position.latitude)
        record.add("lon", position.longitude)
        record.add("radius", radius)
        record.add("address", address)
        record.add("customer", customer)
        record.add("purpose", purpose)
        record.add("kind", kind?.rawValue)
        return record.text
    }

    /// The place in one line for the change history: "59.437000, 24.753600 ± 50 m".
    var historyText: String {
        Place.coordinateText(position) + " ± \(Int(radius.rounded())) m"
    }

    /// "59.437000, 24.753600".
    static func coordinateText(_ coordinate: Coordinate) -> String {
        String(printf: "%.6f, %.6f", coordinate.latitude, coordinate.longitude)
    }
}
