import ArgumentParser
import TrackCore

/// A trip's number on the command line: `trackctl show 12`.
extension TripID: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Int64(argument), value > 0 else { return nil }
        self.init(value)
    }
}
