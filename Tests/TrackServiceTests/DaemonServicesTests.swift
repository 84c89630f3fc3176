import Logging
import ServiceLifecycle
import Synchronization
import Testing
@testable import TrackService

/// The daemon's shutdown rule (`DaemonServices`), on stand-ins for its six services: the tracker's end ends the
/// group, every other service runs until asked, and the group asks in the reverse of the start order.
struct DaemonServicesTests {
    /// The order in which the stand-ins were asked to stop.
    private final class StopOrder: Sendable {
        private let names = Mutex<[String]>([])
        func note(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Runs until asked to stop, as every service but the tracker must; `onStop` runs when it is asked.
    private struct UntilAsked: Service {
        let name: String
        let order: StopOrder
        var onStop: @Sendable () -> Void = {}

        func run() async throws {
            try? await gracefulShutdown()
            order.note(name)
            onStop()
        }
    }

    /// Returns at once, breaking the rule.
    private struct EndsEarly: Service {
        func run() async throws {}
    }

    /// Stands for the tracker: it returns when its inbox ends (`inbox`), or ends the inbox itself when asked.
    private struct Tracker: Service {
        let inbox: AsyncStream<Void>
        let finish: @Sendable () -> Void
        let order: StopOrder

        func run() async throws {
            await withGracefulShutdownHandler {
                for await _ in inbox {}
            } onGracefulShutdown: {
                order.note("tracker asked")
                finish()
            }
            order.note("tracker")
        }
    }

    /// The six in trackd's order: the source ends the tracker's inbox when it is asked to stop.
    private func daemon(order: StopOrder, control: (any Service)? = nil) -> (ServiceGroup, finish: @Sendable () -> Void) {
        let (inbox, continuation) = AsyncStream.makeStream(of: Void.self)
        let finish: @Sendable () -> Void = { continuation.finish() }
        let group = DaemonServices.group(
            control: control ?? UntilAsked(name: "control", order: order),
            alerts: UntilAsked(name: "alerts", order: order),
            reload: UntilAsked(name: "reload", order: order),
            tracker: Tracker(inbox: inbox, finish: finish, order: order),
            source: UntilAsked(name: "source", order: order, onStop: finish),
            systemd: UntilAsked(name: "systemd", order: order),
            signals: [], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        return (group, finish)
    }

    @Test func aStopAsksTheServicesInTheReverseOfTheirStartOrderAndSucceeds() async throws {
        // Many times: the tracker returns as soon as the source has ended its inbox, which may be before the group
        // asks it; either way the stop is clean (it failed when the tracker came before a service still running).
        for _ in 0..<50 {
            let order = StopOrder()
            let (group, _) = daemon(order: order)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            let stops = order.all.filter { $0 != "tracker asked" }
            #expect(stops == ["systemd", "source", "tracker", "reload", "alerts", "control"])
        }
    }

    @Test func theTrackersEndStopsTheOthersInOrderAndSucceeds() async throws {
        let order = StopOrder()
        let (group, finish) = daemon(order: order)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // The end of a recording: the inbox ends without a stop asked.
            finish()
            try await tasks.waitForAll()
        }
        #expect(order.all == ["tracker", "systemd", "source", "reload", "alerts", "control"])
    }

    @Test func aServiceThatEndsBeforeItIsAskedIsNamedAndTheOthersStillStopInOrder() async throws {
        let order = StopOrder()
        let (group, _) = daemon(order: order, control: EndsEarly())
        await #expect(throws: DaemonServicesError.endedBeforeAsked(service: "control")) {
            try await group.run()
        }
        #expect(order.all.filter { $0 != "tracker asked" } == ["systemd", "source", "tracker", "reload", "alerts"])
    }
}
