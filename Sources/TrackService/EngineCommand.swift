import TrackCore

/// A command for the tracker from outside the data flow (the control socket, the daemon at boot).
public enum EngineCommand: Sendable {
    /// A change to the log by `user`, answered through `reply`.
    case request(LogRequest, user: String, reply: Reply<LogResponse>)
    /// Move what the point file holds into the log, then answer: a read through the socket sees every point
    /// committed (the answer is whether that went through; the read goes on either way).
    case settle(reply: Reply<Bool>)
    /// Run the engine with new settings from now on (a configuration reload); the running trip carries on.
    case reconfigure(EngineConfiguration)
    /// Keep routes and names by a new privacy policy and `profile:` section from now on (a configuration reload).
    case privacy(PrivacyPolicy, profile: ProfileChanges)
}
