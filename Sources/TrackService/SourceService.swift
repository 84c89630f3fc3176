import Logging
import ServiceLifecycle
import TrackInput

/// Runs a fix source until shutdown and passes its events, in order, into the stream the tracker reads.
public struct SourceService: Service {
    private let source: any FixSource
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private let logger: Logger

    public init(source: any FixSource, continuation: AsyncStream<SourceEvent>.Continuation, logger: Logger) {
        self.source = source
        self.continuation = continuation
        self.logger = logger
    }

    public func run() async throws {
        defer { continuation.finish() }
        let continuation = self.continuation
        do {
            try await cancelWhenGracefulShutdown {
                try await source.run { event in continuation.yield(event) }
            }
        } catch is CancellationError {
            // Shutdown.
        } catch {
            logger.critical("source cannot run", metadata: ["source": "\(source)", "error": "\(error)"])
            throw error
        }
    }
}
