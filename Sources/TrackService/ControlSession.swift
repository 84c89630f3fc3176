/// What one control connection has said about itself, kept by that connection's task alone for the lines that
/// follow: whom its client acts for (`hello`'s `on_behalf_of`).
public struct ControlSession: Sendable {
    /// `on_behalf_of` of the connection's `hello`, recorded with each change as `USER for WHOM`.
    public var onBehalfOf: String?

    public init() {}

    /// The name a change made by `peer` on this connection is recorded under.
    func user(_ peer: PeerCredentials?) -> String {
        let user = peer?.userName ?? "unknown"
        return onBehalfOf.map { "\(user) for \($0)" } ?? user
    }
}
