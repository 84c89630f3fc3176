import Logging
import ServiceLifecycle
import Testing
@testable import TrackService

/// The alert service's place in trackd's service group (running the command itself is in SystemTests).
struct AlertServiceTests {
    /// Stands for the tracker: at the shutdown it finishes the hub, then takes a while to return, as the tracker
    /// does while it closes the trip and commits.
    private struct HubFinisher: Service {
        let hub: WatchHub
        let started: AsyncStream<Void>.Continuation

        func run() async throws {
            started.yield()
            try? await gracefulShutdown()
            hub.finishAll()
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    @Test func waitsForItsTurnInTheShutdownWhenTheTrackerFinishesTheHubFirst() async throws {
        let hub = WatchHub()
        let (started, continuation) = AsyncStream.makeStream(of: Void.self)
        let alerts = AlertService(hub: hub, settings: AlertSettings(.init(command: [], timeout: 1)),
                                  logger: Logger(label: "test"))
        // The order of trackd's group: the alert service before the tracker, so it is shut down after it.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: alerts, successTerminationBehavior: .ignore),
                .init(service: HubFinisher(hub: hub, started: continuation), successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = started.makeAsyncIterator()
            await iterator.next()
            await group.triggerGracefulShutdown()
            // Before the fix the alert service returned as soon as the hub finished, and the group ended with
            // "a service has finished unexpectedly" (trackd exited 1 at about one stop in five).
            try await tasks.waitForAll()
        }
    }
}
