import Logging
import ServiceLifecycle
import TrackInput

/// Runs a fix source until shutdown and passes its events, in order, into the tracker's inbox; ends the inbox when
/// it stops.
public struct SourceService: Service {
    private let source: any FixSource
    private let inbox: TrackerInbox
    private let logger: Logger

    public init(source: any FixSource, inbox: TrackerInbox, logger: Logger) {
        self.source = source
        self.inbox = inbox
        self.logger = logger
    }

    public func run() async throws {
        defer { inbox.finish() }
        let inbox = self.inbox
        do {
            try await cancelWhenGracefulShutdown {
                try await source.run { event in inbox.deliver(event) }
            }
        } catch is CancellationError {
            // Shutdown.
        } catch {
            logger.critical("source cannot run", metadata: ["source": "\(source)", "error": "\(error)"])
            throw error
        }
    }
}
