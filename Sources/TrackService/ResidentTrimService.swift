import Logging
import ServiceLifecycle

/// Keeps the daemon's resident memory to the code it runs: lets go of the start-up's code pages once the daemon has
/// settled, and again whenever its file pages have grown by more than `growth` over the running set (a control
/// request, a trip's close with its exports, a report, a reload), at most once per `spacing`, so that `VmRSS` stays
/// near the running set on a small board (docs/benchmarks.md, "Memory").
public struct ResidentTrimService: Service {
    /// How long after start the first release waits: the source is open and the first fixes are through.
    let settle: Duration
    /// How often the file pages are looked at; also how long after a release the running set is measured.
    let check: Duration
    /// Growth of the file pages over the running set that earns another release.
    let growth: Int
    /// The shortest time between two releases: the code the daemon runs faults back in after each.
    let spacing: Duration
    private let logger: Logger

    public init(settle: Duration = .seconds(5), check: Duration = .seconds(10), growth: Int = 1 << 19,
                spacing: Duration = .seconds(60), logger: Logger) {
        self.settle = settle
        self.check = check
        self.growth = growth
        self.spacing = spacing
        self.logger = logger
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            guard await pause(settle) else { return }
            let clock = ContinuousClock()
            while true {
                let before = ResidentPages.fileBytes()
                let released = ResidentPages.release()
                let releasedAt = clock.now
                // The running set: what came back one check after the release.
                guard await pause(check), let runningSet = ResidentPages.fileBytes() else { return }
                logger.debug("code pages released", metadata: [
                    "file_kb_before": "\(before.map { $0 / 1024 } ?? -1)", "file_kb_running": "\(runningSet / 1024)",
                    "refused_mappings": "\(released.refused)",
                ])
                var due = false
                while !due {
                    guard await pause(check), let now = ResidentPages.fileBytes() else { return }
                    due = Self.hasGrown(from: runningSet, to: now, by: growth) && clock.now - releasedAt >= spacing
                }
            }
        }
    }

    /// Whether file pages at `now` have grown past the running set by more than `growth` bytes.
    static func hasGrown(from runningSet: Int, to now: Int, by growth: Int) -> Bool {
        now - runningSet > growth
    }

    /// Sleeps for `duration`; `false` once the service is asked to stop.
    private func pause(_ duration: Duration) async -> Bool {
        do {
            try await Task.sleep(for: duration)
            return true
        } catch {
            return false
        }
    }
}
