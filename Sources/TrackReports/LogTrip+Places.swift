import TrackCore

extension LogTrip {
    /// `from Home to Example Ltd`, `from Home` or `to Example Ltd`: the named places the trip carries, by name;
    /// `nil` when it has none. Whatever the trip's route: a place the driver set by hand is shown, none is invented.
    var placesSentence: String? {
        switch (startPlace, endPlace) {
        case (nil, nil): nil
        case (let start?, nil): "from \(start.name)"
        case (nil, let end?): "to \(end.name)"
        case (let start?, let end?): "from \(start.name) to \(end.name)"
        }
    }

    /// The places a map of the trip marks: its start and end place where it has both the place and a position on
    /// the globe to draw it at (`startPosition`, `endPosition`); none for a trip whose route is not kept.
    var mapPlaces: [TrackMap.Place] {
        guard route.isKept else { return [] }
        var places: [TrackMap.Place] = []
        if let place = startPlace, let position = startPosition, position.isDrawable {
            places.append(TrackMap.Place(role: .start, coordinate: position, name: place.name, address: place.address))
        }
        if let place = endPlace, let position = endPosition, position.isDrawable {
            places.append(TrackMap.Place(role: .end, coordinate: position, name: place.name, address: place.address))
        }
        return places
    }
}
