import TrackCore

/// The car's own data through an ELM327 OBD-II adapter (the `obd:` section of trackd.conf; docs/obd.md).
public struct OBDConfiguration: Sendable, Hashable {
    /// Where the adapter is; `nil`: no adapter, trackd reads GPS only.
    public var adapter: OBDAddress?

    public init(adapter: OBDAddress? = nil) {
        self.adapter = adapter
    }
}
