import Logging
import TrackCore

extension Fix {
    /// Structured log fields for a fix; the position only at `trace` (`withPosition`): the journal is kept on the
    /// card, and where the car stood when the fix came is where someone lives or works (docs/privacy.md).
    func logMetadata(withPosition: Bool = false) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["mode": "\(mode)"]
        if let time { metadata["time"] = "\(time)" }
        if withPosition, let latitude, let longitude { metadata["position"] = "\(latitude),\(longitude)" }
        if let satellitesUsed { metadata["satellites"] = "\(satellitesUsed)" }
        if let eph { metadata["eph"] = "\(eph)" }
        if let speed { metadata["speed"] = "\(speed)" }
        return metadata
    }
}
