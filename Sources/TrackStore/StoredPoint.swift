import TrackSQLite
import TrackCore

/// A track point in its stored integer form: milliseconds, 1e-7 degrees, cm/s, centimetres.
struct StoredPoint {
    var timeMilliseconds: Int64
    var latitudeE7: Int64
    var longitudeE7: Int64
    var speedCentimetres: Int64?
    var errorCentimetres: Int64?
    var distanceCentimetres: Int64
    var segment: Int64

    init(timeMilliseconds: Int64, latitudeE7: Int64, longitudeE7: Int64, speedCentimetres: Int64?,
         errorCentimetres: Int64?, distanceCentimetres: Int64, segment: Int64) {
        self.timeMilliseconds = timeMilliseconds
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.speedCentimetres = speedCentimetres
        self.errorCentimetres = errorCentimetres
        self.distanceCentimetres = distanceCentimetres
        self.segment = segment
    }

    init(_ recorded: RecordedPoint) {
        let point = recorded.point
        timeMilliseconds = point.time.nanosecondsSinceEpoch / 1_000_000
        latitudeE7 = Int64((point.coordinate.latitude * 1e7).rounded())
        longitudeE7 = Int64((point.coordinate.longitude * 1e7).rounded())
        speedCentimetres = point.speed.flatMap { $0.isFinite ? Int64(($0 * 100).rounded()) : nil }
        errorCentimetres = point.error.flatMap { $0.isFinite ? Int64(min($0 * 100, 1e12).rounded()) : nil }
        distanceCentimetres = Int64((point.distance * 100).rounded())
        segment = Int64(recorded.segment)
    }

    init(row: Row) throws {
        timeMilliseconds = try row["time_ms"]
        latitudeE7 = try row["lat_e7"]
        longitudeE7 = try row["lon_e7"]
        speedCentimetres = try row["speed_cms"]
        errorCentimetres = try row["error_cm"]
        distanceCentimetres = try row["distance_cm"]
        segment = try row["segment"]
    }

    /// Back to a point (to the stored precision).
    var recorded: RecordedPoint {
        RecordedPoint(
            point: TrackPoint(
                time: UTCTime(nanosecondsSinceEpoch: timeMilliseconds * 1_000_000),
                coordinate: Coordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7),
                speed: speedCentimetres.map { Double($0) / 100 }, error: errorCentimetres.map { Double($0) / 100 },
                distance: Double(distanceCentimetres) / 100),
            segment: Int(segment))
    }
}
