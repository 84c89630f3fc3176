/// The version of trackd, trackctl and their protocol.
public enum TrackVersion {
    /// Semantic version of this build.
    public static let string = "0.1.0"
}
