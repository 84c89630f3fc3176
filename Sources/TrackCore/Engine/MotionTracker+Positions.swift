import RealModule

/// Movement from positions: a vehicle creeping off its parked spot that the speed misses, and the whole state
/// machine for a receiver that reports no speed.
extension MotionTracker {
    /// The state machine on positions alone, for a receiver that reports no speed.
    mutating func followPosition(_ sample: Sample, _ emit: (Event) -> Void) {
        guard let coordinate = sample.coordinate else { return }
        switch state {
        case .moving:
            let from = step ?? (coordinate, sample.time)
            let moved = Geodesic.distance(from: from.coordinate, to: coordinate)
            if moved >= max(5, sample.error ?? 0) {
                commit(moved, emit)
                step = (coordinate, sample.time)
            } else if sample.time.seconds(since: from.time) >= 20 {
                state = .stationary(since: from.time)
                anchor = ParkedSpot(coordinate, error: sample.error ?? 0)
                displacedSince = nil
                emit(.stopped(from.time))
            } else if step == nil {
                step = from
            }
        case .stationary, .unknown:
            if state == .unknown { stop(at: sample, emit) }
            if let moved = displacement(sample) {
                commit(moved.metres, emit)
                startMoving(at: moved.since, emit)
                step = (coordinate, sample.time)
            }
        }
    }

    /// While stationary with speed reports: a position that has left the parked spot for long enough is
    /// movement the speed threshold missed — if the reported velocity went the same way. A creeping car reports
    /// its crawl and its course; a parked receiver whose position wanders in a street canyon reports rest noise
    /// in random directions.
    mutating func checkDisplacement(_ sample: Sample, increment: Double, _ emit: (Event) -> Void) {
        if let course = sample.course {
            let radians = course * .pi / 180
            dopplerDrift.east += increment * Double.sin(radians)
            dopplerDrift.north += increment * Double.cos(radians)
        }
        guard let moved = displacement(sample), let coordinate = sample.coordinate, let spot = anchor else { return }
        let offset = Geodesic.offset(of: coordinate, from: spot.center)
        let along = (dopplerDrift.east * offset.east + dopplerDrift.north * offset.north) / max(moved.metres, 1e-9)
        guard along >= moved.metres / 2 else {
            // The position wandered, the vehicle did not: take the spot afresh from here.
            anchor = ParkedSpot(coordinate, error: sample.error ?? 0)
            dopplerDrift = (0, 0)
            return
        }
        commit(moved.metres, emit)
        emit(.displaced(sample.time, metres: moved.metres))
        state = .stationary(since: sample.time)
        // It is creeping on: the next stretch is measured from here, without averaging behind it.
        anchor = ParkedSpot(coordinate, error: sample.error ?? 0, settled: true)
        dopplerDrift = (0, 0)
    }

    /// How far, and since when, the position has persistently left the parked spot; `nil` while it has not.
    mutating func displacement(_ sample: Sample) -> (metres: Double, since: UTCTime)? {
        guard let coordinate = sample.coordinate else { return nil }
        let error = sample.error ?? 0
        guard var spot = anchor else {
            anchor = ParkedSpot(coordinate, error: error)
            return nil
        }
        let metres = Geodesic.distance(from: spot.center, to: coordinate)
        let allowed = max(configuration.minDisplacement, configuration.displacementErrors * (spot.error + error))
        guard metres > allowed else {
            displacedSince = nil
            spot.include(coordinate, error: error)
            anchor = spot
            return nil
        }
        let since = displacedSince ?? sample.time
        displacedSince = since
        guard sample.time.seconds(since: since) >= configuration.displacementPersistence else { return nil }
        displacedSince = nil
        return (metres, since)
    }
}
