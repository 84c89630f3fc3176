import Logging
import TrackCore

extension Fix {
    /// Structured log fields for a fix.
    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["mode": "\(mode)"]
        if let time { metadata["time"] = "\(time)" }
        if let latitude, let longitude { metadata["position"] = "\(latitude),\(longitude)" }
        if let satellitesUsed { metadata["satellites"] = "\(satellitesUsed)" }
        if let eph { metadata["eph"] = "\(eph)" }
        if let speed { metadata["speed"] = "\(speed)" }
        return metadata
    }
}
