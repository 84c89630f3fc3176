import TrackSQLite
import TrackCore

/// A trip's number in SQL: the `trip` row's integer id, bound and read as it is.
extension TripID: DatabaseValueConvertible {}
