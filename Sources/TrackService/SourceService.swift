import Logging
import ServiceLifecycle
import TrackInput

/// Runs a fix source and passes its events, in order, into the tracker's inbox; ends the inbox when the source
/// stops, so that the tracker closes the trip and ends the daemon.
///
/// It keeps the daemon's shutdown rule (`DaemonServices`): it returns only when the group asks it to stop. A source
/// that ends by itself (the end of a recording) or fails (an address retrying cannot fix) ends the inbox at once, so
/// that the tracker ends the daemon, then waits for that request; a failure is thrown then, so that trackd exits
/// non-zero after an orderly stop.
public struct SourceService: Service, CustomStringConvertible {
    private let source: any FixSource
    private let inbox: TrackerInbox
    private let logger: Logger

    public init(source: any FixSource, inbox: TrackerInbox, logger: Logger) {
        self.source = source
        self.inbox = inbox
        self.logger = logger
    }

    public var description: String { "source" }

    public func run() async throws {
        let inbox = self.inbox
        var failure: (any Error)?
        do {
            try await cancelWhenGracefulShutdown {
                try await source.run { event in inbox.deliver(event) }
            }
        } catch is CancellationError {
            // Asked to stop.
        } catch {
            logger.critical("source cannot run", metadata: ["source": "\(source)", "error": "\(error)"])
            failure = error
        }
        // The tracker handles what is queued and closes the trip. Asked to stop, the source says so: the tracker
        // then waits for its own turn, since returning before this service has returned would be out of order. A
        // source that ended by itself lets the tracker return at once, which stops the daemon.
        if Task.isShuttingDownGracefully {
            inbox.finishForStop()
        } else {
            inbox.finish()
        }
        try? await gracefulShutdown()
        if let failure { throw SourceServiceError.cannotRun(source: "\(source)", failure) }
    }
}
