import TrackCore

extension Coordinate {
    /// Finite and on the globe.
    var isDrawable: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
